/**
 * The options of a whole MCP `CallToolResult` (`agent-airlock/mcp`): the options of `shape()`,
 * which every text part is shaped with, and those of the parts that are not text. Checked once,
 * like every options object: an unknown name is refused with the nearest known one.
 */
import type { Schema } from "../contract/contract.js";
import { AirlockError } from "../errors/airlock-error.js";
import { fail, positiveInteger } from "./checks.js";
import { DEFAULT_MAX_TOKENS, MIN_MAX_TOKENS, type ShapeOptions } from "./compile.js";
import { checkNames, MCP_CLIENT_OPTIONS, MCP_OPTIONS } from "./known.js";

export interface McpShapeOptions extends ShapeOptions {
  /**
   * Upper bound on the tokens of the JSON of `structuredContent` (some clients hand it to the
   * model). Default: `maxTokens`.
   */
  readonly maxStructuredTokens?: number;
  /**
   * The tool's `outputSchema` (a JSON Schema, or a Standard Schema such as a zod object):
   * `structuredContent` is then cut only at array items, and only to a value still valid
   * against it.
   */
  readonly outputSchema?: Schema;
  /** Decoded bytes of images and audio kept as they are, all parts together. Default 1 MiB. */
  readonly maxImageBytes?: number;
  /** `false` for a model that cannot see images: every image becomes a line naming it. Default true. */
  readonly images?: boolean;
  /** `false` for a model that cannot hear audio: every clip becomes a line naming it. Default true. */
  readonly audio?: boolean;
}

/** Options of the client and server wrappers: defaults for every tool, and per tool. */
export interface McpToolsOptions extends McpShapeOptions {
  /** Per tool, over the defaults; `false` leaves that tool's results as they are. */
  readonly tools?: { readonly [name: string]: McpShapeOptions | false };
}

export const DEFAULT_MAX_IMAGE_BYTES = 1 << 20;

export interface CompiledMcpOptions {
  /** What every text part is shaped with. */
  readonly shape: ShapeOptions;
  readonly maxTokens: number;
  readonly maxStructuredTokens: number;
  readonly outputSchema: Schema | undefined;
  readonly maxImageBytes: number;
  readonly images: boolean;
  readonly audio: boolean;
}

function flag(name: string, value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== "boolean") fail(`${name} must be a boolean`);
  return value;
}

/**
 * Checks the MCP options and splits off what `shape()` takes (which `compileShaper` checks).
 *
 * @example
 * const o = compileMcpOptions({ maxTokens: 2000, maxImageBytes: 0 });
 */
export function compileMcpOptions(options: McpShapeOptions = {}): CompiledMcpOptions {
  if (options === null || typeof options !== "object") fail("options must be an object");
  checkNames(options, MCP_OPTIONS, "options");
  const { maxStructuredTokens, outputSchema, maxImageBytes, images, audio, ...shape } = options;
  const maxTokens = positiveInteger(
    "maxTokens",
    shape.maxTokens,
    DEFAULT_MAX_TOKENS,
    MIN_MAX_TOKENS,
  );
  if (
    outputSchema !== undefined &&
    (typeof outputSchema !== "object" || outputSchema === null || Array.isArray(outputSchema))
  ) {
    fail("outputSchema must be a JSON Schema object or a Standard Schema");
  }
  return Object.freeze({
    shape,
    maxTokens,
    maxStructuredTokens: positiveInteger(
      "maxStructuredTokens",
      maxStructuredTokens,
      maxTokens,
      MIN_MAX_TOKENS,
    ),
    outputSchema,
    maxImageBytes: positiveInteger("maxImageBytes", maxImageBytes, DEFAULT_MAX_IMAGE_BYTES, 0),
    images: flag("images", images),
    audio: flag("audio", audio),
  });
}

/**
 * Checks a wrapper's options: the defaults, and each tool's own (or `false`).
 *
 * @example
 * checkToolsOptions({ maxTokens: 2000, tools: { search: { maxTokens: 800 }, ping: false } }, "wrapClient");
 */
export function checkToolsOptions(options: McpToolsOptions, where: string): void {
  if (options === null || typeof options !== "object") fail(`${where}: options must be an object`);
  checkNames(options, MCP_CLIENT_OPTIONS, where);
  const { tools, ...defaults } = options;
  compileMcpOptions(defaults);
  if (tools === undefined) return;
  if (typeof tools !== "object" || tools === null) fail(`${where}: tools must be an object`);
  for (const [name, own] of Object.entries(tools)) {
    if (own === false) continue;
    try {
      compileMcpOptions({ ...defaults, ...own });
    } catch (error) {
      if (!(error instanceof AirlockError)) throw error;
      throw new AirlockError(error.code, `${where}: tools.${name}: ${error.message}`, {
        cause: error,
      });
    }
  }
}
