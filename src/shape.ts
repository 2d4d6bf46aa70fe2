import { foldLongRuns } from "./decode/normalize.js";
import { AirlockError } from "./errors.js";
import { type Fenced, fence } from "./fence/fence.js";
import { rank } from "./fit/rank.js";
import { type ResolvedTokenizer, resolveTokenizer } from "./fit/tokenizer.js";
import { type ByteBudget, type ReadContext, type ReadResult, readSection } from "./intake/read.js";
import type { Unit } from "./keep/keeper.js";
import {
  type CommandOutput,
  type CompiledOptions,
  compileOptions,
  type ShapeInput,
  type ShapeOptions,
  type StreamSource,
} from "./options.js";
import { commandHeader, emptyMarker, httpHeader, sectionMarker } from "./render/markers.js";
import { collect, join, type Layout, layout } from "./render/render.js";
import type { Cut, SectionMeta, SectionName, Shaped, ShapedMeta, ShapedStatus } from "./types.js";

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
  return function shapeResult(input: ShapeInput): Promise<Shaped> {
    tokenizer ??= resolveTokenizer(compiled.tokenizer);
    // A failed load is not cached: the next call tries again.
    tokenizer.catch(() => {
      tokenizer = undefined;
    });
    return run(input, compiled, tokenizer);
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

/** Keeper and line sizes follow the budget, so memory is O(budget), never O(input). */
function readContext(
  options: CompiledOptions,
  budget: ByteBudget,
  contentType: string | undefined,
): ReadContext {
  // Generous: logs run about 3 characters a token, so this holds a few budgets' worth to choose from.
  const capacity = Math.max(4096, options.maxTokens * 8);
  return {
    budget,
    contentType,
    keeper: {
      headChars: Math.floor(capacity * 0.25),
      tailChars: Math.floor(capacity * 0.35),
      evidenceChars: Math.floor(capacity * 0.4),
    },
    lineCap: Math.min(16384, Math.max(256, options.maxTokens * 2)),
    hashLimit: options.hashLimit,
  };
}

interface Plan {
  readonly kind: ShapedMeta["kind"];
  readonly sections: ReadResult[];
  readonly header: string[];
  readonly labelled: boolean;
  readonly failed: boolean;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly httpStatus?: number;
  readonly error?: { code: string; message: string };
}

async function read(input: ShapeInput, options: CompiledOptions): Promise<Plan> {
  const budget: ByteBudget = { remaining: options.maxBytes };
  if (isCommandOutput(input)) {
    const sources: Array<["stdout" | "stderr", StreamSource]> = [["stdout", input.stdout]];
    if (input.stderr !== undefined) sources.push(["stderr", input.stderr]);
    // Read both at once: a child process blocks if one of its pipes is left unread.
    const ctx = readContext(options, budget, options.contentType);
    const results = await Promise.all(sources.map(([name, src]) => readSection(name, src, ctx)));
    const [stdout, stderr] = results as [ReadResult, ReadResult | undefined];
    const exitCode = input.exitCode;
    const signal = input.signal;
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
          ? { error: { code: "tool/failed", message: header.slice(10, -1) } }
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
    const section = await readSection("text", body, readContext(options, budget, contentType));
    const failed = !input.ok;
    const error =
      section.error ??
      (failed
        ? { code: "tool/http-error", message: `HTTP ${input.status} ${input.statusText}`.trim() }
        : undefined);
    return {
      kind: section.binary ? "binary" : "text",
      sections: [section],
      header: failed ? [httpHeader(input.status, input.statusText)] : [],
      labelled: false,
      failed: failed || section.error !== undefined,
      httpStatus: input.status,
      ...(error ? { error } : {}),
    };
  }
  if (input === null || input === undefined || (typeof input === "object" && !isSource(input))) {
    throw new AirlockError(
      "input/unsupported",
      "shape: unsupported input (expected string, bytes, Blob, ReadableStream, Response or { stdout, stderr?, exitCode? })",
    );
  }
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
    ...(section.error ? { error: section.error } : {}),
  };
}

function isSource(input: object): boolean {
  return (
    input instanceof Uint8Array ||
    input instanceof ArrayBuffer ||
    ArrayBuffer.isView(input) ||
    (typeof Blob !== "undefined" && input instanceof Blob) ||
    (typeof ReadableStream !== "undefined" && input instanceof ReadableStream)
  );
}

function isEmptySection(s: ReadResult): boolean {
  return !s.binary && (s.kept?.lines ?? 0) === 0 && !s.capped;
}

function firstError(results: readonly ReadResult[]): { code: string; message: string } | undefined {
  for (const r of results) if (r.error) return r.error;
  return undefined;
}

async function run(
  input: ShapeInput,
  options: CompiledOptions,
  loading: Promise<ResolvedTokenizer>,
): Promise<Shaped> {
  const plan = await read(input, options);
  let tokenizer: ResolvedTokenizer;
  try {
    tokenizer = await loading;
  } catch (cause) {
    throw new AirlockError("fit/tokenizer-failed", "fit: the tokenizer could not be loaded", {
      cause,
    });
  }
  return fitToBudget(plan, options, tokenizer);
}

async function fitToBudget(
  plan: Plan,
  options: CompiledOptions,
  tokenizer: ResolvedTokenizer,
): Promise<Shaped> {
  const max = options.maxTokens;
  const sections = plan.sections;

  // Text of each unit as it may reach a tokenizer: long single-class runs folded.
  const folded = new Map<Unit, { text: string; folded: number }>();
  const textOf = (unit: Unit): string => {
    let entry = folded.get(unit);
    if (entry === undefined) {
      entry = foldLongRuns(unit.text);
      folded.set(unit, entry);
    }
    return entry.text;
  };
  const wrap = async (body: string): Promise<Fenced | { text: string; boundary?: undefined }> =>
    options.untrusted ? fence(body, options.tool) : { text: body };

  const finish = async (
    body: string,
    lay: Layout | undefined,
    foldedCuts: Cut[],
  ): Promise<Shaped | undefined> => {
    const wrapped = await wrap(body);
    const tokens = await tokenizer.count(wrapped.text);
    if (tokens > max) return undefined;
    return result(plan, options, tokenizer.name, wrapped, tokens, lay, foldedCuts);
  };

  // 1. Everything held and small enough: the text as it was, no markers.
  const verbatim = verbatimBody(plan, options);
  if (verbatim !== undefined) {
    const done = await finish(verbatim, undefined, []);
    if (done) return done;
  }

  // 2. Rank every held unit by value and take the longest prefix of that order that fits.
  const tokenCache = new Map<Unit, number>();
  const all: Unit[] = [];
  const sectionOf = new Map<Unit, SectionName>();
  for (const s of sections) {
    if (!s.kept) continue;
    for (const unit of collect(s.kept)) {
      all.push(unit);
      sectionOf.set(unit, s.name);
    }
  }
  for (const unit of all) tokenCache.set(unit, await tokenizer.count(`${textOf(unit)}\n`));
  const tokensOf = (unit: Unit): number => tokenCache.get(unit) ?? 0;
  const stderrPresent = sections.some((s) => s.name === "stderr");
  const order = rank(
    sections.flatMap((s) =>
      s.kept ? [{ kept: s.kept, weight: s.name === "stdout" && stderrPresent ? 0.45 : 1 }] : [],
    ),
    tokensOf,
  );

  const markerCache = new Map<string, number>();
  const fenceCost = options.untrusted
    ? await tokenizer.count((await fence("", options.tool)).text)
    : 0;
  const lay = (k: number, next: string | undefined): Layout =>
    layout(sections, new Set(order.slice(0, k)), {
      header: plan.header,
      maxBytes: options.maxBytes,
      next,
      labelled: plan.labelled,
    });
  const estimate = async (k: number, next: string | undefined): Promise<number> => {
    let total = fenceCost;
    for (const piece of lay(k, next).pieces) {
      if ("unit" in piece) {
        total += tokensOf(piece.unit);
      } else {
        let n = markerCache.get(piece.marker);
        if (n === undefined) {
          n = await tokenizer.count(`${piece.marker}\n`);
          markerCache.set(piece.marker, n);
        }
        total += n;
      }
    }
    return total;
  };
  const attempt = async (k: number, next: string | undefined): Promise<Shaped | undefined> => {
    const l = lay(k, next);
    const body = join(l.pieces, textOf);
    return finish(body, l, foldCuts(l, folded, sectionOf));
  };

  for (const next of [options.next, undefined]) {
    // Largest k whose estimate fits; the estimate sums per-line counts, so it is close but not exact.
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if ((await estimate(mid, next)) <= max) lo = mid;
      else hi = mid - 1;
    }
    const first = await attempt(lo, next);
    if (first) return first;
    // The exact count disagreed: search below with exact counts.
    let good: Shaped | undefined;
    let low = 0;
    let high = lo - 1;
    while (low <= high) {
      const mid = Math.floor((low + high) / 2);
      const shaped = await attempt(mid, next);
      if (shaped) {
        good = shaped;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (good) return good;
  }
  // Even the markers alone do not fit (a tiny budget and many sections): say only that.
  const fallback = "[airlock: result omitted: it does not fit maxTokens]";
  const wrapped = await wrap(fallback);
  const tokens = await tokenizer.count(wrapped.text);
  if (tokens <= max)
    return result(plan, options, tokenizer.name, wrapped, tokens, lay(0, undefined), [], true);
  const bare = { text: "[airlock: omitted]" };
  return result(
    plan,
    options,
    tokenizer.name,
    bare,
    await tokenizer.count(bare.text),
    lay(0, undefined),
    [],
    true,
  );
}

/** The body with every line as it was (repeats expanded), or undefined when anything was dropped. */
function verbatimBody(plan: Plan, options: CompiledOptions): string | undefined {
  const limit = Math.max(4096, options.maxTokens * 8);
  let size = 0;
  const parts: string[] = [...plan.header];
  for (const s of plan.sections) {
    if (s.binary || s.capped || !s.kept || !s.kept.complete) return undefined;
    if ((s.kept?.lines ?? 0) === 0) continue;
    if (plan.labelled) parts.push(sectionMarker(s.name));
    for (const unit of [...s.kept.head, ...s.kept.tail]) {
      if (unit.omittedChars > 0 || foldLongRuns(unit.text).folded > 0) return undefined;
      size += (unit.text.length + 1) * unit.repeat;
      if (size > limit) return undefined;
      for (let i = 0; i < unit.repeat; i++) parts.push(unit.text);
    }
  }
  if (parts.length === plan.header.length) parts.push(emptyMarker());
  return parts.join("\n");
}

function foldCuts(
  l: Layout,
  folded: ReadonlyMap<Unit, { folded: number }>,
  sectionOf: ReadonlyMap<Unit, SectionName>,
): Cut[] {
  const cuts: Cut[] = [];
  for (const piece of l.pieces) {
    if (!("unit" in piece)) continue;
    const n = folded.get(piece.unit)?.folded ?? 0;
    const section = sectionOf.get(piece.unit) ?? "text";
    if (n > 0) cuts.push({ kind: "chars", section, line: piece.unit.index, count: n });
  }
  return cuts;
}

function result(
  plan: Plan,
  options: CompiledOptions,
  tokenizerName: string,
  wrapped: { text: string; boundary?: string },
  tokens: number,
  lay: Layout | undefined,
  foldedCuts: Cut[],
  collapsed = false,
): Shaped {
  const cuts: Cut[] = [...(lay?.cuts ?? []), ...foldedCuts];
  if (collapsed) {
    for (const s of plan.sections) {
      const lines = s.kept?.lines ?? 0;
      if (lines > 0 && !cuts.some((c) => c.kind === "lines" && c.section === s.name)) {
        cuts.push({ kind: "lines", section: s.name, from: 1, to: lines, count: lines });
      }
    }
  }
  const sectionMeta: SectionMeta[] = plan.sections.map((s) => {
    const lines = s.kept?.lines ?? 0;
    const omitted = cuts
      .filter(
        (c): c is Extract<Cut, { kind: "lines" }> => c.kind === "lines" && c.section === s.name,
      )
      .reduce((n, c) => n + c.count, 0);
    const keptEvidence =
      lay && !collapsed ? countKeptEvidence(lay, s) : lay ? 0 : (s.kept?.evidenceLines ?? 0);
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
  const blank = plan.sections.every((s) => !s.binary && s.blank);
  let status: ShapedStatus = truncated ? "partial" : "ok";
  if (blank) status = "empty";
  if (plan.failed) status = "error";
  const meta: ShapedMeta = {
    kind: plan.kind,
    bytes: plan.sections.reduce((n, s) => n + s.bytes, 0),
    lines: plan.sections.reduce((n, s) => n + (s.kept?.lines ?? 0), 0),
    tokens,
    maxTokens: options.maxTokens,
    tokenizer: tokenizerName,
    truncated,
    cuts,
    omittedLines,
    sections: sectionMeta,
    ...(wrapped.boundary ? { boundary: wrapped.boundary } : {}),
    ...(options.tool !== undefined ? { tool: options.tool } : {}),
    ...(plan.kind === "command"
      ? { exitCode: plan.exitCode ?? null, signal: plan.signal ?? null }
      : {}),
    ...(plan.httpStatus !== undefined ? { httpStatus: plan.httpStatus } : {}),
    ...(plan.error ? { error: plan.error } : {}),
  };
  return { text: wrapped.text, status, meta };
}

function countKeptEvidence(lay: Layout, section: ReadResult): number {
  const units = section.kept ? new Set(collect(section.kept)) : new Set<Unit>();
  let n = 0;
  for (const piece of lay.pieces)
    if ("unit" in piece && units.has(piece.unit) && piece.unit.severity > 0) n += piece.unit.repeat;
  return n;
}
