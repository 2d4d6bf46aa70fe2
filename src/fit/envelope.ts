/**
 * Fitting a structured result: as many records as fit, a prefix of the priority order (which
 * keeps what is shown a prefix of the view and a suffix of it, so cursors can page), with the
 * envelope's summary made shorter level by level when even no record leaves room for it. It uses
 * the same search as lines: estimate per record, count the presented envelope exactly, search.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { Presenter } from "../pipeline/present.js";
import {
  type BuildEnvelope,
  type EnvelopeParts,
  type EnvelopeRequest,
  renderEnvelope,
} from "../render/envelope.js";
import { choose, search } from "./search.js";
import type { ResolvedTokenizer } from "./tokenizer.js";

export interface FittedEnvelope {
  readonly text: string;
  readonly boundary: string | undefined;
  readonly tokens: number;
  /** Records shown: the first `shown` of the candidates. */
  readonly shown: number;
  readonly parts: EnvelopeParts;
  /** The one record shown is a reduced form of the first (it did not fit whole). */
  readonly reduced?: boolean;
}

export type { BuildEnvelope, EnvelopeRequest };

/**
 * @example
 * const fitted = await fitEnvelope({ texts, build, mode: "text", maxTokens: 2000, levels: 5 }, tokenizer, presenter);
 */
export async function fitEnvelope(
  req: EnvelopeRequest,
  tokenizer: ResolvedTokenizer,
  presenter: Presenter,
): Promise<FittedEnvelope> {
  const { texts, build, maxTokens } = req;
  let lastCount = 0;
  const count = async (parts: EnvelopeParts) => {
    const out = await presenter.present(renderEnvelope(parts, req.mode));
    const tokens = await tokenizer.count(out.text);
    lastCount = tokens;
    return { ...out, tokens };
  };
  // Per-record estimates (plus one token for the ",\n" between records); records past several
  // budgets cannot fit, so estimating stops there.
  const costs = new Map<number, number>();
  let spent = 0;
  for (let i = 0; i < texts.length && spent <= maxTokens * 2; i++) {
    const c = (await tokenizer.count(texts[i] as string)) + 1;
    costs.set(i, c);
    spent += c;
  }
  const indices = [...costs.keys()];
  // Whether the chosen records may need a fence's boundary: one of them holds a `<`.
  const holds = indices.some((i) => presenter.holdsFence(texts[i] as string));
  // Every record shown needs no omission notice and no `next` hint: it can fit where an
  // envelope that shows none cannot.
  if (texts.length > 0 && costs.size === texts.length && spent <= maxTokens) {
    const parts = build(texts.length, 0);
    const out = await count(parts);
    if (out.tokens <= maxTokens) return { ...out, shown: texts.length, parts };
  }
  let none: FittedEnvelope | undefined;
  for (let level = 0; level < req.levels && none === undefined; level++) {
    const emptyParts = build(0, level);
    const empty = await count(emptyParts);
    if (empty.tokens > maxTokens) continue;
    const attempt = async (
      _units: readonly number[],
      k: number,
    ): Promise<FittedEnvelope | undefined> => {
      const parts = build(k, level);
      const out = k === 0 ? empty : await count(parts);
      if (k === 0) lastCount = empty.tokens;
      return out.tokens <= maxTokens ? { ...out, shown: k, parts } : undefined;
    };
    const costOf = (i: number) => costs.get(i) ?? 0;
    // Estimated under the largest fence the budget allows: the chosen records may need it.
    const framed = await tokenizer.count(
      (await presenter.framed(renderEnvelope(emptyParts, req.mode), holds)).text,
    );
    const base = framed > maxTokens ? empty.tokens : Math.max(empty.tokens, framed);
    const found = await search({
      choice: choose(indices, (i) => costOf(i), base, maxTokens, false),
      base,
      max: maxTokens,
      total: indices.length,
      costOf,
      lastCount: () => lastCount,
      more: (budget) => choose(indices, (i) => costOf(i), base, budget, false).included,
      attempt,
    });
    if (found && found.shown > 0) return found;
    none = { ...empty, shown: 0, parts: emptyParts };
  }
  // Not even the first record fits whole: show it reduced rather than nothing, so a reader
  // paging with cursors always moves on.
  if (texts.length > 0 && req.shrink !== undefined) {
    for (let step = 0; ; step++) {
      const first = req.shrink(step);
      if (first === undefined) break;
      for (let level = 0; level < req.levels; level++) {
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
