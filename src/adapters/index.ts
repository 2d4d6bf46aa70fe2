import { AirlockError } from "../errors/airlock-error.js";
import type { SafeErrorCode } from "../errors/codes.js";
import type { SafeError } from "../failure/describe.js";
import { emptyMarker } from "../pipeline/markers.js";
import type { Shaped } from "../pipeline/shaped.js";
import {
  forTheModel,
  isCallToolResult,
  type McpCallToolResult,
  type McpContent,
  type McpMediaContent,
  mediaLine,
  mimeOf,
  textOf,
} from "./content.js";

export type {
  McpAnnotations,
  McpCallToolResult,
  McpContent,
  McpEmbeddedResource,
  McpMediaContent,
  McpResourceLink,
  McpTextContent,
} from "./content.js";

/**
 * Provider adapters. Each takes a shaped result (or a shaped MCP `CallToolResult`, from
 * `agent-airlock/mcp`) and the id the provider gave the tool call, and returns that provider's
 * message. The text is passed through unchanged: the token budget was spent on it, and the fence
 * must stay intact. Of a `CallToolResult`, only the parts for the model go into the message: a
 * part whose `annotations.audience` leaves out `"assistant"` is the UI's.
 */

/** What the adapters take: a shaped result, or a shaped MCP result. */
export type AdapterInput = Shaped | McpCallToolResult;

/** The parts of a result the model reads (a shaped result is one text part). */
function partsOf(input: AdapterInput): McpContent[] {
  if (!isCallToolResult(input)) return [{ type: "text", text: input.text }];
  return input.content.filter(forTheModel);
}

function failed(input: AdapterInput): boolean {
  return isCallToolResult(input) ? input.isError === true : input.status === "error";
}

/** Text-only providers: every part as text, one after another. */
function joined(input: AdapterInput): string {
  const parts = partsOf(input);
  return parts.length === 0 ? emptyMarker() : parts.map(textOf).join("\n");
}

function isImage(part: McpContent): part is McpMediaContent {
  return part.type === "image";
}

/** OpenAI Chat Completions: the `tool` role message answering one `tool_calls[]` entry. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/**
 * @example
 * messages.push(toOpenAIChat(await shape(out), { toolCallId: call.id }));
 */
export function toOpenAIChat(
  shaped: AdapterInput,
  ids: { toolCallId: string },
): OpenAIChatToolMessage {
  // A Chat Completions tool message carries text only: an image is named, not sent.
  return {
    role: "tool",
    tool_call_id: requireId(ids.toolCallId, "toolCallId"),
    content: joined(shaped),
  };
}

/** OpenAI Responses API: a `function_call_output` input item. */
export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  /** Text; or, when the result holds images, its parts as input items. */
  output: string | OpenAIResponsesOutputItem[];
}

export type OpenAIResponsesOutputItem =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url: string; detail: "auto" };

/** Image types every provider here accepts as base64. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/**
 * @example
 * input.push(toOpenAIResponses(await shape(out), { callId: item.call_id }));
 */
export function toOpenAIResponses(
  shaped: AdapterInput,
  ids: { callId: string },
): OpenAIResponsesFunctionCallOutput {
  const callId = requireId(ids.callId, "callId");
  const parts = partsOf(shaped);
  const images = parts.some((p) => isImage(p) && IMAGE_TYPES.has(mimeOf(p.mimeType)));
  if (!images) return { type: "function_call_output", call_id: callId, output: joined(shaped) };
  const output = parts.map((p): OpenAIResponsesOutputItem => {
    if (isImage(p) && IMAGE_TYPES.has(mimeOf(p.mimeType))) {
      const url = `data:${mimeOf(p.mimeType)};base64,${p.data}`;
      return { type: "input_image", image_url: url, detail: "auto" };
    }
    return { type: "input_text", text: textOf(p) };
  });
  return { type: "function_call_output", call_id: callId, output };
}

/** Anthropic Messages: a `tool_result` content block, sent inside a `user` message. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: AnthropicToolResultContent[];
  is_error?: true;
}

export type AnthropicToolResultContent =
  | { type: "text"; text: string }
  | {
      type: "image";
      source: {
        type: "base64";
        media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
        data: string;
      };
    };

/**
 * @example
 * messages.push({ role: "user", content: [toAnthropic(await shape(out), { toolUseId: block.id })] });
 */
export function toAnthropic(
  shaped: AdapterInput,
  ids: { toolUseId: string },
): AnthropicToolResultBlock {
  const toolUseId = requireId(ids.toolUseId, "toolUseId");
  const parts = partsOf(shaped);
  const content = parts.map((p): AnthropicToolResultContent => {
    const mime = isImage(p) ? mimeOf(p.mimeType) : "";
    if (isImage(p) && IMAGE_TYPES.has(mime)) {
      const media_type = mime as "image/png" | "image/jpeg" | "image/gif" | "image/webp";
      return { type: "image", source: { type: "base64", media_type, data: p.data } };
    }
    // Audio, and images of other types, are named: Anthropic takes neither in a tool result.
    return { type: "text", text: p.type === "image" ? mediaLine(p) : textOf(p) };
  });
  return {
    type: "tool_result",
    tool_use_id: toolUseId,
    content: content.length > 0 ? content : [{ type: "text", text: emptyMarker() }],
    ...(failed(shaped) ? { is_error: true as const } : {}),
  };
}

/** What `toMcp` returns: one text part; `isError` marks a tool failure. */
export interface McpTextResult extends McpCallToolResult {
  content: Array<{ type: "text"; text: string }>;
}

/**
 * MCP `CallToolResult` of a shaped result: its text as one text part, `isError` when the tool
 * failed. A tool that declares an `outputSchema` must answer with `structuredContent` too: pass it
 * (already within its budget: `shapeCallToolResult` from `agent-airlock/mcp` shapes a whole
 * result, structured content included).
 *
 * @example
 * server.registerTool("run", config, async (args) => toMcp(await shape(await run(args))));
 */
export function toMcp(
  shaped: Shaped,
  extra: { readonly structuredContent?: { [key: string]: unknown } } = {},
): McpTextResult {
  return {
    content: [{ type: "text", text: shaped.text }],
    ...(extra.structuredContent !== undefined
      ? { structuredContent: extra.structuredContent }
      : {}),
    ...(shaped.status === "error" ? { isError: true } : {}),
  };
}

/** A JSON-RPC error object, the `error` member of a JSON-RPC error response. */
export interface JsonRpcError {
  code: number;
  message: string;
  data: { code: SafeErrorCode; retryable: boolean };
}

/** JSON-RPC codes (the MCP SDK's `ErrorCode`): MCP reports an unknown tool as invalid params. */
const JSON_RPC_CODES: Partial<Record<SafeErrorCode, number>> = {
  "protocol/unknown-tool": -32602,
  "protocol/invalid-arguments": -32602,
  "protocol/unknown-method": -32601,
  "protocol/internal-error": -32603,
};

/**
 * MCP protocol error: the JSON-RPC `error` for a `SafeError` of kind `protocol` (unknown tool and
 * malformed calls -32602, unknown method -32601, server failure -32603), with the safe message
 * and `data: { code, retryable }`. Tool execution errors belong in the result instead, so the
 * model can read them: `toMcp(await shapeError(error))` gives a `CallToolResult` with
 * `isError: true`. A tool error passed here becomes -32603 (internal error), for hosts that must
 * answer with a JSON-RPC error anyway.
 *
 * @example
 * const safe = describeError(error, { kind: "protocol" });
 * if (safe.kind === "protocol") return { jsonrpc: "2.0", id, error: toMcpError(safe) };
 * return { jsonrpc: "2.0", id, result: toMcp(await shapeError(error)) };
 */
export function toMcpError(safe: SafeError): JsonRpcError {
  return {
    code: JSON_RPC_CODES[safe.code] ?? -32603,
    message: safe.message,
    data: { code: safe.code, retryable: safe.retryable },
  };
}

function requireId(id: unknown, name: string): string {
  if (typeof id !== "string" || id === "") {
    throw new AirlockError("adapter/invalid-id", `adapters: ${name} must be a non-empty string`);
  }
  return id;
}
