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
 * An input that could not even be handed over (a getter that threw, a Proxy's trap): read as a
 * source that fails at once, so its result says that reading failed, like any failed read.
 */
function unreadable(what: string): ShapeInput {
  return new ReadableStream({
    start(controller) {
      controller.error(new Error(`${what} could not be read`));
    },
  });
}

/**
 * Checks the calls of a round before any is read, and reads each once: an array of
 * `{ input, options? }`, and a budget that gives each at least `MIN_SHARE`. A list that is not
 * one, a call that is not an object, an unknown field or options that are not an object are the
 * host's mistakes (`options/invalid`). A call or an input that cannot be read (a getter that
 * throws, a Proxy) is content: its result says so, and the other calls are shaped as ever.
 *
 * @example
 * const calls = readCalls([{ input: "ok" }], 2000); // [{ input: "ok" }]
 */
export function readCalls(calls: readonly RoundCall[], maxRoundTokens: number): RoundCall[] {
  const refuse = (message: string): never => {
    throw new AirlockError("options/invalid", `shapeRound: ${message}`);
  };
  let length: unknown;
  try {
    length = Array.isArray(calls) ? calls.length : undefined;
  } catch {
    refuse("calls cannot be read (a Proxy or a getter threw)");
  }
  if (typeof length !== "number" || !Number.isSafeInteger(length) || length < 0)
    refuse("calls must be an array of { input }");
  const n = length as number;
  if (n * MIN_SHARE > maxRoundTokens) {
    refuse(
      `maxRoundTokens (${maxRoundTokens}) is below ${MIN_SHARE} tokens for each of ${n} calls`,
    );
  }
  const out: RoundCall[] = [];
  for (let i = 0; i < n; i++) {
    let call: unknown;
    let keys: string[];
    try {
      call = calls[i];
      if (call === null || typeof call !== "object") {
        refuse(`calls[${i}] must be { input, options? }`);
      }
      keys = Object.keys(call as object);
    } catch (error) {
      if (error instanceof AirlockError) throw error;
      out.push({ input: unreadable(`call ${i}`) });
      continue;
    }
    if (!keys.includes("input")) refuse(`calls[${i}] must be { input, options? }`);
    checkNames(
      Object.fromEntries(keys.map((k) => [k, true])),
      CALL_FIELDS,
      `shapeRound: calls[${i}]`,
    );
    let input: ShapeInput;
    try {
      input = (call as RoundCall).input;
    } catch {
      input = unreadable(`the input of call ${i}`);
    }
    let own: unknown;
    try {
      own = (call as RoundCall).options;
    } catch {
      refuse(`calls[${i}].options cannot be read (a getter threw)`);
    }
    if (own !== undefined && (own === null || typeof own !== "object")) {
      refuse(`calls[${i}].options must be an object`);
    }
    out.push(own === undefined ? { input } : { input, options: own as ShapeOptions });
  }
  return out;
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
