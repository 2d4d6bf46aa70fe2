import type { ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { shape, toAnthropic, toMcp, toOpenAIChat, toOpenAIResponses } from "agent-airlock";
import { shapeCallToolResult } from "agent-airlock/mcp";
import type { ChatCompletionToolMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";

/**
 * Type conformance with the providers' own SDK types: this file fails `npm run typecheck` if an
 * adapter's output stops being assignable to what the SDK accepts. The runtime check is small;
 * the assignments are the test.
 */
describe("adapter types match the official SDKs", () => {
  it("each adapter's output is assignable to the SDK's parameter type", async () => {
    const shaped = await shape({ stdout: "", stderr: "boom", exitCode: 1 });
    const chat: ChatCompletionToolMessageParam = toOpenAIChat(shaped, { toolCallId: "call_1" });
    const responses: ResponseInputItem = toOpenAIResponses(shaped, { callId: "call_1" });
    const anthropic: ToolResultBlockParam = toAnthropic(shaped, { toolUseId: "toolu_1" });
    const mcp: CallToolResult = toMcp(shaped);
    expect([chat.role, responses.type, anthropic.type, mcp.isError]).toEqual([
      "tool",
      "function_call_output",
      "tool_result",
      true,
    ]);
  });

  it("a shaped CallToolResult (images included) goes into every SDK's type, and the SDK's result in", async () => {
    const sdkResult: CallToolResult = {
      content: [
        { type: "text", text: "ok" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "resource_link", uri: "file:///a", name: "a" },
      ],
      structuredContent: { n: 1 },
    };
    const shaped: CallToolResult = await shapeCallToolResult(sdkResult);
    const chat: ChatCompletionToolMessageParam = toOpenAIChat(shaped, { toolCallId: "call_1" });
    const responses: ResponseInputItem = toOpenAIResponses(shaped, { callId: "call_1" });
    const anthropic: ToolResultBlockParam = toAnthropic(shaped, { toolUseId: "toolu_1" });
    const mcp: CallToolResult = toMcp(await shape("x"), { structuredContent: { n: 1 } });
    expect([chat.role, responses.type, anthropic.type, mcp.structuredContent]).toEqual([
      "tool",
      "function_call_output",
      "tool_result",
      { n: 1 },
    ]);
  });
});
