/**
 * `structuredContent` within its budget: cut only at array items, never dropping a member,
 * never below the schema's `minItems`, the most items that fit. Checked against independent
 * measures (gpt-tokenizer counts, a bisection of its own), with negative controls.
 */
import { shapeCallToolResult } from "agent-airlock/mcp";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { minItemsOf } from "../../src/mcp/schema.js";
import { reduceStructured } from "../../src/mcp/structured.js";
import { tokens } from "../helpers/mcp.js";

const count = async (text: string) => tokens(text);
const clean = (text: string) => text;

/** True when `cut` is `original` with array items removed from the ends of arrays, and nothing else. */
function isCutOf(cut: unknown, original: unknown): boolean {
  if (Array.isArray(original)) {
    return (
      Array.isArray(cut) &&
      cut.length <= original.length &&
      cut.every((item, i) => isCutOf(item, original[i]))
    );
  }
  if (typeof original === "object" && original !== null) {
    if (typeof cut !== "object" || cut === null || Array.isArray(cut)) return false;
    const a = Object.keys(original);
    const b = Object.keys(cut);
    return (
      a.length === b.length &&
      a.every((k) => Object.hasOwn(cut, k) && isCutOf((cut as never)[k], (original as never)[k]))
    );
  }
  return Object.is(cut, original);
}

const objects = fc.dictionary(
  fc.string({ maxLength: 8 }),
  fc.oneof(
    fc.array(fc.record({ id: fc.nat(), name: fc.string({ maxLength: 12 }) }), { maxLength: 200 }),
    fc.array(fc.array(fc.integer(), { maxLength: 30 }), { maxLength: 40 }),
    fc.string({ maxLength: 40 }),
    fc.integer(),
  ),
  { minKeys: 1, maxKeys: 5 },
);

describe("reduceStructured", () => {
  it("property: within the budget or left out, and a cut of the value (no member dropped)", async () => {
    await fc.assert(
      fc.asyncProperty(objects, fc.integer({ min: 16, max: 600 }), async (value, budget) => {
        const out = await reduceStructured(value, { maxTokens: budget, count, clean });
        if (out.value === undefined) {
          expect(out.omitted).toBeDefined();
          return;
        }
        expect(tokens(JSON.stringify(out.value))).toBeLessThanOrEqual(budget);
        expect(out.tokens).toBe(tokens(JSON.stringify(out.value)));
        expect(isCutOf(out.value, value)).toBe(true);
        if (tokens(JSON.stringify(value)) <= budget) expect(out.value).toEqual(value);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it("negative control: a cut that drops a member is caught by the property's check", () => {
    const value = { rows: [{ id: 1, name: "a" }], total: 1 };
    const { total: _, ...dropped } = value;
    expect(isCutOf(dropped, value)).toBe(false);
    expect(isCutOf({ rows: [{ id: 1 }], total: 1 }, value)).toBe(false);
    expect(isCutOf({ rows: [], total: 1 }, value)).toBe(true);
  });

  it("keeps the most items that fit (an independent bisection agrees)", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, city: `city ${i % 37}` }));
    for (const budget of [50, 333, 1200]) {
      const out = await reduceStructured({ rows }, { maxTokens: budget, count, clean });
      let lo = 0;
      let hi = rows.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (tokens(JSON.stringify({ rows: rows.slice(0, mid) })) <= budget) lo = mid;
        else hi = mid - 1;
      }
      expect((out.value as { rows: unknown[] }).rows.length, String(budget)).toBe(lo);
      expect(out.cuts).toEqual([{ path: "rows", kept: lo, of: 3000 }]);
    }
  });

  it("never goes below the schema's minItems; without it the same value is refused", async () => {
    const ids = Array.from({ length: 2000 }, (_, i) => ({ id: i }));
    const schema = {
      type: "object",
      properties: {
        rows: { type: "array", minItems: 60, items: { type: "object", required: ["id"] } },
        audit: { type: "array" },
      },
      required: ["rows", "audit"],
    };
    const check = async (v: unknown) => {
      const rows = (v as { rows: unknown[] }).rows;
      return rows.length >= 60 ? { ok: true } : { ok: false, detail: "minItems at /rows" };
    };
    const withMin = await reduceStructured(
      { rows: ids, audit: ids },
      { maxTokens: 400, count, clean, check, minItems: minItemsOf(schema) },
    );
    expect((withMin.value as { rows: unknown[] }).rows).toHaveLength(60);
    expect(withMin.valid).toBe(true);
    // Negative control: the same cut without minItems goes below it, and the check refuses it.
    const blind = await reduceStructured(
      { rows: ids, audit: ids },
      { maxTokens: 400, count, clean, check },
    );
    expect(blind.value).toBeUndefined();
    expect(blind.omitted).toMatch(/valid against the output schema/);
  });

  it("cleans strings (secrets, invisible characters) and keeps a __proto__ key as a key", async () => {
    const key = `AKIA${"Z".repeat(4)}${"3".repeat(12)}`;
    const value = JSON.parse(`{"__proto__": {"polluted": true}, "note": "key ${key} here\u200b"}`);
    const out = await shapeCallToolResult({ content: [], structuredContent: value });
    expect(JSON.stringify(out.structuredContent)).not.toContain(key);
    expect(JSON.stringify(out.structuredContent)).not.toContain("\u200b");
    expect(Object.hasOwn(out.structuredContent as object, "__proto__")).toBe(true);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("a value that cannot be read, or nests too deep, is left out with the reason", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const a = await reduceStructured(cyclic, { maxTokens: 100, count, clean });
    expect(a.omitted).toMatch(/cannot be read as JSON/);
    let deep: unknown = [1];
    for (let i = 0; i < 300; i++) deep = [deep, 2];
    const b = await reduceStructured({ deep }, { maxTokens: 16, count, clean });
    expect(b.omitted).toMatch(/nests deeper than 256 levels/);
    // Words, not one run (a run past 1,000 characters is folded, and then fits).
    const c = await reduceStructured(
      { note: "word ".repeat(1000) },
      { maxTokens: 50, count, clean },
    );
    expect(c.omitted).toMatch(/holds no array to cut/);
  });
});

describe("minItemsOf", () => {
  const fixtures: ReadonlyArray<{
    title: string;
    schema: object;
    path: Array<string | number>;
    expected: number;
  }> = [
    {
      title: "a property",
      schema: { properties: { a: { minItems: 3 } } },
      path: ["a"],
      expected: 3,
    },
    {
      title: "through a local $ref",
      schema: { properties: { a: { $ref: "#/$defs/list" } }, $defs: { list: { minItems: 4 } } },
      path: ["a"],
      expected: 4,
    },
    {
      title: "an item of an array of arrays",
      schema: { items: { minItems: 2 } },
      path: [5],
      expected: 2,
    },
    {
      title: "prefixItems, then items",
      schema: { prefixItems: [{ minItems: 1 }], items: { minItems: 7 } },
      path: [3],
      expected: 7,
    },
    {
      title: "allOf and anyOf: the largest",
      schema: {
        allOf: [{ properties: { a: { minItems: 2 } } }],
        anyOf: [{ properties: { a: { minItems: 5 } } }],
      },
      path: ["a"],
      expected: 5,
    },
    {
      title: "an unknown path",
      schema: { properties: { a: { minItems: 2 } } },
      path: ["b"],
      expected: 0,
    },
    {
      title: "a $ref loop ends",
      schema: { $ref: "#/$defs/x", $defs: { x: { $ref: "#/$defs/x" } } },
      path: ["a", 0, "b"],
      expected: 0,
    },
  ];
  for (const f of fixtures) {
    it(f.title, () => {
      expect(minItemsOf(f.schema as never)(f.path)).toBe(f.expected);
    });
  }

  it("a zod schema gives its minItems through its Standard JSON Schema", async () => {
    const ids = Array.from({ length: 2000 }, (_, i) => ({ id: i }));
    const outputSchema = z.object({
      rows: z.array(z.object({ id: z.number() })).min(60),
      audit: z.array(z.unknown()),
    });
    const out = await shapeCallToolResult(
      { content: [], structuredContent: { rows: ids, audit: ids } },
      { outputSchema, maxStructuredTokens: 400 },
    );
    expect((out.structuredContent as { rows: unknown[] }).rows).toHaveLength(60);
  });
});
