import { describe, expect, it } from "vitest";
import { shape } from "../../src/index.js";
import { renderPreview } from "../../src/preview/index.js";
import { PREVIEW_ELEMENTS } from "../helpers/preview.js";

const none = { sanitize: "none" } as const;

describe("renderPreview: safe by construction (the no-DOM path)", () => {
  it("escapes raw HTML from the tool instead of rendering it", () => {
    const html = renderPreview('<img src=x onerror="alert(1)"><script>alert(2)</script>', none);
    expect(html).not.toMatch(/<img|<script/i);
    expect(html).toContain("&lt;img src=x onerror=");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
  });

  it("links only http(s) and mailto, with rel, and drops script URLs keeping their text", () => {
    const html = renderPreview(
      "[a](https://example.com/x?a=1&b=2) [b](javascript:alert(1)) [c](mailto:a@example.com) [d](data:text/html,x)",
      none,
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
    expect(renderPreview("![cat](https://example.com/c.png)", none)).toContain(
      '<span class="airlock-image">[image: cat]</span>',
    );
    const shown = renderPreview(
      "![cat](https://example.com/c.png) ![x](http://example.com/x.png)",
      {
        ...none,
        images: true,
      },
    );
    expect(shown).toContain(
      '<img src="https://example.com/c.png" alt="cat" referrerpolicy="no-referrer">',
    );
    expect(shown).not.toContain("http://example.com/x.png");
  });

  it("code keeps its angle brackets as text", () => {
    const html = renderPreview("```\nif (a < b) { return '<b>'; }\n```\n\nand `x<y`", none);
    expect(html).toContain("if (a &lt; b) { return &#39;&lt;b&gt;&#39;; }");
    expect(html).toContain("<code>x&lt;y</code>");
  });

  it("markers, redactions and invisible characters are elements of their own", () => {
    const html = renderPreview(
      "head\n[airlock: lines 3–98 of 100 omitted]\ntoken [REDACTED:github_token] here \u202Eevil",
      none,
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
      const html = renderPreview(input, none);
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
    const auto = renderPreview(input);
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
