/**
 * A round: the parallel tool results of one model turn, shaped under one budget. Two phases,
 * so no input is held whole and the first to finish does not take everything: every input is
 * read and kept at once, each within its own byte cap and with the round's budget as its
 * `maxTokens` (memory O(budget) each); then each result's need (its tokens when shaped alone) is
 * measured, the budget is shared out by water-filling, and each result over its share is fitted
 * again to it.
 */
import { AirlockError } from "./errors/airlock-error.js";
import { forRound, withinShare } from "./fit/recount.js";
import type { ShapeOptions } from "./options/compile.js";
import type { Shaped } from "./pipeline/shaped.js";
import { tokensOf } from "./pipeline/shaped.js";
import { allocate } from "./round/allocate.js";
import {
  callOptions,
  checkRound,
  MIN_SHARE,
  type RoundCall,
  type RoundOptions,
  readCalls,
} from "./round/options.js";
import { type CompiledShaper, compileShaper, type Prepared } from "./shape.js";
import { withRound } from "./telemetry/hook.js";

export type RoundShaper = (calls: readonly RoundCall[]) => Promise<Shaped[]>;

/**
 * Compiles a round's options once (and each call's own options once per options object).
 *
 * @example
 * const shapeTurn = createRoundShaper({ maxRoundTokens: 6000, tool: "search" });
 * const [a, b, c] = await shapeTurn([{ input: page }, { input: log }, { input: "ok" }]);
 */
export function createRoundShaper(options: RoundOptions): RoundShaper {
  const { maxRoundTokens, defaults } = checkRound(options);
  const shared = compileShaper(callOptions(defaults, undefined, maxRoundTokens));
  const own = new WeakMap<ShapeOptions, CompiledShaper>();
  const shaperOf = (call: RoundCall, i: number): CompiledShaper => {
    if (call.options === undefined) return shared;
    let shaper = own.get(call.options);
    if (shaper === undefined) {
      try {
        shaper = compileShaper(callOptions(defaults, call.options, maxRoundTokens));
      } catch (error) {
        if (!(error instanceof AirlockError)) throw error;
        throw new AirlockError(error.code, `shapeRound: calls[${i}]: ${error.message}`, {
          cause: error,
        });
      }
      own.set(call.options, shaper);
    }
    return shaper;
  };

  return async function shapeRoundCalls(list: readonly RoundCall[]): Promise<Shaped[]> {
    // Each call read once, as plain values: the list, a call or its input may be a Proxy.
    const calls = readCalls(list, maxRoundTokens);
    const shapers = calls.map(shaperOf);
    // Every input is read at once; all are settled before a failure is thrown, so none is left
    // half-read behind it.
    const settled = await Promise.allSettled(calls.map((c, i) => at(shapers, i).prepare(c.input)));
    const failed = settled.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const prepared = settled.map((r) => (r as PromiseFulfilledResult<Prepared>).value);
    // Measured without a summariser's hop: it is asked once, at the result's final share.
    const alone = await forRound(
      await Promise.all(prepared.map((p, i) => at(shapers, i).finish(p, undefined, false))),
      maxRoundTokens,
    );
    const needs = alone.map((s) => tokensOf(s.meta));
    const shares = allocate(needs, maxRoundTokens, { min: MIN_SHARE });
    const fitted = await Promise.all(
      alone.map(async (s, i) => {
        const shaper = at(shapers, i);
        const p = prepared[i] as Prepared;
        const share = shares[i] as number;
        const fits = share >= (needs[i] as number);
        if (shaper.summarizes && s.meta.truncated) return shaper.finish(p, share);
        return fits ? s : ((await withinShare(s, share)) ?? shaper.finish(p, share));
      }),
    );
    return fitted.map((s, i) =>
      at(shapers, i).report(
        withRound(s, {
          index: i,
          calls: calls.length,
          need: needs[i] as number,
          share: shares[i] as number,
          maxRoundTokens,
        }),
      ),
    );
  };
}

function at(shapers: readonly CompiledShaper[], i: number): CompiledShaper {
  return shapers[i] as CompiledShaper;
}

/**
 * Shapes the parallel results of one turn so that together they fit `maxRoundTokens`: a result
 * that needs less than its fair share gets exactly what it needs, the rest share the remainder
 * max-min fairly. Results come back in the order of the calls, and a call's result does not
 * depend on that order.
 *
 * @example
 * const results = await shapeRound(
 *   [{ input: await fetch(url) }, { input: { stdout, stderr, exitCode } }, { input: "done" }],
 *   { maxRoundTokens: 6000 },
 * );
 */
export async function shapeRound(
  calls: readonly RoundCall[],
  options: RoundOptions,
): Promise<Shaped[]> {
  return createRoundShaper(options)(calls);
}
