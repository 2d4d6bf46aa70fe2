/**
 * Rendering a structured result: the envelope's summary (counts, the view's order, what cleaning
 * did, aggregates, the envelope's other members, a generated summary), the metadata-only result
 * of refused input or a broken contract, and a single document reduced step by step. What it
 * returns is a request for the fit: candidate records in priority order and how to write the
 * envelope for any prefix of them.
 */
import type { EnvelopeRequest } from "../fit/envelope.js";
import type { KeptView } from "../keep/view.js";
import type { RecordFacts } from "../pipeline/facts.js";
import { cutText } from "../pipeline/text.js";
import type { JsonValue, Unit } from "../pipeline/unit.js";
import { describeAggregates, count as n, outline } from "./describe.js";
import { type EnvelopeMode, type EnvelopeParts, recordsJson } from "./envelope.js";
import { reduceValue, shorten, shrinkSteps } from "./reduce.js";

/** What the host's summariser gets: the records shown, already capped and cleaned. */
export interface SummarizeInput {
  /** The kept records as JSON text (at most a few budgets' worth). */
  readonly text: string;
  readonly records: number;
  readonly shown: number;
  readonly tool?: string;
}

/** A host function (a small model, say) that writes a summary; its output is marked generated and untrusted. */
export type Summarizer = (input: SummarizeInput) => Promise<string>;

export interface RecordsRenderOptions {
  readonly mode: EnvelopeMode;
  readonly maxTokens: number;
  readonly maxBytes: number;
  readonly maxStringChars: number;
  readonly errorsFirst: boolean;
  readonly sort: string | undefined;
  /** What to do for the records that were left out, when they were not stored. */
  readonly next: string;
  /** Whether a store was configured (a result too large for it says so). */
  readonly storing: boolean;
  readonly tool: string | undefined;
  readonly summarize: Summarizer | undefined;
  /** The one cleaner for tool-supplied strings. */
  readonly clean: (text: string, max?: number) => string;
  /** Writes the cursor for the records after `offset` of the view, up to `end`. */
  readonly cursor: (handle: string, offset: number, end: number) => string;
}

/** A records draft: what the fit tries, in order, and which units its candidates are. */
export interface RecordsDraft {
  readonly kind: "envelope";
  /** Requests tried in order: the first that shows a record wins; the last is shown anyway. */
  readonly requests: readonly EnvelopeRequest[];
  /** The candidates of the first request, in priority order (undefined for a document). */
  readonly candidates?: readonly Unit[];
  /** The status of the result for the request that was fitted and the records it showed. */
  readonly status: (
    request: number,
    shown: number,
    reduced: boolean,
  ) => "ok" | "partial" | "empty" | "error";
}

const PLAIN_PATH = /^[\w$@-]+(?:\[\*\])?(?:\.[\w$@-]+(?:\[\*\])?)*$/;

/** A cleaned name as prose shows it: JSON-quoted unless a plain path, so it cannot start a line. */
function quoted(name: string): string {
  return PLAIN_PATH.test(name) ? name : JSON.stringify(name);
}

function topEntries(
  map: ReadonlyMap<string, number> | Readonly<Record<string, number>>,
  k: number,
): string {
  const entries = map instanceof Map ? [...map.entries()] : Object.entries(map);
  return entries
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, c]) => `${quoted(name)} ${n(c)}`)
    .join(", ");
}

function formatName(f: RecordFacts): string {
  if (f.format === "csv" || f.format === "tsv") {
    return `${f.format.toUpperCase()}, ${n(f.csv?.columns.length ?? 0)} columns`;
  }
  if (f.format === "ndjson") return "NDJSON";
  if (f.envelope !== undefined) return `JSON array under "${f.envelope}"`;
  return f.bytes === 0 ? "array" : "JSON array";
}

/** Prose about what was done to the records, shared by the first page and later pages. */
export function cleaningNotes(
  f: Pick<RecordFacts, "projection" | "contractDropped" | "shortened" | "blobs">,
  secrets: number,
  invisible: number,
  clean: (text: string, max?: number) => string,
): string[] {
  const notes: string[] = [];
  if (f.projection.dropped > 0) {
    // Only names that read as plain field paths are named: any other key is tool text that
    // could say anything (the model can still ask read_result for fields by path).
    const plain = new Map<string, number>();
    for (const [name, c] of f.projection.fields) {
      const safe = clean(name, 80);
      if (PLAIN_PATH.test(safe)) plain.set(safe, (plain.get(safe) ?? 0) + c);
    }
    const top = topEntries(plain, 4);
    notes.push(
      `${n(f.projection.dropped)} fields left out by the tool's field list${top ? ` (${top})` : ""}`,
    );
  }
  if (f.contractDropped > 0)
    notes.push(`${n(f.contractDropped)} fields not in the tool's schema dropped`);
  if (secrets > 0) notes.push(`${n(secrets)} secrets redacted`);
  if (f.blobs.count > 0)
    notes.push(
      `${n(f.blobs.count)} base64/data-URI values replaced by {blob, mime, bytes, sha256}`,
    );
  if (f.shortened.strings > 0)
    notes.push(`${n(f.shortened.strings)} long strings shortened in place`);
  if (invisible > 0) notes.push(`${n(invisible)} invisible characters removed`);
  return notes;
}

/** Share of the room after the evidence that the head takes; the tail gets the rest. */
const HEAD_SHARE = 0.6;

/**
 * The candidates in priority order: evidence in view order, then the head and the tail
 * interleaved by their shares of characters, so any prefix of the order is a prefix of the
 * evidence, or all of it with a prefix of the head and a suffix of the tail.
 */
export function candidatesOf(view: KeptView): Unit[] {
  const order: Unit[] = [...view.evidence];
  if (view.evidenceDropped) {
    for (let i = view.tail.length - 1; i >= 0; i--) order.push(view.tail[i] as Unit);
    return order;
  }
  let h = 0;
  let t = view.tail.length - 1;
  let headChars = 0;
  let tailChars = 0;
  while (h < view.head.length || t >= 0) {
    const takeHead =
      t < 0 || (h < view.head.length && headChars * (1 - HEAD_SHARE) <= tailChars * HEAD_SHARE);
    const unit = (takeHead ? view.head[h++] : view.tail[t--]) as Unit;
    if (takeHead) headChars += unit.text.length;
    else tailChars += unit.text.length;
    order.push(unit);
  }
  return order;
}

/** How the first `k` candidates split into the lanes of the view. */
function lanes(view: KeptView, k: number) {
  const evidence = Math.min(k, view.evidence.length);
  let head = 0;
  let tail = 0;
  if (k > evidence) {
    const order = candidatesOf(view).slice(evidence, k);
    const tails = new Set(view.tail);
    for (const u of order) if (tails.has(u)) tail++;
    head = order.length - tail;
  }
  return { evidence, head, tail };
}

/** The shown records in the order the data lists them: evidence, head, then the tail in order. */
export function shownInOrder(view: KeptView, k: number): Unit[] {
  const l = lanes(view, k);
  return [
    ...view.evidence.slice(0, l.evidence),
    ...view.head.slice(0, l.head),
    ...view.tail.slice(view.tail.length - l.tail),
  ];
}

export interface RecordsInput {
  readonly view: KeptView;
  readonly facts: RecordFacts;
  readonly secrets: number;
  readonly invisible: number;
  /** Whether the HTTP request failed (the status is the tool's error). */
  readonly failed: boolean;
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
  const generated =
    o.summarize && total > candidates.length ? await summarise(f, o, texts) : undefined;
  const statusOf = (shown: number) =>
    total === 0
      ? refused > 0
        ? "partial"
        : "empty"
      : total - shown > 0 || f.capped || refused > 0
        ? "partial"
        : "ok";
  const build = (shown: number, level: number, first?: string): EnvelopeParts => {
    const omitted = total - shown;
    const status = statusOf(shown);
    const inOrder = shownInOrder(view, shown).map((u) => u.text);
    if (first !== undefined) inOrder[0] = first;
    const data = recordsJson(inOrder);
    const l = lanes(view, shown);
    const end = total - l.tail;
    const offset = l.evidence + l.head;
    const cursor = f.handle !== undefined ? o.cursor(f.handle, offset, end) : undefined;
    if (level >= 4) {
      // The last resort for a tiny budget: counts only; the cursor stays in meta.
      return { status, summary: `${n(total)} records, ${n(shown)} shown`, data };
    }
    const parts: string[] = [];
    parts.push(`${n(total)} records (${formatName(f)})`);
    if (omitted === 0) {
      if (total > 0) parts.push(total === 1 ? "shown" : "all shown");
    } else {
      parts.push(`showing ${n(shown)}: ${orderProse(f, o, l, total)}`);
    }
    if (f.capped)
      parts.push(
        `input cut at maxBytes (${n(o.maxBytes)} bytes): records after these were not read`,
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
      const members = { ...(f.document as { [key: string]: JsonValue }) };
      delete members[f.envelope];
      const around = JSON.stringify(shorten(members, 120));
      if (around !== "{}") lines.push(`envelope: ${cutText(around, 600, "…")}`);
    }
    if (omitted > 0 && f.aggregates && level <= 1) {
      const maxChars = Math.floor(o.maxTokens * (level === 0 ? 0.8 : 0.4));
      const fields = describeAggregates(f.aggregates, { maxChars });
      if (fields) lines.push(`fields over all ${n(total)} records:\n${fields}`);
    }
    if (omitted > 0 && generated && level === 0)
      lines.push(`generated summary (by the host's summariser; untrusted): ${generated}`);
    if (shown === 0 && candidates.length > 0 && level <= 2) {
      lines.push(`record outline: ${outline(candidates[0]?.value ?? null, { maxChars: 600 })}`);
    }
    const unread = end - offset;
    return {
      status,
      summary: lines.join("\n"),
      data,
      ...(omitted > 0 ? { omitted: { count: omitted, reason: "token budget" } } : {}),
      ...(omitted > 0 && level <= 2 ? { next: nextHint(cursor, o, offset, unread) } : {}),
      ...(omitted > 0 && level === 3 && cursor
        ? { next: `read_result {"cursor":"${cursor}"}` }
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
  const rest = o.sort ? `sorted by ${o.sort}` : "in input order";
  const tail =
    l.tail > 0 ? `, and the last ${n(l.tail)} (records ${n(total - l.tail + 1)}–${n(total)})` : "";
  return [first, rest].filter(Boolean).join(", then ") + tail;
}

function nextHint(
  cursor: string | undefined,
  o: RecordsRenderOptions,
  offset: number,
  unread: number,
): string {
  if (cursor !== undefined) {
    return `call read_result with {"cursor":"${cursor}"} for the records after these ${n(offset)} (${n(unread)} more)`;
  }
  if (o.storing) return `the result was too large to keep for read_result; ${o.next}`;
  return o.next;
}

async function summarise(
  f: RecordFacts,
  o: RecordsRenderOptions,
  texts: readonly string[],
): Promise<string | undefined> {
  if (!o.summarize) return undefined;
  try {
    const out = await o.summarize({
      text: recordsJson(texts),
      records: f.count,
      shown: texts.length,
      ...(o.tool !== undefined ? { tool: o.tool } : {}),
    });
    if (typeof out !== "string") return undefined;
    // The summariser read untrusted data: its words are cleaned and capped like the data.
    return o.clean(out, Math.floor(o.maxTokens * 0.8));
  } catch {
    return undefined;
  }
}

/** Refused input or a broken contract: metadata only (ids and counts), never the data. */
function metadataOnly(f: RecordFacts, o: RecordsRenderOptions, message: string): RecordsDraft {
  const violated = f.violation !== undefined;
  const reason = violated
    ? `the result broke the tool's contract: ${o.clean(message, 240)}`
    : o.clean(message, 400);
  const ids = violated
    ? f.ids
        .filter((e) => e.index !== f.violation?.index)
        .map((e) => JSON.stringify(o.clean(e.id, 64)))
    : [];
  const facts = [
    reason,
    f.shape === "records" || f.count > 0
      ? `${n(f.count)} records read${f.capped ? " before the byte cap" : ""}`
      : "",
    ids.length > 0 ? `record ids: ${ids.join(", ")}` : "",
  ].filter(Boolean);
  const request: EnvelopeRequest = {
    texts: [],
    build: (_, level) => ({
      status: "error",
      summary:
        level === 0
          ? facts.join("; ")
          : level === 1
            ? (facts[0] ?? "")
            : `${cutText(facts[0] ?? "", 120)}…`,
      data: undefined,
    }),
    mode: o.mode,
    maxTokens: o.maxTokens,
    levels: 3,
  };
  return { kind: "envelope", requests: [request], status: () => "error" };
}

/** A single document: shown whole when it fits, else reduced step by step, else outlined. */
function renderDocument(input: RecordsInput, o: RecordsRenderOptions): RecordsDraft {
  const f = input.facts;
  const doc = f.document ?? null;
  const notes = cleaningNotes(f, input.secrets, input.invisible, o.clean);
  const ladder: ReadonlyArray<readonly [number, number]> = [
    [o.maxStringChars, Number.POSITIVE_INFINITY],
    [o.maxStringChars, 50],
    [500, 20],
    [200, 10],
    [100, 5],
    [60, 3],
    [40, 1],
  ];
  const steps = ladder.map(([strings, items]) => reduceValue(doc, strings, items));
  const what = Array.isArray(doc)
    ? `a JSON array of ${n(doc.length)}`
    : doc !== null && typeof doc === "object"
      ? `a JSON object with ${n(Object.keys(doc).length)} keys`
      : `a JSON ${typeof doc}`;
  const build = (index: number, level: number): EnvelopeParts => {
    const step = index > 0 ? steps[index - 1] : undefined;
    const reduced = step !== undefined && (step.items > 0 || step.strings > 0);
    const parts = [what];
    if (step && reduced) {
      parts.push(
        `shown reduced: ${[step.items > 0 ? `${n(step.items)} array items and object keys left out` : "", step.strings > 0 ? `${n(step.strings)} strings shortened` : ""].filter(Boolean).join(", ")}`,
      );
    }
    if (level <= 1) parts.push(...notes);
    const lines = [parts.join("; ")];
    if (step === undefined && level <= 1)
      lines.push(`outline: ${outline(doc, { maxChars: Math.max(200, o.maxTokens) })}`);
    return {
      status: step === undefined || reduced ? "partial" : "ok",
      summary: lines.join("\n"),
      data: step?.text,
      ...(step === undefined || reduced ? { next: o.next } : {}),
    };
  };
  // Each step is one candidate: the fit takes the first that fits, best first; the outline last.
  const requests: EnvelopeRequest[] = steps.map((step, i) => ({
    texts: [step.text],
    build: (shown, level) => build(shown > 0 ? i + 1 : 0, level),
    mode: o.mode,
    maxTokens: o.maxTokens,
    levels: 4,
  }));
  requests.push({
    texts: [],
    build: (_, level) => build(0, level),
    mode: o.mode,
    maxTokens: o.maxTokens,
    levels: 4,
  });
  return {
    kind: "envelope",
    requests,
    status: (request, shown) => {
      if (input.failed) return "error";
      const step = shown > 0 ? steps[request] : undefined;
      const whole = step !== undefined && step.items === 0 && step.strings === 0;
      return whole && f.shortened.strings === 0 ? "ok" : "partial";
    },
  };
}
