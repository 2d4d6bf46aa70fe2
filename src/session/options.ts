/**
 * The options of a session over a run: the shape options every result shares, the run's one
 * ceiling and its watermarks, and the state a session may be restored from. Checked like every
 * options object: an unknown name is refused with the nearest known one.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { MIN_MAX_TOKENS, type ShapeOptions } from "../options/compile.js";
import { checkNames, SHAPE_OPTIONS } from "../options/known.js";
import type { Level, SessionState } from "./state.js";
import { readState } from "./state.js";

export interface SessionOptions extends ShapeOptions {
  /**
   * The most tokens all the tool results of the run take together in `view()`, fences and
   * markers included.
   */
  readonly maxRunTokens: number;
  /**
   * The last this many results keep their own budget while the ceiling allows (default 3); the
   * ceiling always wins.
   */
  readonly keepRecent?: number;
  /** Tools whose results are never re-shaped while the ceiling allows. */
  readonly exclude?: readonly string[];
  /**
   * The view changes only once its tokens pass this (default `maxRunTokens`), and then drops to
   * `lowWater` at least: between crossings every earlier result keeps its text, so the prompt's
   * prefix stays the same and a provider's prompt cache keeps it.
   */
  readonly highWater?: number;
  /** Where a crossing of `highWater` brings the view down to (default 3/4 of `highWater`). */
  readonly lowWater?: number;
  /** A session's `toJSON()`, to go on from (after a page reload, or a Durable Object's eviction). */
  readonly restore?: SessionState;
}

/** The session's own options, checked, and the shape options for its shaper. */
export interface SessionSettings {
  readonly maxRunTokens: number;
  readonly keepRecent: number;
  readonly exclude: ReadonlySet<string>;
  readonly highWater: number;
  readonly lowWater: number;
  readonly restore: SessionState | undefined;
  readonly shape: ShapeOptions;
}

export const SESSION_OPTIONS = {
  ...SHAPE_OPTIONS,
  maxRunTokens: true,
  keepRecent: true,
  exclude: true,
  highWater: true,
  lowWater: true,
  restore: true,
} as const;

/**
 * The least `maxRunTokens`: the fold's line and the newest result's least (a line, or
 * `[airlock: omitted]`) must fit under it.
 */
export const MIN_RUN_TOKENS = 256;

/** Share of `highWater` a crossing brings the view down to, by default. */
const LOW_WATER_SHARE = 0.75;

function refuse(message: string): never {
  throw new AirlockError("options/invalid", `createSession: ${message}`);
}

function integer(name: string, value: unknown, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    const got = typeof value === "string" ? JSON.stringify(value) : String(value);
    refuse(`${name} must be an integer >= ${min} (got ${got})`);
  }
  return value;
}

/**
 * @example
 * const s = checkSession({ maxRunTokens: 32_000, keepRecent: 3, tool: "bash" });
 * s.lowWater; // 24000
 */
export function checkSession(options: SessionOptions): SessionSettings {
  if (options === null || typeof options !== "object") refuse("options must be an object");
  checkNames(options, SESSION_OPTIONS, "createSession");
  const { maxRunTokens, keepRecent, exclude, highWater, lowWater, restore, ...shape } = options;
  if (maxRunTokens === undefined) refuse("maxRunTokens is required");
  const ceiling = integer("maxRunTokens", maxRunTokens, MIN_RUN_TOKENS, 0);
  const high = integer("highWater", highWater, MIN_MAX_TOKENS, ceiling);
  if (high > ceiling) refuse(`highWater (${high}) must be at most maxRunTokens (${ceiling})`);
  const low = integer("lowWater", lowWater, 0, Math.floor(high * LOW_WATER_SHARE));
  if (low > high) refuse(`lowWater (${low}) must be at most highWater (${high})`);
  if (
    exclude !== undefined &&
    (!Array.isArray(exclude) || exclude.some((t) => typeof t !== "string"))
  ) {
    refuse("exclude must be an array of tool names");
  }
  return {
    maxRunTokens: ceiling,
    keepRecent: integer("keepRecent", keepRecent, 0, 3),
    exclude: new Set(exclude ?? []),
    highWater: high,
    lowWater: low,
    restore: restore === undefined ? undefined : readState(restore, refuse),
    shape,
  };
}

export type { Level, SessionState };
