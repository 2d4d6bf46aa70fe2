/**
 * What hosts hand `shape()` in each runtime besides strings and streams: a `Request` (a Worker's
 * own), a `Blob` or `File` with its type, and a compiled shaper's per-call options. Runs in
 * Node, Chromium and workerd.
 */
import { compileShaper, createShaper, shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { serviceLog } from "../helpers/sources.js";

const plain = { untrusted: false } as const;

describe("host objects as inputs", () => {
  it("a Request with a JSON body is records, by its content type", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({
      id: i + 1,
      status: i === 137 ? "failed" : "ok",
    }));
    const request = new Request("https://example.test/hook", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(rows),
    });
    const shaped = await shape(request, { ...plain, maxTokens: 300 });
    expect(shaped.meta.kind).toBe("structured");
    expect(shaped.meta.records?.total).toBe(200);
    // The failed record is evidence: kept first, whatever the budget.
    expect(shaped.text).toContain('"id":138');
  });

  it("a Request with a text body is text; its body read once", async () => {
    const request = new Request("https://example.test/", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "first\nERROR second\nthird\n",
    });
    const shaped = await shape(request, plain);
    expect(shaped.meta.kind).toBe("text");
    expect(shaped.text).toContain("ERROR second");
    await expect(shape(request, plain)).rejects.toMatchObject({ code: "input/unsupported" });
  });

  it("a Request without a body is empty, not a JSON object of 0 keys", async () => {
    const shaped = await shape(new Request("https://example.test/"), plain);
    expect(shaped.status).toBe("empty");
    expect(shaped.meta.kind).toBe("text");
  });

  it("a Blob and a File say what they hold", async () => {
    const json = new Blob(['[{"level":"error","msg":"disk full"},{"level":"info","msg":"ok"}]'], {
      type: "application/json",
    });
    expect((await shape(json, plain)).meta.kind).toBe("structured");
    const html = new File(["<html><body><p>Hello <b>page</b></p></body></html>"], "page.html", {
      type: "text/html",
    });
    const page = await shape(html, plain);
    expect(page.meta.format).toBe("html");
    expect(page.text).toContain("Hello page");
    // CSV is never sniffed: only a type says it. The same bytes untyped stay text.
    const csv = "service,status\nweb,ok\ndb,failed\n";
    const file = await shape(new File([csv], "status.csv", { type: "text/csv" }), plain);
    expect(file.meta.format).toBe("csv");
    expect(file.meta.records?.total).toBe(2);
    expect((await shape(new Blob([csv]), plain)).meta.kind).toBe("text");
  });
});

describe("a compiled shaper's per-call options", () => {
  const log = serviceLog(4000, new Map([[2100, "ERROR payment service timed out after 30s"]]));

  it("maxTokens per call, higher and lower than the compiled one", async () => {
    const shapeLog = createShaper({ ...plain, maxTokens: 600 });
    const compiled = await shapeLog(log);
    const wider = await shapeLog(log, { maxTokens: 3000 });
    const narrower = await shapeLog(log, { maxTokens: 200 });
    expect(compiled.meta.maxTokens).toBe(600);
    expect(wider.meta.maxTokens).toBe(3000);
    expect(narrower.meta.maxTokens).toBe(200);
    expect(wider.meta.tokens).toBeLessThanOrEqual(3000);
    expect(wider.meta.tokens).toBeGreaterThan(compiled.meta.tokens as number);
    expect(narrower.meta.tokens).toBeLessThanOrEqual(200);
    for (const s of [compiled, wider, narrower])
      expect(s.text).toContain("ERROR payment service timed out");
    // A wider call keeps more lines, not the compiled budget's lines spread thinner.
    expect(wider.meta.sections[0]?.keptLines).toBeGreaterThan(
      (compiled.meta.sections[0]?.keptLines ?? 0) * 2,
    );
  });

  it("maxBytes and tool per call; the compiled ones stay for the next call", async () => {
    const shapeLog = createShaper({ maxTokens: 600, tool: "logs" });
    const capped = await shapeLog(log, { maxBytes: 1000, tool: "tail" });
    expect(capped.meta.sections[0]?.capped).toBe(true);
    expect(capped.meta.tool).toBe("tail");
    // A short result's fence names no source; the compiled tool's name is nowhere in it.
    expect(capped.text).not.toContain("tool:logs");
    const next = await shapeLog(log);
    expect(next.meta.sections[0]?.capped).toBe(false);
    expect(next.meta.tool).toBe("logs");
  });

  it("compileShaper: a result prepared for a call is finished within that call's budget", async () => {
    const shaper = compileShaper({ ...plain, maxTokens: 500 });
    const prepared = await shaper.prepare(log, { maxTokens: 2500 });
    const whole = await shaper.finish(prepared);
    expect(whole.meta.maxTokens).toBe(2500);
    expect(whole.meta.tokens).toBeGreaterThan(500);
    const share = await shaper.finish(prepared, 800);
    expect(share.meta.tokens).toBeLessThanOrEqual(800);
  });

  it("a misspelt or invalid call option is a programmer error", async () => {
    const shapeLog = createShaper();
    await expect(shapeLog("x", { maxToken: 10 } as never)).rejects.toMatchObject({
      code: "options/invalid",
      message: expect.stringContaining('did you mean "maxTokens"'),
    });
    await expect(shapeLog("x", { maxTokens: 3 })).rejects.toMatchObject({
      code: "options/invalid",
    });
    await expect(shapeLog("x", { tool: 7 } as never)).rejects.toMatchObject({
      code: "options/invalid",
    });
  });

  it("timeoutMs per call stops a stalled stream", async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("ERROR first line\n"));
      },
    });
    const shaped = await createShaper(plain)(stalled, { timeoutMs: 200 });
    expect(shaped.text).toContain("ERROR first line");
    expect(shaped.text).toContain("read stopped early (timeoutMs passed)");
  });
});
