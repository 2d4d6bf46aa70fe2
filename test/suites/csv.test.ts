import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { type CsvOptions, type CsvRecord, createCsvSplitter } from "../../src/decode/csv.js";
import { cutAt } from "../helpers/chunks.js";

/** Feeds `pieces` to a splitter; returns what the sink saw and the end result. */
function run(pieces: readonly string[], options?: CsvOptions) {
  const records: CsvRecord[] = [];
  const indices: number[] = [];
  const oversized: [number, number][] = [];
  const headers: (readonly string[])[] = [];
  const split = createCsvSplitter(
    {
      header: (names) => headers.push(names),
      record: (record, index) => {
        records.push(record);
        indices.push(index);
      },
      oversized: (index, chars) => oversized.push([index, chars]),
    },
    options,
  );
  for (const piece of pieces) split.write(piece);
  return { records, indices, oversized, headers, end: split.end() };
}

/** Every way to feed `text`: whole, cut at each point, one character at a time. */
function feedings(text: string): string[][] {
  const all = [[text], [...text]];
  for (let p = 1; p < text.length; p++) all.push([text.slice(0, p), text.slice(p)]);
  return all;
}

/** A small seeded PRNG (mulberry32), so the big tests are the same everywhere. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const fixtures: {
  title: string;
  input: string;
  options?: CsvOptions;
  records: CsvRecord[];
  end?: Record<string, unknown>;
}[] = [
  {
    title: "quoted fields span lines (CRLF), escape quotes and hold delimiters",
    input: 'id,text\r\n1,"line one\r\nline two"\r\n2,"say ""hi"", ok"\r\n3,"a\nb,c"\r\n',
    records: [
      { id: 1, text: "line one\r\nline two" },
      { id: 2, text: 'say "hi", ok' },
      { id: 3, text: "a\nb,c" },
    ],
    end: { rows: 3, columns: ["id", "text"], delimiter: ",", ragged: 0 },
  },
  {
    title: "a quote inside an unquoted field is text, not an opening quote",
    input: 'a,b\n5" pipe,x\n"",y\n',
    records: [
      { a: '5" pipe', b: "x" },
      { a: null, b: "y" },
    ],
  },
  {
    title: "TSV is sniffed; tabs inside quotes do not count",
    input: 'name\tnote\nAda\t"x\ty"\nBob\t\n',
    records: [
      { name: "Ada", note: "x\ty" },
      { name: "Bob", note: null },
    ],
    end: { delimiter: "\t" },
  },
  {
    title: "semicolons are sniffed (decimal commas and quoted commas outnumbered)",
    input: '"a,b,c";price;note\nx;1,5;"p;q"\n',
    records: [{ "a,b,c": "x", price: "1,5", note: "p;q" }],
    end: { delimiter: ";", columns: ["a,b,c", "price", "note"] },
  },
  {
    title: "header names are trimmed, empty ones numbered, duplicates made unique",
    input: "name, name ,,id,name_2,\n1,2,3,4,5,6\n",
    records: [{ name: 1, name_2: 2, column_3: 3, id: 4, name_2_2: 5, column_6: 6 }],
    end: { columns: ["name", "name_2", "column_3", "id", "name_2_2", "column_6"] },
  },
  {
    title: "ragged rows are kept: missing fields absent, extra ones under _extra_N",
    input: "a,b,c,_extra_1\n1,2\n1,2,3,4,5,6\n1,2,3,4\n",
    records: [
      { a: 1, b: 2 },
      { a: 1, b: 2, c: 3, _extra_1: 4, _extra_1_2: 5, _extra_2: 6 },
      { a: 1, b: 2, c: 3, _extra_1: 4 },
    ],
    end: { ragged: 2 },
  },
  {
    title: "blank and whitespace-only lines are skipped and counted; a row of empty fields is kept",
    input: "\n  \na,b\n\n1,2\n   \r\n\r\n,\n3,4\n\n",
    records: [
      { a: 1, b: 2 },
      { a: null, b: null },
      { a: 3, b: 4 },
    ],
    end: { rows: 3, blankLines: 6 },
  },
  {
    title: "input that ends inside a quoted field: the rest is that field, and it is said",
    input: 'a,b\n1,2\n3,"open\nstill open',
    records: [
      { a: 1, b: 2 },
      { a: 3, b: "open\nstill open" },
    ],
    end: { rows: 2, unterminatedQuote: true },
  },
  {
    title: "a last row without a newline, and a quote closed at the very end",
    input: 'a,b\n1,"x"',
    records: [{ a: 1, b: "x" }],
    end: { unterminatedQuote: false },
  },
  {
    title: "values: only numbers that round-trip become numbers",
    input:
      'v\n02134\n1e5\n0x10\n 7\n7 \n-0\n1.50\n1.5\n-3\n0\n12345678901234567890\n9007199254740993\nNaN\nInfinity\n1e21\n.5\ntrue\nfalse\nTRUE\n""\nnull\n',
    records: [
      "02134",
      "1e5",
      "0x10",
      " 7",
      "7 ",
      "-0",
      "1.50",
      1.5,
      -3,
      0,
      "12345678901234567890",
      "9007199254740993",
      "NaN",
      "Infinity",
      "1e21",
      ".5",
      true,
      false,
      "TRUE",
      null,
      "null",
    ].map((v) => ({ v })),
  },
  {
    title: "types: false keeps every value a string",
    input: "a,b,c\n1,true,\n",
    options: { types: false },
    records: [{ a: "1", b: "true", c: "" }],
  },
  {
    title: "a BOM at the start is dropped; one starting a later row is data",
    input: "\ufeffid,name\n\ufeffx,1\n",
    records: [{ id: "\ufeffx", name: 1 }],
    end: { columns: ["id", "name"] },
  },
  {
    title: "header: false numbers the columns from the first row",
    input: "1,2\n3,4,5\n",
    options: { header: false },
    records: [
      { column_1: 1, column_2: 2 },
      { column_1: 3, column_2: 4, _extra_1: 5 },
    ],
    end: { columns: ["column_1", "column_2"], ragged: 1 },
  },
  {
    title: "fields beyond maxColumns are dropped and counted",
    input: "a,b,c\n1,2,3\n1,2,3,4\n",
    options: { maxColumns: 2 },
    records: [
      { a: 1, b: 2 },
      { a: 1, b: 2 },
    ],
    end: { columns: ["a", "b"], droppedFields: 4, ragged: 1 },
  },
  {
    title: "spaces after a closing quote are allowed, as papaparse allows them",
    input: 'a,b\n"x"  ,"y" \r\n"p" q",r\n',
    records: [
      { a: "x", b: "y" },
      { a: 'p" q', b: "r" },
    ],
  },
];

describe("CSV splitter", () => {
  for (const { title, input, options, records, end } of fixtures) {
    it(title, () => {
      for (const pieces of feedings(input)) {
        const result = run(pieces, options);
        expect(result.records).toEqual(records);
        expect(result.indices).toEqual(records.map((_, k) => k));
        if (end) expect(result.end).toMatchObject(end);
      }
    });
  }

  it("calls header() once, before the first record", () => {
    const order: string[] = [];
    const split = createCsvSplitter({
      header: (names) => order.push(`header ${names.join("|")}`),
      record: (_, index) => order.push(`record ${index}`),
    });
    split.write("a,b\n1,2\n3,4");
    split.end();
    expect(order).toEqual(["header a|b", "record 0", "record 1"]);
  });

  it("a __proto__ column is an own property: the prototype is untouched, JSON has it", () => {
    const { records, end } = run(['__proto__,constructor,name\n{"x":1},7,Ada\n']);
    const record = records[0] as CsvRecord;
    expect(end.columns).toEqual(["__proto__", "constructor", "name"]);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(["__proto__", "constructor", "name"]);
    expect(JSON.stringify(record)).toBe('{"__proto__":"{\\"x\\":1}","constructor":7,"name":"Ada"}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("an oversized row is counted, not held, and keeps its place among the rows", () => {
    const long = `"${"x".repeat(150)}\n${"y".repeat(150)}"`;
    const text = `a,b\n1,2\n3,${long}\n5,6\n`;
    for (const size of [1, 7, 64, text.length]) {
      const pieces = Array.from({ length: Math.ceil(text.length / size) }, (_, k) =>
        text.slice(k * size, (k + 1) * size),
      );
      const { records, indices, oversized, end } = run(pieces, { maxRowChars: 100 });
      expect(records).toEqual([
        { a: 1, b: 2 },
        { a: 5, b: 6 },
      ]);
      expect(indices).toEqual([0, 2]);
      expect(oversized).toEqual([[1, long.length + 2]]);
      expect(end).toMatchObject({ rows: 3, oversized: 1 });
    }
  });

  it("an oversized header is reported with index -1; the columns are then numbered", () => {
    const { records, oversized, end } = run([`${"h".repeat(50)},x\n1,2\n`], { maxRowChars: 20 });
    expect(oversized).toEqual([[-1, 52]]);
    expect(records).toEqual([{ column_1: 1, column_2: 2 }]);
    expect(end).toMatchObject({ rows: 1, oversized: 1 });
  });

  it("empty input, and input that is only a header", () => {
    expect(run([]).end).toEqual({
      rows: 0,
      columns: [],
      delimiter: ",",
      blankLines: 0,
      oversized: 0,
      ragged: 0,
      droppedFields: 0,
      unterminatedQuote: false,
    });
    expect(run(["", "\ufeff", "a|b|c"]).end).toMatchObject({
      columns: ["a", "b", "c"],
      delimiter: "|",
    });
  });

  it("100,000 rows streamed in random-size chunks give the same records as one chunk", () => {
    const random = prng(42);
    const lines = ["id,name,score,active,note"];
    for (let k = 0; k < 100_000; k++) {
      const note = k % 7 === 0 ? `"multi\nline, ""quoted"" ${k}"` : k % 11 === 0 ? "" : `note ${k}`;
      lines.push(
        `${k},name-${(random() * 1e6) | 0},${(random() * 100).toFixed(2)},${k % 2 === 0},${note}`,
      );
    }
    const text = `${lines.join("\r\n")}\r\n`;
    const whole = run([text]);
    const pieces: string[] = [];
    for (let at = 0; at < text.length; ) {
      const size = 1 + Math.floor(random() ** 3 * 200_000);
      pieces.push(text.slice(at, at + size));
      at += size;
    }
    const streamed = run(pieces);
    expect(whole.end).toMatchObject({ rows: 100_000, ragged: 0, blankLines: 0 });
    expect(streamed.end).toEqual(whole.end);
    expect(streamed.records.length).toBe(100_000);
    expect(streamed.records).toEqual(whole.records);
    expect(whole.records[7]).toMatchObject({
      id: 7,
      active: false,
      note: 'multi\nline, "quoted" 7',
    });
  });
});

// --- Properties --------------------------------------------------------------------------------

/** Reads CSV fed in pieces back into rows of cell strings. */
type Reader = (pieces: readonly string[]) => string[][];

const streamed: Reader = (pieces) =>
  run(pieces, { header: false, types: false, delimiter: "," }).records.map((record) =>
    Object.values(record).map(String),
  );

/** The bug the splitter exists to avoid: a row per "\n", whatever the quotes say. */
const naive: Reader = (pieces) =>
  pieces
    .join("")
    .split("\n")
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line.trim() !== "")
    .map((line) => Papa.parse<string[]>(line, { delimiter: ",", newline: "\n" }).data[0] ?? []);

const cell = fc.string({
  unit: fc.constantFrom("a", "b", "é", " ", ",", '"', "\n", "\r", "\r\n", ";", "\t"),
  maxLength: 8,
});
const table = fc.integer({ min: 1, max: 5 }).chain((columns) =>
  fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), {
    minLength: 1,
    maxLength: 12,
  }),
);

/** RFC 4180, plus quoting a lone empty or blank cell (unquoted, it would be a blank line). */
function toCsv(rows: readonly string[][], newline: string, trailing: boolean): string {
  const quote = (value: string, alone: boolean) =>
    /[",\r\n]/.test(value) || (alone && value.trim() === "")
      ? `"${value.replaceAll('"', '""')}"`
      : value;
  const text = rows
    .map((row) => row.map((v) => quote(v, row.length === 1)).join(","))
    .join(newline);
  return trailing ? text + newline : text;
}

function roundTrips(read: Reader) {
  return fc.property(
    table,
    fc.array(fc.nat(), { maxLength: 12 }),
    fc.constantFrom("\n", "\r\n"),
    fc.boolean(),
    (rows, at, newline, trailing) => {
      const text = toCsv(rows, newline, trailing);
      expect(read(cutAt(text, at))).toEqual(rows);
    },
  );
}

describe("CSV splitter properties", () => {
  it("random tables written as RFC 4180 CSV come back cell for cell, however the text is cut", () => {
    fc.assert(roundTrips(streamed), { numRuns: 500, seed: 4180 });
  });

  it("negative control: splitting rows on every newline fails the same property", () => {
    expect(fc.check(roundTrips(naive), { numRuns: 500, seed: 4180 }).failed).toBe(true);
  });

  it("on any text, rows match what papaparse reads from the whole string", () => {
    const junk = fc.string({
      unit: fc.constantFrom("a", ",", '"', '""', "\n", " ", "\t", ',"'),
      maxLength: 60,
    });
    const notBlank = (row: string[]) => !(row.length === 1 && (row[0] ?? "").trim() === "");
    fc.assert(
      fc.property(junk, fc.array(fc.nat(), { maxLength: 8 }), (text, at) => {
        const config = { delimiter: ",", newline: "\n" as const };
        let reference = Papa.parse<string[]>(`${text}\n`, config);
        if (reference.errors.some((e) => e.code === "MissingQuotes")) {
          reference = Papa.parse<string[]>(text, config);
        } else reference.data.pop();
        expect(streamed(cutAt(text, at)).filter(notBlank)).toEqual(reference.data.filter(notBlank));
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
});
