/**
 * One rule for where records are, in a JSON text as it streams and in the parsed value: the
 * splitter (`json-array.ts`) and the value search (`record-paths.ts`) find the same arrays, in
 * the same order, with the same counts, for random documents and any chunking. A negative
 * control shows the property can fail: "the largest array is the records" disagrees with it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRecordSplitter } from "../../src/decode/json-array.js";
import { findRecordArrays } from "../../src/decode/record-paths.js";
import { cutAt } from "../helpers/chunks.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const key = fc.constantFrom(
  "items",
  "payments",
  "hits",
  "nodes",
  "data",
  "meta",
  "failed",
  "tags",
  "x",
);
const record = fc.record({
  id: fc.integer(),
  name: fc.string({ maxLength: 40 }),
  level: fc.constantFrom("info", "error", "warn"),
});
/** Arrays from empty to big enough to pass the threshold, of records or of scalars. */
const array = fc.oneof(
  fc.array(record, { maxLength: 60 }),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }),
);
const doc: fc.Arbitrary<Json> = fc
  .letrec<{ node: Json }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      array as fc.Arbitrary<Json>,
      fc.dictionary(key, tie("node"), { maxKeys: 4 }) as fc.Arbitrary<Json>,
      fc.integer() as fc.Arbitrary<Json>,
    ),
  }))
  .node.filter((v) => typeof v === "object" && v !== null && !Array.isArray(v));

function splitPaths(text: string, at: readonly number[]) {
  const splitter = createRecordSplitter({ record: () => {} });
  for (const piece of cutAt(text, at)) splitter.write(piece);
  splitter.end();
  return splitter.stats.sections.map((s) => [s.path, s.count]);
}

function valuePaths(value: Json) {
  const found = findRecordArrays(value, { sizeOf: (e) => JSON.stringify(e).length });
  return found.sections.map((s) => [s.path, s.array.length]);
}

describe("record paths: text and value agree", () => {
  it("the same arrays, order and counts, for random documents and any chunking", () => {
    fc.assert(
      fc.property(doc, fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (value, at, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        expect(splitPaths(text, at)).toEqual(valuePaths(value));
      }),
      { numRuns: 400, seed: 25 },
    );
  });

  it("the envelope around them is the value with each record array written []", () => {
    fc.assert(
      fc.property(doc, (value) => {
        const splitter = createRecordSplitter({ record: () => {} });
        splitter.write(JSON.stringify(value));
        const end = splitter.end();
        const found = findRecordArrays(value, { sizeOf: (e) => JSON.stringify(e).length });
        if (!end.ok) return found.sections.length === 0;
        expect(JSON.parse(splitter.outside() ?? "null")).toEqual(found.envelope);
        return true;
      }),
      { numRuns: 300, seed: 26 },
    );
  });

  it("negative control: 'the largest array is the records' disagrees with the splitter", () => {
    const largest = (value: Json): string[][] => {
      let best: { path: string; size: number } | undefined;
      const walk = (v: Json, path: string[]) => {
        if (Array.isArray(v)) {
          const size = JSON.stringify(v).length;
          if (!best || size > best.size) best = { path: path.join("."), size };
          return;
        }
        if (v && typeof v === "object")
          for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
      };
      walk(value, []);
      return best ? [[best.path]] : [];
    };
    const result = fc.check(
      fc.property(doc, (value) => {
        const text = JSON.stringify(value);
        const got = splitPaths(text, []).map(([p]) => [p as string]);
        return JSON.stringify(got) === JSON.stringify(largest(value));
      }),
      { numRuns: 400, seed: 25 },
    );
    expect(result.failed).toBe(true);
  });
});
