import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createKeywordScanner, type Keyword } from "../../src/redact/keywords.js";

/** Every occurrence, by brute force: [start, id] sorted. */
function naive(text: string, keywords: readonly Keyword[]): string[] {
  const out: string[] = [];
  const folded = text.toLowerCase();
  keywords.forEach((k, id) => {
    const hay = k.fold ? folded : text;
    const needle = k.fold ? k.text.toLowerCase() : k.text;
    for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1))
      out.push(`${i}:${id}`);
  });
  return out.sort();
}

function scanned(text: string, keywords: readonly Keyword[]): string[] {
  const out: string[] = [];
  createKeywordScanner(keywords).scan(text, (start, id) => out.push(`${start}:${id}`));
  return out.sort();
}

// A small alphabet, so keywords overlap, nest and repeat often.
const letter = fc.constantFrom("a", "b", "A", "B", "_", "-", "k", "K");
const word = fc.array(letter, { minLength: 1, maxLength: 5 }).map((a) => a.join(""));
const keywords = fc.array(fc.record({ text: word, fold: fc.boolean() }), {
  minLength: 1,
  maxLength: 12,
});
const text = fc
  .array(fc.oneof(letter, fc.constantFrom("\n", " ", "é", "😀")), { maxLength: 200 })
  .map((a) => a.join(""));

describe("keyword scanner", () => {
  it("finds exactly the occurrences a brute-force search finds", () => {
    fc.assert(
      fc.property(keywords, text, (ks, t) => {
        expect(scanned(t, ks)).toEqual(naive(t, ks));
      }),
      { numRuns: 500, seed: 3 },
    );
  });

  it("negative control: treating every keyword as case-insensitive is caught", () => {
    const result = fc.check(
      fc.property(keywords, text, (ks, t) => {
        const wrong = ks.map((k) => ({ ...k, fold: true }));
        return JSON.stringify(scanned(t, wrong)) === JSON.stringify(naive(t, ks));
      }),
      { numRuns: 500, seed: 3 },
    );
    expect(result.failed).toBe(true);
  });

  it("reports keywords that end at the same place and keywords inside keywords", () => {
    const ks = [
      { text: "sk-ant-", fold: false },
      { text: "sk-", fold: false },
      { text: "ANT", fold: true },
    ];
    expect(scanned("x sk-ant-api", ks)).toEqual(["2:0", "2:1", "5:2"]);
  });
});
