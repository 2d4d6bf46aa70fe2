/**
 * CSV and TSV as a stream of records. Text arrives in decoded chunks of any size; the splitter
 * finds complete rows itself and hands them to papaparse in batches, so it holds the current
 * incomplete row (at most `maxRowChars`) plus one batch of about 64 KiB, never the table.
 *
 * papaparse can only be pushed whole strings in every runtime, so the row boundaries are ours.
 * The scanner follows papaparse's own quote rules (a quote opens a quoted field only at the start
 * of a field; inside one, `""` is a quote, and a quote closes the field only when spaces and then
 * a delimiter or a newline follow), so a row we hand on is one row to papaparse too.
 */

import Papa, { type ParseConfig } from "papaparse";
import type { JsonValue } from "../pipeline/unit.js";
import { setKey } from "./json.js";
import type { Split, SplitContext } from "./records.js";

/**
 * A cell: a number when the text is exactly how JavaScript prints that number, `true`/`false`,
 * `null` for an empty field, else the text.
 * @example
 * const cell: CsvValue = 42; // from "42"; "042", "1e5", " 7" stay strings
 */
export type CsvValue = string | number | boolean | null;

/**
 * One data row keyed by column name, in column order (JavaScript puts integer-like names such as
 * "2024" first; `CsvEnd.columns` keeps the file's order). A `__proto__` column is an own property.
 * @example
 * const record: CsvRecord = { id: 7, name: "Ada", active: true, note: null };
 */
export type CsvRecord = { [column: string]: CsvValue };

/**
 * @example
 * createCsvSplitter(sink, { delimiter: "\t", header: false, maxRowChars: 65_536 });
 */
export interface CsvOptions {
  /** Default: sniffed from the first non-blank line (the candidate seen most outside quotes; "," on a tie or none). */
  delimiter?: "," | "\t" | ";" | "|";
  /** The first non-blank row names the columns (default true); else they are `column_1`, …. */
  header?: boolean;
  /** Longer rows are counted as oversized and not held beyond the limit (default 1 MiB). */
  maxRowChars?: number;
  /** Columns kept per row (default 1,000); fields beyond are dropped and counted. */
  maxColumns?: number;
  /** Convert numbers, booleans and empty fields (default true); false keeps every value a string. */
  types?: boolean;
}

/**
 * @example
 * const sink: CsvSink = { header: (names) => console.log(names), record: (r, i) => rows.push(r) };
 */
export interface CsvSink {
  /** The column names, once known (before the first record). */
  header?(names: readonly string[]): void;
  /** One data row, with its 0-based index among the data rows (oversized ones included). */
  record(record: CsvRecord, index: number): void;
  /** A row longer than `maxRowChars`: counted, not held. The header row has index -1. */
  oversized?(index: number, chars: number): void;
}

/**
 * @example
 * const end: CsvEnd = split.end();
 * if (end.unterminatedQuote || end.ragged > 0) note(`${end.ragged} ragged rows`);
 */
export interface CsvEnd {
  /** Data rows seen: records handed on plus oversized rows. */
  readonly rows: number;
  readonly columns: readonly string[];
  readonly delimiter: string;
  /** Lines that were empty or only spaces, skipped. */
  readonly blankLines: number;
  readonly oversized: number;
  /** Rows whose field count differs from the header's (kept: missing fields absent, extra ones under "_extra_1", …). */
  readonly ragged: number;
  /** Fields beyond `maxColumns`, dropped (header names included). */
  readonly droppedFields: number;
  /** The input ended inside a quoted field (its last field holds the rest of the text). */
  readonly unterminatedQuote: boolean;
}

/**
 * @example
 * for await (const chunk of decodedChunks) split.write(chunk);
 * const end = split.end();
 */
export interface CsvSplitter {
  write(chunk: string): void;
  /** Ends the input; `cut: true` says it was cut short, so an unfinished last row is dropped. */
  end(cut?: boolean): CsvEnd;
}

const CANDIDATES = [",", "\t", ";", "|"] as const;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const BOM = "\ufeff";
const BATCH_CHARS = 64 * 1024;
/** `\s` is the set `String.prototype.trim` and papaparse's "spaces after a closing quote" use. */
const SPACE = /\s/;

function isSpace(c: number): boolean {
  if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) return true;
  return c > 0x7f && SPACE.test(String.fromCharCode(c));
}

// Scanner states. NORMAL: outside quotes. QUOTED: inside a quoted field. QUOTE_SEEN: just after a
// quote inside one (an escape, a close, or a stray quote). QUOTE_SPACE: spaces after that quote.
const NORMAL = 0;
const QUOTED = 1;
const QUOTE_SEEN = 2;
const QUOTE_SPACE = 3;

function convert(text: string): CsvValue {
  if (text === "") return null;
  if (text === "true") return true;
  if (text === "false") return false;
  const c = text.charCodeAt(0);
  if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
    // Only text that round-trips: "02134", "1e5", "1.50", "-0" and 20-digit ids stay strings.
    const n = Number(text);
    if (Number.isFinite(n) && String(n) === text) return n;
  }
  return text;
}

/**
 * Streams CSV or TSV text into records. `__proto__` as a column name is kept, as an own data
 * property (`Object.defineProperty`), so records keep `Object.prototype` and serialise every column.
 * @example
 * const split = createCsvSplitter({ record: (row, i) => rows.push(row) });
 * split.write('id,name\n1,"Lovelace, Ada"\n2,Gra');
 * split.write("ce\n");
 * split.end(); // { rows: 2, columns: ["id", "name"], delimiter: ",", ragged: 0, … }
 */
export function createCsvSplitter(sink: CsvSink, options: CsvOptions = {}): CsvSplitter {
  const maxRow = options.maxRowChars ?? 1 << 20;
  const maxColumns = options.maxColumns ?? 1000;
  const types = options.types ?? true;
  let delimiter: string | undefined = options.delimiter;
  let delim = delimiter?.charCodeAt(0) ?? -1;
  let config: ParseConfig<string[]> = {};

  let started = false;
  // Sniffing (before the delimiter is known): the text so far, read with plain quote parity.
  let sniffText = "";
  let sniffQuoted = false;
  let sniffNonBlank = false;
  const sniffCounts = [0, 0, 0, 0];

  let state = NORMAL;
  let fieldStart = true;
  /** The current row's text from earlier chunks ("" once it is over the limit) and its length. */
  let row = "";
  let rowChars = 0;
  let batch: string[] = [];
  let batchChars = 0;

  let headerPending = options.header ?? true;
  let columns: string[] | undefined;
  let width = 0;
  const taken = new Set<string>();
  const extraNames: string[] = [];
  let rows = 0;
  let blankLines = 0;
  let oversized = 0;
  let ragged = 0;
  let droppedFields = 0;
  let unterminatedQuote = false;

  function useDelimiter(d: string): void {
    delimiter = d;
    delim = d.charCodeAt(0);
    config = { delimiter: d, newline: "\n", quoteChar: '"', escapeChar: '"', header: false };
  }
  if (delimiter !== undefined) useDelimiter(delimiter);

  function sniff(chunk: string): boolean {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        sniffQuoted = !sniffQuoted;
        sniffNonBlank = true;
      } else if (sniffQuoted) {
        // a delimiter or newline inside quotes does not count
      } else if (c === LF) {
        if (sniffNonBlank) return true;
      } else {
        const k = CANDIDATES.indexOf(chunk[i] as (typeof CANDIDATES)[number]);
        if (k !== -1) sniffCounts[k] = (sniffCounts[k] ?? 0) + 1;
        if (k !== -1 || !isSpace(c)) sniffNonBlank = true;
      }
    }
    return false;
  }

  function decide(): void {
    let best = 0;
    for (let k = 1; k < CANDIDATES.length; k++) {
      if ((sniffCounts[k] ?? 0) > (sniffCounts[best] ?? 0)) best = k;
    }
    useDelimiter(CANDIDATES[best] ?? ",");
    const text = sniffText;
    sniffText = "";
    scan(text);
  }

  function unique(base: string): string {
    let name = base;
    for (let k = 2; taken.has(name); k++) name = `${base}_${k}`;
    taken.add(name);
    return name;
  }

  function setColumns(fields: readonly string[], named: boolean): void {
    width = fields.length;
    columns = [];
    for (let i = 0; i < Math.min(width, maxColumns); i++) {
      const name = named ? (fields[i] ?? "").trim() : "";
      columns.push(unique(name === "" ? `column_${i + 1}` : name));
    }
    if (named) droppedFields += width - columns.length;
    sink.header?.(columns);
  }

  function toRecord(fields: readonly string[], names: readonly string[]): CsvRecord {
    const record: CsvRecord = {};
    if (fields.length !== width) ragged++;
    const kept = Math.min(fields.length, maxColumns);
    droppedFields += fields.length - kept;
    for (let i = 0; i < kept; i++) {
      const text = fields[i] ?? "";
      const value = types ? convert(text) : text;
      let name = names[i];
      if (name === undefined) {
        const k = i - names.length;
        name = extraNames[k] ??= unique(`_extra_${k + 1}`);
      }
      // Assigning "__proto__" would set the prototype; it is defined as an own key instead.
      setKey(record, name, value);
    }
    return record;
  }

  function emit(fields: readonly string[]): void {
    if (columns === undefined) setColumns(fields, false);
    sink.record(toRecord(fields, columns as string[]), rows++);
  }

  /**
   * Parses whole rows. The leading BOM is papaparse's to strip (it strips one from every string it
   * is given), so a row that itself starts with U+FEFF keeps it.
   */
  function parse(texts: readonly string[]): string[][] {
    const data = Papa.parse<string[]>(`${BOM}${texts.join("\n")}\n`, config).data;
    // The trailing newline gives one empty row more.
    if (data.length > 1) data.pop();
    if (data.length === texts.length) return data;
    // Not expected (the scanner follows papaparse's rules), but each of our rows stays one record.
    if (texts.length > 1) return texts.map((text) => parse([text])[0] ?? []);
    return [data.flat()];
  }

  function flush(): void {
    if (batch.length === 0) return;
    const texts = batch;
    batch = [];
    batchChars = 0;
    for (const fields of parse(texts)) emit(fields);
  }

  function take(text: string): void {
    if (
      text === "" ||
      (isSpace(text.charCodeAt(0)) && text.trim() === "" && !text.includes(delimiter as string))
    ) {
      blankLines++;
    } else if (headerPending) {
      headerPending = false;
      setColumns(parse([text])[0] ?? [], true);
    } else {
      batch.push(text);
      batchChars += text.length + 1;
      if (batchChars >= BATCH_CHARS) flush();
    }
  }

  function over(chars: number): void {
    oversized++;
    if (headerPending) {
      // No names: the columns are numbered from the first data row.
      headerPending = false;
      sink.oversized?.(-1, chars);
      return;
    }
    flush();
    sink.oversized?.(rows++, chars);
  }

  /** The row that ends at `end` in `chunk` (it began at `from`, or in an earlier chunk). */
  function endRow(chunk: string, from: number, end: number): void {
    const chars = rowChars + (end - from);
    if (chars > maxRow) over(chars);
    else {
      const text = row + chunk.slice(from, end);
      take(text.charCodeAt(text.length - 1) === CR ? text.slice(0, -1) : text);
    }
    row = "";
    rowChars = 0;
  }

  function scan(chunk: string): void {
    const n = chunk.length;
    let from = 0;
    let i = 0;
    let nextQuote = chunk.indexOf('"');
    while (i < n) {
      if (nextQuote !== -1 && nextQuote < i) nextQuote = chunk.indexOf('"', i);
      if (state === NORMAL) {
        const nl = chunk.indexOf("\n", i);
        const end = nl === -1 ? n : nl;
        // A quote opens a quoted field only at the start of a field; elsewhere it is text.
        while (
          nextQuote !== -1 &&
          nextQuote < end &&
          !(nextQuote === i ? fieldStart : chunk.charCodeAt(nextQuote - 1) === delim)
        ) {
          nextQuote = chunk.indexOf('"', nextQuote + 1);
        }
        if (nextQuote !== -1 && nextQuote < end) {
          state = QUOTED;
          i = nextQuote + 1;
        } else if (nl === -1) {
          fieldStart = chunk.charCodeAt(n - 1) === delim;
          i = n;
        } else {
          endRow(chunk, from, nl);
          from = i = nl + 1;
          fieldStart = true;
        }
      } else if (state === QUOTED) {
        if (nextQuote === -1) break;
        state = QUOTE_SEEN;
        i = nextQuote + 1;
      } else {
        // Per papaparse: `""` is a quote; a quote then spaces then a delimiter or newline closes
        // the field; anything else makes the quote text and the field stays quoted.
        const c = chunk.charCodeAt(i++);
        if (c === delim) {
          state = NORMAL;
          fieldStart = true;
        } else if (c === LF) {
          state = NORMAL;
          endRow(chunk, from, i - 1);
          from = i;
          fieldStart = true;
        } else if (c === QUOTE) state = state === QUOTE_SEEN ? QUOTED : QUOTE_SEEN;
        else state = isSpace(c) ? QUOTE_SPACE : QUOTED;
      }
    }
    rowChars += n - from;
    row = rowChars > maxRow ? "" : row + chunk.slice(from);
  }

  function write(chunk: string): void {
    if (!started) {
      if (chunk === "") return;
      started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    if (delimiter === undefined) {
      sniffText += chunk;
      if (sniff(chunk) || sniffText.length > maxRow) decide();
      return;
    }
    scan(chunk);
  }

  function end(cut = false): CsvEnd {
    if (delimiter === undefined) decide();
    if (cut) {
      // The row after the last line break is a piece of a row: never a record.
      row = "";
      rowChars = 0;
      state = NORMAL;
    }
    if (state === QUOTED) {
      // The rest of the input is the open field, as papaparse reads it (no closing quote).
      unterminatedQuote = true;
      flush();
      if (rowChars > maxRow) over(rowChars);
      else {
        const fields = Papa.parse<string[]>(BOM + row, config).data.flat();
        if (headerPending) setColumns(fields, true);
        else emit(fields);
      }
      row = "";
      rowChars = 0;
    } else if (rowChars > 0) endRow("", 0, 0);
    flush();
    return {
      rows,
      columns: columns ?? [],
      delimiter: delimiter as string,
      blankLines,
      oversized,
      ragged,
      droppedFields,
      unterminatedQuote,
    };
  }

  return { write, end };
}

/**
 * CSV or TSV as records for the records decoder: rows are queued as values (typed only when
 * they round-trip), the header, ragged rows and an unterminated quote are recorded in the facts.
 *
 * @example
 * const split = createCsvSplit(ctx, "\t");
 */
export function createCsvSplit(ctx: SplitContext, delimiter?: "\t"): Split {
  const csv = createCsvSplitter(
    {
      record: (value, index) => ctx.queue.push({ value: value as JsonValue, index: index + 1 }),
      oversized: () => ctx.refuse("csv/record-too-large"),
    },
    { ...(delimiter ? { delimiter } : {}), maxRowChars: ctx.limits.maxRecordChars },
  );
  return {
    write: (text) => csv.write(text),
    end(capped) {
      const end = csv.end(capped);
      ctx.facts.csv = {
        columns: end.columns,
        ragged: end.ragged,
        unterminatedQuote: end.unterminatedQuote,
        delimiter: end.delimiter,
      };
      return { ok: true, records: true };
    },
  };
}
