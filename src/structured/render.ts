/**
 * Rendering a structured result: the envelope's summary (counts, the view's order, what cleaning
 * did, aggregates, the envelope's other members, a generated summary), the metadata-only result
 * of refused input or a broken contract, a single document reduced step by step, and `meta`.
 */
import type { JsonValue } from "../decode/json.js";
import { stripAnsi } from "../decode/normalize.js";
import type { ShapedErrorCode } from "../errors.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import type { CompiledOptions } from "../options.js";
import type { InvisibleCounts } from "../redact/invisible.js";
import { stripInvisible } from "../redact/invisible.js";
import type { Shaped, ShapedMeta, ShapedStatus, StructuredMeta } from "../types.js";
import type { Aggregates } from "./aggregate.js";
import type { CompiledContract, ContractViolation } from "./contract.js";
import { describeAggregates, outline } from "./describe.js";
import { type EnvelopeParts, fitEnvelope, type Presentation, recordsJson } from "./envelope.js";
import type { IntakeResult } from "./intake.js";
import type { KeptRecord } from "./keep.js";
import { reduceValue, type ShortenStats, shorten, shrinkSteps } from "./reduce.js";
import { encodeCursor, type StoredResult } from "./store.js";
import type { createCleanStats } from "./values.js";

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

/** Everything structured shaping needs from the shaper. */
export interface StructuredRun {
  readonly options: CompiledOptions;
  readonly tokenizer: ResolvedTokenizer;
  /** Set when the input came as a `Response`. */
  readonly httpStatus?: number;
  readonly httpFailed?: boolean;
  /** The tool's compiled contract (loaded on demand with its validator). */
  readonly contract?: CompiledContract;
}

export interface Facts {
  readonly intake: IntakeResult;
  readonly kept: readonly KeptRecord[];
  readonly errors: number;
  readonly aggregates: Aggregates | undefined;
  readonly document: JsonValue | undefined;
  readonly violation: ContractViolation | undefined;
  readonly ids: readonly string[];
  readonly stored: StoredResult | undefined;
  readonly projectionDropped: number;
  readonly projectionFields: ReadonlyMap<string, number>;
  readonly contractDropped: number;
  readonly shortened: ShortenStats;
  readonly clean: ReturnType<typeof createCleanStats>;
}

const n = (x: number) => x.toLocaleString("en-US");

/** A name that came from the tool (a dropped field's path, a CSV column), cleaned like content and capped. */
export function cleanName(
  name: string,
  o: Pick<CompiledOptions, "redactor" | "invisible">,
  max = 80,
): string {
  let clean = o.invisible ? stripInvisible(stripAnsi(name)).text : name;
  if (o.redactor) clean = o.redactor(clean).text;
  return clean.length <= max ? clean : `${cutText(clean, max)}…`;
}

const PLAIN_PATH = /^[\w$@-]+(?:\[\*\])?(?:\.[\w$@-]+(?:\[\*\])?)*$/;

/** The first `max` characters, never ending inside a surrogate pair. */
function cutText(text: string, max: number): string {
  const end =
    text.charCodeAt(max - 1) >= 0xd800 && text.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
  return text.slice(0, end);
}

/** A cleaned name as prose shows it: JSON-quoted unless a plain path, so it cannot start a line. */
function quoted(name: string): string {
  return PLAIN_PATH.test(name) ? name : JSON.stringify(name);
}

function formatName(intake: IntakeResult): string {
  if (intake.format === "csv" || intake.format === "tsv") {
    return `${intake.format.toUpperCase()}, ${n(intake.csv?.columns.length ?? 0)} columns`;
  }
  if (intake.format === "ndjson") return "NDJSON";
  if (intake.envelope !== undefined) return `JSON array under "${intake.envelope}"`;
  return intake.bytes === 0 ? "array" : "JSON array";
}

function topEntries(
  map: ReadonlyMap<string, number> | Readonly<Record<string, number>>,
  k: number,
): string {
  const entries = map instanceof Map ? [...map.entries()] : Object.entries(map);
  return entries
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, count]) => `${quoted(name)} ${n(count)}`)
    .join(", ");
}

/** Prose about what was done to the records, shared by the first page and later pages. */
export function cleaningNotes(f: {
  readonly projectionDropped: number;
  readonly projectionFields?: ReadonlyMap<string, number>;
  readonly contractDropped: number;
  readonly shortened: ShortenStats;
  readonly clean: ReturnType<typeof createCleanStats>;
}): string[] {
  const notes: string[] = [];
  if (f.projectionDropped > 0) {
    // Only names that read as plain field paths are named: any other key is tool text that
    // could say anything (the model can still ask read_result for fields by path).
    const plain = new Map(
      [...(f.projectionFields ?? [])].filter(([name]) => PLAIN_PATH.test(name)),
    );
    const top = topEntries(plain, 4);
    notes.push(
      `${n(f.projectionDropped)} fields left out by the tool's field list${top ? ` (${top})` : ""}`,
    );
  }
  if (f.contractDropped > 0)
    notes.push(`${n(f.contractDropped)} fields not in the tool's schema dropped`);
  const secrets = Object.values(f.clean.redactions).reduce((a, b) => a + b, 0);
  if (secrets > 0) notes.push(`${n(secrets)} secrets redacted`);
  if (f.clean.blobs > 0)
    notes.push(
      `${n(f.clean.blobs)} base64/data-URI values replaced by {blob, mime, bytes, sha256}`,
    );
  if (f.shortened.strings > 0)
    notes.push(`${n(f.shortened.strings)} long strings shortened in place`);
  const hidden = Object.values(f.clean.invisible).reduce((a, b) => a + b, 0);
  if (hidden > 0) notes.push(`${n(hidden)} invisible characters removed`);
  return notes;
}

export async function render(f: Facts, run: StructuredRun): Promise<Shaped> {
  const o = run.options;
  const { intake } = f;
  const how: Presentation = {
    mode: o.envelope,
    untrusted: o.untrusted,
    tool: o.tool,
    spotlight: o.spotlight,
    datamark: o.datamark,
  };
  const refused = Object.values(intake.refused).reduce((a, b) => a + b, 0);
  const failure = errorOf(f, run);

  // Refused input or a broken contract: metadata only (ids and counts), never the data.
  if (failure) {
    const facts = [
      `${failure.message}`,
      intake.records
        ? `${n(intake.count)} records read${intake.capped ? " before the byte cap" : ""}`
        : "",
      f.violation && f.ids.length > 0
        ? `record ids: ${f.ids.map((id) => cleanId(id, o)).join(", ")}`
        : "",
    ].filter(Boolean);
    const fitted = await fitEnvelope(
      [],
      (_, level) => ({
        status: "error",
        summary:
          level === 0
            ? facts.join("; ")
            : level === 1
              ? (facts[0] ?? "")
              : `${cutText(facts[0] ?? "", 120)}…`,
        data: undefined,
      }),
      how,
      run.tokenizer,
      o.maxTokens,
      3,
    );
    return result(f, run, fitted, "error", 0, failure);
  }

  if (!intake.records) return renderDocument(f, run, how);

  const total = intake.count;
  const texts = f.kept.map((r) => r.text);
  const notes = cleaningNotes(f);
  const generated =
    o.summarize && total > f.kept.length ? await summarise(f, run, texts) : undefined;
  const build = (shown: number, level: number, first?: string): EnvelopeParts => {
    const omitted = total - shown;
    const status =
      total === 0
        ? refused > 0
          ? "partial"
          : "empty"
        : omitted > 0 || intake.capped || refused > 0
          ? "partial"
          : "ok";
    const data = recordsJson(
      first !== undefined ? [first, ...texts.slice(1, shown)] : texts.slice(0, shown),
    );
    if (level >= 4) {
      // The last resort for a tiny budget: counts only; the cursor stays in meta.
      return { status, summary: `${n(total)} records, ${n(shown)} shown`, data };
    }
    const parts: string[] = [];
    parts.push(`${n(total)} records (${formatName(intake)})`);
    if (omitted === 0) {
      if (total > 0) parts.push(total === 1 ? "shown" : "all shown");
    } else {
      const order = [
        f.errors > 0 && o.errorsFirst ? `error records first (${n(f.errors)} in all)` : "",
        o.sort ? `sorted by ${o.sort.text}` : "in input order",
      ]
        .filter(Boolean)
        .join(", then ");
      parts.push(`showing ${n(shown)}: ${order}`);
    }
    if (intake.capped)
      parts.push(
        `input cut at maxBytes (${n(o.maxBytes)} bytes): records after these were not read`,
      );
    if (refused > 0) parts.push(`${n(refused)} records refused (${topEntries(intake.refused, 4)})`);
    if (intake.textLines)
      parts.push(`${n(intake.textLines)} lines that are not JSON kept as strings`);
    if (intake.csv && intake.csv.ragged > 0)
      parts.push(`${n(intake.csv.ragged)} rows with a different number of fields`);
    if (intake.csv?.unterminatedQuote) parts.push("the input ends inside a quoted field");
    if (first !== undefined)
      parts.push("the record shown is reduced to fit (shorter strings, fewer items)");
    if (level <= 1) parts.push(...notes);
    const lines = [parts.join("; ")];
    if (level <= 2 && f.document !== undefined && intake.envelope !== undefined) {
      const members = { ...(f.document as { [key: string]: JsonValue }) };
      delete members[intake.envelope];
      const around = JSON.stringify(shorten(members, 120));
      if (around !== "{}") {
        lines.push(`envelope: ${around.length > 600 ? `${cutText(around, 600)}…` : around}`);
      }
    }
    if (omitted > 0 && f.aggregates && level <= 1) {
      const maxChars = Math.floor(o.maxTokens * (level === 0 ? 0.8 : 0.4));
      const fields = describeAggregates(f.aggregates, { maxChars });
      if (fields) lines.push(`fields over all ${n(total)} records:\n${fields}`);
    }
    if (omitted > 0 && generated && level === 0)
      lines.push(`generated summary (by the host's summariser; untrusted): ${generated}`);
    if (shown === 0 && f.kept.length > 0 && level <= 2) {
      lines.push(`record outline: ${outline(f.kept[0]?.value ?? null, { maxChars: 600 })}`);
    }
    return {
      status,
      summary: lines.join("\n"),
      data,
      ...(omitted > 0 ? { omitted: { count: omitted, reason: "token budget" } } : {}),
      ...(omitted > 0 && level <= 2 ? { next: nextHint(f, o, shown, total) } : {}),
      ...(omitted > 0 && level === 3 && f.stored
        ? {
            next: `read_result {"cursor":"${encodeCursor({ handle: f.stored.handle, offset: shown })}"}`,
          }
        : {}),
    };
  };
  const first = f.kept[0];
  const fitted = await fitEnvelope(
    texts,
    build,
    how,
    run.tokenizer,
    o.maxTokens,
    5,
    first ? shrinkSteps(first.value, (v) => outline(v, { maxChars: 400 })) : undefined,
  );
  const status: ShapedStatus = run.httpFailed
    ? "error"
    : fitted.parts.status === "empty"
      ? "empty"
      : fitted.parts.status === "partial" || f.shortened.strings > 0 || fitted.reduced
        ? "partial"
        : "ok";
  return result(f, run, fitted, status, fitted.shown, undefined);
}

function nextHint(f: Facts, o: CompiledOptions, shown: number, total: number): string {
  if (f.stored) {
    const cursor = encodeCursor({ handle: f.stored.handle, offset: shown });
    return `call read_result with {"cursor":"${cursor}"} for the records after these ${n(shown)} (${n(total - shown)} more)`;
  }
  if (o.store) return `the result was too large to keep for read_result; ${o.recordsNext}`;
  return o.recordsNext;
}

/** An id shown in a metadata-only result: cleaned like content. */
function cleanId(id: string, o: CompiledOptions): string {
  const visible = o.invisible ? stripInvisible(id).text : id;
  const safe = o.redactor ? o.redactor(visible).text : visible;
  return JSON.stringify(safe.slice(0, 64));
}

async function summarise(
  f: Facts,
  run: StructuredRun,
  texts: readonly string[],
): Promise<string | undefined> {
  const o = run.options;
  if (!o.summarize) return undefined;
  const text = recordsJson(texts);
  try {
    const out = await o.summarize({
      text,
      records: f.intake.count,
      shown: texts.length,
      ...(o.tool !== undefined ? { tool: o.tool } : {}),
    });
    if (typeof out !== "string") return undefined;
    // The summariser read untrusted data: its words are cleaned and capped like the data.
    let clean = o.invisible ? stripInvisible(out).text : out;
    if (o.redactor) clean = o.redactor(clean).text;
    const cap = Math.floor(o.maxTokens * 0.8);
    return clean.length > cap ? `${clean.slice(0, cap)}…` : clean;
  } catch {
    return undefined;
  }
}

interface Failure {
  readonly code: ShapedErrorCode;
  readonly message: string;
}

function errorOf(f: Facts, run: StructuredRun): Failure | undefined {
  if (f.intake.error) {
    return { code: f.intake.error.code as ShapedErrorCode, message: f.intake.error.message };
  }
  if (f.violation) {
    // The message may carry a host check's reason, which may quote the record: cleaned, capped.
    const o = run.options;
    return {
      code: f.violation.code as ShapedErrorCode,
      message: `the result broke the tool's contract: ${cleanName(f.violation.message, o, 240)}`,
    };
  }
  return undefined;
}

/** A single document: shown whole when it fits, else reduced step by step, else outlined. */
async function renderDocument(f: Facts, run: StructuredRun, how: Presentation): Promise<Shaped> {
  const o = run.options;
  const doc = f.document ?? null;
  const notes = cleaningNotes(f);
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
  const describe = (kind: string) =>
    Array.isArray(doc)
      ? `a JSON array of ${n(doc.length)}`
      : doc !== null && typeof doc === "object"
        ? `a JSON object with ${n(Object.keys(doc).length)} keys`
        : `a JSON ${kind}`;
  const build = (index: number, level: number): EnvelopeParts => {
    const step = index > 0 ? steps[index - 1] : undefined;
    const reduced = step !== undefined && (step.items > 0 || step.strings > 0);
    const parts = [describe(typeof doc)];
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
      ...(step === undefined || reduced ? { next: o.recordsNext } : {}),
    };
  };
  // Each candidate is one "record": the fit takes the first that fits, best first.
  let fitted: Awaited<ReturnType<typeof fitEnvelope>> | undefined;
  for (let i = 0; i < steps.length && fitted === undefined; i++) {
    const attempt = await fitEnvelope(
      [steps[i]?.text ?? ""],
      (shown, level) => build(shown > 0 ? i + 1 : 0, level),
      how,
      run.tokenizer,
      o.maxTokens,
    );
    if (attempt.shown > 0) fitted = attempt;
  }
  fitted ??= await fitEnvelope([], (_, level) => build(0, level), how, run.tokenizer, o.maxTokens);
  const status: ShapedStatus = run.httpFailed
    ? "error"
    : fitted.parts.status === "ok" && f.shortened.strings === 0
      ? "ok"
      : "partial";
  return result(f, run, fitted, status, fitted.shown, undefined);
}

function result(
  f: Facts,
  run: StructuredRun,
  fitted: { text: string; boundary: string | undefined; tokens: number; reduced?: boolean },
  status: ShapedStatus,
  shown: number,
  failure: Failure | undefined,
): Shaped {
  const o = run.options;
  const { intake } = f;
  const omitted = intake.records ? Math.max(0, intake.count - shown) : 0;
  const rules = f.clean.redactions;
  const invisible: InvisibleCounts = f.clean.invisible;
  const records: StructuredMeta = {
    format: intake.format,
    shape: intake.records ? "records" : "document",
    ...(intake.envelope !== undefined ? { envelope: intake.envelope } : {}),
    total: intake.count,
    shown,
    omitted,
    errors: f.errors,
    errorsShown: f.kept.slice(0, shown).filter((r) => r.error).length,
    refused: { ...intake.refused },
    ...(o.sort ? { sort: o.sort.text } : {}),
    ...(o.projection
      ? {
          projection: {
            spec: o.projection.spec,
            dropped: f.projectionDropped,
            fields: Object.fromEntries(f.projectionFields),
          },
        }
      : {}),
    ...(o.contract ? { contract: { dropped: f.contractDropped } } : {}),
    shortened: { ...f.shortened },
    ...(fitted.reduced ? { reduced: true } : {}),
    blobs: { count: f.clean.blobs, bytes: f.clean.blobBytes },
    ...(f.stored ? { handle: f.stored.handle } : {}),
    ...(f.stored && omitted > 0
      ? { cursor: encodeCursor({ handle: f.stored.handle, offset: shown }) }
      : {}),
    ...(f.aggregates && omitted > 0 ? { aggregates: f.aggregates } : {}),
    ...(intake.csv
      ? { csv: { ...intake.csv, columns: intake.csv.columns.map((c) => cleanName(c, o)) } }
      : {}),
  };
  const count = Object.values(rules).reduce((a, b) => a + b, 0);
  const meta: ShapedMeta = {
    kind: "structured",
    format: records.format,
    bytes: intake.bytes,
    lines: 0,
    tokens: fitted.tokens,
    maxTokens: o.maxTokens,
    tokenizer: run.tokenizer.name,
    truncated: omitted > 0 || intake.capped || f.shortened.strings > 0 || status === "partial",
    cuts: intake.capped
      ? [{ kind: "bytes", section: "text", at: intake.bytes, limit: o.maxBytes }]
      : [],
    omittedLines: 0,
    sections: [],
    ...(fitted.boundary ? { boundary: fitted.boundary } : {}),
    ...(o.tool !== undefined ? { tool: o.tool } : {}),
    ...(run.httpStatus !== undefined ? { httpStatus: run.httpStatus } : {}),
    ...(o.redactor ? { redactions: { count, rules: { ...rules } } } : {}),
    ...(o.invisible
      ? { invisible: { count: Object.values(invisible).reduce((a, b) => a + b, 0), ...invisible } }
      : {}),
    spotlight:
      o.spotlight === "datamark" ? { mode: "datamark", marker: o.datamark } : { mode: o.spotlight },
    records,
    ...(failure
      ? {
          error: {
            code: failure.code,
            message: failure.message,
            retryable: false,
            kind: "tool" as const,
          },
        }
      : run.httpFailed
        ? {
            error: {
              code: "tool/http-error" as const,
              message: `HTTP ${run.httpStatus}`,
              retryable:
                (run.httpStatus ?? 0) >= 500 || [408, 425, 429].includes(run.httpStatus ?? 0),
              kind: "tool" as const,
            },
          }
        : {}),
  };
  return { text: fitted.text, status: failure ? "error" : status, meta };
}
