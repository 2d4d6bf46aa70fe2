/**
 * The tool's sort: compiled from `"severity desc, timestamp desc"`, and compared on the values a
 * record holds at each path. Level words compare by the evidence scale (`levelRank`), so
 * `severity desc` puts fatal before error before warn before info.
 */
import { type JsonValue, valueAt } from "../decode/json.js";
import { AirlockError } from "../errors/airlock-error.js";
import { levelRank } from "./evidence.js";

export interface SortKey {
  readonly path: readonly string[];
  readonly descending: boolean;
}

/** A compiled sort: its keys and how it is named in the output ("updated_at desc"). */
export interface Sort {
  readonly keys: readonly SortKey[];
  readonly text: string;
}

/**
 * Compiles `"severity desc, timestamp desc"`: comma-separated dot paths, each optionally
 * followed by `asc` (default) or `desc`.
 *
 * @example
 * compileSort("updated_at desc").text; // "updated_at desc"
 */
export function compileSort(spec: string): Sort {
  if (typeof spec !== "string" || spec.trim() === "" || spec.length > 512) {
    throw new AirlockError(
      "options/invalid",
      "options: sort must be a non-empty string of at most 512 characters",
    );
  }
  const keys: SortKey[] = [];
  for (const part of spec.split(",")) {
    const m = /^\s*([^\s,]+)(?:\s+(asc|desc|ascending|descending))?\s*$/i.exec(part);
    if (m === null) {
      throw new AirlockError(
        "options/invalid",
        `options: sort "${spec.slice(0, 80)}" is not "field [asc|desc], …"`,
      );
    }
    const path = (m[1] as string).split(".");
    if (path.some((p) => p === ""))
      throw new AirlockError(
        "options/invalid",
        `options: sort path "${m[1]}" has an empty segment`,
      );
    keys.push({ path, descending: /^desc/i.test(m[2] ?? "") });
  }
  const text = keys.map((k) => `${k.path.join(".")} ${k.descending ? "desc" : "asc"}`).join(", ");
  return { keys, text };
}

const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Type rank for values of different types: numbers, strings, booleans, containers; missing last. */
function typeRank(v: JsonValue | undefined): number {
  if (typeof v === "number") return 0;
  if (typeof v === "string") return 1;
  if (typeof v === "boolean") return 2;
  if (v !== null && typeof v === "object") return 3;
  return 4; // null or missing
}

function compareValues(a: JsonValue | undefined, b: JsonValue | undefined): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") {
    const la = levelRank(a);
    const lb = levelRank(b);
    if (la !== undefined && lb !== undefined) return la - lb;
    if (ISO_DATE.test(a) && ISO_DATE.test(b)) {
      const ta = Date.parse(a);
      const tb = Date.parse(b);
      if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb;
    }
    // Code-unit order: the same in every runtime (localeCompare is not).
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return 0;
}

/** The values a record is sorted by, read once. */
export function sortValues(sort: Sort | undefined, record: JsonValue): (JsonValue | undefined)[] {
  return sort === undefined ? [] : sort.keys.map((k) => valueAt(record, k.path));
}

/**
 * Compares two records' sort values. Missing and null values sort last in both directions; ties
 * are left to the caller (input order).
 */
export function compareSortValues(
  sort: Sort,
  a: readonly (JsonValue | undefined)[],
  b: readonly (JsonValue | undefined)[],
): number {
  for (let i = 0; i < sort.keys.length; i++) {
    const va = a[i];
    const vb = b[i];
    const missingA = va === undefined || va === null;
    const missingB = vb === undefined || vb === null;
    if (missingA || missingB) {
      if (missingA !== missingB) return missingA ? 1 : -1;
      continue;
    }
    const c = compareValues(va, vb);
    if (c !== 0) return (sort.keys[i] as SortKey).descending ? -c : c;
  }
  return 0;
}
