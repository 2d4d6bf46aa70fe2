/**
 * `fromProcess`: a child process handed over the moment it is spawned. Its pipes are read from
 * now on and its exit is watched from now on, so the host may `await` anything before it calls
 * `shape()` without losing output, and a command that could not start is reported, not thrown
 * as an unhandled `error` event. No Node types: a Node `ChildProcess`, a Deno `ChildProcess` and
 * a Bun `Subprocess` are told apart by their shape.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { type CapturedCommand, capture, isCaptured } from "./attach.js";
import type { CommandOutput, StreamSource } from "./input.js";

/** Node's `ChildProcess`, as far as airlock reads it. */
export interface NodeChildProcessLike {
  readonly stdout: StreamSource | null;
  readonly stderr: StreamSource | null;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  readonly pid?: number | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: Node's overloads take listeners of every event.
  on(event: string, listener: (...args: any[]) => void): unknown;
}

/** A Deno `ChildProcess` (`status`) or a Bun `Subprocess` (`exited`, `signalCode`). */
export interface WebChildProcessLike {
  readonly stdout?: StreamSource | null;
  readonly stderr?: StreamSource | null;
  readonly status?: PromiseLike<{ readonly code: number | null; readonly signal?: string | null }>;
  readonly exited?: PromiseLike<number | null>;
  readonly signalCode?: string | null;
}

/** What `fromProcess` takes: a child process of Node, Deno or Bun, or its parts. */
export type ProcessLike = NodeChildProcessLike | WebChildProcessLike | CommandOutput;

interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
}

function isNodeChild(child: ProcessLike): child is NodeChildProcessLike {
  return typeof (child as { on?: unknown }).on === "function" && "signalCode" in child;
}

/** When a Node child exits, or why it never started. */
function nodeExit(child: NodeChildProcessLike): Promise<Exit> {
  return new Promise<Exit>((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    const done = (code: number | null, signal: string | null) => resolve({ code, signal });
    child.on("exit", done);
    // A command that could not be spawned emits `error` and then `close`, never `exit`.
    child.on("close", done);
    child.on("error", (cause: unknown) => {
      // After a spawn, an `error` is a failed kill() or send(): the process still runs and exits.
      if (child.pid === undefined) reject(cause);
    });
  });
}

/** When a Deno or Bun child exits. */
function webExit(child: WebChildProcessLike): Promise<Exit> | undefined {
  if (child.status !== undefined && typeof child.status?.then === "function") {
    return Promise.resolve(child.status).then((s) => ({ code: s.code, signal: s.signal ?? null }));
  }
  if (child.exited !== undefined && typeof child.exited?.then === "function") {
    return Promise.resolve(child.exited).then((code) => ({
      code,
      signal: child.signalCode ?? null,
    }));
  }
  return undefined;
}

/**
 * Starts reading a child process at once and returns the input for `shape()`: both pipes are
 * drained (ahead of the pipeline, within a bound) and the exit is watched from this call on.
 * Call it right after `spawn`, before any `await`.
 *
 * @example
 * const child = spawn("cargo", ["build"]);
 * const output = fromProcess(child); // reading starts here
 * await somethingElse(); // nothing is lost meanwhile
 * const shaped = await shape(output, { tool: "bash" });
 */
export function fromProcess(process: ProcessLike | CapturedCommand): CapturedCommand {
  if (isCaptured(process)) return process;
  const child = process as ProcessLike;
  if (typeof child !== "object" || child === null) {
    throw new AirlockError(
      "input/unsupported",
      "fromProcess: expected a child process (Node, Deno or Bun) or { stdout, stderr?, exitCode? }",
    );
  }
  let exit: Promise<Exit> | undefined;
  try {
    exit = isNodeChild(child) ? nodeExit(child) : webExit(child as WebChildProcessLike);
  } catch {
    // A host object whose traps throw: read as a command whose parts failed (capture says so).
    exit = undefined;
  }
  if (exit === undefined) return capture(child as CommandOutput);
  // A stream the process did not pipe (Node's `null`, Deno's getter that throws "not piped")
  // is said to be elsewhere, never read as empty.
  const unpiped: Array<"stdout" | "stderr"> = [];
  const streams: { stdout: StreamSource; stderr?: StreamSource } = { stdout: "" };
  for (const name of ["stdout", "stderr"] as const) {
    const stream = piped(child as { readonly [K in typeof name]?: StreamSource | null }, name);
    if (stream === undefined) unpiped.push(name);
    else streams[name] = stream;
  }
  return capture(
    { ...streams, exitCode: exit.then((e) => e.code), signal: exit.then((e) => e.signal) },
    undefined,
    unpiped,
  );
}

/** A process's stream, or undefined when it was not piped (or its getter throws). */
function piped(
  child: { readonly stdout?: StreamSource | null; readonly stderr?: StreamSource | null },
  name: "stdout" | "stderr",
): StreamSource | undefined {
  try {
    return child[name] ?? undefined;
  } catch {
    return undefined;
  }
}
