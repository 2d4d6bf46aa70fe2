/**
 * The framework pages (docs/ai-sdk.md, langchain.md, openai-agents.md) show what the model reads
 * when a wrapped tool throws `connect ECONNREFUSED 10.0.3.7:5432`: each block is checked against
 * what the wrapped tool gives its framework, in the framework's own form.
 */
import { readFileSync } from "node:fs";
import { tool as langchainTool } from "@langchain/core/tools";
import { tool as agentsTool, RunContext } from "@openai/agents-core";
import { withAirlock as forAiSdk, modelOutput } from "agent-airlock/ai-sdk";
import { withAirlock as forLangChain } from "agent-airlock/langchain";
import { withAirlock as forAgents } from "agent-airlock/openai-agents";
import { tool as aiTool, jsonSchema } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const thrown = () =>
  Object.assign(new Error("connect ECONNREFUSED 10.0.3.7:5432"), { code: "ECONNREFUSED" });

function shown(page: string): string | undefined {
  const text = readFileSync(new URL(`../../docs/${page}`, import.meta.url), "utf8");
  return /<!-- error-output -->\n```text\n([\s\S]*?)\n```\n<!-- \/error-output -->/.exec(text)?.[1];
}

describe("framework pages: what the model reads for a thrown error", () => {
  it("ai-sdk.md: an error-text output", async () => {
    const wrapped = forAiSdk({
      query_db: aiTool({
        description: "db",
        inputSchema: jsonSchema<Record<string, unknown>>({ type: "object" }),
        execute: async (): Promise<string> => {
          throw thrown();
        },
      }),
    });
    const output = await wrapped.query_db.execute?.({}, { toolCallId: "c", messages: [] });
    expect(shown("ai-sdk.md")).toBeDefined();
    expect(modelOutput(output)).toEqual({ type: "error-text", value: shown("ai-sdk.md") });
  });

  it("langchain.md: a ToolMessage with status error", async () => {
    const [wrapped] = forLangChain([
      langchainTool(
        async (): Promise<string> => {
          throw thrown();
        },
        { name: "query_db", description: "db", schema: z.object({}) },
      ),
    ]);
    const message = await wrapped?.invoke({
      name: "query_db",
      args: {},
      id: "c",
      type: "tool_call",
    });
    expect(shown("langchain.md")).toBeDefined();
    expect(message).toMatchObject({ status: "error", content: shown("langchain.md") });
  });

  it("openai-agents.md: the function output", async () => {
    const wrapped = forAgents({
      name: "query_db",
      description: "db",
      parameters: z.object({}),
      execute: async (): Promise<string> => {
        throw thrown();
      },
    });
    expect(shown("openai-agents.md")).toBeDefined();
    expect(await wrapped.invoke(new RunContext(), "{}")).toBe(shown("openai-agents.md"));
    // The built tool, by contrast, answers with the SDK's fixed message (its own errorFunction).
    const built = forAgents(
      agentsTool({
        name: "query_db",
        description: "db",
        parameters: z.object({}),
        execute: async (): Promise<string> => {
          throw thrown();
        },
      }),
    );
    expect(await built.invoke(new RunContext(), "{}")).toMatch(/An error occurred while running/);
  });
});
