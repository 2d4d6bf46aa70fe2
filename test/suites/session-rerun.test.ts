/**
 * Re-runs in a session (issue 28): a result whose `key` an earlier result had is shaped against
 * it. Checked on two runs of one build (test/helpers/builds.ts): the lines as before and new are
 * counted exactly, what is new is kept where shaping alone keeps the warnings every run prints,
 * a changed count of failures is news, a failure seen before is still evidence, and without a key, with another key or on the first run
 * nothing changes (the negative controls). Then the key's bounds: refused when it is not a
 * string, the 16 most recent keys held, the same run giving the same text.
 */
import { describe, expect, it } from "vitest";
import { AirlockError, createSession, type Shaped } from "../../src/index.js";
import { LineKeys, lineKey, MAX_LINE_KEYS } from "../../src/pipeline/rerun.js";
import { buildLog, FAILURE } from "../helpers/builds.js";
import { parseMarker, toolLines } from "../helpers/markers.js";

const passing = () => ({ stdout: buildLog(1, false), exitCode: 0 });
const failing = () => ({ stdout: buildLog(2, true), exitCode: 1 });

/** The re-run line's fields, parsed by the grammar of docs/markers.md. */
function rerunOf(shaped: Shaped) {
  for (const line of toolLines(shaped.text)) {
    const inner = /^\[airlock: (.*)\]$/.exec(line)?.[1];
    const parsed = inner === undefined ? undefined : parseMarker(inner);
    if (parsed?.kind === "rerun") {
      const [callId, handle, asBefore, fresh] = parsed.groups;
      return { callId, handle, asBefore: Number(asBefore), fresh: Number(fresh) };
    }
  }
  return undefined;
}

const newSession = () => createSession({ maxRunTokens: 32_000, maxTokens: 4_000, tool: "build" });

/** The run a model would see: the passing build, then the failing one at `maxTokens`. */
async function rerun(maxTokens: number, key = "npm test", againKey = key) {
  const session = newSession();
  const first = await session.shape(passing(), { callId: "run_1", key });
  const again = await session.shape(failing(), { callId: "run_2", key: againKey, maxTokens });
  return { session, first, again };
}

describe("a session's re-runs", () => {
  it("counts every line as before or new, and names the run before with its handle", async () => {
    const { first, again } = await rerun(1_000);
    expect(rerunOf(first)).toBeUndefined();
    const line = rerunOf(again);
    expect(line).toBeDefined();
    expect(line?.callId).toBe("run_1");
    expect(line?.handle).toBe(first.meta.handle);
    // Every line of the failing run is counted once: 3,000 steps, the failure, two last lines.
    expect(line && line.asBefore + line.fresh).toBe(again.meta.lines);
    expect(again.meta.lines).toBe(3_000 + FAILURE.length + 2);
    // What is new: the failure's lines, the changed tally, the retries whose attempt changed.
    expect(line?.fresh).toBeGreaterThanOrEqual(FAILURE.length + 1);
    expect(line?.fresh).toBeLessThan(60);
  });

  it("keeps what is new where shaping alone keeps what every run prints", async () => {
    const { again } = await rerun(300);
    const alone = await newSession().shape(failing(), { callId: "run_2", maxTokens: 300 });
    const kept = (s: Shaped) => FAILURE.filter((l) => s.text.includes(l)).length;
    expect(kept(again)).toBe(FAILURE.length);
    // Negative control: the same result shaped on its own at the same budget loses some.
    expect(kept(alone)).toBeLessThan(FAILURE.length);
    // The warnings and retried errors every run prints are no evidence in the re-run.
    const evidence = (s: Shaped) => s.meta.sections.reduce((n, x) => n + x.evidenceLines, 0);
    expect(evidence(alone)).toBeGreaterThan(500);
    expect(evidence(again)).toBeLessThan(60);
  });

  it("takes a changed count of failures as new, and the same count as before", async () => {
    const tally = (failed: number, extra = "") =>
      `${buildLog(3, false)}\nTests: ${212 - failed} passed, ${failed} failed${extra}`;
    const session = newSession();
    await session.shape({ stdout: tally(0), exitCode: 0 }, { callId: "a", key: "k" });
    const changed = await session.shape(
      { stdout: tally(2), exitCode: 1 },
      { callId: "b", key: "k", maxTokens: 300 },
    );
    expect(changed.text).toContain("Tests: 210 passed, 2 failed");
    const same = await session.shape(
      { stdout: tally(2), exitCode: 1 },
      { callId: "c", key: "k", maxTokens: 300 },
    );
    expect(rerunOf(changed)?.fresh).toBeGreaterThanOrEqual(1);
    // Against run b, nothing is new: the same lines, the same count.
    expect(rerunOf(same)?.callId).toBe("b");
    expect(rerunOf(same)?.fresh).toBe(0);
  });

  it("keeps what failed the run before when it fails the same way again", async () => {
    const session = newSession();
    await session.shape(failing(), { callId: "run_1", key: "npm test" });
    const same = await session.shape(failing(), {
      callId: "run_2",
      key: "npm test",
      maxTokens: 400,
    });
    const alone = await newSession().shape(failing(), { callId: "x", maxTokens: 400 });
    expect(rerunOf(same)?.fresh).toBe(0);
    // Its errors are still evidence: as many of the failure's lines as shaping alone keeps.
    const kept = (s: Shaped) => FAILURE.filter((l) => s.text.includes(l)).length;
    expect(kept(same)).toBeGreaterThanOrEqual(kept(alone));
    expect(kept(same)).toBeGreaterThan(0);
    expect(same.meta.sections[0]?.evidenceLines).toBeGreaterThan(1_000);
  });

  it("shapes a result as it would alone without a key, with another key, or on a first run", async () => {
    const alone = await newSession().shape(failing(), { callId: "x", maxTokens: 1_000 });
    const other = await rerun(1_000, "npm test", "npm run lint");
    const unkeyed = newSession();
    await unkeyed.shape(passing(), { callId: "run_1" });
    const second = await unkeyed.shape(failing(), { callId: "run_2", maxTokens: 1_000 });
    for (const s of [other.again, second]) {
      expect(rerunOf(s)).toBeUndefined();
      // The handle is the content's, so the texts are the same result's.
      expect(s.text).toBe(alone.text);
    }
  });

  it("gives the same text for the same run", async () => {
    const a = await rerun(800);
    const b = await rerun(800);
    expect(b.again.text).toBe(a.again.text);
    expect(b.session.view().map((e) => e.text)).toEqual(a.session.view().map((e) => e.text));
  });

  it("refuses a key that is not a non-empty string, and holds a long one by its hash", async () => {
    const session = newSession();
    for (const key of [7, "", null, ["k"]]) {
      let caught: unknown;
      try {
        await session.shape("ok", { callId: `c_${JSON.stringify(key)}`, key: key as string });
      } catch (error) {
        caught = error;
      }
      expect(caught, String(key)).toBeInstanceOf(AirlockError);
      expect((caught as AirlockError).code).toBe("options/invalid");
    }
    // The ids of refused calls stay free.
    await expect(session.shape("ok", { callId: "c_7" })).resolves.toBeDefined();
    // A key of 100,000 characters names a command as a short one does; one character apart, another.
    const long = `bash ${"x".repeat(100_000)}`;
    await session.shape(passing(), { callId: "l1", key: long });
    const again = await session.shape(failing(), { callId: "l2", key: long, maxTokens: 600 });
    const other = await session.shape(failing(), { callId: "l3", key: `${long}y`, maxTokens: 600 });
    expect(rerunOf(again)?.callId).toBe("l1");
    expect(rerunOf(other)).toBeUndefined();
  });

  it("adds up to the lines however they repeat, skip or are sampled", async () => {
    const session = newSession();
    // Adjacent repeats (separators) between lines that differ only in numbers.
    const repeats = Array.from({ length: 3000 }, (_, i) =>
      i % 10 === 0 ? "-----\n-----" : `ok ${i}`,
    ).join("\n");
    await session.shape(repeats, { callId: "r1", key: "r" });
    const r2 = await session.shape(repeats, { callId: "r2", key: "r" });
    expect(r2.meta.lines).toBe(3300);
    expect(rerunOf(r2)).toMatchObject({ asBefore: 3300, fresh: 0 });
    // CR redraws, ANSI colour, a line past the line cap, and stderr beside stdout.
    const noisy = [
      "\u001b[32mok\u001b[0m step 1",
      "progress 10%\rprogress 100%",
      `long ${"y".repeat(70_000)}`,
      ...Array.from({ length: 500 }, (_, i) => `line ${i}`),
    ].join("\n");
    await session.shape(
      { stdout: noisy, stderr: "warn a\nwarn b", exitCode: 0 },
      { callId: "n1", key: "n" },
    );
    const n2 = await session.shape(
      { stdout: `${noisy}\nFAIL: at last`, stderr: "warn a\nwarn b", exitCode: 1 },
      { callId: "n2", key: "n" },
    );
    const n = rerunOf(n2);
    expect(n && n.asBefore + n.fresh).toBe(n2.meta.lines);
    expect(n?.fresh).toBe(1);
  });

  it("keeps the last run that had lines to compare with", async () => {
    const session = newSession();
    await session.shape(passing(), { callId: "p", key: "k" });
    await session.shape({ stdout: "", exitCode: 137 }, { callId: "empty", key: "k" });
    await session.shape('[{"id":1}]', { callId: "json", key: "k" });
    const again = await session.shape(failing(), { callId: "f", key: "k", maxTokens: 600 });
    expect(rerunOf(again)?.callId).toBe("p");
  });

  it("does not take a mostly new run for all evidence", async () => {
    const session = newSession();
    await session.shape(
      { stdout: "error: cannot compile\nabort", exitCode: 1 },
      { callId: "a", key: "k" },
    );
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
    const names = Array.from(
      { length: 20_000 },
      (_, i) =>
        `test ${words[i % 8]} ${words[(i >> 3) % 8]} ${words[(i >> 6) % 8]} ${words[(i >> 9) % 8]} passed`,
    ).join("\n");
    const again = await session.shape({ stdout: names, exitCode: 0 }, { callId: "b", key: "k" });
    expect(rerunOf(again)?.fresh).toBe(20_000);
    // At most the first few hundred new lines are made evidence.
    expect(again.meta.sections[0]?.evidenceLines).toBeLessThan(1_000);
  });

  it("holds the 16 keys run most recently", async () => {
    const session = newSession();
    const small = (i: number) => `step ${i} of the job\n`.repeat(20);
    for (let i = 0; i < 17; i++)
      await session.shape(small(i), { callId: `k${i}`, key: `job ${i}` });
    const evicted = await session.shape(small(0), { callId: "again_0", key: "job 0" });
    const held = await session.shape(small(16), { callId: "again_16", key: "job 16" });
    expect(rerunOf(evicted)).toBeUndefined();
    expect(rerunOf(held)?.callId).toBe("k16");
  });

  it("records a structured result under its key without a re-run line", async () => {
    const session = newSession();
    const rows = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i, ok: i !== 7 })));
    await session.shape(rows, { callId: "q1", key: "query" });
    const again = await session.shape(rows, { callId: "q2", key: "query" });
    expect(rerunOf(again)).toBeUndefined();
    expect(again.text).toContain('{"id":7,"ok":false}');
  });
});

describe("line keys", () => {
  it("are the same for lines that differ in their numbers only", () => {
    expect(lineKey("took 12ms at 10:31:07")).toBe(lineKey("took 9ms at 10:32:44"));
    expect(lineKey("a  b\tc")).toBe(lineKey("a b c"));
    // Negative controls: a word, a sign, or a counted tally changes the key.
    expect(lineKey("took 12ms at 10:31:07")).not.toBe(lineKey("took 12ms at 10:31:07 again"));
    expect(lineKey("took 12ms")).not.toBe(lineKey("took: 12ms"));
    expect(lineKey("Failures: 0", 0, 11, true)).not.toBe(lineKey("Failures: 2", 0, 11, true));
    expect(lineKey("at 10:31:07", 0, 11, true)).toBe(lineKey("at 10:32:44", 0, 11, true));
    expect(lineKey("x")).not.toBe(0);
  });

  it("hold a bounded set, and say when a key was refused for the cap", () => {
    const keys = new LineKeys();
    expect(keys.has(5)).toBe(false);
    for (let k = 1; k <= MAX_LINE_KEYS + 10; k++) keys.add(k);
    expect(keys.size).toBe(MAX_LINE_KEYS);
    expect(keys.full).toBe(true);
    expect(keys.has(1)).toBe(true);
    expect(keys.has(MAX_LINE_KEYS + 5)).toBe(false);
  });
});
