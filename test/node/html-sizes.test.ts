/**
 * A size sweep of HTML pages from 0.5 to 10 MB, with an error in the middle: generated news
 * articles and CI console pages, and real article pages of ../shared/bench/html grown by
 * repeating their article text inside their own markup. Each result uses its budget (tokens
 * close to maxTokens), declares its cut, states the page's title first and keeps its tail; a
 * console page keeps its error line at every size.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Shaped, shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { articlePageOf, consolePageOf, PAGE_MARKS } from "../fixtures/pages.js";
import { toolLines } from "../helpers/markers.js";

const MB = 1e6;
const SIZES = [0.5, 1, 1.7, 2.1, 3, 5, 10];
const BUDGETS = [2000, 8000];
/** "Close to maxTokens": the keeper and fitter fill at least this share of the budget. */
const USED = 0.85;
const TIME_BOUND = 120_000;

function expectBudgetUsedAndCutDeclared(shaped: Shaped, maxTokens: number): void {
  expect(shaped.status).toBe("partial");
  expect(shaped.meta.truncated).toBe(true);
  expect(shaped.meta.cuts.length).toBeGreaterThan(0);
  expect(shaped.meta.tokens).toBeLessThanOrEqual(maxTokens);
  expect(shaped.meta.tokens).toBeGreaterThanOrEqual(Math.floor(maxTokens * USED));
}

/** The first line inside the fence. */
function firstLine(shaped: Shaped): string | undefined {
  return toolLines(shaped.text)[1];
}

describe("HTML size sweep: generated articles and console pages", () => {
  for (const mb of SIZES) {
    for (const maxTokens of BUDGETS) {
      it(`an article page of ${mb} MB, maxTokens ${maxTokens}`, {
        timeout: TIME_BOUND,
      }, async () => {
        const shaped = await shape(articlePageOf(mb * MB), { maxTokens });
        expectBudgetUsedAndCutDeclared(shaped, maxTokens);
        expect(firstLine(shaped)).toBe(`# ${PAGE_MARKS.title}`);
        expect(shaped.text).toContain("In entry 1 the");
        expect(shaped.text).toContain(PAGE_MARKS.last);
        // A page held whole is reduced to its story; one too big to hold streams in full mode.
        if (mb < 2) expect(shaped.text).not.toContain(PAGE_MARKS.nav);
      });

      it(`a console page of ${mb} MB, maxTokens ${maxTokens}`, {
        timeout: TIME_BOUND,
      }, async () => {
        const shaped = await shape(consolePageOf(mb * MB), { maxTokens });
        expectBudgetUsedAndCutDeclared(shaped, maxTokens);
        expect(firstLine(shaped)).toBe(`# ${PAGE_MARKS.consoleTitle}`);
        expect(shaped.text).toContain(PAGE_MARKS.error);
        expect(shaped.text).toContain(PAGE_MARKS.consoleLast);
        expect(shaped.meta.sections[0]?.keptEvidenceLines).toBeGreaterThan(0);
      });
    }
  }
});

/**
 * The reference pages are the workplace's, next to the repository (`../shared/bench/html`), or
 * where AIRLOCK_BENCH_HTML says; they are not copied into it. Without them (a clone elsewhere)
 * the real-page sweep is reported as skipped, by name, and the generated sweep above still runs.
 */
const BENCH = process.env.AIRLOCK_BENCH_HTML
  ? new URL(`file://${process.env.AIRLOCK_BENCH_HTML.replace(/\/?$/, "/")}`)
  : new URL("../../../shared/bench/html/", import.meta.url);
const HAS_BENCH = existsSync(fileURLToPath(new URL("page03.html", BENCH)));

/**
 * A real article page grown to about `bytes`: the paragraphs of its annotated article text are
 * repeated (numbered, so none repeats exactly) right after the first of them in the page's own
 * markup, with an error paragraph in the middle. (The page's own markup goes on after them, so
 * its tail is the page's, not theirs.)
 */
function grownRealPage(name: string, bytes: number): string {
  const html = readFileSync(new URL(`${name}.html`, BENCH), "utf8");
  const paragraphs = readFileSync(new URL(`${name}.expected.txt`, BENCH), "utf8")
    .split(/\n+/)
    .filter((p) => p.trim().length > 40)
    .map((p) => p.replace(/[<&]/g, " "));
  const extra: string[] = [];
  let size = html.length;
  for (let i = 0; size < bytes; i++) {
    const p = `<p>Part ${i}: ${paragraphs[i % paragraphs.length]}</p>`;
    extra.push(p);
    size += p.length;
  }
  extra.splice(extra.length >> 1, 0, `<p>${PAGE_MARKS.error}</p>`);
  const grown = extra.join("\n");
  for (const p of paragraphs) {
    const found = html.indexOf(p.slice(0, 40));
    const end = found === -1 ? -1 : html.indexOf("</p>", found);
    if (end !== -1) return html.slice(0, end + 4) + grown + html.slice(end + 4);
  }
  throw new Error(`${name}: none of its article paragraphs is in its markup verbatim`);
}

describe.skipIf(!HAS_BENCH)(
  `HTML size sweep: real article pages grown to size (from ${fileURLToPath(BENCH)})`,
  () => {
    // Pages whose markup has an <article>, a <main>, or neither (page03, page40, page74).
    for (const name of ["page03", "page40", "page74"]) {
      // (page74 alone is 0.6 MB.)
      for (const mb of [1, 2.1, 10]) {
        it(`${name} grown to ${mb} MB, maxTokens 4000`, { timeout: TIME_BOUND }, async () => {
          const maxTokens = 4000;
          const shaped = await shape(grownRealPage(name, mb * MB), { maxTokens });
          expectBudgetUsedAndCutDeclared(shaped, maxTokens);
          expect(firstLine(shaped)).toMatch(/^# \S/);
          // The grown story is shown, not the page's title alone.
          expect(shaped.text).toContain("Part 0: ");
        });
      }
    }
  },
);
