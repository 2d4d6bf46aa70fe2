import type { AirlockErrorCode } from "./codes.js";

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
