import { shape } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineDecoder, type LineSink } from "../../src/decode/lines.js";
import { collapseCarriageReturns, foldLongRuns, MAX_RUN } from "../../src/decode/normalize.js";
import { completeLength, createUtf8Decoder } from "../../src/decode/utf8.js";
import { EVIDENCE_ANCHORS, LAYOUT_START, lineClassifier } from "../../src/keep/evidence.js";
import { createKeeper, type Kept } from "../../src/keep/keeper.js";
import { tokensOf } from "../../src/keep/signature.js";
import { bytesOf, split } from "../helpers/sources.js";

const limits = { headChars: 300, tailChars: 400, evidenceChars: 2000 };

function runKeeper(bytes: Uint8Array, chunk: number, eager: boolean): Kept {
  const keeper = createKeeper(limits);
  // Without skip/skippable/eager the decoder must hand over every line: the reference behaviour.
  // Both classify with the keeper's evidence hints (what keep says is evidence).
  const sink: LineSink = eager
    ? { line: (t, s, o) => keeper.line(t, s, o), hints: keeper.hints }
    : keeper;
  const decoder = createLineDecoder(sink, { lineCap: 256, tailWindow: limits.tailChars });
  for (const piece of split(bytes, chunk)) decoder.write(piece);
  decoder.end();
  return keeper.finish();
}

const logLine = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.integer({ min: 0, max: 99999 }).map((n) => `2026-11-30 INFO request ${n} ok`),
  },
  { weight: 3, arbitrary: fc.constant("2026-11-30 INFO heartbeat") },
  { weight: 1, arbitrary: fc.integer().map((n) => `2026-11-30 ERROR job ${n} failed`) },
  { weight: 1, arbitrary: fc.constant("    at worker (index.js:1:1)") },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

describe("decode: skipping lines that cannot be kept changes nothing that is kept", () => {
  it("same counts, same evidence, same tail as the eager reference", () => {
    fc.assert(
      fc.property(
        fc.array(logLine, { minLength: 1, maxLength: 3000 }),
        fc.integer({ min: 7, max: 5000 }),
        (lines, chunk) => {
          const text = lines.join("\n");
          const bytes = bytesOf(text);
          const fast = runKeeper(bytes, chunk, false);
          const ref = runKeeper(bytes, chunk, true);
          expect(fast.lines).toBe(ref.lines);
          // Independent count: a trailing newline ends the last line rather than starting one.
          const expected =
            text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
          expect(fast.lines).toBe(expected);
          expect(fast.evidenceLines).toBe(ref.evidenceLines);
          const tail = (k: Kept) => k.tail.map((u) => [u.index, u.text, u.repeat]);
          expect(tail(fast).slice(-5)).toEqual(tail(ref).slice(-5));
          const cores = (k: Kept) =>
            k.groups.flatMap((g) =>
              g.units.filter((u) => u.severity >= 2).map((u) => [u.index, u.text]),
            );
          expect(cores(fast)).toEqual(cores(ref));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("decode: evidence anchors cover the classifier", () => {
  // Hand-written, one or more per pattern family, in the shapes tools print them.
  const evidence = [
    "FATAL: x",
    "fatal error: y",
    "Fatal: z",
    "PANIC",
    "thread 'main' panicked at",
    "panic: boom",
    "Traceback (most recent call last):",
    "Segmentation fault (core dumped)",
    "segfault at 0",
    "Killed process (OOMKilled)",
    "oom-kill:constraint",
    "OOM killer invoked",
    "Out of memory",
    "java.lang.OutOfMemoryError",
    "UnhandledPromiseRejection",
    "Unhandled exception",
    "Uncaught TypeError",
    "CRITICAL disk",
    "EMERGENCY",
    "ERROR x",
    "Error: y",
    "error: z",
    "error[E0308]: types",
    "ValueError: bad",
    "NullPointerException",
    "an exception occurred",
    "FAILED test",
    "FAIL src/a",
    "test failed",
    "Failure: 1",
    "3 fails",
    "Caused by: IOException",
    "npm ERR! code 1",
    "non-zero exit status 2",
    "exited with code 3",
    "exit status 1",
    'HTTP/1.1" 502 0',
    "502 Bad Gateway",
    "Service Unavailable",
    "Gateway Timeout",
    "✗ test",
    "✖ lint",
    "❌ build",
    "Aborted",
    "Killed",
    "WARN x",
    "WARNING y",
    "warning: z",
    "Warning: w",
    "deprecated API",
    "DEPRECATED",
    "Deprecation",
    "timed out",
    "Timed out",
    "TIMEOUT",
    "connect timeout after 30s",
    "Permission denied",
    "Connection refused",
    "aborting build",
    "3 errors",
    "warn: low disk",
    "[Sun Dec 04 04:47:44 2005] [crit] child 6725 exited",
    "[alert] server reached MaxClients",
    "Jun 14 15:16:01 combo kernel: alert: CPU0 temperature above threshold",
    "2026-01-01 12:00:00,123 SEVERE [main] pool exhausted",
    "SEVERE: connection lost",
    "level=crit msg=x",
    "err=-12785 on read",
  ];
  /** Levels found only by their place near the line start (a layout's anchor finds them). */
  const layouts = [
    "<3>[  12.3] usb 1-1: device descriptor read error",
    "<11>Jan  1 12:00:00 host app: disk full",
    "E0612 12:00:00.000000  1234 main.cc:12] check failed",
    "E/ActivityManager( 1234): ANR in com.example",
    "01-01 12:00:00.000  1234  5678 F libc    : Fatal signal 11",
    "01-01 12:00:00.000  1234  5678 W Binder  : slow transaction",
  ];
  const plain = [
    "Tests: 0 failed, 12 passed",
    "see details in the report",
    "email sent to admin",
    "filled 12 orders",
    "no errors found",
    "INFO ok",
    "exit 0",
    "",
    "Alert the user when the queue is full",
    "a critical section is entered",
    "non-fatal: retrying",
    "0 errors",
    "<134>1 2003-10-11T22:14:15.003Z host app - - started",
    "I0612 12:00:00.000000  1234 main.cc:12] listening",
    "2026-01-01 12:00:00 INFO the alert module loaded",
    // Lower-case forms no anchor finds are not levels either (the prefilter would miss them).
    "[err] x",
    "level=severe x",
    "2026-01-01 12:00 Severe y",
  ];

  it("every hand-written evidence sample is evidence, and contains an anchor", () => {
    const classify = lineClassifier();
    for (const line of evidence) {
      expect(classify(line), line).toBeGreaterThan(0);
      expect(
        EVIDENCE_ANCHORS.some((a) => line.includes(a)),
        line,
      ).toBe(true);
    }
    for (const line of plain) expect(classify(line), line).toBe(0);
    for (const line of layouts) {
      expect(classify(line), line).toBeGreaterThan(0);
      expect(LAYOUT_START.test(line), line).toBe(true);
    }
  });

  /**
   * Any line the classifier flags contains an anchor, or starts like a level layout (whose
   * anchors the scanner adds for a log of that layout): the prefilter never hides evidence.
   */
  const covered = (anchors: readonly string[]) =>
    fc.property(
      fc.array(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...evidence, ...layouts)), {
        maxLength: 4,
      }),
      (parts) => {
        const line = parts.join(" ");
        return (
          lineClassifier()(line) === 0 ||
          anchors.some((a) => line.includes(a)) ||
          LAYOUT_START.test(line)
        );
      },
    );

  it("every line the classifier flags contains an anchor", () => {
    fc.assert(covered(EVIDENCE_ANCHORS), { numRuns: 3000, seed: 1130 });
  });

  it("negative control: the same property fails for an anchor list missing one fragment", () => {
    const weaker = EVIDENCE_ANCHORS.filter((a) => a !== "rror");
    expect(fc.check(covered(weaker), { numRuns: 3000, seed: 1130 }).failed).toBe(true);
  });
});

describe("decode: UTF-8 chunking", () => {
  it("matches a one-shot decode for any chunking, including invalid bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 17 }),
        (bytes, size) => {
          let out = "";
          const d = createUtf8Decoder((t) => {
            out += t;
          });
          for (const piece of split(bytes, size)) d.write(piece);
          d.end();
          expect(out).toBe(new TextDecoder().decode(bytes));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("completeLength never cuts a sequence", () => {
    const euro = bytesOf("€");
    expect(completeLength(euro)).toBe(3);
    expect(completeLength(euro.subarray(0, 2))).toBe(0);
    expect(completeLength(bytesOf("a€").subarray(0, 3))).toBe(1);
  });
});

describe("decode: linear-time normalisers on pathological inputs", () => {
  // A quadratic regex would take minutes on these; the test timeout is the bound.
  const MB = 1 << 20;
  const inputs: Array<[string, string]> = [
    ["a megabyte of one letter", "a".repeat(MB)],
    ["a megabyte of brackets", "[".repeat(MB)],
    ["a megabyte of spaces", " ".repeat(MB)],
    ["alternating classes", "a[".repeat(MB / 2)],
    ["carriage returns", "x\r".repeat(MB / 2)],
    ["escape starts", "\x1b[".repeat(MB / 2)],
    ["unterminated OSC", `\x1b]${"x".repeat(MB)}`],
    ["near-miss keywords", "Erro Fai Exceptio WAR Panic ".repeat(MB / 28)],
    ["an anchor on every line", "detail failed\n".repeat(MB / 14)],
    ["a keyword in every word of one line", "Error ".repeat(MB / 6)],
    ["stack frames only", "    at f (x.js:1:1)\n".repeat(MB / 20)],
    ["blank lines", "\r\n".repeat(MB / 2)],
    ["spaces before a keyword", `${" ".repeat(MB)}Caused by: x`],
    ["numeric tokens before a level letter", `${"1 ".repeat(MB / 2)}E x`],
    ["one long token before a digit and a letter", `${"a".repeat(MB)}1 2 E x`],
    ["level-like words in every token", "ERROR: [crit] level=alert ".repeat(MB / 26)],
  ];
  for (const [title, input] of inputs) {
    // The bound is generous (a linear pass takes milliseconds); a quadratic one takes minutes.
    it(title, { timeout: 15_000 }, () => {
      const folded = foldLongRuns(input);
      expect(folded.text.length).toBeLessThan(input.length + 64);
      collapseCarriageReturns(input);
      lineClassifier()(input);
      LAYOUT_START.test(input);
      tokensOf(input);
      let n = 0;
      const decoder = createLineDecoder({ line: () => n++ }, { lineCap: 4096 });
      decoder.write(bytesOf(input));
      decoder.end();
      expect(n).toBeGreaterThan(0);
      // Also through the whole pipeline, with the skipping decoder and the fit stage.
      return shape(input, { maxTokens: 2000 }).then((shaped) => {
        expect(shaped.meta.tokens).toBeLessThanOrEqual(2000);
      });
    });
  }

  it("folds runs longer than MAX_RUN and keeps shorter ones", () => {
    expect(foldLongRuns("=".repeat(MAX_RUN)).folded).toBe(0);
    const long = foldLongRuns(`ok ${"=".repeat(MAX_RUN + 1)} ok`);
    expect(long.folded).toBe(MAX_RUN + 1 - 64);
    expect(long.text).toBe(`ok ${"=".repeat(64)}[airlock: ${MAX_RUN + 1 - 64} chars folded] ok`);
  });
});
