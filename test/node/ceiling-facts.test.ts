/**
 * The facts about the encodings that `ceilingOf` and the compact fence rely on, derived here from
 * the vocabularies themselves (every token decoded), not assumed:
 *   - no token is more than LONGEST_HEX_TOKEN hex digits, so a 16-digit boundary is at least 2;
 *   - every three-digit string is one token, so a 9-digit boundary is always 3;
 *   - the fence lines cost the same around a body whatever the boundary, less its own tokens;
 *   - the bare fence (a body with no `<`) costs 11 tokens around any body.
 */
import { webcrypto } from "node:crypto";
import * as cl100k from "gpt-tokenizer/encoding/cl100k_base";
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { fence } from "../../src/fence/fence.js";
import { LONGEST_HEX_TOKEN } from "../../src/round/ceiling.js";

const plain = { disallowedSpecial: new Set<string>() };
const encodings = [
  { name: "o200k_base", m: o200k, size: 200_019 },
  { name: "cl100k_base", m: cl100k, size: 100_277 },
] as const;

async function hex(text: string): Promise<string> {
  const digest = await webcrypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Buffer.from(digest).toString("hex");
}

describe("the encodings, as the ceiling counts them", () => {
  for (const { name, m, size } of encodings) {
    it(`${name}: the longest token of hex digits only is ${LONGEST_HEX_TOKEN} characters`, () => {
      let longest = 0;
      let decoded = 0;
      for (let id = 0; id < size; id++) {
        let token: string;
        try {
          token = m.decode([id]);
        } catch {
          continue;
        }
        decoded++;
        if (/^[0-9a-f]+$/.test(token)) longest = Math.max(longest, token.length);
      }
      expect(decoded).toBeGreaterThan(size * 0.9);
      expect(longest).toBe(LONGEST_HEX_TOKEN);
    });

    it(`${name}: every three digits are one token`, () => {
      for (let n = 0; n < 1000; n++) {
        expect(m.countTokens(String(n).padStart(3, "0"), plain)).toBe(1);
      }
    });

    it(`${name}: the fence costs a fixed amount plus its boundary's tokens, twice`, async () => {
      const costs = new Set<number>();
      const compact = new Set<number>();
      const bare = new Set<number>();
      for (let i = 0; i < 400; i++) {
        // A `<` needs a boundary; 1,024 characters or more get the full form.
        const body = `line ${i} <x>\n${"more\n".repeat(250)}end`;
        const full = await fence(body, "bash", hex);
        expect(full.boundary).toMatch(/^[0-9a-f]{16}$/);
        costs.add(
          m.countTokens(full.text, plain) -
            m.countTokens(body, plain) -
            2 * m.countTokens(full.boundary as string, plain),
        );
        const short = await fence(body, "bash", hex, "compact");
        expect(short.boundary).toMatch(/^\d{9}$/);
        compact.add(m.countTokens(short.text, plain) - m.countTokens(body, plain));
        // No `<`: no boundary, and the least fence of all.
        const plainBody = `line ${i}\nmore`;
        const none = await fence(plainBody, "bash", hex);
        expect(none.boundary).toBeUndefined();
        bare.add(m.countTokens(none.text, plain) - m.countTokens(plainBody, plain));
      }
      expect(costs.size).toBe(1);
      expect(compact.size).toBe(1);
      expect([...bare]).toEqual([11]);
    });
  }
});
