/**
 * The records decoder: a JSON array (top level or under an envelope key), NDJSON or CSV read under
 * the byte cap into a stream of records, each parsed strictly under limits; a JSON value that is
 * not a list of records is one document. A format that was only sniffed is not trusted: records
 * are held back while the input can still be read again as text, and if strict JSON refuses it
 * in that window, it is shown as text instead, with the refusal declared.
 */
import { type CappedReader, replay } from "../intake/budget.js";
import type { StructuredFormat } from "../intake/sniff.js";
import { createRecordFacts, type RecordFacts } from "../pipeline/facts.js";
import type { RecordRole, RecordSink } from "../pipeline/flow.js";
import type { RunContext } from "../pipeline/run.js";
import type { JsonValue } from "../pipeline/unit.js";
import { parseJsonWithin } from "./json.js";
import { DEFAULT_STRUCTURED_LIMITS, type StructuredLimits } from "./limits.js";

export { DEFAULT_STRUCTURED_LIMITS, type StructuredLimits };

import { createJsonSplitter } from "./json-records.js";
import { createNdjsonSplitter } from "./ndjson.js";
import { createUtf8Decoder } from "./utf8.js";

export interface RecordsOptions {
  readonly limits: StructuredLimits;
  /** Blobs up to this many decoded bytes get a SHA-256 in their placeholder. */
  readonly hashLimit: number;
  /** Bytes of a sniffed input held so that it can still be read again as text. */
  readonly window: number;
  readonly maxBytes: number;
  /** The record arrays' paths, when the host named them (the `records` option). */
  readonly paths?: readonly string[];
}

/** Codes that say a record broke a size limit (refused alone), as opposed to malformed JSON. */
export const LIMIT_CODES: ReadonlySet<string> = new Set([
  "json/too-deep",
  "json/too-many-keys",
  "json/array-too-long",
  "json/string-too-long",
  "json/number-too-long",
  "json/record-too-large",
]);

/** What a splitter hands the decoder: record texts to parse, or rows already made (CSV). */
export interface Split {
  write(text: string): void;
  /** Ends the text; returns what the document around the records says, or a refusal. */
  end(capped: boolean): SplitEnd;
}

export type SplitEnd =
  | {
      readonly ok: true;
      /** Whether the input was a list of records (an array, NDJSON, CSV) or one document. */
      readonly records: boolean;
      readonly envelope?: string;
      /** The single document, or the envelope's other members (records written `[]`). */
      readonly document?: JsonValue;
    }
  | { readonly ok: false; readonly code: RefusalCode; readonly message: string };

type RefusalCode = NonNullable<RecordFacts["refusal"]>["code"];

/** A record as a splitter queues it: text to parse, or a value already made. */
export type Queued =
  | { readonly text: string; readonly index: number; readonly lenient?: boolean }
  | { readonly value: JsonValue; readonly index: number };

export interface SplitContext {
  readonly limits: StructuredLimits;
  readonly facts: RecordFacts;
  /** Records split and waiting to be parsed and handed on. */
  readonly queue: Queued[];
  /** Counts a record refused alone. */
  refuse(code: string): void;
  /** The format was sniffed: an NDJSON line that is not JSON is kept as a string record. */
  readonly lenient: boolean;
  /** How many bytes the read has taken so far (for a cap message). */
  readonly maxBytes: number;
  /** The record arrays' paths the host named (the `records` option). */
  readonly paths?: readonly string[];
  readonly hashLimit: number;
}

class Refusal {
  constructor(
    readonly code: RefusalCode,
    readonly message: string,
  ) {}
}

/**
 * Reads a records input into `sink()` (called once, when the records are trusted). Returns
 * `false` when a sniffed input turned out not to be JSON in time: nothing was handed on, and
 * `again` is a reader over the same bytes from the start, for the text decoder.
 *
 * @example
 * const kept = await pumpRecords(intake, () => sinks.records(), ctx, options);
 */
export async function pumpRecords(
  input: {
    readonly reader: CappedReader;
    readonly format: StructuredFormat;
    readonly sniffed: boolean;
  },
  sink: () => RecordSink,
  ctx: RunContext,
  o: RecordsOptions,
): Promise<
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly again: CappedReader;
      readonly code: string;
      readonly message: string;
    }
> {
  const { reader, format, sniffed } = input;
  const facts = createRecordFacts(format);
  const queue: Queued[] = [];
  const split = await splitterOf(format, {
    limits: o.limits,
    facts,
    queue,
    lenient: sniffed,
    maxBytes: o.maxBytes,
    hashLimit: o.hashLimit,
    ...(o.paths !== undefined ? { paths: o.paths } : {}),
    refuse(code) {
      facts.refused[code] = (facts.refused[code] ?? 0) + 1;
    },
  });
  // A declared format is trusted from the start; a sniffed one once it has held up.
  if (!sniffed) ctx.facts.records = facts;
  // While the input is not trusted, its bytes and parsed records are held back.
  let raw: Uint8Array[] | undefined = sniffed ? [] : undefined;
  let rawBytes = 0;
  let held: Array<readonly [JsonValue, number, RecordRole]> | undefined = sniffed ? [] : undefined;
  let target: RecordSink | undefined;
  const deliver = async (value: JsonValue, index: number, role: RecordRole) => {
    if (held !== undefined) {
      held.push([value, index, role]);
      return;
    }
    target ??= sink();
    const pending = target.record(value, index, role);
    if (pending !== undefined) await pending;
  };
  const commit = async () => {
    if (held === undefined) return;
    const list = held;
    held = undefined;
    raw = undefined;
    ctx.facts.records = facts;
    for (const [value, index, role] of list) await deliver(value, index, role);
  };

  let first = true;
  const decoder = createUtf8Decoder(
    (text) => {
      let t = text;
      if (first) {
        first = false;
        if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
      }
      split.write(t);
    },
    { fatal: true },
  );

  /** Parses queued records and hands them on. */
  const drain = async () => {
    for (let k = 0; k < queue.length; k++) {
      const item = queue[k] as Queued;
      let value: JsonValue;
      if ("value" in item) value = item.value;
      else {
        const parsed = parseJsonWithin(item.text, o.limits, true);
        if (!parsed.ok) {
          if (item.lenient && !LIMIT_CODES.has(parsed.error.code)) {
            // A traceback between sniffed NDJSON events: kept as a line of text.
            facts.textLines++;
            value = item.text.replace(/\r$/, "");
          } else if (format === "json" && !LIMIT_CODES.has(parsed.error.code)) {
            // In one JSON document, malformed JSON anywhere refuses the document.
            throw new Refusal(
              parsed.error.code,
              `${parsed.error.message} (in record ${item.index})`,
            );
          } else {
            facts.refused[parsed.error.code] = (facts.refused[parsed.error.code] ?? 0) + 1;
            continue;
          }
        } else value = parsed.value;
      }
      facts.count++;
      await deliver(value, facts.count, "record");
    }
    queue.length = 0;
  };

  try {
    for (let chunk = await reader.read(); chunk !== undefined; chunk = await reader.read()) {
      if (raw !== undefined) {
        raw.push(chunk);
        rawBytes += chunk.byteLength;
      }
      try {
        decoder.write(chunk);
      } catch (cause) {
        if (cause instanceof Refusal) throw cause;
        throw new Refusal("json/invalid-utf8", `json: invalid UTF-8 near byte ${reader.bytes}`);
      }
      await drain();
      // Records flowing past the window: the input is JSON as far as can be told, and is trusted.
      if (held !== undefined && rawBytes > o.window && held.length > 0) await commit();
    }
    if (reader.failure)
      throw new Refusal(
        "intake/read-failed",
        `intake: reading the source failed: ${reader.failure.detail}`,
      );
    // Stopped early (the cap, or the host): the text ends inside whatever it was saying.
    const cut = reader.capped || reader.stopped !== undefined;
    try {
      if (!cut) decoder.end();
    } catch {
      throw new Refusal("json/invalid-utf8", "json: invalid UTF-8 at the end");
    }
    const end = split.end(cut);
    await drain();
    if (!end.ok) throw new Refusal(end.code, end.message);
    facts.shape = end.records ? "records" : "document";
    if (end.envelope !== undefined) facts.envelope = end.envelope;
    if (end.document !== undefined)
      await deliver(end.document, 0, end.records ? "envelope" : "document");
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (held !== undefined && raw !== undefined) {
      // Not JSON after all, and every byte read so far is still here: it is text, read on from
      // where the records decoder stopped.
      return { ok: false, again: replay(raw, reader), code: error.code, message: error.message };
    }
    facts.refusal = { code: error.code, message: error.message };
    reader.stop();
  } finally {
    facts.bytes = reader.bytes;
    facts.capped = reader.capped;
    if (reader.stopped) facts.stopped = reader.stopped;
  }
  await commit();
  ctx.facts.records = facts;
  target ??= sink();
  if (facts.refusal === undefined) await target.end?.(facts.count);
  return { ok: true };
}

async function splitterOf(format: StructuredFormat, ctx: SplitContext): Promise<Split> {
  if (format === "json") return createJsonSplitter(ctx);
  if (format === "ndjson") return createNdjsonSplitter(ctx);
  // papaparse loads only when a CSV arrives: it stays out of the core chunk.
  const { createCsvSplit } = await import("./csv.js");
  return createCsvSplit(ctx, format === "tsv" ? "\t" : undefined);
}
