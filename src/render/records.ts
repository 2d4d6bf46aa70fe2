/**
 * Rendering a structured result: the envelope's summary (counts, the view's order, what cleaning
 * did, aggregates, the envelope's other members, a generated summary), the metadata-only result
 * of refused input or a broken contract, and a single document reduced step by step. What it
 * returns is a request for the fit: candidate records in priority order and how to write the
 * envelope for any prefix of them.
 */
import type { RecordFacts } from "../pipeline/facts.js";
import { cursorArgs, readCall } from "../pipeline/read-back.js";
import { hopLabel } from "../pipeline/summary-markers.js";
import { cutText } from "../pipeline/text.js";
import type { JsonValue } from "../pipeline/unit.js";
import { describeAggregates, count as n, outline } from "./describe.js";
import { metadataOnly, renderDocument } from "./document.js";
import type { RecordsDraft, RecordsInput, RecordsRenderOptions } from "./draft.js";
import { cleaningNotes, topEntries } from "./notes.js";

export type {
  RecordsDraft,
  RecordsInput,
  RecordsRenderOptions,
} from "./draft.js";
export { cleaningNotes };

import { dataOf, type EnvelopeParts, type EnvelopeRequest } from "./envelope.js";
import { candidatesOf, lanes, shownInOrder } from "./order.js";
import { shorten, shrinkSteps } from "./reduce.js";

/** An array's path as the text names it: cleaned, bounded, quoted (a key is tool text). */
function pathName(path: string, o: RecordsRenderOptions): string {
  return JSON.stringify(o.clean(path, 200));
}

function formatName(f: RecordFacts, o: RecordsRenderOptions): string {
  if (f.format === "csv" || f.format === "tsv") {
    return `${f.format.toUpperCase()}, ${n(f.csv?.columns.length ?? 0)} columns`;
  }
  if (f.format === "ndjson") return "NDJSON";
  if (f.paths.length > 1) {
    const arrays = f.paths.map((p) => `${pathName(p.path, o)} (${n(p.count)})`);
    const last = arrays.pop();
    return `JSON arrays under ${arrays.join(", ")} and ${last}`;
  }
  if (f.envelope !== undefined) return `JSON array under ${pathName(f.envelope, o)}`;
  // A parsed value and its JSON text are the same input, and say so the same way.
  return "JSON array";
}

/** The envelope's members without the record arrays (at any depth: `hits.hits`). */
function membersOf(document: JsonValue, paths: readonly string[]): JsonValue {
  let out = document;
  for (const path of paths) out = without(out, path.split("."));
  return out;
}

function without(value: JsonValue, keys: readonly string[]): JsonValue {
  const [key, ...rest] = keys;
  if (key === undefined || value === null || typeof value !== "object" || Array.isArray(value))
    return value;
  if (!(key in value)) return value;
  const copy = { ...value };
  if (rest.length === 0) delete copy[key];
  else copy[key] = without(copy[key] as JsonValue, rest);
  return copy;
}

/**
 * @example
 * const draft = await renderRecords({ view, facts, secrets: 0, invisible: 0, failed: false }, options);
 */
export async function renderRecords(
  input: RecordsInput,
  o: RecordsRenderOptions,
): Promise<RecordsDraft> {
  const f = input.facts;
  const failure = f.refusal ?? f.violation;
  if (failure) return metadataOnly(f, o, failure.message);
  if (f.shape === "document") return renderDocument(input, o);
  const { view } = input;
  const total = f.count;
  const refused = Object.values(f.refused).reduce((a, b) => a + b, 0);
  const candidates = candidatesOf(view);
  const texts = candidates.map((u) => u.text);
  const notes = cleaningNotes(f, input.secrets, input.invisible, o.clean);
  const generated = total > candidates.length ? o.generated : undefined;
  // A failed tool's envelope says so in its own status line, as `meta` does.
  const statusOf = (shown: number) =>
    input.failed
      ? "error"
      : total === 0
        ? refused > 0
          ? "partial"
          : "empty"
        : total - shown > 0 || f.capped || f.stopped || refused > 0
          ? "partial"
          : "ok";
  const build = (shown: number, level: number, first?: string): EnvelopeParts => {
    const omitted = total - shown;
    const status = statusOf(shown);
    const inOrder = shownInOrder(view, shown).map((u) => ({ text: u.text, section: u.section }));
    if (first !== undefined && inOrder[0]) inOrder[0] = { ...inOrder[0], text: first };
    const data = dataOf(
      inOrder,
      f.paths.map((p) => o.clean(p.path, 200)),
    );
    const l = lanes(view, shown);
    const end = total - l.tail;
    const offset = l.evidence + l.head;
    const cursor = f.handle !== undefined ? o.cursor(f.handle, offset, end) : undefined;
    if (level >= 4) {
      // The last resort for a tiny budget: counts only; the cursor stays in meta.
      return { status, summary: `${n(total)} records, ${n(shown)} shown`, data };
    }
    const parts: string[] = [];
    parts.push(`${n(total)} records (${formatName(f, o)})`);
    if (omitted === 0) {
      if (total > 0) parts.push(total === 1 ? "shown" : "all shown");
    } else {
      parts.push(`showing ${n(shown)}: ${orderProse(f, o, l, total)}`);
    }
    if (f.capped)
      parts.push(
        `input cut at maxBytes (${n(o.maxBytes)} bytes): records after these were not read`,
      );
    if (f.stopped)
      parts.push(
        `reading stopped early (${f.stopped === "timeout" ? "timeoutMs passed" : "the host aborted"}): records after these were not read`,
      );
    if (refused > 0) parts.push(`${n(refused)} records refused (${topEntries(f.refused, 4)})`);
    if (f.textLines) parts.push(`${n(f.textLines)} lines that are not JSON kept as strings`);
    if (f.csv && f.csv.ragged > 0)
      parts.push(`${n(f.csv.ragged)} rows with a different number of fields`);
    if (f.csv?.unterminatedQuote) parts.push("the input ends inside a quoted field");
    if (first !== undefined)
      parts.push("the record shown is reduced to fit (shorter strings, fewer items)");
    if (level <= 1) parts.push(...notes);
    const lines = [parts.join("; ")];
    if (level <= 2 && f.document !== undefined && f.envelope !== undefined) {
      const members = membersOf(
        f.document,
        f.paths.length > 0 ? f.paths.map((p) => p.path) : [f.envelope],
      );
      const around = JSON.stringify(shorten(members, 120));
      if (around !== "{}") lines.push(`envelope: ${cutText(around, 600, "…")}`);
    }
    if (omitted > 0 && f.aggregates && level <= 1) {
      const maxChars = Math.floor(o.maxTokens * (level === 0 ? 0.8 : 0.4));
      const fields = describeAggregates(f.aggregates, { maxChars });
      if (fields) lines.push(`fields over all ${n(total)} records:\n${fields}`);
    }
    if (omitted > 0 && generated && level === 0)
      lines.push(`${hopLabel(generated.split("\n").length)}\n${generated}`);
    if (shown === 0 && candidates.length > 0 && level <= 2) {
      lines.push(`record outline: ${outline(candidates[0]?.value ?? null, { maxChars: 600 })}`);
    }
    const unread = end - offset;
    return {
      status,
      summary: lines.join("\n"),
      data,
      ...(omitted > 0 ? { omitted: { count: omitted, reason: "token budget" } } : {}),
      ...(omitted > 0 && level <= 2 ? { next: nextHint(f.handle, cursor, o, offset, unread) } : {}),
      ...(omitted > 0 && level === 3 && cursor && f.handle
        ? { next: readCall(cursorArgs(f.handle, cursor)) }
        : {}),
    };
  };
  const first = candidates[0];
  const request: EnvelopeRequest = {
    texts,
    build,
    mode: o.mode,
    maxTokens: o.maxTokens,
    levels: 5,
    ...(first?.value !== undefined
      ? { shrink: shrinkSteps(first.value, (v) => outline(v, { maxChars: 400 })) }
      : {}),
  };
  return {
    kind: "envelope",
    requests: [request],
    candidates,
    shown: (k) => shownInOrder(view, k),
    status: (_, shown, reduced) =>
      input.failed
        ? "error"
        : statusOf(shown) === "empty"
          ? "empty"
          : statusOf(shown) === "partial" || f.shortened.strings > 0 || reduced
            ? "partial"
            : "ok",
  };
}

/** "error records first (3 in all), then in input order: records 1–25 and 9,986–10,000" */
function orderProse(
  f: RecordFacts,
  o: RecordsRenderOptions,
  l: { evidence: number; head: number; tail: number },
  total: number,
): string {
  const first =
    f.evidence > 0 && o.errorsFirst
      ? `${f.errors > 0 ? "error" : "warning"} records first (${n(f.evidence)} in all)`
      : "";
  const rest = o.sort
    ? `sorted by ${o.sort}`
    : f.paths.length > 1
      ? "the arrays in turn, each in input order"
      : "in input order";
  const tail =
    l.tail > 0 ? `, and the last ${n(l.tail)} (records ${n(total - l.tail + 1)}–${n(total)})` : "";
  return [first, rest].filter(Boolean).join(", then ") + tail;
}

function nextHint(
  handle: string | undefined,
  cursor: string | undefined,
  o: RecordsRenderOptions,
  offset: number,
  unread: number,
): string {
  if (cursor !== undefined && handle !== undefined) {
    return `call read_result with ${JSON.stringify(cursorArgs(handle, cursor))} for the records after these ${n(offset)} (${n(unread)} more; it also takes where, range, fields)`;
  }
  if (o.storing) return `the result was too large to keep for read_result; ${o.next}`;
  return o.next;
}
