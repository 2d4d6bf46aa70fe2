/**
 * Where a shaper's pipelines come from: each set of compiled options loads its pipeline
 * (`shape-pipeline.ts`, a dynamic import) on its first result, and a shaper keeps the few most
 * recent variants that calls asked for with their own budget, cap, tool or content type.
 */

import type { IntakeInput } from "./intake/route.js";
import type { CompiledOptions } from "./options/compile.js";
import type { Rerun } from "./pipeline/rerun.js";
import type { Stopper } from "./pipeline/run.js";
import type { Shaped } from "./pipeline/shaped.js";
import type { Prepared } from "./shape.js";

/** What a call set up before the pipeline ran: its stop signal, and when it began. */
export interface RunStart {
  readonly stopper: Stopper | undefined;
  readonly started: number;
  /** A session's re-run of a command (`key`): what it is shaped against. */
  readonly rerun?: Rerun;
  /** The call's abort signal (`abortSignal`), for what runs after the read (a summariser). */
  readonly signal?: AbortSignal;
}

/** The loaded pipeline of one set of compiled options. */
export interface BuiltShaper {
  readonly maxTokens: number;
  prepare(input: IntakeInput, start: RunStart): Promise<Prepared>;
  /** `hop: false` fits without the model hop (a round's first measure, a session's re-fit). */
  finish(prepared: Prepared, maxTokens?: number, hop?: boolean): Promise<Shaped>;
}

export type Loader = () => Promise<BuiltShaper>;

/** Compiled variants a shaper keeps for calls that change its budget, cap, tool or type. */
const MAX_VARIANTS = 16;

/**
 * Loads the pipeline for `o` once, on first use; a failed load is tried again next time.
 *
 * @example
 * const load = loader(compileOptions({ maxTokens: 2000 }));
 * const built = await load(); // the pipeline's code loads here, once
 */
export function loader(o: CompiledOptions): Loader {
  let built: Promise<BuiltShaper> | undefined;
  return () => {
    built ??= import("./shape-pipeline.js").then((m) => m.buildShaper(o));
    built.catch(() => {
      built = undefined;
    });
    return built;
  };
}

function keyOf(c: CompiledOptions): string {
  return JSON.stringify([c.maxTokens, c.maxBytes, c.tool ?? null, c.contentType ?? null]);
}

/**
 * The loader for a call's options: the shaper's own when the call changes nothing the pipeline
 * is compiled from, else a variant's (the rule set and the tokenizer are shared through `o`).
 *
 * @example
 * const variantOf = variants(compiled, loader(compiled));
 * const load = variantOf(compileCall(compiled, options, { maxTokens: 8000 }));
 */
export function variants(o: CompiledOptions, base: Loader): (c: CompiledOptions) => Loader {
  const own = keyOf(o);
  const kept = new Map<string, Loader>();
  return function variantOf(c) {
    const key = keyOf(c);
    if (key === own) return base;
    let load = kept.get(key);
    if (load === undefined) {
      load = loader(c);
      if (kept.size >= MAX_VARIANTS) kept.delete(kept.keys().next().value as string);
    } else kept.delete(key);
    kept.set(key, load);
    return load;
  };
}
