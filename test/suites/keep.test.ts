import { shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { toolLines } from "../helpers/markers.js";
import { bytesOf, chunkedStream, gaps, serviceLog, split } from "../helpers/sources.js";

const plain = { untrusted: false } as const;

describe("keep: evidence by value, not by position", () => {
  it("an error line at the exact middle of a multi-megabyte log survives a 1,000-token budget", async () => {
    const total = 40_001;
    const middle = 20_001;
    const error =
      "2026-11-30T10:33:20.001Z ERROR payment-service: charge failed: card_declined (req 7f3a)";
    const log = serviceLog(total, new Map([[middle, error]]));
    expect(log.length).toBeGreaterThan(2_500_000);
    // Cut into awkward chunks so the error line straddles a chunk edge somewhere.
    const shaped = await shape(chunkedStream(split(bytesOf(log), 65_537)).stream, {
      ...plain,
      maxTokens: 1000,
    });
    const lines = toolLines(shaped.text);
    const at = lines.indexOf(error);
    expect(at).toBeGreaterThan(0);
    // Its line number is exact: the marker before the kept run ends just before it.
    const before = gaps(lines.slice(0, at).join("\n")).at(-1);
    const run = lines
      .slice(0, at)
      .reverse()
      .findIndex((l) => l.startsWith("[airlock:"));
    expect(before).toBeDefined();
    expect((before?.to ?? 0) + run + 1).toBe(middle);
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(1);
    expect(shaped.meta.sections[0]?.keptEvidenceLines).toBe(1);
    expect(shaped.meta.tokens).toBeLessThanOrEqual(1000);
    expect(shaped.status).toBe("partial");
    // Kept by value: there are omitted lines both before and after it.
    const after = gaps(lines.slice(at).join("\n"))[0];
    expect(before?.to ?? 0).toBeLessThan(middle);
    expect(after?.from ?? 0).toBeGreaterThan(middle);
  });

  it("a position-only cut of the same log would lose it (negative control)", async () => {
    const error = "2026-11-30T10:33:20.001Z ERROR payment-service: charge failed";
    const log = serviceLog(40_001, new Map([[20_001, error]]));
    const lines = log.split("\n");
    const headTail = [...lines.slice(0, 20), ...lines.slice(-20)].join("\n");
    expect(headTail).not.toContain(error);
  });

  it("keeps stack traces with their Caused by, in the order they occurred", async () => {
    const trace = [
      'Exception in thread "main" java.lang.IllegalStateException: pool exhausted',
      "\tat com.example.Pool.take(Pool.java:88)",
      "\tat com.example.Server.handle(Server.java:41)",
      "Caused by: java.net.SocketTimeoutException: connect timed out",
      "\tat java.net.Socket.connect(Socket.java:601)",
      "\t... 12 more",
    ];
    const overrides = new Map<number, string>();
    for (const [i, l] of trace.entries()) overrides.set(15_000 + i, l);
    overrides.set(25_000, "thread 'main' panicked at 'index out of bounds', src/main.rs:10:5");
    const shaped = await shape(serviceLog(30_000, overrides), { ...plain, maxTokens: 1200 });
    const text = shaped.text;
    for (const l of trace) expect(text).toContain(l);
    expect(text.indexOf(trace[0] as string)).toBeLessThan(text.indexOf("panicked at"));
    expect(text.indexOf(trace[3] as string)).toBeGreaterThan(text.indexOf(trace[0] as string));
  });

  it("with many errors, the first and the last are kept", async () => {
    const overrides = new Map<number, string>();
    for (let n = 1000; n <= 49_000; n += 1000) overrides.set(n, `ERROR job ${n} failed: timeout`);
    const shaped = await shape(serviceLog(50_000, overrides), { ...plain, maxTokens: 600 });
    expect(shaped.text).toContain("ERROR job 1000 failed");
    expect(shaped.text).toContain("ERROR job 49000 failed");
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(49);
    const kept = shaped.meta.sections[0]?.keptEvidenceLines ?? 0;
    expect(kept).toBeLessThan(49);
    expect(shaped.text).toContain(`, evidence ${kept} of 49;`);
  });

  it("recognises the common failure shapes", async () => {
    const samples = [
      "error[E0308]: mismatched types",
      "FAILED tests/test_api.py::test_create - AssertionError",
      "FAIL src/app.test.ts > renders",
      "npm ERR! code ELIFECYCLE",
      "Traceback (most recent call last):",
      "panic: runtime error: invalid memory address",
      "Segmentation fault (core dumped)",
      "fatal: not a git repository",
      "Process exited with code 137",
      "TypeError: Cannot read properties of undefined",
      '10.0.0.1 - - [30/Nov/2026:10:00:00 +0000] "GET /api HTTP/1.1" 503 0',
      "upstream returned 502 Bad Gateway",
      "kernel: app[4411]: segfault at 0 ip 00007f sp 00007ffc error 4",
      "kernel: Out of memory: Killed process 4411 (node)",
      "Memory cgroup out of memory: oom-kill:constraint=CONSTRAINT_MEMCG",
    ];
    for (const sample of samples) {
      const shaped = await shape(serviceLog(5000, new Map([[2500, sample]])), {
        ...plain,
        maxTokens: 300,
      });
      expect(shaped.text, sample).toContain(sample);
      expect(shaped.meta.sections[0]?.evidenceLines, sample).toBe(1);
    }
  });

  it("a new line shape that recurs is not a stand-out", async () => {
    const overrides = new Map<number, string>();
    for (const n of [8000, 9000, 10_000, 11_000, 12_000])
      overrides.set(n, `2026-11-30T10:20:00.000Z NOTICE cache resized to ${n}`);
    const shaped = await shape(serviceLog(20_000, overrides), { ...plain, maxTokens: 400 });
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(0);
  });

  it("a line that stands out of a repetitive log counts as evidence", async () => {
    const odd = "2026-11-30T10:20:00.000Z NOTICE config reloaded by admin";
    const shaped = await shape(serviceLog(20_000, new Map([[12_345, odd]])), {
      ...plain,
      maxTokens: 400,
    });
    expect(shaped.text).toContain(odd);
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(1);
  });

  it("ordinary lines are not evidence", async () => {
    const shaped = await shape(serviceLog(20_000), { ...plain, maxTokens: 400 });
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(0);
  });
});

describe("keep: normalisation", () => {
  it("folds repeated lines with an exact count", async () => {
    const text = `start\n${"same line\n".repeat(99_999)}end\n`;
    const shaped = await shape(text, { ...plain, maxTokens: 200 });
    expect(shaped.text).toBe(
      "start\nsame line\n[airlock: previous line repeated 99998 more times]\nend",
    );
    expect(shaped.meta.lines).toBe(100_001);
  });

  it("repeats that fit are returned verbatim, without a marker", async () => {
    const text = "a\nb\nb\nb\nc";
    const shaped = await shape(text, plain);
    expect(shaped.text).toBe(text);
  });

  it("removes ANSI colour and cursor sequences", async () => {
    const shaped = await shape(
      "\x1b[31mred\x1b[0m \x1b]8;;https://x.test\x07link\x1b]8;;\x07 \x1b[2Kdone",
      plain,
    );
    expect(shaped.text).toBe("red link done");
  });

  it("collapses carriage-return progress bars to their final state", async () => {
    const bar = `Downloading  10%\rDownloading  50%\rDownloading 100%\r\nnext line\r\n`;
    const shaped = await shape(bar, plain);
    expect(shaped.text).toBe("Downloading 100%\nnext line");
  });

  it("shortens a huge single line in the middle and says how much", async () => {
    const line = `START${"0123456789".repeat(500_000)}END`;
    const shaped = await shape(line, { ...plain, maxTokens: 500 });
    expect(shaped.text.startsWith("START")).toBe(true);
    expect(shaped.text.endsWith("END")).toBe(true);
    const omitted = /\[airlock: (\d+) chars omitted from this line\]/.exec(shaped.text);
    expect(omitted).not.toBeNull();
    const shown = shaped.text.replace(/\[airlock: [^\]]*\]/g, "").length;
    expect(shown + Number(omitted?.[1])).toBe(line.length);
    expect(shaped.meta.cuts.find((c) => c.kind === "chars")).toMatchObject({
      line: 1,
      count: Number(omitted?.[1]),
    });
    expect(shaped.meta.tokens).toBeLessThanOrEqual(500);
  });
});

describe("keep: adversarial shapes stay bounded", () => {
  it("a log where every line is an error keeps the first and the last", async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `ERROR request ${i + 1} failed`);
    const shaped = await shape(lines.join("\n"), { ...plain, maxTokens: 500 });
    expect(shaped.text).toContain("ERROR request 1 failed");
    expect(shaped.text).toContain("ERROR request 100000 failed");
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(100_000);
    expect(shaped.meta.tokens).toBeLessThanOrEqual(500);
  });

  it("a single 8 MB line full of keywords is shortened, not scanned quadratically", async () => {
    const line = "Panic Error FAILED ".repeat((8 * 1024 * 1024) / 19);
    const shaped = await shape(line, { ...plain, maxTokens: 300 });
    expect(shaped.meta.lines).toBe(1);
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(1);
    expect(shaped.text).toMatch(/chars omitted from this line/);
  });
});
