/**
 * The order records are shown in: error records first (as error lines are in text), then the
 * rest by the tool's sort key or in input order. The same order is used for the first page and
 * for every page `read_result` returns, so pages never overlap or skip.
 */
import type { JsonValue } from "../decode/json.js";
import { AirlockError } from "../errors/codes.js";

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

/** The value at a dot path, through own properties only. */
export function valueAt(record: JsonValue, path: readonly string[]): JsonValue | undefined {
  let v: JsonValue | undefined = record;
  for (const p of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v) || !Object.hasOwn(v, p))
      return undefined;
    v = v[p];
  }
  return v;
}

/** Level words ranked by severity, so `severity desc` puts fatal before error before warn. */
const LEVELS: Readonly<Record<string, number>> = {
  trace: 1,
  debug: 2,
  verbose: 2,
  info: 3,
  information: 3,
  notice: 4,
  ok: 3,
  success: 3,
  passed: 3,
  warn: 5,
  warning: 5,
  error: 6,
  err: 6,
  failed: 6,
  failure: 6,
  fail: 6,
  severe: 6,
  critical: 7,
  crit: 7,
  alert: 8,
  fatal: 8,
  emergency: 9,
  emerg: 9,
  panic: 9,
};

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
    const la = LEVELS[a.toLowerCase()];
    const lb = LEVELS[b.toLowerCase()];
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

const LEVEL_FIELDS = new Set([
  "level",
  "severity",
  "status",
  "state",
  "conclusion",
  "outcome",
  "result",
  "log_level",
  "loglevel",
  "levelname",
  "lvl",
  "severity_text",
  "severitytext",
  "priority",
  "type",
]);
const ERROR_WORDS =
  /^(?:error|err|errored|fatal|critical|crit|alert|emerg|emergency|panic|failed|failure|fail|failing|exception|severe|timed[_ ]?out|crashed|broken)$/i;
const ERROR_FIELDS = new Set([
  "error",
  "err",
  "exception",
  "errors",
  "error_message",
  "errormessage",
  "stack",
  "stacktrace",
]);
const HTTP_STATUS_FIELDS = new Set([
  "status",
  "statuscode",
  "status_code",
  "http_status",
  "httpstatus",
  "code",
]);

const TEXT_FATAL = /\b(?:FATAL|PANIC|panic:|Segmentation fault|Out of memory)\b/;
const TEXT_ERROR = /\b(?:ERROR|Error|Exception|Traceback|FAILED|failed)\b/;

/** Level words above plain errors: they outrank them among the error records shown first. */
const FATAL_WORDS = /^(?:fatal|emerg|emergency|panic|crashed)$/i;
const CRITICAL_WORDS = /^(?:critical|crit|alert)$/i;

/**
 * How badly a record reports a failure: 0 not at all; 1 an error (a level/status/severity field
 * saying error or failure, an HTTP status of 500 or more, a non-empty `error`/`exception`
 * field); 2 critical; 3 fatal. Only the record's own top level and one level below
 * (`log.level`, `event.status`) are read.
 *
 * @example
 * severityOf({ level: "FATAL", msg: "out of memory" }); // 3
 */
export function severityOf(record: JsonValue): number {
  // A line of text among records (sniffed NDJSON) is read like a log line.
  if (typeof record === "string")
    return TEXT_FATAL.test(record) ? 3 : TEXT_ERROR.test(record) ? 1 : 0;
  if (record === null || typeof record !== "object" || Array.isArray(record)) return 0;
  let worst = severityIn(record);
  if (worst === 3) return worst;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (v !== null && typeof v === "object" && !Array.isArray(v))
      worst = Math.max(worst, severityIn(v));
  }
  return worst;
}

/**
 * Whether a record reports an error or a failure (`severityOf(record) > 0`).
 *
 * @example
 * isErrorRecord({ level: "ERROR", msg: "disk full" }); // true
 */
export function isErrorRecord(record: JsonValue): boolean {
  return severityOf(record) > 0;
}

function severityIn(object: { [key: string]: JsonValue }): number {
  let worst = 0;
  for (const key of Object.keys(object)) {
    const name = key.toLowerCase();
    const v = object[key];
    if (LEVEL_FIELDS.has(name) && typeof v === "string") {
      const word = v.trim();
      if (FATAL_WORDS.test(word)) return 3;
      if (CRITICAL_WORDS.test(word)) worst = Math.max(worst, 2);
      else if (ERROR_WORDS.test(word)) worst = Math.max(worst, 1);
    } else if (LEVEL_FIELDS.has(name) && typeof v === "number" && name.startsWith("severity")) {
      // OpenTelemetry severity numbers: 17–20 are ERROR, 21–24 FATAL.
      if (v >= 21 && v <= 24) return 3;
      if (v >= 17 && v <= 20) worst = Math.max(worst, 1);
    } else if (HTTP_STATUS_FIELDS.has(name) && typeof v === "number" && v >= 500 && v <= 599) {
      worst = Math.max(worst, 1);
    } else if (
      ERROR_FIELDS.has(name) &&
      v !== null &&
      v !== false &&
      v !== "" &&
      !(Array.isArray(v) && v.length === 0) &&
      !(typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0)
    ) {
      worst = Math.max(worst, 1);
    }
  }
  return worst;
}
