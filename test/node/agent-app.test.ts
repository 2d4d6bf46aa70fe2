/**
 * The agent app (demo/agent) and the playground's run view, built for production, served by
 * `vite preview` under their CSPs and driven in Debian's Chromium:
 *   - the scripted investigation runs to its end offline: every tool result within its budget
 *     (counted here with gpt-tokenizer, not taken from the page), the model's read_result calls
 *     use the handle its first result names and find the error line (its number computed here
 *     from the log itself), the safe preview shown for every call;
 *   - no secret of the samples reaches the model's messages or the DOM outside the raw view, and
 *     the raw view, revealed, does hold them (the check can fail);
 *   - the real-model path (@ai-sdk/openai, a key, a cross-origin endpoint) against the demo
 *     server's OpenAI-compatible mock: the page's CSP opens that origin alone, the key stays in
 *     the page's memory, and what reached the endpoint holds no secret;
 *   - the run view draws the 40 turns with the numbers of the session's `stats()`, as the same
 *     run played here in Node gives them;
 *   - no console error, page error or CSP violation anywhere.
 * Screenshots go to test-results/agent-app/ (git-ignored).
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { type Browser, chromium, type Page } from "playwright";
import type { PreviewServer } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import { MOCK_PROVIDER, type MockProviderApi } from "../../demo/agent/mock-provider.ts";
import { agentCsp, PLAYGROUND_CSP } from "../../demo/csp.ts";
import { generate } from "../../demo/generators.ts";
import { RUN_CEILING, RUN_KEEP, RUN_MAX_TOKENS, RUN_TURNS, runTurn } from "../../demo/run.ts";
import {
  createMemoryStore,
  createSession,
  type SessionStats,
  type ViewEntry,
} from "../../src/index.js";
import { CHROMIUM_LAUNCH } from "../helpers/chromium.js";
import { recordViolations, serveDemo } from "../helpers/demo.js";
import { setupOrFail } from "../helpers/setup.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
// Its own cache dir: the playground's test builds into another, and may run at the same time.
const outDir = `${root}node_modules/.cache/airlock-agent-app`;
const screens = `${root}test-results/agent-app`;

/** The agent page's budgets (demo/agent/page.ts), as the page is meant to have them. */
const MAX_TOKENS = 1000;
const READ_TOKENS = 800;
const MAX_RUN_TOKENS = 2000;

let server: PreviewServer;
let browser: Browser;
let origin: string;
let mock: MockProviderApi;
const problems: string[] = [];
const consoleText: string[] = [];

/** A new page that reports its problems into `problems` (and every console line into `consoleText`). */
async function watched(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
  await page.addInitScript(recordViolations);
  page.on("console", (m) => {
    consoleText.push(m.text());
    if (m.type() === "error" || m.type() === "warning")
      problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`requestfailed: ${r.url()}`));
  return page;
}

const violationsOf = (page: Page) =>
  page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);

/** Opens an agent page and waits until its script has wired it. */
async function openAgent(page: Page, path: string) {
  const response = await page.goto(`${origin}${path}`);
  await page.waitForSelector("body[data-ready]");
  return response;
}

/** Waits for the end of the agent's run; returns its wall time in ms. */
async function runToEnd(page: Page): Promise<number> {
  const started = Date.now();
  await page.waitForFunction(
    () => document.body.dataset.state === "done" || document.body.dataset.state === "failed",
    null,
    { timeout: 180_000 },
  );
  expect(await page.textContent("#status")).toMatch(/^done: /);
  return Date.now() - started;
}

interface Card {
  tool: string;
  args: Record<string, unknown>;
  status: string;
  tokens: number;
  maxTokens: number;
  facts: string;
  /** Exactly what the model read. */
  text: string;
  preview: string;
  previewMode: string;
}

const cardsOf = (page: Page): Promise<Card[]> =>
  page.$$eval("article.call", (articles) =>
    articles.map((a) => {
      const el = a as HTMLElement;
      return {
        tool: el.dataset.tool ?? "",
        args: JSON.parse(el.querySelector(".call-args")?.textContent ?? "{}"),
        status: el.dataset.status ?? "",
        tokens: Number(el.dataset.tokens),
        maxTokens: Number(el.dataset.maxTokens),
        facts: el.querySelector(".facts")?.textContent ?? "",
        text: el.querySelector(".model-text")?.textContent ?? "",
        preview: el.querySelector(".call-preview")?.textContent ?? "",
        previewMode:
          /airlock-(preformatted|markdown)/.exec(
            el.querySelector(".call-preview .airlock-preview")?.className ?? "",
          )?.[1] ?? "",
      };
    }),
  );

/** Every step's prompt as the page shows what the model was sent. */
async function modelInputs(page: Page): Promise<string[]> {
  const steps = await page.$$eval("#step option", (options) =>
    options.map((o) => (o as HTMLOptionElement).value),
  );
  const out: string[] = [];
  for (const step of steps) {
    await page.selectOption("#step", step);
    out.push((await page.textContent("#model-input")) ?? "");
  }
  return out;
}

/** The line of the 50 MB log that holds the planted error, counted here from the log itself. */
async function errorLineOfLog(): Promise<{ line: number; text: string }> {
  const reader = (generate("app-log").input as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let line = 1;
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the log has no error line");
    rest += decoder.decode(value, { stream: true });
    const lines = rest.split("\n");
    rest = lines.pop() ?? "";
    for (const text of lines) {
      if (text.includes(" ERROR ")) {
        await reader.cancel();
        return { line, text };
      }
      line++;
    }
  }
}

/** The values of the `.env` sample's secrets, read from the raw view (revealed) of the page. */
function secretsIn(raw: string): string[] {
  const keys = [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "GITHUB_TOKEN",
    "STRIPE_SECRET_KEY",
    "SLACK_BOT_TOKEN",
    "SESSION_SECRET",
  ];
  const values = keys.map((key) => new RegExp(`^${key}=(\\S+)$`, "m").exec(raw)?.[1] ?? "");
  const password = /postgres:\/\/shop:([^@\s]+)@/.exec(raw)?.[1] ?? "";
  return [...values, password];
}

describe("the agent app and the run view (built, served under their CSPs, in Chromium)", () => {
  // A missing browser fails every test here; none is skipped.
  setupOrFail(async () => {
    mkdirSync(screens, { recursive: true });
    server = await serveDemo(outDir);
    const url = server.resolvedUrls?.local[0] ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    origin = new URL(url).origin;
    const plugin = server.config.plugins.find((p) => p.name === MOCK_PROVIDER) as
      | { api?: MockProviderApi }
      | undefined;
    if (plugin?.api === undefined) throw new Error("the demo server has no mock provider");
    mock = plugin.api;
    browser = await chromium.launch(CHROMIUM_LAUNCH);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => server?.httpServer.close(() => done()));
  });

  it("serves the agent page under its own CSP, as a header and as a meta tag", async () => {
    const page = await watched();
    const response = await openAgent(page, "/agent/");
    const header = response?.headers()["content-security-policy"];
    expect(header).toBe(agentCsp());
    expect(header).toContain("connect-src 'self';");
    expect(header).not.toContain("unsafe-eval");
    expect(await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content")).toBe(
      header,
    );
    // The playground keeps its own.
    const playground = await fetch(`${origin}/`);
    expect(playground.headers.get("content-security-policy")).toBe(PLAYGROUND_CSP);
    // `/agent` without its slash would load the page's relative assets from `/`.
    const bare = await fetch(`${origin}/agent?autorun`, { redirect: "manual" });
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/agent/?autorun");
    // A provider URL the page may not open leaves the network closed.
    const refused = await openAgent(page, "/agent/?provider=http://evil.example/v1");
    expect(refused?.headers()["content-security-policy"]).toBe(agentCsp());
    expect(await page.textContent("#provider-error")).toContain("not one this page opens");
    await page.close();
  }, 60_000);

  // Filled by the scripted run, read by the tests after it.
  let scripted: Page;
  let cards: Card[] = [];
  let inputs: string[] = [];
  const requests: string[] = [];

  it("runs the scripted investigation offline, to its end, in a few seconds", async () => {
    scripted = await watched();
    scripted.on("request", (r) => requests.push(r.url()));
    await scripted.goto(`${origin}/agent/?autorun`);
    const ms = await runToEnd(scripted);
    console.log(`agent-app: the scripted investigation ran in ${ms} ms`);
    cards = await cardsOf(scripted);
    inputs = await modelInputs(scripted);
    expect(cards.map((c) => c.tool)).toEqual([
      "read_log",
      "read_result",
      "read_result",
      "fetch_page",
      "run_command",
      "query_records",
    ]);
    // Seven model calls: six tool calls and the answer.
    expect(inputs).toHaveLength(7);
    expect(await scripted.getAttribute("body", "data-steps")).toBe("7");
    // Nothing left this machine: every request went to the page's own origin.
    expect(requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    const answer = (await scripted.$$eval(".message.model", (ps) => ps.map((p) => p.textContent)))
      .filter(Boolean)
      .at(-1);
    expect(answer).toContain("charge failed: upstream timeout after 30000ms");
    expect(answer).toContain('"card_declined: insufficient funds"');
    await scripted.screenshot({ path: `${screens}/agent-page.png`, fullPage: true });
  }, 240_000);

  it("keeps every tool result within its budget (counted here, not taken from the page)", () => {
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      const budget = card.tool === "read_result" ? READ_TOKENS : MAX_TOKENS;
      expect(card.maxTokens, card.tool).toBe(budget);
      const counted = countTokens(card.text, { disallowedSpecial: new Set() });
      expect(counted, card.tool).toBeLessThanOrEqual(budget);
      expect(card.tokens, card.tool).toBe(counted);
      expect(card.facts, card.tool).toContain(
        `the model read ${counted.toLocaleString("en-US")} of`,
      );
    }
    // The 50 MB log was cut, and says how to read on.
    expect(cards[0]?.status).toBe("partial");
    expect(cards[0]?.text).toMatch(/to read omitted lines call read_result \{"handle":"res_/);
  });

  it("reads the handle and the line from the text, and its read_result finds the error line", async () => {
    const { line, text: errorLine } = await errorLineOfLog();
    const [log, grep, around] = cards;
    const handle = /"handle":"(res_[0-9a-f]+)"/.exec(log?.text ?? "")?.[1];
    expect(handle).toBeDefined();
    expect(grep?.args).toEqual({ handle, grep: "charge failed" });
    expect(grep?.text).toContain(errorLine);
    // Where the line is: a gap marker before it, or its own number (the numbered layout).
    const text = grep?.text ?? "";
    if (/lines by number/.test(text)) expect(text).toContain(`\n${line}\t${errorLine}`);
    else expect(text).toContain(`[airlock: omitted lines 1-${line - 1}]`);
    // The line number the model asked for is the log's own.
    expect(around?.args).toEqual({ handle, around: line, pageSize: 12 });
    expect(around?.text).toContain(errorLine);
    expect(around?.text).toContain("at PaymentsClient.charge (payments/client.ts:214:11)");
    // The model saw those pages: they are in the prompt of the calls after them.
    expect(inputs[2]).toContain(errorLine);
    expect(inputs[3]).toContain("at PaymentsClient.charge");
  });

  it("shows the safe preview for every call, the page as markdown with its hidden text gone", () => {
    for (const card of cards) {
      expect(card.preview.length, card.tool).toBeGreaterThan(0);
      expect(card.previewMode, card.tool).toBe(
        card.tool === "fetch_page" ? "markdown" : "preformatted",
      );
    }
    const page = cards.find((c) => c.tool === "fetch_page");
    expect(page?.preview).toContain("Charges API: elevated timeouts");
    for (const view of [page?.preview, page?.text, ...inputs]) {
      expect(view).not.toContain("Note to AI agents");
    }
  });

  it("lets no secret reach the model or the page outside the raw view, and the raw view holds them", async () => {
    const config = scripted.locator('article.call[data-tool="run_command"]');
    const raw = config.locator(".raw-text");
    await config.locator("details.raw summary").click();
    const masked = (await raw.textContent()) ?? "";
    expect(masked).toContain("[REDACTED:");
    await config.locator("button.reveal").click();
    expect(await raw.getAttribute("data-revealed")).toBe("true");
    const secrets = secretsIn((await raw.textContent()) ?? "");
    // The control: seven secrets were read from the revealed raw view, so the checks below
    // look for values the page does hold.
    expect(secrets.every((s) => s.length >= 16)).toBe(true);
    expect(new Set(secrets).size).toBe(7);
    for (const secret of secrets) expect(masked).not.toContain(secret);
    // The model's messages, every step of them.
    for (const input of inputs) for (const secret of secrets) expect(input).not.toContain(secret);
    for (const card of cards) for (const secret of secrets) expect(card.text).not.toContain(secret);
    // The page: everything but the raw views (and the revealed one does hold them).
    const [outside, whole] = await scripted.evaluate(() => {
      const copy = document.documentElement.cloneNode(true) as HTMLElement;
      for (const pre of copy.querySelectorAll(".raw-text")) pre.remove();
      return [copy.outerHTML, document.documentElement.outerHTML];
    });
    for (const secret of secrets) {
      expect(outside).not.toContain(secret);
      expect(whole).toContain(secret);
    }
    await config.screenshot({ path: `${screens}/raw-revealed.png` });
    await config.locator("button.reveal").click();
    expect(await raw.textContent()).toBe(masked);
  }, 60_000);

  it("keeps the run's tool results within the session's ceiling, and draws them", async () => {
    const points = await scripted.$$eval("#agent-plot .point.session", (circles) =>
      circles.map((c) => Number((c as SVGElement).dataset.tokens)),
    );
    expect(points).toHaveLength(7);
    for (const tokens of points) expect(tokens).toBeLessThanOrEqual(MAX_RUN_TOKENS);
    // The session graded older results down once the run passed its ceiling.
    expect(await scripted.textContent("#session-stats")).toMatch(/evidence [1-9]/);
    await scripted.locator(".side").screenshot({ path: `${screens}/agent-session.png` });
  });

  it("reported no console error, page error or CSP violation on the scripted run", async () => {
    expect(await violationsOf(scripted)).toEqual([]);
    expect(problems).toEqual([]);
    await scripted.close();
  });

  it("runs against an OpenAI-compatible endpoint with a key, the CSP open to that origin alone", async () => {
    // Another origin than the page's (localhost, not 127.0.0.1): a real provider's case.
    const provider = `http://localhost:${new URL(origin).port}`;
    const page = await watched();
    const seen: string[] = [];
    page.on("request", (r) => seen.push(r.url()));
    const response = await openAgent(
      page,
      `/agent/?provider=${encodeURIComponent(`${provider}/v1`)}&model=mock-investigator`,
    );
    const policy = agentCsp(provider);
    expect(response?.headers()["content-security-policy"]).toBe(policy);
    expect(policy).toContain(`connect-src 'self' ${provider};`);
    expect(await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content")).toBe(
      policy,
    );
    expect(await page.textContent("#mode")).toContain("mock-investigator");

    // Without a key the run stops before any request.
    await page.click("#run");
    await page.waitForFunction(() => document.body.dataset.state === "failed");
    expect(await page.textContent("#status")).toContain("API key");

    const before = mock.requests.length;
    const key = `sk-airlock-test-${Date.now().toString(36)}-not-a-real-key`;
    await page.fill("#key", key);
    await page.click("#run");
    const ms = await runToEnd(page);
    console.log(`agent-app: the same investigation through the mock endpoint ran in ${ms} ms`);
    const bodies = mock.requests.slice(before).map((b) => JSON.stringify(b));
    expect(bodies).toHaveLength(7);
    expect(seen.filter((u) => u.startsWith(`${provider}/v1/chat/completions`))).toHaveLength(7);
    expect(
      seen.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith(`${provider}/`)),
    ).toEqual([]);
    const run = await cardsOf(page);
    expect(run.map((c) => c.tool)).toEqual(cards.map((c) => c.tool));
    for (const card of run) {
      expect(countTokens(card.text, { disallowedSpecial: new Set() })).toBeLessThanOrEqual(
        card.tool === "read_result" ? READ_TOKENS : MAX_TOKENS,
      );
    }
    // What reached the endpoint: airlock's text (a control that the bodies are the run's), and
    // none of the secrets of this run's `.env` dump.
    expect(bodies.at(-1)).toContain("[REDACTED:");
    expect(bodies.at(-1)).toContain("charge failed: upstream timeout after 30000ms");
    const config = page.locator('article.call[data-tool="run_command"]');
    await config.locator("details.raw summary").click();
    await config.locator("button.reveal").click();
    const secrets = secretsIn((await config.locator(".raw-text").textContent()) ?? "");
    expect(new Set(secrets).size).toBe(7);
    for (const body of bodies) for (const secret of secrets) expect(body).not.toContain(secret);

    // The key: sent (the endpoint answers 401 without one), and kept nowhere but the input.
    const kept = await page.evaluate(() => ({
      storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
      cookie: document.cookie,
      url: location.href,
      html: document.documentElement.outerHTML,
    }));
    for (const place of Object.values(kept)) expect(place).not.toContain(key);
    for (const body of bodies) expect(body).not.toContain(key);
    expect(consoleText.join("\n")).not.toContain(key);
    await page.screenshot({ path: `${screens}/agent-provider.png`, fullPage: true });

    expect(await violationsOf(page)).toEqual([]);
    // The control: any other origin stays closed (the recorder sees the violation).
    const blocked = await page.evaluate(
      async (other) => {
        try {
          await fetch(other);
          return false;
        } catch {
          return true;
        }
      },
      `http://127.0.0.2:${new URL(origin).port}/v1/chat/completions`,
    );
    expect(blocked).toBe(true);
    expect((await violationsOf(page)).some((v) => v.startsWith("connect-src"))).toBe(true);
    await page.close();
    // That refusal is the only problem this page reported.
    expect(problems.filter((p) => !p.includes("127.0.0.2"))).toEqual([]);
  }, 240_000);

  it("the playground's run view draws the 40 turns with the numbers of the session's stats()", async () => {
    // The same run, played here in Node through the library.
    const session = createSession({
      maxRunTokens: RUN_CEILING,
      maxTokens: RUN_MAX_TOKENS,
      keepRecent: RUN_KEEP,
      store: createMemoryStore(),
    });
    const shapedTokens: number[] = [];
    const views: ViewEntry[][] = [];
    for (let t = 1; t <= RUN_TURNS; t++) {
      const { tool, input } = runTurn(t);
      const shaped = await session.shape(input(), { callId: `call_${t}`, tool });
      shapedTokens.push(countTokens(shaped.text, { disallowedSpecial: new Set() }));
      views.push(session.view());
    }
    const stats: SessionStats = session.stats();
    expect(stats.views).toHaveLength(RUN_TURNS);

    // "Delete old results" from the same results, worked out here turn by turn: the oldest
    // cleared once a turn passes the ceiling, the last 3 kept, at least a quarter freed.
    const placeholder = countTokens("[tool result cleared]");
    const deleting: Array<{ tokens: number; changed: boolean }> = [];
    const cleared = new Set<number>();
    for (let t = 1; t <= RUN_TURNS; t++) {
      const sum = () =>
        shapedTokens
          .slice(0, t)
          .reduce((total, tokens, i) => total + (cleared.has(i) ? placeholder : tokens), 0);
      let changed = false;
      if (sum() > RUN_CEILING) {
        let freed = 0;
        for (let i = 0; i < t - RUN_KEEP && freed < RUN_CEILING / 4; i++) {
          if (cleared.has(i)) continue;
          cleared.add(i);
          freed += (shapedTokens[i] as number) - placeholder;
          changed = true;
        }
      }
      deleting.push({ tokens: sum(), changed });
    }
    // The control for the marks: the run does cross the ceiling, and both strategies move.
    expect(stats.views.some((v) => v.prefixChanged)).toBe(true);
    expect(deleting.some((d) => d.changed)).toBe(true);

    const page = await watched();
    await page.goto(`${origin}/`);
    const started = Date.now();
    await page.click("#run-play");
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>("#run-status")?.dataset.state === "done",
      null,
      { timeout: 180_000 },
    );
    console.log(`agent-app: the run view's 40 turns were shaped in ${Date.now() - started} ms`);
    const drawn = await page.evaluate(() => {
      const svg = document.querySelector<SVGSVGElement>("#run-plot svg");
      const numbers = (selector: string, attribute: string) =>
        [...document.querySelectorAll<SVGElement>(selector)].map((e) =>
          Number(e.getAttribute(attribute)),
        );
      return {
        yMax: Number(svg?.dataset.yMax),
        top: Number(svg?.dataset.top),
        height: Number(svg?.dataset.height),
        ceiling: Number(svg?.dataset.ceiling),
        session: numbers(".point.session", "data-tokens"),
        sessionY: numbers(".point.session", "cy"),
        clear: numbers(".point.clear", "data-tokens"),
        sessionMarks: numbers(".mark.session", "data-index"),
        clearMarks: numbers(".mark.clear", "data-index"),
        hits: document.querySelectorAll("#run-plot .hit").length,
        stats: document.querySelector("#run-stats")?.textContent ?? "",
        numbers: document.querySelector("#run-numbers")?.textContent ?? "",
      };
    });
    expect(drawn.hits).toBe(RUN_TURNS);
    expect(drawn.ceiling).toBe(RUN_CEILING);
    expect(drawn.session).toEqual(stats.views.map((v) => v.tokens));
    expect(drawn.sessionMarks).toEqual(stats.views.flatMap((v, i) => (v.prefixChanged ? [i] : [])));
    expect(drawn.clear).toEqual(deleting.map((d) => d.tokens));
    expect(drawn.clearMarks).toEqual(deleting.flatMap((d, i) => (d.changed ? [i] : [])));
    // Each point is drawn where its number says.
    drawn.sessionY.forEach((y, i) => {
      const expected = drawn.top + drawn.height * (1 - (stats.views[i]?.tokens ?? 0) / drawn.yMax);
      expect(Math.abs(y - expected)).toBeLessThan(0.01);
    });
    const n = (v: number) => v.toLocaleString("en-US");
    expect(drawn.stats).toBe(
      `session.stats(): ${n(stats.tokens)} of ${n(stats.maxRunTokens)} tokens; levels: full ${stats.levels.full}, evidence ${stats.levels.evidence}, line ${stats.levels.line}, folded ${stats.levels.folded}; ${n(stats.reshapes)} reshapes; ${stats.views.length} views`,
    );
    const peak = (values: number[]) => n(Math.max(...values));
    expect(drawn.numbers).toContain(
      `peak tokens${peak(stats.views.map((v) => v.tokens))}${peak(deleting.map((d) => d.tokens))}`,
    );
    expect(drawn.numbers).toContain(`results deleted by the last turn0${cleared.size}`);

    // A turn picked: the view the model had then, result by result.
    const turn = 30;
    await page.click(`#run-plot .hit[data-index="${turn - 1}"]`);
    expect(await page.getAttribute("#run-turn", "data-turn")).toBe(String(turn));
    const entries = await page.$$eval("#run-turn .run-entry", (list) =>
      list.map((d) => ({
        callId: (d as HTMLElement).dataset.callId,
        level: (d as HTMLElement).dataset.level,
        text: d.querySelector("pre")?.textContent ?? "",
      })),
    );
    expect(entries).toEqual(
      (views[turn - 1] ?? []).map((e) => ({ callId: e.callId, level: e.level, text: e.text })),
    );
    await page.locator(".run-view").screenshot({ path: `${screens}/run-view.png` });
    expect(await violationsOf(page)).toEqual([]);
    expect(problems.filter((p) => !p.includes("127.0.0.2"))).toEqual([]);
    await page.close();
  }, 300_000);
});
