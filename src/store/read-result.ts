/**
 * `read_result`: the companion tool a host registers with its model, so the model can page
 * through a stored structured result instead of calling the original tool again. Pages come
 * from the same view as the first page (errors first, then the stored sort or input order), are
 * shaped under the same budget, and are joined by cursors: reading cursor after cursor returns
 * every record exactly once.
 */

import { compileProjection, projectDocument, projectRecord } from "../contract/project.js";
import { type JsonValue, valueAt } from "../decode/json.js";
import type { ShapedErrorCode } from "../errors/codes.js";
import { fitEnvelope } from "../fit/envelope.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import { createRecordEvents } from "../keep/record-events.js";
import { recordClassifier } from "../keep/record-evidence.js";
import { shorten } from "../keep/shorten.js";
import { compileSort, sortValues } from "../keep/sort.js";
import { viewComparator } from "../keep/view.js";
import {
  createFacts,
  createRecordFacts,
  type Outcome,
  type RecordFacts,
} from "../pipeline/facts.js";
import { buildShaped, type MetaOptions } from "../pipeline/meta.js";
import type { Presenter } from "../pipeline/present.js";
import type { Shaped } from "../pipeline/shaped.js";
import type { Severity, Unit } from "../pipeline/unit.js";
import { count as n, outline } from "../render/describe.js";
import {
  type EnvelopeMode,
  type EnvelopeParts,
  type EnvelopeRequest,
  recordsJson,
} from "../render/envelope.js";
import { shrinkSteps } from "../render/reduce.js";
import {
  type Cursor,
  decodeCursor,
  encodeCursor,
  type ResultStore,
  type StoredResult,
  type Where,
  type WhereTest,
} from "./store.js";

/** What a page is shaped with: the reader's own slice of the options. */
export interface PageOptions {
  readonly maxTokens: number;
  readonly maxStringChars: number;
  /** Characters of records considered for one page. */
  readonly capacity: number;
  readonly mode: EnvelopeMode;
  readonly presenter: Presenter;
  readonly meta: MetaOptions;
}

/**
 * One page of a stored result, shaped like the first page (the body of the handler that
 * `createResultReader` returns; loaded on its first call).
 *
 * @example
 * const page = await readPage(options, store, tokenizer, { cursor });
 */
export async function readPage(
  o: PageOptions,
  store: ResultStore,
  counter: ResolvedTokenizer,
  args: unknown,
): Promise<Shaped> {
  const facts = createFacts();
  facts.kind = "structured";
  facts.format = "json";
  const shapedOf = async (
    request: EnvelopeRequest,
    records: Outcome["records"] | undefined,
  ): Promise<Shaped> => {
    const fitted = await fitEnvelope(request, counter, o.presenter);
    const outcome: Outcome = {
      text: fitted.text,
      boundary: fitted.boundary,
      tokens: fitted.tokens,
      tokenizer: counter.name,
      cuts: [],
      sections: [],
      ...(records
        ? { records: { ...records, shown: fitted.shown, reduced: fitted.reduced === true } }
        : {}),
      status: fitted.parts.status,
    };
    return buildShaped(facts, outcome, o.meta);
  };
  const fail = (code: ShapedErrorCode, message: string, retryable = false): Promise<Shaped> => {
    facts.error = { code, message, retryable };
    return shapedOf(
      {
        texts: [],
        build: () => ({ status: "error", summary: message, data: undefined }),
        mode: o.mode,
        maxTokens: o.maxTokens,
        levels: 1,
      },
      undefined,
    );
  };
  const parsed = parseArgs(args);
  if (typeof parsed === "string") return fail("tool/invalid-input", `read_result: ${parsed}`);
  let stored: StoredResult | undefined;
  try {
    stored = await store.get(parsed.handle);
  } catch {
    return fail("tool/unavailable", "read_result: the result store failed; try again", true);
  }
  if (stored === undefined) {
    return fail(
      "tool/not-found",
      `read_result: no stored result ${JSON.stringify(parsed.handle.slice(0, 40))} (it expired or never existed); call the original tool again`,
    );
  }
  let view: Unit[];
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
  // A cursor stops where the first page's tail began: those records were shown already.
  const stop = parsed.range ? parsed.range.to : (parsed.end ?? total);
  const end = Math.min(total, stop);
  if (start >= total && total > 0) {
    return fail(
      "tool/invalid-input",
      `read_result: position ${start + 1} is past the last record (${total})`,
    );
  }
  const candidates: Unit[] = [];
  let chars = 0;
  for (let i = start; i < end && chars < o.capacity; i++) {
    const record = view[i] as Unit;
    const value = record.value ?? null;
    const display =
      record.text.length > o.maxStringChars ? shorten(value, o.maxStringChars) : value;
    const text = display === value ? record.text : JSON.stringify(display);
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
  const cursorAt = (offset: number) =>
    encodeCursor({ ...cursorOf(stored.handle, offset, parsed), ...(end < total ? { end } : {}) });
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
    const tailNote =
      !more && end < total && parsed.range === undefined
        ? `; records ${n(end + 1)}–${n(total)} were shown on the first page`
        : "";
    const shownTexts =
      first !== undefined ? [first, ...texts.slice(1, shown)] : texts.slice(0, shown);
    return {
      status: total === 0 ? "empty" : more || shown === 0 ? "partial" : "ok",
      summary: `${range}${level < 2 ? ` (${order}${filter})` : ""}${more ? "" : `; this is the last page${tailNote}`}`,
      data: recordsJson(shownTexts),
      ...(more
        ? {
            omitted: { count: end - last, reason: "token budget" },
            next: `call read_result with {"cursor":"${cursorAt(last)}"} for the next records`,
          }
        : {}),
    };
  };
  facts.format = (stored.info.format as RecordFacts["format"]) ?? "json";
  facts.records = {
    ...createRecordFacts((stored.info.format as RecordFacts["format"]) ?? "json"),
    ...(stored.info.envelope !== undefined ? { envelope: stored.info.envelope } : {}),
    count: total,
    errors: view.filter((r) => r.severity >= 2).length,
    evidence: view.filter((r) => r.severity >= 1).length,
    handle: stored.handle,
  };
  const fitted = await fitEnvelope(
    {
      texts,
      build,
      mode: o.mode,
      maxTokens: o.maxTokens,
      levels: 4,
      ...(candidates[0]
        ? { shrink: shrinkSteps(candidates[0].value ?? null, (v) => outline(v, { maxChars: 400 })) }
        : {}),
    },
    counter,
    o.presenter,
  );
  const shown = fitted.shown;
  const next = start + Math.max(shown, candidates.length > 0 ? 1 : 0);
  const outcome: Outcome = {
    text: fitted.text,
    boundary: fitted.boundary,
    tokens: fitted.tokens,
    tokenizer: counter.name,
    cuts: [],
    sections: [],
    records: {
      shown,
      errorsShown: candidates.slice(0, shown).filter((r) => r.severity >= 2).length,
      evidenceShown: candidates.slice(0, shown).filter((r) => r.severity >= 1).length,
      reduced: fitted.reduced === true,
      ...(next < end ? { next: { offset: next, end } } : {}),
    },
    status: fitted.parts.status,
  };
  const page = await buildShaped(facts, outcome, {
    ...o.meta,
    cursor: (_, offset) => cursorAt(offset),
  });
  return page;
}

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
  readonly end?: number;
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
    ...(cursor?.end !== undefined ? { end: cursor.end } : {}),
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

/** The stored records filtered, projected, and in view order (the first page's order). */
function viewOf(
  stored: StoredResult,
  where: Where | undefined,
  fields: string | readonly string[] | undefined,
): Unit[] {
  const sort = stored.info.sort ? compileSort(stored.info.sort) : undefined;
  const projection = fields !== undefined ? compileProjection(fields) : undefined;
  const classify = recordClassifier();
  // The keeper's view order: mined over every record in order, as the keeper saw them.
  const events = createRecordEvents<number>();
  const severities = stored.records.map((record) => classify(record));
  const occurrences = stored.records.map((record, index) =>
    events.see(record, severities[index] as Severity, index + 1, () => index + 1),
  );
  for (const at of events.finish(stored.records.length)) severities[at - 1] = 1;
  const units: Unit[] = [];
  stored.records.forEach((record, index) => {
    if (where && !matches(record, where)) return;
    const value =
      projection === undefined
        ? record
        : projection.recordPath === undefined
          ? projectRecord(record, projection)
          : projectDocument(record, projection);
    units.push({
      index: index + 1,
      value,
      text: JSON.stringify(value),
      repeat: 1,
      omittedChars: 0,
      severity: severities[index] as Severity,
      occurrence: occurrences[index] as number,
      key: sortValues(sort, record),
    });
  });
  return units.sort(viewComparator(sort, stored.info.errorsFirst));
}
