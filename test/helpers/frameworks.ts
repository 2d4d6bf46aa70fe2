/**
 * One scenario for the three framework suites, so each checks the same things through its own
 * agent loop: a step of four parallel calls (a short answer, a page of records, a 5 MB log, a
 * tool that throws a database error with an internal address, path and stack), then a step in
 * which the model calls `read_result` with the handle it read, then a final answer.
 *
 * What the model received is checked with a tokenizer of its own (gpt-tokenizer's o200k_base,
 * not the library's counter) and against strings planted in the inputs, never against what the
 * code under test says about itself.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { prng } from "./read-back.js";

export const BUDGET = { maxTokens: 1500, maxRoundTokens: 2400 } as const;

/** The log's size: 5 MiB, as the issue asks. */
export const LOG_BYTES = 5 * 1024 * 1024;

/**
 * A routine line in the first third of the log, shaped like the lines around it (so neither
 * evidence nor a rare event): never shown, never asked for.
 */
export const QUIET = "quiet-marker-4f1d9c";
/** A routine line in the middle of the log, shaped like its neighbours: found by the model's `read_result` grep. */
export const NEEDLE = "needle-b71e20";
/** The database password in the thrown error, generated from a seed (never a real one). */
export const PASSWORD = (() => {
  const random = prng(1818);
  return Array.from(
    { length: 16 },
    () => "abcdefghjkmnpqrstuvwxyz23456789"[Math.floor(random() * 31)],
  ).join("");
})();
/** What the thrown error must not show the model. */
export const LEAKS = ["10.0.3.7", "/srv/app", "db.js", "at connect", PASSWORD] as const;

export interface Scenario {
  readonly log: string;
  readonly records: ReadonlyArray<Record<string, unknown>>;
  readonly short: string;
}

let cached: Scenario | undefined;

/** The inputs, built once per file from a seed. */
export function scenario(): Scenario {
  if (cached) return cached;
  const random = prng(18);
  const lines: string[] = [];
  let bytes = 0;
  let n = 0;
  const third = Math.floor(LOG_BYTES / 3);
  let quiet = false;
  let needle = false;
  while (bytes < LOG_BYTES) {
    n++;
    const id = Math.floor(random() * 1e9).toString(36);
    let line = `2026-12-01T10:${String(n % 60).padStart(2, "0")}:00Z INFO request ${id} served in ${Math.floor(random() * 90)}ms`;
    if (n % 4099 === 0) line = `2026-12-01T10:00:00Z ERROR worker ${id} crashed: out of memory`;
    if (!quiet && bytes > third) {
      line = `2026-12-01T10:00:00Z INFO request ${QUIET} served in 12ms`;
      quiet = true;
    } else if (!needle && bytes > 2 * third) {
      line = `2026-12-01T10:00:00Z INFO request ${NEEDLE} served in 12ms`;
      needle = true;
    }
    lines.push(line);
    bytes += line.length + 1;
  }
  const records = Array.from({ length: 400 }, (_, i) => ({
    id: i + 1,
    title: `Issue ${i + 1}: ${Math.floor(random() * 1e6).toString(36)} fails on resize`,
    state: i % 7 === 0 ? "closed" : "open",
    comments: Math.floor(random() * 40),
  }));
  cached = { log: `${lines.join("\n")}\n`, records, short: "3 results: alpha, beta, gamma" };
  return cached;
}

/** The error the database tool throws: a message, a code, a stack with a path, a password. */
export function dbError(): Error {
  const error = new Error(
    `connect ECONNREFUSED 10.0.3.7:5432 (user=app password=${PASSWORD}) at /srv/app/db.js:10`,
  );
  Object.assign(error, { code: "ECONNREFUSED", errno: -111, address: "10.0.3.7", port: 5432 });
  error.stack = `Error: ${error.message}\n    at connect (/srv/app/db.js:10:5)\n    at query (/srv/app/db.js:42:3)`;
  return error;
}

/** Tokens of a text, counted independently of the library. */
export function tokens(text: string): number {
  return countTokens(text, { disallowedSpecial: new Set() });
}

/** The handle a result's text names, as a model would read it. */
export function handleIn(text: string): string | undefined {
  return /res_[A-Za-z0-9_-]+/.exec(text)?.[0];
}

/** The parts of a scenario's step 1, by tool name, in the order the calls are made. */
export const CALLS = [
  { name: "search", args: { q: "resize" } },
  { name: "list_issues", args: { repo: "app" } },
  { name: "fetch_log", args: { service: "worker" } },
  { name: "query_db", args: { sql: "select 1" } },
] as const;

/** The error planted in `runLog(n)`: one per log of a run. */
export const runFact = (n: number) => `ledger-${n}-quota`;

/**
 * Log `n` of a many-step run (the session suites): 400 to 4,000 routine lines, 30 to 300 KB,
 * with one error line carrying `runFact(n)` at a place that moves with `n`.
 */
export function runLog(n: number): string {
  const lines: string[] = [];
  const count = 400 + ((n * 977) % 3600);
  const at = Math.floor(count * (((n * 37) % 90) / 100));
  for (let k = 0; k < count; k++) {
    lines.push(
      k === at
        ? `2026-12-04T10:00:00Z ERROR billing write failed: ${runFact(n)}`
        : `2026-12-04T10:00:${String(k % 60).padStart(2, "0")}Z INFO worker-${k % 9} job ${k} done in ${(k * 13) % 700}ms`,
    );
  }
  return lines.join("\n");
}

/**
 * A session hook's `key` that names a call by its tool and arguments, and the arguments it was
 * given, in call order (the re-run tests of the three framework entries).
 */
export function recordingKey(): {
  readonly keys: unknown[];
  readonly key: (name: string, args: unknown) => string;
} {
  const keys: unknown[] = [];
  return {
    keys,
    key: (name, args) => {
      keys.push(args);
      return `${name} ${JSON.stringify(args)}`;
    },
  };
}
