/**
 * The store stage, beside the pipeline: a result that was cut is kept whole (cleaned: what the
 * store receives went through redaction) behind a content-derived handle, for `read_result`. A
 * store that refuses or fails costs the handle, never the result.
 */
import type { KeptInput, RecordTap } from "../keep/stage.js";
import type { Stage } from "../pipeline/run.js";
import {
  createStoreWriter,
  type ResultStore,
  type StoredInfo,
  type StoredResult,
} from "./store.js";

export interface StoreStageOptions {
  readonly store: ResultStore | undefined;
  /** A result larger than this many characters of JSON is not stored. */
  readonly maxChars: number;
  readonly info: Omit<StoredInfo, "format" | "envelope">;
}

type Writer = ReturnType<typeof createStoreWriter> & RecordTap;

export interface StoreStage extends Stage<KeptInput, KeptInput> {
  /** A fresh writer for one result, for keep to tap every record into; none without a store. */
  readonly tap: (() => RecordTap) | undefined;
}

/**
 * @example
 * const store = createStoreStage({ store: createMemoryStore(), maxChars: 32 << 20, info: { errorsFirst: true } });
 */
export function createStoreStage(o: StoreStageOptions): StoreStage {
  const writers = new WeakSet<RecordTap>();
  return {
    name: "store",
    tap:
      o.store === undefined
        ? undefined
        : () => {
            const writer = createStoreWriter(o.maxChars);
            const tap: Writer = { ...writer, record: (value, text) => writer.add(value, text) };
            writers.add(tap);
            return tap;
          },
    async run(kept, ctx) {
      const records = ctx.facts.records;
      const tap = kept.tap;
      if (!o.store || !records || !tap || !writers.has(tap)) return kept;
      if (records.refusal || records.violation || records.shape !== "records") return kept;
      const stored = await (tap as Writer).finish({
        ...o.info,
        format: records.format,
        ...(records.envelope !== undefined ? { envelope: records.envelope } : {}),
      });
      if (stored === undefined) return kept;
      const put = await Promise.resolve()
        .then(() => o.store?.put(stored as StoredResult))
        .catch(() => false);
      if (put !== false) records.handle = stored.handle;
      return kept;
    },
  };
}
