/**
 * `agent-airlock/mcp`: whole MCP `CallToolResult`s shaped for the model, on the client and on
 * the server, with the official SDK (`@modelcontextprotocol/sdk`, a peer dependency of this entry
 * only: nothing here imports it).
 *
 * @example
 * import { shapeCallToolResult } from "agent-airlock/mcp";
 * const shaped = await shapeCallToolResult(await client.callTool({ name, arguments }), { maxTokens: 2000 });
 */
import { forTheModel, type McpCallToolResult } from "../adapters/content.js";
import type { McpShapeOptions } from "../options/mcp.js";
import { createCallToolResultShaper } from "./result.js";

export type { McpShapeOptions, McpToolsOptions } from "../options/mcp.js";
export { DEFAULT_MAX_IMAGE_BYTES } from "../options/mcp.js";
export { type McpClientLike, wrapClient } from "./client.js";
export {
  MCP_META_KEY,
  type McpShapedFacts,
  type PartFacts,
  type StructuredFacts,
} from "./meta.js";
export { type ReadResultToolOptions, registerReadResult } from "./read-result.js";
export { type CallToolResultShaper, createCallToolResultShaper } from "./result.js";
export { McpProtocolError, type McpServerLike, shapeHandler, wrapServer } from "./server.js";

/**
 * Shapes a whole MCP result for the model: the model-visible parts share `maxTokens`,
 * `structuredContent` fits `maxStructuredTokens` (and stays valid against `outputSchema`),
 * images and audio are kept within `maxImageBytes` or named, parts for the user alone are left
 * as they are, `isError` is kept, and what was done is in `_meta["dev.airlock/shaped"]`.
 *
 * @example
 * const shaped = await shapeCallToolResult(result, { maxTokens: 2000, tool: "search" });
 * messages.push(toAnthropic(shaped, { toolUseId }));
 */
export async function shapeCallToolResult(
  result: McpCallToolResult,
  options?: McpShapeOptions,
): Promise<McpCallToolResult> {
  return createCallToolResultShaper(options)(result);
}

/**
 * The result as the model reads it: the parts for the user alone (`annotations.audience`
 * without `"assistant"`) left out, for hosts that hand MCP results to the model as they are. The
 * provider adapters (`toAnthropic`, `toOpenAIChat`, `toOpenAIResponses`) do the same.
 *
 * @example
 * modelMessages.push(forModel(await client.callTool({ name, arguments })));
 */
export function forModel(result: McpCallToolResult): McpCallToolResult {
  return { ...result, content: result.content.filter(forTheModel) };
}
