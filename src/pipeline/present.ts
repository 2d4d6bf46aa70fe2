/**
 * What the fit measures with: the body as the model will read it (last redaction pass,
 * spotlight, fence). Implemented by `fence/present.ts`; declared here so the fit, which runs
 * before it in the pipeline, can take one.
 */
import type { Stage } from "./run.js";

export interface Presented {
  readonly text: string;
  readonly boundary: string | undefined;
}

export interface Presenter extends Stage<string, Presented> {
  /**
   * The body as the model reads it. `numbered`: its lines of tool text start with their numbers
   * (`numberedLine`), which the last redaction pass looks past, so a secret wrapped over lines
   * is judged whole as it is without them.
   */
  present(body: string, numbered?: boolean): Promise<Presented>;
  /**
   * The spotlighting transform of one line, when it changes token counts (datamarking, base64):
   * per-line estimates are made on the transformed line.
   */
  readonly estimate: ((line: string) => string) | undefined;
  /**
   * The body under the fence a larger body built from it will need: the source where the
   * budget's form is full, and a boundary when `holds` (some of what may be added can hold a
   * fence's text, `holdsFence`). What a fit estimates from, since the fence a small, plain body
   * gets can be far smaller than the one the chosen body needs.
   */
  framed(body: string, holds: boolean, numbered?: boolean): Promise<Presented>;
  /** True when a text could spell a fence's closing line, so a body holding it needs a boundary. */
  holdsFence(text: string): boolean;
}
