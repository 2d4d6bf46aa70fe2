/**
 * Hostile input, round 2 (issue 27, ../shared/reviews/hostile-2026-12-02.md): what the host hands
 * in that never settles, that overflows a timer, or that reads back at budgets too small for a
 * page. Each case failed on ff98d8c (the break's number from the review is in its name).
 */
import { createMemoryStore, createResultReader, MIN_READ_TOKENS, shape } from "agent-airlock";
import { renderPreview } from "agent-airlock/preview";
import { beforeAll, describe, expect, it } from "vitest";
import { toolLines } from "../helpers/markers.js";

const never = () => new Promise<never>(() => {});
const log = Array.from({ length: 10_000 }, (_, i) => `line ${i} worker ok`).join("\n");

describe("hostile round 2: a store that never answers costs the handle, never the result", () => {
  // The first call of a process loads the pipeline and the rule set; the deadlines below are
  // about the store, not about that load.
  beforeAll(async () => {
    await shape(log, { maxTokens: 100, store: createMemoryStore() });
  });

  it("9: a put that never settles ends with timeoutMs, the text whole and no handle", async () => {
    const store = {
      put: never,
      get: () => undefined,
      putPart: () => true,
      getPart: () => undefined,
    };
    const t0 = Date.now();
    const shaped = await shape(log, { maxTokens: 100, timeoutMs: 1_000, store });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(shaped.meta.handle).toBeUndefined();
    expect(shaped.text).toContain("line 9999 worker ok");
    expect(shaped.text).not.toContain("read_result");
  }, 10_000);

  it("9: a putPart that never settles ends with abortSignal the same way", async () => {
    const store = {
      put: () => true,
      get: () => undefined,
      putPart: never,
      getPart: () => undefined,
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1_000);
    const shaped = await shape(log, { maxTokens: 100, abortSignal: controller.signal, store });
    expect(shaped.meta.handle).toBeUndefined();
    expect(shaped.text).toContain("line 9999 worker ok");
  }, 10_000);

  it("9: records whose put never settles end with timeoutMs too", async () => {
    const rows = JSON.stringify(Array.from({ length: 3_000 }, (_, i) => ({ id: i, ok: true })));
    const store = { put: never, get: () => undefined };
    const shaped = await shape(rows, { maxTokens: 200, timeoutMs: 1_000, store });
    expect(shaped.meta.handle).toBeUndefined();
    expect(shaped.meta.records?.total).toBe(3_000);
  }, 10_000);

  it("9: a store that answers keeps its handle under the same deadline (control)", async () => {
    const shaped = await shape(log, {
      maxTokens: 100,
      timeoutMs: 5_000,
      store: createMemoryStore(),
    });
    expect(shaped.meta.handle).toMatch(/\S/);
  });
});

describe("hostile round 2: timeoutMs beyond a timer's range", () => {
  it("18: timeoutMs of 2^31 waits for a slow source instead of stopping at once", async () => {
    let i = 0;
    const slow = new ReadableStream<Uint8Array>({
      async pull(c) {
        await new Promise((r) => setTimeout(r, 5));
        if (i < 20) c.enqueue(new TextEncoder().encode(`slow line ${i++}\n`));
        else c.close();
      },
    });
    const shaped = await shape(slow, { timeoutMs: 2 ** 31 });
    expect(shaped.meta.cuts.some((c) => c.kind === "stopped")).toBe(false);
    expect(shaped.text).toContain("slow line 19");
    expect(shaped.status).toBe("ok");
  });
});

describe("hostile round 2: read_result pages at small budgets", () => {
  const lines = Array.from(
    { length: 600 },
    (_, i) => `L${i + 1}x ${"v".repeat(94 - String(i + 1).length)}`,
  );

  it("10: a reader below the smallest page that can advance is refused when it is created", () => {
    const store = createMemoryStore();
    for (const maxTokens of [16, 51, 100, MIN_READ_TOKENS - 1]) {
      expect(() => createResultReader({ store, maxTokens })).toThrowError(
        expect.objectContaining({ code: "options/invalid" }),
      );
    }
    expect(() => createResultReader({ store, maxTokens: MIN_READ_TOKENS })).not.toThrow();
  });

  it("10: every page kind at the smallest budgets is within it", async () => {
    const store = createMemoryStore();
    const text = (await shape(lines.join("\n"), { store, maxTokens: 500 })).meta.handle as string;
    const rows = JSON.stringify(
      Array.from({ length: 500 }, (_, i) => ({ id: i, note: "n".repeat(i % 90) })),
    );
    const records = (await shape(rows, { store, maxTokens: 500 })).meta.handle as string;
    const calls = [
      { handle: text },
      { handle: text, lines: { from: 262 } },
      { handle: text, grep: "L599x" },
      { handle: text, grep: "x".repeat(256) },
      { handle: records },
      { handle: "res_00000000000000000000000" },
      { handle: text, bogus: true },
    ];
    for (const maxTokens of [MIN_READ_TOKENS, MIN_READ_TOKENS + 7, 199, 240]) {
      const read = createResultReader({ store, maxTokens });
      for (const args of calls) {
        const page = await read(args);
        expect(
          page.meta.tokens,
          `${maxTokens} ${JSON.stringify(args).slice(0, 60)}`,
        ).toBeLessThanOrEqual(maxTokens);
      }
    }
  });

  it("11: following next from the first page at the smallest budget reads every line once, to the end", async () => {
    const store = createMemoryStore();
    const handle = (await shape(lines.join("\n"), { store, maxTokens: 500 })).meta.handle as string;
    const read = createResultReader({ store, maxTokens: MIN_READ_TOKENS });
    let args: Record<string, unknown> = { handle, lines: { from: 1 } };
    let expected = 1;
    for (let page = 0; page < 700; page++) {
      const p = await read(args);
      expect(p.meta.tokens).toBeLessThanOrEqual(MIN_READ_TOKENS);
      const from = p.meta.read?.from;
      expect(from, `page ${page}: ${p.text.slice(-120)}`).toBe(expected);
      expected = (p.meta.read?.to as number) + 1;
      if (!p.meta.next) break;
      args = p.meta.next.args as Record<string, unknown>;
    }
    expect(expected).toBe(lines.length + 1);
  }, 60_000);

  it("after the fixes: a long grep either pages to its end or is refused on its first page", async () => {
    // A 130- or 200-character pattern of `<` read one page at 160 and 180 tokens on 18a0fae,
    // then dead-ended: the later pages' header and gap were longer than the first's.
    const store = createMemoryStore();
    const log = Array.from({ length: 2_000 }, (_, i) =>
      i % 50 === 0 ? `line ${i} ERROR ${"<".repeat(256)} boom` : `line ${i} ok`,
    );
    const handle = (await shape(log.join("\n"), { store, maxTokens: 300 })).meta.handle as string;
    for (const size of [121, 130, 200, 256]) {
      for (const maxTokens of [MIN_READ_TOKENS, 180, 200]) {
        const read = createResultReader({ store, maxTokens });
        let args: Record<string, unknown> = { handle, grep: "<".repeat(size) };
        const seen: number[] = [];
        let last = "";
        for (let page = 0; page < 60; page++) {
          const p = await read(args);
          expect(p.meta.tokens).toBeLessThanOrEqual(maxTokens);
          last = p.text;
          if (p.status === "error") {
            expect(seen, `${size} at ${maxTokens}: refused after ${seen.length} pages`).toEqual([]);
            break;
          }
          seen.push(p.meta.read?.from as number);
          if (!p.meta.next) break;
          args = p.meta.next.args as Record<string, unknown>;
        }
        if (seen.length > 0)
          expect(last, `${size} at ${maxTokens}`).toContain("no more lines match");
      }
    }
  }, 120_000);

  it("after the fixes: searches over a command's two sections page to their end or are refused on page 1", async () => {
    // On 0be6623 these dead-ended at pages 22-64: a later page added another section's label,
    // a fence boundary or longer numbers that the page before had not left room for.
    const store = createMemoryStore();
    const long = `${"Z".repeat(60)}/q`;
    const line = (i: number) =>
      i % 37 === 0
        ? `line ${i} ERROR ${long} disk ${"<".repeat((i % 5) * 20)} fail`
        : i % 53 === 0
          ? `line ${i} WARN retry ${"w".repeat(300)}`
          : `line ${i} ok`;
    const stdout = Array.from({ length: 3000 }, (_, i) => line(i)).join("\n");
    const stderr = Array.from({ length: 1500 }, (_, i) => line(i * 2 + 1)).join("\n");
    const handle = (await shape({ stdout, stderr, exitCode: 1 }, { store, maxTokens: 400 })).meta
      .handle as string;
    const calls = [
      { evidence: true, level: "warning" },
      { grep: "/Z{60}\\/q/i", lines: { from: 500 } },
      { grep: "/(ERROR|WARN) [Zr]/i" },
      { grep: `ERROR ${"Z".repeat(45)}` },
    ];
    for (const maxTokens of [170, 180, 200, 220]) {
      const read = createResultReader({ store, maxTokens });
      for (const call of calls) {
        let args: Record<string, unknown> = { handle, ...call };
        let pages = 0;
        for (; pages < 400; pages++) {
          const p = await read(args);
          expect(p.meta.tokens).toBeLessThanOrEqual(maxTokens);
          if (p.status === "error") {
            expect(pages, `${JSON.stringify(call)} at ${maxTokens}`).toBe(0);
            break;
          }
          if (!p.meta.next) break;
          args = p.meta.next.args as Record<string, unknown>;
        }
        expect(pages).toBeLessThan(400);
      }
    }
  }, 240_000);

  it("after the fixes: a long pattern is named in the call that reads on, not twice", async () => {
    const store = createMemoryStore();
    const log = Array.from({ length: 500 }, (_, i) => `line ${i} ${"<".repeat(100)} x`);
    const handle = (await shape(log.join("\n"), { store, maxTokens: 300 })).meta.handle as string;
    const page = await createResultReader({ store, maxTokens: 400 })({
      handle,
      grep: "<".repeat(90),
    });
    const header = toolLines(page.text).find((l) => l.startsWith("[airlock: read_result:"));
    expect(header).toBe(
      "[airlock: read_result: lines containing the call's pattern (90 characters) (any case)]",
    );
    expect(page.meta.next?.args).toMatchObject({ grep: "<".repeat(90) });
    const short = await createResultReader({ store, maxTokens: 400 })({ handle, grep: "line 1" });
    expect(short.text).toContain('lines containing "line 1" (any case)');
  });

  it("after the fixes: a host tokenizer that starts throwing gets an error page, never a rejection", async () => {
    const store = createMemoryStore();
    const handle = (await shape(log, { store, maxTokens: 2_000 })).meta.handle as string;
    let calls = 0;
    const tokenizer = {
      name: "flaky",
      count: (t: string) => {
        if (++calls > 3) throw new Error("tokenizer down");
        return Math.ceil(t.length / 4);
      },
    };
    const page = await createResultReader({ store, maxTokens: 400, tokenizer })({ handle });
    expect(page.status).toBe("error");
    expect(page.meta.error?.code).toBe("tool/unavailable");
    expect(page.text).toContain("tokenizer failed");
  });

  it("after the fixes: a host tokenizer that counts high gets its floor measured, and said", async () => {
    const store = createMemoryStore();
    const tokenizer = { name: "per-char", count: (t: string) => t.length };
    const handle = (await shape(log, { store, maxTokens: 2_000, tokenizer })).meta.handle as string;
    const low = await createResultReader({ store, maxTokens: 300, tokenizer })({ handle });
    expect(low.status).toBe("error");
    expect(low.meta.tokens).toBeLessThanOrEqual(300);
    expect(low.text).toMatch(/maxTokens (?:\(300\) is below|must be at least) /);
    const floor = Number(/at least (\d+)/.exec(low.text)?.[1]);
    expect(floor).toBeGreaterThan(300);
    // At the floor it named, every kind of call pages (control: the floor is not too low).
    const read = createResultReader({ store, maxTokens: floor, tokenizer });
    for (const args of [
      { handle },
      { handle, grep: "worker" },
      { handle, evidence: true },
      { handle, around: 500 },
    ]) {
      const p = await read(args);
      expect(p.status, JSON.stringify(args)).not.toBe("error");
      expect(p.meta.tokens).toBeLessThanOrEqual(floor);
    }
  });
});

describe("hostile round 2: the preview of hostile markdown", () => {
  it("12: quotes nested 3,999 deep render (to eight levels) instead of throwing", async () => {
    const source = `# Title\n\nSome prose here. And more prose.\n\n${"> ".repeat(3999)}x`;
    const shaped = await shape(source, { contentType: "text/markdown", maxTokens: 8000 });
    const html = renderPreview(shaped);
    expect(html).toContain("Some prose here.");
    expect(html.match(/<blockquote>/g)?.length).toBe(8);
    expect(html).toMatch(/<p>x<\/p>/);
  });

  it("after the fixes: 8,000 lines quoted sixteen deep render at eight levels, every line kept", () => {
    // Each level past about eight doubled marked's time (14.8 s for these lines on 18a0fae);
    // tame split on \n only, where marked reads a lone \r as a line end too (16 levels kept).
    const source = Array.from({ length: 8_000 }, (_, i) => `${"> ".repeat(16)}line ${i}`);
    for (const end of ["\n", "\r", "\r\n"]) {
      const html = renderPreview(source.join(end), { mode: "markdown" });
      expect(html.match(/<blockquote>/g)?.length, JSON.stringify(end)).toBe(8);
      expect(html).toContain("line 7999");
    }
  });

  it("after the fixes: a line of 60,000 list markers renders as eight nested lists", () => {
    // One line of "- - - …" is a list in a list in a list (11.3 s on 18a0fae).
    for (const marker of ["- ", "* ", "1. ", "> - "]) {
      const html = renderPreview(`${marker.repeat(60_000)}x`, { mode: "markdown" });
      const levels = (html.match(/<ul>|<ol>|<blockquote>/g) ?? []).length;
      expect(levels).toBe(8);
      expect(html).toMatch(/x<\/(?:li|p)>/);
    }
  });

  it("after the fixes: a list item with 40,000 lazy continuation lines renders them all, as paragraphs", () => {
    // marked read the item again for each lazy line (80,000 characters: 7.3 s on 0be6623).
    for (const first of ["- a", "1. a", "> - a"]) {
      const html = renderPreview(`${first}\n${"b\n".repeat(39_999)}z-end\n`, { mode: "markdown" });
      expect(html).toContain("z-end");
      expect(html.match(/\bb\b/g)?.length).toBe(39_999);
    }
    // A short lazy continuation stays in its item (control).
    const short = renderPreview("- a\nb\nc\n", { mode: "markdown" });
    expect(short).toMatch(/<li>a\s*b\s*c<\/li>/);
  });

  it("after the fixes: a table row's surplus cells and a reference definition are shown, not dropped", () => {
    // marked drops both (as GFM says): the person watching did not see tool text the model read.
    const table = renderPreview("a|b\n-|-\nx|y|token=HIDDEN1", { mode: "markdown" });
    expect(table).toContain("token=HIDDEN1");
    expect(table).toContain("<table>");
    const definition = renderPreview('see below\n\n[x]: http://HIDDEN2.example/ "HIDDEN3"', {
      mode: "markdown",
    });
    expect(definition).toContain("HIDDEN2");
    expect(definition).toContain("HIDDEN3");
    // A row within its header's cells is a table row as before (control).
    const plain = renderPreview("| a | b |\n|---|---|\n| x | y |", { mode: "markdown" });
    expect(plain).toMatch(/<td>x<\/td>\s*<td>y<\/td>/);
  });

  it("after the fixes: a block of thousands of link openers is shown as text, whole", () => {
    // marked looked for each `[`'s closer through the rest of the block (160,000: 5.5 s).
    for (const unit of ["[", "[a", "[^"]) {
      const html = renderPreview(`${unit.repeat(40_000)} the end \`a[0]\``, { mode: "markdown" });
      expect(html).toContain(`${unit.repeat(100)}`);
      expect(html).toContain("the end <code>a[0]</code>");
      expect(html).not.toContain("&amp;#91;");
    }
    // A block of a few links keeps them as links (control).
    const links = renderPreview("see [one](https://a.example/) and [two](https://b.example/)", {
      mode: "markdown",
    });
    expect(links.match(/<a href=/g)?.length).toBe(2);
  });

  it("after the fixes: lists and quotes of ordinary depth keep every level (control)", () => {
    const html = renderPreview("- a\n  - b\n    - c\n\n> > > deep", { mode: "markdown" });
    expect(html.match(/<ul>/g)?.length).toBe(3);
    expect(html.match(/<blockquote>/g)?.length).toBe(3);
  });

  it("12: a block of unmatched emphasis delimiters is shown literally, whole", async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `_a*_a*${i}_a*_a* word${i}`);
    const shaped = await shape(`# T\n\n${lines.join("\n")}`, {
      contentType: "text/markdown",
      maxTokens: 40_000,
    });
    const html = renderPreview(shaped);
    expect(html).toContain("_a*_a*1999_a*_a* word1999");
    expect(html).not.toContain("<em>");
  });

  it("12: emphasis in an ordinary block is still emphasis (control)", async () => {
    const html = renderPreview("# T\n\nSome *short* and _plain_ prose.\n", { mode: "markdown" });
    expect(html).toContain("<em>short</em>");
  });
});

describe("hostile round 2: host objects that throw are results, never raw exceptions", () => {
  it("17: an array Proxy whose traps throw is read as unreadable records", async () => {
    const hostile = new Proxy([1, 2, 3], {
      get(_t, k) {
        if (k === "length") return 3;
        throw new Error(`trap ${String(k)}`);
      },
    });
    const shaped = await shape(hostile);
    expect(shaped.meta.records?.refused).toEqual({ "json/unreadable": 3 });
  });

  it("17: a revoked Proxy is a failed read", async () => {
    const { proxy, revoke } = Proxy.revocable({ rows: [1, 2] }, {});
    revoke();
    const shaped = await shape(proxy);
    expect(shaped.status).toBe("error");
    expect(shaped.meta.error?.code).toBe("intake/read-failed");
  });

  for (const getter of ["body", "headers", "status", "bodyUsed"] as const) {
    it(`17: a Response whose ${getter} getter throws is a failed read`, async () => {
      const response = new Response("hello");
      Object.defineProperty(response, getter, {
        get() {
          throw new Error(`${getter} getter`);
        },
      });
      const shaped = await shape(response);
      expect(shaped.status).toBe("error");
      expect(shaped.meta.error?.code).toBe("intake/read-failed");
    });
  }

  it("17: a Request whose headers getter throws is a failed read", async () => {
    const request = new Request("http://127.0.0.1/", { method: "POST", body: "hi" });
    Object.defineProperty(request, "headers", {
      get() {
        throw new Error("headers getter");
      },
    });
    const shaped = await shape(request);
    expect(shaped.meta.error?.code).toBe("intake/read-failed");
  });
});

describe("hostile round 2: shared references cost what is read, not what they expand to", () => {
  const laughs = (depth: number) => {
    let v: unknown[] = ["leaf"];
    for (let i = 0; i < depth; i++) v = [v, v];
    return v;
  };

  it("19: an array of 2^24 leaves by shared references (150 MB as JSON) refuses its records as too large", async () => {
    const shaped = await shape(laughs(24), { maxTokens: 500 });
    expect(shaped.meta.records?.refused).toEqual({ "json/too-large": 2 });
    expect(shaped.meta.tokens).toBeLessThanOrEqual(500);
  }, 60_000);

  it("19: an object of shared references past the document bound is json/too-large", async () => {
    let o: Record<string, unknown> = { leaf: "x" };
    for (let i = 0; i < 24; i++) o = { a: o, b: o };
    const shaped = await shape(o, { maxTokens: 500 });
    expect(shaped.meta.error?.code).toBe("json/too-large");
  }, 60_000);

  it("19: a small value that shares one object is read whole (control)", async () => {
    const shared = { name: "shared-part", size: 3 };
    const shaped = await shape({ first: shared, second: shared, list: [shared, shared] });
    expect(shaped.status).toBe("ok");
    expect(shaped.text.match(/shared-part/g)?.length).toBe(4);
  });
});

describe("hostile round 2, after the fixes: lengths and strings a parsed value only claims", () => {
  // Each case hung synchronously (timeoutMs could not fire) or cost the expanded size on 18a0fae.
  const huge = (length: unknown) =>
    new Proxy([] as unknown[], {
      get: (t, k) => (k === "length" ? length : Reflect.get(t, k)),
    });

  it("a sparse array of 2^32 - 1 holes is refused by its length, not walked", async () => {
    const holes: unknown[] = [];
    holes.length = 2 ** 32 - 1;
    holes[5] = { level: "ERROR" };
    for (const input of [holes, { items: holes }]) {
      const shaped = await shape(input, { maxTokens: 300 });
      expect(shaped.status).toBe("error");
      expect(shaped.meta.error?.code).toBe("json/array-too-long");
    }
  }, 30_000);

  it("an array Proxy that claims 10^12 elements is refused by its length", async () => {
    for (const input of [huge(1e12), { rows: huge(1e12) }]) {
      const shaped = await shape(input, { maxTokens: 300 });
      expect(shaped.meta.error?.code).toBe("json/array-too-long");
    }
  }, 30_000);

  it("an array Proxy whose length throws when read as a number is unreadable, not a raw Error", async () => {
    const length = {
      valueOf() {
        throw new Error("length valueOf");
      },
    };
    for (const input of [huge(length), { rows: huge(length) }, { rows: huge(Number.NaN) }]) {
      const shaped = await shape(input, { maxTokens: 300 });
      expect(shaped.status).toBe("error");
      expect(shaped.meta.error?.code).toMatch(/^json\/unreadable$|^intake\/read-failed$/);
    }
  });

  it("a sparse array within bounds reads its holes as null, as JSON.stringify writes them", async () => {
    const slots: unknown[] = [];
    slots[3] = "disk full";
    const shaped = await shape({ config: { slots } });
    expect(shaped.meta.error).toBeUndefined();
    expect(shaped.text).toContain('[null,null,null,"disk full"]');
  });

  it("one 1 MiB string shared by 1,600 records is read up to maxBytes, and the cut is declared", async () => {
    const s = "x".repeat(1 << 20);
    const rows = Array.from({ length: 1_600 }, (_, i) => ({ i, s }));
    const shaped = await shape({ rows }, { maxTokens: 400, maxBytes: 64 << 20 });
    expect(shaped.meta.truncated).toBe(true);
    expect(shaped.meta.cuts).toContainEqual(expect.objectContaining({ kind: "bytes" }));
    expect(shaped.meta.records?.total).toBeLessThan(70);
    expect(shaped.text).toContain("maxBytes");
  }, 60_000);

  it("a key of 100,000 letters is cut as a long value is, and its record shown", async () => {
    // Keys were not shortened: the tokenizer spent 5.8 s on one (22 s at 200,000), as text too.
    const key = "k".repeat(100_000);
    for (const input of [[{ [key]: 0, b: 1 }], JSON.stringify([{ [key]: 0, b: 1 }])]) {
      const shaped = await shape(input, { maxTokens: 300 });
      expect(shaped.text).toMatch(/"k+…\[airlock: \d+ chars omitted from this value\]…k+":0,"b":1/);
      expect(shaped.meta.tokens).toBeLessThanOrEqual(300);
    }
  });

  it("records that all refer to one big nested array stop at timeoutMs, and say so", async () => {
    // Each record is 3 M numbers by reference; a value is read in microtasks, so no timer
    // fired: 20 of them took 9.9 s with timeoutMs 2,000 and declared no cut.
    const inner = new Array(1_000).fill(0);
    const mid = new Array(3_000).fill(inner);
    const rows = Array.from({ length: 20 }, (_, i) => ({ i, m: mid }));
    const shaped = await shape({ rows }, { maxTokens: 300, timeoutMs: 1_000 });
    expect(shaped.meta.cuts).toContainEqual(expect.objectContaining({ kind: "stopped" }));
    expect(shaped.meta.records?.total).toBeLessThan(20);
  }, 60_000);

  it("the same records under the cap are read whole (control)", async () => {
    const s = "x".repeat(1 << 10);
    const rows = Array.from({ length: 1_600 }, (_, i) => ({ i, s }));
    const shaped = await shape({ rows }, { maxTokens: 400, maxBytes: 64 << 20 });
    expect(shaped.meta.cuts).not.toContainEqual(expect.objectContaining({ kind: "bytes" }));
    expect(shaped.meta.records?.total).toBe(1_600);
  });
});

describe("hostile round 2: every cut is declared", () => {
  const redraws = `${Array.from({ length: 80_000 }, (_, i) => `\rprogress ${i}/80000 [${"#".repeat(i % 20)}]`).join("")}\ndone\n`;

  for (const [name, options] of [
    ["redaction on", {}],
    ["redaction off", { redact: false }],
    ["with a store", { store: createMemoryStore() }],
  ] as const) {
    it(`a 2.6 MB line of carriage-return redraws shows its final state and declares the rest (${name})`, async () => {
      const shaped = await shape(redraws, { maxTokens: 500, ...options });
      const line = toolLines(shaped.text).find((l) => l.includes("progress")) as string;
      expect(line).toMatch(
        /^\[airlock: \d+ chars omitted from this line\]progress 79999\/80000 \[#{19}\]$/,
      );
      expect(shaped.meta.truncated).toBe(true);
      expect(shaped.meta.cuts).toContainEqual(expect.objectContaining({ kind: "chars", line: 1 }));
      expect(shaped.text).toContain("done");
    });
  }
});

describe("hostile round 2: the preview reads code fences as CommonMark does", () => {
  it("12: a backtick line that cannot open a fence does not hide a block of delimiters", async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `_a*_a*${i}_a*_a* word${i}`);
    const html = renderPreview(`# T\n\n\`\`\`a\`\n${lines.join("\n")}\n`, { mode: "markdown" });
    expect(html).toContain("_a*_a*1999_a*_a* word1999");
    expect(html).not.toContain("<em>");
  });

  it("12: a fence is closed only by its own character, as long or longer (control)", async () => {
    const html = renderPreview("```\ncode *a* here\n~~~\nstill *code*\n```\n\nSome *prose*.\n", {
      mode: "markdown",
    });
    expect(html).toContain("still *code*");
    expect(html).toContain("<em>prose</em>");
  });
});

describe("hostile round 2, after the fixes: a page streamed in pieces", () => {
  it("a paragraph cut between pieces goes on on its line, and no two paragraphs are joined", async () => {
    // Each piece of a streamed page ended its last paragraph: one 3 MB paragraph came out as
    // five (0be6623). Texts joined with nothing between them (tags past the depth bound) also
    // weighed only their characters, so the rope they made went past a 64 MiB heap.
    const one = `<html><body><p>${"word ".repeat(600_000)}the end of it</p><p>next para</p></body></html>`;
    const shaped = await shape(one, { contentType: "text/html", maxTokens: 100_000 });
    const starts = toolLines(shaped.text).filter((l) => l.startsWith("word"));
    expect(starts.length).toBeLessThanOrEqual(2);
    expect(shaped.text).toContain("the end of it\n\nnext para");
    const many = `<html><body><div>${Array.from(
      { length: 60_000 },
      (_, i) => `<p>para ${i} has some words in it</p>\n  `,
    ).join("")}</div></body></html>`;
    const paras = await shape(many, { contentType: "text/html", maxTokens: 1_000_000 });
    expect(paras.text).not.toMatch(/para \d+ has some words in it para/);
    expect(paras.text).toContain("para 59999 has some words in it");
  }, 120_000);
});

describe("a failed command's stderr, found trying the packed library on a real command", () => {
  it("a one-line stderr is kept at every budget, beside a long stdout of look-alike paths", async () => {
    // The "last line of each section" came from the tail only, and a one-line section's line is
    // in its head: `ls`'s error was left out at 300 and 800 tokens (and up to 1,200 on a real
    // `find /usr/lib`), while paths holding "error" and "failures" were shown.
    const names = [
      "network-generator",
      "sleep",
      "boot-check-no-failures",
      "cryptsetup",
      "journald",
    ];
    const stdout = Array.from({ length: 2_000 }, (_, i) =>
      i % 300 === 17
        ? `/usr/lib/x86_64-linux-gnu/libgpg-error.so.${i}`
        : `/usr/lib/systemd/system/systemd-${names[i % names.length]}${i % 7 === 0 ? "@" : ""}.service`,
    ).join("\n");
    const stderr = "ls: cannot access '/nonexistent-dir': No such file or directory\n";
    for (const maxTokens of [300, 400, 800]) {
      const shaped = await shape({ stdout, stderr, exitCode: 2 }, { tool: "bash", maxTokens });
      expect(shaped.text, `${maxTokens}`).toContain("ls: cannot access '/nonexistent-dir'");
    }
  });
});
