import type { LongString } from "./long-string.js";
/**
 * Splits a streamed JSON array into its records without holding the array: a top-level array
 * (`[{…}, {…}]`), or the array under a common envelope key (`{"items": […]}`, `data`, `results`,
 * `events`, `rows`, …). Each record's text is handed on whole, to be parsed under limits; the
 * splitter holds at most one record, so a 500 MB array streams in flat memory.
 *
 * It only tracks strings, escapes and bracket depth; it does not validate. Whatever it hands on
 * is parsed strictly (`parseJson`), and the document around the records (envelope keys, the
 * closing brackets) is checked for balance at the end.
 */

/** Envelope keys whose array holds the records. */
export const ENVELOPE_KEYS: readonly string[] = [
  "items",
  "data",
  "results",
  "events",
  "rows",
  "records",
  "hits",
  "entries",
  "values",
];

/** What ends a run of ordinary string characters. */
const STRING_STOP = /["\\]/g;
/** What matters between strings inside a record. */
const STRUCTURE = /["[\]{},]/g;

export interface RecordSink {
  /** One record's JSON text, with its 0-based index in the array. */
  record(text: string, index: number): void;
  /** A record longer than `maxRecordChars`: counted, not held. */
  oversized?(index: number, chars: number): void;
}

export interface RecordSplitterStats {
  /** Records seen (handed on or oversized). */
  records: number;
  /** The envelope key the records were under, or undefined for a top-level array. */
  envelope: string | undefined;
}

export type SplitEnd =
  | { readonly ok: true; readonly stats: RecordSplitterStats }
  | {
      readonly ok: false;
      readonly code: "records/not-an-array" | "records/unbalanced" | "records/syntax";
      readonly stats: RecordSplitterStats;
    };

export interface RecordSplitter {
  write(chunk: string): void;
  end(): SplitEnd;
  readonly stats: RecordSplitterStats;
  /**
   * The document around the records, with the records array written `[]`
   * (`{"total_count": 1412, "items": []}`), or the whole document when it holds no records array;
   * undefined when it was longer than `maxOutsideChars`.
   */
  outside(): string | undefined;
}

/**
 * @example
 * const split = createRecordSplitter({ record: (text) => rows.push(parseJson(text)) });
 * for await (const chunk of decodedChunks) split.write(chunk);
 * split.end(); // { ok: true, stats: { records: 1412, envelope: "items" } }
 */
export function createRecordSplitter(
  sink: RecordSink,
  options: {
    maxRecordChars?: number;
    envelopeKeys?: readonly string[];
    /** Characters of the document outside the records array that are held. Default 8 MiB. */
    maxOutsideChars?: number;
    /**
     * Value strings longer than this stream into a placeholder instead of being held (a blob
     * for base64 and data URIs, else the string's head and tail). Default: none is streamed.
     */
    maxStringChars?: number;
    /** Makes the placeholder of a long string (see `long-string.ts`). */
    longString?: () => LongString;
  } = {},
): RecordSplitter {
  const maxString = options.maxStringChars ?? Number.POSITIVE_INFINITY;
  const maxRecord = options.maxRecordChars ?? 1 << 20;
  const maxOutside = options.maxOutsideChars ?? 8 << 20;
  let outside = "";
  let outsideOver = false;
  /** A comma was read at record depth and no record has started since (`[1,,2]`, `[1,]`). */
  let expectRecord = false;
  let syntax = false;
  function keepOutside(text: string): void {
    if (outsideOver || text === "") return;
    if (outside.length + text.length > maxOutside) {
      outsideOver = true;
      outside = "";
    } else outside += text;
  }
  const envelopeKeys = new Set(options.envelopeKeys ?? ENVELOPE_KEYS);
  const stats: RecordSplitterStats = { records: 0, envelope: undefined };

  // Where we are: before the document, in the envelope object (looking for the records key),
  // in the records array, or after it.
  let phase: "start" | "envelope" | "records" | "after" | "refused" = "start";
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** Depth of the records array's elements (1 for a top-level array, 2 under an envelope). */
  let recordDepth = 1;
  // The record being read: its text so far (unless oversized), and its length.
  let record = "";
  let recordChars = 0;
  let inRecord = false;
  // In the envelope: the last string read at depth 1 (a candidate key), and its text.
  let keyText = "";
  let readingKey = false;
  let lastKey: string | undefined;
  let expectValueOf: string | undefined;
  /** True once the records array was found. */
  let found = false;
  // The value string being read, measured so a long one can stream instead of being held: its
  // raw characters in earlier chunks, the held text's length before its opening quote (when that
  // quote was in an earlier chunk), and its placeholder once it is long.
  let measuring = false;
  let strSeen = 0;
  let strBase = 0;
  let long: LongString | undefined;

  function finishRecord(): void {
    if (!inRecord) return;
    const index = stats.records++;
    if (recordChars > maxRecord) sink.oversized?.(index, recordChars);
    else sink.record(record.trim(), index);
    record = "";
    recordChars = 0;
    inRecord = false;
  }

  function write(chunk: string): void {
    // Start of the part of `chunk` that belongs to the current record (-1: none, a long string
    // is streaming).
    let from = long ? -1 : 0;
    // Start of the part of `chunk` outside the records array, or -1 while inside it.
    let outsideFrom = phase === "records" || long ? -1 : 0;
    // Where the measured string's opening quote is in this chunk (-1: an earlier chunk).
    let strAt = -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (phase === "refused" || phase === "after") {
        if (!inString && (c === 0x5b || c === 0x7b)) depth++;
        else if (!inString && (c === 0x5d || c === 0x7d)) depth--;
        else if (c === 0x22 && !escaped) inString = !inString;
        escaped = inString && c === 0x5c && !escaped;
        continue;
      }
      if (inString) {
        if (!escaped && !readingKey && c !== 0x22 && c !== 0x5c) {
          // Inside a string only a quote or a backslash matters: jump to the next one.
          STRING_STOP.lastIndex = i;
          const stop = STRING_STOP.exec(chunk);
          const to = stop === null ? chunk.length : stop.index;
          if (measuring && long === undefined) {
            const seen = strSeen + to - (strAt >= 0 ? strAt + 1 : 0);
            if (seen > maxString) goLong(i);
          }
          long?.write(chunk.slice(i, to));
          i = to - 1;
          continue;
        }
        if (long !== undefined && !(c === 0x22 && !escaped)) long.write(chunk[i] as string);
        if (readingKey && !(c === 0x22 && !escaped)) keyText += chunk[i];
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (long !== undefined) endLong(i);
          measuring = false;
          if (readingKey) {
            readingKey = false;
            lastKey = keyText;
          }
        }
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (phase === "start") {
        if (c === 0x5b) {
          enterRecords(1, i);
        } else if (c === 0x7b) {
          phase = "envelope";
          depth = 1;
        } else {
          phase = "refused";
        }
        continue;
      }
      if (phase === "envelope") {
        if (c === 0x22) {
          inString = true;
          if (depth === 1 && expectValueOf === undefined) {
            readingKey = true;
            keyText = "";
          } else measure(i, outside.length + (i - outsideFrom));
        } else if (c === 0x3a && depth === 1) {
          expectValueOf = lastKey;
        } else if (c === 0x2c && depth === 1) {
          expectValueOf = undefined;
        } else if (c === 0x5b && depth === 1 && expectValueOf !== undefined) {
          if (envelopeKeys.has(expectValueOf) && stats.envelope === undefined) {
            stats.envelope = expectValueOf;
            enterRecords(2, i);
          } else {
            depth++;
          }
          expectValueOf = undefined;
        } else if (c === 0x5b || c === 0x7b) {
          depth++;
          if (depth === 2) expectValueOf = undefined;
        } else if (c === 0x5d || c === 0x7d) {
          depth--;
          if (depth === 0) phase = "after";
        }
        continue;
      }
      // phase === "records"
      if (c === 0x22) {
        inString = true;
        if (!inRecord) startRecord(i);
        measure(i, record.length + (i - from));
      } else if (c === 0x5b || c === 0x7b) {
        if (!inRecord) startRecord(i);
        depth++;
      } else if (c === 0x5d || c === 0x7d) {
        if (depth === recordDepth) {
          // The records array closes.
          if (expectRecord && !inRecord) refuse();
          take(chunk, from, i);
          finishRecord();
          expectRecord = false;
          outsideFrom = i;
          depth--;
          phase = recordDepth === 1 ? "after" : "envelope";
          if (phase === "envelope") expectValueOf = undefined;
          continue;
        }
        depth--;
      } else if (c === 0x2c && depth === recordDepth) {
        if (!inRecord) refuse();
        take(chunk, from, i);
        finishRecord();
        expectRecord = true;
        from = i + 1;
      } else if (!inRecord) {
        startRecord(i);
      } else {
        // Inside a record, between structure: jump to the next quote, bracket, brace or comma.
        STRUCTURE.lastIndex = i + 1;
        const stop = STRUCTURE.exec(chunk);
        i = (stop === null ? chunk.length : stop.index) - 1;
      }
    }
    if (phase === "records") take(chunk, from, chunk.length);
    else if (outsideFrom >= 0) keepOutside(chunk.slice(outsideFrom));
    if (measuring && long === undefined) strSeen += chunk.length - (strAt >= 0 ? strAt + 1 : 0);

    /** A value string opens at `at`: measure it (only where a placeholder can stand for it). */
    function measure(at: number, base: number): void {
      if (options.longString === undefined || maxString === Number.POSITIVE_INFINITY) return;
      measuring = true;
      strSeen = 0;
      strAt = at;
      strBase = base;
    }

    /** The string being read is too long to hold: what was held of it goes to its placeholder. */
    function goLong(i: number): void {
      const made = (options.longString as () => LongString)();
      const start = strAt >= 0 ? strAt + 1 : 0;
      if (phase === "records") {
        if (strAt >= 0) take(chunk, from, strAt);
        else {
          made.write(record.slice(strBase + 1));
          recordChars -= record.length - strBase;
          record = record.slice(0, strBase);
        }
        from = -1;
      } else {
        if (strAt >= 0) keepOutside(chunk.slice(outsideFrom, strAt));
        else if (!outsideOver) {
          made.write(outside.slice(strBase + 1));
          outside = outside.slice(0, strBase);
        }
        outsideFrom = -1;
      }
      made.write(chunk.slice(start, i));
      long = made;
    }

    /** The long string closes at `i` (its quote): its placeholder takes its place. */
    function endLong(i: number): void {
      const text = (long as LongString).end();
      long = undefined;
      if (phase === "records") {
        recordChars += text.length;
        if (recordChars <= maxRecord) record += text;
        from = i + 1;
      } else {
        keepOutside(text);
        outsideFrom = i + 1;
      }
    }

    /** The records array opens at `at` (its `[`), its elements at `level`. */
    function enterRecords(level: number, at: number): void {
      phase = "records";
      found = true;
      recordDepth = level;
      depth = level;
      from = at + 1;
      keepOutside(chunk.slice(outsideFrom, at + 1));
      outsideFrom = -1;
    }

    function startRecord(at: number): void {
      inRecord = true;
      expectRecord = false;
      from = at;
    }
  }

  /** An empty element (`[1,,2]`, `[,1]`, `[1,]`): the document is not JSON. */
  function refuse(): void {
    syntax = true;
  }

  function take(chunk: string, from: number, to: number): void {
    if (!inRecord || from < 0 || to <= from) return;
    recordChars += to - from;
    if (recordChars <= maxRecord) record += chunk.slice(from, to);
    else record = "";
  }

  return {
    stats,
    write(chunk: string) {
      write(chunk);
    },
    outside() {
      return outsideOver ? undefined : outside;
    },
    end(): SplitEnd {
      if (syntax) return { ok: false, code: "records/syntax", stats };
      if (!found) return { ok: false, code: "records/not-an-array", stats };
      if (depth !== 0 || inString) return { ok: false, code: "records/unbalanced", stats };
      return { ok: true, stats };
    },
  };
}
