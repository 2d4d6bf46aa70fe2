/**
 * `where`, compiled once per call and run over the stored records: each field a path (through
 * arrays, as projections read them: `labels.name` tests every label's name), each test an
 * operator. A numeric string compares as a number against a number (and two numeric strings
 * compare as numbers); `contains` is a case-insensitive substring of a string, or an element of
 * an array. Every record visited and every character compared is counted as a step, and each
 * path remembers whether any record had it, so an unknown field is an error, not "no records".
 */
import type { JsonValue } from "../decode/json.js";
import type { Where, WhereTest } from "./store.js";

/** Values a path reaches in one record, at most (an array of arrays of arrays…). */
const MAX_VALUES = 256;
const NUMERIC = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

export interface Filter {
  /** The tested paths, as written. */
  readonly paths: readonly string[];
  /** True when the record passes every test; `seen[i]` is set once path `i` reached a value. */
  test(record: JsonValue, seen: boolean[]): boolean;
  /** Steps spent so far (records visited, values compared, characters searched). */
  readonly steps: number;
}

type Test = (v: JsonValue) => boolean;

/**
 * @example
 * const filter = compileWhere({ state: "open", comments: { gte: "10" } });
 * filter.test({ state: "open", comments: 12 }, []); // true: "10" compares as the number 10
 */
export function compileWhere(where: Where): Filter {
  let steps = 0;
  const fields = Object.entries(where).map(([path, test]) => ({
    path,
    segments: path.split("."),
    tests: testsOf(test, (n) => {
      steps += n;
    }),
  }));
  return {
    paths: fields.map((f) => f.path),
    get steps() {
      return steps;
    },
    test(record, seen) {
      steps++;
      let pass = true;
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i] as (typeof fields)[number];
        const values = valuesAt(record, f.segments);
        steps += values.length;
        if (values.length > 0) seen[i] = true;
        // Every field is looked at (to learn which exist) but tests stop at the first failure.
        if (pass && !f.tests.every((t) => t(values))) pass = false;
      }
      return pass;
    },
  };
}

/** The values at a path: through objects by key, through arrays by index or over every element. */
export function valuesAt(record: JsonValue, segments: readonly string[]): JsonValue[] {
  let at: JsonValue[] = [record];
  for (const segment of segments) {
    const next: JsonValue[] = [];
    for (const v of at) {
      if (v === null || typeof v !== "object") continue;
      if (Array.isArray(v)) {
        if (/^\d+$/.test(segment)) {
          const item = v[Number(segment)];
          if (item !== undefined) next.push(item);
          continue;
        }
        for (const item of v) {
          if (next.length >= MAX_VALUES) break;
          if (
            item !== null &&
            typeof item === "object" &&
            !Array.isArray(item) &&
            Object.hasOwn(item, segment)
          )
            next.push((item as Record<string, JsonValue>)[segment] as JsonValue);
        }
      } else if (Object.hasOwn(v, segment)) {
        next.push((v as Record<string, JsonValue>)[segment] as JsonValue);
      }
      if (next.length >= MAX_VALUES) break;
    }
    at = next;
    if (at.length === 0) break;
  }
  return at;
}

type ValuesTest = (values: readonly JsonValue[]) => boolean;

function testsOf(test: JsonValue | WhereTest, spend: (n: number) => void): ValuesTest[] {
  const some =
    (t: Test): ValuesTest =>
    (values) =>
      values.some(t);
  if (test === null || typeof test !== "object" || Array.isArray(test)) {
    return [some((v) => same(v, test as JsonValue))];
  }
  const t = test as WhereTest;
  const out: ValuesTest[] = [];
  if (t.eq !== undefined) out.push(some((v) => same(v, t.eq as JsonValue)));
  // Not equal: no value the path reaches equals it (a missing field is not equal).
  if (t.ne !== undefined) out.push((values) => !values.some((v) => same(v, t.ne as JsonValue)));
  if (t.in !== undefined) {
    const list = t.in;
    out.push(some((v) => list.some((x) => same(v, x))));
  }
  if (t.contains !== undefined) {
    // Lowered once per call, never per record.
    const needle = String(t.contains).toLowerCase();
    const inString = (s: string) => {
      spend(s.length);
      return s.toLowerCase().includes(needle);
    };
    out.push(
      some((v) =>
        typeof v === "string"
          ? inString(v)
          : Array.isArray(v)
            ? v.some((x) =>
                typeof x === "string" ? inString(x) : same(x, t.contains as JsonValue),
              )
            : typeof v === "number"
              ? same(v, t.contains as JsonValue)
              : false,
      ),
    );
  }
  for (const op of ["gt", "gte", "lt", "lte"] as const) {
    const bound = t[op];
    if (bound === undefined) continue;
    out.push(
      some((v) => {
        const c = compare(v, bound);
        if (c === undefined) return false;
        return op === "gt" ? c > 0 : op === "gte" ? c >= 0 : op === "lt" ? c < 0 : c <= 0;
      }),
    );
  }
  return out;
}

/** A number, or a string that reads as one (up to 64 characters); undefined otherwise. */
function numeric(v: JsonValue | undefined): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v !== "string" || v.length > 64 || !NUMERIC.test(v)) return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Order of a value against a bound: numbers (and numeric strings) as numbers, strings by code unit. */
function compare(v: JsonValue, bound: number | string): number | undefined {
  const a = numeric(v);
  const b = numeric(bound);
  if (
    a !== undefined &&
    b !== undefined &&
    (typeof v === "number" || typeof bound === "number" || typeof v === typeof bound)
  ) {
    return a - b;
  }
  if (typeof v === "string" && typeof bound === "string") return v < bound ? -1 : v > bound ? 1 : 0;
  return undefined;
}

/** Equality: JSON equality, and a number equals a string that reads as it ("10" and 10). */
function same(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "string") return numeric(b) === a;
  if (typeof a === "string" && typeof b === "number") return numeric(a) === b;
  return (
    a !== null &&
    b !== null &&
    typeof a === "object" &&
    typeof b === "object" &&
    JSON.stringify(a) === JSON.stringify(b)
  );
}
