/** The JSON record splitter's interface (`json-array.ts`): what it hands on, and what it says. */
import type { LongString } from "./long-string.js";

export interface RecordSink {
  /** One record's JSON text, with its 0-based index among all records and its section. */
  record(text: string, index: number, section: number): void;
  /** A record longer than `maxRecordChars`: counted, not held. */
  oversized?(index: number, chars: number, section: number): void;
  /** A record array begins: its path (keys joined by dots; "" for a top-level array). */
  section?(path: string, index: number): void;
}

export interface RecordSection {
  /** Keys from the top down, joined by dots ("" for a top-level array). */
  readonly path: string;
  count: number;
}

export interface RecordSplitterStats {
  /** Records seen (handed on or oversized), in all sections. */
  records: number;
  /** The first record array's path, or undefined for a top-level array (or none). */
  envelope: string | undefined;
  /** Every record array, in input order. */
  readonly sections: RecordSection[];
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
   * The document around the records, with each record array written `[]`
   * (`{"total_count": 1412, "items": []}`), or the whole document when it holds no records array;
   * undefined when it was longer than `maxOutsideChars`.
   */
  outside(): string | undefined;
}

export interface RecordSplitterOptions {
  maxRecordChars?: number;
  envelopeKeys?: readonly string[];
  /**
   * The record arrays' paths, when the host knows them (`payments`, `hits.hits`): only these are
   * records, whatever their size; no other array is.
   */
  paths?: readonly string[];
  /** Characters of the document outside the records arrays that are held. Default 8 MiB. */
  maxOutsideChars?: number;
  /**
   * Value strings longer than this stream into a placeholder instead of being held (a blob
   * for base64 and data URIs, else the string's head and tail). Default: none is streamed.
   */
  maxStringChars?: number;
  /** Makes the placeholder of a long string (see `long-string.ts`). */
  longString?: () => LongString;
}
