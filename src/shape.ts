import { AirlockError, type ShapedErrorCode } from "./errors.js";
import { applySpotlight } from "./fence/spotlight.js";
import { type FitRequest, type Fitted, fitToBudget } from "./fit/fit.js";
import { type ResolvedTokenizer, resolveTokenizer } from "./fit/tokenizer.js";
import {
  type ByteBudget,
  createByteBudget,
  type ReadContext,
  type ReadResult,
  readSection,
} from "./intake/read.js";
import { assertReadable } from "./intake/source.js";
import type { Unit } from "./keep/keeper.js";
import {
  type CommandOutput,
  type CompiledOptions,
  compileOptions,
  type ShapeInput,
  type ShapeOptions,
  type StreamSource,
} from "./options.js";
import { fingerprintOf, importFingerprintKey } from "./redact/fingerprint.js";
import type { InvisibleCounts } from "./redact/invisible.js";
import { engineOf } from "./redact/redact.js";
import { createTextFilter } from "./redact/stream.js";
import { commandHeader, commandOutcome, httpHeader } from "./render/markers.js";
import { collect } from "./render/render.js";
import { scrubMessage } from "./scrub/scrub.js";
import type { CompiledContract } from "./structured/contract.js";
import { type Routed, route } from "./structured/route.js";
import type { Cut, SectionMeta, Shaped, ShapedMeta, ShapedStatus } from "./types.js";

/** A compiled shaper: options are validated once, the tokenizer is loaded once. */
export type Shaper = (input: ShapeInput) => Promise<Shaped>;

/**
 * Compiles options once and returns a shaper to call per tool result. No state is shared between
 * shapers, so one per request (or per tool) is safe in a Worker isolate.
 *
 * @example
 * const shapeLog = createShaper({ maxTokens: 1000, tool: "bash" });
 * const { text, status } = await shapeLog({ stdout, stderr, exitCode: 1 });
 */
export function createShaper(options: ShapeOptions = {}): Shaper {
  const compiled = compileOptions(options);
  let tokenizer: Promise<ResolvedTokenizer> | undefined;
  let contract: Promise<CompiledContract> | undefined;
  const loadContract = (): Promise<CompiledContract> | undefined => {
    const spec = compiled.contract;
    if (spec === undefined) return undefined;
    // The validator loads with the first structured result that needs it, then stays compiled.
    contract ??= import("./structured/contract.js").then((m) => m.compileContract(spec));
    return contract;
  };
  return function shapeResult(input: ShapeInput): Promise<Shaped> {
    tokenizer ??= resolveTokenizer(compiled.tokenizer);
    // A failed load is not cached: the next call tries again.
    tokenizer.catch(() => {
      tokenizer = undefined;
    });
    return run(input, compiled, tokenizer, loadContract);
  };
}

/**
 * Shapes one tool result into what the model should read, within `maxTokens`.
 *
 * @example
 * const { text, status, meta } = await shape(await fetch(url), { maxTokens: 2000, tool: "fetch" });
 */
export async function shape(input: ShapeInput, options?: ShapeOptions): Promise<Shaped> {
  return createShaper(options)(input);
}

function isCommandOutput(input: unknown): input is CommandOutput {
  return (
    typeof input === "object" &&
    input !== null &&
    "stdout" in input &&
    !(typeof Response !== "undefined" && input instanceof Response) &&
    !(typeof Blob !== "undefined" && input instanceof Blob) &&
    !(typeof ReadableStream !== "undefined" && input instanceof ReadableStream)
  );
}

/**
 * Characters the keeper holds: generous, since logs run about 3 characters a token, so there are
 * a few budgets' worth of lines to choose from.
 */
function capacityOf(options: CompiledOptions): number {
  return Math.max(4096, options.maxTokens * 8);
}

/** Keeper and line sizes follow the budget, so memory is O(budget), never O(input). */
function readContext(
  options: CompiledOptions,
  budget: ByteBudget,
  contentType: string | undefined,
): ReadContext {
  const capacity = capacityOf(options);
  return {
    budget,
    contentType,
    keeper: {
      headChars: Math.floor(capacity * 0.25),
      tailChars: Math.floor(capacity * 0.35),
      evidenceChars: Math.floor(capacity * 0.4),
      headLines: Math.ceil(options.maxTokens * 0.5),
      tailLines: Math.ceil(options.maxTokens * 0.7),
    },
    lineCap: Math.min(16384, Math.max(256, options.maxTokens * 2)),
    hashLimit: options.hashLimit,
    ...filtering(options),
  };
}

/** Redaction and invisible-character removal, as the reader runs them on every text source. */
function filtering(options: CompiledOptions): Pick<ReadContext, "filter" | "scrub"> {
  const { redactor, invisible } = options;
  const engine = redactor ? engineOf(redactor) : undefined;
  // A failed source's message is ours to report: it loses stack frames, paths, hosts and
  // secrets whatever the options say (and the host's own rules apply on top).
  const scrub = (text: string): string => {
    const safe = scrubMessage(text) || "the source failed";
    return redactor ? redactor(safe).text : safe;
  };
  if (engine === undefined && !invisible) return { scrub };
  const keepValues = options.fingerprintKey !== undefined ? MAX_FINGERPRINTS : 0;
  return {
    filter: () => createTextFilter({ ...(engine ? { engine } : {}), invisible, keepValues }),
    scrub,
  };
}

/** Fingerprints listed in `meta.redactions`, at most. */
const MAX_FINGERPRINTS = 64;

interface Plan {
  readonly kind: ShapedMeta["kind"];
  readonly sections: ReadResult[];
  readonly header: string[];
  readonly labelled: boolean;
  readonly failed: boolean;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly httpStatus?: number;
  readonly error?: PlanError;
}

async function read(input: ShapeInput, options: CompiledOptions): Promise<Plan> {
  if (isCommandOutput(input)) {
    const sources: Array<["stdout" | "stderr", StreamSource]> = [["stdout", input.stdout]];
    if (input.stderr !== undefined) sources.push(["stderr", input.stderr]);
    const budget = createByteBudget(
      options.maxBytes,
      sources.map(([name, src]) => ({ name, size: knownSize(src) })),
    );
    // Refuse a locked stream before opening the other one, so nothing is left half-read.
    for (const [, src] of sources) assertReadable(src);
    // Read both at once: a child process blocks if one of its pipes is left unread.
    const ctx = readContext(options, budget, options.contentType);
    const results = await Promise.all(sources.map(([name, src]) => readSection(name, src, ctx)));
    const [stdout, stderr] = results as [ReadResult, ReadResult | undefined];
    // The exit status may still be on its way (a promise): it is wanted only now.
    const exitCode = await input.exitCode;
    const signal = await input.signal;
    const header = commandHeader({
      exitCode,
      signal,
      streams: results.map((r) => ({
        name: r.name,
        lines: r.kept?.lines ?? 0,
        bytes: r.bytes,
        capped: r.capped,
      })),
    });
    // stderr first: it is where a failing command says why.
    const sections = [stderr, stdout].filter(
      (s): s is ReadResult => s !== undefined && !isEmptySection(s),
    );
    const failed = (exitCode != null && exitCode !== 0) || signal != null;
    const error = firstError(results);
    return {
      kind: "command",
      sections,
      header: [header],
      labelled: true,
      failed: failed || error !== undefined,
      exitCode: exitCode ?? null,
      signal: signal ?? null,
      ...(error
        ? { error }
        : failed
          ? {
              error: {
                code: "tool/failed",
                message: commandOutcome(exitCode, signal),
                retryable: false,
                kind: "tool",
              },
            }
          : {}),
    };
  }
  if (typeof Response !== "undefined" && input instanceof Response) {
    if (input.bodyUsed) {
      throw new AirlockError(
        "input/unsupported",
        "shape: the Response body was already read; pass a clone()",
      );
    }
    const contentType = options.contentType ?? input.headers.get("content-type") ?? undefined;
    const body: StreamSource = input.body ?? "";
    const budget = createByteBudget(options.maxBytes);
    const section = await readSection("text", body, readContext(options, budget, contentType));
    const failed = !input.ok;
    // The reason phrase comes from the server: it is content, and is cleaned like content.
    const statusText = scrubMessage(input.statusText);
    const error: PlanError | undefined = section.error
      ? readError(section.error)
      : failed
        ? {
            code: "tool/http-error",
            message: `HTTP ${input.status} ${statusText}`.trim(),
            retryable: RETRYABLE_HTTP.has(input.status) || input.status >= 500,
            kind: "tool",
          }
        : undefined;
    return {
      kind: section.binary ? "binary" : "text",
      sections: [section],
      header: failed ? [httpHeader(input.status, statusText)] : [],
      labelled: false,
      failed: failed || section.error !== undefined,
      httpStatus: input.status,
      ...(error ? { error } : {}),
    };
  }
  // Any other type is refused by openSource, which knows the sources; null would crash it first.
  if (input === null || input === undefined) {
    throw new AirlockError(
      "input/unsupported",
      "shape: unsupported input (expected string, bytes, Blob, ReadableStream, Response or { stdout, stderr?, exitCode? })",
    );
  }
  const budget = createByteBudget(options.maxBytes);
  const section = await readSection(
    "text",
    input as StreamSource,
    readContext(options, budget, options.contentType),
  );
  return {
    kind: section.binary ? "binary" : "text",
    sections: [section],
    header: [],
    labelled: false,
    failed: section.error !== undefined,
    ...(section.error ? { error: readError(section.error) } : {}),
  };
}

function isEmptySection(s: ReadResult): boolean {
  return !s.binary && (s.kept?.lines ?? 0) === 0 && !s.capped && !s.error;
}

/** Bytes a source will produce, when that is known before reading (at most, for a string). */
function knownSize(source: StreamSource): number | undefined {
  if (typeof source === "string") return source.length * 3;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source.byteLength;
  if (typeof Blob !== "undefined" && source instanceof Blob) return source.size;
  return undefined;
}

function firstError(results: readonly ReadResult[]): PlanError | undefined {
  for (const r of results) if (r.error) return readError(r.error);
  return undefined;
}

interface PlanError {
  readonly code: ShapedErrorCode;
  readonly message: string;
  readonly retryable: boolean;
  readonly kind: "tool";
}

/** HTTP statuses worth retrying besides 5xx: timeout, too early, too many requests. */
const RETRYABLE_HTTP = new Set([408, 425, 429]);

/** A source that broke while it was read (a reset connection, a killed pipe) may read next time. */
function readError(error: NonNullable<ReadResult["error"]>): PlanError {
  return { code: error.code, message: error.message, retryable: true, kind: "tool" };
}

async function loaded(loading: Promise<ResolvedTokenizer>): Promise<ResolvedTokenizer> {
  try {
    return await loading;
  } catch (cause) {
    throw new AirlockError("fit/tokenizer-failed", "fit: the tokenizer could not be loaded", {
      cause,
    });
  }
}

async function run(
  input: ShapeInput,
  options: CompiledOptions,
  loading: Promise<ResolvedTokenizer>,
  loadContract: () => Promise<CompiledContract> | undefined,
): Promise<Shaped> {
  const routed = await route(input, options);
  if (routed.kind === "structured") {
    const tokenizer = await loaded(loading);
    const contract = await loadContract();
    // The structured stage loads with the first structured result.
    const { shapeStructured } = await import("./structured/shape-structured.js");
    const shaped = await shapeStructured(routed.input, {
      options,
      tokenizer,
      ...(routed.httpStatus !== undefined
        ? { httpStatus: routed.httpStatus, httpFailed: routed.httpFailed === true }
        : {}),
      ...(contract ? { contract } : {}),
    });
    // Sniffed JSON that turns out not to be JSON is text after all, when it can be read again.
    const code = shaped.meta.error?.code;
    if (routed.fallback === undefined || (code !== "json/syntax" && code !== "records/syntax"))
      return shaped;
    return runText(routed.fallback, options, loading);
  }
  if (routed.kind === "html") return runHtml(routed, options, loading);
  return runText(routed.input, options, loading);
}

/**
 * A web page: turned into readable text by the HTML stage (its facts first, hidden content
 * dropped, main content kept), which then takes the text path like any other text; the stage
 * declares on the result what it left out.
 */
async function runHtml(
  routed: Extract<Routed, { kind: "html" }>,
  options: CompiledOptions,
  loading: Promise<ResolvedTokenizer>,
): Promise<Shaped> {
  // htmlparser2 loads with the first page: it stays out of the core chunk.
  const { readPage } = await import("./html/page.js");
  const page = await readPage(
    routed.source,
    {
      maxBytes: options.maxBytes,
      ...(routed.contentType !== undefined ? { contentType: routed.contentType } : {}),
      ...(routed.response?.url ? { baseUrl: routed.response.url } : {}),
    },
    HTML_STREAM_WEIGHT,
  );
  const text = page.text;
  const input: ShapeInput = routed.response
    ? new Response(typeof text === "string" ? text : streamOf(text), {
        status: routed.response.status,
        statusText: routed.response.statusText,
        headers: { "content-type": "text/plain; charset=utf-8" },
      })
    : text;
  return page.declare(await runText(input, { ...options, contentType: "text/plain" }, loading));
}

/**
 * Pages whose light tree would weigh more than this (about 32,000 elements, or 2 M characters
 * of text) are streamed through in full mode instead of held.
 */
const HTML_STREAM_WEIGHT = 2 * 1024 * 1024;

/** Text pieces as a byte stream (for a `Response` body). */
function streamOf(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = pieces[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

async function runText(
  input: ShapeInput,
  options: CompiledOptions,
  loading: Promise<ResolvedTokenizer>,
): Promise<Shaped> {
  const plan = await read(input, options);
  const tokenizer = await loaded(loading);
  const fitted = await fitToBudget(
    {
      sections: plan.sections,
      header: plan.header,
      labelled: plan.labelled,
      maxTokens: options.maxTokens,
      maxBytes: options.maxBytes,
      next: options.next,
      untrusted: options.untrusted,
      tool: options.tool,
      capacity: capacityOf(options),
      ...presentation(options),
    },
    tokenizer,
  );
  const filtered = await filterMeta(plan, options);
  return result(plan, options, tokenizer.name, fitted, filtered);
}

/**
 * What happens to a body on its way out: the last redaction pass (markers and the joins between
 * kept lines are redacted too, so nothing assembled from kept pieces can spell a secret), then
 * spotlighting.
 */
function presentation(options: CompiledOptions): Pick<FitRequest, "present" | "estimate"> {
  const { redactor, spotlight, datamark } = options;
  const spot =
    spotlight === "fence" ? undefined : (text: string) => applySpotlight(spotlight, text, datamark);
  if (redactor === undefined && spot === undefined) return {};
  return {
    present: (body) => {
      const clean = redactor ? redactor(body).text : body;
      return spot ? spot(clean) : clean;
    },
    ...(spot ? { estimate: spot } : {}),
  };
}

type FilterMeta = Pick<ShapedMeta, "redactions" | "invisible">;

/** Redaction and invisible-character counts over every section, with keyed fingerprints. */
async function filterMeta(plan: Plan, options: CompiledOptions): Promise<FilterMeta> {
  const rules: Record<string, number> = {};
  const invisible: InvisibleCounts = { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 };
  const values: Array<readonly [string, string]> = [];
  for (const s of plan.sections) {
    const f = s.filtered;
    if (f === undefined) continue;
    for (const [rule, n] of Object.entries(f.redactions)) rules[rule] = (rules[rule] ?? 0) + n;
    for (const k of Object.keys(invisible) as Array<keyof InvisibleCounts>) {
      invisible[k] += f.invisible[k];
    }
    values.push(...f.values);
  }
  const out: { -readonly [K in keyof FilterMeta]: FilterMeta[K] } = {};
  if (options.redactor) {
    const count = Object.values(rules).reduce((n, c) => n + c, 0);
    let fingerprints: Array<{ rule: string; fingerprint: string }> | undefined;
    if (options.fingerprintKey !== undefined) {
      const key = await importFingerprintKey(options.fingerprintKey);
      fingerprints = await Promise.all(
        values
          .slice(0, MAX_FINGERPRINTS)
          .map(async ([rule, value]) => ({ rule, fingerprint: await fingerprintOf(key, value) })),
      );
    }
    out.redactions = { count, rules, ...(fingerprints ? { fingerprints } : {}) };
  }
  if (options.invisible) {
    const count = Object.values(invisible).reduce((n, c) => n + c, 0);
    out.invisible = { count, ...invisible };
  }
  return out;
}

function result(
  plan: Plan,
  options: CompiledOptions,
  tokenizerName: string,
  fitted: Fitted,
  filtered: FilterMeta,
): Shaped {
  const cuts: Cut[] = [...fitted.cuts];
  if (fitted.collapsed) {
    // Only a notice was shown: every line of every section is omitted.
    for (const s of plan.sections) {
      const lines = s.kept?.lines ?? 0;
      const listed = cuts.some((c) => c.kind === "lines" && c.section === s.name);
      if (lines > 0 && !listed) {
        cuts.push({ kind: "lines", section: s.name, from: 1, to: lines, count: lines, of: lines });
      }
    }
  }
  const shown = new Set<Unit>();
  for (const piece of fitted.layout?.pieces ?? []) if ("unit" in piece) shown.add(piece.unit);
  const sections: SectionMeta[] = plan.sections.map((s) => {
    const lines = s.kept?.lines ?? 0;
    const omitted = cuts.reduce(
      (n, c) => n + (c.kind === "lines" && c.section === s.name ? c.count : 0),
      0,
    );
    let keptEvidence = 0;
    for (const u of s.kept ? collect(s.kept) : []) {
      const visible = fitted.layout ? shown.has(u) : !fitted.collapsed;
      if (visible && u.severity > 0) keptEvidence += u.repeat;
    }
    return {
      name: s.name,
      bytes: s.bytes,
      lines,
      keptLines: lines - omitted,
      evidenceLines: s.kept?.evidenceLines ?? 0,
      keptEvidenceLines: keptEvidence,
      capped: s.capped,
      invalidUtf8: s.invalid,
      ...(s.binary ? { binary: s.binary } : {}),
    };
  });
  const omittedLines = cuts.reduce((n, c) => n + (c.kind === "lines" ? c.count : 0), 0);
  const truncated = cuts.length > 0;
  const blank = plan.sections.every((s) => !s.binary && !s.error && s.blank);
  let status: ShapedStatus = truncated ? "partial" : "ok";
  if (blank) status = "empty";
  if (plan.failed) status = "error";
  const meta: ShapedMeta = {
    kind: plan.kind,
    bytes: plan.sections.reduce((n, s) => n + s.bytes, 0),
    lines: plan.sections.reduce((n, s) => n + (s.kept?.lines ?? 0), 0),
    tokens: fitted.tokens,
    maxTokens: options.maxTokens,
    tokenizer: tokenizerName,
    truncated,
    cuts,
    omittedLines,
    sections,
    ...(fitted.boundary ? { boundary: fitted.boundary } : {}),
    ...(options.tool !== undefined ? { tool: options.tool } : {}),
    ...(plan.kind === "command"
      ? { exitCode: plan.exitCode ?? null, signal: plan.signal ?? null }
      : {}),
    ...(plan.httpStatus !== undefined ? { httpStatus: plan.httpStatus } : {}),
    ...filtered,
    spotlight:
      options.spotlight === "datamark"
        ? { mode: "datamark", marker: options.datamark }
        : { mode: options.spotlight },
    ...(plan.error ? { error: plan.error } : {}),
  };
  return { text: fitted.text, status, meta };
}
