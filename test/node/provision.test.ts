/**
 * `npm test` provisions its browser: `pretest` runs test/helpers/provision-chromium.mjs, which
 * installs Debian's Chromium when it is missing (Debian, root), and otherwise stops at once with
 * one line that says what to install. The decision is a table over the machine's facts; the
 * script itself is run for real with a missing and a present browser path.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { type Decision, decide, type Facts } from "../helpers/provision-chromium.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const script = `${root}test/helpers/provision-chromium.mjs`;

const machine = (over: Partial<Facts>): Facts => ({
  path: "/usr/bin/chromium",
  exists: false,
  custom: false,
  root: true,
  apt: true,
  ...over,
});

const cases: readonly {
  title: string;
  input: Facts;
  expected: Decision["action"];
  says?: RegExp;
}[] = [
  { title: "the browser is there", input: machine({ exists: true }), expected: "ok" },
  {
    title: "a custom path that exists, not root, not Debian",
    input: machine({ exists: true, custom: true, root: false, apt: false }),
    expected: "ok",
  },
  { title: "missing on Debian as root: install it", input: machine({}), expected: "install" },
  {
    title: "missing on Debian, not root: say the sudo command",
    input: machine({ root: false }),
    expected: "fail",
    says: /sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium/,
  },
  {
    title: "missing, not Debian (no apt): say what to install",
    input: machine({ apt: false }),
    expected: "fail",
    says: /install Chromium \(on Debian: apt-get install .*\) or set CHROMIUM_PATH/,
  },
  {
    title: "a custom path that does not exist: never install over it, even as root",
    input: machine({ path: "/opt/missing/chrome", custom: true }),
    expected: "fail",
    says: /CHROMIUM_PATH is \/opt\/missing\/chrome, which does not exist/,
  },
];

describe("provisioning Chromium before the tests", () => {
  it.each(cases)("$title: $expected", ({ input, expected, says }) => {
    const decision = decide(input);
    expect(decision.action).toBe(expected);
    if (decision.action === "fail") {
      expect(decision.line).toMatch(says ?? /.^/);
      expect(decision.line).not.toContain("\n");
    }
  });

  it("stops at once with one line when the browser is missing and cannot be installed", async () => {
    const started = Date.now();
    const failed = await run(process.execPath, [script], {
      env: { ...process.env, CHROMIUM_PATH: "/nonexistent/airlock/chromium" },
    }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toBe("");
    const lines = failed?.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines?.[0]).toContain("/nonexistent/airlock/chromium");
    // No apt-get ran: a generous bound, only to catch a script that went off to install.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("says nothing and passes when the browser is there", async () => {
    const { stdout, stderr } = await run(process.execPath, [script], {
      env: { ...process.env, CHROMIUM_PATH: process.execPath },
    });
    expect([stdout, stderr]).toEqual(["", ""]);
  });

  it("runs before npm test, and CI runs that same command", () => {
    const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.pretest).toBe("node test/helpers/provision-chromium.mjs");
    const ci = readFileSync(`${root}.ci/run`, "utf8");
    expect(ci).toMatch(/^npm test$/m);
  });
});
