/**
 * A session in the real OpenAI Agents loop (`Runner` with the SDK's own `ScriptedModel`): a
 * 40-turn run in which the model calls one tool a turn (logs of 30 to 300 KB, each with one
 * planted error). What the model received at each call is counted with gpt-tokenizer from the
 * request the SDK built: with `withSession`'s `callModelInputFilter` its tool results stay
 * within the ceiling; without it (the negative control) they pass the ceiling.
 */
import { Agent, Runner } from "@openai/agents-core";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { createSession } from "agent-airlock";
import { withSession } from "agent-airlock/openai-agents";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildLog, FAILURE } from "../helpers/builds.js";
import { recordingKey, runLog, tokens } from "../helpers/frameworks.js";

const TURNS = 40;
const CEILING = 12_000;

const readLog = {
  name: "read_log",
  description: "read a log",
  parameters: z.object({ n: z.number() }),
  execute: async ({ n }: { n: number }) => runLog(n),
};

function script(): ScriptedModel {
  return new ScriptedModel([
    ...Array.from({ length: TURNS }, (_, i) => [
      functionCall("read_log", { n: i + 1 }, { callId: `call_${i + 1}` }),
    ]),
    [assistantMessage("done")],
  ]);
}

interface Item {
  type: string;
  output?: string | { type: string; text?: string };
}

function resultTokens(input: unknown): number {
  const items = (Array.isArray(input) ? input : []) as Item[];
  return items
    .filter((i) => i.type === "function_call_result")
    .reduce(
      (n, i) => n + tokens(typeof i.output === "string" ? i.output : String(i.output?.text ?? "")),
      0,
    );
}

describe("openai-agents: withSession over a 40-turn run", () => {
  it("keeps every model call's tool results within the run's ceiling", async () => {
    const session = createSession({ maxRunTokens: CEILING, maxTokens: 2000 });
    const { tools, callModelInputFilter } = withSession([readLog], session);
    const model = script();
    const runner = new Runner({ tracingDisabled: true, callModelInputFilter });
    const result = await runner.run(new Agent({ name: "a", model, tools }), "go", {
      maxTurns: TURNS + 5,
    });
    expect(result.finalOutput).toBe("done");
    expect(model.calls).toHaveLength(TURNS + 1);
    const peak = Math.max(...model.calls.map((c) => resultTokens(c.request.input)));
    expect(peak).toBeLessThanOrEqual(CEILING);
    expect(session.stats().reshapes).toBeGreaterThan(0);
    expect(session.view()).toHaveLength(TURNS);
  }, 240_000);

  it("negative control: the same run without the filter passes the ceiling", async () => {
    const session = createSession({ maxRunTokens: CEILING, maxTokens: 2000 });
    const { tools } = withSession([readLog], session);
    const model = script();
    const runner = new Runner({ tracingDisabled: true });
    await runner.run(new Agent({ name: "a", model, tools }), "go", { maxTurns: TURNS + 5 });
    expect(resultTokens(model.calls.at(-1)?.request.input)).toBeGreaterThan(CEILING);
  }, 240_000);

  it("shapes a call the key names again as a re-run of the one before", async () => {
    for (const withKey of [true, false]) {
      let n = 0;
      const runTests = {
        name: "run_tests",
        description: "run the tests",
        parameters: z.object({ suite: z.string() }),
        execute: async () => buildLog(++n, n === 2),
      };
      const session = createSession({ maxRunTokens: CEILING, maxTokens: 400 });
      const { keys, key } = recordingKey();
      const { tools, callModelInputFilter } = withSession(
        [runTests],
        session,
        withKey ? { key } : undefined,
      );
      const model = new ScriptedModel([
        [functionCall("run_tests", { suite: "unit" }, { callId: "call_1" })],
        [functionCall("run_tests", { suite: "unit" }, { callId: "call_2" })],
        [assistantMessage("done")],
      ]);
      const runner = new Runner({ tracingDisabled: true, callModelInputFilter });
      await runner.run(new Agent({ name: "a", model, tools }), "test", { maxTurns: 5 });
      const items = (model.calls[2]?.request.input ?? []) as Item[];
      const results = items.filter((i) => i.type === "function_call_result");
      const out = results[1]?.output;
      const second = typeof out === "string" ? out : String(out?.text ?? "");
      expect(second.includes("[airlock: re-run of call_1 ("), String(withKey)).toBe(withKey);
      if (withKey) {
        expect(keys).toEqual([{ suite: "unit" }, { suite: "unit" }]);
        for (const line of FAILURE) expect(second).toContain(line);
      }
    }
  });
});
