/**
 * The host's way to stop a run (`abortSignal`, `timeoutMs`), made when `shape()` is called: the
 * deadline counts from the call, not from when the pipeline has loaded.
 */
import type { Stopper, StopReason } from "../pipeline/run.js";

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * @example
 * const stopper = createStopper(hostSignal, 5000);
 */
export function createStopper(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): Stopper | undefined {
  if (signal === undefined && timeoutMs === undefined) return undefined;
  const controller = new AbortController();
  let why: StopReason | undefined;
  const fire = (reason: StopReason) => {
    if (why !== undefined) return;
    why = reason;
    controller.abort();
  };
  const onAbort = () => fire("aborted");
  if (signal?.aborted) fire("aborted");
  else signal?.addEventListener("abort", onAbort, { once: true });
  const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A timer longer than a signed 32-bit millisecond count fires at once: a long deadline waits
  // in steps and fires only once the clock has reached it.
  const arm = () => {
    if (deadline === undefined || why !== undefined) return;
    const left = deadline - Date.now();
    if (left <= 0) fire("timeout");
    else timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
  };
  if (timeoutMs !== undefined && why === undefined) {
    timer = setTimeout(arm, Math.min(timeoutMs, MAX_TIMER_MS));
  }
  return {
    // A host's signal outlives the run (one per session, say): its listener goes with the run.
    dispose() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
    signal: controller.signal,
    reason: () => why,
    due() {
      if (why === undefined && deadline !== undefined && Date.now() >= deadline) fire("timeout");
      return why !== undefined;
    },
  };
}
