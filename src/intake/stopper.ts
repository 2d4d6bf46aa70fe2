/**
 * The host's way to stop a run (`abortSignal`, `timeoutMs`), made when `shape()` is called: the
 * deadline counts from the call, not from when the pipeline has loaded.
 */
import type { Stopper, StopReason } from "../pipeline/run.js";

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
  const timer =
    timeoutMs !== undefined && why === undefined
      ? setTimeout(() => fire("timeout"), timeoutMs)
      : undefined;
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
