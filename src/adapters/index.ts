import { AirlockError } from "../errors.js";
import type { Shaped } from "../types.js";

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

function requireId(id: unknown, name: string): string {
  if (typeof id !== "string" || id === "") {
    throw new AirlockError("adapter/invalid-id", `adapters: ${name} must be a non-empty string`);
  }
  return id;
}
