// Runs before `npm test` (the `pretest` script): the browser tests need Debian's Chromium, and a
// fresh machine has none. On Debian as root it installs the distribution's package, as CI does;
// anywhere else it stops at once with one line that says what to install. It never downloads a
// browser (Playwright's downloads are not used anywhere in the tests).
//
//   node test/helpers/provision-chromium.mjs     (CHROMIUM_PATH=… to use another binary)
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const INSTALL = "apt-get install -y --no-install-recommends chromium";

/**
 * What to do, from the facts of the machine: `ok` (the browser is there), `install` (Debian,
 * root: install it), or `fail` with the one line to print.
 *
 * @example
 * decide({ path: "/usr/bin/chromium", exists: false, custom: false, root: true, apt: true });
 * // { action: "install" }
 */
export function decide({ path, exists, custom, root, apt }) {
  if (exists) return { action: "ok" };
  if (custom) {
    return {
      action: "fail",
      line: `npm test: CHROMIUM_PATH is ${path}, which does not exist; point it at a Chromium binary or unset it to use Debian's ${DEFAULT_CHROMIUM}`,
    };
  }
  if (!apt) {
    return {
      action: "fail",
      line: `npm test: Chromium is missing at ${DEFAULT_CHROMIUM}; install Chromium (on Debian: ${INSTALL}) or set CHROMIUM_PATH to a Chromium binary`,
    };
  }
  if (!root) {
    return {
      action: "fail",
      line: `npm test: Chromium is missing at ${DEFAULT_CHROMIUM}; install it with: sudo apt-get update && sudo ${INSTALL}`,
    };
  }
  return { action: "install" };
}

/** The machine's facts: where the browser should be, and whether apt and root are there. */
export function facts(env = process.env) {
  const custom = env.CHROMIUM_PATH !== undefined && env.CHROMIUM_PATH !== "";
  const path = custom ? env.CHROMIUM_PATH : DEFAULT_CHROMIUM;
  return {
    path,
    exists: existsSync(path),
    custom,
    root: typeof process.getuid === "function" && process.getuid() === 0,
    apt:
      process.platform === "linux" &&
      existsSync("/etc/debian_version") &&
      existsSync("/usr/bin/apt-get"),
  };
}

function run(args) {
  const result = spawnSync("apt-get", args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

function main() {
  const machine = facts();
  const plan = decide(machine);
  if (plan.action === "ok") return 0;
  if (plan.action === "fail") {
    console.error(plan.line);
    return 1;
  }
  console.error(`npm test: Chromium is missing at ${machine.path}; installing Debian's package`);
  const installed =
    run(["update"]) && run(["install", "-y", "--no-install-recommends", "chromium"]);
  if (!installed || !existsSync(machine.path)) {
    console.error(
      `npm test: installing Chromium failed; run: apt-get update && ${INSTALL}, then npm test`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) process.exitCode = main();
