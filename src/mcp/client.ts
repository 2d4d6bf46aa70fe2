/**
 * The client side: the SDK's `Client`, wrapped so that `callTool` returns shaped results. Each
 * tool has its own shaper (the defaults, its own options, and its `outputSchema` from
 * `tools/list`), compiled once. Protocol errors stay what they are: a JSON-RPC error from the
 * server (an unknown method, a malformed call), or the SDK refusing the result, rejects as the
 * SDK's `McpError`, untouched.
 */
import type { McpCallToolResult } from "../adapters/content.js";
import { checkToolsOptions, type McpShapeOptions, type McpToolsOptions } from "../options/mcp.js";
import { type CallToolResultShaper, createCallToolResultShaper } from "./result.js";
import { isResultLike } from "./snapshot.js";

/** The part of the SDK's `Client` the wrapper uses. */
export interface McpClientLike {
  callTool(params: { name: string; [key: string]: unknown }, ...rest: never[]): Promise<unknown>;
  listTools(
    params?: { cursor?: string },
    ...rest: never[]
  ): Promise<{
    tools: ReadonlyArray<{ name: string; outputSchema?: { [key: string]: unknown } }>;
    nextCursor?: string;
  }>;
}

/**
 * A wrapped client: the same client, whose `callTool` resolves to a shaped `CallToolResult`
 * (typed as one, so `toAnthropic(await client.callTool(…))` needs no cast).
 */
export type WrappedClient<C extends McpClientLike> = {
  callTool(
    params: Parameters<C["callTool"]>[0],
    ...rest: Parameters<C["callTool"]> extends [unknown, ...infer Rest] ? Rest : never[]
  ): Promise<McpCallToolResult>;
} & C;

/** Tools remembered at most, shapers and schemas alike (a server lists what it likes). */
const MAX_TOOLS = 256;
/** Pages of `tools/list` read at most when the wrapper lists the tools itself. */
const MAX_PAGES = 32;

/**
 * Wraps an SDK `Client` (connected or not): `callTool` returns the result shaped for the model,
 * with per-tool options, and the tool's `outputSchema` from `tools/list` (listed once by the
 * wrapper if the host has not listed the tools through it). Everything else is the client's own.
 * Parts for the user alone stay in the result; the adapters leave them out of the model's message.
 *
 * @example
 * const client = wrapClient(new Client({ name: "agent", version: "1.0.0" }), {
 *   maxTokens: 2000,
 *   tools: { search: { maxTokens: 800, fields: "items[*].{title,url}" }, ping: false },
 * });
 * await client.connect(transport);
 * const result = await client.callTool({ name: "search", arguments: { q } }); // shaped
 */
export function wrapClient<C extends McpClientLike>(
  client: C,
  options: McpToolsOptions = {},
): WrappedClient<C> {
  checkToolsOptions(options, "wrapClient");
  const { tools = {}, ...defaults } = options;
  const schemas = new Map<string, { [key: string]: unknown }>();
  const shapers = new Map<string, CallToolResultShaper>();
  let listed: Promise<void> | undefined;

  const remember = (list: Awaited<ReturnType<McpClientLike["listTools"]>>["tools"]) => {
    for (const tool of list) {
      if (typeof tool?.name !== "string") continue;
      if (tool.outputSchema === undefined) schemas.delete(tool.name);
      else if (schemas.size < MAX_TOOLS || schemas.has(tool.name))
        schemas.set(tool.name, tool.outputSchema);
    }
    // Schemas may have changed: shapers are compiled again on their next call.
    shapers.clear();
  };
  const listAll = async () => {
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const out = await client.listTools(cursor === undefined ? undefined : { cursor });
      remember(out.tools ?? []);
      cursor = out.nextCursor;
      if (cursor === undefined) return;
    }
  };
  const shaperOf = (name: string): CallToolResultShaper | undefined => {
    const own = Object.hasOwn(tools, name) ? tools[name] : undefined;
    if (own === false) return undefined;
    let shaper = shapers.get(name);
    if (shaper === undefined) {
      const schema = schemas.get(name);
      const merged: McpShapeOptions = {
        tool: name,
        ...defaults,
        ...(schema !== undefined ? { outputSchema: schema } : {}),
        ...own,
      };
      shaper = createCallToolResultShaper(merged);
      if (shapers.size < MAX_TOOLS) shapers.set(name, shaper);
    }
    return shaper;
  };

  async function callTool(params: { name: string; [key: string]: unknown }, ...rest: never[]) {
    const answer = await client.callTool(params, ...rest);
    const shaper = shaperOf(String(params?.name));
    if (shaper === undefined) return answer;
    // A result of the 2024-10-07 protocol (`toolResult`) has no parts: its value is one. (The
    // SDK's client hands it on with an empty `content` beside it.)
    const raw = isOldResult(answer) ? fromToolResult(answer) : answer;
    if (!isResultLike(raw)) return answer;
    if (listed === undefined && schemas.size === 0) {
      // The schemas come from tools/list: listed once, quietly (a server may not list).
      listed = listAll().catch(() => undefined);
      await listed;
      return (shaperOf(String(params.name)) as CallToolResultShaper)(raw as McpCallToolResult);
    }
    return shaper(raw as McpCallToolResult);
  }

  async function listTools(...args: Parameters<McpClientLike["listTools"]>) {
    const out = await client.listTools(...args);
    listed ??= Promise.resolve();
    remember(out.tools ?? []);
    return out;
  }

  return new Proxy(client, {
    get(target, key) {
      if (key === "callTool") return callTool;
      if (key === "listTools") return listTools;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as WrappedClient<C>;
}

/** A 2024-10-07 result: a `toolResult`, and no parts of its own. */
function isOldResult(answer: unknown): boolean {
  try {
    if (typeof answer !== "object" || answer === null || !("toolResult" in answer)) return false;
    const content = (answer as { content?: unknown }).content;
    return content === undefined || (Array.isArray(content) && content.length === 0);
  } catch {
    // An answer that cannot be read is not an old one: it is shaped as a result.
    return false;
  }
}

/** A 2024-10-07 result (`{ toolResult }`) as a `CallToolResult` of one text part. */
function fromToolResult(answer: unknown): McpCallToolResult {
  let text: string;
  try {
    const value = (answer as { toolResult?: unknown } | null)?.toolResult;
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
  } catch {
    text = "";
  }
  return { content: [{ type: "text", text }] };
}
