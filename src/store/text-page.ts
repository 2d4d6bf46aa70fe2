/**
 * Fitting a page of stored lines: as many of the candidates as fit, a prefix of their order (a
 * range in line order, `around` by distance from its line, a search in line order), so the next
 * page starts right after what this one showed and paging covers every line exactly once. The
 * page is laid out by the renderer of the first page (gap markers with exact line numbers, the
 * closing summary with its hint), measured as the presenter shows it (last redaction pass,
 * spotlight, fence), and searched with the one fitting search.
 */
import { foldLongRuns } from "../decode/normalize.js";
import { choose, search } from "../fit/search.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import type { Kept } from "../keep/keeper.js";
import { gapMarker, lineCutMarker, numberedLine, OMITTED_NOTICES } from "../pipeline/markers.js";
import type { Presenter } from "../pipeline/present.js";
import type { Cut } from "../pipeline/shaped.js";
import { safeSlice } from "../pipeline/text.js";
import type { SectionName, Unit } from "../pipeline/unit.js";
import { join, type Layout, layout, type ReadSection } from "../render/lines.js";
import type { StoredLine } from "./text-source.js";

/** A candidate line of a page, with the section it is in. */
export interface PageLine extends StoredLine {
  readonly section: SectionName;
}

export interface TextPageRequest {
  /** The sections the page reads, in the order they are shown, with their line counts. */
  readonly sections: ReadonlyArray<{ readonly name: SectionName; readonly lines: number }>;
  /** Candidates in priority order: the page shows a prefix of them. */
  readonly candidates: readonly PageLine[];
  /** Markers above the lines (what the page is). */
  readonly header: readonly string[];
  /** Label each section (command output). */
  readonly labelled: boolean;
  readonly maxTokens: number;
  /** The closing hint for a page showing the first `k` candidates; undefined leaves it out. */
  readonly next: (k: number) => string | undefined;
}

export interface TextPage {
  readonly text: string;
  readonly boundary: string | undefined;
  readonly tokens: number;
  /** Candidates shown: the first `shown` of them. */
  readonly shown: number;
  readonly cuts: readonly Cut[];
}

/**
 * @example
 * const page = await fitTextPage({ sections, candidates, header: [], labelled: false, maxTokens: 2000, next }, tokenizer, presenter);
 */
export async function fitTextPage(
  req: TextPageRequest,
  tokenizer: ResolvedTokenizer,
  presenter: Presenter,
): Promise<TextPage> {
  const max = req.maxTokens;
  const estimate = presenter.estimate;
  const countLine = (text: string) => tokenizer.count(estimate ? estimate(text) : text);
  // A line longer than this many characters keeps its head and tail before it is counted: a
  // page never tokenizes much more than its budget's worth of text.
  const lineChars = Math.max(64, Math.floor(max * 1.5));
  const units: Unit[] = [];
  const costs: number[] = [];
  let spent = 0;
  for (const c of req.candidates) {
    if (spent > max * 2) break;
    const unit = unitOf(c, lineChars);
    units.push(unit);
    const cost = (await countLine(`${unit.text}\n`)) + 1;
    costs.push(cost);
    spent += cost;
  }
  let lastCount = 0;
  const lay = (k: number, list: readonly Unit[] = units): Layout => {
    const shown = list.slice(0, k);
    const sections: ReadSection[] = req.sections.map((s) => {
      const head = shown
        .filter((u) => sectionOf.get(u) === s.name)
        .sort((a, b) => a.index - b.index);
      const kept: Kept = {
        head,
        tail: [],
        groups: [],
        lines: s.lines,
        evidenceLines: 0,
        complete: false,
        // A page shows lines as they were stored: no templates are mined or noted here.
        rare: [],
        messages: [],
        templates: new Map(),
        mining: { created: 0, evicted: 0, sampled: false },
      };
      return { name: s.name, bytes: 0, capped: false, invalid: 0, kept };
    });
    return layout(sections, new Set(shown), {
      header: req.header,
      maxBytes: 0,
      next: req.next(k),
      labelled: req.labelled,
      numbered,
    });
  };
  // Lines found apart (a search's matches) are numbered when that shows more of them.
  let numbered = false;
  const sectionOf = new Map<Unit, SectionName>();
  units.forEach((u, i) => {
    sectionOf.set(u, (req.candidates[i] as PageLine).section);
  });
  const attempt = async (
    k: number,
    list: readonly Unit[] = units,
  ): Promise<TextPage | undefined> => {
    const l = lay(k, list);
    const shown = await presenter.present(
      join(l.pieces, (u) => u.text),
      numbered && k > 0,
    );
    const tokens = await tokenizer.count(shown.text);
    lastCount = tokens;
    if (tokens > max) return undefined;
    return { text: shown.text, boundary: shown.boundary, tokens, shown: k, cuts: l.cuts };
  };

  const empty = await attempt(0);
  // Whether the chosen lines may need a fence's boundary: one of them holds a `<`.
  const holds = units.some((u) => presenter.holdsFence(u.text));
  if (empty === undefined) return notice(tokenizer, presenter, max);
  if (units.length === 0) return empty;
  const gapCost = await countLine(`${gapMarker("stdout", 99_999_999, 99_999_999)}\n`);
  // Estimated under the largest fence the budget allows: the chosen lines may need it.
  const framed = await tokenizer.count(
    (
      await presenter.framed(
        join(lay(0).pieces, (u) => u.text),
        holds,
      )
    ).text,
  );
  const base = framed > max ? empty.tokens : Math.max(empty.tokens, framed);
  const order = units.map((_, i) => i);
  const delta = (i: number, shown: ReadonlySet<number>) => {
    const u = units[i] as Unit;
    const prev = units[i - 1];
    const adjacent = prev !== undefined && shown.has(i - 1) && Math.abs(prev.index - u.index) === 1;
    return (costs[i] as number) + (adjacent ? 0 : gapCost);
  };
  const numberCosts: number[] = [];
  for (const u of units) numberCosts.push(await countLine(numberedLine(u.index, "")));
  const numberedDelta = (i: number) => (costs[i] as number) + (numberCosts[i] as number);
  const gapped = choose(order, delta, base, max, false);
  const byNumber = choose(order, numberedDelta, base, max, false);
  numbered =
    byNumber.included.length > gapped.included.length ||
    (byNumber.included.length === gapped.included.length && byNumber.used < gapped.used);
  const cost = numbered ? numberedDelta : delta;
  const found = await search({
    choice: numbered ? byNumber : gapped,
    base,
    max,
    total: order.length,
    costOf: (i) => (costs[i] ?? 0) + (numbered ? (numberCosts[i] ?? 0) : 0),
    lastCount: () => lastCount,
    more: (budget) => choose(order, cost, base, budget, false).included,
    attempt: (_units, k) => attempt(k),
  });
  if (found && found.shown > 0) return found;
  // Not even the first line fits whole: it is shown shorter and shorter, so a page always moves on.
  const first = req.candidates[0] as PageLine;
  for (let chars = Math.floor(lineChars / 2); chars >= 8; chars = Math.floor(chars / 2)) {
    const shorter = [unitOf(first, chars)];
    sectionOf.set(shorter[0] as Unit, first.section);
    const fitted = await attempt(1, shorter);
    if (fitted) return fitted;
  }
  return empty;
}

/** A candidate as a unit to lay out: cut to `maxChars` (head ¾, tail ¼) and run-folded. */
function unitOf(c: PageLine, maxChars: number): Unit {
  let text = c.text;
  let omitted = c.omittedChars;
  if (text.length > maxChars) {
    const head = safeSlice(text, 0, Math.ceil(maxChars * 0.75));
    const tail = safeSlice(text, text.length - Math.floor(maxChars * 0.25), text.length);
    omitted += text.length - head.length - tail.length;
    text = `${head}${lineCutMarker(omitted)}${tail}`;
  }
  return {
    index: c.index,
    text: foldLongRuns(text).text,
    repeat: 1,
    severity: 0,
    omittedChars: omitted,
  };
}

/**
 * Not even the markers fit (a small budget): only the notice, fenced. With the built-in
 * tokenizers the minimum budget always holds it; a custom counter that counts very high gets
 * the shortest notice.
 */
async function notice(
  tokenizer: ResolvedTokenizer,
  presenter: Presenter,
  max: number,
): Promise<TextPage> {
  let page: TextPage | undefined;
  for (const body of OMITTED_NOTICES) {
    const shown = await presenter.present(body);
    const tokens = await tokenizer.count(shown.text);
    page = { text: shown.text, boundary: shown.boundary, tokens, shown: 0, cuts: [] };
    if (tokens <= max) return page;
  }
  return page as TextPage;
}

/** A full fence's boundary, opening and closing: what a later page's `<` may add. */
export const BOUNDARY_PAIR = ' boundary="0123456789abcdef" boundary="0123456789abcdef"';

/**
 * Tokens a later page of a search may hold beyond this one: on the first, the range in the
 * header and the gap before its first line; numbers as long as the last line's; another
 * section's label, gap and name in the call; the level an evidence search goes down to.
 */
export async function growthReserve(
  counter: ResolvedTokenizer,
  at: {
    readonly first: boolean;
    readonly from: number;
    readonly last: number;
    readonly elsewhere: boolean;
    readonly lower: boolean;
  },
): Promise<number> {
  const parts: string[] = [];
  if (at.first) parts.push(`[airlock: omitted lines 1-${at.last}]\n, from line ${at.last}`);
  if (at.elsewhere)
    parts.push(
      `[airlock: stdout]\n[airlock: omitted stdout lines 1-${at.last}]\n"section":"stdout",`,
    );
  if (at.lower) parts.push(`"level":"warning",`);
  const numbers = (n: number) => counter.count(` ${n}`.repeat(4));
  const digits = Math.max(0, (await numbers(at.last)) - (await numbers(at.from)));
  return (parts.length > 0 ? await counter.count(parts.join("")) : 0) + digits + 2;
}
