/**
 * agent-airlock/openai-agents against the real OpenAI Agents JS loop (`Runner` of
 * @openai/agents-core 0.20.0) and the SDK's own test model (`ScriptedModel` from
 * `@openai/agents-core/testing`): what the model received, and what the run kept in its items
 * and history. It runs in node, chromium and workerd.
 */
import { Agent, Runner, tool } from "@openai/agents-core";
import {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
} from "@openai/agents-core/testing";
import { createMemoryStore, READ_RESULT_TOOL_STRICT } from "agent-airlock";
import { errorFunction, readResultTool, withAirlock } from "agent-airlock/openai-agents";
import { describe, expect, it } from "vitest";
import { z } from "zod";
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

const runner = new Runner({ tracingDisabled: true });

function toolOptions() {
  const s = scenario();
  const parameters = z.object({ q: z.string().nullable() });
  const make = (name: string, execute: () => Promise<unknown>) => ({
    name,
    description: name,
    parameters,
    execute,
  });
  return [
    make("search", async () => s.short),
    make("list_issues", async () => s.records),
    make("fetch_log", async () => s.log),
    make("query_db", async () => {
      throw dbError();
    }),
  ];
}

interface ResultItem {
  type: string;
  name?: string;
  output?: string | { type: string; text?: string };
}

/** The function results of the last step in a model request's input. */
function resultsIn(input: unknown): ResultItem[] {
  const items = (Array.isArray(input) ? input : []) as ResultItem[];
  const out: ResultItem[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as ResultItem;
    if (item.type !== "function_call_result") break;
    out.unshift(item);
  }
  return out;
}

const textOf = (item: ResultItem | undefined): string =>
  typeof item?.output === "string" ? item.output : String(item?.output?.text ?? "");

function script(): ScriptedModel {
  return new ScriptedModel([
    CALLS.map((c, i) => functionCall(c.name, { q: null }, { callId: `call_${i}` })),
    modelResponder((call) => {
      const log = resultsIn(call.request.input).find((r) => r.name === "fetch_log");
      const handle = handleIn(textOf(log));
      const args = Object.fromEntries(
        READ_RESULT_TOOL_STRICT.inputSchema.required.map((k) => [k, null]),
      );
      return [functionCall("read_result", { ...args, handle, grep: NEEDLE }, { callId: "read" })];
    }),
    [assistantMessage("done")],
  ]);
}

describe("openai-agents: withAirlock through the Runner", () => {
  it("the model reads every result within budget, the error safe, the round held, and read_result pages the rest", async () => {
    const store = createMemoryStore();
    const model = script();
    const tools = [
      ...withAirlock(toolOptions(), { ...BUDGET, store }),
      readResultTool({ store, maxTokens: BUDGET.maxTokens }),
    ];
    const agent = new Agent({ name: "a", model, tools });
    const result = await runner.run(agent, "go");
    expect(result.finalOutput).toBe("done");
    expect(model.calls).toHaveLength(3);

    const seen = resultsIn(model.calls[1]?.request.input);
    expect(seen.map((r) => r.name)).toEqual(CALLS.map((c) => c.name));
    const texts = seen.map(textOf);
    for (const text of texts) expect(tokens(text)).toBeLessThanOrEqual(BUDGET.maxTokens);
    const round = texts.reduce((sum, t) => sum + tokens(t), 0);
    expect(round).toBeLessThanOrEqual(BUDGET.maxRoundTokens);
    expect(texts[0]).toContain("alpha, beta, gamma");
    expect(texts[2]).toMatch(/out of memory/);
    expect(texts[3]).toMatch(/^<untrusted-data[^\n]*>\nTool error \(tool\/unavailable\)/);
    for (const leak of LEAKS) expect(texts.join("\n")).not.toContain(leak);

    const page = resultsIn(model.calls[2]?.request.input)[0];
    expect(page?.name).toBe("read_result");
    expect(textOf(page)).toContain(NEEDLE);
    expect(tokens(textOf(page))).toBeLessThanOrEqual(BUDGET.maxTokens);
    expect(texts.join("\n")).not.toContain(NEEDLE);

    const kept = JSON.stringify([result.newItems, result.history]);
    expect(kept).not.toContain(QUIET);
    expect(kept.length).toBeLessThan(200_000);
  });

  it("negative control: unwrapped, the raw log stays in the run's items and the round is not held", async () => {
    const model = new ScriptedModel([
      CALLS.map((c, i) => functionCall(c.name, { q: null }, { callId: `c${i}` })),
      [assistantMessage("done")],
    ]);
    const tools = toolOptions().map((o) => tool(o));
    const result = await runner.run(new Agent({ name: "a", model, tools }), "go");
    const texts = resultsIn(model.calls[1]?.request.input).map(textOf);
    expect(JSON.stringify(result.newItems).length).toBeGreaterThan(LOG_BYTES);
    expect(texts.reduce((sum, t) => sum + tokens(t), 0)).toBeGreaterThan(BUDGET.maxRoundTokens);
  });

  it("negative control: an errorFunction that shows the error leaks it; airlock's does not", async () => {
    const leaky = tool({
      ...(toolOptions()[3] as ReturnType<typeof toolOptions>[number]),
      errorFunction: (_ctx, error) => String(error),
    });
    const safe = tool({
      ...(toolOptions()[3] as ReturnType<typeof toolOptions>[number]),
      name: "query_db_safe",
      errorFunction: errorFunction({ maxTokens: 200 }),
    });
    const model = new ScriptedModel([
      [
        functionCall("query_db", { q: null }, { callId: "a" }),
        functionCall("query_db_safe", { q: null }, { callId: "b" }),
      ],
      [assistantMessage("done")],
    ]);
    await runner.run(new Agent({ name: "a", model, tools: [leaky, safe] }), "go");
    const [raw, shaped] = resultsIn(model.calls[1]?.request.input).map(textOf);
    expect(raw).toContain("10.0.3.7");
    expect(shaped).toMatch(/tool\/unavailable/);
    for (const leak of LEAKS) expect(shaped).not.toContain(leak);
  });

  it("wraps a built tool too, keeps its strict schema, and refuses a tool with an outputSchema", () => {
    const built = tool({ ...(toolOptions()[0] as ReturnType<typeof toolOptions>[number]) });
    const wrapped = withAirlock(built, { maxTokens: 200 });
    expect(wrapped.name).toBe("search");
    expect(wrapped.strict).toBe(true);
    expect(wrapped.parameters).toEqual(built.parameters);
    const read = readResultTool({ store: createMemoryStore() });
    expect(read.strict).toBe(true);
    expect(read.parameters).toEqual(READ_RESULT_TOOL_STRICT.inputSchema);
    const structured = tool({
      name: "s",
      description: "s",
      parameters: z.object({}),
      outputSchema: z.object({ n: z.number() }),
      execute: async () => ({ n: 1 }),
    });
    expect(() => withAirlock(structured)).toThrow(/outputSchema/);
  });
});
