/**
 * The preview as a person sees it: four of the playground's samples (the 50 MB log, a failing
 * test run, a JSON issue list, an article page) shaped as the playground shapes them, rendered by
 * `renderPreview` on the server path (no DOM, as a Worker would), served with `preview.css` under
 * a strict CSP and laid out by Debian's Chromium in the light and the dark scheme. Screenshots go
 * to test-results/preview/ (git-ignored) as artifacts; nothing is compared with a baseline.
 *
 * Checked on the way: the renderer each result gets, line breaks that survive in preformatted
 * mode (rendered lines counted in Chromium, with the markdown renderer over the same text as the
 * negative control), the dark scheme applied, and no CSP violation or console error.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright";
import { afterAll, describe, expect, it } from "vitest";
import { catalog } from "../../demo/catalog.ts";
import { generate } from "../../demo/generators.ts";
import { type Shaped, shape } from "../../src/index.js";
import { type PreviewOptions, renderPreview } from "../../src/preview/index.js";
import { CHROMIUM_LAUNCH } from "../helpers/chromium.js";
import { toolLines } from "../helpers/markers.js";
import { setupOrFail } from "../helpers/setup.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const screens = `${root}test-results/preview`;
const ORIGIN = "http://preview.airlock.test";
const CSP = "default-src 'none'; style-src 'self'; img-src 'none'; base-uri 'none'";
const css = readFileSync(`${root}src/preview/preview.css`, "utf8");
const PAGE_CSS = `body { margin: 16px; font: 14px system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { body { background: #0b0e11; color: #d7dde5; } }`;

const SAMPLES = [
  { id: "app-log", shows: "a log", mode: "preformatted" },
  { id: "test-run", shows: "a command failure", mode: "preformatted" },
  { id: "issues", shows: "JSON records", mode: "preformatted" },
  { id: "article", shows: "an article", mode: "markdown" },
] as const;

let browser: Browser;
let page: Page;
const shaped = new Map<string, Shaped>();
/** Pages served by the route below, by path. */
const served = new Map<string, string>();
const problems: string[] = [];

function documentFor(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><link rel="stylesheet" href="/preview.css"><link rel="stylesheet" href="/page.css"></head><body>${body}</body></html>`;
}

/** Serves `html` (renderPreview's output, written into the page as a server would) and opens it. */
async function open(path: string, html: string): Promise<void> {
  served.set(path, documentFor(path, html));
  await page.goto(`${ORIGIN}${path}`);
}

/** Rendered lines of an element's content: its height over its line height, in Chromium. */
function renderedLines(selector: string): Promise<number> {
  return page.$eval(selector, (el) => {
    const style = getComputedStyle(el);
    const content =
      el.getBoundingClientRect().height -
      Number.parseFloat(style.paddingTop) -
      Number.parseFloat(style.paddingBottom);
    return Math.round(content / Number.parseFloat(style.lineHeight));
  });
}

describe("preview screenshots in Chromium", () => {
  setupOrFail(async () => {
    mkdirSync(screens, { recursive: true });
    for (const { id } of SAMPLES) {
      const info = catalog.find((c) => c.id === id);
      const sample = generate(id);
      shaped.set(
        id,
        await shape(sample.input as never, {
          tool: info?.tool ?? id,
          maxTokens: 600,
          ...(sample.contentType ? { contentType: sample.contentType } : {}),
          ...(info?.fields ? { fields: info.fields } : {}),
        }),
      );
    }
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => {
        console.error(`csp: ${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/preview.css" || path === "/page.css") {
        return route.fulfill({
          contentType: "text/css",
          body: path === "/page.css" ? PAGE_CSS : css,
        });
      }
      const body = served.get(path);
      if (body === undefined) return route.fulfill({ status: 404, body: "" });
      return route.fulfill({
        contentType: "text/html; charset=utf-8",
        headers: { "content-security-policy": CSP },
        body,
      });
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
  });

  it.each(SAMPLES)(
    "$id ($shows): $mode, screenshots in light and dark",
    async ({ id, mode }) => {
      const result = shaped.get(id) as Shaped;
      const html = renderPreview(result);
      expect(html).toContain(`airlock-preview airlock-${mode}`);
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await open(`/${id}-${scheme}`, html);
        const background = await page.$eval(
          ".airlock-preview",
          (el) => getComputedStyle(el).backgroundColor,
        );
        expect(background, scheme).toBe(
          scheme === "dark" ? "rgb(21, 25, 30)" : "rgb(255, 255, 255)",
        );
        await page
          .locator(".airlock-preview")
          .screenshot({ path: `${screens}/${id}-${scheme}.png` });
      }
      if (mode === "preformatted") {
        const lines = toolLines(result.text).length - 2; // the fence lines are the header
        expect(await renderedLines("pre.airlock-pre")).toBeGreaterThanOrEqual(lines);
      }
    },
    120_000,
  );

  it("line breaks survive in preformatted mode: rendered lines counted in Chromium", async () => {
    const log = shaped.get("app-log") as Shaped;
    const lines = toolLines(log.text).length - 2;
    expect(lines).toBeGreaterThan(10);
    await page.emulateMedia({ colorScheme: "light" });
    // Wide enough that no line wraps: one rendered line per line of the text.
    await page.setViewportSize({ width: 2400, height: 900 });
    await open("/lines-pre", renderPreview(log, { mode: "preformatted" }));
    expect(await renderedLines("pre.airlock-pre")).toBe(lines);
    // Negative control: the markdown renderer over the same text runs its lines together.
    const markdown: PreviewOptions = { mode: "markdown" };
    await open("/lines-markdown", renderPreview(log, markdown));
    expect(await page.$("pre.airlock-pre")).toBeNull();
    const paragraphs = await page.$$eval(".airlock-body p", (ps) =>
      ps.map((p) => {
        const style = getComputedStyle(p);
        return Math.round(p.getBoundingClientRect().height / Number.parseFloat(style.lineHeight));
      }),
    );
    const total = paragraphs.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThan(lines / 2);
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 60_000);

  it("reported no CSP violation and no console error", () => {
    expect(problems).toEqual([]);
  });
});
