/**
 * agent-airlock/ai-sdk against the real `ai` 6.0.326 loop (`generateText`, `streamText` with the
 * UI message stream) and its own `MockLanguageModelV3`: what the model received, and what the
 * SDK kept in `steps`, `response.messages` and the UI stream. The SDK runs in every runtime, so
 * this suite does: node, chromium and workerd.
 */

import { createMemoryStore } from "agent-airlock";
import { modelOutput, readResultTool, withAirlock } from "agent-airlock/ai-sdk";
import { generateText, jsonSchema, stepCountIs, streamText, type Tool, tool } from "ai";
import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { describe, expect, it } from "vitest";
import {
  BUDGET,
  CALLS,
  dbError,
  handleIn,
  LEAKS,
  LOG_BYTES,
  NEEDLE,
  QUIET,
  scenario,
  tokens,
} from "../helpers/frameworks.js";

const input = jsonSchema<Record<string, unknown>>({ type: "object", additionalProperties: true });
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function rawTools(): Record<string, Tool> {
  const s = scenario();
  return {
    search: tool({ description: "search", inputSchema: input, execute: async () => s.short }),
    list_issues: tool({
      description: "issues",
      inputSchema: input,
      execute: async () => s.records,
    }),
    fetch_log: tool({ description: "log", inputSchema: input, execute: async () => s.log }),
    query_db: tool({
      description: "db",
      inputSchema: input,
      execute: async (): Promise<string> => {
        throw dbError();
      },
    }),
  };
}

interface ToolResultPart {
  type: "tool-result";
  toolName: string;
  output: { type: string; value: unknown };
}

/** The tool results of the last tool message in a prompt the model received. */
function resultsIn(prompt: ReadonlyArray<{ role: string; content: unknown }>): ToolResultPart[] {
  const tool = [...prompt].reverse().find((m) => m.role === "tool");
  return ((tool?.content as ToolResultPart[]) ?? []).filter((p) => p.type === "tool-result");
}

const step1 = CALLS.map((c, i) => ({
  type: "tool-call" as const,
  toolCallId: `call_${i}`,
  toolName: c.name,
  input: JSON.stringify(c.args),
}));

/** The model: four parallel calls, then read_result with the handle it read, then an answer. */
function script(prompt: ReadonlyArray<{ role: string; content: unknown }>, turn: number) {
  if (turn === 0) return step1;
  if (turn === 1) {
    const log = resultsIn(prompt).find((p) => p.toolName === "fetch_log");
    const handle = handleIn(String(log?.output.value ?? ""));
    return [
      {
        type: "tool-call" as const,
        toolCallId: "call_read",
        toolName: "read_result",
        input: JSON.stringify({ handle, grep: NEEDLE }),
      },
    ];
  }
  return [{ type: "text" as const, text: "done" }];
}

function mockModel(): MockLanguageModelV3 {
  let turn = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const content = script(options.prompt as never, turn++);
      const calls = content[0]?.type === "tool-call";
      return {
        content,
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

describe("ai-sdk: withAirlock through generateText", () => {
  it("the model reads every result within budget, the error safe, the round held, and read_result pages the rest", async () => {
    const store = createMemoryStore();
    const model = mockModel();
    const tools = {
      ...withAirlock(rawTools(), { ...BUDGET, store }),
      read_result: readResultTool({ store, maxTokens: BUDGET.maxTokens }),
    };
    const result = await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(5) });
    expect(model.doGenerateCalls).toHaveLength(3);

    // Step 1, as the model received it.
    const seen = resultsIn(model.doGenerateCalls[1]?.prompt as never);
    expect(seen.map((p) => p.toolName)).toEqual(CALLS.map((c) => c.name));
    const texts = seen.map((p) => String(p.output.value));
    for (const text of texts) expect(tokens(text)).toBeLessThanOrEqual(BUDGET.maxTokens);
    const round = texts.reduce((sum, t) => sum + tokens(t), 0);
    expect(round).toBeLessThanOrEqual(BUDGET.maxRoundTokens);
    const [search, issues, log, db] = seen;
    expect(search?.output.type).toBe("text");
    expect(String(search?.output.value)).toContain("alpha, beta, gamma");
    expect(issues?.output.type).toBe("text");
    expect(log?.output.type).toBe("text");
    expect(String(log?.output.value)).toMatch(/out of memory/);
    // The error is an error for the model, and nothing internal reaches it.
    expect(db?.output.type).toBe("error-text");
    expect(String(db?.output.value)).toMatch(/tool\/unavailable/);
    for (const leak of LEAKS) expect(texts.join("\n")).not.toContain(leak);

    // Step 2: read_result found the line the first page left out.
    const page = resultsIn(model.doGenerateCalls[2]?.prompt as never)[0];
    expect(page?.toolName).toBe("read_result");
    expect(page?.output.type).toBe("text");
    expect(String(page?.output.value)).toContain(NEEDLE);
    expect(tokens(String(page?.output.value))).toBeLessThanOrEqual(BUDGET.maxTokens);
    expect(texts.join("\n")).not.toContain(NEEDLE);

    // Nothing raw is kept: the steps and the response messages hold the shaped record only.
    const kept = JSON.stringify([result.steps, result.response.messages]);
    expect(kept).not.toContain(QUIET);
    expect(kept.length).toBeLessThan(200_000);
    const logResult = result.steps[0]?.toolResults.find((r) => r.toolName === "fetch_log");
    expect(logResult?.output).toMatchObject({ status: "partial", facts: { truncated: true } });
    expect((logResult?.output as { handle?: string } | undefined)?.handle).toMatch(/^res_/);
    expect(
      result.steps[0]?.toolResults.find((r) => r.toolName === "query_db")?.output,
    ).toMatchObject({
      status: "error",
      facts: { error: { code: "tool/unavailable", retryable: true } },
    });
  });

  it("negative control: unwrapped, the raw error reaches the model and the raw log stays in steps", async () => {
    const model = mockModel();
    const result = await generateText({
      model,
      tools: rawTools(),
      prompt: "go",
      stopWhen: stepCountIs(2),
    });
    const texts = resultsIn(model.doGenerateCalls[1]?.prompt as never).map((p) =>
      JSON.stringify(p.output.value),
    );
    expect(texts.join("\n")).toContain("10.0.3.7");
    expect(JSON.stringify(result.steps).length).toBeGreaterThan(LOG_BYTES);
    // And the round, unshared, would not have held (each result whole).
    expect(texts.reduce((sum, t) => sum + tokens(t), 0)).toBeGreaterThan(BUDGET.maxRoundTokens);
  });

  it("negative control: a per-call budget alone does not hold the round", async () => {
    const model = mockModel();
    const tools = withAirlock(rawTools(), { maxTokens: BUDGET.maxTokens });
    await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(2) });
    const texts = resultsIn(model.doGenerateCalls[1]?.prompt as never).map((p) =>
      String(p.output.value),
    );
    expect(texts.reduce((sum, t) => sum + tokens(t), 0)).toBeGreaterThan(BUDGET.maxRoundTokens);
  });
});

describe("ai-sdk: the UI message stream", () => {
  it("streams the shaped record, never the raw output", async () => {
    const store = createMemoryStore();
    const chunks = (parts: unknown[]) => ({
      stream: simulateReadableStream({ chunks: parts as never[] }),
    });
    let turn = 0;
    const model = new MockLanguageModelV3({
      doStream: async () =>
        turn++ === 0
          ? chunks([
              { type: "stream-start", warnings: [] },
              ...step1,
              { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage },
            ])
          : chunks([
              { type: "stream-start", warnings: [] },
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "done" },
              { type: "text-end", id: "t" },
              { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
            ]),
    });
    const result = streamText({
      model,
      tools: withAirlock(rawTools(), { ...BUDGET, store }),
      prompt: "go",
      stopWhen: stepCountIs(3),
    });
    const parts: unknown[] = [];
    for await (const part of result.toUIMessageStream()) parts.push(part);
    const streamed = JSON.stringify(parts);
    expect(streamed).not.toContain(QUIET);
    expect(streamed.length).toBeLessThan(200_000);
    const outputs = parts.filter(
      (p) => (p as { type: string }).type === "tool-output-available",
    ) as Array<{ output: { status: string; text: string } }>;
    expect(outputs).toHaveLength(4);
    for (const o of outputs) expect(tokens(o.output.text)).toBeLessThanOrEqual(BUDGET.maxTokens);
    const round = outputs.reduce((sum, o) => sum + tokens(o.output.text), 0);
    expect(round).toBeLessThanOrEqual(BUDGET.maxRoundTokens);
    for (const leak of LEAKS) expect(streamed).not.toContain(leak);
  });
});

describe("ai-sdk: the tool form", () => {
  it("a single tool, a streaming execute (the last output is shaped), and the output mapping", async () => {
    const streaming = withAirlock(
      tool({
        description: "progress",
        inputSchema: input,
        async *execute() {
          yield "working";
          yield "finished: 12 files";
        },
      }),
      { maxTokens: 200 },
    );
    const out = await streaming.execute?.({}, { toolCallId: "x", messages: [] });
    expect(out).toMatchObject({ status: "ok" });
    expect((out as { text: string }).text).toContain("finished: 12 files");
    expect((out as { text: string }).text).not.toContain("working");
    expect(modelOutput(out)).toEqual({ type: "text", value: (out as { text: string }).text });
    expect(modelOutput({ raw: "x".repeat(10) })).toMatchObject({ type: "error-text" });
    expect(() => withAirlock({}, { maxToken: 10 } as never)).toThrow(/did you mean "maxTokens"/);
    expect(() => withAirlock({}, { maxMessageLength: 5 })).toThrow(/maxMessageLength/);
    expect(() => withAirlock({}, { roundWindowMs: -1 })).toThrow(/roundWindowMs/);
  });

  it("read_result in its strict form", () => {
    const strict = readResultTool({ store: createMemoryStore(), strict: true }) as Tool & {
      strict?: boolean;
    };
    expect(strict.strict).toBe(true);
  });
});
