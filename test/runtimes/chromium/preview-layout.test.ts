import { afterEach, describe, expect, it } from "vitest";
import { shape } from "../../../src/index.js";
import { type PreviewOptions, renderPreview } from "../../../src/preview/index.js";
import "../../../src/preview/preview.css";
import { toolLines } from "../../helpers/markers.js";

/**
 * What the preview looks like once Chromium has laid it out, on the browser path (DOMPurify's
 * pass included), with `preview.css`: line breaks survive in preformatted mode, counted as
 * rendered lines (the block's content height over its line height), long lines wrap instead of
 * widening the page, and the dark scheme applies. The markdown renderer over the same log is
 * the negative control: it reflows the lines into one paragraph, and the count catches it.
 */

const hosts: HTMLElement[] = [];

afterEach(() => {
  for (const host of hosts.splice(0)) host.remove();
});

/** Inserts the preview into a host of the given width; the markup came from renderPreview. */
function mount(html: string, width: number): HTMLElement {
  const host = document.createElement("div");
  host.style.width = `${width}px`;
  document.body.append(host);
  hosts.push(host);
  // The test page enforces no Trusted Types; the string is renderPreview's own output.
  host.innerHTML = html;
  return host;
}

/** Rendered lines of a block: its content height divided by its computed line height. */
function renderedLines(el: Element): number {
  const style = getComputedStyle(el);
  const content =
    el.getBoundingClientRect().height -
    Number.parseFloat(style.paddingTop) -
    Number.parseFloat(style.paddingBottom) -
    Number.parseFloat(style.borderTopWidth) -
    Number.parseFloat(style.borderBottomWidth);
  return Math.round(content / Number.parseFloat(style.lineHeight));
}

const log = Array.from(
  { length: 40 },
  (_, i) => `2026-03-01 10:00:${String(i).padStart(2, "0")} INFO worker ${i % 4} step ${i + 1}`,
).join("\n");

describe("preview layout in Chromium", () => {
  it("preformatted: one rendered line per line of the log, in a monospace <pre>", () => {
    const host = mount(renderPreview(log, { mode: "preformatted" }), 1200);
    const pre = host.querySelector("pre.airlock-pre");
    expect(pre).not.toBeNull();
    expect(renderedLines(pre as Element)).toBe(40);
    const style = getComputedStyle(pre as Element);
    expect(style.whiteSpace).toBe("pre-wrap");
    expect(style.fontFamily).toMatch(/monospace/);
  });

  it("negative control: the markdown renderer runs the same lines together", () => {
    const host = mount(renderPreview(log, { mode: "markdown" }), 1200);
    expect(host.querySelector("pre")).toBeNull();
    const paragraphs = host.querySelectorAll(".airlock-body p");
    expect(paragraphs).toHaveLength(1);
    // 40 log lines reflowed as prose fill far fewer lines at this width.
    expect(renderedLines(paragraphs[0] as Element)).toBeLessThan(20);
  });

  it("keeps blank lines, a first blank line and markers as lines, through DOMPurify's pass", () => {
    const text = "\nafter a blank first line\n\n[airlock: omitted lines 4-9]\nlast";
    for (const sanitize of ["auto", "none"] as const) {
      const options: PreviewOptions = { mode: "preformatted", sanitize };
      const host = mount(renderPreview(text, options), 1200);
      const pre = host.querySelector("pre.airlock-pre") as Element;
      expect(renderedLines(pre), sanitize).toBe(5);
      expect(pre.querySelector(".airlock-marker")?.textContent).toBe("omitted lines 4-9");
    }
  });

  it("a shaped log: every line of its text is a rendered line, markers included", async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `req ${i + 1} GET /api/items 200 4ms`);
    lines[2500] = "req 2501 GET /api/items 500 upstream timeout after 30000ms";
    const shaped = await shape(lines.join("\n"), { tool: "tail_logs", maxTokens: 600 });
    expect(shaped.meta.format).toBe("text");
    const host = mount(renderPreview(shaped), 4000);
    expect(host.querySelector(".airlock-preview")?.classList).toContain("airlock-preformatted");
    const pre = host.querySelector("pre.airlock-pre") as Element;
    const textLines = toolLines(shaped.text).length - 2; // without the fence lines
    expect(textLines).toBeGreaterThan(20);
    expect(renderedLines(pre)).toBe(textLines);
    expect(pre.querySelectorAll(".airlock-marker").length).toBeGreaterThanOrEqual(2);
  });

  it("wraps a long line inside the block instead of widening it", () => {
    const host = mount(renderPreview(`short\n${"x".repeat(3000)}\nshort`, {}), 600);
    const pre = host.querySelector("pre.airlock-pre") as HTMLElement;
    expect(renderedLines(pre)).toBeGreaterThan(3);
    expect(pre.scrollWidth).toBeLessThanOrEqual(pre.clientWidth);
  });

  it("has a dark scheme that follows prefers-color-scheme", () => {
    const host = mount(renderPreview(log), 600);
    const root = host.querySelector(".airlock-preview") as Element;
    const dark = matchMedia("(prefers-color-scheme: dark)").matches;
    const background = getComputedStyle(root).backgroundColor;
    // The light background is white; the dark one is not (the test browser is light by default).
    expect(background).toBe(dark ? "rgb(21, 25, 30)" : "rgb(255, 255, 255)");
    const css = [...document.styleSheets].flatMap((sheet) => {
      try {
        return [...sheet.cssRules].map((rule) => rule.cssText);
      } catch {
        return [];
      }
    });
    const media = css.find((rule) => rule.startsWith("@media (prefers-color-scheme: dark)"));
    expect(media).toContain("--airlock-bg: #15191e");
  });
});
