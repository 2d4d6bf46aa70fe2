import { beforeAll, beforeEach } from "vitest";

/**
 * Runs `setup` once before a suite's tests. If it throws (Chromium missing, a build that fails),
 * every test of the suite fails with that error: a failed `beforeAll` alone would leave them
 * reported as skipped, and a missing browser must read as a failure, never as a skip.
 */
export function setupOrFail(setup: () => Promise<void>, timeout: number): void {
  let failure: unknown;
  beforeAll(async () => {
    try {
      await setup();
    } catch (error) {
      failure = error;
    }
  }, timeout);
  beforeEach(() => {
    if (failure !== undefined) throw failure;
  });
}
