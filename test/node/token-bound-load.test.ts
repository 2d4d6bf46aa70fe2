/**
 * `tokenCount: "bound"` loads no tokenizer for a result whose bytes prove it fits: here the
 * encoding's module fails to load (as an offline browser's chunk would), and such a result is
 * still shaped. The controls: the same result counted exactly, and a result that needs cutting,
 * both reach for the encoding and fail with the tokenizer's stable code.
 */
import { describe, expect, it, vi } from "vitest";
import { type AirlockError, shape } from "../../src/index.js";
import { serviceLog } from "../helpers/sources.js";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("gpt-tokenizer/encoding/o200k_base", () => {
  loads.count++;
  throw new Error("the ranks are not available");
});

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "shaped",
    (e: AirlockError) => e.code,
  );

describe("tokenCount: bound, with no tokenizer to load", () => {
  it("a result that fits by its bytes is shaped without one", async () => {
    const s = await shape(serviceLog(6), { tokenCount: "bound", tool: "bash" });
    expect(s.status).toBe("ok");
    expect(s.meta.tokenBound).toBeGreaterThan(0);
    expect(loads.count).toBe(0);
  });

  it("controls: counted exactly, or cut, the same library reaches for the tokenizer", async () => {
    await expect(codeOf(shape(serviceLog(6), { tool: "bash" }))).resolves.toBe(
      "fit/tokenizer-failed",
    );
    expect(loads.count).toBeGreaterThan(0);
    await expect(
      codeOf(shape(serviceLog(2000), { tokenCount: "bound", maxTokens: 400 })),
    ).resolves.toBe("fit/tokenizer-failed");
  });
});
