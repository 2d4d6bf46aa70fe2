/**
 * How a command ended. Its exit code and signal may be promises the host settles when the
 * process exits; they are waited for only once its streams are read (awaiting them first can
 * deadlock a command that fills a pipe), and never for long after: a promise that never settles
 * means the exit is unknown, and a rejected one (a command that could not start) is the
 * command's failure, reported, not thrown. Their handlers were attached when `shape()` was
 * called (`attach.ts`), so a rejection is never unhandled.
 */
import type { RunContext } from "../pipeline/run.js";
import type { Captured, Outcome, Settling } from "./attach.js";
import { safely } from "./budget.js";

/** How long an exit promise may take once the streams have ended. */
export const EXIT_GRACE_MS = 2000;

const LATE = Symbol("late");

/** The outcome, or `LATE` once `ms` have passed or `signal` aborted, whichever is first. */
async function within<T>(
  value: Settling<T>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<Outcome<T> | typeof LATE> {
  if (!(value instanceof Promise)) return value;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const late = new Promise<typeof LATE>((done) => {
    timer = setTimeout(() => done(LATE), signal?.aborted ? 0 : ms);
    onAbort = () => done(LATE);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([value, late]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * @example
 * await settleOutcome(capture({ stdout, exitCode: child.exited }), ctx, describe); // ctx.facts.command = { exitCode: 1, signal: null }
 */
export async function settleOutcome(
  input: Captured,
  ctx: RunContext,
  /** Turns what a rejected promise carried into words safe to show. */
  describe: (text: string) => string,
): Promise<void> {
  const facts = ctx.facts;
  const notes: string[] = [];
  let failure: string | undefined;
  const read = async <T>(key: "exitCode" | "signal", value: Settling<T>) => {
    // Once the host stopped the run, an exit still on its way is not waited for.
    const got = await within(value, EXIT_GRACE_MS, ctx.stopper?.signal);
    if (got === LATE) {
      notes.push(
        ctx.stopper?.reason()
          ? `the run was stopped (${ctx.stopper.reason() === "timeout" ? "timeoutMs" : "aborted"}) before the ${key} promise settled`
          : `the ${key} promise did not settle within ${EXIT_GRACE_MS} ms of the streams ending`,
      );
      return null;
    }
    if (!got.ok) {
      const why = safely(describe, got.cause, "no reason given").slice(0, 200);
      notes.push(`the ${key} promise was rejected (${why})`);
      failure ??= why;
      return null;
    }
    return got.value ?? null;
  };
  const [exitCode, signal] = await Promise.all([
    read("exitCode", input.exitCode),
    read("signal", input.signal),
  ]);
  const code = typeof exitCode === "number" && Number.isFinite(exitCode) ? exitCode : null;
  // A signal is a name like SIGKILL: anything else in it is tool text, and could forge a line.
  const sig =
    typeof signal === "string" ? signal.replace(/[^A-Za-z0-9_+-]+/g, "_").slice(0, 32) : null;
  facts.command = { exitCode: code, signal: sig, ...(failure ? { failure } : {}) };
  for (const note of notes) {
    facts.degraded.push({ code: "intake/exit-unknown", message: `exit unknown: ${note}` });
  }
}
