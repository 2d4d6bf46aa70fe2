/**
 * The one envelope every structured result is rendered in, and the fit that chooses how many
 * records it shows. The keys are always the same, in the same order: `status`, `summary`,
 * `data`, `omitted`, `next`. In `text` form the summary is prose (only the model reads it) and
 * `data` is JSON (a program may read it); in `json` form the whole envelope is one JSON object.
 */
import { AirlockError } from "../errors/codes.js";
import { fence } from "../fence/fence.js";
import { applySpotlight, type SpotlightMode } from "../fence/spotlight.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";

export type EnvelopeMode = "text" | "json";

export interface EnvelopeParts {
  readonly status: "ok" | "partial" | "empty" | "error";
  readonly summary: string;
  /** The data as JSON text (records one per line), or undefined when none is shown. */
  readonly data: string | undefined;
  readonly omitted?: { readonly count: number; readonly reason: string };
  readonly next?: string;
}

/**
 * Writes the envelope.
 *
 * @example
 * renderEnvelope({ status: "ok", summary: "2 records", data: '[\n{"a":1},\n{"a":2}\n]' }, "text");
 */
export function renderEnvelope(parts: EnvelopeParts, mode: EnvelopeMode): string {
  if (mode === "json") {
    const out = [
      `{"status":${JSON.stringify(parts.status)}`,
      `"summary":${JSON.stringify(parts.summary)}`,
    ];
    if (parts.data !== undefined) out.push(`"data":${parts.data}`);
    if (parts.omitted) out.push(`"omitted":${JSON.stringify(parts.omitted)}`);
    if (parts.next) out.push(`"next":${JSON.stringify(parts.next)}`);
    return `${out.join(",\n")}}`;
  }
  const lines = [`status: ${parts.status}`, `summary: ${parts.summary}`];
  if (parts.data !== undefined) lines.push(`data: ${parts.data}`);
  if (parts.omitted) lines.push(`omitted: ${JSON.stringify(parts.omitted)}`);
  if (parts.next) lines.push(`next: ${parts.next}`);
  return lines.join("\n");
}

/** Records as a JSON array, one per line. */
export function recordsJson(texts: readonly string[]): string {
  return texts.length === 0 ? "[]" : `[\n${texts.join(",\n")}\n]`;
}

export interface Presentation {
  readonly mode: EnvelopeMode;
  readonly untrusted: boolean;
  readonly tool: string | undefined;
  readonly spotlight: SpotlightMode;
  readonly datamark: string;
}

/** The envelope as the model reads it: spotlighted and fenced. */
export async function present(
  parts: EnvelopeParts,
  how: Presentation,
): Promise<{ text: string; boundary: string | undefined }> {
  let body = renderEnvelope(parts, how.mode);
  if (how.spotlight !== "fence") body = applySpotlight(how.spotlight, body, how.datamark);
  if (!how.untrusted) return { text: body, boundary: undefined };
  return fence(body, how.tool);
}

export interface FittedEnvelope {
  readonly text: string;
  readonly boundary: string | undefined;
  readonly tokens: number;
  /** Records shown. */
  readonly shown: number;
  readonly parts: EnvelopeParts;
  /** The one record shown is a reduced form of the first (it did not fit whole). */
  readonly reduced?: boolean;
}

/** Writes the envelope for `n` records at summary `level`; `first` replaces the first record's text. */
export type BuildEnvelope = (n: number, level: number, first?: string) => EnvelopeParts;

/**
 * Shows as many records (a prefix of `texts`, which are in view order) as fit in `maxTokens`
 * with their envelope. `build(n, level)` writes the envelope for `n` records; `level` (0, 1, 2…)
 * asks for a shorter summary, used when even no record leaves room for the full one. Only text
 * of about the budget's size is counted: records are estimated one by one, then the rendered
 * envelope is counted exactly, and records are dropped until it fits.
 */
export async function fitEnvelope(
  texts: readonly string[],
  build: BuildEnvelope,
  how: Presentation,
  tokenizer: ResolvedTokenizer,
  maxTokens: number,
  levels = 4,
  /** Smaller and smaller forms of the first record, tried when not even it fits whole. */
  shrink?: (step: number) => string | undefined,
): Promise<FittedEnvelope> {
  const count = async (parts: EnvelopeParts) => {
    const out = await present(parts, how);
    return { ...out, tokens: await tokenizer.count(out.text) };
  };
  // Per-record estimates (plus one token for the ",\n" between records).
  const costs: number[] = [];
  let spent = 0;
  for (const t of texts) {
    // Records past several budgets cannot fit: stop estimating there.
    if (spent > maxTokens * 2) break;
    const c = (await tokenizer.count(t)) + 1;
    costs.push(c);
    spent += c;
  }
  // Every record shown needs no omission notice and no `next` hint: it can fit where an
  // envelope that shows none cannot.
  if (texts.length > 0 && costs.length === texts.length && spent <= maxTokens) {
    const parts = build(texts.length, 0);
    const out = await count(parts);
    if (out.tokens <= maxTokens) return { ...out, shown: texts.length, parts };
  }
  let none: FittedEnvelope | undefined;
  for (let level = 0; level < levels && none === undefined; level++) {
    const empty = await count(build(0, level));
    if (empty.tokens > maxTokens) continue;
    let n = 0;
    let room = maxTokens - empty.tokens;
    while (n < costs.length && (costs[n] as number) <= room) room -= costs[n++] as number;
    for (;;) {
      if (n === 0) {
        none = { ...empty, shown: 0, parts: build(0, level) };
        break;
      }
      const parts = build(n, level);
      const out = await count(parts);
      if (out.tokens <= maxTokens) return { ...out, shown: n, parts };
      const average = costs.slice(0, n).reduce((a, b) => a + b, 0) / n;
      n = Math.max(0, n - Math.max(1, Math.ceil((out.tokens - maxTokens) / Math.max(1, average))));
    }
  }
  // Not even the first record fits whole: show it reduced rather than nothing, so a reader
  // paging with cursors always moves on.
  if (texts.length > 0 && shrink !== undefined) {
    for (let step = 0; ; step++) {
      const first = shrink(step);
      if (first === undefined) break;
      for (let level = 0; level < levels; level++) {
        const parts = build(1, level, first);
        const out = await count(parts);
        if (out.tokens <= maxTokens) return { ...out, shown: 1, parts, reduced: true };
      }
    }
  }
  if (none !== undefined) return none;
  // Not even the shortest envelope fits: the minimum budget makes this unreachable for the
  // built-in tokenizers; a custom counter that counts very high may still get here.
  throw new AirlockError(
    "fit/budget-too-small",
    `fit: maxTokens (${maxTokens}) cannot hold even the shortest envelope under tokenizer "${tokenizer.name}"`,
  );
}
