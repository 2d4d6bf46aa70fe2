/** Stable error codes. A code names the stage and the limit; messages may change, codes do not. */
export type AirlockErrorCode =
  | "options/invalid"
  | "input/unsupported"
  | "fit/tokenizer-failed"
  | "fit/budget-too-small"
  | "adapter/invalid-id";

/**
 * Why a result has `status: "error"` (in `meta.error.code`). These are findings about the tool
 * run, reported in the result, never thrown.
 */
export type ShapedErrorCode =
  /** The command exited non-zero or was killed by a signal. */
  | "tool/failed"
  /** The `Response` had a non-2xx status. */
  | "tool/http-error"
  /** A source failed while it was being read; what was read before is shown. */
  | "intake/read-failed";

/**
 * The one error type airlock throws. It is thrown only for programmer errors (bad options, an
 * input type it cannot read); problems with the *content* are reported in `Shaped.meta` instead.
 *
 * @example
 * try { await shape(text, { maxTokens: -1 }) } catch (e) { if (e instanceof AirlockError) e.code }
 */
export class AirlockError extends Error {
  readonly code: AirlockErrorCode;
  constructor(code: AirlockErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AirlockError";
    this.code = code;
  }
}
