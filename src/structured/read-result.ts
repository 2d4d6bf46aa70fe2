/**
 * `read_result`: the companion tool a host registers with its model, so the model can page
 * through a stored structured result instead of calling the original tool again. Pages come
 * from the same view as the first page (errors first, then the stored sort or input order), are
 * shaped under the same budget, and are joined by cursors: reading cursor after cursor returns
 * every record exactly once.
 */
import type { JsonValue } from "../decode/json.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import type { CompiledOptions } from "../options.js";
import type { Shaped, ShapedMeta, StructuredMeta } from "../types.js";
import { outline } from "./describe.js";
import { type EnvelopeParts, fitEnvelope, type Presentation, recordsJson } from "./envelope.js";
import { type KeptRecord, viewComparator } from "./keep.js";
import { compileSort, severityOf, sortValues, valueAt } from "./order.js";
import { compileProjection, projectDocument, projectRecord } from "./project.js";
import { shorten, shrinkSteps } from "./reduce.js";
import {
  type Cursor,
  decodeCursor,
  encodeCursor,
  type ResultStore,
  type StoredResult,
  type Where,
  type WhereTest,
} from "./store.js";

/**
 * One page of a stored result, shaped with the compiled options (the body of the handler that
 * `createResultReader` returns; loaded on its first call).
 *
 * @example
 * const page = await readPage(compiled, store, tokenizer, { cursor });
 */
export async function readPage(
  compiled: CompiledOptions,
  store: ResultStore,
  counter: ResolvedTokenizer,
  args: unknown,
): Promise<Shaped> {
  const how: Presentation = {
    mode: compiled.envelope,
    untrusted: compiled.untrusted,
    tool: "read_result",
    spotlight: compiled.spotlight,
    datamark: compiled.datamark,
  };
  const fail = async (
    code: "tool/invalid-input" | "tool/not-found",
    message: string,
  ): Promise<Shaped> => {
    const fitted = await fitEnvelope(
      [],
      () => ({ status: "error", summary: message, data: undefined }),
      how,
      counter,
      compiled.maxTokens,
      1,
    );
    return {
      text: fitted.text,
      status: "error",
      meta: metaOf(compiled, counter.name, fitted, undefined, { code, message }),
    };
  };
  const parsed = parseArgs(args);
  if (typeof parsed === "string") return fail("tool/invalid-input", `read_result: ${parsed}`);
  let stored: StoredResult | undefined;
  try {
    stored = await store.get(parsed.handle);
  } catch {
    const fitted = await fitEnvelope(
      [],
      () => ({
        status: "error",
        summary: "read_result: the result store failed; try again",
        data: undefined,
      }),
      how,
      counter,
      compiled.maxTokens,
      1,
    );
    const message = "read_result: the result store failed";
    return {
      text: fitted.text,
      status: "error",
      meta: {
        ...metaOf(compiled, counter.name, fitted, undefined, undefined),
        error: { code: "tool/unavailable", message, retryable: true, kind: "tool" },
      },
    };
  }
  if (stored === undefined) {
    return fail(
      "tool/not-found",
      `read_result: no stored result ${JSON.stringify(parsed.handle.slice(0, 40))} (it expired or never existed); call the original tool again`,
    );
  }
  let view: KeptRecord[];
  try {
    view = viewOf(stored, parsed.where, parsed.fields);
  } catch (error) {
    return fail(
      "tool/invalid-input",
      `read_result: ${error instanceof Error ? error.message : "invalid fields"}`,
    );
  }
  const total = view.length;
  const start = parsed.range ? parsed.range.from - 1 : parsed.offset;
  const end = parsed.range ? Math.min(total, parsed.range.to) : total;
  const candidates: KeptRecord[] = [];
  let chars = 0;
  for (let i = start; i < end && chars < compiled.capacity; i++) {
    const record = view[i] as KeptRecord;
    const display =
      record.text.length > compiled.maxStringChars
        ? shorten(record.value, compiled.maxStringChars)
        : record.value;
    const text = display === record.value ? record.text : JSON.stringify(display);
    candidates.push({ ...record, value: display, text });
    chars += text.length;
  }
  const texts = candidates.map((r) => r.text);
  const order = [
    stored.info.errorsFirst ? "error records first" : "",
    stored.info.sort ? `sorted by ${stored.info.sort}` : "in input order",
  ]
    .filter(Boolean)
    .join(", then ");
  const filter = parsed.where ? `; filter ${JSON.stringify(parsed.where).slice(0, 200)}` : "";
  const build = (shown: number, level: number, first?: string): EnvelopeParts => {
    // A record too large to show even as an outline is skipped (and said so): the next
    // cursor always moves on.
    const last = start + Math.max(shown, candidates.length > 0 ? 1 : 0);
    const more = last < end;
    const range =
      shown > 0
        ? `records ${n(start + 1)}–${n(start + shown)} of ${n(total)}${first !== undefined ? " (the first reduced to fit)" : ""}`
        : candidates.length > 0
          ? `record ${n(start + 1)} of ${n(total)} does not fit in maxTokens even as an outline; skipped`
          : `no records at ${n(start + 1)} of ${n(total)}`;
    const shownTexts =
      first !== undefined ? [first, ...texts.slice(1, shown)] : texts.slice(0, shown);
    return {
      status: total === 0 ? "empty" : more || shown === 0 ? "partial" : "ok",
      summary: `${range}${level < 2 ? ` (${order}${filter})` : ""}${more ? "" : "; this is the last page"}`,
      data: recordsJson(shownTexts),
      ...(more
        ? {
            omitted: { count: end - last, reason: "token budget" },
            next: `call read_result with {"cursor":"${encodeCursor(cursorOf(stored.handle, last, parsed))}"} for the next records`,
          }
        : {}),
    };
  };
  if (start >= total && total > 0) {
    return fail(
      "tool/invalid-input",
      `read_result: position ${start + 1} is past the last record (${total})`,
    );
  }
  const fitted = await fitEnvelope(
    texts,
    build,
    how,
    counter,
    compiled.maxTokens,
    4,
    candidates[0]
      ? shrinkSteps(candidates[0].value, (v) => outline(v, { maxChars: 400 }))
      : undefined,
  );
  const shown = fitted.shown;
  const next = start + Math.max(shown, candidates.length > 0 ? 1 : 0);
  const more = next < end;
  const records: StructuredMeta = {
    format: (stored.info.format as StructuredMeta["format"]) ?? "json",
    shape: "records",
    ...(stored.info.envelope !== undefined ? { envelope: stored.info.envelope } : {}),
    total,
    shown,
    omitted: total - shown,
    errors: view.filter((r) => r.error).length,
    errorsShown: candidates.slice(0, shown).filter((r) => r.error).length,
    refused: {},
    ...(stored.info.sort ? { sort: stored.info.sort } : {}),
    shortened: { strings: 0, chars: 0 },
    ...(fitted.reduced ? { reduced: true } : {}),
    blobs: { count: 0, bytes: 0 },
    handle: stored.handle,
    ...(more ? { cursor: encodeCursor(cursorOf(stored.handle, next, parsed)) } : {}),
  };
  const status = fitted.parts.status;
  return {
    text: fitted.text,
    status,
    meta: metaOf(compiled, counter.name, fitted, records, undefined),
  };
}

const n = (x: number) => x.toLocaleString("en-US");

function cursorOf(handle: string, offset: number, args: Parsed): Cursor {
  return {
    handle,
    offset,
    ...(args.where !== undefined ? { where: args.where } : {}),
    ...(args.fields !== undefined ? { fields: args.fields } : {}),
  };
}

interface Parsed {
  readonly handle: string;
  readonly offset: number;
  readonly range?: { readonly from: number; readonly to: number };
  readonly fields?: string | readonly string[];
  readonly where?: Where;
}

/** Checks the model's arguments; a string is what is wrong with them. */
function parseArgs(args: unknown): Parsed | string {
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return "arguments must be an object";
  const a = args as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (!["handle", "cursor", "range", "fields", "where"].includes(key))
      return `unknown argument "${key.slice(0, 40)}"`;
  }
  let cursor: Cursor | undefined;
  if (a.cursor !== undefined) {
    cursor = typeof a.cursor === "string" ? decodeCursor(a.cursor) : undefined;
    if (cursor === undefined) return "cursor is not one read_result gave out";
  }
  const handle = a.handle ?? cursor?.handle;
  if (typeof handle !== "string" || handle.length === 0 || handle.length > 128)
    return "handle must be the res_… string from the result";
  if (cursor && cursor.handle !== handle) return "the cursor belongs to another result";
  let range: Parsed["range"];
  if (a.range !== undefined) {
    const r = a.range as { from?: unknown; to?: unknown } | null;
    if (
      r === null ||
      typeof r !== "object" ||
      !Number.isSafeInteger(r.from) ||
      !Number.isSafeInteger(r.to) ||
      (r.from as number) < 1 ||
      (r.to as number) < (r.from as number)
    ) {
      return "range must be { from, to } with 1 <= from <= to";
    }
    range = { from: r.from as number, to: r.to as number };
  }
  // A cursor carries its view: later pages keep the filter and fields of the first.
  const fields = cursor ? cursor.fields : a.fields;
  if (
    fields !== undefined &&
    typeof fields !== "string" &&
    !(Array.isArray(fields) && fields.every((f) => typeof f === "string"))
  ) {
    return "fields must be a string or a list of strings";
  }
  const where = cursor ? cursor.where : a.where;
  if (
    where !== undefined &&
    (where === null ||
      typeof where !== "object" ||
      Array.isArray(where) ||
      Object.keys(where).length > 16)
  ) {
    return "where must be an object of at most 16 fields";
  }
  return {
    handle,
    offset: cursor?.offset ?? 0,
    ...(range ? { range } : {}),
    ...(fields !== undefined ? { fields: fields as string | readonly string[] } : {}),
    ...(where !== undefined ? { where: where as Where } : {}),
  };
}

function matches(record: JsonValue, where: Where): boolean {
  for (const [path, test] of Object.entries(where)) {
    const v = valueAt(record, path.split("."));
    if (test !== null && typeof test === "object" && !Array.isArray(test)) {
      const t = test as WhereTest;
      if (t.eq !== undefined && !same(v, t.eq)) return false;
      if (t.ne !== undefined && same(v, t.ne)) return false;
      if (t.in !== undefined && !(Array.isArray(t.in) && t.in.some((x) => same(v, x))))
        return false;
      if (
        t.contains !== undefined &&
        !(typeof v === "string" && v.toLowerCase().includes(String(t.contains).toLowerCase()))
      )
        return false;
      for (const op of ["gt", "gte", "lt", "lte"] as const) {
        const bound = t[op];
        if (bound === undefined) continue;
        if (typeof v !== typeof bound || (typeof v !== "number" && typeof v !== "string"))
          return false;
        const c = (v as number | string) < bound ? -1 : (v as number | string) > bound ? 1 : 0;
        if (
          (op === "gt" && c <= 0) ||
          (op === "gte" && c < 0) ||
          (op === "lt" && c >= 0) ||
          (op === "lte" && c > 0)
        )
          return false;
      }
    } else if (!same(v, test as JsonValue)) return false;
  }
  return true;
}

function same(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return (
    a === b ||
    (a !== null &&
      b !== null &&
      typeof a === "object" &&
      typeof b === "object" &&
      JSON.stringify(a) === JSON.stringify(b))
  );
}

/** The stored records filtered, projected, and in view order. */
function viewOf(
  stored: StoredResult,
  where: Where | undefined,
  fields: string | readonly string[] | undefined,
): KeptRecord[] {
  const sort = stored.info.sort ? compileSort(stored.info.sort) : undefined;
  const projection = fields !== undefined ? compileProjection(fields) : undefined;
  const errors: KeptRecord[] = [];
  const others: KeptRecord[] = [];
  stored.records.forEach((record, index) => {
    if (where && !matches(record, where)) return;
    const value =
      projection === undefined
        ? record
        : projection.recordPath === undefined
          ? projectRecord(record, projection)
          : projectDocument(record, projection);
    const severity = severityOf(record);
    const kept: KeptRecord = {
      index,
      value,
      text: JSON.stringify(value),
      error: severity > 0,
      severity: stored.info.errorsFirst ? severity : 0,
      key: sortValues(sort, record),
    };
    (kept.error && stored.info.errorsFirst ? errors : others).push(kept);
  });
  const compare = viewComparator(sort);
  return [...errors.sort(compare), ...others.sort(compare)];
}

function metaOf(
  o: CompiledOptions,
  tokenizer: string,
  fitted: { readonly tokens: number; readonly boundary: string | undefined },
  records: StructuredMeta | undefined,
  error:
    | { readonly code: "tool/invalid-input" | "tool/not-found"; readonly message: string }
    | undefined,
): ShapedMeta {
  return {
    kind: "structured",
    bytes: 0,
    lines: 0,
    tokens: fitted.tokens,
    maxTokens: o.maxTokens,
    tokenizer,
    truncated: records !== undefined && records.omitted > 0,
    cuts: [],
    omittedLines: 0,
    sections: [],
    ...(fitted.boundary ? { boundary: fitted.boundary } : {}),
    tool: "read_result",
    spotlight:
      o.spotlight === "datamark" ? { mode: "datamark", marker: o.datamark } : { mode: o.spotlight },
    ...(records ? { records, format: records.format } : {}),
    ...(error ? { error: { ...error, retryable: false, kind: "tool" as const } } : {}),
  };
}
