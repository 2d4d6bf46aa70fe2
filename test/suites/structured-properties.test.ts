import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createMemoryStore,
  createResultReader,
  MIN_READ_TOKENS,
  type Shaped,
  type ShapeOptions,
  shape,
} from "../../src/index.js";
import { o200kCount } from "../helpers/sources.js";

/** The JSON under `data:` inside the fence, or undefined when none is shown. */
function dataOf(text: string): unknown {
  const lines = text.split("\n");
  const body = lines.slice(1, -1).join("\n");
  const start = body.indexOf("\ndata: ");
  if (start === -1) return undefined;
  const rest = body.slice(start + 7);
  const end = rest.search(/\n(?:omitted|next): /);
  return JSON.parse(end === -1 ? rest : rest.slice(0, end));
}

// Records over a fixed pool of keys, so a projection is easy to state independently: the record
// restricted to the chosen keys, in the record's own order.
const KEYS = ["id", "name", "level", "n", "tags", "nested"] as const;
const scalar = fc.oneof(
  fc.string({ maxLength: 24 }),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.boolean(),
  fc.constant(null),
);
const record = fc.record(
  {
    id: fc.nat(),
    name: fc.string({ maxLength: 40 }),
    level: fc.constantFrom("info", "warn", "error", "debug"),
    n: scalar,
    tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
    nested: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), scalar, { maxKeys: 4 }),
  },
  { requiredKeys: [] },
);

const canonical = (v: unknown) => JSON.stringify(v);

function restrict(
  r: Record<string, unknown>,
  keys: readonly string[] | undefined,
): Record<string, unknown> {
  if (keys === undefined) return r;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(r)) if (keys.includes(k)) out[k] = r[k];
  return out;
}

/**
 * The property, over any shaper: the text's real o200k count is within the budget, the data
 * part parses, each shown record is (a projection of) a distinct input record, and the counts
 * add up.
 */
async function holds(
  shaper: (input: unknown, options: ShapeOptions) => Promise<Shaped>,
  rows: Array<Record<string, unknown>>,
  maxTokens: number,
  keys: readonly string[] | undefined,
  asText: boolean,
): Promise<boolean> {
  const options: ShapeOptions = {
    maxTokens,
    redact: false,
    invisible: false,
    ...(keys ? { fields: [...keys] } : {}),
    ...(asText ? { contentType: "application/json" } : {}),
  };
  const shaped = await shaper(asText ? JSON.stringify(rows) : rows, options);
  if ((await o200kCount(shaped.text)) > maxTokens) return false;
  const records = shaped.meta.records;
  if (records === undefined || records.total !== rows.length) return false;
  if (records.shown + records.omitted !== records.total) return false;
  const data = dataOf(shaped.text);
  const shown = data === undefined ? [] : data;
  if (!Array.isArray(shown) || shown.length !== records.shown) return false;
  // Match each shown record to a distinct input record.
  const pool = new Map<string, number>();
  for (const r of rows) {
    const key = canonical(restrict(r, keys));
    pool.set(key, (pool.get(key) ?? 0) + 1);
  }
  for (const [i, s] of shown.entries()) {
    // A record too large for the budget alone is shown reduced, and meta says so: it must then
    // be a sub-structure of some input record (markers aside).
    if (i === 0 && records.reduced === true) {
      if (!rows.some((r) => reducedFrom(s, restrict(r, keys)))) return false;
      continue;
    }
    const key = canonical(s);
    const left = pool.get(key) ?? 0;
    if (left === 0) return false;
    pool.set(key, left - 1);
  }
  return true;
}

/** Whether `shown` is `original` with keys, items or string middles left out (and marked). */
function reducedFrom(shown: unknown, original: unknown): boolean {
  if (typeof shown === "string" && shown.includes("[airlock:")) return true;
  if (Array.isArray(shown)) {
    if (!Array.isArray(original)) return false;
    return shown.every((v, i) => reducedFrom(v, original[i]));
  }
  if (shown !== null && typeof shown === "object") {
    if (original === null || typeof original !== "object" || Array.isArray(original)) return false;
    const o = original as Record<string, unknown>;
    return Object.entries(shown).every(
      ([k, v]) =>
        k === "[airlock]" ||
        k.startsWith("[airlock:") ||
        (Object.hasOwn(o, k) && reducedFrom(v, o[k])),
    );
  }
  return canonical(shown) === canonical(original);
}

const cases = fc.tuple(
  fc.array(record, { maxLength: 80 }),
  fc.integer({ min: 128, max: 2500 }),
  fc.option(fc.subarray([...KEYS], { minLength: 1 }), { nil: undefined }),
  fc.boolean(),
);

describe("structured properties", () => {
  it("data parses, stays in budget, holds only (projections of) input records, counts add up", async () => {
    await fc.assert(
      fc.asyncProperty(cases, ([rows, budget, keys, asText]) =>
        holds(shape as never, rows as Array<Record<string, unknown>>, budget, keys, asText),
      ),
      { numRuns: 60, seed: 4242 },
    );
  }, 120_000);

  it("negative control: a shaper fitted with a lying token counter breaks the same property", async () => {
    const lying = (input: unknown, options: ShapeOptions) =>
      shape(input as never, {
        ...options,
        tokenizer: { name: "lying", count: (t) => Math.ceil(t.length / 40) },
      });
    const result = await fc.check(
      fc.asyncProperty(cases, ([rows, budget, keys, asText]) =>
        holds(lying, rows as Array<Record<string, unknown>>, budget, keys, asText),
      ),
      { numRuns: 60, seed: 4242 },
    );
    expect(result.failed).toBe(true);
  }, 120_000);

  it("negative control: a shaper that cuts its text by characters breaks the same property", async () => {
    const cutting = async (input: unknown, options: ShapeOptions) => {
      const shaped = await shape(input as never, { ...options, maxTokens: 100_000 });
      return { ...shaped, text: shaped.text.slice(0, (options.maxTokens ?? 4000) * 2) };
    };
    const result = await fc.check(
      fc.asyncProperty(cases, ([rows, budget, keys, asText]) =>
        holds(cutting, rows as Array<Record<string, unknown>>, budget, keys, asText),
      ),
      { numRuns: 60, seed: 4242 },
    );
    expect(result.failed).toBe(true);
  }, 120_000);

  it("read_result pages cover every record exactly once, for random sizes, sorts and budgets", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 128, max: 1200 }),
        fc.constantFrom(undefined, "n desc", "level asc, id desc"),
        async (count, budget, sort) => {
          const store = createMemoryStore();
          const rows = Array.from({ length: count }, (_, i) => ({
            id: i,
            level: ["info", "error", "warn"][(i * 7) % 3] as string,
            n: (i * 7919) % 97,
          }));
          const options = { maxTokens: budget, store, redact: false, ...(sort ? { sort } : {}) };
          const first = await shape(rows, options);
          const seen = ((dataOf(first.text) ?? []) as Array<{ id: number }>).map((r) => r.id);
          // A reader's pages need room for a record and the call that reads on.
          const pageBudget = Math.max(budget, MIN_READ_TOKENS);
          const read = createResultReader({ ...options, maxTokens: pageBudget });
          let cursor = first.meta.records?.cursor;
          for (let pages = 0; cursor !== undefined; pages++) {
            if (pages > count + 1) return false;
            const page = await read({ handle: first.meta.records?.handle, cursor });
            if ((await o200kCount(page.text)) > pageBudget) return false;
            seen.push(...((dataOf(page.text) ?? []) as Array<{ id: number }>).map((r) => r.id));
            cursor = page.meta.records?.cursor;
          }
          return canonical([...seen].sort((a, b) => a - b)) === canonical(rows.map((r) => r.id));
        },
      ),
      { numRuns: 25, seed: 77 },
    );
  }, 120_000);
});
