/**
 * read_result's evidence search of text goes by level: every fatal line, then every error, then
 * every warning, each in line order, page after page, every line once. And a literal grep that
 * reads as a regex and matches nothing names the call that searches for the pattern. The log is
 * built here with each line's level known, so what a page shows is checked against the input.
 */
import { describe, expect, it } from "vitest";
import { createMemoryStore, createResultReader, type Shaped, shape } from "../../src/index.js";
import { follow, QUARTER, shownLines } from "../helpers/read-back.js";

const LINES = 50_000;
const WARNINGS = Array.from({ length: 13 }, (_, i) => 100 + i * 97);
const ERRORS = [20_346, 33_001];
const FATALS = [45_002];

/** `L<n> …` on every line; the planted lines carry their level's word. */
function log(): string {
  const out: string[] = [];
  const level = new Map<number, string>();
  for (const n of WARNINGS) level.set(n, "WARN cache nearly full");
  for (const n of ERRORS) level.set(n, "ERROR upstream reset: ECONNRESET");
  for (const n of FATALS) level.set(n, "FATAL worker crashed");
  for (let n = 1; n <= LINES; n++)
    out.push(`L${n} ${level.get(n) ?? `INFO request ${n % 977} served in ${n % 53} ms`}`);
  return out.join("\n");
}

describe("read_result: evidence by level", () => {
  const store = createMemoryStore();
  let first: Shaped;

  it("the first page holds the fatal line and the errors before any warning", async () => {
    first = await shape(log(), { store, maxTokens: 600, tool: "app_log" });
    expect(first.meta.handle).toBeDefined();
    const read = createResultReader({ store, maxTokens: 2000 });
    const page = await read({ handle: first.meta.handle, evidence: true, pageSize: 3 });
    expect(shownLines(page.text)).toEqual([...ERRORS, ...FATALS].sort((a, b) => a - b));
    expect(page.text).toContain("evidence lines, fatal first, then errors, then warnings");
    // What reads on is the error level from where it stopped (the warnings come after it).
    expect(page.meta.next?.args).toMatchObject({
      evidence: true,
      level: "error",
      lines: { from: 33_002 },
    });
  });

  it("pages through fatal, errors, warnings: every evidence line exactly once", async () => {
    const read = createResultReader({ store, maxTokens: 400, tokenizer: QUARTER });
    const pages = await follow(
      read,
      { handle: first.meta.handle, evidence: true, pageSize: 2 },
      50,
    );
    const seen = pages.map((p) => shownLines(p.text));
    // A page lays out what it holds by position; across pages no line is less severe than one
    // on a later page.
    const rank = (n: number) => (FATALS.includes(n) ? 3 : ERRORS.includes(n) ? 2 : 1);
    for (let i = 1; i < seen.length; i++) {
      const before = Math.min(...(seen[i - 1] as number[]).map(rank));
      expect(Math.max(...(seen[i] as number[]).map(rank), 0)).toBeLessThanOrEqual(before);
    }
    expect(seen[0]).toContain(FATALS[0]);
    expect(seen.flat().sort((a, b) => a - b)).toEqual(
      [...FATALS, ...ERRORS, ...WARNINGS].sort((a, b) => a - b),
    );
    expect(pages.at(-1)?.text).toContain("no more lines match");
  });

  it("reads on from a level the model names, and refuses one without evidence", async () => {
    const read = createResultReader({ store, maxTokens: 2000 });
    const warnings = await read({ handle: first.meta.handle, evidence: true, level: "warning" });
    expect(shownLines(warnings.text)).toEqual(WARNINGS);
    expect(warnings.text).toContain("evidence lines, warnings");
    const alone = await read({ handle: first.meta.handle, level: "error" });
    expect(alone.status).toBe("error");
    expect(alone.meta.error?.message).toContain("level");
    const wrong = await read({ handle: first.meta.handle, evidence: true, level: "info" });
    expect(wrong.status).toBe("error");
    expect(wrong.meta.error?.message).toContain('"fatal", "error" or "warning"');
  });

  it("goes level by level through stderr, then stdout", async () => {
    const stdout = ["ok 1", "WARN slow disk", "ERROR disk gone", "ok 2"].join("\n");
    const stderr = ["WARN retrying", "FATAL cannot continue"].join("\n");
    const cmd = await shape(
      { stdout: `${stdout}\n${"x".repeat(50)}\n`.repeat(200), stderr, exitCode: 1 },
      { store, maxTokens: 300, tool: "build" },
    );
    const read = createResultReader({ store, maxTokens: 400, tokenizer: QUARTER });
    const pages = await follow(read, { handle: cmd.meta.handle, evidence: true, pageSize: 50 }, 50);
    const text = pages.map((p) => p.text).join("\n");
    const order = ["FATAL cannot continue", "ERROR disk gone", "WARN retrying", "WARN slow disk"];
    const at = order.map((l) => text.indexOf(l));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});

describe("read_result: the evidence of a range or a section", () => {
  // 200 lines: a warning at 10, errors at 50 and 60, a fatal line at 100, an error at 150.
  const planted = new Map([
    [10, "WARN slow disk"],
    [50, "ERROR disk gone"],
    [60, "ERROR disk gone again"],
    [100, "FATAL cannot continue"],
    [150, "ERROR late"],
  ]);
  const text = Array.from(
    { length: 200 },
    (_, i) => `L${i + 1} ${planted.get(i + 1) ?? `INFO step ${i + 1} done`}`,
  ).join("\n");

  it("pages a range's evidence in line order, every line once, whatever the page size", async () => {
    const store = createMemoryStore();
    const first = await shape(text, { store, maxTokens: 100 });
    const read = createResultReader({ store, maxTokens: 2000 });
    for (const pageSize of [1, 2, 3]) {
      const pages = await follow(
        read,
        { handle: first.meta.handle, evidence: true, lines: { from: 1, to: 200 }, pageSize },
        50,
      );
      expect(pages.flatMap((p) => shownLines(p.text))).toEqual([10, 50, 60, 100, 150]);
    }
    const from = await read({ handle: first.meta.handle, evidence: true, lines: { from: 50 } });
    expect(shownLines(from.text)).toEqual([50, 60, 100, 150]);
    const refused = await read({
      handle: first.meta.handle,
      evidence: true,
      level: "error",
      lines: { from: 1, to: 20 },
    });
    expect(refused.status).toBe("error");
  });

  it("reads a section's evidence in line order", async () => {
    const store = createMemoryStore();
    const cmd = await shape(
      { stdout: text, stderr: "L1 WARN retrying\nL2 FATAL cannot start", exitCode: 1 },
      { store, maxTokens: 120, tool: "build" },
    );
    const read = createResultReader({ store, maxTokens: 2000 });
    const page = await read({ handle: cmd.meta.handle, evidence: true, section: "stdout" });
    expect(page.text).toContain("evidence lines, in line order");
    expect(page.text).not.toContain("FATAL cannot start");
    expect(shownLines(page.text)).toEqual([10, 50, 60, 100, 150]);
  });
});

describe("read_result: a literal grep that reads as a regex", () => {
  it("names the call that searches for the pattern when the literal matches nothing", async () => {
    const store = createMemoryStore();
    const first = await shape(log(), { store, maxTokens: 600 });
    const read = createResultReader({ store, maxTokens: 2000 });
    const literal = await read({ handle: first.meta.handle, grep: "ECONNRESET|FATAL" });
    expect(shownLines(literal.text)).toEqual([]);
    const call = `read_result {"handle":"${first.meta.handle}","grep":"/ECONNRESET|FATAL/i"}`;
    expect(literal.text).toContain(`no line matches the literal "ECONNRESET|FATAL"`);
    expect(literal.text).toContain(call);
    // The call it names finds the lines.
    const pattern = await read(JSON.parse(call.slice("read_result ".length)));
    expect(shownLines(pattern.text)).toEqual([...ERRORS, ...FATALS]);
    // A literal that is no pattern, and a regex, get no such hint.
    const plain = await read({ handle: first.meta.handle, grep: "no such words" });
    expect(plain.text).toContain("no line matches");
    expect(plain.text).not.toContain("as a pattern");
    const regex = await read({ handle: first.meta.handle, grep: "/ECONNREFUSED|PANIC/" });
    expect(regex.text).not.toContain("as a pattern");
    // A literal whose pattern form would not compile gets no hint that names a failing call.
    const broken = await read({ handle: first.meta.handle, grep: "nomatch|(" });
    expect(broken.text).toContain("no line matches");
    expect(broken.text).not.toContain("as a pattern");
    const bracket = await read({ handle: first.meta.handle, grep: "qq|[ab]" });
    expect(bracket.text).toContain(
      'no line matches the literal; to search for it as a pattern call read_result {"handle"',
    );
  });
});
