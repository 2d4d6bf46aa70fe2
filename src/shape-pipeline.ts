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
import { runHop } from "./fit/hop.js";
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
import type { Shaped, ShapedMeta } from "./pipeline/shaped.js";
import { utf8Length } from "./pipeline/text.js";
import { createRedactStage } from "./redact/stage.js";
import { createRender } from "./render/stage.js";
import type { Prepared } from "./shape.js";
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
  const back = (maxTokens: number, generated?: readonly string[]) =>
    pipeline<KeptInput>()
      .pipe(
        createRender({
          ...slices.render,
          maxTokens,
          ...(generated ? { generated } : {}),
          records: {
            ...slices.render.records,
            maxTokens,
            clean: redact.clean,
            cursor,
            ...(generated ? { generated: generated.join("\n") } : {}),
          },
        }),
      )
      .pipe(createFit({ tokenizer, presenter: presenter(formFor(maxTokens)), ...proof }));
  const full = back(o.maxTokens);
  const meta = metaOptions(o, redact.clean, cursor);
  // The summariser's answers, by the digest of what it read (`fit/hop.ts`).
  const answers = new Map<string, string>();
  /** Fits the kept result within `budget`, with a host model's summary when one is given. */
  const fitAt = async (prepared: Prepared, budget: number, generated?: readonly string[]) => {
    const { kept, ctx } = prepared;
    const fit = async () =>
      outcomeOf(
        await (budget === o.maxTokens && !generated ? full : back(budget, generated)).run(
          kept,
          ctx,
        ),
      );
    const outcome = await withinBudget(fit, kept, ctx.facts, budget, o.maxBytes, tokenizer);
    return buildShaped(ctx.facts, outcome, { ...meta, maxTokens: budget });
  };
  /**
   * The model hop: the summariser reads the cut result as shaped, and the result is fitted again
   * with its answer; an answer that would cost the text evidence it showed, or a hop that fails,
   * leaves the result as it was (`meta.hop` says which).
   */
  async function withHop(shaped: Shaped, prepared: Prepared, budget: number): Promise<Shaped> {
    const m = shaped.meta;
    const summarize = o.summarize as NonNullable<typeof o.summarize>;
    const counter = bound ? undefined : await tokenizer().catch(() => undefined);
    const count = async (text: string) => (counter ? counter.count(text) : utf8Length(text));
    const hop = await runHop(
      {
        kind: m.records ? "records" : "lines",
        text: shaped.text,
        ...(m.summary ? { summary: m.summary } : {}),
        ...(m.records ? { records: m.records.total } : { lines: m.lines }),
        shown: m.records ? m.records.shown : m.sections.reduce((n, s) => n + s.keptLines, 0),
        ...(m.tool !== undefined ? { tool: m.tool } : {}),
      },
      {
        summarize,
        maxSummaryTokens:
          o.maxSummaryTokens ?? Math.max(32, Math.min(300, Math.floor(budget * 0.15))),
        timeoutMs: o.summaryTimeoutMs,
        clean: (text) => redact.clean(text),
        count,
        cache: answers,
        ...(o.store ? { store: o.store } : {}),
        ...(prepared.signal ? { signal: prepared.signal } : {}),
      },
    );
    if (hop.lines === undefined) return withHopMeta(shaped, { status: hop.status });
    const again = await fitAt(prepared, budget, hop.lines);
    if (evidenceShown(again) < evidenceShown(shaped))
      return withHopMeta(shaped, { status: "no-room" });
    return withHopMeta(again, { status: hop.status, lines: hop.lines.length });
  }

  return {
    maxTokens: o.maxTokens,
    async prepare(input, { stopper, started, rerun, signal }) {
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
        return { kept, ctx, before, started, ...(signal ? { signal } : {}) };
      } finally {
        stopper?.dispose();
      }
    },
    async finish(prepared, maxTokens = o.maxTokens, hop = true) {
      const budget = Math.min(maxTokens, o.maxTokens);
      const shaped = await fitAt(prepared, budget);
      if (!hop || o.summarize === undefined || !shaped.meta.truncated)
        return withTelemetry(shaped, prepared);
      return withTelemetry(await withHop(shaped, prepared, budget), prepared);
    },
  };
}

/** Evidence the text shows: error and warning lines, or error records. */
function evidenceShown(shaped: Shaped): number {
  const m = shaped.meta;
  if (m.records) return m.records.evidenceShown ?? m.records.errorsShown;
  return m.sections.reduce((n, s) => n + s.keptEvidenceLines, 0);
}

function withHopMeta(shaped: Shaped, hop: ShapedMeta["hop"]): Shaped {
  return { ...shaped, meta: { ...shaped.meta, hop } };
}
