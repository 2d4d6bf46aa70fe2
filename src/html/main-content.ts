/**
 * Main-content extraction by scoring the light tree: paragraphs vote for the containers that
 * hold them (their parent fully, ancestors less; an `article` keeps its paragraphs' votes to
 * itself), containers are weighted by tag, by schema.org markup and by their class and id names,
 * and discounted by link density; the best container, or the ancestor it shares with rivals of
 * about its weight, is kept with its siblings that look like it, and the furniture inside them is
 * left out block by block (`furniture.ts`). When no container stands out, the whole page is the
 * content.
 */
import { classWeight, FURNITURE_TAGS, tagWeight, unlikely } from "./content-names.js";
import { countOutside, type Dropped, pruneContent } from "./furniture.js";
import { measure, type Stats } from "./measure.js";
import type { HtmlElement } from "./tree.js";

export interface MainContent {
  /** The elements to render, in page order. */
  readonly roots: HtmlElement[];
  /** Descendants of the roots to leave out. */
  readonly skip: Set<HtmlElement>;
  /** Blocks left out (inside the roots and around them), by reason. */
  readonly dropped: Dropped;
  /** Characters of text (spaces not counted) left out: the page's less the roots' but `skip`. */
  readonly leftOut: number;
}

/** Parts of a text's flow (rows, tables, lists): they gather votes but are never the content. */
const PART = new Set(["tr", "tbody", "thead", "tfoot", "table", "ul", "ol", "dl"]);
/** Elements whose text is a paragraph that votes. */
const PARAGRAPH = new Set(["p", "pre", "td", "blockquote"]);

/** What a paragraph of `text` characters and `commas` commas adds to its containers' scores. */
function voteOf(text: number, commas: number): number {
  return 1 + Math.min(commas, 12) + Math.min(Math.floor(text / 100), 3);
}

/**
 * Finds the main content of a page, or undefined when nothing stands out (render it whole).
 * `title` is the page's title: an `h1` that says it again is left out as the headline.
 *
 * @example
 * const main = findMainContent(page.root, page.title);
 * renderText(main ? main.roots : [page.root], { …, skip: main?.skip }, removed);
 */
export function findMainContent(root: HtmlElement, title?: string): MainContent | undefined {
  const { stats, all, runs } = measure(root);
  const total = stats.get(root) as Stats;
  if (total.text === 0) return undefined;
  // Elements inside unlikely containers neither vote nor are chosen.
  const out = new Set<HtmlElement>();
  for (const el of all) {
    // A container holding most of the page's text is the content, whatever its name.
    if (out.has(el) || (unlikely(el) && (stats.get(el) as Stats).text < total.text * 0.5)) {
      out.add(el);
      for (const c of el.children) if (typeof c !== "string") out.add(c);
    }
  }

  // Paragraphs vote for their ancestors.
  const scores = new Map<HtmlElement, number>();
  const vote = (parent: HtmlElement | undefined, amount: number) => {
    let ancestor = parent;
    for (let level = 0; ancestor !== undefined && level < 5; level++) {
      const share = level === 0 ? 1 : level === 1 ? 0.5 : 1 / (level * 3);
      const base = scores.get(ancestor) ?? tagWeight(ancestor.tag) + classWeight(ancestor);
      scores.set(ancestor, base + amount * share);
      // An article is self-contained: its paragraphs do not vote for what holds it.
      ancestor = ancestor.tag === "article" ? undefined : ancestor.parent;
    }
  };
  for (const el of all) {
    if (out.has(el)) continue;
    const s = stats.get(el) as Stats;
    // A div holding only inline content is written like a paragraph.
    const paragraph = PARAGRAPH.has(el.tag) || (el.tag === "div" && s.blocks === 0);
    if (!paragraph || s.text < 25 || s.link / s.text > 0.5) continue;
    vote(el.parent, voteOf(s.text, s.commas));
  }
  for (const r of runs) {
    if (out.has(r.parent) || r.text < 25 || r.link / r.text > 0.5) continue;
    vote(r.parent, voteOf(r.text, r.commas));
  }

  let top: HtmlElement | undefined;
  let best = Number.NEGATIVE_INFINITY;
  for (const [el, score] of scores) {
    const s = stats.get(el) as Stats;
    if (el === root || out.has(el)) continue;
    const final = score * (1 - s.link / Math.max(1, s.text));
    scores.set(el, final);
    // A row, a table or a list is a part of a text's flow, never the whole of it.
    if (final > best && !PART.has(el.tag)) {
      best = final;
      top = el;
    }
  }
  if (top === undefined) return undefined;
  top = sharedAncestor(top, best, scores, root, out);
  // A marked article body beats the scorer when it holds real text.
  for (const el of all) {
    if (
      el.attrs.itemprop?.toLowerCase() === "articlebody" &&
      (stats.get(el) as Stats).text >= 200
    ) {
      top = el;
      break;
    }
  }
  // Climb while the parent holds little more than the candidate (wrappers), so siblings
  // split off by layout divs come along.
  const chosen = (stats.get(top) as Stats).text;
  for (;;) {
    const parent: HtmlElement | undefined = top.parent;
    if (parent === undefined || parent === root || parent.tag === "body") break;
    // Measured against the chosen element, not the last step: wrappers never creep outwards.
    if ((stats.get(parent) as Stats).text > chosen * 1.15 || classWeight(parent) < 0) break;
    top = parent;
  }
  const topStats = stats.get(top) as Stats;
  if (topStats.text < 140) return undefined;

  const roots = withSiblings(top, stats, scores);
  const skip = new Set<HtmlElement>();
  const dropped: Dropped = {};
  pruneContent(roots, { stats, text: topStats.text, unlikely: out, title }, skip, dropped);
  countOutside(root, roots, stats, dropped);
  // Read from the measures: the skipped blocks are apart (none inside another).
  let kept = 0;
  for (const r of roots) kept += (stats.get(r) as Stats).text;
  for (const s of skip) kept -= (stats.get(s) as Stats).text;
  return { roots, skip, dropped, leftOut: Math.max(0, total.text - kept) };
}

/** Rivals of the best candidate looked at: the next best few (as Readability does). */
const RIVALS = 5;

/**
 * Content split into parts (steps, sections, cards) scores as several candidates of about the
 * same weight: when three of the next best, each within a quarter of the best, share an ancestor
 * with it, that ancestor is the content.
 */
function sharedAncestor(
  top: HtmlElement,
  best: number,
  scores: ReadonlyMap<HtmlElement, number>,
  root: HtmlElement,
  out: ReadonlySet<HtmlElement>,
): HtmlElement {
  // The next best few, kept sorted in a short array: a page of 100,000 alike paragraphs costs
  // one pass, not a sort.
  const rivals: Array<{ el: HtmlElement; score: number }> = [];
  for (const [el, score] of scores) {
    if (el === top || el === root || out.has(el) || score < best * 0.75) continue;
    if (rivals.length === RIVALS && score <= (rivals[RIVALS - 1] as { score: number }).score)
      continue;
    let i = rivals.length;
    while (i > 0 && (rivals[i - 1] as { score: number }).score < score) i--;
    rivals.splice(i, 0, { el, score });
    if (rivals.length > RIVALS) rivals.pop();
  }
  if (rivals.length < 3) return top;
  for (let up = top.parent; up !== undefined && up !== root && up.tag !== "body"; up = up.parent) {
    let holds = 0;
    for (const r of rivals) if (contains(up, r.el)) holds++;
    if (holds >= 3) return up;
  }
  return top;
}

/** The top and its siblings that look like content, in page order. */
function withSiblings(
  top: HtmlElement,
  stats: ReadonlyMap<HtmlElement, Stats>,
  scores: ReadonlyMap<HtmlElement, number>,
): HtmlElement[] {
  const roots: HtmlElement[] = [];
  const topStats = stats.get(top) as Stats;
  const threshold = Math.max(10, (scores.get(top) ?? 0) * 0.2);
  for (const sibling of top.parent?.children ?? [top]) {
    if (typeof sibling === "string") continue;
    if (sibling === top) {
      roots.push(sibling);
      continue;
    }
    const s = stats.get(sibling) as Stats;
    const density = s.link / Math.max(1, s.text);
    const score = scores.get(sibling);
    if (classWeight(sibling) < 0 || FURNITURE_TAGS.has(sibling.tag)) continue;
    // A list of other articles (teasers, comments) is not more of this one.
    if (s.articles >= 2 && topStats.articles < 2) continue;
    // Content split into parts by layout (cards, sections of one story) repeats the top's tag
    // and class.
    const twin =
      sibling.tag === top.tag &&
      (sibling.attrs.class ?? "") === (top.attrs.class ?? "") &&
      s.text >= 100 &&
      density < 0.3;
    if (
      twin ||
      (score !== undefined && score >= threshold) ||
      (sibling.tag === "p" && s.text > 80 && density < 0.25)
    ) {
      roots.push(sibling);
    }
  }
  return roots;
}

function contains(ancestor: HtmlElement, el: HtmlElement): boolean {
  for (let e: HtmlElement | undefined = el; e !== undefined; e = e.parent) {
    if (e === ancestor) return true;
  }
  return false;
}
