import { type DescribeErrorOptions, describeError } from "./failure/describe.js";
import type { ShapeOptions } from "./options/compile.js";
import type { Shaped } from "./pipeline/shaped.js";
import { shape } from "./shape.js";

export {
  DEFAULT_MAX_MESSAGE_LENGTH,
  type DescribeErrorOptions,
  describeError,
  type SafeError,
} from "./failure/describe.js";

/** `shape()` options plus `describeError()` options. */
export type ShapeErrorOptions = ShapeOptions & DescribeErrorOptions;

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/**
 * Shapes a thrown error as a tool result: the safe description (code, message, whether retrying
 * may help) goes through `shape()` like any result (fenced, within `maxTokens`), and the result
 * has `status: "error"` and `meta.error` `{ code, message, retryable, kind }`. `toMcp()` of it
 * sets `isError: true`; the other adapters mark it as an error the same way.
 *
 * @example
 * try {
 *   return toMcp(await shapeTool(await runQuery(args)));
 * } catch (error) {
 *   return toMcp(await shapeError(error, { tool: "sql" })); // isError: true, nothing internal leaks
 * }
 */
export async function shapeError(error: unknown, options: ShapeErrorOptions = {}): Promise<Shaped> {
  const safe = describeError(error, options);
  const { kind: _kind, code: _code, maxMessageLength: _max, ...shapeOptions } = options;
  const heading =
    safe.kind === "protocol"
      ? `Call rejected (${safe.code}): ${sentence(safe.message)}`
      : `Tool error (${safe.code}): ${sentence(safe.message)}`;
  const advice = safe.retryable
    ? "Retrying the same call later may help."
    : safe.kind === "protocol"
      ? "Retrying the same call will not help; check the tool name and arguments against the tool list."
      : "Retrying the same call will not help; change the call or try another way.";
  const shaped = await shape(`${heading}\n${advice}`, shapeOptions);
  return {
    ...shaped,
    status: "error",
    meta: {
      ...shaped.meta,
      error: { code: safe.code, message: safe.message, retryable: safe.retryable, kind: safe.kind },
    },
  };
}
