/**
 * The model hop (issue 29): a host summariser for every kind of cut result, with scripted
 * summarisers. What it is given is what the model reads (never more than the shaped text); its
 * answer is labelled, fenced, redacted and cut to `maxSummaryTokens`; it is cached by the digest
 * of what it read; one that throws, hangs or answers junk is dropped and the result stands.
 * Negative controls: a result that fits asks no summariser; with `summarize` left out the text
 * has no model's words.
 */
import { describe, expect, it } from "vitest";
import {
  createMemoryStore,
  createShaper,
  type SummarizeInput,
  shape,
  shapeRound,
} from "../../src/index.js";
import { o200kCount } from "../helpers/sources.js";
import { PROVIDERS } from "../helpers/wrapped.js";

const LABEL =
  /^\[airlock: (\d+) lines? by the host's model, summarising what is shown here; not the tool's words\]$/m;

function log(n = 6000): string {
  const lines = Array.from(
    { length: n },
    (_, i) =>
      `2026-12-06T10:00:${String(i % 60).padStart(2, "0")}Z INFO api GET /v1/items/${i} 200`,
  );
  lines[n / 2] =
    "2026-12-06T10:30:00Z ERROR payments charge failed: upstream timeout after 30000ms";
  lines[n / 3] = "2026-12-06T10:20:00Z WARN pool nearly exhausted (95 of 100)";
  return lines.join("\n");
}

/** A summariser that records what it was given and answers `answer`. */
function scripted(answer: (input: SummarizeInput) => string | Promise<string>) {
  const seen: SummarizeInput[] = [];
  return {
    seen,
    summarize: async (input: SummarizeInput) => {
      seen.push(input);
      return answer(input);
    },
  };
}

describe("summarize: a host model's summary of a cut result", () => {
  it("lines: reads only the shaped text and the summary by rule; its answer is labelled and fenced", async () => {
    const s = scripted((i) => `One payment failed among ${i.lines} lines; the pool ran low once.`);
    const shaped = await shape(log(), { maxTokens: 500, tool: "logs", summarize: s.summarize });
    expect(s.seen).toHaveLength(1);
    const input = s.seen[0] as SummarizeInput;
    expect(input.kind).toBe("lines");
    expect(input.lines).toBe(6000);
    // What it read is the cut text, not the input: at most the budget's tokens.
    expect(await o200kCount(input.text)).toBeLessThanOrEqual(500);
    expect(input.text).not.toContain("GET /v1/items/1500 200");
    expect(input.summary?.symptoms.map((x) => x.severity).sort()).toEqual(["error", "warning"]);
    expect(input.signal).toBeInstanceOf(AbortSignal);
    // Inside the fence, under its label, within the budget, the evidence still shown.
    const lines = shaped.text.split("\n");
    const at = lines.findIndex((l) => LABEL.test(l));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe("One payment failed among 6000 lines; the pool ran low once.");
    expect(lines.at(-1)).toMatch(/^<\/untrusted-data/);
    expect(shaped.text).toContain("ERROR payments charge failed");
    expect(await o200kCount(shaped.text)).toBeLessThanOrEqual(500);
    expect(shaped.meta.tokens).toBe(await o200kCount(shaped.text));
    expect(shaped.meta.hop).toEqual({ status: "ok", lines: 1 });
  });

  it("records: the answer goes in the envelope's summary, the error record still shown", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: i,
      status: i === 7 ? "error" : "ok",
    }));
    const s = scripted((i) => `${i.records} orders, one failed`);
    const shaped = await shape(rows, { maxTokens: 400, summarize: s.summarize });
    expect(s.seen[0]?.kind).toBe("records");
    expect(s.seen[0]?.records).toBe(3000);
    expect(shaped.text).toMatch(/not the tool's words\]\n3000 orders, one failed\n/);
    expect(shaped.text).toContain('{"id":7,"status":"error"}');
    expect(shaped.meta.hop?.status).toBe("ok");
  });

  it("its answer is redacted, its invisible characters removed, and cut to maxSummaryTokens", async () => {
    const token = PROVIDERS.github(3);
    const long = Array.from({ length: 40 }, (_, i) => `finding ${i}: the cache was cold`).join(
      "\n",
    );
    const s = scripted(() => `token ${token} seen\u200b here\n${long}`);
    const shaped = await shape(log(), {
      maxTokens: 1200,
      maxSummaryTokens: 60,
      summarize: s.summarize,
    });
    expect(s.seen[0]?.maxTokens).toBe(60);
    expect(shaped.text).not.toContain(token);
    expect(shaped.text).toContain("token [REDACTED:github_token] seen here");
    const lines = shaped.text.split("\n");
    const at = lines.findIndex((l) => LABEL.test(l));
    const n = Number(LABEL.exec(lines[at] as string)?.[1]);
    const answer = lines.slice(at + 1, at + 1 + n).join("\n");
    expect(await o200kCount(answer)).toBeLessThanOrEqual(60);
    expect(answer.endsWith("…")).toBe(true);
  });

  it("is asked once for the same result: cached by what it read, in the shaper and in a store", async () => {
    const s = scripted(() => "the same summary");
    const shaper = createShaper({ maxTokens: 500, summarize: s.summarize });
    const a = await shaper(log());
    const b = await shaper(log());
    expect(s.seen).toHaveLength(1);
    expect(b.text).toBe(a.text);
    expect(b.meta.hop?.status).toBe("cached");
    // Another shaper over one store finds it there.
    const store = createMemoryStore();
    const t = scripted(() => "kept in the store");
    await shape(log(), { maxTokens: 500, store, summarize: t.summarize });
    const again = await shape(log(), { maxTokens: 500, store, summarize: t.summarize });
    expect(t.seen).toHaveLength(1);
    expect(again.meta.hop?.status).toBe("cached");
    expect(again.text).toContain("kept in the store");
    // Negative control: another result is asked for.
    await shaper(log(4000));
    expect(s.seen).toHaveLength(2);
  });

  for (const [name, summarize, status] of [
    ["throws", async () => Promise.reject(new Error("model down")), "failed"],
    ["answers a non-string", async () => ({ text: "x" }) as unknown as string, "failed"],
    ["answers only blanks", async () => " \n\t\n", "empty"],
    ["never answers", () => new Promise<string>(() => undefined), "timeout"],
  ] as const) {
    it(`a summariser that ${name} is dropped; the result is as without it`, async () => {
      const plain = await shape(log(), { maxTokens: 500 });
      const at = Date.now();
      const shaped = await shape(log(), {
        maxTokens: 500,
        summarize: summarize as never,
        summaryTimeoutMs: 200,
      });
      expect(Date.now() - at).toBeLessThan(10_000);
      expect(shaped.meta.hop?.status).toBe(status);
      expect(shaped.text).toBe(plain.text);
    });
  }

  it("is aborted with the host's signal, and told so", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const pending = shape(log(), {
      maxTokens: 500,
      abortSignal: controller.signal,
      summarize: (input) => {
        signal = input.signal;
        setTimeout(() => controller.abort(), 20);
        return new Promise<string>(() => undefined);
      },
    });
    const shaped = await pending;
    expect(shaped.meta.hop?.status).toBe("aborted");
    expect(signal?.aborted).toBe(true);
  });

  it("an answer that would cost the text its evidence is left out", async () => {
    // The budget holds the error line and little else: a long answer would push it out.
    const s = scripted(() => "word ".repeat(400));
    const shaped = await shape(log(), {
      maxTokens: 200,
      maxSummaryTokens: 190,
      summarize: s.summarize,
    });
    expect(s.seen).toHaveLength(1);
    expect(shaped.meta.hop?.status).toBe("no-room");
    expect(shaped.text).toContain("ERROR payments charge failed");
    expect(shaped.text).not.toMatch(LABEL);
  });

  it("a round asks once per cut result, at its final share, within the round's ceiling", async () => {
    const s = scripted(() => "a round's summary");
    const results = await shapeRound([{ input: log() }, { input: log(5000) }, { input: "ok" }], {
      maxRoundTokens: 900,
      summarize: s.summarize,
    });
    expect(s.seen).toHaveLength(2);
    let total = 0;
    for (const r of results) total += await o200kCount(r.text);
    expect(total).toBeLessThanOrEqual(900);
    expect(results[2]?.meta.hop).toBeUndefined();
  });

  it("negative controls: a result that fits asks nothing; without summarize no model's words", async () => {
    const s = scripted(() => "never");
    const small = await shape("all good", { summarize: s.summarize });
    expect(s.seen).toHaveLength(0);
    expect(small.meta.hop).toBeUndefined();
    const plain = await shape(log(), { maxTokens: 500 });
    expect(plain.text).not.toMatch(LABEL);
    expect(plain.meta.hop).toBeUndefined();
  });

  it("refuses a bad maxSummaryTokens or summaryTimeoutMs", () => {
    for (const options of [
      { maxSummaryTokens: 0 },
      { maxSummaryTokens: 1.5 },
      { summaryTimeoutMs: -1 },
      { summaryTimeoutMs: 2 ** 31 },
    ])
      expect(() => createShaper(options as never)).toThrow(/maxSummaryTokens|summaryTimeoutMs/);
  });
});
