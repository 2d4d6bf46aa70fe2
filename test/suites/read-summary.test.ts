/**
 * read_result's summary of a stored text result (issue 29): `{summary: true}` gives every severe
 * message with its exact count, lines and times, each with an id; `{template: id}` pages that
 * message's lines, every one exactly once and nothing else. The log is built here with the
 * lines of each message known (each line ends `seq=<its number>`), so pages are checked against
 * the input, not against the code under test. A line whose secret was redacted, or was
 * redacted only where it was stored (an echo of a secret found elsewhere), is found by its
 * message's id; a long line is keyed as the decoder cut it when it was stored. Negative
 * controls: a wrong id gives no line; a pager that skips a line breaks the coverage check; a
 * store that loses the stored line cap loses the long lines.
 */
import { describe, expect, it } from "vitest";
import {
  createMemoryStore,
  createResultReader,
  type ResultStore,
  type Shaped,
  type ShapeSummary,
  shape,
} from "../../src/index.js";
import { isNumbered, markersIn, parseMarker, toolLines } from "../helpers/markers.js";
import { follow, prng, QUARTER } from "../helpers/read-back.js";
import { PROVIDERS } from "../helpers/wrapped.js";

const LINES = 6000;

const stamp = (i: number) =>
  `2026-12-06T${String(8 + Math.floor(i / 3600)).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;

interface Planted {
  readonly words: string;
  readonly severity: "fatal" | "error";
  readonly source: string;
  readonly lines: number[];
}

const SECRET = "s3cr3tP4ssw0rdXy";

/**
 * 6,000 lines; each planted message on its lines, with other numbers, hosts and pids each
 * time. The token message carries a different provider's token on each line (and on one, the
 * echo of a password a config line set earlier; on another, a word with a digit).
 */
function log(): { text: string; planted: Planted[] } {
  const lines = Array.from(
    { length: LINES },
    (_, i) =>
      `${stamp(i)} web-${i % 4} api[${100 + (i % 9)}]: GET /v1/items/${i} 200 ${i % 90}ms seq=${i + 1}`,
  );
  const planted: Planted[] = [
    { words: "out of memory", severity: "fatal", source: "supervisor", lines: [4321] },
    { words: "upstream timeout", severity: "error", source: "gateway", lines: [] },
    { words: "token rejected", severity: "error", source: "auth", lines: [1500, 3000, 4500, 5500] },
    { words: "ledger write failed", severity: "error", source: "ledger", lines: [900, 2500, 5100] },
  ];
  for (let k = 0; k < 40; k++) planted[1]?.lines.push(1000 + k * 97);
  const at = (n: number, text: string) => {
    lines[n - 1] = `${stamp(n - 1)} ${text} seq=${n}`;
  };
  at(4321, "web-1 supervisor[1]: FATAL out of memory, killing worker");
  for (const n of planted[1]?.lines ?? [])
    at(n, `gw-${n % 2} gateway[7]: ERROR upstream timeout after ${n}ms to payments`);
  const tokens = [PROVIDERS.github(1), PROVIDERS.stripe(2), SECRET, "zz9top"];
  planted[2]?.lines.forEach((n, k) => {
    at(n, `auth-1 auth[${n}]: ERROR token rejected for client: ${tokens[k]}`);
  });
  for (const n of planted[3]?.lines ?? [])
    at(
      n,
      `db-${n % 3} ledger[${n}]: ERROR ledger write failed: disk quota exceeded on /var/lib/${n}`,
    );
  // The password is set (and found by a rule) here; its echo above is redacted where stored.
  at(20, `web-0 config[1]: INFO loaded DB_PASSWORD=${SECRET}`);
  return { text: lines.join("\n"), planted };
}

/**
 * The input lines a page shows (each line's own `seq=`), in the order shown; in the numbered
 * layout a line shown under a number other than its own gives NaN.
 */
function seqsOf(text: string): number[] {
  const raw = text.split("\n");
  const numbered = isNumbered(text);
  const out: number[] = [];
  toolLines(text).forEach((line, i) => {
    const m = /seq=(\d+)$/.exec(line);
    if (m === null) return;
    const n = Number(m[1]);
    const number = /^(\d+)\t/.exec(raw[i] as string)?.[1];
    out.push(numbered && Number(number) !== n ? Number.NaN : n);
  });
  return out;
}

/** Every line of `expected` shown exactly once across the pages, and no other line. */
function covers(pages: readonly Shaped[], expected: readonly number[]): boolean {
  const seen = pages.flatMap((p) => seqsOf(p.text));
  const sorted = [...seen].sort((a, b) => a - b);
  return JSON.stringify(sorted) === JSON.stringify([...expected].sort((a, b) => a - b));
}

function symptomOf(summary: ShapeSummary | undefined, p: Planted) {
  return summary?.symptoms.find((s) => s.text.includes(p.words));
}

describe("read_result {summary: true}", () => {
  const store = createMemoryStore();
  const { text, planted } = log();
  let first: Shaped;
  let page: Shaped;

  it("lists every severe message with its exact count, lines, times and id", async () => {
    first = await shape(text, { store, maxTokens: 400, tool: "app_log" });
    expect(first.meta.handle).toBeDefined();
    const read = createResultReader({ store, maxTokens: 2000 });
    page = await read({ handle: first.meta.handle, summary: true });
    expect(page.status).toBe("ok");
    expect(page.meta.read?.op).toBe("summary");
    const summary = page.meta.summary;
    expect(summary?.symptoms).toHaveLength(planted.length);
    for (const p of planted) {
      const s = symptomOf(summary, p);
      const lo = Math.min(...p.lines);
      const hi = Math.max(...p.lines);
      expect(s, p.words).toMatchObject({
        severity: p.severity,
        count: p.lines.length,
        first: { line: lo, time: stamp(lo - 1) },
        last: { line: hi, time: stamp(hi - 1) },
      });
      expect(s?.id).toMatch(/^m[0-9a-f]{8}$/);
      // The first page's summary named it by the same id, with the same count.
      const before = symptomOf(first.meta.summary, p);
      expect(before?.id, p.words).toBe(s?.id);
      expect(before?.count).toBe(p.lines.length);
    }
    expect(new Set(summary?.symptoms.map((s) => s.id)).size).toBe(planted.length);
    expect(summary?.timeline).toEqual({
      first: { section: "text", line: 1, time: stamp(0) },
      last: { section: "text", line: LINES, time: stamp(LINES - 1) },
    });
  });

  it("says it in the text: header, span, sources, a line per message by weight, the closing call", async () => {
    const handle = first.meta.handle as string;
    const lines = toolLines(page.text).slice(1, -1);
    expect(lines[0]).toBe(
      `[airlock: read_result: the summary of ${handle}: 4 messages of fatal or error lines]`,
    );
    expect(lines[1]).toBe(`[airlock: lines 1-${LINES}, ${stamp(0)} to ${stamp(LINES - 1)}]`);
    expect(lines[2]).toBe("[airlock: sources: gateway 40, auth 4, ledger 3, supervisor 1]");
    // The most severe first, then the most frequent.
    const order = [planted[0], planted[1], planted[2], planted[3]] as Planted[];
    order.forEach((p, k) => {
      const lo = Math.min(...p.lines);
      const hi = Math.max(...p.lines);
      const where =
        p.lines.length === 1
          ? `1 line ${lo} \\(${stamp(lo - 1)}\\)`
          : `${p.lines.length} lines ${lo}-${hi} \\(${stamp(lo - 1)} to ${stamp(hi - 1)}\\)`;
      const id = symptomOf(page.meta.summary, p)?.id as string;
      expect(lines[3 + k], p.words).toMatch(
        new RegExp(`^${p.severity} ${where} ${id}: .*${p.words}`),
      );
    });
    const top = symptomOf(page.meta.summary, planted[0] as Planted)?.id;
    expect(lines[7]).toBe(
      `[airlock: every message listed; to read a message's lines call read_result {"handle":"${handle}","template":"${top}"} with its id]`,
    );
    expect(lines).toHaveLength(8);
    for (const inner of markersIn(page.text)) expect(parseMarker(inner), inner).toBeDefined();
  });

  it("lists as many messages as fit a small reader, and says how many it left out", async () => {
    const read = createResultReader({ store, maxTokens: 200 });
    const small = await read({ handle: first.meta.handle, summary: true });
    expect(small.status).toBe("partial");
    expect(small.meta.tokens).toBeLessThanOrEqual(200);
    // The whole summary is in meta whatever the text holds.
    expect(small.meta.summary?.symptoms).toHaveLength(4);
    const listed = toolLines(small.text).filter((l) => / m[0-9a-f]{8}: /.test(l));
    expect(listed.length).toBeLessThan(4);
    expect(small.text).toContain(`${4 - listed.length} of 4 messages not listed`);
  });

  it("pages a message's lines, every one exactly once and nothing else", async () => {
    const read = createResultReader({ store, maxTokens: 300, tokenizer: QUARTER });
    for (const p of planted) {
      const id = symptomOf(first.meta.summary, p)?.id;
      for (const pageSize of [3, 1000]) {
        const pages = await follow(read, { handle: first.meta.handle, template: id, pageSize }, 60);
        expect(covers(pages, p.lines), `${p.words} by ${pageSize}`).toBe(true);
        expect(pages.every((x) => x.meta.read?.op === "template")).toBe(true);
        if (p.lines.length > 3 && pageSize === 3) expect(pages.length).toBeGreaterThan(1);
        expect(pages.at(-1)?.text).toContain("no more lines match");
      }
    }
  });

  it("a pager that skips a line of the message breaks the coverage check (negative control)", async () => {
    const read = createResultReader({ store, maxTokens: 300, tokenizer: QUARTER });
    const p = planted[1] as Planted;
    const id = symptomOf(first.meta.summary, p)?.id;
    const pages: Shaped[] = [];
    let args: unknown = { handle: first.meta.handle, template: id, pageSize: 5 };
    while (args !== undefined && pages.length < 60) {
      const got = await read(args);
      pages.push(got);
      const next = got.meta.next?.args as { lines?: { from: number } } | undefined;
      // It reads on past the next line of the message instead of from where the page said.
      const skip = (from: number) => (p.lines.find((n) => n >= from) ?? from) + 1;
      args = next?.lines
        ? { ...next, lines: { ...next.lines, from: skip(next.lines.from) } }
        : next;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(covers(pages, p.lines)).toBe(false);
  });

  it("a wrong id gives no line", async () => {
    const read = createResultReader({ store, maxTokens: 600 });
    for (const template of ["m00000000", "mffffffff"]) {
      const none = await read({ handle: first.meta.handle, template });
      expect(none.status).not.toBe("error");
      expect(seqsOf(none.text)).toEqual([]);
      expect(none.text).toContain("no line matches");
      expect(none.meta.next).toBeUndefined();
    }
  });

  it("finds a line whose token was redacted, and the echo of a secret redacted only where stored", async () => {
    const read = createResultReader({ store, maxTokens: 2000 });
    const p = planted[2] as Planted;
    const id = symptomOf(first.meta.summary, p)?.id;
    const got = await read({ handle: first.meta.handle, template: id });
    expect(seqsOf(got.text)).toEqual(p.lines);
    const shown = toolLines(got.text).filter((l) => /seq=\d+$/.test(l));
    expect(shown.filter((l) => l.includes("[REDACTED:")).length).toBe(3);
    for (const secret of [PROVIDERS.github(1), PROVIDERS.stripe(2), SECRET])
      expect(got.text).not.toContain(secret);
    // Shaped without a store (the keeper saw the tokens before redaction), the message has the
    // same id and count: a secret with a digit keys as its placeholder does.
    const bare = await shape(text, { maxTokens: 400 });
    expect(symptomOf(bare.meta.summary, p)).toMatchObject({ id, count: p.lines.length });
  });
});

describe("read_result {summary, template} over command output and long lines", () => {
  it("names the streams: the fatal stderr line first, the span, a message's lines by section", async () => {
    const store = createMemoryStore();
    const stdout = Array.from({ length: 3000 }, (_, i) =>
      i % 500 === 99 ? `ERROR shard ${i} lost seq=${i + 1}` : `ok step ${i} seq=${i + 1}`,
    ).join("\n");
    const stderr = ["warming up seq=1", "FATAL cannot continue seq=2", "bye seq=3"].join("\n");
    // stderr is shown, and searched, first.
    const first = await shape({ stdout, stderr, exitCode: 1 }, { store, maxTokens: 300 });
    const read = createResultReader({ store, maxTokens: 1000 });
    const page = await read({ handle: first.meta.handle, summary: true });
    const lines = toolLines(page.text);
    // The span runs from the first section's first line to the last's last, as meta's timeline.
    expect(lines).toContain("[airlock: stdout line 1 to stderr line 3]");
    const fatal = lines.find((l) => l.startsWith("fatal "));
    expect(fatal).toMatch(/^fatal 1 stderr line 2 m[0-9a-f]{8}: /);
    expect(lines).toContainEqual(
      expect.stringMatching(/^error 6 stdout lines 100-2600 m[0-9a-f]{8}: shard <\*> lost/),
    );
    const id = page.meta.summary?.symptoms.find((s) => s.section === "stdout")?.id;
    const pages = await follow(read, { handle: first.meta.handle, template: id, pageSize: 2 }, 20);
    expect(pages.flatMap((p) => seqsOf(p.text))).toEqual([100, 600, 1100, 1600, 2100, 2600]);
    expect(pages[1]?.meta.read?.section).toBe("stdout");
  });

  it("keys a line longer than the cap as it was cut when stored, at any reader's budget", async () => {
    const random = prng(3);
    const word = () =>
      Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join("");
    const head = "ERROR batch rejected: ".concat("manifest entry invalid ".repeat(14));
    const tail = " while validating the uploaded manifest of the batch".repeat(2);
    const long = [10, 700, 1400, 2100, 2800];
    const lines = Array.from({ length: 3000 }, (_, i) => {
      const n = i + 1;
      const body = long.includes(n)
        ? `${head}${Array.from({ length: 40 }, word).join(" ")}${tail}`
        : `INFO job ${n} done`;
      // The tail the decoder keeps is of a fixed length: the number is too.
      return `${stamp(i)} app[1]: ${body} seq=${String(n).padStart(5, "0")}`;
    });
    const store = createMemoryStore();
    // maxTokens 150: the decoder cut lines at 300 characters, keeping their head and tail.
    const first = await shape(lines.join("\n"), { store, maxTokens: 150 });
    const symptom = first.meta.summary?.symptoms.find((s) => s.text.includes("batch rejected"));
    expect(symptom?.count).toBe(long.length);
    const read = createResultReader({ store, maxTokens: 4000 });
    const got = await read({ handle: first.meta.handle, template: symptom?.id });
    expect(seqsOf(got.text)).toEqual(long);
    const summary = await read({ handle: first.meta.handle, summary: true });
    expect(summary.meta.summary?.symptoms.map((s) => [s.id, s.count])).toEqual([
      [symptom?.id, long.length],
    ]);
    // Negative control: a store that lost the cap the text was stored with keys whole lines.
    const forgetful: ResultStore = {
      put: (r) => store.put(r),
      putPart: (k, t) => store.putPart?.(k, t),
      getPart: (k) => store.getPart?.(k),
      async get(handle) {
        const r = await store.get(handle);
        if (r?.kind !== "text") return r;
        const { lineCap: _, ...info } = r.info;
        return { ...r, info };
      },
    };
    const lost = createResultReader({ store: forgetful, maxTokens: 4000 });
    const none = await lost({ handle: first.meta.handle, template: symptom?.id });
    expect(seqsOf(none.text)).toEqual([]);
  });

  it("says when a result has no severe line, and refuses a result larger than its step bound", async () => {
    const store = createMemoryStore();
    const quiet = Array.from({ length: 3000 }, (_, i) => `${stamp(i)} app[1]: INFO job ${i} done`);
    const first = await shape(quiet.join("\n"), { store, maxTokens: 200 });
    const read = createResultReader({ store, maxTokens: 600 });
    const page = await read({ handle: first.meta.handle, summary: true });
    expect(page.status).toBe("ok");
    expect(page.meta.summary).toBeUndefined();
    expect(toolLines(page.text).slice(1, -1)).toEqual([
      `[airlock: read_result: the summary of ${first.meta.handle}: no fatal, error or warning line]`,
      `[airlock: lines 1-3000]`,
    ]);
    // The summary is one pass over the whole text: a reader whose steps cannot hold it says so.
    const chars = quiet.join("\n").length;
    const bounded = createResultReader({ store, maxTokens: 600, maxSteps: chars - 1 });
    const refused = await bounded({ handle: first.meta.handle, summary: true });
    expect(refused.status).toBe("error");
    expect(refused.text).toContain(`the summary reads the whole result (${chars} characters)`);
    const roomy = createResultReader({ store, maxTokens: 600, maxSteps: chars });
    expect((await roomy({ handle: first.meta.handle, summary: true })).status).toBe("ok");
  });

  it("refuses summary on records, naming what reads them", async () => {
    const store = createMemoryStore();
    const rows = Array.from({ length: 2000 }, (_, i) => ({
      id: i,
      level: i % 97 ? "info" : "error",
    }));
    const first = await shape(rows, { store, maxTokens: 300 });
    const read = createResultReader({ store, maxTokens: 600 });
    const page = await read({ handle: first.meta.handle, summary: true });
    expect(page.status).toBe("error");
    expect(page.meta.error?.code).toBe("tool/invalid-input");
    expect(page.text).toMatch(
      /summary: true reads the summary of a text result; this result is records/,
    );
  });
});
