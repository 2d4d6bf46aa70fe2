/**
 * The present stage: what happens to a body on its way out, once, for every format. The last
 * redaction pass runs over the exact text (markers and the joins between kept pieces are
 * redacted too, so nothing assembled from kept pieces can spell a secret), then spotlighting,
 * then the fence. The fit counts what this returns, so the count is of what the model reads.
 */

import type { Presented, Presenter } from "../pipeline/present.js";
import type { SpotlightMode } from "../pipeline/shaped.js";
import { canHoldFence, type FenceForm, fence } from "./fence.js";
import { applySpotlight } from "./spotlight.js";

export interface PresentOptions {
  /** The last redaction pass; absent when redaction is off. */
  readonly redact: ((text: string) => string) | undefined;
  readonly spotlight: SpotlightMode;
  readonly datamark: string;
  readonly untrusted: boolean;
  readonly tool: string | undefined;
  /** The fence's form: `compact` for small budgets. Default `full`. */
  readonly form?: FenceForm;
}

export type { Presented, Presenter };

/**
 * @example
 * const present = createPresenter({ redact: undefined, spotlight: "fence", datamark: "¤", untrusted: true, tool: "bash" });
 * (await present.present("ok")).text; // <untrusted-data source="tool:bash" boundary="…">\nok\n</untrusted-data …>
 */
export function createPresenter(o: PresentOptions): Presenter {
  const spot =
    o.spotlight === "fence"
      ? undefined
      : (text: string) => applySpotlight(o.spotlight, text, o.datamark);
  const shownOf = (body: string, numbered = false) => {
    const redact = o.redact;
    const clean = redact === undefined ? body : numbered ? pastNumbers(body, redact) : redact(body);
    return spot ? spot(clean) : clean;
  };
  async function present(body: string, numbered?: boolean): Promise<Presented> {
    const shown = shownOf(body, numbered);
    return o.untrusted
      ? fence(shown, o.tool, undefined, o.form)
      : { text: shown, boundary: undefined };
  }
  async function framed(body: string, holds: boolean, numbered?: boolean): Promise<Presented> {
    const shown = shownOf(body, numbered);
    return o.untrusted
      ? fence(shown, o.tool, undefined, o.form, holds ? "bounded" : "long")
      : { text: shown, boundary: undefined };
  }
  return {
    name: "present",
    present,
    framed,
    holdsFence: canHoldFence,
    estimate: spot,
    run: (body) => present(body),
  };
}

/** A line's number and tab in a numbered layout (`numberedLine`). */
const NUMBER = /^\d+\t/;

/**
 * Redacts a numbered body as it is without its line numbers (a token wrapped over lines is one
 * run of characters there), then numbers its lines again. Redaction keeps every line where it
 * was (a secret over several lines is one placeholder a line); were that ever not so, the body
 * is redacted as it stands instead.
 */
function pastNumbers(body: string, redact: (text: string) => string): string {
  const lines = body.split("\n");
  const numbers = lines.map((line) => NUMBER.exec(line)?.[0] ?? "");
  const bare = lines.map((line, i) => line.slice((numbers[i] as string).length)).join("\n");
  const clean = redact(bare).split("\n");
  if (clean.length !== lines.length) return redact(body);
  return clean.map((line, i) => `${numbers[i]}${line}`).join("\n");
}
