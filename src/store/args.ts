/**
 * The arguments of `read_result`, checked before anything is read: every argument, operator and
 * value is known or named in the error; sizes are bounded (total bytes, nesting, needle length,
 * list length), and the walk that measures them stops at the first bound it passes, so an
 * oversized argument costs steps in proportion to the bound, never to its own size. `null`
 * means absent everywhere (OpenAI's strict mode sends every property).
 */
import type { JsonValue } from "../decode/json.js";
import { SYMPTOM_ID } from "../pipeline/symptom-id.js";
import type { SectionName } from "../pipeline/unit.js";
import { type Cursor, decodeCursor, type Where, type WhereTest } from "./store.js";
import { ARGUMENTS, EVIDENCE_LEVELS, type EvidenceLevel, OPERATORS } from "./tool.js";

/** The bounds on arguments (exported for the tests and the docs). */
export const ARG_LIMITS = Object.freeze({
  /** Bytes of all arguments, as JSON. */
  bytes: 16_384,
  /** Nesting of objects and arrays, the arguments object included. */
  depth: 8,
  /** Characters of a `contains` needle, a string compared in `where`, or a `grep` pattern. */
  needle: 256,
  /** Values of an `in` list. */
  inValues: 100,
  /** Fields tested by `where`. */
  whereFields: 16,
  /** Paths in `fields`. */
  fields: 64,
  /** Records or lines a page may ask for. */
  pageSize: 1000,
  /** Characters of `where` and `fields` as JSON: the cursors of their pages carry them. */
  view: 4096,
  handle: 128,
  cursor: 8192,
});

const OPERATOR_SET = new Set<string>(OPERATORS);
const SECTIONS = new Set<string>(["text", "stdout", "stderr"]);
const RECORD_ARGS = ["cursor", "range", "fields", "where"] as const;
const TEXT_ARGS = ["lines", "around", "grep", "level", "section", "template"] as const;

export interface ReadRequest {
  readonly handle: string;
  readonly cursor?: Cursor;
  readonly range?: { readonly from: number; readonly to: number };
  readonly fields?: string | readonly string[];
  readonly where?: Where;
  readonly lines?: { readonly from: number; readonly to?: number };
  readonly around?: number;
  readonly grep?: string;
  readonly section?: SectionName;
  readonly evidence: boolean;
  /** With `evidence` over text: the level its search is at (pages go fatal, error, warning). */
  readonly level?: EvidenceLevel;
  readonly pageSize?: number;
  /** Text: the whole summary of the result (`summary: true`; it takes no other argument). */
  readonly summary: boolean;
  /** Text: a symptom's id (`m` and 8 hex digits): the lines of that message. */
  readonly template?: string;
  /** Which family the arguments name: records, text, or neither (a handle alone). */
  readonly family: "records" | "text" | undefined;
}

/**
 * Checks the model's arguments; a string is what is wrong with them (one sentence, naming the
 * argument).
 *
 * @example
 * parseRequest({ handle: "res_…", lines: { from: 10, to: 20 } }); // { handle, lines, family: "text", … }
 * parseRequest({ handle: "res_…", where: { n: { gtee: 3 } } });  // 'unknown operator "gtee" in where.n …'
 */
export function parseRequest(args: unknown): ReadRequest | string {
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return "arguments must be an object";
  const size = measure(args);
  if (size !== undefined) return size;
  const a = args as Record<string, unknown>;
  const given = (key: string) => a[key] !== undefined && a[key] !== null;
  for (const key of Object.keys(a)) {
    if (!(ARGUMENTS as readonly string[]).includes(key))
      return `unknown argument ${name(key)} (read_result takes ${ARGUMENTS.join(", ")})`;
  }
  const records = RECORD_ARGS.filter(given);
  const text = TEXT_ARGS.filter(given);
  if (records.length > 0 && text.length > 0)
    return `${records[0]} is for records and ${text[0]} for text: a result is one or the other`;

  let cursor: Cursor | undefined;
  if (given("cursor")) {
    if (typeof a.cursor !== "string" || a.cursor.length > ARG_LIMITS.cursor)
      return "cursor must be the cur_… string from the result's next line";
    cursor = decodeCursor(a.cursor);
    if (cursor === undefined) return "cursor is not one read_result gave out";
    const view = checkWhere(cursor.where, "the cursor's where");
    if (typeof view === "string") return view;
  }
  const handle = given("handle") ? a.handle : cursor?.handle;
  if (typeof handle !== "string" || handle.length === 0 || handle.length > ARG_LIMITS.handle)
    return "handle must be the res_… string from the result";
  if (cursor && cursor.handle !== handle) return "the cursor belongs to another result";

  const asked = given("range") ? span(a.range, "range", true) : undefined;
  if (typeof asked === "string") return asked;
  const range = asked ? { from: asked.from, to: asked.to as number } : undefined;
  if (cursor && range) return "cursor and range both say where a page starts: pass one of them";

  let fields: string | readonly string[] | undefined = cursor?.fields;
  if (given("fields")) {
    const f = a.fields;
    const list = typeof f === "string" ? [f] : f;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      list.length > ARG_LIMITS.fields ||
      !list.every((p) => typeof p === "string" && p.length > 0 && p.length <= ARG_LIMITS.needle)
    ) {
      return `fields must be a list of 1 to ${ARG_LIMITS.fields} field paths such as "title" or "user.login"`;
    }
    if (cursor && !sameJson(cursor.fields ?? null, f))
      return "the cursor carries its own fields: pass the same fields, or none, with it (or start again from the handle)";
    fields = f as string | readonly string[];
  }

  let where: Where | undefined = cursor?.where;
  if (given("where")) {
    const w = normalizeWhere(a.where);
    if (typeof w === "string") return w;
    const checked = checkWhere(w, "where");
    if (typeof checked === "string") return checked;
    // A cursor's page positions belong to its filter: another filter would make them skip or
    // repeat records. The same filter is fine (a model may send it again).
    if (cursor && !sameJson(cursor.where ?? null, w))
      return "the cursor carries its own filter: pass the same where, or none, with it (or start again from the handle with the new where)";
    where = w;
  }

  if (!cursor && (where !== undefined || fields !== undefined)) {
    const view = JSON.stringify([where ?? null, fields ?? null]).length;
    if (view > ARG_LIMITS.view)
      return `where and fields are over ${ARG_LIMITS.view} characters as JSON (the cursor of every page carries them)`;
  }
  const lines = given("lines") ? span(a.lines, "lines", false) : undefined;
  if (typeof lines === "string") return lines;
  let around: number | undefined;
  if (given("around")) {
    if (!isPositive(a.around)) return "around must be a line number (an integer >= 1)";
    if (lines) return "lines and around both say which lines to read: pass one of them";
    around = a.around as number;
  }
  let grep: string | undefined;
  if (given("grep")) {
    if (typeof a.grep !== "string" || a.grep.length === 0 || a.grep.length > ARG_LIMITS.needle)
      return `grep must be a string of 1 to ${ARG_LIMITS.needle} characters: a literal, or /regex/ (flag i)`;
    if (around !== undefined)
      return "grep searches a range of lines; around shows one line's context: pass one of them";
    grep = a.grep;
  }
  let evidence = false;
  if (given("evidence")) {
    if (typeof a.evidence !== "boolean") return "evidence must be true or false";
    evidence = a.evidence;
    if (evidence && grep !== undefined)
      return "grep and evidence are two searches: pass one of them";
    if (evidence && around !== undefined)
      return "around shows one line's context; evidence lists the evidence lines: pass one of them";
  }
  let level: EvidenceLevel | undefined;
  if (given("level")) {
    if (!(EVIDENCE_LEVELS as readonly unknown[]).includes(a.level))
      return 'level must be "fatal", "error" or "warning"';
    if (!evidence) return "level says where an evidence search is: pass it with evidence: true";
    level = a.level as EvidenceLevel;
  }
  let template: string | undefined;
  if (given("template")) {
    if (typeof a.template !== "string" || !SYMPTOM_ID.test(a.template))
      return `template must be a message's id from the summary: "m" and 8 hex digits, such as "m3f2a9c01"`;
    if (grep !== undefined) return "grep and template are two searches: pass one of them";
    if (evidence) return "evidence and template are two searches: pass one of them";
    if (around !== undefined)
      return "around shows one line's context; template lists the lines of a message: pass one of them";
    template = a.template;
  }
  let summary = false;
  if (given("summary")) {
    if (typeof a.summary !== "boolean") return "summary must be true or false";
    summary = a.summary;
    const other = ARGUMENTS.find((k) => k !== "handle" && k !== "summary" && given(k));
    if (summary && other !== undefined)
      return `summary: true reads the whole summary and takes no argument but the handle (not ${other}); to read a message's lines, pass its id as template`;
  }
  let section: SectionName | undefined;
  if (given("section")) {
    if (typeof a.section !== "string" || !SECTIONS.has(a.section))
      return 'section must be "stdout", "stderr" or "text"';
    section = a.section as SectionName;
  }
  let pageSize: number | undefined;
  if (given("pageSize")) {
    if (!isPositive(a.pageSize) || (a.pageSize as number) > ARG_LIMITS.pageSize)
      return `pageSize must be an integer from 1 to ${ARG_LIMITS.pageSize}`;
    pageSize = a.pageSize as number;
  }
  return {
    handle,
    ...(cursor ? { cursor } : {}),
    ...(range ? { range } : {}),
    ...(fields !== undefined ? { fields } : {}),
    ...(where !== undefined ? { where } : {}),
    ...(lines ? { lines } : {}),
    ...(around !== undefined ? { around } : {}),
    ...(grep !== undefined ? { grep } : {}),
    ...(section ? { section } : {}),
    evidence,
    ...(level !== undefined ? { level } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    summary,
    ...(template !== undefined ? { template } : {}),
    family: records.length > 0 || cursor ? "records" : text.length > 0 ? "text" : undefined,
  };
}

/**
 * Walks the arguments iteratively, adding up their size as JSON and their nesting, and stops at
 * the first bound passed: a million-character needle, a 100,000-value list or a 1,000-deep
 * object is refused after at most `bytes` steps. A getter that throws is an error too.
 */
function measure(args: object): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: args, depth: 1 }];
  let bytes = 0;
  try {
    while (stack.length > 0) {
      const { value, depth } = stack.pop() as { value: unknown; depth: number };
      if (typeof value === "string") bytes += value.length + 2;
      else if (typeof value === "number") bytes += Number.isFinite(value) ? 8 : 4;
      else if (typeof value === "boolean" || value === null) bytes += 5;
      else if (typeof value === "object") {
        if (depth > ARG_LIMITS.depth)
          return `arguments nest deeper than ${ARG_LIMITS.depth} levels`;
        bytes += 2;
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length && bytes <= ARG_LIMITS.bytes; i++) {
            bytes += 1;
            stack.push({ value: value[i], depth: depth + 1 });
          }
        } else {
          for (const key in value) {
            if (!Object.hasOwn(value, key)) continue;
            bytes += key.length + 4;
            if (bytes > ARG_LIMITS.bytes) break;
            stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
          }
        }
      } else if (value !== undefined) {
        return "arguments must be JSON values";
      }
      if (bytes > ARG_LIMITS.bytes) return `arguments are over ${ARG_LIMITS.bytes} bytes`;
    }
  } catch {
    return "arguments could not be read";
  }
  return undefined;
}

function isPositive(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 1;
}

/** `{ from, to }`: `to` may be left out (or null) for lines, to read as far as fits. */
function span(
  value: unknown,
  what: string,
  needTo: boolean,
): { from: number; to?: number } | string {
  const r = value as { from?: unknown; to?: unknown } | null;
  const shape = needTo ? "{ from, to }" : "{ from, to } (to may be left out)";
  if (r === null || typeof r !== "object" || Array.isArray(r))
    return `${what} must be ${shape} with 1 <= from <= to`;
  for (const key of Object.keys(r)) {
    if (key !== "from" && key !== "to")
      return `unknown member ${name(key)} of ${what} (it takes from and to)`;
  }
  const to = r.to === null ? undefined : r.to;
  if (!isPositive(r.from) || (to === undefined ? needTo : !isPositive(to)))
    return `${what} must be ${shape} with 1 <= from <= to`;
  if (to !== undefined && (to as number) < (r.from as number))
    return `${what} must be ${shape} with 1 <= from <= to`;
  return { from: r.from as number, ...(to !== undefined ? { to: to as number } : {}) };
}

/**
 * The filter in its one form, a map of field to test: also accepted as a list of
 * `{ field, op, value }` conditions (the form OpenAI's strict mode can express), merged by field.
 */
function normalizeWhere(value: unknown): Where | string {
  if (!Array.isArray(value)) return value as Where;
  const out: Record<string, Record<string, JsonValue>> = {};
  for (const c of value as unknown[]) {
    const item = c as { field?: unknown; op?: unknown; value?: unknown } | null;
    if (item === null || typeof item !== "object" || Array.isArray(item))
      return "where as a list holds { field, op, value } conditions";
    for (const key of Object.keys(item)) {
      if (key !== "field" && key !== "op" && key !== "value")
        return `unknown member ${name(key)} of a where condition (it takes field, op, value)`;
    }
    if (typeof item.field !== "string")
      return "a where condition needs a field (a path such as user.login)";
    const op = item.op ?? "eq";
    if (typeof op !== "string" || !OPERATOR_SET.has(op))
      return `unknown operator ${name(String(op))} in where.${cut(item.field)} (operators: ${OPERATORS.join(", ")})`;
    const test = out[item.field] ?? {};
    out[item.field] = test;
    if (test[op] !== undefined) return `two ${op} conditions on where.${cut(item.field)}`;
    test[op] = (item.value ?? null) as JsonValue;
  }
  return out as Where;
}

/** A filter's shape: known operators, values of the right type, within the bounds. */
function checkWhere(where: Where | undefined, what: string): undefined | string {
  if (where === undefined) return undefined;
  if (where === null || typeof where !== "object" || Array.isArray(where))
    return `${what} must be an object of field: test, such as {"state": "open"} or {"comments": {"gte": 10}}`;
  const entries = Object.entries(where);
  if (entries.length === 0) return `${what} has no field to test`;
  if (entries.length > ARG_LIMITS.whereFields)
    return `${what} tests more than ${ARG_LIMITS.whereFields} fields`;
  for (const [field, test] of entries) {
    const at = `${what === "where" ? "where" : what}.${cut(field)}`;
    if (field.length === 0 || field.length > ARG_LIMITS.needle || field.split(".").includes(""))
      return `${name(field)} is not a field path (such as user.login)`;
    if (test === null || typeof test !== "object" || Array.isArray(test)) {
      const bad = value(test as JsonValue, at);
      if (bad) return bad;
      continue;
    }
    const ops = Object.entries(test as Record<string, unknown>);
    if (ops.length === 0) return `${at} has no test (operators: ${OPERATORS.join(", ")})`;
    for (const [op, v] of ops) {
      if (!OPERATOR_SET.has(op)) {
        return `unknown operator ${name(op)} in ${at} (operators: ${OPERATORS.join(", ")}; to test a nested field, write its path, such as ${cut(field)}.${cut(op)})`;
      }
      const bad = operand(op as keyof WhereTest, v, `${at}.${op}`);
      if (bad) return bad;
    }
  }
  return undefined;
}

function operand(op: keyof WhereTest, v: unknown, at: string): string | undefined {
  switch (op) {
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      if (typeof v === "number" && Number.isFinite(v)) return undefined;
      if (typeof v === "string") return v.length > ARG_LIMITS.needle ? tooLong(at) : undefined;
      return `${at} takes a number or a string (a date, say)`;
    case "in":
      if (!Array.isArray(v) || v.length === 0)
        return `${at} takes a list of values, such as ["open", "closed"]`;
      if (v.length > ARG_LIMITS.inValues)
        return `${at} lists more than ${ARG_LIMITS.inValues} values`;
      for (const item of v) {
        if (item !== null && typeof item === "object")
          return `${at} takes strings, numbers, booleans or null`;
        const bad = value(item as JsonValue, at);
        if (bad) return bad;
      }
      return undefined;
    case "contains":
      if (typeof v === "number" && Number.isFinite(v)) return undefined;
      if (typeof v !== "string" || v.length === 0) return `${at} takes a non-empty string`;
      return v.length > ARG_LIMITS.needle ? tooLong(at) : undefined;
    default:
      return value(v as JsonValue, at);
  }
}

function value(v: JsonValue, at: string): string | undefined {
  if (typeof v === "string" && v.length > ARG_LIMITS.needle) return tooLong(at);
  if (typeof v === "number" && !Number.isFinite(v)) return `${at} is not a finite number`;
  return undefined;
}

function tooLong(at: string): string {
  return `${at} is longer than ${ARG_LIMITS.needle} characters`;
}

/** A name from the arguments, quoted and cut (it is echoed to the model). */
function name(text: string): string {
  return JSON.stringify(cut(text));
}

function cut(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Same JSON (key order as written; the cursor keeps the model's own). */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
