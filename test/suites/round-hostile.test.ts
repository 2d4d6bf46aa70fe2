/**
 * shapeRound over calls that cannot be read (issue 27, break 17 of the 2026-12-02 review): a
 * Proxy call list, a call or an input whose getter throws. The input is content: its call gets
 * a result that says reading failed, and the other calls are shaped as ever. Only the host's
 * own mistakes (a list that is not one, options that cannot be read) throw, as AirlockError
 * `options/invalid`. Each case threw a raw Error on ff98d8c.
 */
import { AirlockError, ceilingOf, type RoundCall, shapeRound } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { o200kCount } from "../helpers/sources.js";

const thrower = () => {
  throw new Error("trap");
};

async function refused(run: () => Promise<unknown>): Promise<AirlockError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AirlockError);
  expect((error as AirlockError).code).toBe("options/invalid");
  return error as AirlockError;
}

describe("a round whose calls cannot be read", () => {
  it("a Proxy call list whose items throw: one result per call, each a failed read", async () => {
    const calls = new Proxy([{ input: "a" }, { input: "b" }], {
      get(t, k) {
        if (k === "length") return 2;
        if (typeof k === "symbol") return Reflect.get(t, k);
        throw new Error("trap");
      },
    });
    const out = await shapeRound(calls, { maxRoundTokens: 400 });
    expect(out).toHaveLength(2);
    for (const s of out) {
      expect(s.status).toBe("error");
      expect(s.meta.error?.code).toBe("intake/read-failed");
      expect(s.text).toContain("reading the input failed (call ");
    }
  });

  it("a call whose input getter throws: that call fails its read, the others are shaped", async () => {
    const calls: RoundCall[] = [
      { input: "first result" },
      {
        get input(): string {
          return thrower();
        },
      },
      { input: ["a", "b"] },
    ];
    const out = await shapeRound(calls, { maxRoundTokens: 600 });
    expect(out.map((s) => s.status)).toEqual(["ok", "error", "ok"]);
    expect(out[1]?.text).toContain(
      "reading the input failed (the input of call 1 could not be read)",
    );
    expect(out[0]?.text).toContain("first result");
    let total = 0;
    for (const s of out) total += await o200kCount(s.text);
    expect(total).toBeLessThanOrEqual(600);
  });

  it("a call that is a Proxy throwing on its keys: a failed read", async () => {
    const call = new Proxy({ input: "x" }, { ownKeys: thrower, get: thrower, has: thrower });
    const out = await shapeRound([call as RoundCall, { input: "ok" }], { maxRoundTokens: 400 });
    expect(out[0]?.meta.error?.code).toBe("intake/read-failed");
    expect(out[1]?.status).toBe("ok");
  });

  it("each input is read once: a getter that changes its answer is not asked twice", async () => {
    let reads = 0;
    const call = {
      get input(): string {
        reads++;
        return reads === 1 ? "the first answer" : "a second, different answer";
      },
    };
    const [out] = await shapeRound([call], { maxRoundTokens: 400 });
    expect(reads).toBe(1);
    expect(out?.text).toContain("the first answer");
  });
});

describe("the host's own mistakes are AirlockError options/invalid", () => {
  it("a call list whose length throws", async () => {
    const calls = new Proxy([], { get: thrower });
    const error = await refused(() => shapeRound(calls, { maxRoundTokens: 400 }));
    expect(error.message).toMatch(/calls cannot be read/);
  });

  it("a call list that is not an array, a call that is not an object, no input, an unknown field", async () => {
    await refused(() => shapeRound("calls" as never, { maxRoundTokens: 400 }));
    await refused(() => shapeRound([null as never], { maxRoundTokens: 400 }));
    await refused(() => shapeRound([{} as never], { maxRoundTokens: 400 }));
    await refused(() => shapeRound([{ input: "a", inptu: 1 } as never], { maxRoundTokens: 400 }));
  });

  it("options whose getter throws, or that are not an object", async () => {
    const call = {
      input: "a",
      get options(): object {
        return thrower();
      },
    };
    const error = await refused(() => shapeRound([call as RoundCall], { maxRoundTokens: 400 }));
    expect(error.message).toMatch(/calls\[0\]\.options cannot be read/);
    await refused(() => shapeRound([{ input: "a", options: 3 as never }], { maxRoundTokens: 400 }));
  });

  it("more calls than the budget has shares for, before any is read", async () => {
    let read = false;
    const calls = Array.from({ length: 30 }, () => ({
      get input(): string {
        read = true;
        return "x";
      },
    }));
    await refused(() => shapeRound(calls, { maxRoundTokens: 100 }));
    expect(read).toBe(false);
  });

  it("ceilingOf checks its calls the same way", async () => {
    await refused(() => ceilingOf({ calls: [3 as never], maxRoundTokens: 400 }));
  });
});
