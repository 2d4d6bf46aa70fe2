/**
 * How a command ended. Its exit code and signal may be promises the host settles when the
 * process exits; they are awaited only once its streams are read (awaiting them first can
 * deadlock a command that fills a pipe), and never for long after: a promise that never settles
 * means the exit is unknown, and a rejected one is the host's failure, reported, not thrown.
 */
import type { RunContext } from "../pipeline/run.js";
import type { CommandOutput } from "./input.js";

/** How long an exit promise may take once the streams have ended. */
export const EXIT_GRACE_MS = 2000;

const UNSETTLED = Symbol("unsettled");

/** The value of a promise (or a plain value), `UNSETTLED` after the grace, or the rejection. */
async function within<T>(
  value: T | Promise<T>,
  ms: number,
): Promise<{ ok: true; value: T | typeof UNSETTLED } | { ok: false }> {
  if (!(value instanceof Promise) && !isThenable(value)) return { ok: true, value };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof UNSETTLED>((done) => {
    timer = setTimeout(() => done(UNSETTLED), ms);
  });
  try {
    return { ok: true, value: await Promise.race([Promise.resolve(value), late]) };
  } catch {
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** Reads a field of a host object that may throw when read. */
function field<K extends "exitCode" | "signal">(
  input: CommandOutput,
  key: K,
): CommandOutput[K] | typeof UNSETTLED {
  try {
    return input[key];
  } catch {
    return UNSETTLED;
  }
}

/**
 * @example
 * await settleOutcome({ stdout, exitCode: child.exited }, ctx); // ctx.facts.command = { exitCode: 1, signal: null }
 */
export async function settleOutcome(input: CommandOutput, ctx: RunContext): Promise<void> {
  const facts = ctx.facts;
  const notes: string[] = [];
  const read = async (key: "exitCode" | "signal") => {
    const raw = field(input, key);
    if (raw === UNSETTLED) {
      notes.push(`reading ${key} failed`);
      return null;
    }
    // Once the host stopped the run, an exit still on its way is not waited for.
    const got = await within(raw, ctx.stopper?.reason() ? 0 : EXIT_GRACE_MS);
    if (!got.ok) {
      notes.push(`the ${key} promise was rejected`);
      return null;
    }
    if (got.value === UNSETTLED) {
      notes.push(
        `the ${key} promise did not settle within ${EXIT_GRACE_MS} ms of the streams ending`,
      );
      return null;
    }
    return got.value ?? null;
  };
  const [exitCode, signal] = await Promise.all([read("exitCode"), read("signal")]);
  const code = typeof exitCode === "number" && Number.isFinite(exitCode) ? exitCode : null;
  // A signal is a name like SIGKILL: anything else in it is tool text, and could forge a line.
  const sig =
    typeof signal === "string" ? signal.replace(/[^A-Za-z0-9_+-]+/g, "_").slice(0, 32) : null;
  facts.command = { exitCode: code, signal: sig };
  for (const note of notes) {
    facts.degraded.push({ code: "intake/exit-unknown", message: `exit unknown: ${note}` });
  }
}
