/**
 * A session in the real `ai` loop (`generateText` with its own `MockLanguageModelV3`): a
 * 40-step run in which the model calls one tool a step (logs of 30 to 300 KB, each with one
 * planted error, and a tool that throws now and then). What the model received at each step is
 * counted with gpt-tokenizer from the prompt the SDK built: with `withSession`'s `prepareStep`
 * its tool results stay within the ceiling and every planted error is in them or one
 * `read_result` away; without it (the negative control) they pass the ceiling.
 */
import { createMemoryStore, createResultReader, createSession } from "agent-airlock";
import { withSession } from "agent-airlock/ai-sdk";
import { generateText, jsonSchema, stepCountIs, type Tool, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { buildLog, FAILURE } from "../helpers/builds.js";
import { recordingKey, runFact, runLog, tokens } from "../helpers/frameworks.js";

const STEPS = 40;
const CEILING = 12_000;
const input = jsonSchema<{ n: number }>({
  type: "object",
  properties: { n: { type: "number" } },
  required: ["n"],
});
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function tools(): Record<string, Tool> {
  return {
    read_log: tool({
      description: "read a log",
      inputSchema: input,
      execute: async ({ n }: { n: number }) => {
        if (n % 13 === 0) throw new Error(`log ${n} unavailable: ECONNRESET at /srv/logs.js:9`);
        return runLog(n);
      },
    }),
  };
}

interface Part {
  type: string;
  toolCallId: string;
  output: { type: string; value: unknown };
}

/** Every tool result the model received in one prompt, as text. */
function resultsIn(prompt: ReadonlyArray<{ role: string; content: unknown }>): string[] {
  return prompt
    .filter((m) => m.role === "tool")
    .flatMap((m) => (m.content as Part[]).filter((p) => p.type === "tool-result"))
    .map((p) => String(p.output.value));
}

function model(): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      const content =
        step <= STEPS
          ? [
              {
                type: "tool-call" as const,
                toolCallId: `call_${step}`,
                toolName: "read_log",
                input: JSON.stringify({ n: step }),
              },
            ]
          : [{ type: "text" as const, text: "done" }];
      return {
        content,
        finishReason: { unified: step <= STEPS ? "tool-calls" : "stop", raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

describe("ai-sdk: withSession over a 40-step run", () => {
  it("keeps every step's tool results within the run's ceiling, each planted error in view or one read away", async () => {
    const store = createMemoryStore();
    const session = createSession({ maxRunTokens: CEILING, maxTokens: 2000, store });
    const { tools: wrapped, prepareStep } = withSession(tools(), session);
    const m = model();
    await generateText({
      model: m,
      tools: wrapped,
      prepareStep,
      prompt: "investigate",
      stopWhen: stepCountIs(STEPS + 1),
    });
    expect(m.doGenerateCalls).toHaveLength(STEPS + 1);
    let peak = 0;
    for (const call of m.doGenerateCalls) {
      const total = resultsIn(call.prompt as never).reduce((n, t) => n + tokens(t), 0);
      peak = Math.max(peak, total);
    }
    expect(peak).toBeLessThanOrEqual(CEILING);
    expect(session.stats().reshapes).toBeGreaterThan(0);

    const last = resultsIn(m.doGenerateCalls[STEPS]?.prompt as never);
    expect(last).toHaveLength(STEPS);
    const all = last.join("\n");
    const read = createResultReader({ store, maxTokens: 2000 });
    const handles = [...all.matchAll(/res_[0-9a-f]{24}/g)].map((h) => h[0]);
    for (let n = 1; n <= STEPS; n++) {
      if (n % 13 === 0) {
        // The thrown error reached the model as an error, without its internals.
        expect(all).not.toContain("/srv/logs.js");
        continue;
      }
      if (all.includes(runFact(n))) continue;
      let found = false;
      for (const handle of new Set(handles)) {
        const page = await read({ handle, grep: runFact(n) });
        if (page.text.includes(runFact(n))) found = true;
        if (found) break;
      }
      expect(found, runFact(n)).toBe(true);
    }
  }, 240_000);

  it("negative control: the same run without prepareStep passes the ceiling", async () => {
    const session = createSession({ maxRunTokens: CEILING, maxTokens: 2000 });
    const { tools: wrapped } = withSession(tools(), session);
    const m = model();
    await generateText({
      model: m,
      tools: wrapped,
      prompt: "go",
      stopWhen: stepCountIs(STEPS + 1),
    });
    const total = resultsIn(m.doGenerateCalls[STEPS]?.prompt as never).reduce(
      (n, t) => n + tokens(t),
      0,
    );
    expect(total).toBeGreaterThan(CEILING);
  }, 240_000);

  it("shapes a call the key names again as a re-run of the one before", async () => {
    const runs = (withKey: boolean) => {
      let n = 0;
      const runTests = tool({
        description: "run the tests",
        inputSchema: jsonSchema<{ suite: string }>({
          type: "object",
          properties: { suite: { type: "string" } },
          required: ["suite"],
        }),
        execute: async () => buildLog(++n, n === 2),
      });
      const session = createSession({ maxRunTokens: CEILING, maxTokens: 400 });
      const { keys, key } = recordingKey();
      const { tools: wrapped } = withSession(
        { run_tests: runTests },
        session,
        withKey ? { key } : undefined,
      );
      let step = 0;
      const m = new MockLanguageModelV3({
        doGenerate: async () => {
          step++;
          const call = {
            type: "tool-call" as const,
            toolCallId: `call_${step}`,
            toolName: "run_tests",
            input: JSON.stringify({ suite: "unit" }),
          };
          return {
            content: step <= 2 ? [call] : [{ type: "text" as const, text: "done" }],
            finishReason: { unified: step <= 2 ? "tool-calls" : "stop", raw: undefined },
            usage,
            warnings: [],
          };
        },
      });
      return { m, wrapped, session, keys };
    };
    for (const withKey of [true, false]) {
      const { m, wrapped, session, keys } = runs(withKey);
      await generateText({ model: m, tools: wrapped, prompt: "test", stopWhen: stepCountIs(3) });
      const second = resultsIn(m.doGenerateCalls[2]?.prompt as never)[1] ?? "";
      expect(session.view()[1]?.text).toBe(second);
      // Without a key (the negative control) the second run is shaped on its own.
      expect(second.includes("[airlock: re-run of call_1 ("), String(withKey)).toBe(withKey);
      if (withKey) {
        expect(keys).toEqual([{ suite: "unit" }, { suite: "unit" }]);
        for (const line of FAILURE) expect(second).toContain(line);
      }
    }
  });

  it("records the call when the key function throws, gives no string, or a long one", async () => {
    const session = createSession({ maxRunTokens: CEILING, maxTokens: 400 });
    const keys = [
      () => {
        throw new Error("host bug");
      },
      () => "",
      () => 42 as never,
      (name: string, args: unknown) => `${name} ${"x".repeat(10_000)} ${JSON.stringify(args)}`,
    ];
    for (const [k, key] of keys.entries()) {
      const { tools: wrapped } = withSession(tools(), session, { key });
      const execute = wrapped.read_log?.execute as (i: unknown, o: unknown) => Promise<unknown>;
      await execute({ n: k + 1 }, { toolCallId: `call_${k}`, messages: [] });
    }
    expect(session.view().map((e) => e.callId)).toEqual(["call_0", "call_1", "call_2", "call_3"]);
  });

  it("refuses a key that is not a function", () => {
    const session = createSession({ maxRunTokens: CEILING });
    expect(() => withSession(tools(), session, { key: "run" as never })).toThrow(
      /key must be a function/,
    );
    expect(() => withSession(tools(), session, { keys: () => "k" } as never)).toThrow(/key/);
  });
});
