/**
 * The evidence engine: event templates mined as the stream passes (a bounded, Drain-like table),
 * severity read from line headers, and the ranking that shows one line of every severe and rare
 * template before a second of any, with exact counts of the rest.
 */
import { createMemoryStore, createResultReader, type Shaped, shape } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headerLevel, lineClassifier } from "../../src/keep/evidence.js";
import { signatureOf, tokensOf, WILD } from "../../src/keep/signature.js";
import { createTemplateTable } from "../../src/keep/templates.js";
import { toolLines } from "../helpers/markers.js";

const plain = { untrusted: false } as const;

describe("templates: the table", () => {
  it("lines that differ in numbers, ids and dates share a template; other events do not", () => {
    const table = createTemplateTable({ cap: 64 });
    const a = table.mine("Mon Nov 30 10:00:01 job 17 done in 3ms (req 7f3a9c)", 0, 1);
    const b = table.mine("Tue Dec 01 11:22:33 job 9001 done in 120ms (req 00ff12)", 0, 2);
    const c = table.mine("job 17 failed: disk full", 2, 3);
    const d = table.mine("cache resized to 512 entries", 0, 4);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(d).not.toBe(a);
    expect(a.count).toBe(2);
    expect([a.first, a.second, a.last]).toEqual([1, 2, 2]);
    expect(tokensOf("job 42 failed on Mon")).toEqual(["job", WILD, "failed", "on", WILD]);
  });

  it("a hex id of letters only is an id: its line is not a template of its own", () => {
    // One 8-digit hex id in about 2,600 has no digit; it made a "rare" event of an ordinary line.
    const table = createTemplateTable({ cap: 64 });
    const a = table.mine("GET /v1/cart req=360d5a3f status=200", 0, 1);
    const b = table.mine("GET /v1/cart req=cecebccc status=200", 0, 2);
    expect(b).toBe(a);
    const line = "GET /v1/cart req=cecebccc status=200";
    expect(signatureOf(line, 0, line.length, 0)).toBe(
      signatureOf("GET /v1/cart req=360d5a3f status=200", 0, 36, 0),
    );
    expect(tokensOf("GET /cart req=cecebccc ok")).toEqual(["GET", "/cart", WILD, "ok"]);
    // A word with a shorter run of those letters stays a word ("facade", "decade").
    expect(tokensOf("decade facade effaced")).toEqual(["decade", "facade", "effaced"]);
  });

  it("a syslog header's host is masked, the message's words are not, whatever the host holds", () => {
    // A host and a pid with digits were masked already: the header's end was looked for past
    // them, and a message word before a word ending in ":" was taken for the host.
    const numbered =
      "Jul  3 17:23:55 calvisitor-10-105-160-184 UserEventAgent[43]: assertion failed: 15G1510";
    const named = "Jul  6 00:30:35 authorMacBook-Pro UserEventAgent[43]: assertion failed: 15G1510";
    expect(tokensOf(numbered).slice(5, 7)).toEqual(["assertion", "failed:"]);
    expect(tokensOf(named).slice(3, 7)).toEqual([WILD, WILD, "assertion", "failed:"]);
    const table = createTemplateTable({ cap: 64 });
    const a = table.mine(numbered, 2, 1);
    expect(table.mine(named, 2, 2)).toBe(a);
    // Control: another message of the same process and shape is not the same event.
    const other = "Jul  6 00:31:35 authorMacBook-Pro UserEventAgent[43]: handler removed: 15G1510";
    expect(table.mine(other, 2, 3)).not.toBe(a);
    // A time ending in ":" is no tag: the host after it is still masked (helper-10).
    const at = (host: string) => tokensOf(`Jan  1 10:00:00: ${host} sshd: accepted publickey`);
    expect(at("alpha")).toEqual(at("bravo"));
    expect(at("alpha").slice(3, 5)).toEqual([WILD, "sshd:"]);
  });

  it("lines that differ in one word of many join, and that word becomes a wildcard", () => {
    const table = createTemplateTable({ cap: 64 });
    const a = table.mine("session opened for user alice by cron", 0, 1);
    const b = table.mine("session opened for user bob by cron", 0, 2);
    expect(b).toBe(a);
    expect(a.tokens.join(" ")).toBe(`session opened for user ${WILD} by cron`);
  });

  it("a line of another severity never joins a quiet template", () => {
    const table = createTemplateTable({ cap: 64 });
    const ok = table.mine("upload of part 3 finished: ok", 0, 1);
    const failed = table.mine("upload of part 4 finished: failed", 2, 2);
    expect(failed).not.toBe(ok);
  });

  it("holds at most its cap, counts what it let go, and lets quiet templates go first", () => {
    const table = createTemplateTable({ cap: 16 });
    table.mine("disk quota exceeded on volume alpha", 3, 1);
    const word = (i: number) =>
      Array.from({ length: 4 }, (_, k) => String.fromCharCode(97 + ((i >> (k * 4)) & 15))).join("");
    for (let i = 0; i < 100; i++) table.mine(`${word(i)} ${word(i * 7 + 3)} happened`, 0, i + 2);
    expect(table.created).toBe(101);
    expect(table.evicted).toBe(101 - 16);
    expect([...table.live()].length).toBe(16);
    expect([...table.live()].some((t) => t.severity === 3)).toBe(true);
  });

  it("a quiet line is counted without being built once its shape is known", () => {
    const table = createTemplateTable({ cap: 64 });
    const t = table.mine("GET /items/1 200 3ms", 0, 1);
    const text = "x\nGET /items/2 200 7ms\ny";
    expect(table.sight(text, 2, 21, 2, true)).toBe(t);
    expect(table.sight("never seen before", 0, 17, 3, true)).toBeUndefined();
    expect(t.count).toBe(2);
  });

  const numbered = fc
    .array(fc.constantFrom("alpha", "beta", "retry", "ok", "GET", "/v1/x"), {
      minLength: 1,
      maxLength: 8,
    })
    .chain((words) =>
      fc
        .tuple(
          fc.array(fc.nat(99_999), { minLength: words.length, maxLength: words.length }),
          fc.array(fc.nat(99_999), { minLength: words.length, maxLength: words.length }),
        )
        .map(([n1, n2]) => [
          words.map((w, i) => `${w}${n1[i]}`).join(" "),
          words.map((w, i) => `${w}${n2[i]}`).join(" "),
        ]),
    );

  it("the signature of a line does not depend on its numbers", () => {
    fc.assert(
      fc.property(numbered, ([a, b]) => {
        expect(signatureOf(a as string, 0, (a as string).length, 0)).toBe(
          signatureOf(b as string, 0, (b as string).length, 0),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("negative control: a signature of the raw characters does depend on them", () => {
    const raw = (s: string) => {
      let h = 0;
      for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
      return h;
    };
    const result = fc.check(
      fc.property(numbered, ([a, b]) => raw(a as string) === raw(b as string)),
      { numRuns: 300, seed: 7 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("templates: severity from the header", () => {
  const cases: ReadonlyArray<{ title: string; input: string; expected: number }> = [
    {
      title: "Apache's [error]",
      input: "[Sun Dec 04 04:47:44 2005] [error] mod_jk child in error state 6",
      expected: 2,
    },
    {
      title: "Apache's [crit]",
      input: "[Sun Dec 04 04:47:44 2005] [crit] (28)No space left on device",
      expected: 3,
    },
    {
      title: "Apache's [notice]",
      input: "[Sun Dec 04 04:47:44 2005] [notice] jk2_init() Found child 6725",
      expected: 0,
    },
    {
      title: "a level column after a timestamp",
      input: "2026-11-30 10:00:00,123 SEVERE [main] pool exhausted",
      expected: 2,
    },
    {
      title: "a level word after a component",
      input: "Jun 14 15:16:01 combo kernel: alert: CPU0 too hot",
      expected: 3,
    },
    {
      title: "an upper-case level after a component",
      input: "kernel: CRIT thermal shutdown",
      expected: 3,
    },
    {
      title: "logcat's letter column",
      input: "11-30 10:00:00.123  1234  5678 F libc    : Fatal signal 11",
      expected: 3,
    },
    {
      title: "logcat's warning letter",
      input: "11-30 10:00:00.123  1234  5678 W Binder  : slow call",
      expected: 1,
    },
    {
      title: "logcat's brief layout",
      input: "E/AndroidRuntime( 4411): FATAL EXCEPTION: main",
      expected: 2,
    },
    {
      title: "glog's letter",
      input: "E0612 12:00:00.000000  1234 main.cc:12] check failed",
      expected: 2,
    },
    {
      title: "a kernel priority",
      input: "<3>[  12.345678] usb 1-1: device descriptor read/64, -71",
      expected: 2,
    },
    {
      title: "a syslog priority of an error facility",
      input: "<11>Nov 30 10:00:00 host app: disk full",
      expected: 2,
    },
    {
      title: "an informational RFC 5424 priority",
      input: "<134>1 2026-11-30T10:00:00Z host app - - started",
      expected: 0,
    },
    {
      title: "logfmt's level",
      input: 'ts=2026-11-30T10:00:00Z level=crit msg="data dir not writable"',
      expected: 3,
    },
    {
      title: "an info level (the first level decides)",
      input: "2026-11-30 10:00:00 INFO the alert module loaded",
      expected: 0,
    },
  ];
  for (const c of cases) {
    it(c.title, () => {
      expect(Math.max(0, headerLevel(c.input))).toBe(c.expected);
      expect(lineClassifier()(c.input)).toBeGreaterThanOrEqual(c.expected);
    });
  }

  it("prose that starts with a level word is not a header", () => {
    for (const line of [
      "Alert the user when the queue is full",
      "a critical section",
      "Severe weather ahead",
    ]) {
      expect(headerLevel(line), line).toBe(-1);
      expect(lineClassifier()(line), line).toBe(0);
    }
  });
});

/** Lines of a log: `n` lines of a few quiet templates, numbered. */
function quietLines(n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) =>
      `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO ${
        i % 3 === 0 ? `GET /api/items/${i} 200 ${i % 90}ms` : `worker ${i % 8} heartbeat seq=${i}`
      }`,
  );
}

describe("templates: ranking by value", () => {
  it("one line of every severe template before a second of any, with exact counts of the rest", async () => {
    const lines = quietLines(6000);
    const severe = [
      (i: number) => `2026-11-30T11:00:00Z ERROR payment ${i} declined: insufficient funds`,
      (i: number) => `2026-11-30T11:00:00Z ERROR ledger write ${i} failed: deadlock detected`,
      (i: number) => `2026-11-30T11:00:00Z WARN queue depth ${i} above threshold`,
    ];
    const at = new Map<number, number>();
    for (let k = 0; k < 600; k++) {
      const line = 10 + k * 9 + (k % 3);
      lines[line] = (severe[k % 3] as (i: number) => string)(k);
      at.set(line + 1, k % 3);
    }
    const shaped = await shape(lines.join("\n"), { ...plain, maxTokens: 400 });
    const out = toolLines(shaped.text);
    for (const word of ["declined", "deadlock", "queue depth"]) {
      expect(
        out.some((l) => l.includes(word)),
        word,
      ).toBe(true);
    }
    // Every "more lines like" marker counts the lines of its template not shown, exactly.
    const shownLines = new Set(out);
    const markers = out.filter((l) => l.includes("more lines like line"));
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) {
      const [, more, like] = /(\d+) more lines like line (\d+)/.exec(m) as RegExpExecArray;
      const kind = at.get(Number(like));
      if (kind === undefined) continue;
      let shown = 0;
      for (const [line, k] of at)
        if (k === kind && shownLines.has(lines[line - 1] as string)) shown++;
      expect(Number(more), m).toBe(200 - shown);
    }
    expect(shaped.meta.tokens).toBeLessThanOrEqual(400);
  });

  it("the counts of a run's quiet lines are one marker, exact; a severe line keeps its own", async () => {
    const kinds = [
      (i: number) => `alpha cache warmed key=${i}`,
      (i: number) => `beta queue drained in ${i} ms`,
      (i: number) => `gamma session ${i} renewed for user u${i % 50}`,
      (i: number) => `delta heartbeat from node-${i % 9} seq=${i}`,
      (i: number) => `epsilon flushed ${i * 7} bytes to disk`,
    ];
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      (kinds[i % 5] as (i: number) => string)(i),
    );
    lines[12_345] = "ERROR ledger write 12345 failed: deadlock detected";
    for (let k = 1; k < 40; k++)
      lines[12_345 + k * 150] = `ERROR ledger write ${k} failed: deadlock detected`;
    const shaped = await shape(lines.join("\n"), { ...plain, maxTokens: 600 });
    const out = toolLines(shaped.text);
    const shown = new Set(out);
    const countOf = (kind: number) =>
      lines.filter((l, i) => i % 5 === kind && !l.startsWith("ERROR") && !shown.has(l)).length;
    const merged = out.filter((l) => / more lines like lines /.test(l));
    expect(merged.length).toBeGreaterThan(0);
    for (const m of merged) {
      // The span after the list is left out when it covers more than half the log.
      const [, more, likes] = /(\d+) more lines like lines ([\d, -]+?)(?:, lines? [\d-]+)?\]$/.exec(
        m,
      ) as RegExpExecArray;
      const listed = (likes as string).split(", ").flatMap((r) => {
        const [a, b] = r.split("-").map(Number) as [number, number?];
        return Array.from({ length: (b ?? a) - a + 1 }, (_, k) => a + k);
      });
      expect(listed.length).toBeGreaterThan(1);
      const kindsListed = new Set(listed.map((n) => (n - 1) % 5));
      let total = 0;
      for (const kind of kindsListed) total += countOf(kind);
      expect(Number(more), m).toBe(total);
    }
    // The error's count is its own marker, not folded into the quiet lines' one.
    const errorNote = out.find((l) => /more lines like line \d+[,\]]/.test(l));
    expect(errorNote).toBeDefined();
    const [, errors, like] = /(\d+) more lines like line (\d+)[,\]]/.exec(
      errorNote as string,
    ) as RegExpExecArray;
    expect(lines[Number(like) - 1]).toMatch(/^ERROR/);
    const errorsShown = lines.filter((l) => l.startsWith("ERROR") && shown.has(l)).length;
    expect(Number(errors)).toBe(40 - errorsShown);
    expect(shaped.meta.tokens).toBeLessThanOrEqual(600);
  });

  it("a passing test run keeps nothing from its middle: its scattered case lines are one template", async () => {
    const words = ["alpha", "bravo", "cache", "delta", "ember"];
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `  ✓ case ${i % 9}.${i % 97} handles input ${words[i % 5]} (${i % 40} ms)`,
    );
    lines.push("Test Suites: 42 passed, 42 total");
    const shaped = await shape(lines.join("\n"), { ...plain, maxTokens: 600 });
    const gaps = shaped.meta.cuts.filter((c) => c.kind === "lines");
    // One cut: the head and the tail are shown, nothing from between them.
    expect(gaps.length).toBe(1);
    // The one line that stands out is the summary, seen once.
    expect(shaped.meta.sections[0]?.evidenceLines).toBe(1);
    expect(shaped.text).toContain("Test Suites: 42 passed, 42 total");
  });

  it("meta.evidence says where the severe lines left out are", async () => {
    const lines = quietLines(3000);
    for (let k = 0; k < 40; k++)
      lines[100 + k * 70] = `2026-11-30T11:00:00Z ERROR job ${k} failed: timeout`;
    const shaped = await shape(lines.join("\n"), { ...plain, maxTokens: 300 });
    const evidence = shaped.meta.evidence;
    expect(evidence?.severe.templates).toBe(1);
    expect(evidence?.severe.shown).toBe(1);
    const cut = evidence?.cut.find((c) => c.severity === 2);
    expect(cut?.count).toBe(40);
    expect(cut?.first).toBe(101);
    expect(cut?.last).toBe(101 + 39 * 70);
    expect(cut?.template).toContain("ERROR job <*> failed: timeout");
    const out = toolLines(shaped.text);
    expect(cut?.shown).toBe(out.filter((l) => l.includes(" ERROR job ")).length);
    expect(cut?.lines.length).toBeGreaterThan(0);
    for (const line of cut?.lines ?? []) {
      expect(lines[line - 1]).toContain("ERROR job");
      expect(out).not.toContain(lines[line - 1]);
    }
  });
});

/** The records of an envelope's `data:`. */
function data(shaped: Shaped): Array<{ id: number }> {
  const lines = toolLines(shaped.text);
  const body = lines.slice(1, -1).join("\n");
  const start = body.indexOf("\ndata: ");
  const rest = body.slice(start + 7);
  const end = rest.search(/\n(?:omitted|next): /);
  return JSON.parse(end === -1 ? rest : rest.slice(0, end));
}

describe("templates: records", () => {
  const events = Array.from({ length: 900 }, (_, i) => ({
    id: i,
    level: i % 5 === 0 ? "error" : "info",
    msg:
      i === 451
        ? "scheduler paused by operator"
        : i % 5 === 0
          ? i === 700
            ? "Task timed out after 30000 ms"
            : `retry ${i} of upload failed`
          : `request ${i} served in ${i % 90} ms`,
  }));

  it("the evidence lane shows the first record of every template before a second of any", async () => {
    const shaped = await shape(events, { maxTokens: 500 });
    const shown = data(shaped).map((r) => r.id);
    expect(shown).toContain(700);
    expect(shown).toContain(451);
    expect(shaped.meta.records?.evidence).toBe(
      events.filter((e) => e.level === "error").length + 1,
    );
  });

  it("read_result pages the stored records in the same order: every record exactly once", async () => {
    const store = createMemoryStore();
    const options = { maxTokens: 500, store };
    const first = await shape(events, options);
    const seen = data(first).map((r) => r.id);
    const read = createResultReader(options);
    const handle = first.meta.records?.handle as string;
    let cursor = first.meta.records?.cursor;
    for (let pages = 0; cursor !== undefined && pages < 200; pages++) {
      const page = await read({ handle, cursor });
      seen.push(...data(page).map((r) => r.id));
      cursor = page.meta.records?.cursor;
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(events.map((e) => e.id));
    // The stand-out and the first of each error template come before the other errors.
    expect(seen.indexOf(700)).toBeLessThan(seen.indexOf(5 * 60));
    expect(seen.indexOf(451)).toBeLessThan(seen.indexOf(1));
  });
});
