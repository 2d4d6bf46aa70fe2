/**
 * The allocator and the planner: pure arithmetic, so the properties run many cases. The
 * property of a fair share is stated once (`violation`) and run against `allocate` and against
 * three wrong allocators (the negative controls): the whole budget to every call, an equal
 * split, and first come first served. Each must be caught.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate, MIN_MAX_TOKENS, planBudget } from "../../src/index.js";

type Allocator = (needs: readonly number[], total: number) => number[];

/**
 * What is wrong with `shares` for `needs` under `total`, or undefined:
 *   fit        the shares add up to at most the total;
 *   need       no share is more than its need;
 *   fairness   a result cut below its need has no share more than one token under anyone's;
 *   waste      what is left unused is less than one token per cut result (else it could go to them).
 */
function violation(needs: readonly number[], total: number, shares: readonly number[]) {
  const sum = shares.reduce((a, b) => a + b, 0);
  if (sum > total) return `fit: ${sum} > ${total}`;
  const cut: number[] = [];
  for (const [i, share] of shares.entries()) {
    const need = needs[i] as number;
    if (share > need) return `need: share ${share} > need ${need} at ${i}`;
    if (share < need) cut.push(share);
  }
  if (cut.length > 0) {
    const lowest = Math.min(...cut);
    const highest = Math.max(...shares);
    if (highest > lowest + 1) return `fairness: ${highest} given while a cut result got ${lowest}`;
    const left = total - sum;
    if (left >= cut.length) return `waste: ${left} left with ${cut.length} results cut`;
  }
  return undefined;
}

/** The same shares, whatever order the needs come in. */
function orderViolation(
  allocator: Allocator,
  needs: readonly number[],
  total: number,
  seed: number,
) {
  const order = needs
    .map((_, i) => i)
    .sort((a, b) => ((a * 7919 + seed) % 101) - ((b * 7919 + seed) % 101));
  const direct = allocator(needs, total);
  const shuffled = allocator(
    order.map((i) => needs[i] as number),
    total,
  );
  for (const [k, i] of order.entries()) {
    if (shuffled[k] !== direct[i])
      return `order: need ${needs[i]} got ${direct[i]} and ${shuffled[k]}`;
  }
  return undefined;
}

const everyCallTheWholeBudget: Allocator = (needs, total) => needs.map((n) => Math.min(n, total));
const equalSplit: Allocator = (needs, total) =>
  needs.map((n) => Math.min(n, Math.floor(total / needs.length)));
const firstComeFirstServed: Allocator = (needs, total) => {
  let left = total;
  return needs.map((n) => {
    const share = Math.min(n, left);
    left -= share;
    return share;
  });
};

const needsArb = fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 24 });
const roundArb = fc.record({
  needs: needsArb,
  total: fc.integer({ min: 0, max: 40_000 }),
  seed: fc.nat(),
});

function holds(allocator: Allocator) {
  return fc.check(
    fc.property(roundArb, ({ needs, total, seed }) => {
      const problem =
        violation(needs, total, allocator(needs, total)) ??
        orderViolation(allocator, needs, total, seed);
      if (problem) throw new Error(problem);
    }),
    { numRuns: 400, seed: 15 },
  );
}

describe("allocate: water-filling, max-min fair", () => {
  it("fits, never gives more than a need, is fair, wastes less than a token per cut result, ignores order", () => {
    const result = holds((needs, total) => allocate(needs, total));
    expect(result.failed, String(result.counterexample)).toBe(false);
  });

  it("negative controls: the whole budget to every call, an equal split, first come first served are each caught", () => {
    for (const wrong of [everyCallTheWholeBudget, equalSplit, firstComeFirstServed]) {
      expect(holds(wrong).failed, wrong.name).toBe(true);
    }
  });

  it("the issue's round: 2 MB, 45 KB and 200 B under 6,000 tokens", () => {
    // Needs as the issue measured them with a per-call budget of 6,000.
    expect(allocate([5352, 5783, 52], 6000)).toEqual([2974, 2974, 52]);
    // Every need fits: each gets exactly its need.
    expect(allocate([100, 200, 300], 600)).toEqual([100, 200, 300]);
    // Equal needs get equal shares: the spare token is left rather than given to one of them.
    expect(allocate([10, 10], 19)).toEqual([9, 9]);
    // The spare tokens go to the largest needs first.
    expect(allocate([10, 20, 30], 23)).toEqual([7, 8, 8]);
    expect(allocate([], 100)).toEqual([]);
  });

  it("a minimum the total cannot give is refused, and bad numbers are refused", () => {
    expect(allocate([100, 100, 5], 40, { min: 16 })).toEqual([17, 17, 5]);
    expect(allocate([100, 99, 5], 40, { min: 16 })).toEqual([18, 17, 5]);
    expect(() => allocate([100, 100, 100], 40, { min: 16 })).toThrow(/cannot give 3 results 16/);
    for (const bad of [[-1], [1.5], [Number.NaN]]) {
      expect(() => allocate(bad, 10)).toThrowError(
        expect.objectContaining({ code: "options/invalid" }),
      );
    }
    expect(() => allocate([1], -1)).toThrow(/total must be a whole number/);
  });
});

describe("planBudget: a third of the window for tool results, divided by the calls", () => {
  it("the worked example of docs/budgets.md", () => {
    const plan = planBudget({
      contextWindow: 128_000,
      systemPromptTokens: 2_000,
      toolDefinitionTokens: 3_000,
      reservedOutputTokens: 8_000,
      callsPerRun: 30,
      callsPerRound: 3,
    });
    // 128,000 − 2,000 − 3,000 − 8,000 = 115,000; a third is 38,333; ÷ 30 calls = 1,277; × 3.
    expect(plan).toEqual({
      available: 115_000,
      toolResults: 38_333,
      maxTokens: 1_277,
      maxRoundTokens: 3_831,
      callsPerRun: 30,
      callsPerRound: 3,
    });
  });

  it("defaults: no fixed costs, one call per round, a third; the share can be set", () => {
    expect(planBudget({ contextWindow: 9_000, callsPerRun: 10 })).toMatchObject({
      available: 9_000,
      toolResults: 3_000,
      maxTokens: 300,
      maxRoundTokens: 300,
    });
    expect(planBudget({ contextWindow: 9_000, callsPerRun: 10, toolShare: 0.5 })).toMatchObject({
      toolResults: 4_500,
      maxTokens: 450,
    });
  });

  it("every plan is arithmetic the host can redo", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 2_000_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 10 }),
        (contextWindow, system, tools, output, calls, perRound) => {
          const inputs = {
            contextWindow,
            systemPromptTokens: system,
            toolDefinitionTokens: tools,
            reservedOutputTokens: output,
            callsPerRun: calls,
            callsPerRound: Math.min(perRound, calls),
          };
          const available = contextWindow - system - tools - output;
          const toolResults = Math.floor((Math.max(0, available) * 1) / 3);
          const perCall = Math.floor(toolResults / calls);
          if (perCall < MIN_MAX_TOKENS) {
            expect(() => planBudget(inputs)).toThrow(/below the minimum/);
            return;
          }
          const plan = planBudget(inputs);
          expect(plan.toolResults).toBe(toolResults);
          expect(plan.maxTokens).toBe(perCall);
          expect(plan.maxRoundTokens).toBe(perCall * inputs.callsPerRound);
          expect(plan.maxTokens * calls).toBeLessThanOrEqual(plan.toolResults);
        },
      ),
      { numRuns: 300, seed: 15 },
    );
  });

  it("refuses inputs that leave no room, and misspelt inputs with the nearest name", () => {
    expect(() =>
      planBudget({ contextWindow: 8_000, reservedOutputTokens: 8_000, callsPerRun: 1 }),
    ).toThrow(/leave 0 per call/);
    expect(() => planBudget({ contextWindow: 100_000, callsPerRun: 10_000 })).toThrow(
      /2083 calls fit/,
    );
    expect(() => planBudget({ contextWindow: 100_000, callsPerRun: 3, callsPerRound: 4 })).toThrow(
      /more than callsPerRun/,
    );
    expect(() =>
      planBudget({ contextWindow: 100_000, callsPerRun: 3, systemPromtTokens: 10 } as never),
    ).toThrow(/unknown option "systemPromtTokens" \(did you mean "systemPromptTokens"\?\)/);
    expect(() => planBudget({ contextWindow: 100_000, callsPerRun: 0 })).toThrowError(
      expect.objectContaining({ code: "options/invalid" }),
    );
  });
});
