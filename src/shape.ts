import { createContractStage } from "./contract/stage.js";
import { createDecode } from "./decode/stage.js";
import { type FenceForm, formFor } from "./fence/fence.js";
import { createPresenter } from "./fence/present.js";
import { outcomeOf } from "./fit/outcome.js";
import { createFit } from "./fit/stage.js";
import { withinBudget } from "./fit/summary.js";
import { lazyTokenizer } from "./fit/tokenizer.js";
import { createStopper } from "./intake/budget.js";
import type { ShapeInput } from "./intake/input.js";
import { createIntake } from "./intake/route.js";
import { createKeep, type KeptInput } from "./keep/stage.js";
import { compileOptions, type ShapeOptions } from "./options/compile.js";
import { metaOptions, sliceOptions } from "./options/slices.js";
import { createFacts } from "./pipeline/facts.js";
import { buildShaped } from "./pipeline/meta.js";
import { pipeline, type RunContext } from "./pipeline/run.js";
import type { Shaped } from "./pipeline/shaped.js";
import { createRedactStage } from "./redact/stage.js";
import { createRender } from "./render/stage.js";
import { createStoreStage, tapsOf } from "./store/stage.js";
import { encodeCursor } from "./store/store.js";
import { type Before, beforeOf, createSample } from "./telemetry/before.js";
import { withTelemetry } from "./telemetry/facts.js";
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
 * Compiles the pipeline once. `createShaper` runs both halves at once; a round of parallel
 * results keeps each first and fits them after, once the budget is shared out.
 *
 * @example
 * const shaper = compileShaper({ maxTokens: 6000 });
 * const kept = await shaper.prepare(input);
 * const shaped = await shaper.finish(kept, 2000);
 */
export function compileShaper(options: ShapeOptions = {}): CompiledShaper {
  const o = compileOptions(options);
  const slices = sliceOptions(o);
  const tokenizer = lazyTokenizer(o.tokenizer);
  const cursor = (handle: string, offset: number, end: number) =>
    encodeCursor({ handle, offset, end });
  const redact = createRedactStage(slices.redact);
  const presenter = (form: FenceForm) =>
    createPresenter({ ...slices.present, redact: redact.redact, form });
  const store = createStoreStage(slices.store);
  // The pipeline, in order: the diagram of DESIGN.md. The fit measures every candidate as the
  // presenter shows it (last redaction pass, spotlight, fence), so what it returns is presented.
  const front = pipeline<ShapeInput>()
    .pipe(createIntake({ ...slices.intake, describe: redact.describe }))
    .pipe(createDecode(slices.decode))
    .pipe(createContractStage(slices.contract))
    .pipe(redact)
    .pipe(createKeep({ ...slices.keep, ...tapsOf(store), revealer: redact.revealer }))
    .pipe(store);
  const back = (maxTokens: number) =>
    pipeline<KeptInput>()
      .pipe(
        createRender({
          ...slices.render,
          maxTokens,
          records: { ...slices.render.records, maxTokens, clean: redact.clean, cursor },
        }),
      )
      .pipe(createFit({ tokenizer, presenter: presenter(formFor(maxTokens)) }));
  const full = back(o.maxTokens);
  const meta = metaOptions(o, redact.clean, cursor);
  return {
    maxTokens: o.maxTokens,
    async prepare(input) {
      const started = performance.now();
      const stopper = createStopper(o.abortSignal, o.timeoutMs);
      const ctx: RunContext = {
        facts: createFacts(),
        sample: createSample(),
        ...(stopper ? { stopper } : {}),
      };
      try {
        await redact.ready();
        const kept = await front.run(input, ctx);
        const before = await beforeOf(ctx, tokenizer, typeof o.tokenizer === "string");
        return { kept, ctx, before, started };
      } finally {
        stopper?.dispose();
      }
    },
    async finish(prepared, maxTokens = o.maxTokens) {
      const { kept, ctx } = prepared;
      const budget = Math.min(maxTokens, o.maxTokens);
      const fit = async () =>
        outcomeOf(await (budget === o.maxTokens ? full : back(budget)).run(kept, ctx));
      const outcome = await withinBudget(fit, kept, ctx.facts, budget, o.maxBytes, tokenizer);
      const shaped = await buildShaped(ctx.facts, outcome, { ...meta, maxTokens: budget });
      return withTelemetry(shaped, prepared);
    },
    report: (shaped) => report(shaped, o.onShaped),
  };
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
