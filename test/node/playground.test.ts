/**
 * The playground, built for production and served by `vite preview` under its strict CSP, driven
 * in Debian's Chromium: every built-in sample, a budget change, paste, a file drop, cancelling a
 * 50 MB job, the read-more panel's read_result calls; no console error, no page error and no CSP
 * violation anywhere in the run.
 * Screenshots of the main views go to test-results/playground/ (git-ignored).
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright";
import type { PreviewServer } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import { catalog } from "../../demo/catalog.ts";
import { PLAYGROUND_CSP } from "../../demo/csp.ts";
import { ceilingOf } from "../../src/index.js";
import { CHROMIUM_LAUNCH } from "../helpers/chromium.js";
import { recordViolations, serveDemo } from "../helpers/demo.js";
import { isNumbered, toolLines } from "../helpers/markers.js";
import { setupOrFail } from "../helpers/setup.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Outside demo/dist, so the test never overwrites what `npm run demo:build` made.
const outDir = `${root}node_modules/.cache/airlock-playground`;
const screens = `${root}test-results/playground`;

let server: PreviewServer;
let browser: Browser;
let page: Page;
let url: string;
const problems: string[] = [];

interface Shown {
  state: string;
  status: string;
  text: string;
  tokens: number;
  budget: number;
  removed: string;
  cutMap: string;
  preview: string;
  /** The preview's renderer: `preformatted` or `markdown`. */
  previewMode: string;
  /** Lines in the preview's preformatted block (0 when it has none). */
  previewLines: number;
  adapters: string;
}

/** Does `action`, then waits for the next finished run and reads the views. */
async function shaped(action: () => Promise<unknown>): Promise<Shown> {
  const before = await page.evaluate(() => Number(document.body.dataset.runs ?? 0));
  await action();
  await page.waitForFunction((n) => Number(document.body.dataset.runs ?? 0) > n, before, {
    timeout: 90_000,
  });
  return page.evaluate(() => {
    const text = (s: string) => document.querySelector(s)?.textContent ?? "";
    const counts = /^([\d,]+) of ([\d,]+) tokens/.exec(text("#tokens"));
    const num = (s: string | undefined) => Number((s ?? "NaN").replace(/,/g, ""));
    return {
      state: document.querySelector<HTMLElement>("#status")?.dataset.state ?? "",
      status: text("#status"),
      text: text("#out"),
      tokens: num(counts?.[1]),
      budget: num(counts?.[2]),
      removed: text("#removed"),
      cutMap: text("#cut-map"),
      preview: text("#preview"),
      previewMode:
        /airlock-(preformatted|markdown)/.exec(
          document.querySelector("#preview .airlock-preview")?.className ?? "",
        )?.[1] ?? "",
      previewLines: (document.querySelector("#preview pre.airlock-pre")?.textContent ?? "").split(
        "\n",
      ).length,
      adapters: text("#adapters"),
    };
  });
}

const selectSample = (id: string) => shaped(() => page.selectOption("#sample", id));

describe("playground (built, served under its CSP, in Chromium)", () => {
  // A missing browser fails every test here; none is skipped.
  setupOrFail(async () => {
    mkdirSync(screens, { recursive: true });
    server = await serveDemo(outDir);
    url = server.resolvedUrls?.local[0] ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.addInitScript(recordViolations);
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning")
        problems.push(`console.${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    page.on("requestfailed", (r) => problems.push(`requestfailed: ${r.url()}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => server?.httpServer.close(() => done()));
  });

  it("is served with the CSP as a header and as a meta tag", async () => {
    const response = await page.goto(url);
    expect(response?.headers()["content-security-policy"]).toBe(PLAYGROUND_CSP);
    const meta = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
    expect(meta).toBe(PLAYGROUND_CSP);
    // The first sample (the 50 MB log) shapes on load.
    await page.waitForFunction(() => Number(document.body.dataset.runs ?? 0) >= 1, null, {
      timeout: 90_000,
    });
  }, 120_000);

  it("keeps the error from the middle of a 50 MB log within the budget", async () => {
    const shown = await selectSample("app-log");
    expect(shown.state).toBe("done");
    expect(shown.text).toContain("charge failed: upstream timeout after 30000ms");
    expect(shown.tokens).toBeLessThanOrEqual(shown.budget);
    expect(shown.budget).toBe(600);
    expect(shown.cutMap).toMatch(/lines [\d,]+–[\d,]+ omitted/);
    // The log reads like a log in the preview: preformatted, one line of the block a line.
    expect(shown.previewMode).toBe("preformatted");
    expect(shown.previewLines).toBe(toolLines(shown.text).length - 2);
    expect(shown.preview).toContain("charge failed: upstream timeout after 30000ms");
    await page.screenshot({ path: `${screens}/app-log-page.png`, fullPage: true });
    await page.locator("#preview").screenshot({ path: `${screens}/app-log-preview.png` });
    await page.locator("#out").screenshot({ path: `${screens}/model-text.png` });
    await page.locator("#cut-map").screenshot({ path: `${screens}/cut-map.png` });
  }, 120_000);

  it("shapes every built-in sample within the budget", async () => {
    for (const { id } of catalog) {
      const shown = await selectSample(id);
      expect(shown.state, id).toBe("done");
      expect(shown.text.length, id).toBeGreaterThan(0);
      expect(shown.tokens, id).toBeLessThanOrEqual(shown.budget);
      expect(shown.preview.length, id).toBeGreaterThan(0);
      expect(shown.adapters, id).toContain("tool_result");
      // Pages are rendered as markdown; everything else reads like the tool's output.
      expect(shown.previewMode, id).toBe(id === "article" ? "markdown" : "preformatted");
      if (id === "test-run") expect(shown.text).toContain("AssertionError: expected 90 to be 81");
      if (id === "article") {
        expect(shown.text).toContain("How we cut our CI time in half");
        expect(shown.text).not.toMatch(/ignore all previous instructions|developer mode/i);
        expect(shown.preview).not.toMatch(/ignore all previous instructions|developer mode/i);
        expect(shown.removed).toMatch(/page: hidden/);
        await page.locator("#preview").screenshot({ path: `${screens}/article-preview.png` });
      }
      if (id === "env") {
        const secrets = /AKIA[A-Z2-7]{16}|ghp_[A-Za-z0-9]{36}|sk_live_[A-Za-z0-9]{24}|xoxb-\d/;
        for (const view of [shown.text, shown.preview, shown.adapters]) {
          expect(view).not.toMatch(secrets);
        }
        expect(shown.text).toContain("[REDACTED:");
        expect(shown.removed).toMatch(/secret: \w+ × \d/);
        await page.locator(".views").screenshot({ path: `${screens}/env-redactions.png` });
      }
      if (id === "issues") {
        // The sample's projection is applied: the model sees numbers and titles, not avatars.
        expect(shown.text).toContain('"number"');
        expect(shown.text).not.toContain("avatar_url");
        expect(shown.cutMap).toMatch(/records \(json\): [\d,]+ shown of 300/);
      }
      if (id === "sql") expect(shown.text).toContain("card_declined");
      if (id === "binary") expect(shown.text).toContain("image/png");
      if (id === "build") expect(shown.text).toContain("error[E0308]: mismatched types");
      if (id === "injection") {
        // The forged closing tag stays as text: its boundary is not the fence's.
        const boundary = /^<untrusted-data [^>]*boundary="([0-9a-f]{16}|\d{9})">/.exec(
          shown.text,
        )?.[1];
        expect(boundary).toBeDefined();
        expect(boundary).not.toBe("0123456789abcdef");
        expect(shown.text.endsWith(`</untrusted-data boundary="${boundary}">`)).toBe(true);
      }
    }
    await page.locator("#adapters").screenshot({ path: `${screens}/adapters.png` });
  }, 300_000);

  it("follows the budget and the other controls", async () => {
    await selectSample("test-run");
    const small = await shaped(() => page.fill("#budget", "200"));
    expect(small.budget).toBe(200);
    expect(small.tokens).toBeLessThanOrEqual(200);
    // The attacker's ceiling for the options in use, as the library computes it.
    const ceilingShown = async () =>
      Number(
        /at most ([\d,]+) tokens/
          .exec((await page.textContent("#ceiling")) ?? "")?.[1]
          ?.replace(/,/g, ""),
      );
    expect(await ceilingShown()).toBe(
      (await ceilingOf({ maxTokens: 200, tool: "npm_test" })).tokens,
    );
    const large = await shaped(() => page.fill("#budget", "3000"));
    expect(large.budget).toBe(3000);
    expect(large.tokens).toBeLessThanOrEqual(3000);
    expect(large.tokens).toBeGreaterThan(small.tokens);
    expect(large.text).toContain("AssertionError");
    const cl100k = await shaped(() => page.selectOption("#tokenizer", "cl100k_base"));
    expect(await page.textContent("#tokens")).toContain("cl100k_base");
    expect(cl100k.tokens).toBeLessThanOrEqual(3000);
    const unfenced = await shaped(() => page.uncheck("#untrusted"));
    expect(unfenced.text).not.toContain("<untrusted-data");
    expect(await ceilingShown()).toBe(3000);
    await shaped(() => page.check("#untrusted"));
    await shaped(() => page.selectOption("#tokenizer", "o200k_base"));
    await shaped(() => page.fill("#budget", "600"));

    const marked = await shaped(() => page.selectOption("#spotlight", "datamark"));
    expect(marked.text).toContain("\u00a4");
    await shaped(() => page.selectOption("#spotlight", "fence"));

    await selectSample("app-log");
    const capped = await shaped(() => page.fill("#max-bytes", "1"));
    expect(capped.cutMap).toMatch(/reading stopped at [\d,]+ bytes \(maxBytes 1,048,576\)/);
    await shaped(() => page.fill("#max-bytes", "256"));

    await selectSample("env");
    const unredacted = await shaped(() => page.uncheck("#redact"));
    expect(unredacted.text).toMatch(/ghp_[A-Za-z0-9]{36}/);
    expect(unredacted.removed).toContain("redaction is off");
    const redacted = await shaped(() => page.check("#redact"));
    expect(redacted.text).not.toMatch(/ghp_[A-Za-z0-9]{36}/);
  }, 180_000);

  it("shapes pasted text, an opened file and a dropped file", async () => {
    const log = [
      ...Array.from({ length: 3000 }, (_, i) => `line ${i + 1} ok`),
      "FATAL: disk quota exceeded on /var/lib/data",
      ...Array.from({ length: 3000 }, (_, i) => `line ${i + 3002} ok`),
    ].join("\n");
    await page.click(".paste summary");
    const pasted = await shaped(async () => {
      // Set as a paste would: Playwright's fill() types multi-line text in quadratic time.
      await page.locator("#paste").evaluate((el: HTMLTextAreaElement, text) => {
        el.value = text;
        el.dispatchEvent(new Event("input", { bubbles: true }));
      }, log);
      await page.click("#shape-paste");
    });
    expect(pasted.text).toContain("FATAL: disk quota exceeded");
    expect(pasted.status).toContain("pasted text");

    const opened = await shaped(() =>
      page.setInputFiles("#file", {
        name: "server.log",
        mimeType: "text/plain",
        buffer: Buffer.from(log.replace("disk quota", "opened file quota")),
      }),
    );
    expect(opened.text).toContain("FATAL: opened file quota exceeded");
    expect(opened.status).toContain("server.log");

    const dropped = await shaped(() =>
      page.evaluate(
        (text) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([text], "dropped.log", { type: "text/plain" }));
          document.body.dispatchEvent(
            new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }),
          );
        },
        log.replace("disk quota", "dropped file quota"),
      ),
    );
    expect(dropped.text).toContain("FATAL: dropped file quota exceeded");
    expect(dropped.status).toContain("dropped.log");
    await page.locator(".input").screenshot({ path: `${screens}/input-controls.png` });
  }, 120_000);

  it("cancels a running job and stays usable", async () => {
    await page.selectOption("#sample", "app-log");
    await page.waitForFunction(
      () => /reading [\d.]+ MiB of/.test(document.querySelector("#status")?.textContent ?? ""),
      null,
      { timeout: 60_000 },
    );
    // The page answers while the worker reads.
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    await page.click("#cancel");
    expect(await page.getAttribute("#status", "data-state")).toBe("cancelled");
    const after = await selectSample("test-run");
    expect(after.state).toBe("done");
    expect(after.text).toContain("AssertionError");
  }, 120_000);

  it("the read-more panel issues read_result calls and shows exactly what the model gets back", async () => {
    /** Clicks, waits for the next finished read, and reads the panel. */
    const readMore = async (action: () => Promise<unknown>) => {
      const before = await page.evaluate(() => Number(document.body.dataset.reads ?? 0));
      await action();
      await page.waitForFunction((n) => Number(document.body.dataset.reads ?? 0) > n, before, {
        timeout: 60_000,
      });
      return page.evaluate(() => {
        const text = (s: string) => document.querySelector(s)?.textContent ?? "";
        const counts = /^([\d,]+) of ([\d,]+) tokens/.exec(text("#read-tokens"));
        const num = (s: string | undefined) => Number((s ?? "NaN").replace(/,/g, ""));
        return {
          out: text("#read-out"),
          call: text("#read-call"),
          tokens: num(counts?.[1]),
          budget: num(counts?.[2]),
          status: text("#read-tokens"),
        };
      });
    };
    // The 50 MB log: stored in the worker, its handle in the text and in the panel.
    const log = await selectSample("app-log");
    const handle = /read_result \{"handle":"(res_[0-9a-f]{24})"/.exec(log.text)?.[1];
    expect(handle).toBeDefined();
    expect(await page.textContent("#read-handle")).toContain(`Stored as ${handle}`);
    // The next page is the call the text names; the panel shows the page as the model reads it.
    const named = /read_result (\{[^\]]*\}) \(it also takes/.exec(log.text)?.[1] as string;
    const first = await readMore(() => page.click("#read-next"));
    expect(first.call).toBe(`read_result ${named}`);
    expect(first.out.startsWith('<untrusted-data source="tool:read_result"')).toBe(true);
    // The page starts where the call says: after the lines before it, or at the log's first line.
    const from = (JSON.parse(named) as { lines?: { from?: number } }).lines?.from ?? 1;
    if (from > 2) expect(first.out).toContain(`[airlock: omitted lines 1-${from - 1}]`);
    else if (from === 2) expect(first.out).toContain("[airlock: omitted line 1]");
    else expect(first.out).toContain("2026-11-30T08:00:00.001Z ");
    expect(first.tokens).toBeLessThanOrEqual(first.budget);
    const second = await readMore(() => page.click("#read-next"));
    expect(second.call).not.toBe(first.call);
    expect(second.out).toContain("to read on call read_result");
    // A line range, and a grep that finds the error in the middle of the 50 MB.
    await page.fill("#read-from", "100");
    await page.fill("#read-to", "104");
    const lines = await readMore(() => page.click("#read-lines"));
    expect(lines.call).toBe(`read_result {"handle":"${handle}","lines":{"from":100,"to":104}}`);
    const body = lines.out
      .split("\n")
      .filter((l) => !l.startsWith("[airlock") && !l.includes("untrusted-data"));
    expect(body).toHaveLength(5);
    // Where the lines are: a gap marker before them, or (five lines cost less numbered than
    // two gap markers) each line's own number.
    if (isNumbered(lines.out))
      expect(body.map((l) => l.split("\t")[0])).toEqual(["100", "101", "102", "103", "104"]);
    else expect(lines.out).toContain("[airlock: omitted lines 1-99]");
    await page.fill("#read-grep", "charge failed");
    const grep = await readMore(() => page.click("#read-grep-go"));
    expect(grep.out).toContain("charge failed: upstream timeout after 30000ms");
    expect(grep.tokens).toBeLessThanOrEqual(grep.budget);
    const bad = await readMore(async () => {
      await page.fill("#read-grep", "/(a)\\1/");
      await page.click("#read-grep-go");
    });
    expect(bad.out).toContain("backreferences are not supported");
    expect(bad.status).toContain("error");
    await page.locator(".read-view").screenshot({ path: `${screens}/read-more-log.png` });

    // Records: a filter, paged on with the cursor the page names.
    await selectSample("issues");
    expect(await page.isDisabled("#read-filter")).toBe(false);
    expect(await page.isDisabled("#read-grep-go")).toBe(true);
    await page.fill("#read-where", '{"state": "open", "comments": {"gte": "3"}}');
    const open = await readMore(() => page.click("#read-filter"));
    const data = /\ndata: (\[[\s\S]*?\n\])\n/.exec(open.out)?.[1];
    const records = JSON.parse(data ?? "[]") as Array<{ state: string; comments: number }>;
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.state === "open" && r.comments >= 3)).toBe(true);
    expect(open.tokens).toBeLessThanOrEqual(open.budget);
    if (open.out.includes('"cursor":"cur_')) {
      const more = await readMore(() => page.click("#read-next"));
      expect(more.call).toContain('"cursor":"cur_');
      expect(more.out).toContain("records");
    }
    const unknown = await readMore(async () => {
      await page.fill("#read-where", '{"stat": "open"}');
      await page.click("#read-filter");
    });
    expect(unknown.out).toContain('no record has the field "stat"');
    await page.locator(".read-view").screenshot({ path: `${screens}/read-more-records.png` });
  }, 180_000);

  it("reported no console error, page error or CSP violation", async () => {
    const violations = await page.evaluate(
      () => (window as unknown as { __violations: string[] }).__violations,
    );
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("enforces Trusted Types (negative control for the violation recorder)", async () => {
    const control = await browser.newPage();
    await control.addInitScript(recordViolations);
    await control.goto(url);
    const threw = await control.evaluate(() => {
      try {
        document.body.innerHTML = "<img src=x>";
        return false;
      } catch {
        return true;
      }
    });
    expect(threw).toBe(true);
    const violations = await control.evaluate(
      () => (window as unknown as { __violations: string[] }).__violations,
    );
    expect(violations.some((v) => v.startsWith("require-trusted-types-for"))).toBe(true);
    await control.close();
  }, 60_000);
});
