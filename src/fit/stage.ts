/**
 * The fit stage: the draft measured with the model's real tokenizer, as the presenter will show
 * it (last redaction pass, spotlight, fence), and cut until it fits. What it returns is the text
 * the model reads.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { Presenter } from "../pipeline/present.js";
import type { Stage } from "../pipeline/run.js";
import type { Draft } from "../render/stage.js";
import type { FittedEnvelope } from "./envelope.js";
import { boundFit, type Fitted as FittedLines, fitLines } from "./lines.js";
import type { ResolvedTokenizer } from "./tokenizer.js";

export interface FitOptions {
  /** The tokenizer, loaded on first use (its rank tables are large). */
  readonly tokenizer: () => Promise<ResolvedTokenizer>;
  readonly presenter: Presenter;
  /**
   * `tokenCount: "bound"`: the tokenizer's name, for a result whose bytes prove it fits (it is
   * then not counted, and the tokenizer not loaded: `boundFit`).
   */
  readonly bound?: string;
}

export type Fitted =
  | { readonly kind: "lines"; readonly tokenizer: string; readonly lines: FittedLines }
  | {
      readonly kind: "envelope";
      readonly tokenizer: string;
      readonly envelope: FittedEnvelope;
      /** Which of the draft's requests was fitted. */
      readonly request: number;
    };

/**
 * @example
 * const fit = createFit({ tokenizer: () => resolveTokenizer("o200k_base"), presenter });
 * const fitted = await fit.run(draft, ctx);
 */
export function createFit(o: FitOptions): Stage<Draft, Fitted & { readonly draft: Draft }> {
  return {
    name: "fit",
    async run(draft) {
      if (o.bound !== undefined && draft.kind === "lines") {
        const lines = await boundFit(draft.request, o.presenter);
        if (lines) return { kind: "lines", tokenizer: o.bound, lines, draft };
      }
      const tokenizer = await loaded(o.tokenizer);
      if (draft.kind === "lines") {
        const lines = await fitLines(draft.request, tokenizer, o.presenter);
        return { kind: "lines", tokenizer: tokenizer.name, lines, draft };
      }
      // The envelope fit loads with the first structured result.
      const { fitEnvelope } = await import("./envelope.js");
      let fitted: FittedEnvelope | undefined;
      let request = 0;
      for (; request < draft.requests.length; request++) {
        fitted = await fitEnvelope(draft.requests[request] as never, tokenizer, o.presenter);
        if (fitted.shown > 0 || request === draft.requests.length - 1) break;
      }
      return {
        kind: "envelope",
        tokenizer: tokenizer.name,
        envelope: fitted as FittedEnvelope,
        request: Math.min(request, draft.requests.length - 1),
        draft,
      };
    },
  };
}

async function loaded(load: () => Promise<ResolvedTokenizer>): Promise<ResolvedTokenizer> {
  try {
    return await load();
  } catch (cause) {
    if (cause instanceof AirlockError) throw cause;
    throw new AirlockError("fit/tokenizer-failed", "fit: the tokenizer could not be loaded", {
      cause,
    });
  }
}
