/**
 * shapeRound: the parallel results of one turn under one budget. The round's property is stated
 * once (`roundViolation`) against independent measures (each result shaped alone with `shape()`,
 * tokens counted with gpt-tokenizer directly, the water level computed here by bisection) and run
 * against `shapeRound` and against a wrong round, a per-call budget of the whole round (what the
 * issue measured at 1.9× over), which it must catch.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type RoundCall,
  type Shaped,
  type ShapeInput,
  shape,
  shapeRound,
} from "../../src/index.js";
import { chunkedStream, o200kCount, serviceLog } from "../helpers/sources.js";

type Round = (calls: readonly RoundCall[], maxRoundTokens: number) => Promise<Shaped[]>;

/** An input described as data, so it can be built again for each shaping. */
type Spec =
  | { readonly kind: "log"; readonly lines: number; readonly error: number }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "records"; readonly count: number };

function build(spec: Spec): ShapeInput {
  if (spec.kind === "log") {
    const overrides = new Map([[spec.error, `ERROR payment ${spec.error} failed: card declined`]]);
    return serviceLog(spec.lines, overrides);
  }
  if (spec.kind === "text") return spec.text;
  return Array.from({ length: spec.count }, (_, i) => ({
    id: i + 1,
    level: i % 37 === 5 ? "error" : "info",
    title: `record ${i + 1} of the listing`,
  }));
}

const specArb: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({
    kind: fc.constant("log" as const),
    lines: fc.integer({ min: 0, max: 2500 }),
    error: fc.integer({ min: 1, max: 2500 }),
  }),
  fc.record({ kind: fc.constant("text" as const), text: fc.string({ maxLength: 300 }) }),
  fc.record({ kind: fc.constant("records" as const), count: fc.integer({ min: 0, max: 400 }) }),
);

/** The real water level for `needs` under `total`, by bisection: Σ min(need, level) = total. */
function waterLevel(needs: readonly number[], total: number): number {
  if (needs.reduce((a, b) => a + b, 0) <= total) return Number.POSITIVE_INFINITY;
  let lo = 0;
  let hi = Math.max(...needs);
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (needs.reduce((a, n) => a + Math.min(n, mid), 0) > total) hi = mid;
    else lo = mid;
  }
  return lo;
}

/** What is wrong with a round's results, measured independently, or undefined. */
async function roundViolation(
  round: Round,
  specs: readonly Spec[],
  maxRoundTokens: number,
  seed: number,
): Promise<string | undefined> {
  const results = await round(
    specs.map((s) => ({ input: build(s) })),
    maxRoundTokens,
  );
  const alone = await Promise.all(specs.map((s) => shape(build(s), { maxTokens: maxRoundTokens })));
  const needs = alone.map((s) => s.meta.tokens as number);
  const tokens = await Promise.all(results.map((r) => o200kCount(r.text)));
  const total = tokens.reduce((a, b) => a + b, 0);
  if (total > maxRoundTokens) return `fit: ${total} > ${maxRoundTokens}`;
  const level = waterLevel(needs, maxRoundTokens);
  for (const [i, n] of tokens.entries()) {
    const need = needs[i] as number;
    if (n > need) return `need: result ${i} has ${n} tokens, ${need} alone`;
    // A result whose need is under the level is what it is alone.
    if (need <= Math.floor(level) && results[i]?.text !== alone[i]?.text)
      return `need: result ${i} under the level is not its text alone`;
    // A round that reports no share is judged by what it used.
    const share = results[i]?.meta.telemetry?.round?.share ?? n;
    if (Math.abs(share - Math.min(need, level)) > 1)
      return `fairness: share ${share} for need ${need} at level ${level.toFixed(1)}`;
    if (n > share) return `fairness: result ${i} has ${n} tokens over its share ${share}`;
  }
  // The same calls in another order: each call's result is the same.
  const order = specs
    .map((_, i) => i)
    .sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
  const again = await round(
    order.map((i) => ({ input: build(specs[i] as Spec) })),
    maxRoundTokens,
  );
  for (const [k, i] of order.entries()) {
    if (again[k]?.text !== results[i]?.text) return `order: call ${i} differs when it is call ${k}`;
  }
  return undefined;
}

const theRound: Round = (calls, maxRoundTokens) => shapeRound(calls, { maxRoundTokens });
// The first row: every call shaped with the round's whole budget.
const perCallBudget: Round = (calls, maxRoundTokens) =>
  Promise.all(calls.map((c) => shape(c.input, { maxTokens: maxRoundTokens })));

async function check(round: Round, numRuns: number) {
  return fc.check(
    fc.asyncProperty(
      fc.array(specArb, { minLength: 2, maxLength: 4 }),
      fc.integer({ min: 200, max: 3000 }),
      fc.nat(),
      async (specs, maxRoundTokens, seed) => {
        const problem = await roundViolation(round, specs, maxRoundTokens, seed);
        if (problem) throw new Error(problem);
      },
    ),
    {
      numRuns,
      seed: 1515,
      // Always one long log among the calls, so a round that overspends has the chance to.
      examples: [
        [
          [
            { kind: "log", lines: 2500, error: 1200 },
            { kind: "text", text: "ok" },
          ],
          400,
          3,
        ],
      ],
    },
  );
}

describe("shapeRound: one budget for the parallel results of a turn", () => {
  it("fits the round, never more than a need, shares max-min fairly, does not depend on order", async () => {
    const result = await check(theRound, 12);
    expect(result.failed, String(result.errorInstance)).toBe(false);
  }, 120_000);

  it("negative control: a per-call budget of the whole round is caught", async () => {
    const result = await check(perCallBudget, 3);
    expect(result.failed).toBe(true);
    expect(String(result.errorInstance)).toMatch(/fit: \d+ > \d+/);
  }, 120_000);

  it("the issue's round (2 MB, 45 KB, 200 B under 6,000): fits, the small one whole, little left unused", async () => {
    const big = serviceLog(32_000);
    const medium = serviceLog(450);
    const small = "deploy finished: 3 services restarted, 0 failed";
    expect(big.length).toBeGreaterThan(2_000_000);
    const results = await shapeRound([{ input: big }, { input: medium }, { input: small }], {
      maxRoundTokens: 6000,
    });
    const tokens = await Promise.all(results.map((r) => o200kCount(r.text)));
    const total = tokens.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(6000);
    // The per-call budget of 6,000 took 1.9× the round; an equal split left a third unused.
    expect(total).toBeGreaterThan(6000 * 0.95);
    expect(results[2]?.text).toBe((await shape(small, { maxTokens: 6000 })).text);
    const [a, b] = results.map((r) => r.meta.telemetry?.round?.share ?? 0);
    expect(Math.abs((a as number) - (b as number))).toBeLessThanOrEqual(1);
  }, 60_000);

  it("a round of 20 calls under 2,000 tokens works, and a small result is shown whole", async () => {
    const calls = Array.from({ length: 20 }, (_, i) => ({
      input: i % 4 === 0 ? `ok ${i}` : serviceLog(300 + i * 50),
    }));
    const results = await shapeRound(calls, { maxRoundTokens: 2000 });
    const tokens = await Promise.all(results.map((r) => o200kCount(r.text)));
    expect(tokens.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(2000);
    expect(results[0]?.text).toContain("ok 0");
    for (const r of results.slice(1, 4)) {
      // Each long log keeps its head and tail in a small share's fence: no source, and (no `<`
      // in a service log) no boundary.
      expect(r.text).toMatch(/^<untrusted-data>\n/);
      expect(r.meta.cuts.length).toBeGreaterThan(0);
    }
  }, 60_000);

  it("a call that gets almost nothing says what it was in one line, without tool text", async () => {
    const calls = Array.from({ length: 5 }, (_, i) => ({ input: serviceLog(2000 + i) }));
    const results = await shapeRound(calls, { maxRoundTokens: 80 });
    for (const r of results) {
      expect(await o200kCount(r.text)).toBeLessThanOrEqual(16);
      expect(r.text).toMatch(/^\[airlock: [^\]]*\]$/);
      expect(r.text).not.toContain("INFO");
      expect(r.status).toBe("partial");
      expect(r.meta.telemetry?.round?.share).toBe(16);
    }
  });

  it("each call's own options apply over the round's; its maxTokens caps its share", async () => {
    const results = await shapeRound(
      [
        { input: serviceLog(3000), options: { maxTokens: 300, tool: "logs" } },
        { input: serviceLog(3000) },
      ],
      { maxRoundTokens: 2000, tool: "round" },
    );
    expect(results[0]?.meta.tokens).toBeLessThanOrEqual(300);
    expect(results[0]?.meta.tool).toBe("logs");
    expect(results[1]?.meta.tool).toBe("round");
    // The larger result is long enough for its fence to name its source.
    expect(results[1]?.text).toContain('source="tool:round"');
    // What the capped call could not use goes to the other.
    expect(results[1]?.meta.tokens).toBeGreaterThan(1500);
  });

  it("onShaped hears each call once, with its place in the round", async () => {
    const heard: Array<{ index: number; share: number; tokens: number }> = [];
    const results = await shapeRound([{ input: serviceLog(3000) }, { input: "short" }], {
      maxRoundTokens: 1000,
      onShaped: (t) => {
        heard.push({
          index: t.round?.index ?? -1,
          share: t.round?.share ?? -1,
          tokens: t.after.tokens,
        });
      },
    });
    heard.sort((a, b) => a.index - b.index);
    expect(heard.map((h) => h.index)).toEqual([0, 1]);
    expect(heard.map((h) => h.tokens)).toEqual(results.map((r) => r.meta.tokens));
  });

  it("a call that cannot be read fails the round only after the others were read to the end", async () => {
    const { stream, pulled, cancelled } = chunkedStream(["a\n", "b\n", "c\n"]);
    await expect(
      shapeRound([{ input: stream }, { input: Symbol("no") as never }], { maxRoundTokens: 1000 }),
    ).rejects.toMatchObject({ code: "input/unsupported" });
    expect(pulled() === 3 || cancelled()).toBe(true);
  });

  it("refuses misspelt options and budgets too small for the calls, naming them", async () => {
    await expect(shapeRound([{ input: "x" }], { maxRoundToken: 100 } as never)).rejects.toThrow(
      /shapeRound: unknown option "maxRoundToken" \(did you mean "maxRoundTokens"\?\)/,
    );
    await expect(shapeRound([{ inptu: "x" } as never], { maxRoundTokens: 100 })).rejects.toThrow(
      /calls\[0\] must be \{ input, options\? \}/,
    );
    await expect(
      shapeRound([{ input: "x", optoins: {} } as never], { maxRoundTokens: 100 }),
    ).rejects.toThrow(/calls\[0\]: unknown option "optoins" \(did you mean "options"\?\)/);
    await expect(
      shapeRound([{ input: "x" }, { input: "y", options: { maxToken: 5 } as never }], {
        maxRoundTokens: 100,
      }),
    ).rejects.toThrow(
      /calls\[1\]: options: unknown option "maxToken" \(did you mean "maxTokens"\?\)/,
    );
    await expect(
      shapeRound(
        Array.from({ length: 7 }, () => ({ input: "x" })),
        { maxRoundTokens: 100 },
      ),
    ).rejects.toThrow(/below 16 tokens for each of 7 calls/);
    expect(await shapeRound([], { maxRoundTokens: 100 })).toEqual([]);
  });
});
