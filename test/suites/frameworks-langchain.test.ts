/**
 * agent-airlock/langchain against the real LangChain.js loop (`createAgent` of langchain 1.5.14
 * on LangGraph, @langchain/core 1.4.0) and core's own fake chat model (`fakeModel`): what the
 * model received, and what the agent's state kept. It runs in node, chromium and workerd.
 */

import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { createMemoryStore } from "agent-airlock";
import { readResultTool, withAirlock } from "agent-airlock/langchain";
import { createAgent } from "langchain";
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

const anyArgs = z.object({}).passthrough();

function rawTools(): StructuredToolInterface[] {
  const s = scenario();
  const make = (name: string, run: () => Promise<unknown>) =>
    tool(run, { name, description: name, schema: anyArgs }) as unknown as StructuredToolInterface;
  return [
    make("search", async () => s.short),
    make("list_issues", async () => JSON.stringify(s.records)),
    make("fetch_log", async () => s.log),
    make("query_db", async () => {
      throw dbError();
    }),
  ];
}

/** The tool messages of the last step, in a list of messages the model received. */
function toolMessages(messages: readonly BaseMessage[]): ToolMessage[] {
  const out: ToolMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as BaseMessage;
    if (!ToolMessage.isInstance(m)) break;
    out.unshift(m);
  }
  return out;
}

function script() {
  return fakeModel()
    .respondWithTools(CALLS.map((c, i) => ({ name: c.name, args: { ...c.args }, id: `call_${i}` })))
    .respond((messages) => {
      const log = toolMessages(messages).find((m) => m.name === "fetch_log");
      const handle = handleIn(String(log?.content ?? ""));
      return new AIMessage({
        content: "",
        tool_calls: [
          {
            name: "read_result",
            args: { handle, grep: NEEDLE },
            id: "call_read",
            type: "tool_call",
          },
        ],
      });
    })
    .respond(new AIMessage("done"));
}

describe("langchain: withAirlock through createAgent", () => {
  it("the model reads every result within budget, the error safe, the round held, and read_result pages the rest", async () => {
    const store = createMemoryStore();
    const model = script();
    const tools = [
      ...withAirlock(rawTools(), { ...BUDGET, store }),
      readResultTool({ store, maxTokens: BUDGET.maxTokens }),
    ];
    const agent = createAgent({ model, tools });
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    expect(model.callCount).toBe(3);

    const seen = toolMessages(model.calls[1]?.messages ?? []);
    expect(seen.map((m) => m.name)).toEqual(CALLS.map((c) => c.name));
    const texts = seen.map((m) => String(m.content));
    for (const text of texts) expect(tokens(text)).toBeLessThanOrEqual(BUDGET.maxTokens);
    const round = texts.reduce((sum, t) => sum + tokens(t), 0);
    expect(round).toBeLessThanOrEqual(BUDGET.maxRoundTokens);
    const [search, , log, db] = seen;
    expect(search?.status).toBe("success");
    expect(texts[0]).toContain("alpha, beta, gamma");
    expect(String(log?.content)).toMatch(/out of memory/);
    // The artifact holds the handle and the facts; the content is the shaped text.
    expect(log?.artifact).toMatchObject({ status: "partial", facts: { truncated: true } });
    expect((log?.artifact as { handle?: string } | undefined)?.handle).toMatch(/^res_/);
    // The error is a ToolMessage with status "error", and nothing internal reaches the model.
    expect(db?.status).toBe("error");
    expect(texts[3]).toMatch(/tool\/unavailable/);
    expect(db?.artifact).toMatchObject({ facts: { error: { code: "tool/unavailable" } } });
    for (const leak of LEAKS) expect(texts.join("\n")).not.toContain(leak);

    const page = toolMessages(model.calls[2]?.messages ?? [])[0];
    expect(page?.name).toBe("read_result");
    expect(page?.status).toBe("success");
    expect(String(page?.content)).toContain(NEEDLE);
    expect(tokens(String(page?.content))).toBeLessThanOrEqual(BUDGET.maxTokens);
    expect(texts.join("\n")).not.toContain(NEEDLE);

    // The agent's state keeps the shaped messages only.
    const kept = JSON.stringify(result.messages);
    expect(kept).not.toContain(QUIET);
    expect(kept.length).toBeLessThan(200_000);
  });

  it("negative control: unwrapped, the raw error reaches the model and the raw log stays in the state", async () => {
    const model = fakeModel()
      .respondWithTools(CALLS.map((c, i) => ({ name: c.name, args: { ...c.args }, id: `c${i}` })))
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: rawTools() });
    const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    const texts = toolMessages(model.calls[1]?.messages ?? []).map((m) => String(m.content));
    expect(texts.join("\n")).toContain("10.0.3.7");
    expect(JSON.stringify(result.messages).length).toBeGreaterThan(LOG_BYTES);
  });

  it("negative control: a per-call budget alone does not hold the round", async () => {
    const model = fakeModel()
      .respondWithTools(CALLS.map((c, i) => ({ name: c.name, args: { ...c.args }, id: `c${i}` })))
      .respond(new AIMessage("done"));
    const tools = withAirlock(rawTools(), { maxTokens: BUDGET.maxTokens });
    await createAgent({ model, tools }).invoke({ messages: [{ role: "user", content: "go" }] });
    const texts = toolMessages(model.calls[1]?.messages ?? []).map((m) => String(m.content));
    expect(texts.reduce((sum, t) => sum + tokens(t), 0)).toBeGreaterThan(BUDGET.maxRoundTokens);
  });

  it("a wrapped tool invoked with a tool call answers with a ToolMessage; without one, with its content", async () => {
    const [search] = withAirlock(rawTools().slice(0, 1), { maxTokens: 200 });
    const message = await search?.invoke({
      name: "search",
      args: {},
      id: "call_x",
      type: "tool_call",
    });
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect((message as ToolMessage).artifact).toMatchObject({ status: "ok" });
    const content = await search?.invoke({});
    expect(String(content)).toContain("alpha, beta, gamma");
    expect(() => withAirlock([], { maxRoundTokens: 3 })).toThrow(/maxRoundTokens/);
  });
});
