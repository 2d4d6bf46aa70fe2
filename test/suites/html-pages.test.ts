/**
 * HTML pages of every size through shape(): the body is never lost, a cut is always declared,
 * a console `<pre>` keeps its error line, a page too big to hold keeps its tail and states its
 * facts first. Each test names the bug it pins (issue 12 and 14; every one failed on adf2f1e).
 */
import { htmlToText, type Shaped, shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { articlePage } from "../fixtures/html.js";
import { articlePageOf, consolePageOf, PAGE_MARKS } from "../fixtures/pages.js";
import { toolLines } from "../helpers/markers.js";

const MiB = 1024 * 1024;
const TIME_BOUND = 30_000;

/** The text inside the fence, as lines. */
function bodyLines(shaped: Shaped): string[] {
  return toolLines(shaped.text).slice(1, -1);
}

function expectDeclaredCut(shaped: Shaped): void {
  expect(shaped.status).toBe("partial");
  expect(shaped.meta.truncated).toBe(true);
  expect(shaped.meta.cuts.length).toBeGreaterThan(0);
  expect(shaped.meta.tokens).toBeLessThanOrEqual(shaped.meta.maxTokens);
}

describe("shape(): big HTML pages keep their body and declare their cuts", () => {
  it("an article page of 1.7 and 2.1 MB is its story, not its title alone", {
    timeout: TIME_BOUND,
  }, async () => {
    for (const size of [1.7e6, 2.1e6]) {
      const shaped = await shape(articlePageOf(size), { maxTokens: 2000 });
      expectDeclaredCut(shaped);
      expect(shaped.text).toContain("In entry 1 the");
      expect(shaped.text).toContain(PAGE_MARKS.last);
      expect(shaped.meta.tokens).toBeGreaterThan(1500);
    }
  });

  it('"<p>x</p>" × 33,000 then THE END (264 KB): the end is shown, the cut declared', async () => {
    const shaped = await shape(`${"<p>x</p>".repeat(33_000)}<p>THE END</p>`, {
      contentType: "text/html",
    });
    expectDeclaredCut(shaped);
    expect(shaped.text).toContain("THE END");
  });

  it("a console <pre> of 2.6 MB keeps its ERROR line and its last line", {
    timeout: TIME_BOUND,
  }, async () => {
    const shaped = await shape(consolePageOf(2.6 * MiB), { maxTokens: 2000 });
    expectDeclaredCut(shaped);
    expect(shaped.text).toContain(PAGE_MARKS.error);
    expect(shaped.text).toContain(PAGE_MARKS.consoleLast);
    expect(shaped.text).not.toContain("shown whole");
    expect(bodyLines(shaped).length).toBeGreaterThan(20);
  });

  it("a streamed page states its title, byline and date first", {
    timeout: TIME_BOUND,
  }, async () => {
    const shaped = await shape(articlePageOf(3 * MiB), { maxTokens: 2000 });
    const lines = bodyLines(shaped);
    expect(lines[0]).toBe(`# ${PAGE_MARKS.title}`);
    expect(lines[1]).toBe(`by ${PAGE_MARKS.byline}, ${PAGE_MARKS.date}`);
    expect(lines[2]).toMatch(/^\[airlock: a page too large to hold/);
    expect(shaped.meta.html?.title).toBe(PAGE_MARKS.title);
    expect(shaped.meta.html?.byline).toBe(PAGE_MARKS.byline);
  });

  it("a page streamed in chunks keeps its tail", { timeout: TIME_BOUND }, async () => {
    const bytes = new TextEncoder().encode(consolePageOf(3 * MiB));
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 65_536));
        at += 65_536;
      },
    });
    const shaped = await shape(
      new Response(stream, { headers: { "content-type": "text/html; charset=utf-8" } }),
      { maxTokens: 2000 },
    );
    expectDeclaredCut(shaped);
    expect(shaped.text).toContain(PAGE_MARKS.consoleLast);
    expect(shaped.text).toContain(PAGE_MARKS.error);
  });

  it("a page cut at maxBytes declares the cut as bytes, in meta and in its text", async () => {
    const page = articlePageOf(400_000);
    const shaped = await shape(page, { maxBytes: 200_000, maxTokens: 2000 });
    expectDeclaredCut(shaped);
    expect(shaped.meta.cuts).toContainEqual({
      kind: "bytes",
      section: "text",
      at: 200_000,
      limit: 200_000,
    });
    expect(shaped.text).toContain(
      "[airlock: read stopped at maxBytes (200000); the rest was not read]",
    );
    // Negative control: the whole page has no cut to declare.
    const whole = await shape(page, { maxTokens: 2000 });
    expect(whole.text).not.toContain("read stopped at maxBytes");
  });
});

describe("shape(): main-content extraction that leaves text out says so", () => {
  it("an article with navigation is partial, with a boilerplate cut and a note", async () => {
    const page = articlePage();
    const shaped = await shape(page, { contentType: "text/html" });
    const dropped = (await htmlToText(page)).removed.boilerplateChars;
    expect(dropped).toBeGreaterThan(0);
    expect(shaped.status).toBe("partial");
    expect(shaped.meta.truncated).toBe(true);
    expect(shaped.meta.cuts).toContainEqual({
      kind: "boilerplate",
      section: "text",
      chars: dropped,
    });
    // The note names each reason once, with the blocks meta.html counts.
    const blocks = shaped.meta.html?.removed.boilerplateBlocks ?? {};
    expect(blocks).toMatchObject({ navigation: expect.any(Number), comments: 1, footer: 1 });
    const note =
      /\[airlock: main content only; left out (\d+) characters in (\d+) blocks: ([^\]]+)\]/.exec(
        shaped.text,
      );
    expect(note?.[1]).toBe(String(dropped));
    expect(Number(note?.[2])).toBe(Object.values(blocks).reduce((n, k) => n + k, 0));
    const named = (note?.[3] ?? "").split(", ").map((part) => part.replace(/ \d+$/, ""));
    expect(new Set(named).size).toBe(named.length);
    expect(named).toEqual(expect.arrayContaining(["navigation", "comments", "footer"]));
    expect(shaped.text.match(/main content only/g)).toHaveLength(1);
    expect(shaped.text).not.toContain("Nav Section 17");
  });

  it("a page with nothing to leave out stays ok", async () => {
    const shaped = await shape(
      "<!doctype html><html><head><title>Status</title></head><body><p>All systems nominal.</p></body></html>",
    );
    expect(shaped.status).toBe("ok");
    expect(shaped.meta.truncated).toBe(false);
  });
});

describe("shape(): a page streamed in pieces is rendered as one page", () => {
  it("a long table keeps one header and its rows as rows", { timeout: TIME_BOUND }, async () => {
    let rows = "";
    for (let i = 1; i <= 60_000; i++) rows += `<tr><td>${i}</td><td>row ${i}</td></tr>`;
    const page = `<!doctype html><html><body><table><tr><th>n</th><th>name</th></tr>${rows}</table></body></html>`;
    const shaped = await shape(page, { maxTokens: 4000 });
    expectDeclaredCut(shaped);
    const lines = bodyLines(shaped);
    expect(lines.filter((l) => l === "| --- | --- |")).toHaveLength(1);
    expect(lines).toContain("| n | name |");
    expect(lines).toContain("| 60000 | row 60000 |");
  });

  it("a long ordered list goes on numbering across pieces", { timeout: TIME_BOUND }, async () => {
    let items = "";
    for (let i = 1; i <= 100_000; i++) items += `<li>item ${i}</li>`;
    const shaped = await shape(`<!doctype html><html><body><ol>${items}</ol></body></html>`, {
      maxTokens: 4000,
    });
    expectDeclaredCut(shaped);
    expect(bodyLines(shaped)).toContain("100000. item 100000");
  });
});
