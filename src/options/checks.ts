/** The checks every options object shares: one error code, one wording. */
import { AirlockError } from "../errors/airlock-error.js";

export function fail(message: string): never {
  throw new AirlockError("options/invalid", `options: ${message}`);
}

/** An integer of at least `min`, or the fallback when absent; `maxBytes` also takes `Infinity`. */
export function positiveInteger(name: string, value: unknown, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY && name === "maxBytes") return Number.MAX_SAFE_INTEGER;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    fail(`${name} must be an integer >= ${min} (got ${String(value)})`);
  }
  return value;
}

export function abortSignalOf(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const ok =
    typeof signal === "object" &&
    signal !== null &&
    typeof (signal as AbortSignal).addEventListener === "function" &&
    typeof (signal as AbortSignal).aborted === "boolean";
  if (!ok) fail("abortSignal must be an AbortSignal");
  return signal as AbortSignal;
}

/** A timer's delay: a positive integer a timer can hold (2^31 - 1 ms; more fires at once). */
export function timerMs(name: string, value: unknown, fallback: number): number {
  const ms = positiveInteger(name, value, fallback);
  if (ms > 2 ** 31 - 1) fail(`${name} must be at most ${2 ** 31 - 1} (got ${ms})`);
  return ms;
}
