/**
 * The pipeline behind `compileShaper`, loaded on the first result rather than with the package:
 * `shape.ts` checks the options when they are given (errors stay synchronous) and imports this
 * module the first time `prepare` runs, so `import { shape }` carries only the options and this
 * module's loader. The stage list, in order, is the diagram of DESIGN.md.
 */
import { createContractStage } from "./contract/stage.js";
import { createDecode } from "./decode/stage.js";
import { type FenceForm, formFor } from "./fence/fence.js";
import { createPresenter } from "./fence/present.js";
import { outcomeOf } from "./fit/outcome.js";
import { createFit } from "./fit/stage.js";
import { withinBudget } from "./fit/summary.js";
import { lazyTokenizer } from "./fit/tokenizer.js";
import { createIntake, type IntakeInput } from "./intake/route.js";
import { createKeep, type KeptInput } from "./keep/stage.js";
import type { CompiledOptions } from "./options/compile.js";
import { metaOptions, sliceOptions } from "./options/slices.js";
import { createFacts } from "./pipeline/facts.js";
import { buildShaped } from "./pipeline/meta.js";
import { pipeline, type RunContext } from "./pipeline/run.js";
import { createRedactStage } from "./redact/stage.js";
import { createRender } from "./render/stage.js";
import type { BuiltShaper } from "./shape-loader.js";
import { createStoreStage, tapsOf } from "./store/stage.js";
import { encodeCursor } from "./store/store.js";
import { beforeOf, createSample } from "./telemetry/before.js";
import { withTelemetry } from "./telemetry/facts.js";

/**
 * @example
 * const { prepare, finish } = buildShaper(compileOptions({ maxTokens: 6000 }));
 */
export function buildShaper(o: CompiledOptions): BuiltShaper {
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
  const front = pipeline<IntakeInput>()
    .pipe(createIntake({ ...slices.intake, describe: redact.describe }))
    .pipe(createDecode(slices.decode))
    .pipe(createContractStage(slices.contract))
    .pipe(redact)
    .pipe(createKeep({ ...slices.keep, ...tapsOf(store), revealer: redact.revealer }))
    .pipe(store);
  // `tokenCount: "bound"`: a result whose bytes prove it fits loads no tokenizer, not even for
  // telemetry (its "before" is then estimated).
  const bound = o.tokenCount === "bound" && typeof o.tokenizer === "string";
  const proof = bound ? { bound: o.tokenizer as string } : {};
  const back = (maxTokens: number) =>
    pipeline<KeptInput>()
      .pipe(
        createRender({
          ...slices.render,
          maxTokens,
          records: { ...slices.render.records, maxTokens, clean: redact.clean, cursor },
        }),
      )
      .pipe(createFit({ tokenizer, presenter: presenter(formFor(maxTokens)), ...proof }));
  const full = back(o.maxTokens);
  const meta = metaOptions(o, redact.clean, cursor);
  return {
    maxTokens: o.maxTokens,
    async prepare(input, { stopper, started, rerun }) {
      const ctx: RunContext = {
        facts: createFacts(),
        sample: createSample(),
        ...(stopper ? { stopper } : {}),
        ...(rerun ? { rerun } : {}),
      };
      try {
        // The tokenizer's ranks load while the rule set does and the input is read: the first
        // result of a process then waits for the longer of them, not for their sum.
        if (!bound) tokenizer().catch(() => undefined);
        await Promise.all([redact.ready(), store.ready()]);
        const kept = await front.run(input, ctx);
        const before = await beforeOf(
          ctx,
          bound ? undefined : tokenizer,
          typeof o.tokenizer === "string",
        );
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
  };
}
