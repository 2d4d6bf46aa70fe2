/**
 * read_result over big results, in every runtime: a 20 MB log, command output, a 2 MB web
 * page and 100,000 records are stored whole, named in the text, read back by every operation
 * and paged to the end, every line or record exactly once. What a page shows is checked
 * against the input (every log line names its number), never against the code under test.
 */

import { describe, expect, it } from "vitest";
import { unfence } from "../../src/fence/fence.js";
import {
  createMemoryStore,
  createResultReader,
  type ResultStore,
  type Shaped,
  type StoredText,
  shape,
} from "../../src/index.js";
import { toolLines } from "../helpers/markers.js";
import {
  dataOf,
  follow,
  numberedLog,
  QUARTER,
  range,
  shownLines,
  sorted,
} from "../helpers/read-back.js";
import { o200kCount } from "../helpers/sources.js";

const MB = 1 << 20;

function allShown(pages: readonly Shaped[]): number[] {
  return pages.flatMap((p) => shownLines(p.text));
}

describe("read_result: a 20 MB log", () => {
  const log = numberedLog(20 * MB);
  const store = createMemoryStore({ maxChars: 64 * MB });
  let first: Shaped;
  const handle = () => first.meta.handle as string;

  it("is stored whole in parts, and the first page names the handle and the call that reads on", async () => {
    first = await shape(log.text, { store, maxTokens: 2000, tool: "app_log" });
    expect(first.status).toBe("partial");
    expect(first.meta.handle).toMatch(/^res_[0-9a-f]{24}$/);
    expect(first.text).toContain(handle());
    const summary = toolLines(first.text).at(-2) as string;
    expect(summary).toMatch(
      new RegExp(
        `^\\[airlock: shown \\d+ of ${log.lines} lines(?: by number)?, evidence \\d+ of \\d+; to read omitted lines call read_result \\{"handle":"${handle()}","lines":\\{"from":\\d+,"to":\\d+\\}\\} \\(it also takes grep, around or evidence\\)\\]$`,
      ),
    );
    expect(await o200kCount(first.text)).toBeLessThanOrEqual(2000);
    // The hint reads from the first gap; meta names the same call.
    const gap = first.meta.cuts.find((c) => c.kind === "lines");
    expect(first.meta.next?.args).toEqual({
      handle: handle(),
      lines: {
        from: gap?.kind === "lines" ? gap.from : 0,
        to: (gap?.kind === "lines" ? gap.from : 0) + 199,
      },
    });
    const stored = (await store.get(handle())) as StoredText;
    expect(stored.kind).toBe("text");
    expect(stored.lines).toBe(log.lines);
    expect(stored.chars).toBe(log.text.length);
    expect(stored.parts.length).toBeGreaterThanOrEqual(20);
    expect(stored.parts.every((p) => p.chars <= MB && /^part_[0-9a-f]{32}$/.test(p.key))).toBe(
      true,
    );
    // The same log gets the same handle.
    const again = await shape(log.text, { store, maxTokens: 1000 });
    expect(again.meta.handle).toBe(handle());
  }, 120_000);

  it("reads a range, the context around a line, a grep, a regex and the evidence", async () => {
    const read = createResultReader({ store, maxTokens: 2000 });
    const lines = await read({ handle: handle(), lines: { from: 100_000, to: 100_010 } });
    expect(shownLines(lines.text)).toEqual(range(100_000, 100_010));
    expect(lines.text).toContain("[airlock: omitted lines 1-99999]\n");
    expect(lines.text).toContain(` of ${log.lines} lines`);
    expect(lines.meta.read).toMatchObject({
      kind: "text",
      op: "lines",
      from: 100_000,
      to: 100_010,
    });
    expect(await o200kCount(lines.text)).toBeLessThanOrEqual(2000);

    const around = await read({ handle: handle(), around: 150_000, pageSize: 11 });
    expect(shownLines(around.text)).toEqual(range(149_995, 150_005));

    const grep = await read({ handle: handle(), grep: "upstream TIMEOUT" });
    const hits = shownLines(grep.text);
    expect(hits.length).toBeGreaterThan(3);
    expect(hits).toEqual(log.errors.slice(0, hits.length));

    const regex = await read({ handle: handle(), grep: "/^L12345\\d /" });
    expect(shownLines(regex.text)).toEqual(range(123_450, 123_459));

    const evidence = await read({ handle: handle(), evidence: true });
    const found = shownLines(evidence.text);
    // Every error before any warning, each level in line order; the page lays them out by line.
    expect(found).toEqual(sorted([...log.errors, ...log.warnings].slice(0, found.length)));
    for (const page of [lines, around, grep, regex, evidence]) {
      expect(page.meta.tokens).toBeLessThanOrEqual(2000);
      // Fenced as tool text: one sound fence (a page over 1,024 characters names read_result).
      expect(unfence(page.text)).toBeDefined();
      if (page.text.length > 1100)
        expect(page.text).toMatch(/^<untrusted-data source="tool:read_result"/);
    }
  }, 120_000);

  it("pages through every line exactly once, and a grep through every error", async () => {
    const read = createResultReader({ store, maxTokens: 20_000, tokenizer: QUARTER });
    const pages = await follow(
      read,
      { handle: handle(), lines: { from: 1 }, pageSize: 1000 },
      400,
      (p) => {
        expect(p.meta.tokens).toBeLessThanOrEqual(20_000);
      },
    );
    expect(allShown(pages)).toEqual(range(1, log.lines));
    expect(pages.at(-1)?.text).toContain("that is the last line");
    const grep = await follow(read, { handle: handle(), grep: "upstream timeout" }, 400);
    expect(allShown(grep)).toEqual(log.errors);
    expect(grep.at(-1)?.text).toContain("no more lines match");
  }, 180_000);
});

describe("read_result: command output and a web page", () => {
  it("keeps stdout and stderr as two sections, read by section and searched stderr first", async () => {
    const store = createMemoryStore();
    const out = numberedLog(2 * MB, { errorEvery: 5000 });
    const err = numberedLog(40_000, { errorEvery: 50, seed: 9 });
    const first = await shape(
      { stdout: out.text, stderr: err.text, exitCode: 1 },
      { store, maxTokens: 1500 },
    );
    const handle = first.meta.handle as string;
    expect(first.text).toContain(handle);
    expect(first.meta.next?.args).toMatchObject({
      handle,
      section: expect.stringMatching(/^std(out|err)$/),
    });
    const stored = (await store.get(handle)) as StoredText;
    expect(stored.sections.map((s) => [s.name, s.lines]).sort()).toEqual([
      ["stderr", err.lines],
      ["stdout", out.lines],
    ]);
    const read = createResultReader({ store, maxTokens: 20_000, tokenizer: QUARTER });
    const errPage = await read({ handle, section: "stderr", lines: { from: 10, to: 20 } });
    expect(shownLines(errPage.text)).toEqual(range(10, 20));
    expect(errPage.text).toContain("[airlock: stderr]");
    // Without a section, a range reads the longest stream.
    const outPage = await read({ handle, lines: { from: 5, to: 6 } });
    expect(outPage.text).toContain("[airlock: stdout]");
    // A grep goes through stderr, then stdout: every error once, labelled by stream.
    const pages = await follow(read, { handle, grep: "upstream timeout", pageSize: 100 }, 200);
    const seen: string[] = [];
    for (const p of pages) {
      let stream = "";
      for (const line of toolLines(p.text)) {
        if (line === "[airlock: stderr]" || line === "[airlock: stdout]")
          stream = line.slice(10, -1);
        const m = /^L(\d+) /.exec(line);
        if (m) seen.push(`${stream}:${m[1]}`);
      }
    }
    expect(seen).toEqual([
      ...err.errors.map((n) => `stderr:${n}`),
      ...out.errors.map((n) => `stdout:${n}`),
    ]);
  }, 120_000);

  it("keeps a 2 MB page's text: every paragraph is read back exactly once", async () => {
    const store = createMemoryStore();
    const paragraphs = 20_000;
    const html = `<!doctype html><html><head><title>Release notes</title></head><body><article><h1>Release notes</h1>${Array.from(
      { length: paragraphs },
      (_, i) =>
        `<p>para-${String(i).padStart(5, "0")} The release adds <b>faster</b> paging and <a href="/x/${i}">links</a> to stored results.</p>`,
    ).join("")}</article></body></html>`;
    expect(html.length).toBeGreaterThan(2 * MB);
    const first = await shape(html, { store, contentType: "text/html", maxTokens: 1200 });
    const handle = first.meta.handle as string;
    expect(first.meta.format).toBe("html");
    expect(first.text).toContain(handle);
    const read = createResultReader({ store, maxTokens: 20_000, tokenizer: QUARTER });
    const pages = await follow(read, { handle, lines: { from: 1 } }, 400);
    const found = pages.flatMap((p) =>
      [...p.text.matchAll(/para-(\d{5})/g)].map((m) => Number(m[1])),
    );
    expect(found).toEqual(range(0, paragraphs - 1));
    const grep = await read({ handle, grep: "para-04321" });
    const lines = toolLines(grep.text).filter((l) => !l.startsWith("[airlock:"));
    expect(lines.filter((l) => l.includes("para-"))).toEqual([
      expect.stringMatching(/^para-04321 The release adds/),
    ]);
  }, 120_000);
});

describe("read_result: 100,000 records", () => {
  const count = 100_000;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: i,
    level: i % 499 === 7 ? "error" : "info",
    state: i % 3 === 0 ? "closed" : "open",
    n: i,
    tags: i % 1000 === 3 ? ["ui", "bug"] : ["ui"],
    msg: `request ${i} served`,
  }));
  const errorIds = rows.filter((r) => r.level === "error").map((r) => r.id);
  // Errors first (the first of each kind of error before the later ones), then the rest in order.
  const view = [...errorIds, ...rows.filter((r) => r.level !== "error").map((r) => r.id)];
  const store = createMemoryStore({ maxChars: 64 * MB });
  let handle = "";
  let storedView: number[] = [];

  it("stores them with the view, and the next line names the handle and the cursor", async () => {
    const first = await shape(rows, { store, maxTokens: 2000 });
    handle = first.meta.handle as string;
    expect(handle).toMatch(/^res_[0-9a-f]{24}$/);
    expect(first.meta.records?.handle).toBe(handle);
    expect(first.text).toContain(
      `next: call read_result with {"handle":"${handle}","cursor":"cur_`,
    );
    expect(first.meta.next?.args).toEqual({ handle, cursor: first.meta.records?.cursor });
    const stored = await store.get(handle);
    expect(stored?.kind).toBeUndefined();
    storedView = stored && "view" in stored ? [...(stored.view ?? [])] : [];
    expect(sorted(storedView.slice(0, errorIds.length))).toEqual(errorIds);
    expect(storedView.slice(errorIds.length)).toEqual(view.slice(errorIds.length));
    // Pages follow on from the first: every record exactly once, errors first.
    const read = createResultReader({ store, maxTokens: 20_000, tokenizer: QUARTER });
    const ids = (dataOf(first.text) as Array<{ id: number }>).map((r) => r.id);
    const pages = await follow(read, first.meta.next?.args, 1000, (p) => {
      expect(p.meta.tokens).toBeLessThanOrEqual(20_000);
      ids.push(...(dataOf(p.text) as Array<{ id: number }>).map((r) => r.id));
    });
    expect(pages.length).toBeLessThan(200);
    expect(sorted(ids)).toEqual(range(0, count - 1));
    // In the first page's order, which the stored view keeps.
    expect(ids).toEqual(storedView);
  }, 180_000);

  it("reads a range, fields, a filter (numeric strings, arrays) and the evidence, each paged to the end", async () => {
    const read = createResultReader({ store, maxTokens: 20_000, tokenizer: QUARTER });
    const at = await read({ handle, range: { from: 500, to: 510 }, fields: ["id"] });
    expect(dataOf(at.text)).toEqual(view.slice(499, 510).map((id) => ({ id })));
    const idsOf = async (args: Record<string, unknown>) => {
      const out: number[] = [];
      await follow(read, { handle, ...args }, 400, (p) => {
        out.push(...(dataOf(p.text) as Array<{ id: number }>).map((r) => r.id));
      });
      return out;
    };
    // "99000" is a number where the field is numeric.
    const closed = await idsOf({ where: { state: "closed", n: { gte: "99000" } }, fields: ["id"] });
    expect(sorted(closed)).toEqual(
      rows.filter((r) => r.state === "closed" && r.n >= 99_000).map((r) => r.id),
    );
    const bugs = await idsOf({ where: { tags: { contains: "BUG" } } });
    expect(sorted(bugs)).toEqual(rows.filter((r) => r.tags.includes("bug")).map((r) => r.id));
    const listForm = await idsOf({ where: [{ field: "tags", op: "contains", value: "bug" }] });
    expect(listForm).toEqual(bugs);
    const evidence = await idsOf({ evidence: true, pageSize: 50 });
    expect(sorted(evidence)).toEqual(errorIds);
    expect(evidence).toEqual(storedView.slice(0, errorIds.length));
    const small = await read({ handle, pageSize: 7 });
    expect(dataOf(small.text)).toHaveLength(7);
    expect(small.meta.next?.args).toMatchObject({ handle, pageSize: 7 });
  }, 180_000);
});

describe("read_result: where the handle is, and where it is not", () => {
  const big = numberedLog(200_000).text;
  it("names the handle in the text of every kind of result that was cut and stored", async () => {
    const store = createMemoryStore();
    const inputs: Array<[string, Parameters<typeof shape>[0], Parameters<typeof shape>[1]]> = [
      ["text", big, {}],
      ["command", { stdout: big, stderr: "", exitCode: 0 }, {}],
      [
        "html",
        `<html><body>${big
          .split("\n")
          .map((l) => `<p>${l}</p>`)
          .join("")}</body></html>`,
        { contentType: "text/html" },
      ],
      ["records", Array.from({ length: 2000 }, (_, i) => ({ i, msg: `row ${i}` })), {}],
      ["ndjson", Array.from({ length: 2000 }, (_, i) => JSON.stringify({ i })).join("\n"), {}],
    ];
    for (const [name, input, options] of inputs) {
      const shaped = await shape(input, { ...options, store, maxTokens: 600 });
      expect(shaped.meta.handle, name).toMatch(/^res_[0-9a-f]{24}$/);
      expect(shaped.text, name).toContain(`"handle":"${shaped.meta.handle}"`);
      expect(await o200kCount(shaped.text), name).toBeLessThanOrEqual(600);
    }
  }, 60_000);

  it("gives no handle without a store, and none for text with a store that keeps records only", async () => {
    const none = await shape(big, { maxTokens: 600 });
    expect(none.meta.handle).toBeUndefined();
    expect(none.text).not.toContain("read_result");
    const memory = createMemoryStore();
    const recordsOnly: ResultStore = { put: (r) => memory.put(r), get: (h) => memory.get(h) };
    const text = await shape(big, { maxTokens: 600, store: recordsOnly });
    expect(text.meta.handle).toBeUndefined();
    expect(text.text).not.toContain("read_result");
    const rows = await shape(
      Array.from({ length: 2000 }, (_, i) => ({ i })),
      { maxTokens: 600, store: recordsOnly },
    );
    expect(rows.meta.handle).toMatch(/^res_/);
  });

  it("a text too large for storeMaxChars is not stored, and says nothing of a handle", async () => {
    const store = createMemoryStore();
    const shaped = await shape(big, { maxTokens: 600, store, storeMaxChars: 50_000 });
    expect(shaped.meta.handle).toBeUndefined();
    expect(shaped.text).not.toContain("res_");
    expect(store.size).toBe(0);
  });
});
