/**
 * The budget planner: the arithmetic of "a third of the window for tool results, divided by the
 * calls you expect". A tool result stays in the conversation for the rest of the run (it is sent
 * again on every later turn), so the results of a whole run must fit in the window together with
 * what never leaves it: the system prompt, the tool definitions, and the room kept for the
 * model's answer.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { MIN_MAX_TOKENS } from "../options/compile.js";
import { checkNames } from "../options/known.js";

export interface BudgetInputs {
  /** The model's context window, in tokens. */
  readonly contextWindow: number;
  /** Tokens of the system prompt (and anything else sent on every turn). Default 0. */
  readonly systemPromptTokens?: number;
  /** Tokens of the tool definitions sent with every request. Default 0. */
  readonly toolDefinitionTokens?: number;
  /** Tokens kept free for the model's output (`max_tokens` of the request). Default 0. */
  readonly reservedOutputTokens?: number;
  /** Tool calls expected in one run, all rounds together. */
  readonly callsPerRun: number;
  /** Parallel calls expected in one round (one model turn). Default 1. */
  readonly callsPerRound?: number;
  /**
   * Share of what is left for tool results; the rest is for the user's messages and the
   * model's own turns. Default 1/3.
   */
  readonly toolShare?: number;
}

export interface BudgetPlan {
  /** The window less the system prompt, the tool definitions and the reserved output. */
  readonly available: number;
  /** Tokens for the tool results of one run: `available × toolShare`. */
  readonly toolResults: number;
  /** The `maxTokens` of one call: `toolResults ÷ callsPerRun`. */
  readonly maxTokens: number;
  /** The `maxRoundTokens` of one round: `maxTokens × callsPerRound`. */
  readonly maxRoundTokens: number;
  readonly callsPerRun: number;
  readonly callsPerRound: number;
}

const INPUTS = {
  contextWindow: true,
  systemPromptTokens: true,
  toolDefinitionTokens: true,
  reservedOutputTokens: true,
  callsPerRun: true,
  callsPerRound: true,
  toolShare: true,
} as const satisfies { readonly [K in keyof Required<BudgetInputs>]: true };

function count(name: string, value: unknown, fallback: number | undefined, min: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new AirlockError(
      "options/invalid",
      `planBudget: ${name} must be an integer >= ${min} (got ${String(value)})`,
    );
  }
  return value;
}

/**
 * Per-call and per-round budgets for a run. Throws `options/invalid` when the inputs leave no
 * room, or less than the smallest budget (`MIN_MAX_TOKENS`) per call, saying how many calls fit.
 *
 * @example
 * planBudget({ contextWindow: 128_000, systemPromptTokens: 2_000, toolDefinitionTokens: 3_000,
 *   reservedOutputTokens: 8_000, callsPerRun: 30, callsPerRound: 3 });
 * // { available: 115000, toolResults: 38333, maxTokens: 1277, maxRoundTokens: 3831, … }
 */
export function planBudget(inputs: BudgetInputs): BudgetPlan {
  if (inputs === null || typeof inputs !== "object") {
    throw new AirlockError("options/invalid", "planBudget: inputs must be an object");
  }
  checkNames(inputs, INPUTS, "planBudget");
  const window = count("contextWindow", inputs.contextWindow, undefined, 1);
  const fixed =
    count("systemPromptTokens", inputs.systemPromptTokens, 0, 0) +
    count("toolDefinitionTokens", inputs.toolDefinitionTokens, 0, 0) +
    count("reservedOutputTokens", inputs.reservedOutputTokens, 0, 0);
  const callsPerRun = count("callsPerRun", inputs.callsPerRun, undefined, 1);
  const callsPerRound = count("callsPerRound", inputs.callsPerRound, 1, 1);
  const share = inputs.toolShare ?? 1 / 3;
  if (typeof share !== "number" || !(share > 0 && share <= 1)) {
    throw new AirlockError(
      "options/invalid",
      `planBudget: toolShare must be a number in (0, 1] (got ${String(share)})`,
    );
  }
  if (callsPerRound > callsPerRun) {
    throw new AirlockError(
      "options/invalid",
      `planBudget: callsPerRound (${callsPerRound}) is more than callsPerRun (${callsPerRun})`,
    );
  }
  const available = window - fixed;
  const toolResults = Math.floor(Math.max(0, available) * share);
  const maxTokens = Math.floor(toolResults / callsPerRun);
  if (maxTokens < MIN_MAX_TOKENS) {
    const fit = Math.floor(toolResults / MIN_MAX_TOKENS);
    throw new AirlockError(
      "options/invalid",
      `planBudget: ${toolResults} tokens for tool results leave ${maxTokens} per call for ${callsPerRun} calls, below the minimum of ${MIN_MAX_TOKENS}; ${fit} calls fit`,
    );
  }
  return Object.freeze({
    available,
    toolResults,
    maxTokens,
    maxRoundTokens: maxTokens * callsPerRound,
    callsPerRun,
    callsPerRound,
  });
}
