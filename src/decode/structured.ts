/**
 * Structured intake: which format an input is in (declared, or sniffed from its first bytes),
 * and reading it under the byte cap into a stream of records. JSON arrays (top level or under an
 * envelope key) and NDJSON stream record by record; a single document is held up to a limit;
 * CSV and TSV stream row by row. Every record is parsed strictly under limits.
 */

import { type ByteSource, openSource } from "../intake/source.js";
import type { StreamSource } from "../options/compile.js";
import {
  DEFAULT_JSON_LIMITS,
  type JsonErrorCode,
  type JsonLimits,
  type JsonValue,
  parseJson,
  parseJsonWithin,
} from "./json.js";
import { createRecordSplitter, type SplitEnd } from "./json-array.js";
import { createUtf8Decoder } from "./utf8.js";

export type StructuredFormat = "json" | "ndjson" | "csv" | "tsv";

/** Limits of structured parsing: those of `parseJson`, plus how big one record or document may be. */
export interface StructuredLimits extends JsonLimits {
  /** Characters of one record (array element, NDJSON line, CSV row). Default 4 MiB. */
  readonly maxRecordChars: number;
  /** Characters of a single document that is not an array of records. Default 16 MiB. */
  readonly maxDocumentChars: number;
}

export const DEFAULT_STRUCTURED_LIMITS: StructuredLimits = Object.freeze({
  ...DEFAULT_JSON_LIMITS,
  maxRecordChars: 4 << 20,
  maxDocumentChars: 16 << 20,
});

/** The format a media type names, if it names a structured one. */
export function formatOfType(contentType: string | undefined): StructuredFormat | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (!type) return undefined;
  if (/(?:nd|x-nd|jsonl|json-seq|jsonlines|x-jsonlines)$|ndjson|jsonl/.test(type)) return "ndjson";
  if (type === "application/json" || type.endsWith("+json") || type === "text/json") return "json";
  if (type === "text/csv" || type === "application/csv") return "csv";
  if (type === "text/tab-separated-values") return "tsv";
  return undefined;
}

/**
 * Sniffs JSON or NDJSON from the first characters of a text; undefined means text. Cautious: a
 * log line that starts with `[2026-11-30 …]` or `{date}` must stay text, so JSON needs `[`
 * followed by `{`, `[`, `"` or `]`, or `{` followed by `"` or `}`; NDJSON needs a first line
 * that is a whole JSON object and a second that starts like one.
 */
export function sniffFormat(head: string): StructuredFormat | undefined {
  const start = head.search(/\S/);
  if (start === -1) return undefined;
  const rest = head.slice(start);
  const opensObject = /^\{\s*(?:"|\}|$)/.test(rest);
  const opensArray = /^\[\s*(?:[[{"\]]|$)/.test(rest);
  if (!opensObject && !opensArray) return undefined;
  if (opensObject) {
    const newline = rest.indexOf("\n");
    if (newline !== -1) {
      const first = rest.slice(0, newline).trim();
      const second = rest.slice(newline + 1).trimStart();
      if (first.endsWith("}") && second.startsWith("{") && parseJson(first).ok) return "ndjson";
    }
  }
  return "json";
}

export interface IntakeSink {
  /** One parsed record, in order. May return a promise (contracts, blob hashes). */
  record(value: JsonValue, index: number, envelope?: string): void | Promise<void>;
}

export interface IntakeResult {
  readonly format: StructuredFormat;
  readonly bytes: number;
  readonly capped: boolean;
  /** True when the input is an array of records (top level, under an envelope, NDJSON, CSV). */
  readonly records: boolean;
  /** Records handed to the sink. */
  readonly count: number;
  /** The envelope key the records were under. */
  readonly envelope?: string;
  /**
   * For a single document, the document; for an envelope, its other members (the records array
   * written as `[]`). Absent when it was too large or malformed.
   */
  readonly document?: JsonValue;
  /** Lines of sniffed NDJSON that were not JSON, kept as string records. */
  readonly textLines?: number;
  /** Records refused (limits, and for NDJSON and CSV malformed lines), by code. */
  readonly refused: Readonly<Record<string, number>>;
  /** CSV details: columns, ragged rows, an unterminated quote. */
  readonly csv?: {
    readonly columns: readonly string[];
    readonly ragged: number;
    readonly unterminatedQuote: boolean;
    readonly delimiter: string;
  };
  /** The whole input was refused: nothing from it is shown. */
  readonly error?: {
    readonly code: JsonErrorCode | "records/syntax" | "intake/read-failed";
    readonly message: string;
  };
}

/** Codes that say a record broke a size limit (refused alone), as opposed to malformed JSON. */
const LIMIT_CODES = new Set<string>([
  "json/too-deep",
  "json/too-many-keys",
  "json/array-too-long",
  "json/string-too-long",
  "json/number-too-long",
  "json/record-too-large",
]);

/**
 * A byte source that first hands out chunks already read (by a sniffer), then the rest; a
 * failure the sniffer met is raised where it happened, after the chunks before it.
 */
export function replay(
  head: readonly Uint8Array[],
  src: ByteSource,
  failure?: { error: unknown },
): ByteSource {
  let i = 0;
  return {
    size: src.size,
    async read() {
      if (i < head.length) return head[i++];
      if (failure) throw failure.error;
      return src.read();
    },
    cancel: () => src.cancel(),
  };
}

/** A `ByteSource` as an async iterable, for the text path. */
export function asIterable(src: ByteSource): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          const value = await src.read();
          return value === undefined ? { value: undefined, done: true } : { value, done: false };
        },
        async return() {
          await src.cancel().catch(() => undefined);
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/**
 * Reads the first bytes of a source to sniff them: up to `bytes`, and no further than needed to
 * see that the text cannot be JSON (its first non-space character is not `{` or `[`). A read
 * that fails is kept, to be raised on replay.
 */
export async function peek(
  src: ByteSource,
  bytes: number,
): Promise<{ head: Uint8Array[]; text: string; ended: boolean; failure?: { error: unknown } }> {
  const head: Uint8Array[] = [];
  let n = 0;
  let text = "";
  let ended = false;
  let failure: { error: unknown } | undefined;
  const decoder = createUtf8Decoder((t) => {
    text += t;
  });
  while (n < bytes) {
    let chunk: Uint8Array | undefined;
    try {
      chunk = await src.read();
    } catch (error) {
      failure = { error };
      break;
    }
    if (chunk === undefined) {
      ended = true;
      break;
    }
    head.push(chunk);
    n += chunk.byteLength;
    decoder.write(chunk);
    const start = text.search(/\S/);
    if (start !== -1 && text[start] !== "{" && text[start] !== "[" && text[start] !== "\uFEFF")
      break;
  }
  return { head, text: text.replace(/^\uFEFF/, ""), ended, ...(failure ? { failure } : {}) };
}

/**
 * Whether the first part of a sniffed input holds up as what it was sniffed as: the first
 * record (or the whole input, when it all arrived) parses. A stream cannot be read twice, so
 * this is where a text that only starts like JSON goes back to the text path.
 */
export function headHoldsUp(text: string, format: StructuredFormat, ended: boolean): boolean {
  const ok = (t: string) => {
    const parsed = parseJson(t);
    return parsed.ok || LIMIT_CODES.has(parsed.error.code);
  };
  if (format === "ndjson") {
    const first = text.trimStart().split("\n", 1)[0] ?? "";
    return ok(first.trim());
  }
  if (ended) return ok(text);
  const records: string[] = [];
  const splitter = createRecordSplitter(
    { record: (t) => records.push(t) },
    { maxOutsideChars: text.length + 1 },
  );
  splitter.write(text);
  // No whole record yet (a long first record, or one document): nothing says it is not JSON.
  return records.length === 0 || ok(records[0] as string);
}

/**
 * Reads `source` as `format` under `maxBytes`, handing each record to the sink.
 *
 * @example
 * const result = await readStructured(body, "json", { maxBytes: 1 << 28, limits }, { record: keep });
 */
export async function readStructured(
  source: StreamSource | ByteSource,
  format: StructuredFormat,
  options: {
    readonly maxBytes: number;
    readonly limits: StructuredLimits;
    /**
     * NDJSON that was only sniffed: a line that is not JSON (a traceback between log events)
     * is kept as a string record, not refused.
     */
    readonly lenientLines?: boolean;
  },
  sink: IntakeSink,
): Promise<IntakeResult> {
  const src = isByteSource(source) ? source : openSource(source);
  const { limits } = options;
  let bytes = 0;
  let capped = false;
  let count = 0;
  const refused: Record<string, number> = {};
  let error: IntakeResult["error"];
  let first = true;
  let textLines = 0;
  const queue: Array<{ text: string; index: number } | { value: JsonValue; index: number }> = [];

  // The format's splitter: it queues record texts (or values, for CSV); `drain` parses them.
  let envelopeKey: () => string | undefined = () => undefined;
  let splitEnd: () => Partial<IntakeResult> | undefined;
  let write: (text: string) => void;
  if (format === "json") {
    const splitter = createRecordSplitter(
      {
        record: (text, index) => queue.push({ text, index }),
        oversized: () => refuse("json/record-too-large"),
      },
      { maxRecordChars: limits.maxRecordChars, maxOutsideChars: limits.maxDocumentChars },
    );
    write = (text) => splitter.write(text);
    envelopeKey = () => splitter.stats.envelope;
    splitEnd = () => endJson(splitter.end(), splitter.outside(), splitter.stats.envelope);
  } else if (format === "ndjson") {
    let carry = "";
    let line = 0;
    let carryOver = false;
    const take = (text: string) => {
      if (text.trim() !== "") queue.push({ text, index: line });
      line++;
    };
    write = (text) => {
      let from = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
        if (carryOver) refuse("json/record-too-large");
        else take(carry + text.slice(from, nl));
        carry = "";
        carryOver = false;
        from = nl + 1;
      }
      if (!carryOver) {
        carry += text.slice(from);
        if (carry.length > limits.maxRecordChars) {
          carry = "";
          carryOver = true;
        }
      }
    };
    splitEnd = () => {
      if (carryOver) refuse("json/record-too-large");
      else if (carry.trim() !== "" && !capped) take(carry);
      return { records: true };
    };
  } else {
    // papaparse loads only when a CSV arrives: it stays out of the core chunk.
    const { createCsvSplitter } = await import("./csv.js");
    const csv = createCsvSplitter(
      {
        record: (value, index) => queue.push({ value: value as JsonValue, index }),
        oversized: () => refuse("csv/record-too-large"),
      },
      {
        ...(format === "tsv" ? { delimiter: "\t" as const } : {}),
        maxRowChars: limits.maxRecordChars,
      },
    );
    write = (text) => csv.write(text);
    splitEnd = () => {
      const end = csv.end(capped);
      return {
        records: true,
        csv: {
          columns: end.columns,
          ragged: end.ragged,
          unterminatedQuote: end.unterminatedQuote,
          delimiter: end.delimiter,
        },
      };
    };
  }

  function refuse(code: string): void {
    refused[code] = (refused[code] ?? 0) + 1;
  }

  const decoder = createUtf8Decoder(
    (text) => {
      let t = text;
      if (first) {
        first = false;
        if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
      }
      write(t);
    },
    { fatal: true },
  );

  /** Parses queued records and hands them on; stops at a document-level error. */
  async function drain(): Promise<void> {
    for (let k = 0; k < queue.length && error === undefined; k++) {
      const item = queue[k] as (typeof queue)[number];
      let value: JsonValue;
      if ("value" in item) value = item.value;
      else {
        const parsed = parseJsonWithin(item.text, limits);
        if (!parsed.ok) {
          // In one JSON document, malformed JSON anywhere refuses the document; a record over a
          // limit is refused alone. NDJSON lines are independent records.
          if (format === "ndjson" && options.lenientLines && !LIMIT_CODES.has(parsed.error.code)) {
            textLines++;
            const pending = sink.record(item.text.replace(/\r$/, ""), count++, envelopeKey());
            if (pending !== undefined) await pending;
            continue;
          }
          if (format === "json" && !LIMIT_CODES.has(parsed.error.code)) {
            error = {
              code: parsed.error.code,
              message: `${parsed.error.message} (in record ${item.index + 1})`,
            };
          } else refuse(parsed.error.code);
          continue;
        }
        value = parsed.value;
      }
      const pending = sink.record(value, count++, envelopeKey());
      if (pending !== undefined) await pending;
    }
    queue.length = 0;
  }

  try {
    for (;;) {
      let chunk: Uint8Array | undefined;
      try {
        chunk = await src.read();
      } catch {
        error = { code: "intake/read-failed", message: "intake: reading the source failed" };
        break;
      }
      if (chunk === undefined) break;
      const allowed = options.maxBytes - bytes;
      if (chunk.byteLength > allowed) {
        chunk = chunk.subarray(0, Math.max(0, allowed));
        capped = true;
      }
      bytes += chunk.byteLength;
      try {
        decoder.write(chunk);
      } catch {
        error = { code: "json/invalid-utf8", message: `json: invalid UTF-8 near byte ${bytes}` };
        break;
      }
      await drain();
      if (capped || error !== undefined) break;
    }
    if (error === undefined) {
      try {
        if (!capped) decoder.end();
      } catch {
        error = { code: "json/invalid-utf8", message: "json: invalid UTF-8 at the end" };
      }
    }
  } finally {
    if (capped || error !== undefined) src.cancel().catch(() => undefined);
  }
  let extra: Partial<IntakeResult> | undefined;
  if (error === undefined) {
    extra = splitEnd();
    await drain();
  }
  return {
    format,
    bytes,
    capped,
    records: extra?.records ?? false,
    count,
    refused,
    ...(textLines > 0 ? { textLines } : {}),
    ...(extra?.envelope !== undefined ? { envelope: extra.envelope } : {}),
    ...(extra?.document !== undefined ? { document: extra.document } : {}),
    ...(extra?.csv !== undefined ? { csv: extra.csv } : {}),
    ...(error !== undefined ? { error } : extra?.error !== undefined ? { error: extra.error } : {}),
  };

  function endJson(
    end: SplitEnd,
    outside: string | undefined,
    envelope: string | undefined,
  ): Partial<IntakeResult> {
    if (end.ok || (capped && end.code === "records/unbalanced" && end.stats.records > 0)) {
      // Records: the document around them (envelope members) is parsed when it is whole.
      const around = !capped && outside !== undefined ? parseJson(outside, limits) : undefined;
      if (around !== undefined && !around.ok && !LIMIT_CODES.has(around.error.code)) {
        return { records: true, error: { code: around.error.code, message: around.error.message } };
      }
      return {
        records: true,
        ...(envelope !== undefined ? { envelope } : {}),
        ...(around?.ok && envelope !== undefined ? { document: around.value } : {}),
      };
    }
    if (end.code === "records/syntax") {
      return {
        records: true,
        error: { code: "records/syntax", message: "json: an empty element in the records array" },
      };
    }
    if (capped) {
      return {
        records: false,
        error: {
          code: "json/too-large",
          message: `json: the document is cut by maxBytes (${options.maxBytes}) and is not an array of records`,
        },
      };
    }
    if (outside === undefined) {
      return {
        records: false,
        error: {
          code: "json/too-large",
          message: `json: a single document over ${limits.maxDocumentChars} characters`,
        },
      };
    }
    const parsed = parseJson(outside, limits);
    if (!parsed.ok)
      return { records: false, error: { code: parsed.error.code, message: parsed.error.message } };
    return { records: false, document: parsed.value };
  }
}

function isByteSource(source: unknown): source is ByteSource {
  return (
    typeof source === "object" &&
    source !== null &&
    "read" in source &&
    "cancel" in source &&
    typeof (source as ByteSource).read === "function" &&
    !(typeof ReadableStream !== "undefined" && source instanceof ReadableStream)
  );
}
