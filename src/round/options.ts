/**
 * The options of a round: the shape options every call shares, and the round's one budget.
 * Checked like every options object: an unknown name is refused with the nearest known one.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { ShapeInput, ShapeOptions } from "../options/compile.js";
import { MIN_MAX_TOKENS } from "../options/compile.js";
import { checkNames, SHAPE_OPTIONS } from "../options/known.js";

export interface RoundOptions extends ShapeOptions {
  /**
   * The most tokens the round's results take together, fences and markers included. Each call
   * is shaped within at most this (or its own `maxTokens`, when smaller).
   */
  readonly maxRoundTokens: number;
}

/** One call of a round: its result, and its own options over the round's. */
export interface RoundCall {
  readonly input: ShapeInput;
  /** Options for this call only, over the round's (its `maxTokens` caps what it may take). */
  readonly options?: ShapeOptions;
}

export const ROUND_OPTIONS = { ...SHAPE_OPTIONS, maxRoundTokens: true } as const;
const CALL_FIELDS = { input: true, options: true } as const;

/** The least share of a round any call gets (unless it needs less): a one-line notice fits. */
export const MIN_SHARE = MIN_MAX_TOKENS;

/**
 * @example
 * const { maxRoundTokens, defaults } = checkRound({ maxRoundTokens: 6000, tool: "search" });
 */
export function checkRound(options: RoundOptions): {
  readonly maxRoundTokens: number;
  readonly defaults: ShapeOptions;
} {
  if (options === null || typeof options !== "object") {
    throw new AirlockError("options/invalid", "shapeRound: options must be an object");
  }
  checkNames(options, ROUND_OPTIONS, "shapeRound");
  const { maxRoundTokens, ...defaults } = options;
  if (
    typeof maxRoundTokens !== "number" ||
    !Number.isSafeInteger(maxRoundTokens) ||
    maxRoundTokens < MIN_MAX_TOKENS
  ) {
    throw new AirlockError(
      "options/invalid",
      `shapeRound: maxRoundTokens must be an integer >= ${MIN_MAX_TOKENS} (got ${String(maxRoundTokens)})`,
    );
  }
  return { maxRoundTokens, defaults };
}

/**
 * Checks the calls of a round before any is read: an array of `{ input, options? }`, and a
 * budget that gives each at least `MIN_SHARE`.
 *
 * @example
 * checkCalls([{ input: "ok" }], 2000);
 */
export function checkCalls(calls: readonly RoundCall[], maxRoundTokens: number): void {
  if (!Array.isArray(calls)) {
    throw new AirlockError("options/invalid", "shapeRound: calls must be an array of { input }");
  }
  for (const [i, call] of calls.entries()) {
    if (call === null || typeof call !== "object" || !("input" in call)) {
      throw new AirlockError(
        "options/invalid",
        `shapeRound: calls[${i}] must be { input, options? }`,
      );
    }
    checkNames(call, CALL_FIELDS, `shapeRound: calls[${i}]`);
    const own: unknown = call.options;
    if (own !== undefined && (own === null || typeof own !== "object")) {
      throw new AirlockError(
        "options/invalid",
        `shapeRound: calls[${i}].options must be an object`,
      );
    }
  }
  if (calls.length * MIN_SHARE > maxRoundTokens) {
    throw new AirlockError(
      "options/invalid",
      `shapeRound: maxRoundTokens (${maxRoundTokens}) is below ${MIN_SHARE} tokens for each of ${calls.length} calls`,
    );
  }
}

/** The options one call is shaped with: the round's, its own, and its cap. */
export function callOptions(
  defaults: ShapeOptions,
  own: ShapeOptions | undefined,
  maxRoundTokens: number,
): ShapeOptions {
  const merged = own === undefined ? defaults : { ...defaults, ...own };
  const asked = merged.maxTokens ?? maxRoundTokens;
  // A maxTokens that is not a number is left for compileOptions to refuse, as it says.
  return {
    ...merged,
    maxTokens: typeof asked === "number" ? Math.min(asked, maxRoundTokens) : asked,
  };
}
