import { AirlockError } from "../errors/airlock-error.js";
import type { SafeErrorCode } from "../errors/codes.js";
import type { SafeError } from "../failure/describe.js";
import type { Shaped } from "../pipeline/shaped.js";

/**
 * Provider adapters. Each takes a shaped result and the id the provider gave the tool call, and
 * returns that provider's message. The text is passed through unchanged: the token budget was
 * spent on it, and the fence must stay intact.
 */

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
export function toOpenAIChat(shaped: Shaped, ids: { toolCallId: string }): OpenAIChatToolMessage {
  return {
    role: "tool",
    tool_call_id: requireId(ids.toolCallId, "toolCallId"),
    content: shaped.text,
  };
}

/** OpenAI Responses API: a `function_call_output` input item. */
export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/**
 * @example
 * input.push(toOpenAIResponses(await shape(out), { callId: item.call_id }));
 */
export function toOpenAIResponses(
  shaped: Shaped,
  ids: { callId: string },
): OpenAIResponsesFunctionCallOutput {
  return {
    type: "function_call_output",
    call_id: requireId(ids.callId, "callId"),
    output: shaped.text,
  };
}

/** Anthropic Messages: a `tool_result` content block, sent inside a `user` message. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: Array<{ type: "text"; text: string }>;
  is_error?: true;
}

/**
 * @example
 * messages.push({ role: "user", content: [toAnthropic(await shape(out), { toolUseId: block.id })] });
 */
export function toAnthropic(shaped: Shaped, ids: { toolUseId: string }): AnthropicToolResultBlock {
  return {
    type: "tool_result",
    tool_use_id: requireId(ids.toolUseId, "toolUseId"),
    content: [{ type: "text", text: shaped.text }],
    ...(shaped.status === "error" ? { is_error: true as const } : {}),
  };
}

/** MCP `CallToolResult` (a text content item; `isError` marks a tool failure). */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  isError?: boolean;
}

/**
 * @example
 * server.tool("run", schema, async (args) => toMcp(await shape(await run(args))));
 */
export function toMcp(shaped: Shaped): McpCallToolResult {
  return {
    content: [{ type: "text", text: shaped.text }],
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
