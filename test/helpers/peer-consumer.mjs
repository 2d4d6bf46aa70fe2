/**
 * A host of `agent-airlock/ai-sdk` on whatever `ai` its scratch project installed (6 or 7): the
 * SDK's own loop (`generateText` with its `MockLanguageModelV3`), a wrapped tool that returns a
 * 2 MB log, then `read_result`. Prints what the model received as one line of JSON.
 *
 *   node peer-consumer.mjs     (from the scratch project, where `ai` and the package are installed)
 */
import { createMemoryStore } from "agent-airlock";
import { readResultTool, withAirlock } from "agent-airlock/ai-sdk";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";

const lines = Array.from({ length: 40_000 }, (_, i) => `INFO request ${i} served in ${i % 97} ms`);
lines[23_456] = "FATAL worker 7 out of memory: heap limit reached";
const store = createMemoryStore();
const input = jsonSchema({ type: "object", additionalProperties: true });
const tools = {
  ...withAirlock(
    {
      fetch_log: tool({
        description: "log",
        inputSchema: input,
        execute: async () => lines.join("\n"),
      }),
    },
    { maxTokens: 800, store },
  ),
  read_result: readResultTool({ store, maxTokens: 800 }),
};
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const results = (prompt) =>
  ([...prompt].reverse().find((m) => m.role === "tool")?.content ?? []).filter(
    (p) => p.type === "tool-result",
  );
let turn = 0;
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const step = turn++;
    const call = (toolName, args) => ({
      content: [
        { type: "tool-call", toolCallId: `c${step}`, toolName, input: JSON.stringify(args) },
      ],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    });
    if (step === 0) return call("fetch_log", {});
    if (step === 1) {
      const text = String(results(prompt)[0]?.output?.value ?? "");
      const handle = /"handle":"(res_[0-9a-f]+)"/.exec(text)?.[1];
      return call("read_result", { handle, grep: "FATAL" });
    }
    return {
      content: [{ type: "text", text: "done" }],
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [],
    };
  },
});
await generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(4) });
const seen = model.doGenerateCalls.slice(1).map((c) => results(c.prompt)[0]?.output ?? null);
console.log(JSON.stringify({ node: process.version, seen }));
