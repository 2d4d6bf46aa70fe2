/**
 * `meta.summary` (issue 29): a generated log whose severe lines are known (their messages,
 * counts, first and last lines and times, the component each names) is shaped at a budget
 * that cannot show them all; the summary must give every message with its exact count and the
 * true times, the input's span, the sources, and the messages no line of `text` shows. The
 * negative controls: a log without a severe line, and records, have no summary. A secret in a
 * severe line that is never shown must not reach `meta` through the summary.
 */
import { describe, expect, it } from "vitest";
import { redact, type ShapeSummary, shape } from "../../src/index.js";
import { toolLines } from "../helpers/markers.js";

const stamp = (i: number) =>
  `2026-12-06T${String(8 + Math.floor(i / 3600)).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;

interface Planted {
  readonly text: string;
  readonly lines: number[];
}

/** 6,000 lines; each planted message on its lines, with other numbers and pids each time. */
function log(): { text: string; planted: Planted[] } {
  const lines = Array.from(
    { length: 6000 },
    (_, i) => `${stamp(i)} web-${i % 4} api[${100 + (i % 9)}]: GET /v1/items/${i} 200 ${i % 90}ms`,
  );
  const planted: Planted[] = [
    { text: "ledger write failed: disk quota exceeded on <*>", lines: [900, 2500, 5100] },
    { text: "upstream timeout after <*> to payments", lines: [] },
    { text: "FATAL out of memory, killing worker", lines: [4321] },
  ];
  for (let k = 0; k < 40; k++) planted[1]?.lines.push(1000 + k * 97);
  for (const n of planted[0]?.lines ?? [])
    lines[n - 1] =
      `${stamp(n - 1)} db-${n % 3} ledger[${n}]: ERROR ledger write failed: disk quota exceeded on /var/lib/ledger/${n}`;
  for (const n of planted[1]?.lines ?? [])
    lines[n - 1] =
      `${stamp(n - 1)} gw-1 gateway[7]: ERROR upstream timeout after ${n}ms to payments`;
  lines[4320] = `${stamp(4320)} web-1 supervisor[1]: FATAL out of memory, killing worker`;
  return { text: lines.join("\n"), planted };
}

function symptom(summary: ShapeSummary | undefined, text: string) {
  return summary?.symptoms.find((s) => s.text.includes(text));
}

describe("meta.summary", () => {
  it("gives every severe message its exact count, first and last line, and their times", async () => {
    const { text, planted } = log();
    const shaped = await shape(text, { maxTokens: 300 });
    const summary = shaped.meta.summary;
    expect(summary).toBeDefined();
    for (const p of planted) {
      const words = p.text.replace(/ <\*>.*$/, "").replace(/^FATAL /, "");
      const s = symptom(summary, words);
      expect(s, p.text).toBeDefined();
      expect(s?.count).toBe(p.lines.length);
      const first = Math.min(...p.lines);
      const last = Math.max(...p.lines);
      expect(s?.first).toEqual({ line: first, time: stamp(first - 1) });
      expect(s?.last).toEqual({ line: last, time: stamp(last - 1) });
    }
    expect(symptom(summary, "ledger write failed")?.text).toBe(
      "ERROR ledger write failed: disk quota exceeded on <*>",
    );
    // Fatal first, then by first line.
    expect(summary?.symptoms[0]?.severity).toBe("fatal");
    expect(summary?.timeline).toEqual({
      first: { section: "text", line: 1, time: stamp(0) },
      last: { section: "text", line: 6000, time: stamp(5999) },
    });
    expect(summary?.sources).toEqual([
      { name: "gateway", count: 40 },
      { name: "ledger", count: 3 },
      { name: "supervisor", count: 1 },
    ]);
    // What no line of the text shows is open, with where its lines are.
    for (const [i, s] of (summary?.symptoms ?? []).entries()) {
      const open = summary?.open.find((o) => o.what === "unshown" && o.symptom === i);
      expect(open === undefined, s.text).toBe(s.shown > 0);
      if (open) expect(open.lines).toEqual({ from: s.first.line, to: s.last.line });
      if (s.shown > 0) expect(shaped.text).toContain(text.split("\n")[s.line - 1]);
    }
  });

  it("counts a repeated line once per repeat, and says when a stream was capped", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `${stamp(i)} INFO step ${i}`);
    for (let k = 0; k < 5; k++) lines[200 + k] = `${stamp(200)} ERROR db: connection refused`;
    const shaped = await shape(lines.join("\n"), { maxTokens: 200 });
    expect(symptom(shaped.meta.summary, "connection refused")).toMatchObject({
      count: 5,
      first: { line: 201 },
      last: { line: 205 },
    });
    const capped = await shape(lines.join("\n"), { maxTokens: 200, maxBytes: 16_000 });
    expect(capped.meta.summary?.open).toContainEqual({ what: "capped", section: "text" });
  });

  it("counts messages past the table, and lists symptoms by the budget", async () => {
    const lines = Array.from(
      { length: 1500 },
      (_, i) =>
        `${stamp(i)} ERROR failure ${i.toString(36).replace(/\d/g, "x")}${"q".repeat(i % 7)} happened`,
    );
    for (let k = 0; k < 200; k++) lines.push(lines[1400] as string);
    const shaped = await shape(lines.join("\n"), { maxTokens: 100 });
    const s = shaped.meta.summary;
    const distinct = new Set(lines.map((l) => l.slice(l.indexOf("ERROR")))).size;
    expect(s?.symptoms.length).toBe(16);
    expect((s?.symptoms.length ?? 0) + (s?.more ?? 0)).toBe(distinct);
    const wide = await shape(lines.join("\n"), { maxTokens: 4000 });
    expect(wide.meta.summary?.symptoms.length).toBe(128);
  });

  it("is absent without a severe line, and for records (negative controls)", async () => {
    const quiet = Array.from({ length: 3000 }, (_, i) => `${stamp(i)} INFO step ${i}`).join("\n");
    expect((await shape(quiet, { maxTokens: 200 })).meta.summary).toBeUndefined();
    const rows = JSON.stringify(Array.from({ length: 300 }, (_, i) => ({ id: i, error: "boom" })));
    expect((await shape(rows, { maxTokens: 200 })).meta.summary).toBeUndefined();
  });

  it("leaks no secret of a severe line through the summary", async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${stamp(i)} INFO api ok ${i}`);
    const secrets = [
      "AKIAIOSFODNN7EXAMPLE",
      "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "sk-proj-abcdefghijklmnopqrstuvwxyzABCDEF0123456789abcd",
    ];
    lines[1200] = `${stamp(1200)} ERROR auth[12]: login failed with key ${secrets.join(" and ")}`;
    lines[2200] = `${stamp(2200)} ERROR db[3]: Authorization: Bearer abcdefghijklmnopqrstuvwxyzABCDEFGHabcdefgh rejected`;
    const shaped = await shape(lines.join("\n"), { maxTokens: 120 });
    expect(shaped.meta.summary?.symptoms.length).toBe(2);
    const meta = JSON.stringify(shaped.meta);
    for (const secret of [...secrets, "abcdefghijklmnopqrstuvwxyzABCDEFGH"])
      expect(meta).not.toContain(secret.slice(4, 20));
  });
});

describe("the summary in the text: a severe message none of whose lines fits is named", () => {
  // Names without a digit (a word with one is a varying word, masked).
  const NAMES = Array.from(
    { length: 30 },
    (_, k) =>
      `step${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}`,
  );

  /** 8,000 quiet lines and 30 error messages, each on `5 + k` lines spread over the log. */
  function many(): { text: string; truth: Map<string, number[]> } {
    const lines = Array.from(
      { length: 8000 },
      (_, i) =>
        `${stamp(i)} web-${i % 4} api[${100 + (i % 9)}]: GET /v1/items/${i} 200 ${i % 90}ms`,
    );
    const truth = new Map<string, number[]>();
    const nouns = ["ledger", "cache", "queue", "socket", "index", "billing"];
    const taken = new Set<number>();
    for (let k = 0; k < 30; k++) {
      const what = `${nouns[k % 6]} ${NAMES[k]} failed`;
      const at: number[] = [];
      for (let j = 0; j < 5 + k; j++) {
        const n = 200 + ((k * 257 + j * 613) % 7700);
        if (taken.has(n)) continue;
        taken.add(n);
        lines[n - 1] = `${stamp(n - 1)} svc-${k} worker[${j}]: ERROR ${what}: code ${k * 100 + j}`;
        at.push(n);
      }
      truth.set(
        what,
        at.sort((a, b) => a - b),
      );
    }
    return { text: lines.join("\n"), truth };
  }

  it("with its exact count and span, never beside a line of its own, within the budget", async () => {
    const { text, truth } = many();
    const shaped = await shape(text, { maxTokens: 1000 });
    expect(shaped.meta.tokens).toBeLessThanOrEqual(1000);
    const mentions = [
      ...shaped.text.matchAll(
        /^\[airlock: (\d+) error lines? not shown, lines? (\d+)(?:-(\d+))?: ERROR (.+?): code \*\]$/gm,
      ),
    ];
    expect(mentions.length).toBeGreaterThan(5);
    const lines = toolLines(shaped.text).filter((l) => !l.startsWith("[airlock: "));
    for (const m of mentions) {
      const at = truth.get(m[4] as string);
      expect(at, m[0]).toBeDefined();
      expect(Number(m[1]), m[0]).toBe(at?.length);
      expect(Number(m[2]), m[0]).toBe(at?.[0]);
      expect(Number(m[3] ?? m[2]), m[0]).toBe(at?.at(-1));
      // None of its lines is shown.
      expect(lines.some((l) => l.includes(`ERROR ${m[4]}:`))).toBe(false);
    }
    // Negative control: a message with a shown line is not named.
    const shown = [...truth.keys()].filter((w) => lines.some((l) => l.includes(`ERROR ${w}:`)));
    expect(shown.length).toBeGreaterThan(0);
    for (const w of shown) expect(mentions.some((m) => m[4] === w)).toBe(false);
    // The names say nothing meta.summary does not: the same counts, as its open symptoms.
    for (const m of mentions) {
      const s = shaped.meta.summary?.symptoms.find((x) => x.text.includes(`${m[4]}:`));
      expect(s?.count, m[0]).toBe(Number(m[1]));
      expect(s?.shown, m[0]).toBe(0);
    }
  });

  it("a secret in an unshown message is named redacted", async () => {
    const { text } = many();
    // Every error line carries a credential: whatever is named, its message held one. (Of
    // letters only: a word with a digit or a `=` is a varying word, and names mask it.)
    const secret = "correcthorsebatterystaple";
    const leaky = text.replaceAll(": code ", `: Authorization: Bearer ${secret} code `);
    expect(redact(leaky).text).not.toContain(secret);
    const shaped = await shape(leaky, { maxTokens: 1000 });
    const named = shaped.text.split("\n").filter((l) => l.includes(" not shown, "));
    expect(named.length).toBeGreaterThan(5);
    for (const line of named) expect(line).toMatch(/Bearer \(REDACTED:\w+\) code \*\]$/);
    expect(shaped.text).not.toContain(secret);
    // Negative control: with redaction off, the names carry it.
    const raw = await shape(leaky, { maxTokens: 1000, redact: false });
    expect(raw.text.split("\n").some((l) => l.includes(" not shown, ") && l.includes(secret))).toBe(
      true,
    );
  });
});
