/**
 * Re-runs of a real command: a child process prints a build's output (stdout and stderr) and
 * exits, twice under one `key`, read through `fromProcess` as the README's agent loop does. The
 * second run, which failed, keeps its failure and its stderr's new line at 400 tokens, where the
 * same output shaped without a key loses part of the failure (the negative control).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSession, fromProcess, type Session } from "agent-airlock";
import { afterAll, describe, expect, it } from "vitest";
import { buildLog, FAILURE } from "../helpers/builds.js";

const dir = mkdtempSync(join(tmpdir(), "airlock-rerun-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A child that prints `stdout` and `stderr` as a build would, then exits with `code`. */
function build(name: string, stdout: string, stderr: string, code: number) {
  const out = join(dir, `${name}.out`);
  const err = join(dir, `${name}.err`);
  writeFileSync(out, stdout);
  writeFileSync(err, stderr);
  return fromProcess(
    spawn("sh", ["-c", 'cat "$1"; cat "$2" >&2; exit "$3"', "sh", out, err, String(code)]),
  );
}

const WARN = "npm WARN config production Use `--omit=dev` instead.\n";

async function run(session: Session, key: string | undefined, maxTokens: number) {
  await session.shape(build(`pass-${key}`, buildLog(11, false), WARN, 0), {
    callId: "run_1",
    ...(key !== undefined ? { key } : {}),
  });
  return session.shape(
    build(`fail-${key}`, buildLog(12, true), `${WARN}npm ERR! Test failed.  See above.\n`, 1),
    { callId: "run_2", ...(key !== undefined ? { key } : {}), maxTokens },
  );
}

describe("a re-run of a real command", () => {
  it("keeps the failure where the same output without a key loses part of it", async () => {
    const options = { maxRunTokens: 32_000, maxTokens: 4_000, tool: "bash" };
    const again = await run(createSession(options), "npm test", 400);
    const alone = await run(createSession(options), undefined, 400);
    const kept = (text: string) => FAILURE.filter((l) => text.includes(l)).length;
    expect(again.text).toMatch(/\[airlock: re-run of run_1 \(res_[\w-]+\): \d+ lines as before/);
    expect(again.text).toContain("npm ERR! Test failed.");
    expect(again.text).toContain("[airlock: command exited with code 1;");
    expect(kept(again.text)).toBe(FAILURE.length);
    expect(kept(alone.text)).toBeLessThan(FAILURE.length);
    // Both streams are counted: every line of the run is as before or new.
    const [asBefore, fresh] = (/(\d+) lines as before, (\d+) new/.exec(again.text) ?? [])
      .slice(1)
      .map(Number);
    expect((asBefore ?? 0) + (fresh ?? 0)).toBe(again.meta.lines);
  });
});
