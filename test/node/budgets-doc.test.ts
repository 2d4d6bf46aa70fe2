/**
 * docs/budgets.md states numbers the code must give: the planner's worked example, the
 * allocator's examples and the ceiling examples. They are read from the page and recomputed.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allocate, ceilingOf, planBudget } from "../../src/index.js";

const page = readFileSync(new URL("../../docs/budgets.md", import.meta.url), "utf8");

describe("docs/budgets.md", () => {
  it("the planner's worked example", () => {
    const plan = planBudget({
      contextWindow: 128_000,
      systemPromptTokens: 2_000,
      toolDefinitionTokens: 3_000,
      reservedOutputTokens: 8_000,
      callsPerRun: 30,
      callsPerRound: 3,
    });
    expect(page).toContain(
      `// { available: ${plan.available}, toolResults: ${plan.toolResults}, maxTokens: ${plan.maxTokens}, maxRoundTokens: ${plan.maxRoundTokens}, … }`,
    );
    const fmt = (n: number) => n.toLocaleString("en-US");
    for (const n of [plan.available, plan.toolResults, plan.maxTokens, plan.maxRoundTokens]) {
      expect(page).toMatch(new RegExp(`\\| ${fmt(n)} +\\|`));
    }
  });

  it("the allocator's examples", () => {
    const examples = [...page.matchAll(/allocate\(\[([\d, ]+)\], (\d+)\); \/\/ +\[([\d, ]+)\]/g)];
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const [, needs, total, shares] of examples) {
      const parse = (s: string | undefined) => (s ?? "").split(",").map((x) => Number(x.trim()));
      expect(allocate(parse(needs), Number(total))).toEqual(parse(shares));
    }
  });

  it("the ceiling examples", async () => {
    const one = await ceilingOf({ maxTokens: 4000, tool: "web_fetch" });
    expect(page).toContain(
      `// { tokens: ${one.tokens}, maxTokens: 4000, frame: ${one.frame}, fence: "full", tokenizer: "o200k_base", bounded: true }`,
    );
    const round = await ceilingOf({ maxRoundTokens: 6000, calls: 3 });
    expect(page).toContain(`// { tokens: ${round.tokens}, maxRoundTokens: 6000, calls: [`);
  });
});
