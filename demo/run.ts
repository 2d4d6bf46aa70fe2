/**
 * A 40-turn agent run, generated: each turn one tool result (logs of 10 KB to 5 MB, record
 * arrays, a page, a failed command, a small result), as bench/session.mjs plays it. The run view
 * (run-view.ts) shapes these results with a session and draws what each turn's model call
 * carried. Seeded and built from the turn number alone, so every run is the same run: the
 * tests shape it again in Node and compare.
 */
import type { ShapeInput } from "agent-airlock";

export const RUN_TURNS = 40;
/** The run's ceiling: the most tokens of tool results one model call may carry. */
export const RUN_CEILING = 32_000;
/** Each result's own budget. */
export const RUN_MAX_TOKENS = 4_000;
/** The last results a strategy keeps as they are. */
export const RUN_KEEP = 3;

const LOG_SIZES = [10 << 10, 100 << 10, 1 << 20, 5 << 20, 300 << 10];
const SERVICES = ["api", "auth", "billing", "search", "worker", "gateway"];
const PATHS = ["/v1/items", "/v1/users/me", "/v1/orders", "/healthz", "/v1/search?q=shoes"];

export interface RunTurn {
  readonly turn: number;
  readonly tool: string;
  /** A fresh input each call: a stream or a Response can be read once. */
  readonly input: () => ShapeInput;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** One log line, varied by its number and the log's seed (about 120 bytes). */
function logLine(n: number, seed: number): string {
  const s = (n * 7919 + seed * 104729) >>> 0;
  const level = s % 997 === 0 ? "WARN " : s % 5 === 0 ? "DEBUG" : "INFO ";
  const t = `2026-11-30T10:${pad((n >>> 12) % 60)}:${pad((n >>> 6) % 60)}.${pad(n % 1000, 3)}Z`;
  return `${t} ${level} ${SERVICES[s % SERVICES.length]}-${s % 7} req=${((s * 2654435761) >>> 0).toString(16)} GET ${PATHS[(s >>> 3) % PATHS.length]} status=200 dur=${(s % 4000) / 10}ms`;
}

/** A log of about `bytes` bytes with `fact` on one line at `at` (a fraction of the way in). */
function logOf(bytes: number, seed: number, fact: string, at: number, plain: boolean): string {
  const lines: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const line = logLine(n, seed);
    lines.push(line);
    size += line.length + 1;
  }
  lines.splice(
    Math.floor(lines.length * at),
    0,
    plain
      ? `2026-11-30T10:31:07.001Z INFO  billing-2 settlement batch tagged ${fact}`
      : `2026-11-30T10:31:07.001Z ERROR billing-2 settlement failed: ${fact}`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The result of turn `t` (1-based).
 *
 * @example
 * const { tool, input } = runTurn(5); // "read_log", a 300 KB log with an error in it
 */
export function runTurn(t: number): RunTurn {
  const fact = `ref-${t}-${["kappa", "delta", "sigma", "omega", "theta"][t % 5]}`;
  const at = ((t * 37) % 90) / 100 + 0.05;
  switch (t % 5) {
    case 0: {
      const text = logOf(LOG_SIZES[(t / 5) % 5] as number, t, fact, at, t % 10 === 0);
      return { turn: t, tool: "read_log", input: () => text };
    }
    case 1: {
      const rows = Array.from({ length: 1000 + ((t * 997) % 19_000) }, (_, k) => ({
        id: k,
        status: "ok",
        amount: (k * 37) % 1000,
        note: `order ${k} settled`,
      }));
      const k = Math.floor(rows.length * at);
      rows[k] = { id: k, status: "error", amount: 0, note: fact };
      const json = JSON.stringify(rows);
      return { turn: t, tool: "query", input: () => json };
    }
    case 2: {
      const paragraphs = Array.from(
        { length: 60 },
        (_, k) =>
          `<p>Section ${k} of the handbook describes how the service settles orders and retries.</p>`,
      );
      paragraphs[Math.floor(60 * at)] = `<p>The reference for the outage is ${fact}.</p>`;
      const html = `<html><body><article>${paragraphs.join("")}</article></body></html>`;
      return {
        turn: t,
        tool: "fetch",
        input: () => new Response(html, { headers: { "content-type": "text/html" } }),
      };
    }
    case 3: {
      const stdout = Array.from(
        { length: 5000 },
        (_, k) => `[info] case ${k % 400} ok in ${k % 90} ms`,
      ).join("\n");
      return {
        turn: t,
        tool: "bash",
        input: () => ({ stdout, stderr: `error: build failed: ${fact}`, exitCode: 1 }),
      };
    }
    default:
      return { turn: t, tool: "echo", input: () => `done: ${fact}` };
  }
}
