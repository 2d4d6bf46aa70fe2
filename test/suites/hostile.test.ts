/**
 * Every entry of the hostile corpus (test/fixtures/hostile.ts) through the public API, in every
 * runtime: each probe once, each series at 1× and 2×. The result is bounded: a `Shaped` (or an
 * `HtmlText`), never a throw, its tokens within the budget, and what the entry expects shown.
 * The time bound is generous; growth is measured in bench/hostile.mjs, not here.
 */
import { htmlToText, type ShapeInput, shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { type HostileCase, hostileCases } from "../fixtures/hostile.js";

const TIME_BOUND = 30_000;

async function check(c: HostileCase, scale: number): Promise<void> {
  const input = c.make(scale);
  if (c.via === "htmlToText") {
    const options = {
      ...(c.options?.contentType !== undefined ? { contentType: c.options.contentType } : {}),
      ...(c.options?.maxBytes !== undefined ? { maxBytes: c.options.maxBytes } : {}),
    };
    const result = await htmlToText(input as Parameters<typeof htmlToText>[0], options);
    expect(typeof result.text).toBe("string");
    for (const s of c.expect?.contains ?? []) expect(result.text).toContain(s);
    return;
  }
  const shaped = await shape(input as ShapeInput, c.options);
  expect(["ok", "partial", "empty", "error"]).toContain(shaped.status);
  expect(typeof shaped.text).toBe("string");
  expect(shaped.meta.tokens).toBeLessThanOrEqual(shaped.meta.maxTokens);
  for (const s of c.expect?.contains ?? []) expect(shaped.text).toContain(s);
  if (c.expect?.status) expect(c.expect.status).toContain(shaped.status);
  if (c.expect?.truncated !== undefined) expect(shaped.meta.truncated).toBe(c.expect.truncated);
}

describe("hostile corpus: bounded results through the public API", () => {
  for (const c of hostileCases) {
    const scales = c.kind === "series" ? [1, 2] : [1];
    for (const scale of scales) {
      const name = c.kind === "series" ? `${c.title} (${scale}×)` : c.title;
      it(name, { timeout: TIME_BOUND }, () => check(c, scale));
    }
  }
});
