/**
 * A failure is a block, not a line: a failing test's headline, the assertion under it and its
 * stack are kept together at 2,000 tokens wherever the failure is in a long build log, ahead of
 * the exceptions that passing tests log with traces of their own. The log is built here, so
 * what must be kept is known line by line; a head+tail cut of the same log is the control that
 * shows the failure is far from both ends.
 */
import { describe, expect, it } from "vitest";
import { shape } from "../../src/index.js";
import { toolLines } from "../helpers/markers.js";
import { o200kCount } from "../helpers/sources.js";

const LINES = 30_000;

/** Frames of a stack, each with its own location. */
function frames(n: number, seed: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      `[info]   at com.example.net.Stage${(seed + i) % 17}.run${i}(Stage${(seed + i) % 17}.scala:${40 + ((seed * 7 + i * 13) % 300)})`,
    );
  return out;
}

const FAILURE = [
  "[info] - round trip keeps the request body *** FAILED ***",
  '[info]   "[]" did not equal "[hello]" (RoundTripTest.scala:88)',
  ...frames(8, 3).slice(0, 8),
];

/**
 * A build log of `LINES` lines: compile and test lines, every 1,500 lines a passing test that
 * logs an exception with a 20-frame trace (noise with a trace of its own), the failure at
 * `at`, and the build's own summary at the end.
 */
function buildLog(at: number | undefined): { text: string; failure: string[] } {
  const out: string[] = [];
  const tests = ["decodes", "encodes", "retries", "streams", "closes", "pools", "routes"];
  while (out.length < LINES - 6) {
    const n = out.length;
    if (at !== undefined && n === at) {
      out.push(...FAILURE);
      continue;
    }
    if (n % 1500 === 700) {
      out.push(
        `WARNING: Exception propagated to the default monitor (upstream address: /127.0.0.1:${40000 + n})`,
        "java.lang.Exception: boom",
        ...frames(20, n).map((f) => f.replace("[info]   ", "\t")),
      );
      continue;
    }
    if (n % 5 === 0)
      out.push(`[info] Compiling ${n % 97} Scala sources to /build/target/m${n % 13}`);
    else
      out.push(
        `[info] - ${tests[n % tests.length]} message ${n} in ${(n * 31) % 900} ms (${n % 3 === 0 ? "cold" : "warm"})`,
      );
  }
  out.push(
    "[info] Run completed in 4 minutes, 51 seconds.",
    "[info] Tests: succeeded 722, failed 1, canceled 0, ignored 162, pending 0",
    "[info] *** 1 TEST FAILED ***",
    "[error] Failed tests:",
    "[error] \tcom.example.net.RoundTripTest",
    "[error] (net / Test / test) sbt.TestsFailedException: Tests unsuccessful",
  );
  return { text: out.join("\n"), failure: FAILURE };
}

/** The first and last lines of `text` that fit `budget` tokens between them: a head+tail cut. */
async function headTail(text: string, budget: number): Promise<string> {
  const lines = text.split("\n");
  const kept: string[] = [];
  let spent = 0;
  for (let i = 0, j = lines.length - 1; i <= j; i++, j--) {
    for (const line of i === j ? [lines[i]] : [lines[i], lines[j]]) {
      const cost = await o200kCount(`${line}\n`);
      if (spent + cost > budget) return kept.join("\n");
      spent += cost;
      kept.push(line as string);
    }
  }
  return kept.join("\n");
}

describe("a failure is a block", () => {
  for (const where of [0.1, 0.5, 0.9]) {
    it(`keeps the failing test, its assertion and its stack at ${where * 100}% of a 30,000-line build`, async () => {
      const { text, failure } = buildLog(Math.floor(LINES * where));
      const shaped = await shape({ stdout: text, exitCode: 1 }, { maxTokens: 2000, tool: "build" });
      expect(shaped.meta.tokens).toBeLessThanOrEqual(2000);
      const shown = new Set(toolLines(shaped.text));
      const missing = failure.filter((line) => !shown.has(line));
      expect(missing).toEqual([]);
      // The control: the failure is far from both ends, so a head+tail cut loses it.
      const control = new Set((await headTail(text, 2000)).split("\n"));
      expect(failure.filter((line) => control.has(line))).toEqual([]);
    }, 60_000);
  }

  it("without the failure, the build's own summary is kept and no assertion is made up", async () => {
    const { text } = buildLog(undefined);
    const shaped = await shape({ stdout: text, exitCode: 1 }, { maxTokens: 600, tool: "build" });
    expect(shaped.text).toContain("sbt.TestsFailedException: Tests unsuccessful");
    expect(shaped.text).not.toContain("did not equal");
  }, 60_000);
});
