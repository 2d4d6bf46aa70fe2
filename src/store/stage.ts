/**
 * The store stage, beside the pipeline: a result is kept whole (cleaned: what the store
 * receives went through redaction) behind a content-derived handle, for `read_result`. Records
 * are tapped from keep one by one; text is tapped from the line decoder after the redaction
 * filter and written part by part as it streams. A store that refuses or fails costs the
 * handle, never the result.
 */
import type { KeepOptions, KeptInput, RecordTap, TextTap } from "../keep/stage.js";
import type { RunFacts } from "../pipeline/facts.js";
import type { Stage } from "../pipeline/run.js";
import { echoRewrite } from "../redact/reveal.js";
import type { ResultStore, StoredInfo, StoredResult } from "./store.js";
import type { RecordsWriter, TextWriter } from "./writers.js";

export interface StoreStageOptions {
  readonly store: ResultStore | undefined;
  /** A result larger than this many characters (records' JSON, or text) is not stored. */
  readonly maxChars: number;
  readonly info: Omit<StoredInfo, "format" | "envelope" | "lineCap">;
  /** The line decoder's cap, kept with a text result (`StoredInfo.lineCap`). */
  readonly lineCap?: number;
}

type Writer = RecordsWriter & RecordTap;
type TextWriterTap = TextWriter & TextTap;

export interface StoreStage extends Stage<KeptInput, KeptInput> {
  /** A fresh writer for one result, for keep to tap every record into; none without a store. */
  readonly tap: (() => RecordTap) | undefined;
  /** A fresh text writer for one result; none without a store that keeps parts. */
  readonly textTap: (() => TextTap) | undefined;
  /**
   * Loads the writers, once, when there is a store (they are not part of the up-front code):
   * awaited before keep runs, since keep calls `tap` and `textTap` synchronously.
   */
  ready(): Promise<void>;
}

/**
 * @example
 * const store = createStoreStage({ store: createMemoryStore(), maxChars: 32 << 20, info: { errorsFirst: true } });
 */
export function createStoreStage(o: StoreStageOptions): StoreStage {
  const writers = new WeakSet<object>();
  const store = o.store;
  let loading: Promise<void> | undefined;
  let made: typeof import("./writers.js") | undefined;
  const loaded = () => {
    if (!made) throw new Error("airlock: the store stage was used before ready()");
    return made;
  };
  const keepsText =
    store !== undefined &&
    typeof store.putPart === "function" &&
    typeof store.getPart === "function";
  return {
    name: "store",
    ready() {
      if (store === undefined) return Promise.resolve();
      loading ??= import("./writers.js").then((m) => {
        made = m;
      });
      return loading;
    },
    tap:
      store === undefined
        ? undefined
        : () => {
            const writer = loaded().createRecordsWriter(o.maxChars, o.info);
            const tap: Writer = { ...writer, record: writer.add };
            writers.add(tap);
            return tap;
          },
    textTap: !keepsText
      ? undefined
      : () => {
          const writer: TextWriterTap = loaded().createTextWriter(store, o.maxChars);
          writers.add(writer);
          return writer;
        },
    async run(kept, ctx) {
      if (!store) return kept;
      const handle = await withinWait(keepResult(kept, ctx.facts), ctx.stopper?.signal);
      if (handle) {
        ctx.facts.handle = handle;
        if (ctx.facts.records) ctx.facts.records.handle = handle;
      }
      return kept;
    },
  };

  /** Writes what keep tapped and puts it; the handle, or undefined when nothing was kept. */
  async function keepResult(kept: KeptInput, facts: RunFacts): Promise<string | undefined> {
    if (!store) return undefined;
    const records = facts.records;
    if (records) {
      const tap = kept.tap;
      if (!tap || !writers.has(tap)) return undefined;
      if (records.refusal || records.violation || records.shape !== "records") return undefined;
      const stored = await (tap as Writer).finish({
        ...o.info,
        format: records.format,
        ...(records.envelope !== undefined ? { envelope: records.envelope } : {}),
        ...(records.paths.length > 1
          ? { paths: records.paths.map((p) => ({ path: p.path, count: p.count })) }
          : {}),
      });
      return stored && (await keep(store, stored));
    }
    const text = kept.textTap;
    if (!text || !writers.has(text)) return undefined;
    // The stored text's last pass: echoes of the secrets found, while it is whole in memory.
    const rewrite = echoRewrite(facts);
    delete facts.echoes;
    const stored = await (text as TextWriterTap).finish(textInfo(o, facts), rewrite);
    return stored && (await keep(store, stored));
  }
}

/** How long a store may take to keep a result when the host's deadline or signal does not end it first. */
export const STORE_WAIT_MS = 30_000;
/** What a store still gets once the host has stopped the run (the partial result is worth a handle). */
export const STOPPED_WAIT_MS = 1_000;

/**
 * A store that never answers costs the handle, never the result: its work is raced against the
 * host's signal (`abortSignal`, `timeoutMs`) and a wait of its own.
 *
 * @example
 * await withinWait(store.put(stored), ctx.stopper?.signal); // undefined if the store hangs
 */
export function withinWait<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  const stopped = signal?.aborted === true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const given = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, stopped ? STOPPED_WAIT_MS : STORE_WAIT_MS, undefined);
    if (signal && !stopped) {
      onAbort = () => resolve(undefined);
      signal.addEventListener("abort", onAbort, { once: true });
    }
  });
  const done = work.catch(() => undefined);
  return Promise.race([done, given]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  });
}

/** Puts the result; its handle, or undefined when the store refused or failed. */
async function keep(store: ResultStore, stored: StoredResult): Promise<string | undefined> {
  const put = await Promise.resolve()
    .then(() => store.put(stored))
    .catch(() => false);
  return put === false ? undefined : stored.handle;
}

function textInfo(o: StoreStageOptions, facts: RunFacts): StoredInfo {
  return {
    ...(o.info.tool !== undefined ? { tool: o.info.tool } : {}),
    format: facts.format,
    ...(facts.kind === "command" ? { kind: "command" } : {}),
    errorsFirst: false,
    ...(o.lineCap !== undefined ? { lineCap: o.lineCap } : {}),
  };
}

/**
 * The taps a store stage lends keep: those it has (none without a store).
 *
 * @example
 * createKeep({ ...slices.keep, ...tapsOf(store) });
 */
export function tapsOf(store: StoreStage): Pick<KeepOptions, "tap" | "textTap"> {
  return {
    ...(store.tap ? { tap: store.tap } : {}),
    ...(store.textTap ? { textTap: store.textTap } : {}),
  };
}
