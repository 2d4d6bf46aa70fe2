import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "../../src/decode/json.js";
import { createRecordSplitter, type SplitEnd } from "../../src/decode/json-array.js";
import { cutAt } from "../helpers/chunks.js";

/** Splits `text` fed in the given pieces; returns the records' texts and the end result. */
function splitIn(
  pieces: readonly string[],
  options = {},
): { records: string[]; oversized: number[]; end: SplitEnd } {
  const records: string[] = [];
  const oversized: number[] = [];
  const splitter = createRecordSplitter(
    { record: (text) => records.push(text), oversized: (index) => oversized.push(index) },
    options,
  );
  for (const piece of pieces) splitter.write(piece);
  return { records, oversized, end: splitter.end() };
}

const element = fc.jsonValue({ maxDepth: 3 });

describe("record splitter", () => {
  it("hands on every element of a top-level array, whatever the chunking", () => {
    fc.assert(
      fc.property(
        fc.array(element, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.boolean(),
        (values, at, pretty) => {
          const text = JSON.stringify(values, null, pretty ? 2 : undefined);
          const { records, end } = splitIn(cutAt(text, at));
          expect(end.ok).toBe(true);
          expect(records.map((r) => JSON.parse(r))).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 300, seed: 9 },
    );
  });

  it("negative control: splitting on commas alone fails the same property", () => {
    const naive = (text: string) => {
      const inner = text.trim().slice(1, -1).trim();
      return inner === "" ? [] : inner.split(",");
    };
    const result = fc.check(
      fc.property(fc.array(element, { maxLength: 20 }), (values) => {
        const text = JSON.stringify(values);
        try {
          return JSON.stringify(naive(text).map((r) => JSON.parse(r))) === text;
        } catch {
          return false;
        }
      }),
      { numRuns: 300, seed: 9 },
    );
    expect(result.failed).toBe(true);
  });

  it("finds the records under an envelope key, not under a nested one", () => {
    const doc = {
      meta: { items: ["not", "these"], total: 3 },
      total_count: 3,
      items: [{ id: 1, title: 'a "quoted" [title]' }, { id: 2 }, { id: 3, tags: ["x", "]"] }],
      next: "cursor-1",
    };
    const text = JSON.stringify(doc, null, 2);
    for (let size = 1; size <= 9; size += 4) {
      const pieces = Array.from({ length: Math.ceil(text.length / size) }, (_, k) =>
        text.slice(k * size, (k + 1) * size),
      );
      const { records, end } = splitIn(pieces);
      expect(end).toEqual({
        ok: true,
        stats: { records: 3, envelope: "items", sections: [{ path: "items", count: 3 }] },
      });
      expect(records.map((r) => JSON.parse(r))).toEqual(doc.items);
    }
  });

  it("each record parses strictly on its own", () => {
    const { records } = splitIn(['[{"a": 1, "a": 2}, {"b": NaN}, {"c": 3}]']);
    expect(records.map((r) => (parseJson(r).ok ? "ok" : "refused"))).toEqual([
      "refused",
      "refused",
      "ok",
    ]);
  });

  it("an oversized record is counted and not held", () => {
    const big = JSON.stringify({ blob: "x".repeat(5000) });
    const { records, oversized, end } = splitIn([`[1, ${big}, 3]`], { maxRecordChars: 1000 });
    expect(records).toEqual(["1", "3"]);
    expect(oversized).toEqual([1]);
    expect(end.ok && end.stats.records).toBe(3);
  });

  it("says when the document is not an array of records, or is cut off", () => {
    expect(splitIn(['{"a": 1}']).end).toMatchObject({ ok: false, code: "records/not-an-array" });
    expect(splitIn(["42"]).end).toMatchObject({ ok: false, code: "records/not-an-array" });
    expect(splitIn(['[{"a": 1}, {"b": ']).end).toMatchObject({
      ok: false,
      code: "records/unbalanced",
    });
  });

  it("streams a large array in flat memory: only one record is held at a time", () => {
    let held = 0;
    const splitter = createRecordSplitter({
      record: (text) => {
        held = Math.max(held, text.length);
      },
    });
    const row = JSON.stringify({ id: 123456, name: "row", tags: ["a", "b"], score: 1.5 });
    splitter.write("[");
    const block = `${`${row},`.repeat(10_000)}`;
    for (let k = 0; k < 100; k++) splitter.write(block); // 1,000,000 records
    splitter.write(`${row}]`);
    const end = splitter.end();
    expect(end).toEqual({
      ok: true,
      stats: {
        records: 1_000_001,
        envelope: undefined,
        sections: [{ path: "", count: 1_000_001 }],
      },
    });
    expect(held).toBe(row.length);
  });
});
