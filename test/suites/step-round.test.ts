/**
 * The per-step round of the framework entries (src/frameworks/step-round.ts), with members made
 * up here: calls of one step gathered within the window share the budget as `allocate` shares
 * it; a late call gets what is left; steps (keys) never share; a failed member takes nothing.
 * The property has a negative control: the same calls, each under a key of its own (no
 * gathering), overrun the budget, and the property catches it.
 */

import { allocate, type Shaped } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStepRounds, type RoundMember } from "../../src/frameworks/step-round.js";

const later = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A member that needs `need` tokens, is read after `delay` ms, and fits to any share. */
function member(need: number, delay = 0): Promise<RoundMember> {
  const fitted = (tokens: number) =>
    ({ text: "", status: "ok", meta: { tokens } }) as never as Shaped;
  return later(delay).then(() => ({
    need,
    fit: async (share: number) => fitted(Math.min(need, share)),
  }));
}

describe("step rounds", () => {
  it("calls of one step share the budget as allocate() shares it", async () => {
    const rounds = createStepRounds(6000, 0);
    const step = {};
    const needs = [52, 5783, 5352];
    const results = await Promise.all(needs.map((n, i) => rounds.join(step, member(n, 3 - i))));
    expect(results.map((r) => r.place.share)).toEqual(allocate(needs, 6000, { min: 16 }));
    expect(results.map((r) => r.shaped.meta.tokens)).toEqual([52, 2974, 2974]);
    expect(results.map((r) => r.place.calls)).toEqual([3, 3, 3]);
  });

  it("two steps at once never share, and a step that ended leaves the next its whole budget", async () => {
    const rounds = createStepRounds(1000, 0);
    const [a, b] = [{}, {}];
    const both = await Promise.all([
      rounds.join(a, member(900)),
      rounds.join(a, member(900)),
      rounds.join(b, member(900)),
    ]);
    expect(both.map((r) => r.place.share)).toEqual([500, 500, 900]);
    const next = await rounds.join(a, member(900));
    expect(next.place).toMatchObject({ share: 900, calls: 1 });
  });

  it("a late call of a step gets what the round left, at least 16 tokens", async () => {
    const rounds = createStepRounds(1000, 0);
    const step = {};
    const first = [rounds.join(step, member(300, 20)), rounds.join(step, member(400, 20))];
    await later(5); // the window has closed; the first two are still being read
    const late = rounds.join(step, member(800));
    const results = await Promise.all([...first, late]);
    expect(results.map((r) => r.place.share)).toEqual([300, 400, 300]);
    const starved = createStepRounds(100, 0);
    const early = starved.join(step, member(100, 20));
    await later(5);
    const last = await starved.join(step, member(50));
    expect((await early).place.share).toBe(100);
    expect(last.place.share).toBe(16);
  });

  it("a member that failed takes nothing, and its caller gets the failure", async () => {
    const rounds = createStepRounds(1000, 0);
    const step = {};
    const failing = Promise.reject(new Error("read failed"));
    const [ok, failed] = await Promise.allSettled([
      rounds.join(step, member(900)),
      rounds.join(step, failing),
    ]);
    expect(ok.status === "fulfilled" && ok.value.place.share).toBe(900);
    expect(failed.status === "rejected" && String(failed.reason)).toMatch(/read failed/);
  });

  it("more calls than the budget holds at 16 tokens each get 16 each", async () => {
    const rounds = createStepRounds(32, 0);
    const step = {};
    const results = await Promise.all([1, 2, 3].map(() => rounds.join(step, member(100))));
    expect(results.map((r) => r.place.share)).toEqual([16, 16, 16]);
  });

  const calls = fc.record({
    total: fc.integer({ min: 64, max: 8000 }),
    needs: fc.array(fc.tuple(fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 0, max: 3 })), {
      minLength: 1,
      maxLength: 4,
    }),
  });

  /** Every call of one step, joined in one tick: the results fit the round's budget. */
  async function holds(
    { total, needs }: { total: number; needs: [number, number][] },
    keyOf: (step: object) => object,
  ): Promise<boolean> {
    const rounds = createStepRounds(total, 0);
    const step = {};
    const results = await Promise.all(
      needs.map(([need, delay]) => rounds.join(keyOf(step), member(need, delay))),
    );
    const used = results.reduce((sum, r) => sum + (r.shaped.meta.tokens as number), 0);
    return used <= total || needs.length * 16 > total;
  }

  it("property: the calls of a step stay within its budget (negative control: no gathering)", async () => {
    await fc.assert(
      fc.asyncProperty(calls, (c) => holds(c, (step) => step)),
      { numRuns: 40 },
    );
    const ungathered = await fc.check(
      fc.asyncProperty(calls, (c) => holds(c, () => ({}))),
      { numRuns: 40 },
    );
    expect(ungathered.failed).toBe(true);
  });
});
