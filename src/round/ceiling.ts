/**
 * The attacker's ceiling: the most tokens of tool-controlled text the model can read from one
 * call, for review next to the tool's permissions. A tool's output is whatever its source says
 * (a page, an issue, a log line): everything inside the fence counts as tool-controlled, the
 * markers included, so the ceiling is an upper bound. What is not tool-controlled is the fence,
 * and what it costs is known: its least form, `<untrusted-data>` and `</untrusted-data>` (a body
 * that cannot hold a fence needs no boundary), costs a fixed number of tokens around any body,
 * and the forms with a boundary cost more (a boundary of 16 hex digits is never fewer than 2
 * tokens, as no o200k or cl100k token holds more than 8 hex digits; a 9-digit one always 3). A
 * body's first and last characters can merge with the fence's line breaks, which is the slack
 * subtracted.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { type FenceForm, formFor } from "../fence/fence.js";
import { lazyTokenizer, type ResolvedTokenizer } from "../fit/tokenizer.js";
import { compileOptions, type ShapeOptions } from "../options/compile.js";
import { callOptions, checkRound, type RoundOptions, readCalls } from "./options.js";

export interface Ceiling {
  /** The most tokens of tool-controlled text the model can read from one call. */
  readonly tokens: number;
  /** The budget it is computed for: `maxTokens` (in a round, the call's cap). */
  readonly maxTokens: number;
  /** Tokens of airlock's own text every result carries at least: the fence lines. */
  readonly frame: number;
  readonly fence: FenceForm | "none";
  readonly tokenizer: string;
  /**
   * False for a host's own token counter: its counts of the fence cannot be bounded, so no frame
   * is subtracted and the ceiling is the budget.
   */
  readonly bounded: boolean;
  /** The projection, when there is one: the record fields that carry tool text. */
  readonly fields?: string;
}

export interface RoundCeiling {
  /** The most tokens of tool-controlled text the whole round can put before the model. */
  readonly tokens: number;
  readonly maxRoundTokens: number;
  /** Per call: the most one call can carry when every other call's result is as small as it can be. */
  readonly calls: readonly Ceiling[];
}

/** The ceiling of a round: its options, and the calls' own options (or how many calls share them). */
export type RoundCeilingOptions = RoundOptions & {
  readonly calls: number | ReadonlyArray<ShapeOptions | undefined>;
};

/** Characters of the longest token made only of hex digits, in o200k and in cl100k. */
export const LONGEST_HEX_TOKEN = 8;
/** Tokens a body's edges can merge with the fence's line breaks: two at each edge. */
export const JOIN_SLACK = 4;

/**
 * @example
 * (await ceilingOf({ maxTokens: 4000, tool: "web_fetch" })).tokens; // 3993: the fence takes at least 7
 * (await ceilingOf({ maxRoundTokens: 6000, calls: 3 })).tokens;
 */
export async function ceilingOf(options: ShapeOptions): Promise<Ceiling>;
export async function ceilingOf(options: RoundCeilingOptions): Promise<RoundCeiling>;
export async function ceilingOf(
  options: ShapeOptions | RoundCeilingOptions,
): Promise<Ceiling | RoundCeiling> {
  if (options !== null && typeof options === "object" && "maxRoundTokens" in options) {
    return roundCeiling(options as RoundCeilingOptions);
  }
  const o = compileOptions(options);
  return callCeiling(o, formFor(o.maxTokens), await lazyTokenizer(o.tokenizer)());
}

async function roundCeiling(options: RoundCeilingOptions): Promise<RoundCeiling> {
  const { calls, ...round } = options;
  const { maxRoundTokens, defaults } = checkRound(round);
  if (
    typeof calls === "number" ? !(Number.isSafeInteger(calls) && calls >= 0) : !Array.isArray(calls)
  ) {
    throw new AirlockError(
      "options/invalid",
      "ceilingOf: calls must be a count of calls or a list of their options",
    );
  }
  const own =
    typeof calls === "number" ? Array.from({ length: calls }, () => undefined) : [...calls];
  readCalls(
    own.map((o) => (o === undefined ? { input: "" } : { input: "", options: o })),
    maxRoundTokens,
  );
  const each = await Promise.all(
    own.map(async (o) => {
      const c = compileOptions(callOptions(defaults, o, maxRoundTokens));
      const tokenizer = await lazyTokenizer(c.tokenizer)();
      // Every form's least frame is the bare fence's, whatever the share: one ceiling per cap.
      return callCeiling(c, formFor(c.maxTokens), tokenizer);
    }),
  );
  const frames = each.reduce((n, c) => n + c.frame, 0);
  const shared = each.map((c) => {
    const others = frames - c.frame;
    return { ...c, tokens: Math.max(0, Math.min(c.tokens, maxRoundTokens - others - c.frame)) };
  });
  const sum = shared.reduce((n, c) => n + c.tokens, 0);
  return Object.freeze({
    tokens: Math.max(0, Math.min(sum, maxRoundTokens - frames)),
    maxRoundTokens,
    calls: shared,
  });
}

async function callCeiling(
  o: ReturnType<typeof compileOptions>,
  form: FenceForm,
  tokenizer: ResolvedTokenizer,
): Promise<Ceiling> {
  const bounded = typeof o.tokenizer === "string";
  const fence = o.untrusted ? form : "none";
  const frame = fence === "none" || !bounded ? 0 : await frameFloor(tokenizer);
  return Object.freeze({
    tokens: Math.max(0, o.maxTokens - frame),
    maxTokens: o.maxTokens,
    frame,
    fence,
    tokenizer: tokenizer.name,
    bounded,
    ...(o.projection ? { fields: o.projection.spec } : {}),
  });
}

/**
 * The fewest tokens the fence lines can cost around any body: a body that cannot hold a fence
 * (`canHoldFence`) gets no boundary, and a small one no source, so the least is
 * `<untrusted-data>` and `</untrusted-data>` around a one-token body, less that body and the
 * slack of the body's edges. Every bounded form costs more (its boundary alone is at least 2
 * tokens, twice).
 */
async function frameFloor(tokenizer: ResolvedTokenizer): Promise<number> {
  const bare =
    (await tokenizer.count("<untrusted-data>\nx\n</untrusted-data>")) -
    (await tokenizer.count("x"));
  return Math.max(0, bare - JOIN_SLACK);
}
