import { createContractStage } from "./contract/stage.js";
import { createDecode } from "./decode/stage.js";
import { createPresenter } from "./fence/present.js";
import { outcomeOf } from "./fit/outcome.js";
import { createFit } from "./fit/stage.js";
import { type ResolvedTokenizer, resolveTokenizer } from "./fit/tokenizer.js";
import type { ShapeInput } from "./intake/input.js";
import { createIntake } from "./intake/route.js";
import { createKeep } from "./keep/stage.js";
import { compileOptions, type ShapeOptions } from "./options/compile.js";
import { MAX_FINGERPRINTS, sliceOptions } from "./options/slices.js";
import { createFacts } from "./pipeline/facts.js";
import { buildShaped, type MetaOptions } from "./pipeline/meta.js";
import { pipeline } from "./pipeline/run.js";
import type { Shaped } from "./pipeline/shaped.js";
import { fingerprintOf, importFingerprintKey } from "./redact/fingerprint.js";
import { scrubMessage } from "./redact/scrub.js";
import { createRedactStage } from "./redact/stage.js";
import { createRender } from "./render/stage.js";
import { createStoreStage } from "./store/stage.js";
import { encodeCursor } from "./store/store.js";

/** A compiled shaper: options are validated once, the tokenizer is loaded once. */
export type Shaper = (input: ShapeInput) => Promise<Shaped>;

/**
 * Compiles options once and returns a shaper to call per tool result. No state is shared between
 * shapers, so one per request (or per tool) is safe in a Worker isolate.
 *
 * @example
 * const shapeLog = createShaper({ maxTokens: 1000, tool: "bash" });
 * const { text, status } = await shapeLog({ stdout, stderr, exitCode: 1 });
 */
export function createShaper(options: ShapeOptions = {}): Shaper {
  const o = compileOptions(options);
  const slices = sliceOptions(o);
  let loading: Promise<ResolvedTokenizer> | undefined;
  const tokenizer = () => {
    loading ??= resolveTokenizer(o.tokenizer);
    // A failed load is not cached: the next call tries again.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
  const cursor = (handle: string, offset: number, end: number) =>
    encodeCursor({ handle, offset, end });
  const redact = createRedactStage(slices.redact);
  // A failed source's message is ours to report: it loses stack frames, paths, hosts and
  // secrets whatever the options say (and the host's own rules apply on top).
  const describe = (text: string) => redact.clean(scrubMessage(text) || "the source failed", 400);
  const redactor = o.redactor;
  const presenter = createPresenter({
    redact: redactor ? (text) => redactor(text).text : undefined,
    spotlight: o.spotlight,
    datamark: o.datamark,
    untrusted: o.untrusted,
    tool: o.tool,
  });
  const store = createStoreStage(slices.store);
  // The pipeline, in order: the diagram of DESIGN.md. The fit measures every candidate as the
  // presenter shows it (last redaction pass, spotlight, fence), so what it returns is presented.
  const stages = pipeline<ShapeInput>()
    .pipe(createIntake({ ...slices.intake, describe }))
    .pipe(createDecode(slices.decode))
    .pipe(createContractStage(slices.contract))
    .pipe(redact)
    .pipe(createKeep({ ...slices.keep, ...(store.tap ? { tap: store.tap } : {}) }))
    .pipe(store)
    .pipe(
      createRender({
        ...slices.render,
        records: { ...slices.render.records, clean: redact.clean, cursor },
      }),
    )
    .pipe(createFit({ tokenizer, presenter }));
  const key = o.fingerprintKey;
  const meta: MetaOptions = {
    maxTokens: o.maxTokens,
    maxBytes: o.maxBytes,
    tool: o.tool,
    spotlight: o.spotlight,
    datamark: o.datamark,
    redaction: redactor !== undefined,
    invisible: o.invisible,
    clean: redact.clean,
    cursor,
    records: {
      sort: o.sort?.text,
      projection: o.projection?.spec,
      contract: o.contract !== undefined,
    },
    ...(key !== undefined
      ? {
          fingerprint: async (values) => {
            const k = await importFingerprintKey(key);
            return Promise.all(
              values.slice(0, MAX_FINGERPRINTS).map(async ([rule, value]) => ({
                rule,
                fingerprint: await fingerprintOf(k, value),
              })),
            );
          },
        }
      : {}),
  };
  return async function shapeResult(input: ShapeInput): Promise<Shaped> {
    const ctx = { facts: createFacts() };
    const fitted = await stages.run(input, ctx);
    return buildShaped(ctx.facts, outcomeOf(fitted), meta);
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
