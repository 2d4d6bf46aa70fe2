import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  type Shaped,
  shape,
  toAnthropic,
  toMcp,
  toOpenAIChat,
  toOpenAIResponses,
} from "agent-airlock";
import { describe, expect, it } from "vitest";

/** What every adapter must do; one suite runs against all of them. */
interface AdapterCase {
  readonly name: string;
  readonly adapt: (shaped: Shaped) => unknown;
  readonly textOf: (message: unknown) => string;
  readonly isError: (message: unknown) => boolean;
  readonly idOf?: (message: unknown) => string;
}

// biome-ignore lint/suspicious/noExplicitAny: reading provider messages generically
type Any = any;

const cases: AdapterCase[] = [
  {
    name: "OpenAI Chat tool message",
    adapt: (s) => toOpenAIChat(s, { toolCallId: "call_1" }),
    textOf: (m) => (m as Any).content,
    isError: () => false,
    idOf: (m) => (m as Any).tool_call_id,
  },
  {
    name: "OpenAI Responses function_call_output",
    adapt: (s) => toOpenAIResponses(s, { callId: "call_1" }),
    textOf: (m) => (m as Any).output,
    isError: () => false,
    idOf: (m) => (m as Any).call_id,
  },
  {
    name: "Anthropic tool_result",
    adapt: (s) => toAnthropic(s, { toolUseId: "call_1" }),
    textOf: (m) => (m as Any).content.map((c: Any) => c.text).join(""),
    isError: (m) => (m as Any).is_error === true,
    idOf: (m) => (m as Any).tool_use_id,
  },
  {
    name: "MCP CallToolResult",
    adapt: (s) => toMcp(s),
    textOf: (m) => (m as Any).content.map((c: Any) => c.text).join(""),
    isError: (m) => (m as Any).isError === true,
  },
];

function runAdapterSuite(c: AdapterCase): void {
  describe(`adapter conformance: ${c.name}`, () => {
    it("carries the shaped text unchanged, fence included", async () => {
      const shaped = await shape("a\nb\n</untrusted-data>", { tool: "t" });
      const message = c.adapt(shaped);
      expect(c.textOf(message)).toBe(shaped.text);
    });

    it("survives a JSON round trip (it goes over the wire)", async () => {
      const shaped = await shape('quote " backslash \\ emoji 😀', { tool: "t" });
      const message = c.adapt(shaped);
      expect(JSON.parse(JSON.stringify(message))).toEqual(message);
    });

    it("says a failed tool failed in the text, for providers without an error flag too", async () => {
      const failed = await shape({ stdout: "", stderr: "boom", exitCode: 1 });
      expect(c.textOf(c.adapt(failed))).toContain("[airlock: command exited with code 1;");
    });

    it("marks a failed tool as an error where the provider can say so", async () => {
      const failed = await shape({ stdout: "", stderr: "boom", exitCode: 1 });
      const fine = await shape({ stdout: "ok", exitCode: 0 });
      const partial = await shape(Array.from({ length: 5000 }, (_, i) => `row ${i}`).join("\n"), {
        maxTokens: 128,
      });
      expect(failed.status).toBe("error");
      expect(partial.status).toBe("partial");
      const supportsErrors = c.name.startsWith("Anthropic") || c.name.startsWith("MCP");
      expect(c.isError(c.adapt(failed))).toBe(supportsErrors);
      expect(c.isError(c.adapt(fine))).toBe(false);
      // A cut is not an error.
      expect(c.isError(c.adapt(partial))).toBe(false);
    });

    if (c.idOf) {
      const idOf = c.idOf;
      it("answers the tool call it was given", async () => {
        expect(idOf(c.adapt(await shape("x")))).toBe("call_1");
      });
    }
  });
}

for (const c of cases) runAdapterSuite(c);

describe("adapters against the real MCP SDK", () => {
  it("toMcp output parses as a CallToolResult, ok and failed", async () => {
    for (const input of [
      { stdout: "ok", exitCode: 0 },
      { stdout: "", stderr: "boom", exitCode: 2 },
    ]) {
      const shaped = await shape(input, { tool: "t" });
      const parsed = CallToolResultSchema.parse(toMcp(shaped));
      expect(parsed.content).toEqual([{ type: "text", text: shaped.text }]);
      expect(parsed.isError ?? false).toBe(shaped.status === "error");
    }
  });
});

describe("adapters reject a missing call id", () => {
  it("throws an AirlockError naming the id", async () => {
    const shaped = await shape("x");
    expect(() => toOpenAIChat(shaped, { toolCallId: "" })).toThrow(/toolCallId/);
    expect(() => toOpenAIResponses(shaped, {} as never)).toThrow(/callId/);
    expect(() => toAnthropic(shaped, { toolUseId: undefined as never })).toThrow(/toolUseId/);
    expect(() => toOpenAIChat(shaped, { toolCallId: "" })).toThrow(
      expect.objectContaining({ code: "adapter/invalid-id" }),
    );
  });
});
