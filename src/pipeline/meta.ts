/**
 * The one `meta` and status builder. Stages record what they found in the run's facts; this
 * module decides what of it is reported, and how: every string the tool supplied passes the
 * run's cleaner (secrets, invisible characters, length), counts are exact, and the tool's own
 * failure (a non-zero exit, an HTTP error, a source that broke) sets the status and the error,
 * with the one retry policy.
 */
import type { ShapedErrorCode } from "../errors/codes.js";
import {
  type Outcome,
  type RecordFacts,
  type RunFacts,
  type SummaryDraft,
  shownSections,
} from "./facts.js";
import { commandOutcome } from "./markers.js";
import { maskMessage, messageOf } from "./message.js";
import { cursorArgs, linesArgs } from "./read-back.js";
import type {
  SectionMeta,
  Shaped,
  ShapedMeta,
  ShapedStatus,
  ShapeSummary,
  SpotlightMode,
  StructuredMeta,
} from "./shaped.js";

export interface MetaOptions {
  readonly maxTokens: number;
  readonly maxBytes: number;
  readonly tool: string | undefined;
  readonly spotlight: SpotlightMode;
  readonly datamark: string;
  /** Redaction is on: `meta.redactions` is reported. */
  readonly redaction: boolean;
  /** Invisible-character removal is on: `meta.invisible` is reported. */
  readonly invisible: boolean;
  /** The host said the output is the tool's error (`toolError`): the status is `error`. */
  readonly toolError?: boolean;
  /** Keyed fingerprints of the secrets found, when the host gave a key. */
  readonly fingerprint?: (
    values: ReadonlyArray<readonly [string, string]>,
  ) => Promise<Array<{ rule: string; fingerprint: string }>>;
  /** The run's cleaner for tool-supplied strings. */
  readonly clean: (text: string, max?: number) => string;
  /** The cursor for the next page of a stored result. */
  readonly cursor?: (handle: string, offset: number, end: number) => string;
  readonly records: {
    readonly sort: string | undefined;
    readonly projection: string | undefined;
    readonly contract: boolean;
  };
}

/** HTTP statuses worth retrying besides 5xx: timeout, too early, too many requests. */
const RETRYABLE_HTTP = new Set([408, 425, 429]);

/**
 * The one retry policy for HTTP statuses: 408, 425, 429 and 5xx may pass on a retry; other 4xx
 * will not.
 *
 * @example
 * retryableStatus(503); // true
 */
export function retryableStatus(status: number): boolean {
  return RETRYABLE_HTTP.has(status) || (status >= 500 && status <= 599);
}

type MetaError = NonNullable<ShapedMeta["error"]>;

/** The tool's failure, if it failed: the first broken source, the command, the HTTP status, the records. */
function errorOf(facts: RunFacts, o: MetaOptions): MetaError | undefined {
  const failed = facts.sections.find((s) => s.failure !== undefined);
  if (failed?.failure) {
    return {
      code: "intake/read-failed",
      message: o.clean(`intake: reading ${failed.name} failed: ${failed.failure.detail}`, 400),
      retryable: true,
      kind: "tool",
    };
  }
  const records = facts.records;
  const refusal = records?.refusal ?? records?.violation;
  if (refusal) {
    const message =
      records?.violation !== undefined
        ? `the result broke the tool's contract: ${o.clean(refusal.message, 240)}`
        : o.clean(refusal.message, 400);
    return {
      code: refusal.code,
      message,
      retryable: refusal.code === "intake/read-failed",
      kind: "tool",
    };
  }
  const command = facts.command;
  if (
    facts.kind === "command" &&
    command &&
    ((command.exitCode !== null && command.exitCode !== 0) ||
      command.signal !== null ||
      command.failure !== undefined)
  ) {
    return {
      code: "tool/failed",
      message: commandOutcome(command.exitCode, command.signal, command.failure),
      retryable: false,
      kind: "tool",
    };
  }
  const http = facts.http;
  if (http && !http.ok) {
    return {
      code: "tool/http-error" satisfies ShapedErrorCode,
      message: o.clean(`HTTP ${http.status} ${http.statusText}`.trim(), 200),
      retryable: retryableStatus(http.status),
      kind: "tool",
    };
  }
  if (facts.error)
    return { ...facts.error, message: o.clean(facts.error.message, 400), kind: "tool" };
  // The host knows the tool failed, not why: whether a retry helps is left unsaid.
  if (o.toolError)
    return { code: "tool/failed", message: "the tool reported an error", kind: "tool" };
  return undefined;
}

function sum(counts: object): number {
  let total = 0;
  for (const v of Object.values(counts)) if (typeof v === "number") total += v;
  return total;
}

function recordsMeta(f: RecordFacts, outcome: Outcome, o: MetaOptions): StructuredMeta {
  const r = outcome.records;
  const shown = r?.shown ?? 0;
  const isRecords = f.shape === "records";
  const omitted = isRecords ? Math.max(0, f.count - shown) : 0;
  const next = r?.next;
  return {
    format: f.format,
    shape: f.shape,
    ...(f.envelope !== undefined ? { envelope: o.clean(f.envelope, 200) } : {}),
    ...(f.paths.length > 0
      ? { paths: f.paths.map((p) => ({ path: o.clean(p.path, 200), count: p.count })) }
      : {}),
    total: f.count,
    shown,
    omitted,
    errors: f.errors,
    errorsShown: r?.errorsShown ?? 0,
    evidence: f.evidence,
    evidenceShown: r?.evidenceShown ?? 0,
    refused: { ...f.refused },
    ...(o.records.sort ? { sort: o.records.sort } : {}),
    ...(o.records.projection
      ? {
          projection: {
            spec: o.records.projection,
            dropped: f.projection.dropped,
            fields: cleanedCounts(f.projection.fields, o),
          },
        }
      : {}),
    ...(o.records.contract ? { contract: { dropped: f.contractDropped } } : {}),
    shortened: { ...f.shortened },
    ...(r?.reduced ? { reduced: true } : {}),
    blobs: { ...f.blobs },
    ...(f.handle ? { handle: f.handle } : {}),
    ...(f.handle && omitted > 0 && next && o.cursor && next.offset < next.end
      ? { cursor: o.cursor(f.handle, next.offset, next.end) }
      : {}),
    ...(f.aggregates && omitted > 0 ? { aggregates: f.aggregates } : {}),
    ...(f.csv ? { csv: { ...f.csv, columns: f.csv.columns.map((c) => o.clean(c, 80)) } } : {}),
  };
}

/** Counts keyed by tool text (dropped field paths), with the keys cleaned. */
function cleanedCounts(
  fields: ReadonlyMap<string, number>,
  o: MetaOptions,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, n] of fields) {
    const key = o.clean(name, 80);
    out[key] = (out[key] ?? 0) + n;
  }
  return out;
}

/**
 * @example
 * const shaped = await buildShaped(ctx.facts, outcome, metaOptions);
 */
export async function buildShaped(
  facts: RunFacts,
  outcome: Outcome,
  o: MetaOptions,
): Promise<Shaped> {
  const error = errorOf(facts, o);
  const records = facts.records;
  let status: ShapedStatus = outcome.status;
  let truncated: boolean;
  let sections: SectionMeta[] = [];
  let cuts = [...outcome.cuts];
  const recordMeta = records ? recordsMeta(records, outcome, o) : undefined;
  if (records && recordMeta) {
    truncated =
      recordMeta.omitted > 0 ||
      records.capped ||
      records.stopped !== undefined ||
      records.shortened.strings > 0 ||
      status === "partial";
    if (records.capped)
      cuts = [{ kind: "bytes", section: "text", at: records.bytes, limit: o.maxBytes }];
    if (records.stopped)
      cuts.push({ kind: "stopped", section: "text", at: records.bytes, reason: records.stopped });
  } else {
    sections = shownSections(facts).map((s): SectionMeta => {
      const o2 = outcome.sections.find((x) => x.name === s.name);
      return {
        name: s.name,
        bytes: s.bytes,
        lines: o2?.lines ?? 0,
        keptLines: o2?.keptLines ?? 0,
        evidenceLines: o2?.evidenceLines ?? 0,
        keptEvidenceLines: o2?.keptEvidenceLines ?? 0,
        capped: s.capped,
        invalidUtf8: s.invalidUtf8,
        ...(s.binary ? { binary: s.binary } : {}),
      };
    });
    // What the page stage left out is declared too: the byte cap, and main-content extraction.
    const page = facts.html;
    if (page?.capped && !cuts.some((c) => c.kind === "bytes")) {
      cuts.push({
        kind: "bytes",
        section: "text",
        at: facts.sections[0]?.bytes ?? 0,
        limit: o.maxBytes,
      });
    }
    if (page && page.removed.boilerplateChars > 0) {
      cuts.push({ kind: "boilerplate", section: "text", chars: page.removed.boilerplateChars });
    }
    if (cuts.length > 0 && status === "ok") status = "partial";
    truncated = cuts.length > 0;
    const blank = facts.sections.every(
      (s) => !s.binary && !s.failure && !s.lost && !s.uncaptured && s.blank,
    );
    if (blank) status = "empty";
  }
  if (error) status = "error";
  const html = facts.html;
  const meta: ShapedMeta = {
    kind: facts.kind,
    format: facts.format,
    bytes: records ? records.bytes : facts.sections.reduce((n, s) => n + s.bytes, 0),
    lines: records ? 0 : outcome.sections.reduce((n, s) => n + s.lines, 0),
    ...(outcome.tokenBound === undefined
      ? { tokens: outcome.tokens }
      : { tokenBound: outcome.tokenBound }),
    maxTokens: o.maxTokens,
    tokenizer: outcome.tokenizer,
    truncated,
    cuts,
    omittedLines: cuts.reduce((n, c) => n + (c.kind === "lines" ? c.count : 0), 0),
    sections,
    ...(outcome.boundary ? { boundary: outcome.boundary } : {}),
    ...(o.tool !== undefined ? { tool: o.clean(o.tool, 128) } : {}),
    ...(facts.kind === "command"
      ? { exitCode: facts.command?.exitCode ?? null, signal: facts.command?.signal ?? null }
      : {}),
    ...(facts.http ? { httpStatus: facts.http.status } : {}),
    ...(o.redaction ? { redactions: await redactions(facts, o) } : {}),
    spotlight:
      o.spotlight === "datamark" ? { mode: "datamark", marker: o.datamark } : { mode: o.spotlight },
    ...(o.invisible ? { invisible: { count: sum(facts.invisible), ...facts.invisible } } : {}),
    ...(html
      ? {
          html: {
            ...html,
            ...(html.title !== undefined ? { title: o.clean(html.title, 300) } : {}),
            ...(html.byline !== undefined ? { byline: o.clean(html.byline, 200) } : {}),
            ...(html.date !== undefined ? { date: o.clean(html.date, 64) } : {}),
            charset: o.clean(html.charset, 40),
          },
        }
      : {}),
    ...(recordMeta ? { records: recordMeta } : {}),
    ...(outcome.evidence && !recordMeta
      ? {
          evidence: {
            ...outcome.evidence,
            cut: outcome.evidence.cut.map((c) => ({ ...c, template: o.clean(c.template, 200) })),
          },
        }
      : {}),
    ...(outcome.summary && !recordMeta ? { summary: cleanSummary(outcome.summary, o.clean) } : {}),
    ...(facts.handle !== undefined ? { handle: facts.handle } : {}),
    ...nextOf(facts, recordMeta, cuts),
    ...(facts.degraded.length > 0
      ? {
          degraded: facts.degraded.map((d) => ({ code: d.code, message: o.clean(d.message, 400) })),
        }
      : {}),
    ...(error ? { error } : {}),
  };
  return { text: outcome.text, status, meta };
}

/** The `read_result` call that reads on, for a stored result that was cut. */
function nextOf(
  facts: RunFacts,
  records: StructuredMeta | undefined,
  cuts: readonly ShapedMeta["cuts"][number][],
): Pick<ShapedMeta, "next"> {
  const handle = facts.handle;
  if (handle === undefined) return {};
  if (records) {
    return records.cursor !== undefined
      ? { next: { tool: "read_result", args: cursorArgs(handle, records.cursor) } }
      : {};
  }
  const gap = cuts.find((c) => c.kind === "lines");
  if (gap === undefined || gap.kind !== "lines") return {};
  return {
    next: { tool: "read_result", args: linesArgs(handle, gap, facts.kind === "command") },
  };
}

async function redactions(
  facts: RunFacts,
  o: MetaOptions,
): Promise<NonNullable<ShapedMeta["redactions"]>> {
  const count = sum(facts.redactions);
  // The values themselves stay with the run (gone with it): only their keyed hashes are reported.
  const fingerprints = o.fingerprint ? await o.fingerprint(facts.values) : undefined;
  return {
    count,
    rules: { ...facts.redactions },
    scope: facts.redactionScope ?? "read",
    ...(fingerprints ? { fingerprints } : {}),
  };
}

/** Sources listed at most, and the characters of a message and of a source's name. */
const MAX_SOURCES = 12;
const MAX_MESSAGE = 200;
const MAX_SOURCE = 48;

/**
 * The summary as `meta` gives it: each symptom's first line redacted like all tool text, then
 * made its message (past its header, varying words `<*>`), and the components those lines name,
 * counted. Redacted first: a secret is never cut or masked into pieces the redaction would not
 * know (`password: hunter2` keeps its key name until the value is gone).
 *
 * @example
 * const summary = cleanSummary(draft, redact.clean); // symptoms' text is their message now
 */
export function cleanSummary(
  s: SummaryDraft,
  clean: (text: string, max?: number) => string,
): ShapeSummary {
  const sources = new Map<string, number>();
  const symptoms = s.symptoms.map((x) => {
    const line = clean(x.text, 4 * MAX_MESSAGE);
    const { at, source } = messageOf(line);
    if (source !== undefined) {
      const name = source.slice(0, MAX_SOURCE);
      sources.set(name, (sources.get(name) ?? 0) + x.count);
    }
    return { ...x, text: maskMessage(line.slice(at)).slice(0, MAX_MESSAGE) };
  });
  return {
    ...s,
    symptoms,
    sources: [...sources]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_SOURCES)
      .map(([name, count]) => ({ name, count })),
  };
}
