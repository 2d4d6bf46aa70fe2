/**
 * `read_result` over a stored structured result. Pages come from the view the first page
 * showed (errors first, then the stored sort or input order), kept with the result at put time,
 * so a page costs O(page): the records of its positions are projected, shortened and fitted
 * under the same budget, and joined by cursors, so reading cursor after cursor returns every
 * record exactly once. A filter is one pass over the records, within the step budget, cached
 * per (handle, filter) in the reader, so its later pages cost O(page) too.
 */

import { compileProjection, projectDocument, projectRecord } from "../contract/project.js";
import type { JsonValue } from "../decode/json.js";
import { fitEnvelope } from "../fit/envelope.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import { createRecordEvents } from "../keep/record-events.js";
import { recordClassifier } from "../keep/record-evidence.js";
import { shorten } from "../keep/shorten.js";
import {
  createFacts,
  createRecordFacts,
  type Outcome,
  type RecordFacts,
} from "../pipeline/facts.js";
import { buildShaped } from "../pipeline/meta.js";
import type { ReadArgs, ReadMeta, Shaped } from "../pipeline/shaped.js";
import type { Severity, Unit } from "../pipeline/unit.js";
import { count as n, outline } from "../render/describe.js";
import type { EnvelopeParts } from "../render/envelope.js";
import { dataOf } from "../render/envelope.js";
import { PLAIN_PATH } from "../render/notes.js";
import { shrinkSteps } from "../render/reduce.js";
import type { ReadRequest } from "./args.js";
import {
  errorPage,
  type FilteredView,
  type PageOptions,
  type ReaderState,
  stepBudget,
  withRead,
} from "./page.js";
import { type Cursor, encodeCursor, type StoredRecords, type Where } from "./store.js";
import { compileWhere, valuesAt } from "./where.js";

/**
 * One page of a stored result, shaped like the first page.
 *
 * @example
 * const page = await readRecords(options, state, counter, stored, request);
 */
export async function readRecords(
  o: PageOptions,
  state: ReaderState,
  counter: ResolvedTokenizer,
  stored: StoredRecords,
  req: ReadRequest,
): Promise<Shaped> {
  const budget = stepBudget(o.maxSteps);
  const filtering = req.where !== undefined || req.evidence;
  const op: ReadMeta["op"] = filtering ? "filter" : "page";
  const refuse = (message: string) =>
    errorPage(o, counter, "tool/invalid-input", `read_result: ${message}`, {
      kind: "records",
      op: "refused",
      steps: budget.steps,
    });
  const records = stored.records;
  let projection: ReturnType<typeof compileProjection> | undefined;
  if (req.fields !== undefined) {
    try {
      projection = compileProjection(req.fields);
    } catch (error) {
      return refuse(
        error instanceof Error
          ? error.message.replace(/^options: /, "fields: ")
          : "fields cannot be read",
      );
    }
  }
  // The view: stored at put time; a filtered one is made once and cached.
  let view: ArrayLike<number> | undefined = stored.view;
  let total = records.length;
  let errors = stored.errors;
  let evidence = stored.evidence;
  if (filtering) {
    const filtered = filteredView(state, stored, req.where, req.evidence);
    budget.steps += filtered.steps;
    if (filtered.unknown.length > 0) {
      const known = fieldNames(records[0]);
      return refuse(
        `no record has the field ${filtered.unknown.map((p) => JSON.stringify(p.slice(0, 60))).join(", ")} (fields of the first record: ${known || "none"})`,
      );
    }
    view = filtered.indices;
    total = filtered.indices.length;
    errors = filtered.errors;
    evidence = filtered.evidence;
  }
  const at = (i: number): number => (view ? (view[i] as number) : i);
  const start = req.range ? req.range.from - 1 : (req.cursor?.offset ?? 0);
  // A cursor stops where the first page's tail began: those records were shown already.
  const end = Math.min(total, req.range ? req.range.to : (req.cursor?.end ?? total));
  if (start >= total && total > 0)
    return refuse(`position ${start + 1} is past the last record (${total})`);
  const limit = req.pageSize ?? Number.POSITIVE_INFINITY;
  const sectionAt = arraysOf(stored);
  const classify = recordClassifier();
  const candidates: Unit[] = [];
  let chars = 0;
  for (let i = start; i < end && chars < o.capacity && candidates.length < limit; i++) {
    const index = at(i);
    const record = records[index] as JsonValue;
    const value =
      projection === undefined
        ? record
        : projection.recordPath === undefined
          ? projectRecord(record, projection)
          : projectDocument(record, projection);
    const whole = JSON.stringify(value);
    const display = whole.length > o.maxStringChars ? shorten(value, o.maxStringChars) : value;
    const text = display === value ? whole : JSON.stringify(display);
    candidates.push({
      index: index + 1,
      section: sectionAt(index),
      value: display,
      text,
      repeat: 1,
      omittedChars: 0,
      severity: classify(record),
    });
    chars += text.length;
  }
  budget.steps += candidates.length;
  if (req.fields !== undefined && candidates.length > 0) {
    const missing = missingFields(state, stored, req.fields, candidates.length, start, at, budget);
    if (missing.length > 0)
      return refuse(
        `no record has the field ${missing.map((p) => JSON.stringify(p.slice(0, 60))).join(", ")} (fields of the first record: ${fieldNames(records[0]) || "none"})`,
      );
  }
  const texts = candidates.map((r) => r.text);
  const order = [
    stored.info.errorsFirst ? "error records first" : "",
    stored.info.sort
      ? `sorted by ${stored.info.sort}`
      : (stored.info.paths?.length ?? 0) > 1
        ? "the arrays in turn"
        : "in input order",
  ]
    .filter(Boolean)
    .join(", then ");
  const filter = [
    req.evidence ? "evidence records only" : "",
    req.where ? `filter ${JSON.stringify(req.where).slice(0, 200)}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const cursorOf = (offset: number): Cursor => ({
    handle: stored.handle,
    offset,
    ...(end < total ? { end } : {}),
    ...(req.where !== undefined ? { where: req.where } : {}),
    ...(req.fields !== undefined ? { fields: req.fields } : {}),
  });
  const nextArgs = (offset: number): ReadArgs => {
    const args: Record<string, JsonValue> = {
      handle: stored.handle,
      cursor: encodeCursor(cursorOf(offset)),
    };
    if (req.evidence) args.evidence = true;
    if (req.pageSize !== undefined) args.pageSize = req.pageSize;
    return args;
  };
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
      !more && end < total && req.range === undefined
        ? `; records ${n(end + 1)}–${n(total)} were shown on the first page`
        : "";
    const shownTexts = candidates.slice(0, shown).map((u, k) => ({
      text: k === 0 && first !== undefined ? first : u.text,
      section: u.section,
    }));
    const how = [order, filter].filter(Boolean).join("; ");
    return {
      status: total === 0 ? "empty" : more || shown === 0 ? "partial" : "ok",
      summary: `${range}${level < 2 ? ` (${how})` : ""}${more ? "" : `; this is the last page${tailNote}`}`,
      data: dataOf(
        shownTexts,
        (stored.info.paths ?? []).map((p) => o.meta.clean(p.path, 200)),
      ),
      ...(more
        ? {
            // At the tightest level the summary's range says what is left: the call must fit.
            ...(level < 3 ? { omitted: { count: end - last, reason: "token budget" } } : {}),
            next:
              level < 2
                ? `call read_result with ${JSON.stringify(nextArgs(last))} for the next records`
                : `read_result ${JSON.stringify(nextArgs(last))}`,
          }
        : {}),
    };
  };
  const format = (stored.info.format as RecordFacts["format"]) ?? "json";
  const facts = createFacts();
  facts.kind = "structured";
  facts.format = format;
  facts.records = {
    ...createRecordFacts(format),
    ...(stored.info.envelope !== undefined ? { envelope: stored.info.envelope } : {}),
    count: total,
    errors: errors ?? 0,
    evidence: evidence ?? 0,
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
    cursor: (_, offset) => encodeCursor(cursorOf(offset)),
  });
  const read: ReadMeta = {
    kind: "records",
    op,
    steps: budget.steps,
    ...(shown > 0 ? { from: start + 1, to: start + shown } : {}),
  };
  return withRead(page, stored.handle, read, next < end ? nextArgs(next) : undefined);
}

/** The view filtered by `where` (and to evidence), in view order: one pass, then cached. */
function filteredView(
  state: ReaderState,
  stored: StoredRecords,
  where: Where | undefined,
  evidenceOnly: boolean,
): FilteredView {
  const key = `${stored.handle}\u0000${evidenceOnly ? 1 : 0}\u0000${JSON.stringify(where ?? null)}`;
  const held = state.filters.get(key);
  if (held) return held;
  if (evidenceOnly && !where && stored.info.errorsFirst && stored.evidence !== undefined) {
    // Evidence comes first in the stored view: it is the view's first records, no pass needed.
    const indices = Int32Array.from(stored.view ? stored.view.slice(0, stored.evidence) : []);
    if (indices.length === stored.evidence) {
      const view = {
        indices,
        errors: stored.errors ?? 0,
        evidence: stored.evidence,
        unknown: [],
        steps: 0,
      };
      state.filters.set(key, view);
      return view;
    }
  }
  const filter = where ? compileWhere(where) : undefined;
  const seen: boolean[] = [];
  const records = stored.records;
  const view = stored.view;
  const out: number[] = [];
  let errors = 0;
  let evidence = 0;
  let steps = records.length;
  const severities = severitiesOf(state, stored);
  for (let i = 0; i < records.length; i++) {
    const index = view ? (view[i] as number) : i;
    const record = records[index] as JsonValue;
    if (filter && !filter.test(record, seen)) continue;
    steps++;
    const severity = severities[index] as Severity;
    if (evidenceOnly && severity < 1) continue;
    if (severity >= 1) evidence++;
    if (severity >= 2) errors++;
    out.push(index);
  }
  const unknown = filter ? filter.paths.filter((_, i) => seen[i] !== true) : [];
  const result: FilteredView = {
    indices: Int32Array.from(out),
    errors,
    evidence,
    unknown: records.length > 0 ? unknown : [],
    steps: steps + (filter?.steps ?? 0),
  };
  state.filters.set(key, result);
  return result;
}

/**
 * Each record's severity as keep judged it, so a record that stood out (a rare event) is
 * evidence here as it was on the first page. When evidence came first, the stored view's first
 * `evidence` records are exactly those (the writer counted the stand-outs in); otherwise every
 * record is mined in order again. Once per handle.
 */
function severitiesOf(state: ReaderState, stored: StoredRecords): Uint8Array {
  const held = state.severities.get(stored.handle);
  if (held) return held;
  const classify = recordClassifier();
  const records = stored.records;
  const severities = new Uint8Array(records.length);
  records.forEach((record, i) => {
    severities[i] = classify(record);
  });
  const view = stored.view;
  if (stored.info.errorsFirst && view && stored.evidence !== undefined) {
    for (let k = 0; k < stored.evidence; k++) {
      const i = view[k] as number;
      if (severities[i] === 0) severities[i] = 1;
    }
  } else {
    const events = createRecordEvents<number>();
    records.forEach((record, i) => {
      events.see(record, severities[i] as Severity, i + 1, () => i + 1);
    });
    for (const at of events.finish(records.length)) severities[at - 1] = 1;
  }
  state.severities.set(stored.handle, severities);
  return severities;
}

/**
 * Plain field paths of `fields` that no record has: first looked for in the page's records,
 * then (only for a path the page lacks) in every record, once per handle and path.
 */
function missingFields(
  state: ReaderState,
  stored: StoredRecords,
  fields: string | readonly string[],
  count: number,
  start: number,
  at: (i: number) => number,
  budget: { steps: number },
): string[] {
  const paths = (typeof fields === "string" ? fields.split(",") : fields)
    .map((p) => p.trim())
    .filter((p) => PLAIN_PATH.test(p));
  if (paths.length === 0) return [];
  let known = state.paths.get(stored.handle);
  if (!known) {
    known = new Map();
    state.paths.set(stored.handle, known);
  }
  const missing: string[] = [];
  const has = (record: JsonValue, segments: string[]) => valuesAt(record, segments).length > 0;
  for (const path of paths) {
    const segments = path.replace(/\[\*\]/g, "").split(".");
    let found = known.get(path);
    if (found === undefined) {
      found = false;
      for (let i = 0; i < count && !found; i++)
        found = has(stored.records[at(start + i)] as JsonValue, segments);
      for (let i = 0; i < stored.records.length && !found; i++) {
        budget.steps++;
        found = has(stored.records[i] as JsonValue, segments);
      }
      known.set(path, found);
    }
    if (!found) missing.push(path);
  }
  return missing;
}

/** The first record's top-level keys, for an error that names the fields there are. */
function fieldNames(record: JsonValue | undefined): string {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return "";
  const keys = Object.keys(record);
  return keys
    .slice(0, 12)
    .map((k) => (PLAIN_PATH.test(k) ? k : JSON.stringify(k.slice(0, 40))))
    .join(", ")
    .concat(keys.length > 12 ? `, … (${keys.length} in all)` : "");
}

export { errorPage };

/** The record array a stored record (0-based) belongs to, when there are several. */
function arraysOf(stored: StoredRecords): (index: number) => number {
  const paths = stored.info.paths;
  if (paths === undefined || paths.length < 2) return () => 0;
  const ends: number[] = [];
  let sum = 0;
  for (const p of paths) {
    sum += p.count;
    ends.push(sum);
  }
  return (index) => {
    const s = ends.findIndex((end) => index < end);
    return s < 0 ? paths.length - 1 : s;
  };
}
