/**
 * The facts of one call, in numbers, read from the result it produced (`meta`), the sizes the
 * input had before (`before.ts`), and which records were shown. Only numbers, positions, rule
 * ids, stable codes and the host's tool name go in: a value that came from the tool (a line, a
 * key, a template, a MIME type, a message) never does, so a hook can ship this anywhere.
 */
import type { KeptInput } from "../keep/stage.js";
import {
  type Shaped,
  type ShapedTelemetry,
  type TelemetryCut,
  tokensOf,
} from "../pipeline/shaped.js";
import { utf8Length } from "../pipeline/text.js";
import { shownInOrder } from "../render/order.js";
import type { Before } from "./before.js";

export interface CallFacts {
  readonly before: Before;
  /** `performance.now()` when the call started reading. */
  readonly started: number;
  readonly kept: KeptInput;
}

/**
 * @example
 * const shaped = withTelemetry(await finish(prepared), { before, started, kept });
 */
export function withTelemetry(shaped: Shaped, call: CallFacts, now = performance.now()): Shaped {
  // Built when first read (the hook, a host, a round): a host that never reads it does not pay
  // for it (a fifth of a small result's time). Its time is taken now, with the text's size and
  // the records' cuts (the one fact read from what keep held): the getter holds the result's
  // meta and numbers, not its text nor what keep held.
  const facts: Facts = {
    meta: shaped.meta,
    status: shaped.status,
    bytes: shaped.meta.tokenBound ?? utf8Length(shaped.text),
    before: call.before,
    started: call.started,
    now,
    cuts: recordCutsOf(shaped, call),
  };
  let telemetry: ShapedTelemetry | undefined;
  let made = false;
  const meta = {
    ...shaped.meta,
    get telemetry(): ShapedTelemetry | undefined {
      if (!made) {
        telemetry = telemetryOf(facts);
        made = true;
      }
      return telemetry;
    },
    // A host that sets it reads back what it set, as with a plain property; not once `meta` is
    // frozen (an accessor's setter would still run).
    set telemetry(value: ShapedTelemetry | undefined) {
      if (Object.isFrozen(meta))
        throw new TypeError("Cannot assign to read only property 'telemetry' of a frozen meta");
      telemetry = value;
      made = true;
    },
  };
  return { ...shaped, meta };
}

/** What telemetry is built from, once the call is over. */
interface Facts {
  readonly meta: Shaped["meta"];
  readonly status: Shaped["status"];
  /** The text's UTF-8 length. */
  readonly bytes: number;
  readonly before: CallFacts["before"];
  readonly started: number;
  readonly now: number;
  /** The records not shown, as ranges (none for text). */
  readonly cuts: readonly TelemetryCut[];
}

function recordCutsOf(shaped: Shaped, call: CallFacts): TelemetryCut[] {
  const records = shaped.meta.records;
  return records?.shape === "records" ? recordCuts(call.kept, records) : [];
}

function telemetryOf(call: Facts): ShapedTelemetry {
  const { meta } = call;
  const records = meta.records;
  const isRecords = records?.shape === "records";
  let found = 0;
  let kept = 0;
  let keptLines = 0;
  for (const s of meta.sections) {
    found += s.evidenceLines;
    kept += s.keptEvidenceLines;
    keptLines += s.keptLines;
  }
  if (records) {
    found = records.evidence ?? records.errors;
    kept = records.evidenceShown ?? records.errorsShown;
  }
  const templates = numbersOnly((meta as { readonly evidence?: unknown }).evidence, 0);
  // Built by assignment in the contract's key order: conditional spreads cost a small result
  // more than the rest of its telemetry.
  const out: Record<string, unknown> = {};
  if (meta.tool !== undefined) out.tool = meta.tool;
  out.status = call.status;
  out.kind = meta.kind;
  if (meta.format !== undefined) out.format = meta.format;
  const before: Record<string, unknown> = {
    tokens: call.before.tokens,
    bytes: call.before.bytes,
    lines: meta.lines,
  };
  if (isRecords) before.records = records.total;
  before.estimated = call.before.estimated;
  out.before = before;
  const after: Record<string, unknown> = { tokens: tokensOf(meta) };
  if (meta.tokens === undefined) after.bound = true;
  after.bytes = call.bytes;
  after.lines = keptLines;
  if (isRecords) after.records = records.shown;
  out.after = after;
  out.maxTokens = meta.maxTokens;
  out.truncated = meta.truncated;
  // concat, not push(...): a large budget can leave more record ranges than a call takes.
  out.cuts = isRecords ? meta.cuts.map(cutOf).concat(call.cuts) : meta.cuts.map(cutOf);
  const evidence: Record<string, unknown> = { found, kept, cut: Math.max(0, found - kept) };
  if (templates !== undefined) evidence.templates = templates;
  out.evidence = evidence;
  const redactions: Record<string, unknown> = {
    count: meta.redactions?.count ?? 0,
    rules: { ...meta.redactions?.rules },
  };
  if (meta.redactions) redactions.scope = meta.redactions.scope;
  out.redactions = redactions;
  out.invisible = meta.invisible?.count ?? 0;
  out.ms = Math.max(0, Math.round(call.now - call.started));
  if (meta.error) out.error = meta.error.code;
  return deepFreeze(out as unknown as ShapedTelemetry);
}

/** Frozen all the way down: a hook that writes to what it was given changes no one's `meta`. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A cut without the text it may carry: a binary part's MIME type can come from the tool. */
function cutOf(cut: Shaped["meta"]["cuts"][number]): TelemetryCut {
  return cut.kind === "binary"
    ? { kind: "binary", section: cut.section, bytes: cut.bytes }
    : { ...cut };
}

/** The positions of the records not shown, as ranges (bounded by the records shown, plus one). */
function recordCuts(
  kept: KeptInput,
  records: { readonly total: number; readonly shown: number },
): TelemetryCut[] {
  const total = records.total;
  if (records.shown >= total) return [];
  const shown = kept.view
    ? shownInOrder(kept.view, records.shown)
        .map((u) => u.index)
        .sort((a, b) => a - b)
    : [];
  const cuts: TelemetryCut[] = [];
  let from = 1;
  for (const at of [...shown, total + 1]) {
    if (at > from) cuts.push({ kind: "records", from, to: at - 1, count: at - from, of: total });
    from = Math.max(from, at + 1);
  }
  return cuts;
}

/**
 * Keys of `meta.evidence` that telemetry copies: generic names of counts and positions. A key
 * outside the list may be tool text (a report keyed by template), so it is left out.
 */
const EVIDENCE_KEYS = new Set([
  "count",
  "counts",
  "total",
  "found",
  "kept",
  "shown",
  "cut",
  "omitted",
  "dropped",
  "evicted",
  "severity",
  "level",
  "first",
  "last",
  "from",
  "to",
  "at",
  "index",
  "id",
  "lines",
  "positions",
  "ranges",
  "templates",
  "rare",
  "severe",
  "repeats",
]);

/**
 * A copy of a value with every string, and every key not in `EVIDENCE_KEYS`, removed: what the
 * evidence engine reports per template, without the templates' text.
 */
function numbersOnly(value: unknown, depth: number): unknown {
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (value === null || typeof value !== "object" || depth > 6) return undefined;
  if (Array.isArray(value)) {
    const items = value.slice(0, 256).map((v) => numbersOnly(v, depth + 1));
    return items.some((v) => v !== undefined) ? items.filter((v) => v !== undefined) : undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value).slice(0, 64)) {
    if (!EVIDENCE_KEYS.has(key)) continue;
    const kept = numbersOnly(v, depth + 1);
    if (kept !== undefined) out[key] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
