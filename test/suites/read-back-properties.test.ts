/**
 * Properties of read_result, each with a negative control the property must catch: pages of
 * lines cover every line exactly once, a grep's pages every matching line, a filter's pages
 * every matching record, for random inputs, budgets and page sizes; the parts a text is cut
 * into read back line for line. And the store form: parts shared by content, expired or
 * evicted results as error pages, an asynchronous store (the form of KV and R2), and the zod
 * shape registered with the MCP SDK's own server and called through its own client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createMemoryStore,
  createResultReader,
  type ResultReader,
  type ResultStore,
  readResultZodShape,
  type StoredResult,
  shape,
  toMcp,
} from "../../src/index.js";
import { type PartCache, sectionsOf } from "../../src/store/text-source.js";
import { createTextWriter } from "../../src/store/text-writer.js";
import {
  dataOf,
  numberedLog,
  prng,
  QUARTER,
  range,
  shownLines,
  sorted,
} from "../helpers/read-back.js";

/** The colour codes the generator writes (the reader strips them, as the first page does). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Follows `meta.next`, letting `bend` change each call (a negative control bends it wrong). */
async function pages(
  read: ResultReader,
  args: unknown,
  max: number,
  bend: (next: Record<string, unknown>) => Record<string, unknown> = (n) => n,
): Promise<string[] | undefined> {
  const texts: string[] = [];
  let next = args as Record<string, unknown> | undefined;
  while (next !== undefined) {
    if (texts.length > max) return undefined;
    const page = await read(next);
    if (page.status === "error") return undefined;
    texts.push(page.text);
    const n = page.meta.next?.args as Record<string, unknown> | undefined;
    next = n === undefined ? undefined : bend(n);
  }
  return texts;
}

/** A log of `count` lines (`L<n> ` first), some long, some with colour codes or redraws. */
function randomLog(count: number, seed: number): string {
  const random = prng(seed);
  const words = ["alpha", "beta", "ERROR", "timeout", "ok", "gamma", "Warn", "cache"];
  const lines: string[] = [];
  for (let n = 1; n <= count; n++) {
    const r = random();
    const len = r < 0.02 ? 5000 + Math.floor(random() * 20_000) : Math.floor(random() * 20);
    let line = `L${n}`;
    for (let i = 0; i < len && line.length < 30_000; i++)
      line += ` ${words[Math.floor(random() * words.length)]}`;
    if (r > 0.97) line = `\x1b[31m${line}\x1b[0m`;
    lines.push(line);
  }
  return lines.join(random() < 0.5 ? "\n" : "\r\n");
}

const skipOne = (n: Record<string, unknown>) => {
  const lines = n.lines as { from: number; to?: number } | undefined;
  return lines ? { ...n, lines: { ...lines, from: lines.from + 1 } } : n;
};

describe("read_result properties", () => {
  const property = (bend?: (n: Record<string, unknown>) => Record<string, unknown>) =>
    fc.asyncProperty(
      fc.integer({ min: 1, max: 2500 }),
      fc.integer({ min: 200, max: 3000 }),
      fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
      fc.integer({ min: 1, max: 1e6 }),
      async (count, budget, pageSize, seed) => {
        const store = createMemoryStore();
        const log = randomLog(count, seed);
        const first = await shape(log, { store, maxTokens: 200, tokenizer: QUARTER });
        const handle = first.meta.handle;
        if (handle === undefined) return false;
        const read = createResultReader({ store, maxTokens: budget, tokenizer: QUARTER });
        const texts = await pages(
          read,
          { handle, lines: { from: 1 }, ...(pageSize ? { pageSize } : {}) },
          count + 2,
          bend,
        );
        if (texts === undefined) return false;
        for (const t of texts) if (QUARTER.count(t) > budget) return false;
        const seen = texts.flatMap((t) => shownLines(t.replace(ANSI, "")));
        return JSON.stringify(seen) === JSON.stringify(range(1, count));
      },
    );

  it("pages of lines cover every line exactly once, in order, within the budget", async () => {
    await fc.assert(property(), { numRuns: 40, seed: 16 });
  }, 120_000);

  it("negative control: a pager that starts each page one line late breaks the property", async () => {
    const result = await fc.check(property(skipOne), { numRuns: 40, seed: 16 });
    expect(result.failed).toBe(true);
  }, 120_000);

  const grepProperty = (bend?: (n: Record<string, unknown>) => Record<string, unknown>) =>
    fc.asyncProperty(
      fc.integer({ min: 1, max: 3000 }),
      fc.integer({ min: 200, max: 2000 }),
      fc.constantFrom("error", "/time(out)?\\b/i", "/^L\\d*7 /", "WARN ca"),
      fc.integer({ min: 1, max: 1e6 }),
      async (count, budget, grep, seed) => {
        const store = createMemoryStore();
        const log = randomLog(count, seed);
        const handle = (await shape(log, { store, maxTokens: 200, tokenizer: QUARTER })).meta
          .handle;
        const read = createResultReader({ store, maxTokens: budget, tokenizer: QUARTER });
        const texts = await pages(read, { handle, grep }, count + 2, bend);
        if (texts === undefined) return false;
        // The oracle: the runtime's own regex engine over the input's lines (small inputs).
        const plain = log.split(/\r?\n/).map((l) => l.replace(ANSI, ""));
        const test = grep.startsWith("/")
          ? new RegExp(grep.slice(1, grep.lastIndexOf("/")), grep.endsWith("i") ? "i" : "")
          : { test: (l: string) => l.toLowerCase().includes(grep.toLowerCase()) };
        const expected = plain.flatMap((l, i) => (test.test(l) ? [i + 1] : []));
        const seen = texts.flatMap((t) => shownLines(t.replace(ANSI, "")));
        return JSON.stringify(seen) === JSON.stringify(expected);
      },
    );

  it("a grep's pages cover every matching line exactly once (the oracle: the runtime's regex)", async () => {
    await fc.assert(grepProperty(), { numRuns: 40, seed: 61 });
  }, 120_000);

  it("negative control: a grep pager that skips a line breaks the property", async () => {
    const result = await fc.check(grepProperty(skipOne), { numRuns: 40, seed: 61 });
    expect(result.failed).toBe(true);
  }, 120_000);

  const whereProperty = (drop: boolean) =>
    fc.asyncProperty(
      fc.integer({ min: 0, max: 800 }),
      fc.integer({ min: 200, max: 1500 }),
      fc.integer({ min: 0, max: 9 }),
      fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
      async (count, budget, threshold, pageSize) => {
        const store = createMemoryStore();
        const rows = Array.from({ length: count }, (_, i) => ({
          id: i,
          level: i % 11 === 3 ? "error" : "info",
          score: String((i * 7) % 10),
          tags: i % 4 === 0 ? ["x", "hot"] : ["x"],
        }));
        const first = await shape(rows, { store, maxTokens: 200, tokenizer: QUARTER });
        const handle = first.meta.handle;
        if (handle === undefined) return count === 0 || first.meta.records?.omitted === 0;
        const read = createResultReader({ store, maxTokens: budget, tokenizer: QUARTER });
        const texts = await pages(
          read,
          {
            handle,
            where: { score: { gte: threshold }, tags: { contains: "HOT" } },
            ...(pageSize ? { pageSize } : {}),
          },
          count + 2,
        );
        if (texts === undefined) return false;
        const ids = texts.flatMap((t, i) => {
          if (drop && i === 0 && texts.length > 1) return [];
          return (dataOf(t) as Array<{ id: number }>).map((r) => r.id);
        });
        const expected = rows
          .filter((r) => Number(r.score) >= threshold && r.tags.includes("hot"))
          .map((r) => r.id);
        return (
          JSON.stringify(sorted(ids)) === JSON.stringify(expected) &&
          new Set(ids).size === ids.length
        );
      },
    );

  it("a filter's pages cover every matching record exactly once (numeric strings, array contains)", async () => {
    await fc.assert(whereProperty(false), { numRuns: 40, seed: 23 });
  }, 120_000);

  it("negative control: losing the first page of a filter breaks the property", async () => {
    const result = await fc.check(whereProperty(true), { numRuns: 40, seed: 23 });
    expect(result.failed).toBe(true);
  }, 120_000);

  it("a text cut into small parts reads back line for line, whatever the cuts", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 400 }), { maxLength: 120 }),
        fc.integer({ min: 1, max: 97 }),
        fc.integer({ min: 8, max: 300 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 20 }),
        async (lines, partChars, lineCap, pieces) => {
          const text = lines.join("\n");
          const memory = createMemoryStore();
          const writer = createTextWriter(memory, 1 << 20, partChars);
          const tap = writer.section("text");
          // Written in pieces of random sizes, as a stream arrives.
          for (let at = 0, i = 0; at < text.length; i++) {
            const n = pieces[i % pieces.length] as number;
            tap(text.slice(at, at + n));
            at += n;
          }
          const manifest = await writer.finish({ format: "text", errorsFirst: false });
          if (text.length === 0) return manifest === undefined;
          if (manifest === undefined) return false;
          const cache = new Map();
          const parts: PartCache = {
            get: (k) => cache.get(k),
            set: (k, v) => void cache.set(k, v),
          };
          const [section] = sectionsOf(manifest, memory, parts, lineCap);
          const expected = text.split("\n");
          if (text.endsWith("\n")) expected.pop();
          if (section?.lines !== expected.length) return false;
          // From any line on, the walk gives the rest of the lines, in order, cut as the
          // decoder cuts a line longer than the cap (its head and tail kept, the rest counted).
          const start = 1 + ((lines.length * 7) % expected.length);
          const got: string[] = [];
          await section.walk(start, (line) => {
            got.push(line.text);
            return true;
          });
          const want = expected.slice(start - 1).map((l) => cut(l, lineCap));
          return JSON.stringify(got) === JSON.stringify(want);
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });
});

/** The oracle of the line cap: head ¾, tail ¼, the middle counted in a marker. */
function cut(line: string, cap: number): string {
  if (line.length <= cap) return line;
  const head = Math.ceil(cap * 0.75);
  const tail = cap - head;
  const omitted = line.length - head - tail;
  return `${line.slice(0, head)}[airlock: ${omitted} chars omitted from this line]${line.slice(line.length - tail)}`;
}

describe("the store form", () => {
  it("parts are shared by content: a text stored twice, or two texts with a part in common", async () => {
    const store = createMemoryStore({ maxChars: 16 << 20 });
    const common = numberedLog(1 << 21).text; // two parts and a bit
    const a = await shape(`${common}\nA tail`, { store, maxTokens: 300 });
    const b = await shape(`${common}\nB tail`, { store, maxTokens: 300 });
    expect(a.meta.handle).not.toBe(b.meta.handle);
    const pa = (
      (await store.get(a.meta.handle as string)) as Extract<StoredResult, { kind: "text" }>
    ).parts;
    const pb = (
      (await store.get(b.meta.handle as string)) as Extract<StoredResult, { kind: "text" }>
    ).parts;
    expect(pa[0]?.key).toBe(pb[0]?.key);
    expect(pa.at(-1)?.key).not.toBe(pb.at(-1)?.key);
    // Parts are held once: the store holds the common text once, and each tail.
    expect(store.chars).toBeLessThan(common.length * 1.6);
    // Letting one go keeps the other whole.
    store.delete(a.meta.handle as string);
    const read = createResultReader({ store, maxTokens: 2000 });
    const last = await read({ handle: b.meta.handle, grep: "B tail" });
    expect(last.text).toContain("B tail");
    expect((await read({ handle: a.meta.handle })).meta.error?.code).toBe("tool/not-found");
  }, 60_000);

  it("an expired result, and one whose part was evicted, read as not-found error pages", async () => {
    let now = 0;
    const store = createMemoryStore({ ttlMs: 1000, now: () => now });
    const log = numberedLog(300_000).text;
    const first = await shape(log, { store, maxTokens: 300 });
    const read = createResultReader({ store, maxTokens: 600 });
    expect((await read(first.meta.next?.args)).status).not.toBe("error");
    now = 2000;
    const gone = await read(first.meta.next?.args);
    expect(gone.meta.error?.code).toBe("tool/not-found");
    expect(gone.text).toContain("expired or never existed");
    // A host store that lost a part: the manifest is there, its text is not.
    const memory = createMemoryStore();
    const leaky: ResultStore = {
      put: (r) => memory.put(r),
      get: (h) => memory.get(h),
      putPart: (k, t) => memory.putPart(k, t),
      getPart: () => undefined,
    };
    const second = await shape(log, { store: leaky, maxTokens: 300 });
    const lost = await createResultReader({ store: leaky, maxTokens: 600 })(second.meta.next?.args);
    expect(lost.meta.error?.code).toBe("tool/not-found");
    expect(lost.text).toContain("a part of the stored text is gone");
  });

  it("a text larger than the whole store is not kept (no handle), and a store that throws costs only the handle", async () => {
    const small = createMemoryStore({ maxChars: 100_000 });
    const log = numberedLog(2 << 20).text;
    const shaped = await shape(log, { store: small, maxTokens: 300, storeMaxChars: 64 << 20 });
    expect(shaped.meta.handle).toBeUndefined();
    expect(shaped.text).toContain("[airlock: shown");
    const broken: ResultStore = {
      put: () => true,
      get: () => undefined,
      putPart: () => {
        throw new Error("R2: unavailable");
      },
      getPart: () => undefined,
    };
    const again = await shape(log, { store: broken, maxTokens: 300 });
    expect(again.meta.handle).toBeUndefined();
    expect(again.status).toBe("partial");
  });

  it("an asynchronous store (the form of Workers KV and R2) keeps and reads text and records", async () => {
    const kv = new Map<string, string>();
    const delay = () => new Promise((r) => setTimeout(r, 1));
    // Everything as strings, as KV keeps it: the manifest as JSON, each part as its text.
    const store: ResultStore = {
      async put(result) {
        await delay();
        kv.set(`result:${result.handle}`, JSON.stringify(result));
        return true;
      },
      async get(handle) {
        await delay();
        const json = kv.get(`result:${handle}`);
        return json === undefined ? undefined : (JSON.parse(json) as StoredResult);
      },
      async putPart(key, text) {
        await delay();
        kv.set(key, text);
        return true;
      },
      async getPart(key) {
        await delay();
        return kv.get(key);
      },
    };
    const log = numberedLog(3 << 20);
    const first = await shape(log.text, { store, maxTokens: 600 });
    expect([...kv.keys()].filter((k) => k.startsWith("part_")).length).toBeGreaterThanOrEqual(3);
    const read = createResultReader({ store, maxTokens: 20_000, tokenizer: QUARTER });
    const texts = await pages(
      read,
      { handle: first.meta.handle, lines: { from: 1 }, pageSize: 1000 },
      200,
    );
    expect((texts ?? []).flatMap((t) => shownLines(t))).toEqual(range(1, log.lines));
    const rows = await shape(
      Array.from({ length: 5000 }, (_, i) => ({ i })),
      { store, maxTokens: 600 },
    );
    const page = await read({ handle: rows.meta.handle, range: { from: 4990, to: 5000 } });
    expect(dataOf(page.text)).toEqual(range(4989, 4999).map((i) => ({ i })));
  }, 60_000);

  it("the zod shape registers with the MCP SDK's server, lists as an object schema, and serves pages", async () => {
    const store = createMemoryStore();
    const first = await shape(numberedLog(200_000).text, { store, maxTokens: 600 });
    const readResult = createResultReader({ store, maxTokens: 600 });
    const server = new McpServer({ name: "airlock-test", version: "1.0.0" });
    server.registerTool(
      "read_result",
      { description: "read more of a stored result", inputSchema: readResultZodShape(z) },
      async (args) => toMcp(await readResult(args)) as never,
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "test", version: "1.0.0" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === "read_result");
    expect(tool?.inputSchema.type).toBe("object");
    expect(tool?.inputSchema.required).toEqual(["handle"]);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["handle", "cursor", "lines", "grep", "where", "pageSize"]),
    );
    const called = await client.callTool({ name: "read_result", arguments: first.meta.next?.args });
    const direct = await readResult(first.meta.next?.args);
    expect((called.content as Array<{ text: string }>)[0]?.text).toBe(direct.text);
    await client.close();
  });
});
