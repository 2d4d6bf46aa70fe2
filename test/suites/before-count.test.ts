/**
 * "Tokens before" is counted in pieces, cut after a line break that neither white space nor a
 * slash follows: there the o200k and cl100k pre-tokenizers cannot join the two sides, so the
 * pieces' counts add up to the whole text's. The property checks that against gpt-tokenizer
 * counting the whole text; its negative control cuts after every line break, which must differ.
 */
import fc from "fast-check";
import { countTokens as cl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as o200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countText } from "../../src/telemetry/before.js";

const plain = { disallowedSpecial: new Set<string>() };
const encodings = [
  { name: "o200k_base", count: (t: string) => o200k(t, plain) },
  { name: "cl100k_base", count: (t: string) => cl100k(t, plain) },
] as const;

const line = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.constantFrom(
    "",
    " ",
    "  indented",
    "\tTab",
    "/usr/lib",
    "//",
    "x.",
    "a,",
    "'s",
    "é",
    "😀",
    "\r",
    "123",
  ),
);
// Long enough that pieces are cut (a piece is about 4 KiB).
const text = fc
  .array(fc.tuple(line, fc.constantFrom("\n", "\n\n", " \n", ".\n", "\r\n", "\n ")), {
    minLength: 60,
    maxLength: 400,
  })
  .map((parts) =>
    parts.map(([l, end], i) => `${l}${"word ".repeat(10 + ((i * 7) % 31))}${end}`).join(""),
  );

/** The wrong splitter: a cut after every line break. */
function everyBreak(t: string, count: (s: string) => number): number {
  return t.split(/(?<=\n)/).reduce((n, piece) => n + count(piece), 0);
}

describe("tokens before: counted in pieces that add up to the whole", () => {
  for (const { name, count } of encodings) {
    const tokenizer = { name, count: async (t: string) => count(t) };

    it(`${name}: the pieces' counts equal the whole text's`, async () => {
      let longest = 0;
      await fc.assert(
        fc.asyncProperty(text, async (t) => {
          longest = Math.max(longest, t.length);
          const counted = await countText(t, tokenizer, true);
          expect(counted).toEqual({ tokens: count(t), estimated: false });
        }),
        { numRuns: 120, seed: 15 },
      );
      // Texts several pieces long were among them.
      expect(longest).toBeGreaterThan(3 * 4096);
    });

    it(`${name}: negative control, a cut after every line break is caught`, () => {
      const result = fc.check(
        fc.property(text, (t) => everyBreak(t, count) === count(t)),
        { numRuns: 120, seed: 15 },
      );
      expect(result.failed).toBe(true);
    });
  }
});
