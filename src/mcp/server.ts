/**
 * The server side: tool handlers that shape before they answer. A handler's result is shaped
 * whole (its `outputSchema` keeps `structuredContent` valid); a handler that throws answers with
 * the safe description of its error (`shapeError`: `isError: true`, no stack frames, paths or
 * internal hosts), except for an error in the call itself, which is thrown again as a JSON-RPC
 * error (`toMcpError`: the SDK's low-level `Server` sends it as it is).
 */
import type { McpCallToolResult } from "../adapters/content.js";
import { toMcp, toMcpError } from "../adapters/index.js";
import type { Schema } from "../contract/contract.js";
import { describeError } from "../failure/describe.js";
import { checkToolsOptions, type McpShapeOptions, type McpToolsOptions } from "../options/mcp.js";
import { shapeError } from "../shape-error.js";
import { createCallToolResultShaper } from "./result.js";
import { isResultLike } from "./snapshot.js";

// biome-ignore lint/suspicious/noExplicitAny: a handler's arguments are the SDK's and the host's.
type Handler = (...args: any[]) => unknown;

/** The part of the SDK's `McpServer` the wrapper uses. */
export interface McpServerLike {
  registerTool(
    name: string,
    config: { readonly outputSchema?: unknown; readonly [key: string]: unknown },
    handler: never,
  ): unknown;
}

/** Where a wrapped server keeps the server it wraps (a page of `read_result` is not shaped twice). */
export const WRAPPED = Symbol.for("agent-airlock/mcp.wrapped");

/** An error that the SDK's `Server` sends as a JSON-RPC error: `code`, `message`, `data`. */
export class McpProtocolError extends Error {
  readonly code: number;
  readonly data: { readonly code: string; readonly retryable: boolean };
  constructor(error: ReturnType<typeof toMcpError>) {
    super(error.message);
    this.name = "McpProtocolError";
    this.code = error.code;
    this.data = error.data;
  }
}

/** A Standard Schema of a zod raw shape (`{ rows: z.array(…) }`), as the SDK reads one. */
function shapeSchema(shape: { readonly [key: string]: unknown }): Schema {
  const fields = Object.entries(shape) as Array<
    [string, { "~standard": { validate: (v: unknown) => unknown } }]
  >;
  return {
    "~standard": {
      version: 1,
      vendor: "zod-shape",
      async validate(value: unknown) {
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          return { issues: [{ message: "expected an object", path: [] }] };
        }
        for (const [key, field] of fields) {
          const out = (await field["~standard"].validate(
            (value as Record<string, unknown>)[key],
          )) as {
            issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<unknown> }>;
          };
          if (out.issues?.length) {
            return { issues: out.issues.map((i) => ({ ...i, path: [key, ...(i.path ?? [])] })) };
          }
        }
        return { value };
      },
    },
  } as Schema;
}

/** The tool's output schema as registered: a Standard Schema (a zod object) or a zod raw shape. */
function outputSchemaOf(registered: unknown): Schema | undefined {
  if (typeof registered !== "object" || registered === null) return undefined;
  if ("~standard" in registered) return registered as Schema;
  const values = Object.values(registered);
  if (
    values.length > 0 &&
    values.every((v) => typeof v === "object" && v !== null && "~standard" in v)
  ) {
    return shapeSchema(registered as { readonly [key: string]: unknown });
  }
  return undefined;
}

/**
 * Wraps one tool handler so that it shapes what it returns, and answers for what it throws.
 *
 * @example
 * server.registerTool("query", config, shapeHandler(runQuery, { maxTokens: 2000, tool: "query" }));
 */
export function shapeHandler<H extends Handler>(handler: H, options: McpShapeOptions = {}): H {
  const shapeResult = createCallToolResultShaper(options);
  const {
    maxStructuredTokens: _s,
    outputSchema: _o,
    maxImageBytes: _m,
    images: _i,
    audio: _a,
    ...shape
  } = options;
  return async function shapedHandler(
    this: unknown,
    ...args: unknown[]
  ): Promise<McpCallToolResult> {
    let result: unknown;
    try {
      result = await handler.apply(this, args);
    } catch (error) {
      const safe = describeError(error);
      if (safe.kind === "protocol") throw new McpProtocolError(toMcpError(safe));
      return toMcp(await shapeError(error, shape));
    }
    // A task result (or anything else that is not a CallToolResult) is the SDK's to handle.
    return isResultLike(result)
      ? shapeResult(result as McpCallToolResult)
      : (result as McpCallToolResult);
  } as H;
}

/**
 * Wraps an SDK `McpServer`: every tool registered through the wrapper shapes before it
 * answers, with the defaults, its own options, and its registered `outputSchema`. Everything else
 * is the server's own.
 *
 * @example
 * const server = wrapServer(new McpServer({ name: "db", version: "1.0.0" }), { maxTokens: 2000 });
 * server.registerTool("query", { inputSchema, outputSchema }, async (args) => runQuery(args));
 */
export function wrapServer<S extends McpServerLike>(server: S, options: McpToolsOptions = {}): S {
  checkToolsOptions(options, "wrapServer");
  const { tools = {}, ...defaults } = options;
  function registerTool(
    name: string,
    config: { readonly outputSchema?: unknown },
    handler: Handler,
  ) {
    const own = Object.hasOwn(tools, name) ? tools[name] : undefined;
    if (own === false) return server.registerTool(name, config, handler as never);
    const schema = outputSchemaOf(config?.outputSchema);
    const merged: McpShapeOptions = {
      tool: name,
      ...defaults,
      ...(schema !== undefined ? { outputSchema: schema } : {}),
      ...own,
    };
    return server.registerTool(name, config, shapeHandler(handler, merged) as never);
  }
  return new Proxy(server, {
    get(target, key) {
      if (key === "registerTool") return registerTool;
      if (key === WRAPPED) return target;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
