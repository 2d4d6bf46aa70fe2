import { describe, expect, it } from "vitest";
import { shape } from "../../src/index.js";
import { renderPreview } from "../../src/preview/index.js";
import { looksLikeMarkdown } from "../../src/preview/mode.js";
import { toolLines } from "../helpers/markers.js";
import { PREVIEW_ELEMENTS } from "../helpers/preview.js";

const none = { sanitize: "none" } as const;
/** The markdown renderer, chosen explicitly: these inputs are plain strings (auto would pick). */
const md = { sanitize: "none", mode: "markdown" } as const;

describe("renderPreview markdown: safe by construction (the no-DOM path)", () => {
  it("escapes raw HTML from the tool instead of rendering it", () => {
    const html = renderPreview('<img src=x onerror="alert(1)"><script>alert(2)</script>', md);
    expect(html).not.toMatch(/<img|<script/i);
    expect(html).toContain("&lt;img src=x onerror=");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
  });

  it("links only http(s) and mailto, with rel, and drops script URLs keeping their text", () => {
    const html = renderPreview(
      "[a](https://example.com/x?a=1&b=2) [b](javascript:alert(1)) [c](mailto:a@example.com) [d](data:text/html,x)",
      md,
    );
    expect(html).toContain(
      '<a href="https://example.com/x?a=1&amp;b=2" rel="noopener noreferrer nofollow ugc">a</a>',
    );
    expect(html).toContain(
      '<a href="mailto:a@example.com" rel="noopener noreferrer nofollow ugc">c</a>',
    );
    expect(html).not.toMatch(/javascript:|data:text/);
    expect(html).toContain(" b ");
  });

  it("images are alt text unless asked for, and then https only", () => {
    expect(renderPreview("![cat](https://example.com/c.png)", md)).toContain(
      '<span class="airlock-image">[image: cat]</span>',
    );
    const shown = renderPreview(
      "![cat](https://example.com/c.png) ![x](http://example.com/x.png)",
      { ...md, images: true },
    );
    expect(shown).toContain(
      '<img src="https://example.com/c.png" alt="cat" referrerpolicy="no-referrer">',
    );
    expect(shown).not.toContain("http://example.com/x.png");
  });

  it("code keeps its angle brackets as text", () => {
    const html = renderPreview("```\nif (a < b) { return '<b>'; }\n```\n\nand `x<y`", md);
    expect(html).toContain("if (a &lt; b) { return &#39;&lt;b&gt;&#39;; }");
    expect(html).toContain("<code>x&lt;y</code>");
  });

  it("markers, redactions and invisible characters are elements of their own", () => {
    const html = renderPreview(
      "head\n[airlock: lines 3–98 of 100 omitted]\ntoken [REDACTED:github_token] here \u202Eevil",
      md,
    );
    expect(html).toContain('<div class="airlock-marker">lines 3–98 of 100 omitted</div>');
    expect(html).toContain('<span class="airlock-redacted">redacted: github_token</span>');
    expect(html).toContain('<span class="airlock-invisible">U+202E</span>');
    expect(html).not.toContain("\u202E");
  });

  it("emits no style attribute, event handler or unknown element for any input", () => {
    const inputs = [
      '<div style="x">a</div>',
      "<a href=# onclick=alert(1)>x</a>",
      "| a | b |\n| :-- | --: |\n| 1 | 2 |",
      "- [x] done\n- [ ] todo",
      "# h\n\n> q\n\n1. one\n2. two\n\n---\n\n~~del~~ **b** *i*",
    ];
    for (const input of inputs) {
      const html = renderPreview(input, md);
      // Every literal `<` starts a tag the renderer built (text has them escaped).
      expect(html, input).not.toMatch(/<[^>]*\s(?:style|on[a-z]+)=/i);
      for (const [, tag] of html.matchAll(/<([a-z0-9]+)[\s>]/gi)) {
        // No img: images are off by default.
        expect(
          PREVIEW_ELEMENTS.has(tag?.toLowerCase() ?? "") && tag !== "img",
          `${input}: <${tag}>`,
        ).toBe(true);
      }
    }
  });

  it("a shaped result gets a header with its tool and status, and loses its fence lines", async () => {
    const shaped = await shape("ERROR disk full\n".repeat(3), { tool: "bash", maxTokens: 200 });
    const html = renderPreview(shaped, none);
    expect(html).toContain('<span class="airlock-tool">bash</span>');
    expect(html).toContain(`airlock-status-${shaped.status}`);
    expect(html).not.toContain("untrusted-data");
    expect(html).toContain("ERROR disk full");
  });

  it("the browser path (DOMPurify where a DOM exists) keeps benign output as it is", () => {
    const input =
      "# Title\n\nSome **bold** text with [a link](https://example.com).\n\n[airlock: 3 lines omitted]";
    const auto = renderPreview(input, { mode: "markdown" });
    // Where there is no DOM (Workers, Node) the two are the same string; in a browser DOMPurify
    // may reorder attributes, but keeps every element and link.
    for (const part of [
      "<h1>Title</h1>",
      "<strong>bold</strong>",
      'href="https://example.com/"',
      "airlock-marker",
    ]) {
      expect(auto).toContain(part);
    }
  });
});

/** Plain texts and the renderer auto mode must pick for them; titles say what the text is. */
const plainTexts: readonly {
  title: string;
  input: string;
  expected: "markdown" | "preformatted";
}[] = [
  {
    title: "an article in markdown: headings, paragraphs, a list",
    input:
      "# How we cut CI time in half\n\nOur build took forty minutes last spring, and most of that was waiting for caches.\nWe moved the cache next to the runners and the wait went away.\n\n## What changed\n\n- the cache\n- the runners\n",
    expected: "markdown",
  },
  {
    title: "a README: a heading, a sentence, a code block",
    input:
      "# agent-airlock\n\nShape every tool result before it reaches the model, with honest markers.\n\n```sh\nnpm install agent-airlock\n```\n",
    expected: "markdown",
  },
  {
    title: "release notes with a link",
    input:
      "## Release notes\n\nThis release fixes the parser crash that some of you reported last week.\n\nSee [the issue](https://example.com/1) for details.",
    expected: "markdown",
  },
  {
    title: "markdown after an airlock marker line",
    input:
      "[airlock: 120 characters of hidden text removed]\n# Title of the page\n\nThe first paragraph of the page says what the page is about, in a sentence.",
    expected: "markdown",
  },
  {
    title: "a log with ISO timestamps, one line starting with '# '",
    input:
      "2026-03-01T10:00:00Z INFO service started\n# config reloaded\n\n2026-03-01T10:00:05Z ERROR charge failed: upstream timeout after 30000ms",
    expected: "preformatted",
  },
  {
    title: "a markdown-looking text with one log line in it",
    input:
      "# Notes\n\nThe deploy went out this morning and everything looked fine to us.\n\nERROR: connection refused",
    expected: "preformatted",
  },
  {
    title: "build output with progress counters",
    input: "[1/3] compiling src/a.rs\n[2/3] compiling src/b.rs\n\nerror[E0308]: mismatched types",
    expected: "preformatted",
  },
  {
    title: "a Python script whose comments look like headings",
    input:
      "# Compute totals\n\nimport sys\n\ndef total(items):\n    return sum(i.price for i in items)\n\n# Print the total of the order for the customer\nprint(total(sys.argv))\n",
    expected: "preformatted",
  },
  {
    title: "a shell script with heading-like comments and long commands",
    input:
      "#!/bin/sh\n# Install the dependencies for the build machine before it runs\n\napt-get update\napt-get install -y chromium nodejs npm git curl jq make gcc unzip zip xz-utils\n",
    expected: "preformatted",
  },
  {
    title: "JSON records",
    input: '{"id":1,"level":"error","msg":"# not a heading"}\n{"id":2,"level":"info"}',
    expected: "preformatted",
  },
  {
    title: "a JSON array",
    input: '[\n  {"title": "# heading-like value"}\n]',
    expected: "preformatted",
  },
  {
    title: "CSV",
    input: "name,age,city\nalice,31,Lyon\nbob,27,Oslo",
    expected: "preformatted",
  },
  {
    title: "an email in prose without headings",
    input:
      "Hi team,\n\nThe migration is done and the old cluster can be turned off on Friday.\n\nThanks, Ana",
    expected: "preformatted",
  },
  {
    title: "a stack trace",
    input:
      "# crash report\n\nTypeError: Cannot read properties of undefined (reading 'id') in the handler\n    at handler (/srv/app/index.js:12:5)\n    at process (/srv/app/queue.js:40:9)",
    expected: "preformatted",
  },
  { title: "an empty text", input: "", expected: "preformatted" },
];

const modeOf = (html: string) => /class="airlock-preview airlock-(\w+)"/.exec(html)?.[1];

describe("renderPreview: preformatted or markdown, from what the result is", () => {
  it.each(plainTexts)("a plain string, $title: $expected", ({ input, expected }) => {
    expect(modeOf(renderPreview(input, none))).toBe(expected);
    expect(looksLikeMarkdown(input)).toBe(expected === "markdown");
  });

  it("the heuristic has a negative control: a guess that says markdown for '# ' is caught", () => {
    // A naive guess (any heading means markdown) fails the fixture; the fixture can fail.
    const naive = (text: string) => /^#{1,6} /m.test(text);
    const wrong = plainTexts.filter((c) => naive(c.input) !== (c.expected === "markdown"));
    expect(wrong.map((c) => c.title)).toEqual(
      expect.arrayContaining([
        "a log with ISO timestamps, one line starting with '# '",
        "a Python script whose comments look like headings",
        "a shell script with heading-like comments and long commands",
      ]),
    );
  });

  it("a shaped result follows meta.format: pages and markdown as markdown, the rest preformatted", async () => {
    const page = await shape(
      new Response(
        "<html><head><title>Notes</title></head><body><article><h1>Notes</h1><p>Plain words about the release, enough of them to be the main content of this page.</p></article></body></html>",
        { headers: { "content-type": "text/html" } },
      ),
      { tool: "fetch" },
    );
    expect(page.meta.format).toBe("html");
    expect(modeOf(renderPreview(page, none))).toBe("markdown");

    const markdown = await shape("no heading, but declared as markdown: **bold**", {
      contentType: "text/markdown; charset=utf-8",
    });
    expect(markdown.meta.format).toBe("markdown");
    expect(renderPreview(markdown, none)).toContain("<strong>bold</strong>");

    // Command output that happens to be markdown (`cat README.md`) is still command output.
    const command = await shape({ stdout: plainTexts[0]?.input ?? "", exitCode: 0 });
    expect(command.meta.format).toBe("command");
    expect(modeOf(renderPreview(command, none))).toBe("preformatted");

    const records = await shape([{ id: 1, title: "# not a heading" }], { tool: "q" });
    expect(records.meta.format).toBe("json");
    expect(modeOf(renderPreview(records, none))).toBe("preformatted");

    const csv = await shape("a,b\n1,2\n", { contentType: "text/csv" });
    expect(csv.meta.format).toBe("csv");
    expect(modeOf(renderPreview(csv, none))).toBe("preformatted");

    const binary = await shape(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]));
    expect(binary.meta.format).toBe("binary");
    expect(modeOf(renderPreview(binary, none))).toBe("preformatted");

    const log = await shape("2026-03-01 10:00:00 INFO up\n# heading-like\n", { tool: "bash" });
    expect(log.meta.format).toBe("text");
    expect(modeOf(renderPreview(log, none))).toBe("preformatted");
    const article = await shape(plainTexts[0]?.input ?? "", { tool: "notes" });
    expect(article.meta.format).toBe("text");
    expect(modeOf(renderPreview(article, none))).toBe("markdown");
  });

  it("the caller can override the mode, and an unknown mode is an options error", async () => {
    const log = await shape("line one\nline two", { tool: "bash" });
    expect(modeOf(renderPreview(log, { ...none, mode: "markdown" }))).toBe("markdown");
    expect(renderPreview(log, { ...none, mode: "markdown" })).toContain(
      "<p>line one\nline two</p>",
    );
    expect(
      modeOf(renderPreview(plainTexts[0]?.input ?? "", { ...none, mode: "preformatted" })),
    ).toBe("preformatted");
    expect(() => renderPreview("x", { mode: "pre" as never })).toThrow(
      expect.objectContaining({ code: "options/invalid" }),
    );
  });
});

describe("renderPreview preformatted: the text as the tool printed it", () => {
  const pre = { sanitize: "none", mode: "preformatted" } as const;
  const body = (html: string) => /<pre class="airlock-pre">([\s\S]*)<\/pre>/.exec(html)?.[1];

  it("keeps every line break, blank lines and indentation, in one <pre>", () => {
    const html = renderPreview("first\n\n  indented\n\ttab\n\nlast", pre);
    expect(html.match(/<pre/g)).toHaveLength(1);
    expect(body(html)).toBe("first\n\n  indented\n\ttab\n\nlast");
  });

  it("keeps a first blank line, which the HTML parser would drop after <pre>", () => {
    const html = renderPreview("\nsecond line", pre);
    expect(body(html)).toBe('<span class="airlock-line"></span>\nsecond line');
  });

  it("reads nothing as markdown or markup: every character is text", () => {
    const html = renderPreview(
      '# h\n- item\n**bold** _em_ [a](https://example.com) ![i](https://example.com/i.png)\n<b onclick="x">&amp;</b> `code`',
      pre,
    );
    for (const tag of ["<h1", "<li", "<strong", "<em", "<a ", "<img", "<code", "<b "]) {
      expect(html, tag).not.toContain(tag);
    }
    expect(body(html)).toBe(
      "# h\n- item\n**bold** _em_ [a](https://example.com) ![i](https://example.com/i.png)\n&lt;b onclick=&quot;x&quot;&gt;&amp;amp;&lt;/b&gt; `code`",
    );
  });

  it("markers, in-line markers, redactions and invisible characters are inline elements", () => {
    const html = renderPreview(
      "head\n[airlock: omitted lines 2-98]\nlong [airlock: 4000 chars omitted from this line] end\nrun [airlock: 3000 chars folded]\ntoken=[REDACTED:github_token] \u202Eevil",
      pre,
    );
    expect(body(html)).toBe(
      [
        "head",
        '<span class="airlock-marker">omitted lines 2-98</span>',
        'long <span class="airlock-marker">4000 chars omitted from this line</span> end',
        'run <span class="airlock-marker">3000 chars folded</span>',
        'token=<span class="airlock-redacted">redacted: github_token</span> <span class="airlock-invisible">U+202E</span>evil',
      ].join("\n"),
    );
    expect(html).not.toContain("\u202E");
  });

  it("a shaped log keeps its lines and its markers", async () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `2026-03-01 10:00:${String(i % 60).padStart(2, "0")} INFO step ${i + 1}`,
    );
    lines[1500] = "2026-03-01 10:25:00 ERROR charge failed: upstream timeout after 30000ms";
    const shaped = await shape(lines.join("\n"), { tool: "bash", maxTokens: 400 });
    const html = renderPreview(shaped, none);
    expect(modeOf(html)).toBe("preformatted");
    const shown = body(html) ?? "";
    // One line of the block for each line of the text between the fence lines.
    expect(shown.split("\n")).toHaveLength(toolLines(shaped.text).length - 2);
    expect(shown).toContain("ERROR charge failed: upstream timeout after 30000ms");
    expect(shown).toMatch(/<span class="airlock-marker">omitted lines \d+-\d+<\/span>/);
  });

  it("emits only the preview's elements, and no style or handler, for any input", () => {
    const inputs = [
      '<div style="x">a</div>',
      "<a href=# onclick=alert(1)>x</a>",
      "| a | b |\n| :-- | --: |\n| 1 | 2 |",
      "[airlock: <img src=x onerror=alert(1)>]",
      "x [REDACTED:<b>] y [airlock: 12 chars folded]",
      "</pre><script>alert(1)</script>",
    ];
    for (const input of inputs) {
      const html = renderPreview(input, { ...pre, images: true });
      expect(html, input).not.toMatch(/<[^>]*\s(?:style|on[a-z]+)=/i);
      for (const [, tag] of html.matchAll(/<([a-z0-9]+)[\s>]/gi)) {
        expect(
          PREVIEW_ELEMENTS.has(tag?.toLowerCase() ?? "") && tag !== "img",
          `${input}: <${tag}>`,
        ).toBe(true);
      }
      expect(html.match(/<\/pre>/g), input).toHaveLength(1);
    }
  });
});
