/**
 * `tokenCount: "bound"`: a result shown whole whose UTF-8 length is within the budget is not
 * counted; `meta.tokenBound` holds that length, and it bounds the real count (checked against
 * gpt-tokenizer's own `countTokens`, not against airlock's). A result that needs cutting is
 * counted as before, and rounds share budgets out on either. That no tokenizer loads is checked
 * in `test/node/token-bound-load.test.ts`, where the encoding's module can be made to fail.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { type AirlockError, shape, shapeRound } from "../../src/index.js";
import { serviceLog } from "../helpers/sources.js";

const utf8 = (text: string) => new TextEncoder().encode(text).byteLength;
const plain = { disallowedSpecial: new Set<string>() };

describe("tokenCount: bound", () => {
  it("a small result is not counted: tokenBound is its UTF-8 length, at least its tokens", async () => {
    for (const input of ["ok", "ünïcødé ✓ 日本語 🙂", serviceLog(12), '<b>"x"</b> <|endoftext|>']) {
      const s = await shape(input, { tokenCount: "bound", tool: "bash" });
      expect(s.meta.tokens).toBeUndefined();
      expect(s.meta.tokenBound).toBe(utf8(s.text));
      expect(countTokens(s.text, plain)).toBeLessThanOrEqual(s.meta.tokenBound as number);
      expect(s.meta.tokenBound).toBeLessThanOrEqual(s.meta.maxTokens);
      expect(s.meta.telemetry?.after).toMatchObject({ tokens: s.meta.tokenBound, bound: true });
      expect(s.meta.telemetry?.before.estimated).toBe(true);
      // The text is the one the exact count shows: only the count is left out.
      const exact = await shape(input, { tool: "bash" });
      expect(s.text).toBe(exact.text);
      expect(exact.meta.tokens).toBe(countTokens(exact.text, plain));
      expect(exact.meta.tokenBound).toBeUndefined();
    }
  });

  it("a result longer in bytes than the budget is counted exactly, even when it fits in tokens", async () => {
    const text = serviceLog(60); // about 3.6 KB, fewer tokens than bytes
    const s = await shape(text, { tokenCount: "bound", maxTokens: 3000 });
    expect(utf8(text)).toBeGreaterThan(3000);
    expect(s.meta.truncated).toBe(false);
    expect(s.meta.tokens).toBe(countTokens(s.text, plain));
    expect(s.meta.tokenBound).toBeUndefined();
    const cut = await shape(text, { tokenCount: "bound", maxTokens: 300 });
    expect(cut.meta.truncated).toBe(true);
    expect(cut.meta.tokens).toBe(countTokens(cut.text, plain));
    expect(cut.meta.tokens).toBeLessThanOrEqual(300);
  });

  it("a round allocates on the bound: every result within its share, the round within its ceiling", async () => {
    const calls = [
      { input: "ok" },
      { input: serviceLog(5) },
      { input: serviceLog(400) },
      { input: { stdout: "built", stderr: "", exitCode: 0 } },
    ];
    const shaped = await shapeRound(calls, { maxRoundTokens: 2000, tokenCount: "bound" });
    let total = 0;
    for (const s of shaped) {
      const used = s.meta.tokens ?? (s.meta.tokenBound as number);
      expect(countTokens(s.text, plain)).toBeLessThanOrEqual(used);
      total += used;
    }
    expect(total).toBeLessThanOrEqual(2000);
    expect(shaped[2]?.meta.truncated).toBe(true);
    // A round whose bounds fit its ceiling together counts none of them.
    const small = await shapeRound([calls[0], calls[1], calls[3]] as typeof calls, {
      maxRoundTokens: 2000,
      tokenCount: "bound",
    });
    expect(small.map((s) => s.meta.tokens)).toEqual([undefined, undefined, undefined]);
    expect(small.every((s) => s.meta.tokenBound !== undefined)).toBe(true);
  });

  it("a round counts the largest bounds first, and only until its needs fit", async () => {
    const ceiling = 1300;
    const big = serviceLog(20);
    const alone = async (input: string) => {
      const s = await shape(input, { tokenCount: "bound", maxTokens: ceiling });
      return { bound: s.meta.tokenBound as number, tokens: countTokens(s.text, plain) };
    };
    const a = await alone(big);
    const small = await alone(serviceLog(5));
    const medium = await alone(serviceLog(12));
    // Each is bounded alone; two bounds overrun the ceiling; counted, both fit.
    expect(Math.max(a.bound, small.bound, medium.bound)).toBeLessThanOrEqual(ceiling);
    expect(a.bound + small.bound).toBeGreaterThan(ceiling);
    expect(a.tokens + medium.tokens).toBeLessThanOrEqual(ceiling);
    // Counting the big one leaves room for the small one's bound: it stays bounded.
    expect(a.tokens + small.bound).toBeLessThanOrEqual(ceiling);
    const round = (other: string) =>
      shapeRound([{ input: big }, { input: other }], {
        maxRoundTokens: ceiling,
        tokenCount: "bound",
      });
    const one = await round(serviceLog(5));
    expect(one.map((s) => s.meta.tokens)).toEqual([a.tokens, undefined]);
    expect(one[1]?.meta.tokenBound).toBe(small.bound);
    // Control: a medium one's bound does not fit beside the big one's count: both are counted.
    expect(a.tokens + medium.bound).toBeGreaterThan(ceiling);
    const both = await round(serviceLog(12));
    expect(both.map((s) => s.meta.tokens)).toEqual([a.tokens, medium.tokens]);
    expect([...one, ...both].every((s) => !s.meta.truncated)).toBe(true);
  });

  it("a round shares on tokens where bounds would cut: a CJK result fits as it does when counted", async () => {
    // CJK takes about a third of its bytes in tokens: shared on bounds, it was cut with the
    // round half spent.
    const cjk = Array.from(
      { length: 40 },
      (_, i) => `第${i}行：漢字かなカナ한국어です。項目${i * 3}`,
    ).join("\n");
    const small = Array.from({ length: 10 }, (_, i) => `small result line ${i}`).join("\n");
    const calls = [
      { input: cjk },
      { input: small },
      { input: `${small}x` },
      { input: `${small}y` },
    ];
    const exact = await shapeRound(calls, { maxRoundTokens: 1000 });
    const bound = await shapeRound(calls, { maxRoundTokens: 1000, tokenCount: "bound" });
    expect(exact.every((s) => !s.meta.truncated)).toBe(true);
    expect(bound.map((s) => s.text)).toEqual(exact.map((s) => s.text));
    let total = 0;
    for (const s of bound) {
      // Counted where the round needed it: then exact, telemetry too.
      if (s.meta.tokens !== undefined) {
        expect(s.meta.tokenBound).toBeUndefined();
        expect(s.meta.telemetry?.after.bound).toBeUndefined();
        expect(s.meta.telemetry?.after.tokens).toBe(s.meta.tokens);
      }
      total += countTokens(s.text, plain);
    }
    expect(total).toBeLessThanOrEqual(1000);
  });

  it("'before' of a parsed value is estimated from its size, not zero", async () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      id: i,
      name: `user ${i}`,
      ok: i % 7 !== 0,
    }));
    const s = await shape({ rows }, { maxTokens: 300, tokenCount: "bound" });
    expect(s.meta.telemetry?.before.estimated).toBe(true);
    expect(s.meta.telemetry?.before.bytes).toBeGreaterThan(1000);
    expect(s.meta.telemetry?.before.tokens).toBeGreaterThan(250);
  });

  it("refuses a host counter and an unknown mode, by name", async () => {
    const host = { count: (t: string) => t.length };
    await expect(shape("a", { tokenCount: "bound", tokenizer: host })).rejects.toThrow(
      /tokenCount "bound" needs a built-in tokenizer/,
    );
    await expect(
      shape("a", { tokenCount: "approximate" as "bound" }).catch((e: AirlockError) => e.code),
    ).resolves.toBe("options/invalid");
    await expect(
      shape("a", { tokenCount: null as unknown as "bound" }).catch((e: AirlockError) => e.code),
    ).resolves.toBe("options/invalid");
    // The default and "exact" count.
    expect((await shape("a", { tokenCount: "exact" })).meta.tokens).toBeGreaterThan(0);
  });
});
