/**
 * Splits a streamed JSON document into its records without holding it: the records are the
 * elements of its record arrays, wherever they are (`payments`, `hits.hits`,
 * `data.repository.issues.nodes`), as `record-rule.ts` decides. Each record array is a section;
 * the document around them (the envelope) is kept with every record array written `[]`. Arrays
 * inside a record stay part of it.
 *
 * It only tracks strings, escapes and bracket depth; it does not validate. Whatever it hands on
 * is parsed strictly (`parseJson`), and the document around the records is checked for balance at
 * the end. It holds at most one record, or an undecided array's first `RECORDS_AT_CHARS`
 * characters and its element in progress, so a 500 MB array streams in flat memory.
 */

import { compactLength, keyOf, RAW_KEY_CHARS } from "./json-text.js";
import type { LongString } from "./long-string.js";
import {
  arrayKind,
  enoughForRecords,
  MAX_PATH_DEPTH,
  MAX_VISITS,
  recordRule,
} from "./record-rule.js";

import type {
  RecordSection,
  RecordSink,
  RecordSplitter,
  RecordSplitterOptions,
  RecordSplitterStats,
  SplitEnd,
} from "./split-types.js";

export { ENVELOPE_KEYS } from "./record-rule.js";
export type * from "./split-types.js";

const NO_PATH: readonly string[] = [];

/** What ends a run of ordinary string characters. */
const STRING_STOP = /["\\]/g;
/** What matters between strings inside a record. */
const STRUCTURE = /["[\]{},]/g;

/** An open container outside the record arrays. */
interface Frame {
  readonly object: boolean;
  /** Keys from the top down to this container (an object's own path). */
  readonly path: readonly string[];
  /** The key whose value is being read (objects only); null for one that names no path. */
  key: string | null | undefined;
  /** A `:` was read and its value has not ended with `,` or `}`. */
  expect: boolean;
  /** No array in here can be records (an array the host's paths did not name). */
  readonly opaque: boolean;
}

/**
 * @example
 * const split = createRecordSplitter({ record: (text) => rows.push(parseJson(text)) });
 * for await (const chunk of decodedChunks) split.write(chunk);
 * split.end(); // { ok: true, stats: { records: 1412, envelope: "items", sections: [...] } }
 */
export function createRecordSplitter(
  sink: RecordSink,
  options: RecordSplitterOptions = {},
): RecordSplitter {
  const maxString = options.maxStringChars ?? Number.POSITIVE_INFINITY;
  const maxRecord = options.maxRecordChars ?? 1 << 20;
  const maxOutside = options.maxOutsideChars ?? 8 << 20;
  const rule = recordRule(options);
  let outside = "";
  let outsideOver = false;
  /** A comma was read at element depth and no element has started since (`[1,,2]`, `[1,]`). */
  let expectRecord = false;
  let syntax = false;
  function keepOutside(text: string): void {
    if (outsideOver || text === "") return;
    if (outside.length + text.length > maxOutside) {
      outsideOver = true;
      outside = "";
    } else outside += text;
  }
  const stats: RecordSplitterStats = { records: 0, envelope: undefined, sections: [] };

  // Where we are: before the document, outside the record arrays, in an array whose elements are
  // split (records, or not yet decided), or after the document.
  let phase: "start" | "outside" | "array" | "after" | "refused" = "start";
  let depth = 0;
  const frames: Frame[] = [];
  let inString = false;
  let escaped = false;
  /** Depth of the array's elements. */
  let elementDepth = 1;
  /** The array being split is not yet known to be records: its elements are held. */
  let pending = false;
  /** ...and its name says failures: one element is enough. */
  let eager = false;
  /** Sections taken for their name alone. */
  let named = 0;
  let pendingPath = "";
  let held: string[] = [];
  let heldChars = 0;
  let section = -1;
  // The element being read: its text so far (unless oversized), and its length.
  let record = "";
  let recordChars = 0;
  let inRecord = false;
  // Outside: the key being read, and whether a string is one.
  let keyText = "";
  let readingKey = false;
  /** Objects opened outside the record arrays. */
  let visits = 0;
  // The value string being read, measured so a long one can stream instead of being held: its
  // raw characters in earlier chunks, the held text's length before its opening quote (when that
  // quote was in an earlier chunk), and its placeholder once it is long.
  let measuring = false;
  let strSeen = 0;
  let strBase = 0;
  let long: LongString | undefined;

  function beginSection(path: string): void {
    section = stats.sections.length;
    stats.sections.push({ path, count: 0 });
    if (section === 0) stats.envelope = path === "" ? undefined : path;
    sink.section?.(path, section);
  }

  function emit(text: string, chars: number): void {
    const index = stats.records++;
    const s = stats.sections[section] as RecordSection;
    s.count++;
    if (chars > maxRecord) sink.oversized?.(index, chars, section);
    else sink.record(text, index, section);
  }

  /** An undecided array turns out to be records: what it held goes first. */
  /** `byName`: taken for its name alone (its size would not have made it records yet). */
  function promote(byName = false): void {
    if (byName) named++;
    pending = false;
    beginSection(pendingPath);
    for (const text of held) emit(text, text.length);
    held = [];
    heldChars = 0;
  }

  function finishRecord(): void {
    if (!inRecord) return;
    const over = recordChars > maxRecord;
    const text = over ? "" : record.trim();
    if (pending && !over) {
      held.push(text);
      heldChars += compactLength(text);
      if (enoughForRecords(held.length, heldChars, eager))
        promote(!enoughForRecords(held.length, heldChars));
    } else {
      // An element too large to hold is no tag or coordinate: its array is records.
      if (pending) promote();
      emit(text, recordChars);
    }
    record = "";
    recordChars = 0;
    inRecord = false;
  }

  /** What an array opened outside the record arrays is: records, undecided, or plain. */
  function kindIn(parent: Frame | undefined): ReturnType<typeof arrayKind> {
    if (parent === undefined) return "records";
    if (!parent.object || parent.opaque || typeof parent.key !== "string") return "plain";
    return arrayKind(rule, parent.path, parent.key, stats.sections.length, named);
  }

  function write(chunk: string): void {
    // Start of the part of `chunk` that belongs to the current element (-1: none, a long string
    // is streaming).
    let from = long ? -1 : 0;
    // Start of the part of `chunk` outside the record arrays, or -1 while inside one.
    let outsideFrom = phase === "array" || long ? -1 : 0;
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
        if (readingKey && !(c === 0x22 && !escaped) && keyText.length <= RAW_KEY_CHARS)
          keyText += chunk[i];
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (long !== undefined) endLong(i);
          measuring = false;
          if (readingKey) {
            readingKey = false;
            const frame = frames[frames.length - 1];
            if (frame) frame.key = keyOf(keyText);
          }
        }
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (phase === "start") {
        if (c === 0x5b) {
          depth = 1;
          beginSection("");
          enterArray(i, false);
        } else if (c === 0x7b) {
          phase = "outside";
          depth = 1;
          frames.push({ object: true, path: [], key: undefined, expect: false, opaque: false });
          visits = 1;
        } else {
          phase = "refused";
        }
        continue;
      }
      if (phase === "outside") {
        const frame = frames[frames.length - 1] as Frame;
        if (c === 0x22) {
          inString = true;
          if (frame.object && !frame.expect) {
            readingKey = true;
            keyText = "";
          } else measure(i, outside.length + (i - outsideFrom));
        } else if (c === 0x3a && frame.object) {
          frame.expect = true;
        } else if (c === 0x2c) {
          frame.expect = false;
          frame.key = frame.object ? undefined : frame.key;
        } else if (c === 0x5b) {
          const kind = kindIn(frame);
          depth++;
          if (kind === "plain") {
            frames.push({
              object: false,
              path: NO_PATH,
              key: undefined,
              expect: false,
              opaque: true,
            });
          } else {
            pendingPath = [...frame.path, frame.key as string].join(".");
            if (kind === "records") beginSection(pendingPath);
            eager = kind === "eager";
            enterArray(i, kind !== "records");
          }
        } else if (c === 0x7b) {
          depth++;
          // Deep, wide, or under a key that names no path: nothing in here is searched, and no
          // path is made for it (a path per level would cost the square of the depth).
          const opaque =
            frame.opaque ||
            !frame.object ||
            typeof frame.key !== "string" ||
            frames.length >= MAX_PATH_DEPTH ||
            ++visits > MAX_VISITS;
          frames.push({
            object: true,
            path: opaque ? NO_PATH : [...frame.path, frame.key as string],
            key: undefined,
            expect: false,
            opaque,
          });
        } else if (c === 0x5d || c === 0x7d) {
          depth--;
          frames.pop();
          if (depth === 0) phase = "after";
        }
        continue;
      }
      // phase === "array": split its elements at its own depth.
      if (c === 0x22) {
        inString = true;
        if (!inRecord) startRecord(i);
        measure(i, record.length + (i - from));
      } else if (c === 0x5b || c === 0x7b) {
        if (!inRecord) startRecord(i);
        depth++;
      } else if (c === 0x5d || c === 0x7d) {
        if (depth === elementDepth) {
          // The array closes.
          if (expectRecord && !inRecord) refuse();
          take(chunk, from, i);
          finishRecord();
          expectRecord = false;
          if (pending) {
            // It never held enough to be records: it is part of the document, as it came.
            keepOutside(held.join(","));
            pending = false;
            held = [];
            heldChars = 0;
          }
          outsideFrom = i;
          depth--;
          phase = depth === 0 ? "after" : "outside";
          continue;
        }
        depth--;
      } else if (c === 0x2c && depth === elementDepth) {
        if (!inRecord) refuse();
        take(chunk, from, i);
        finishRecord();
        expectRecord = true;
        from = i + 1;
      } else if (!inRecord) {
        startRecord(i);
      } else {
        // Inside an element, between structure: jump to the next quote, bracket, brace or comma.
        STRUCTURE.lastIndex = i + 1;
        const stop = STRUCTURE.exec(chunk);
        i = (stop === null ? chunk.length : stop.index) - 1;
      }
    }
    if (phase === "array") take(chunk, from, chunk.length);
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
      if (phase === "array") {
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
      if (phase === "array") {
        recordChars += text.length;
        if (recordChars <= maxRecord) record += text;
        from = i + 1;
      } else {
        keepOutside(text);
        outsideFrom = i + 1;
      }
    }

    /** An array whose elements are split opens at `at` (its `[`). */
    function enterArray(at: number, undecided: boolean): void {
      phase = "array";
      pending = undecided;
      elementDepth = depth;
      from = at + 1;
      keepOutside(chunk.slice(Math.max(0, outsideFrom), at + 1));
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
      if (stats.sections.length === 0) return { ok: false, code: "records/not-an-array", stats };
      if (depth !== 0 || inString) return { ok: false, code: "records/unbalanced", stats };
      return { ok: true, stats };
    },
  };
}
