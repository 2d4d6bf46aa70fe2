/**
 * Rounds and `tokenCount: "bound"`. A result bounded by its bytes says what it may cost, not what
 * it costs (CJK text takes about a third of its bytes in tokens), so a budget shared out on bounds
 * alone gives a small result more than it needs and cuts a bigger one that would have fit. Where
 * a bound decides a share, the result is counted (its tokenizer loads then) and shared on that.
 */

import { type Shaped, tokensOf } from "../pipeline/shaped.js";
import type { TokenizerName } from "./encodings/encoding.js";
import { resolveTokenizer } from "./tokenizer.js";

/**
 * `s` with `meta.tokens` counted in place of its `tokenBound` (and its telemetry's `after`
 * likewise); `s` itself when it was counted already.
 *
 * @example
 * const exact = await counted(shaped); // exact.meta.tokens is a number
 */
export async function counted(s: Shaped): Promise<Shaped> {
  if (s.meta.tokens !== undefined || s.meta.tokenBound === undefined) return s;
  const tokenizer = await resolveTokenizer(s.meta.tokenizer as TokenizerName);
  const tokens = await tokenizer.count(s.text);
  const { tokenBound: _bound, telemetry, ...meta } = s.meta;
  const after = telemetry ? (({ bound: _b, ...rest }) => rest)(telemetry.after) : undefined;
  return Object.freeze({
    ...s,
    meta: Object.freeze({
      ...meta,
      tokens,
      ...(telemetry && after
        ? { telemetry: Object.freeze({ ...telemetry, after: Object.freeze({ ...after, tokens }) }) }
        : {}),
    }),
  });
}

/**
 * The results of a round as their shares should be judged: as they are while their needs (bounds
 * included) fit `ceiling` together, else with bounded ones counted, the largest bound first,
 * until they fit (a count is a tokenizer pass over the result: those the ceiling does not need
 * are left bounded).
 *
 * @example
 * const alone = await forRound(await Promise.all(prepared.map((p) => shaper.finish(p))), 6000);
 */
export async function forRound(alone: readonly Shaped[], ceiling: number): Promise<Shaped[]> {
  const out = [...alone];
  let total = out.reduce((n, s) => n + tokensOf(s.meta), 0);
  const bounded = out
    .flatMap((s, i) => (s.meta.tokenBound === undefined ? [] : [{ i, need: tokensOf(s.meta) }]))
    .sort((a, b) => b.need - a.need || a.i - b.i);
  for (const { i, need } of bounded) {
    if (total <= ceiling) break;
    const exact = await counted(out[i] as Shaped);
    total += tokensOf(exact.meta) - need;
    out[i] = exact;
  }
  return out;
}

/**
 * A bounded result given a share below its bound: counted, and kept whole when its tokens fit
 * the share (else undefined: it is to be cut).
 */
export async function withinShare(s: Shaped, share: number): Promise<Shaped | undefined> {
  if (s.meta.tokenBound === undefined) return undefined;
  const exact = await counted(s);
  return (exact.meta.tokens as number) <= share ? exact : undefined;
}
