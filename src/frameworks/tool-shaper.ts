/**
 * What the three framework entries share: a tool call's output (or the error it threw) shaped
 * into what the model reads, and the small record a framework keeps of it instead of the raw
 * output. The framework files only say where that goes in their own tool form.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { withinShare } from "../fit/recount.js";
import type { ShapeInput, ShapeOptions } from "../options/compile.js";
import { MIN_MAX_TOKENS } from "../options/compile.js";
import { checkNames, SHAPE_OPTIONS } from "../options/known.js";
import type { Shaped, ShapedStatus } from "../pipeline/shaped.js";
import { tokensOf } from "../pipeline/shaped.js";
import { type CompiledShaper, compileShaper } from "../shape.js";
import { describeError, shapeError } from "../shape-error.js";
import type { Session } from "../shape-session.js";
import { report, withRound } from "../telemetry/hook.js";
import { createStepRounds, type RoundMember, type StepRounds } from "./step-round.js";

/** `shape()` options, plus the step's round budget and the error message cap. */
export interface AirlockToolOptions extends ShapeOptions {
  /**
   * The most tokens the parallel calls of one step take together (the calls of every tool
   * wrapped by the same `withAirlock` call). Without it each call has its own `maxTokens`.
   */
  readonly maxRoundTokens?: number;
  /**
   * How long, in milliseconds, the first call of a step waits for the others to arrive before
   * the round's budget is shared out. Default 0: the calls a framework starts together arrive
   * before the next macrotask.
   */
  readonly roundWindowMs?: number;
  /** Cap on a thrown error's message, in UTF-16 units (64 to 4000, default 300). */
  readonly maxMessageLength?: number;
}

const TOOL_OPTIONS = {
  ...SHAPE_OPTIONS,
  maxRoundTokens: true,
  roundWindowMs: true,
  maxMessageLength: true,
} as const;

/**
 * What a framework keeps of a call instead of its raw output (in the AI SDK's steps and UI
 * stream, in LangChain's artifact): the text the model read, the handle to read the rest, and
 * the facts of how it was made. Nothing in it is tool text the model did not see.
 */
export interface AirlockOutput {
  readonly status: ShapedStatus;
  /** Exactly what the model reads. */
  readonly text: string;
  /** The whole (cleaned) result's handle, for `read_result`, when a store kept it. */
  readonly handle?: string;
  readonly facts: AirlockFacts;
}

/** The numbers of `meta` a host may want in its steps, without the text of any cut. */
export interface AirlockFacts {
  readonly kind: Shaped["meta"]["kind"];
  readonly format?: Shaped["meta"]["format"];
  readonly bytes: number;
  readonly lines: number;
  readonly tokens: number;
  readonly maxTokens: number;
  readonly truncated: boolean;
  readonly omittedLines: number;
  readonly records?: { readonly total: number; readonly shown: number };
  readonly redactions?: number;
  readonly next?: Shaped["meta"]["next"];
  readonly exitCode?: number | null;
  readonly httpStatus?: number;
  readonly error?: Shaped["meta"]["error"];
  /** The call's share of its step's round, when `maxRoundTokens` was given. */
  readonly round?: { readonly calls: number; readonly need: number; readonly share: number };
}

/** Shapes the calls of the tools one `withAirlock` call wrapped. */
export interface ToolShaper {
  /**
   * Runs a call and shapes what it returned, or the error it threw. `step` is the framework's
   * per-step object (calls with the same one share the round budget).
   */
  run(name: string | undefined, call: () => unknown, step?: object): Promise<Shaped>;
}

/**
 * @example
 * const shaper = createToolShaper({ maxTokens: 2000, maxRoundTokens: 6000 }, "withAirlock");
 * const shaped = await shaper.run("search", () => search(input), options.messages);
 */
export function createToolShaper(options: AirlockToolOptions, where: string): ToolShaper {
  if (options === null || typeof options !== "object") {
    throw new AirlockError("options/invalid", `${where}: options must be an object`);
  }
  checkNames(options, TOOL_OPTIONS, where);
  const { maxRoundTokens, roundWindowMs = 0, maxMessageLength, ...shapeOptions } = options;
  if (
    maxRoundTokens !== undefined &&
    (!Number.isSafeInteger(maxRoundTokens) || maxRoundTokens < MIN_MAX_TOKENS)
  ) {
    throw new AirlockError(
      "options/invalid",
      `${where}: maxRoundTokens must be an integer >= ${MIN_MAX_TOKENS} (got ${String(maxRoundTokens)})`,
    );
  }
  if (!Number.isSafeInteger(roundWindowMs) || roundWindowMs < 0 || roundWindowMs > 60_000) {
    throw new AirlockError(
      "options/invalid",
      `${where}: roundWindowMs must be an integer from 0 to 60000 (got ${String(roundWindowMs)})`,
    );
  }
  const cap = Math.min(
    shapeOptions.maxTokens ?? maxRoundTokens ?? Infinity,
    maxRoundTokens ?? Infinity,
  );
  const base: ShapeOptions = Number.isFinite(cap)
    ? { ...shapeOptions, maxTokens: cap }
    : shapeOptions;
  // One compiled shaper per tool name: the name is in the fence and the markers.
  const shapers = new Map<string | undefined, CompiledShaper>();
  const shaperOf = (name: string | undefined): CompiledShaper => {
    let shaper = shapers.get(name);
    if (shaper === undefined) {
      shaper = compileShaper(
        name === undefined || base.tool !== undefined ? base : { ...base, tool: name },
      );
      shapers.set(name, shaper);
    }
    return shaper;
  };
  // The options are checked now, not when a tool first throws or returns.
  shaperOf(undefined);
  if (maxMessageLength !== undefined) describeError(undefined, { maxMessageLength });
  const rounds: StepRounds | undefined =
    maxRoundTokens === undefined ? undefined : createStepRounds(maxRoundTokens, roundWindowMs);
  // A thrown error is shaped like any result, without the store (nothing of it is worth
  // reading back) and without the hook (the call reports once, below).
  const { store: _store, onShaped: _hook, ...errorBase } = base;
  const errorOptions = (name: string | undefined, maxTokens?: number) => ({
    ...errorBase,
    ...(name !== undefined && errorBase.tool === undefined ? { tool: name } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(maxMessageLength !== undefined ? { maxMessageLength } : {}),
  });

  const member = async (name: string | undefined, call: () => unknown): Promise<RoundMember> => {
    const shaper = shaperOf(name);
    try {
      const prepared = await shaper.prepare(asInput(await call()));
      const alone = await shaper.finish(prepared);
      const need = tokensOf(alone.meta);
      return {
        need,
        fit: async (share) =>
          share >= need
            ? alone
            : ((await withinShare(alone, share)) ?? shaper.finish(prepared, share)),
      };
    } catch (error) {
      // The tool threw, or its output could not be read as any input (fail closed): the model
      // reads the safe description either way, never the error itself.
      const alone = await shapeError(error, errorOptions(name));
      const need = tokensOf(alone.meta);
      return {
        need,
        fit: async (share) =>
          share >= need ? alone : shapeError(error, errorOptions(name, share)),
      };
    }
  };

  return {
    async run(name, call, step) {
      if (rounds === undefined || step === undefined) {
        const m = await member(name, call);
        return shaperOf(name).report(await m.fit(m.need));
      }
      const { shaped, place } = await rounds.join(step, member(name, call));
      return report(withRound(shaped, place), base.onShaped);
    },
  };
}

/** A tool's return value as `shape()` reads it: nothing and `null` are said, not refused. */
export function asInput(output: unknown): ShapeInput {
  if (output === undefined) return "";
  if (output === null) return "null";
  if (typeof output === "bigint" || typeof output === "symbol" || typeof output === "function") {
    return String(output);
  }
  return output as ShapeInput;
}

/**
 * The record a framework keeps of a call instead of its raw output.
 *
 * @example
 * return outputOf(await shaper.run("search", () => search(input)));
 */
export function outputOf(shaped: Shaped): AirlockOutput {
  const m = shaped.meta;
  const round = m.telemetry?.round;
  const facts: AirlockFacts = {
    kind: m.kind,
    ...(m.format !== undefined ? { format: m.format } : {}),
    bytes: m.bytes,
    lines: m.lines,
    tokens: tokensOf(m),
    maxTokens: m.maxTokens,
    truncated: m.truncated,
    omittedLines: m.omittedLines,
    ...(m.records !== undefined
      ? { records: { total: m.records.total, shown: m.records.shown } }
      : {}),
    ...(m.redactions !== undefined ? { redactions: m.redactions.count } : {}),
    ...(m.next !== undefined ? { next: m.next } : {}),
    ...(m.exitCode !== undefined ? { exitCode: m.exitCode } : {}),
    ...(m.httpStatus !== undefined ? { httpStatus: m.httpStatus } : {}),
    ...(m.error !== undefined ? { error: m.error } : {}),
    ...(round !== undefined
      ? { round: { calls: round.calls, need: round.need, share: round.share } }
      : {}),
  };
  return {
    status: shaped.status,
    text: shaped.text,
    ...(m.handle !== undefined ? { handle: m.handle } : {}),
    facts,
  };
}

/** A session hook's options (`withSession(tools, session, options)` in every framework entry). */
export interface SessionHookOptions {
  /**
   * The key of a call, from the tool's name and the model's arguments: a result whose key an
   * earlier one had is shaped as its re-run (docs/session.md, Re-runs). Undefined: no key.
   *
   * @example
   * { key: (tool, input) => (tool === "bash" ? `bash ${JSON.stringify(input)}` : undefined) }
   */
  readonly key?: (tool: string, input: unknown) => string | undefined;
}

/** The hook options, checked: a `key` that is not a function is refused now, not per call. */
export function checkHookOptions(options: SessionHookOptions | undefined): SessionHookOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object")
    throw new AirlockError("options/invalid", "withSession: options must be an object");
  checkNames(options, { key: true }, "withSession");
  if (options.key !== undefined && typeof options.key !== "function")
    throw new AirlockError("options/invalid", "withSession: key must be a function");
  return options;
}

/**
 * The key a hook's `key` function gives a call; undefined for none, and when it throws or gives
 * anything but a non-empty string (a host's bug must not fail a tool that has already run).
 */
export function hookKey(
  options: SessionHookOptions,
  tool: string,
  input: unknown,
): string | undefined {
  if (options.key === undefined) return undefined;
  try {
    const key = options.key(tool, input);
    return typeof key === "string" && key !== "" ? key : undefined;
  } catch {
    return undefined;
  }
}

/** Ids tried for one call before a repeated id is given up (the first is the call's own). */
const ID_TRIES = 8;

/**
 * A framework call's output shaped and recorded by a session, under the call's id; when the
 * id is taken (a provider that repeats ids, two wrappers on one session) or the framework gave
 * none, under the id with `#2`, `#3`, … (such a result is in the view, but `apply` finds no
 * message by that id to rewrite).
 *
 * @example
 * const shaped = await recordIn(session, output, call.toolCallId, "bash");
 */
export async function recordIn(
  session: Session,
  output: unknown,
  callId: string | undefined,
  tool: string,
  key?: string,
): Promise<Shaped> {
  const base = callId === undefined || callId === "" ? tool : callId.slice(0, 240);
  for (let n = callId === undefined || callId === "" ? 2 : 1; ; n++) {
    const id = n === 1 ? base : `${base}#${n}`;
    try {
      return await session.shape(asInput(output), {
        callId: id,
        tool,
        ...(key !== undefined ? { key } : {}),
      });
    } catch (error) {
      const taken =
        error instanceof AirlockError && /already recorded/.test(error.message) && n < ID_TRIES;
      if (!taken) throw error;
    }
  }
}
