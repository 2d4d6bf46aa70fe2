/**
 * The `onShaped` hook, called once per call with `meta.telemetry`. Telemetry must never cost a
 * result: a hook that throws is noted in `meta` and shaping goes on; a promise it returns is not
 * awaited, and its rejection is caught so it cannot surface as an unhandled rejection.
 */
import type { Shaped, ShapedTelemetry } from "../pipeline/shaped.js";

export type OnShaped = (telemetry: ShapedTelemetry) => void;

/**
 * @example
 * const shaped = report(withTelemetry(result, call), options.onShaped);
 */
export function report(shaped: Shaped, hook: OnShaped | undefined): Shaped {
  // Read only for a hook: telemetry is built when first read.
  if (hook === undefined) return shaped;
  const telemetry = shaped.meta.telemetry;
  if (telemetry === undefined) return shaped;
  try {
    const returned: unknown = hook(telemetry);
    if (
      typeof returned === "object" &&
      returned !== null &&
      typeof (returned as PromiseLike<unknown>).then === "function"
    ) {
      (returned as PromiseLike<unknown>).then(undefined, () => undefined);
    }
    return shaped;
  } catch {
    const noted: ShapedTelemetry = Object.freeze({ ...telemetry, hook: "threw" });
    return { ...shaped, meta: { ...shaped.meta, telemetry: noted } };
  }
}

/**
 * The same result with this call's place in a round and the share it got, in its telemetry.
 *
 * @example
 * withRound(shaped, { index: 0, calls: 3, need: 900, share: 600, maxRoundTokens: 2000 });
 */
export function withRound(shaped: Shaped, round: NonNullable<ShapedTelemetry["round"]>): Shaped {
  const telemetry = shaped.meta.telemetry;
  if (telemetry === undefined) return shaped;
  const placed: ShapedTelemetry = Object.freeze({
    ...telemetry,
    round: Object.freeze({ ...round }),
  });
  return { ...shaped, meta: { ...shaped.meta, telemetry: placed } };
}
