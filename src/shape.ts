import type { ShapeInput } from "./intake/input.js";
import type { KeptInput } from "./keep/stage.js";
import { type CompiledOptions, compileOptions, type ShapeOptions } from "./options/compile.js";
import type { RunContext } from "./pipeline/run.js";
import type { Shaped } from "./pipeline/shaped.js";
import type { Before } from "./telemetry/before.js";
import { report } from "./telemetry/hook.js";

/** A compiled shaper: options are validated once, the tokenizer is loaded once. */
export type Shaper = (input: ShapeInput) => Promise<Shaped>;

/** One result read and kept, before any budget is spent on it. */
export interface Prepared {
  readonly kept: KeptInput;
  readonly ctx: RunContext;
  /** The input's size before shaping, and when reading began (for `meta.telemetry`). */
  readonly before: Before;
  readonly started: number;
}

/** The pipeline in two halves: keep (everything the budget does not decide), then fit. */
export interface CompiledShaper {
  readonly maxTokens: number;
  /** intake → decode → contract → redact → keep → store: memory O(maxTokens), not O(input). */
  prepare(input: ShapeInput): Promise<Prepared>;
  /** render → fit → meta within `maxTokens` (at most the compiled budget); may run again. */
  finish(prepared: Prepared, maxTokens?: number): Promise<Shaped>;
  /** Hands the final result's telemetry to `onShaped`, once per call. */
  report(shaped: Shaped): Shaped;
}

/**
 * Checks the options now and compiles the pipeline once, on the first result (its code loads
 * then, not with the package: see docs/bundling.md). `createShaper` runs both halves at once; a
 * round of parallel results keeps each first and fits them after, once the budget is shared out.
 *
 * @example
 * const shaper = compileShaper({ maxTokens: 6000 });
 * const kept = await shaper.prepare(input);
 * const shaped = await shaper.finish(kept, 2000);
 */
export function compileShaper(options: ShapeOptions = {}): CompiledShaper {
  const o = compileOptions(options);
  // The stages load with the first result (one dynamic import per shaper, shared by its calls):
  // what a host imports up front is the options check, not the pipeline.
  let built: Promise<Omit<CompiledShaper, "report">> | undefined;
  const pipeline = () => {
    built ??= loadPipeline(o);
    built.catch(() => {
      built = undefined;
    });
    return built;
  };
  return {
    maxTokens: o.maxTokens,
    prepare: async (input) => (await pipeline()).prepare(input),
    finish: async (prepared, maxTokens) => (await pipeline()).finish(prepared, maxTokens),
    report: (shaped) => report(shaped, o.onShaped),
  };
}

async function loadPipeline(o: CompiledOptions): Promise<Omit<CompiledShaper, "report">> {
  const { buildShaper } = await import("./shape-pipeline.js");
  return buildShaper(o);
}

/**
 * Compiles options once and returns a shaper to call per tool result. No state is shared between
 * shapers, so one per request (or per tool) is safe in a Worker isolate.
 *
 * @example
 * const shapeLog = createShaper({ maxTokens: 1000, tool: "bash" });
 * const { text, status } = await shapeLog({ stdout, stderr, exitCode: 1 });
 */
export function createShaper(options: ShapeOptions = {}): Shaper {
  const shaper = compileShaper(options);
  return async function shapeResult(input: ShapeInput): Promise<Shaped> {
    return shaper.report(await shaper.finish(await shaper.prepare(input)));
  };
}

/**
 * Shapes one tool result into what the model should read, within `maxTokens`.
 *
 * @example
 * const { text, status, meta } = await shape(await fetch(url), { maxTokens: 2000, tool: "fetch" });
 */
export async function shape(input: ShapeInput, options?: ShapeOptions): Promise<Shaped> {
  return createShaper(options)(input);
}
