import { AirlockError } from "./errors/airlock-error.js";
import { attachInput, release } from "./intake/attach.js";
import type { ShapeInput } from "./intake/input.js";
import { READ_AHEAD_BYTES } from "./intake/source.js";
import { createStopper } from "./intake/stopper.js";
import type { KeptInput } from "./keep/stage.js";
import {
  type CallOptions,
  compileCall,
  compileOptions,
  type ShapeOptions,
} from "./options/compile.js";
import type { Rerun } from "./pipeline/rerun.js";
import type { RunContext, Stopper } from "./pipeline/run.js";
import type { Shaped } from "./pipeline/shaped.js";
import { type Loader, loader, type RunStart, variants } from "./shape-loader.js";
import type { Before } from "./telemetry/before.js";
import { report } from "./telemetry/hook.js";

/**
 * A compiled shaper: options are validated once, the tokenizer is loaded once. A call may
 * change the budget, the byte cap, the tool name, the content type, the signal or the deadline
 * for its own result.
 */
export type Shaper = (input: ShapeInput, call?: CallOptions) => Promise<Shaped>;

/** One result read and kept, before any budget is spent on it. */
export interface Prepared {
  readonly kept: KeptInput;
  readonly ctx: RunContext;
  /** The input's size before shaping, and when reading began (for `meta.telemetry`). */
  readonly before: Before;
  readonly started: number;
  /** The call's own abort signal: a summariser's hop stops with it too. */
  readonly signal?: AbortSignal;
}

/** The pipeline in two halves: keep (everything the budget does not decide), then fit. */
export interface CompiledShaper {
  readonly maxTokens: number;
  /** A host summariser is set (`summarize`): a cut result's final fit asks it. */
  readonly summarizes: boolean;
  /**
   * intake → decode → contract → redact → keep → store: memory O(maxTokens), not O(input). Live
   * streams are attached before it returns (see `fromProcess`).
   */
  prepare(input: ShapeInput, call?: CallOptions, rerun?: Rerun): Promise<Prepared>;
  // (`rerun` is a session's, from `createRerun`: what a re-run of a command is read against.)
  /**
   * render → fit → meta within `maxTokens` (at most the budget it was prepared for); may run
   * again. With `summarize`, a cut result's summary is asked for unless `hop` is false (a fit
   * that only measures, or a re-fit of an older result).
   */
  finish(prepared: Prepared, maxTokens?: number, hop?: boolean): Promise<Shaped>;
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
  const base = loader(o);
  const variantOf = variants(o, base);
  const preparedBy = new WeakMap<Prepared, Loader>();
  return {
    maxTokens: o.maxTokens,
    summarizes: o.summarize !== undefined,
    prepare(input, call, rerun) {
      let stopper: Stopper | undefined;
      try {
        // Everything up to the pipeline's load runs now, in the caller's turn: the deadline
        // counts from the call, and a child's pipes are read from here on (the pipeline is a
        // dynamic import on the first result, and a pipe left unread blocks or loses output).
        const c = call === undefined ? o : compileCall(o, options, call);
        if (rerun !== undefined && typeof (rerun as Partial<Rerun> | null)?.take !== "function")
          throw new AirlockError("options/invalid", "prepare: rerun must be a session's");
        const load = variantOf(c);
        stopper = createStopper(c.abortSignal, c.timeoutMs);
        const start: RunStart = {
          stopper,
          started: performance.now(),
          ...(rerun !== undefined ? { rerun } : {}),
          ...(c.abortSignal !== undefined ? { signal: c.abortSignal } : {}),
        };
        const attached = attachInput(input, Math.min(READ_AHEAD_BYTES, c.maxBytes));
        return load().then(
          async (built) => {
            const prepared = await built.prepare(attached, start);
            preparedBy.set(prepared, load);
            return prepared;
          },
          (cause) => {
            stopper?.dispose();
            throw cause;
          },
        );
      } catch (cause) {
        // Refused before the input was taken: its exit promises still get their handlers.
        release(input);
        stopper?.dispose();
        return Promise.reject(cause);
      }
    },
    finish: async (prepared, maxTokens, hop) =>
      (await (preparedBy.get(prepared) ?? base)()).finish(prepared, maxTokens, hop),
    report: (shaped) => report(shaped, o.onShaped),
  };
}

/**
 * Compiles options once and returns a shaper to call per tool result. No state is shared between
 * shapers, so one per request (or per tool) is safe in a Worker isolate. A call may set its own
 * `maxTokens`, `maxBytes`, `tool`, `contentType`, `abortSignal` or `timeoutMs`.
 *
 * @example
 * const shapeLog = createShaper({ maxTokens: 1000, tool: "bash" });
 * const { text, status } = await shapeLog({ stdout, stderr, exitCode: 1 });
 * const wider = await shapeLog(bigLog, { maxTokens: 4000 }); // this call only
 */
export function createShaper(options: ShapeOptions = {}): Shaper {
  const shaper = compileShaper(options);
  return async function shapeResult(input: ShapeInput, call?: CallOptions): Promise<Shaped> {
    return shaper.report(await shaper.finish(await shaper.prepare(input, call)));
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
