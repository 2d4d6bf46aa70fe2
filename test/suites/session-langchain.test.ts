/**
 * A session in the real LangChain.js loop (`createAgent` of langchain with core's `fakeModel`):
 * a 40-step run in which the model calls one tool a step (logs of 30 to 300 KB, each with one
 * planted error). What the model received at each call is counted with gpt-tokenizer from the
 * messages the agent sent it: with `withSession`'s middleware its tool messages stay within the
 * ceiling; without it (the negative control) they pass the ceiling.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { createSession } from "agent-airlock";
import { withSession } from "agent-airlock/langchain";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildLog, FAILURE } from "../helpers/builds.js";
import { recordingKey, runLog, tokens } from "../helpers/frameworks.js";

const STEPS = 40;
const CEILING = 12_000;

const readLog = tool(async ({ n }: { n: number }) => runLog(n), {
  name: "read_log",
  description: "read a log",
  schema: z.object({ n: z.number() }),
}) as unknown as StructuredToolInterface;

/** The model's calls, one a step. (`respondWithTools` fills each reply with the text of every
 * message before it, which doubles with every step: forty steps would not fit in a string.) */
function script() {
  let model = fakeModel();
  for (let i = 1; i <= STEPS; i++) {
    const call = { name: "read_log", args: { n: i }, id: `call_${i}`, type: "tool_call" as const };
    model = model.respond(() => new AIMessage({ content: "", tool_calls: [call] }));
  }
  return model.respond(new AIMessage("done"));
}

function toolTokens(messages: readonly BaseMessage[]): number {
  return messages
    .filter((m) => ToolMessage.isInstance(m))
    .reduce((n, m) => n + tokens(String(m.content)), 0);
}

describe("langchain: withSession over a 40-step run", () => {
  it("keeps every model call's tool messages within the run's ceiling", async () => {
    const session = createSession({ maxRunTokens: CEILING, maxTokens: 2000 });
    const { tools, middleware } = withSession([readLog], session);
    const model = script();
    const agent = createAgent({ model, tools, middleware: [middleware] });
    await agent.invoke(
      { messages: [{ role: "user", content: "go" }] },
      { recursionLimit: 2 * STEPS + 10 },
    );
    expect(model.calls).toHaveLength(STEPS + 1);
    const peak = Math.max(...model.calls.map((c) => toolTokens(c.messages)));
    expect(peak).toBeLessThanOrEqual(CEILING);
    expect(session.stats().reshapes).toBeGreaterThan(0);
    expect(session.view()).toHaveLength(STEPS);
  }, 240_000);

  it("negative control: the same run without the middleware passes the ceiling", async () => {
    const session = createSession({ maxRunTokens: CEILING, maxTokens: 2000 });
    const { tools } = withSession([readLog], session);
    const model = script();
    await createAgent({ model, tools }).invoke(
      { messages: [{ role: "user", content: "go" }] },
      { recursionLimit: 2 * STEPS + 10 },
    );
    expect(toolTokens(model.calls.at(-1)?.messages ?? [])).toBeGreaterThan(CEILING);
  }, 240_000);

  it("shapes a call the key names again as a re-run of the one before", async () => {
    for (const withKey of [true, false]) {
      let n = 0;
      const runTests = tool(async () => buildLog(++n, n === 2), {
        name: "run_tests",
        description: "run the tests",
        schema: z.object({ suite: z.string() }),
      }) as unknown as StructuredToolInterface;
      const session = createSession({ maxRunTokens: CEILING, maxTokens: 400 });
      const { keys, key } = recordingKey();
      const { tools, middleware } = withSession([runTests], session, withKey ? { key } : undefined);
      let model = fakeModel();
      for (const id of ["call_1", "call_2"]) {
        const call = { name: "run_tests", args: { suite: "unit" }, id, type: "tool_call" as const };
        model = model.respond(() => new AIMessage({ content: "", tool_calls: [call] }));
      }
      model = model.respond(new AIMessage("done"));
      await createAgent({ model, tools, middleware: [middleware] }).invoke(
        { messages: [{ role: "user", content: "test" }] },
        { recursionLimit: 20 },
      );
      const second = String(
        model.calls[2]?.messages.filter((m) => ToolMessage.isInstance(m))[1]?.content ?? "",
      );
      expect(second.includes("[airlock: re-run of call_1 ("), String(withKey)).toBe(withKey);
      if (withKey) {
        expect(keys).toEqual([{ suite: "unit" }, { suite: "unit" }]);
        for (const line of FAILURE) expect(second).toContain(line);
      }
    }
  });
});
