/**
 * Page furniture, judged block by block once the main content is chosen: inside it, the
 * navigation, share bars, related links, comment threads, bylines and captions it carries;
 * outside it, what each left-out block was. Every block left out is counted by its reason.
 */
import type { BoilerplateReason } from "../pipeline/html-facts.js";
import {
  classWeight,
  FURNITURE_TAGS,
  hint,
  unlikely as isUnlikely,
  reasonByName,
  SMALL_PRINT,
} from "./content-names.js";
import { type Stats, textOf } from "./measure.js";
import type { HtmlElement } from "./tree.js";

/** Blocks left out, by reason. */
export type Dropped = Partial<Record<BoilerplateReason, number>>;

/** Containers the pruning may drop inside the content (never inline text like a `strong`). */
const CONTAINER = new Set([
  "div",
  "section",
  "ul",
  "ol",
  "dl",
  "table",
  "aside",
  "nav",
  "header",
  "footer",
  "form",
  "figure",
  "details",
  "center",
]);
const HEADING = /^h[1-6]$/;

function note(dropped: Dropped, reason: BoilerplateReason): void {
  dropped[reason] = (dropped[reason] ?? 0) + 1;
}

/** What the scorer found, for judging the blocks of the content it chose. */
export interface ContentFacts {
  readonly stats: ReadonlyMap<HtmlElement, Stats>;
  /** Characters of text of the chosen content. */
  readonly text: number;
  /** Elements named like comments or menus that hold less than half the page. */
  readonly unlikely: ReadonlySet<HtmlElement>;
  /** The page's title: a heading that says it again is the headline, shown as the title. */
  readonly title: string | undefined;
}

/**
 * Leaves the furniture inside `roots` out: adds it to `skip` and counts it in `dropped`.
 *
 * @example
 * pruneContent(roots, facts, skip, dropped);
 */
export function pruneContent(
  roots: readonly HtmlElement[],
  facts: ContentFacts,
  skip: Set<HtmlElement>,
  dropped: Dropped,
): void {
  const titleWords = facts.title === undefined ? undefined : wordsOf(facts.title);
  const prune = (el: HtmlElement) => {
    const children = el.children;
    for (let i = 0; i < children.length; i++) {
      const c = children[i] as HtmlElement | string;
      if (typeof c === "string") continue;
      const reason =
        facts.unlikely.has(c) && CONTAINER.has(c.tag)
          ? (reasonByName(c) ?? "lowDensity")
          : furnitureIn(c, i, facts, titleWords);
      if (reason !== undefined) {
        skip.add(c);
        // An image without text, left out with its figure, is no block of text.
        if ((facts.stats.get(c) as Stats).text > 0) note(dropped, reason);
      } else prune(c);
    }
  };
  for (const r of roots) prune(r);
}

/**
 * What furniture a block inside the content is, or undefined when it is content. `at` is its
 * index among its parent's children; `titleWords`, the words of the page's title.
 */
function furnitureIn(
  c: HtmlElement,
  at: number,
  facts: ContentFacts,
  titleWords: ReadonlySet<string> | undefined,
): BoilerplateReason | undefined {
  const { stats } = facts;
  const s = stats.get(c) as Stats;
  const density = s.link / Math.max(1, s.text);
  // A block holding half the content's text is the content, whatever its name.
  const minor = s.text < facts.text * 0.5;
  const container = CONTAINER.has(c.tag);
  const byTag = FURNITURE_TAGS.get(c.tag);
  if (byTag !== undefined && minor) return reasonByName(c) ?? byTag;
  if (container && minor && (classWeight(c) < 0 || isUnlikely(c))) {
    return reasonByName(c) ?? "lowDensity";
  }
  const list = c.tag === "ul" || c.tag === "ol";
  if (container && !list && density > 0.5 && s.text < 1500 && s.text - s.link < 200) {
    return "lowDensity";
  }
  if (c.tag === "header" && s.text < 400) return "smallPrint";
  if (list && density > 0.35 && linkList(c, stats)) return "related";
  // Small print, captions and figures; a paragraph or heading that is only a link.
  if (SMALL_PRINT.test(hint(c)) && s.text < 300) return "smallPrint";
  if (c.tag === "figcaption" || c.tag === "img") return "smallPrint";
  if (c.tag === "figure" && s.blocks <= 2 && s.text < 300) return "smallPrint";
  if (
    (c.tag === "p" || HEADING.test(c.tag)) &&
    density > 0.6 &&
    s.text < 300 &&
    (s.link >= s.text || !isSentence(c)) &&
    // A linked heading over prose heads a section (a listicle's items, a linked title).
    !(c.tag !== "p" && headsProse(c, at, stats))
  )
    return "lowDensity";
  if (c.tag === "h1" && s.text < 300 && (titleWords === undefined || saysTitle(c, titleWords))) {
    return "smallPrint";
  }
  return undefined;
}

/** The next block after a heading is prose of its own: a paragraph, not a teaser's line. */
function headsProse(
  heading: HtmlElement,
  at: number,
  stats: ReadonlyMap<HtmlElement, Stats>,
): boolean {
  // Each sibling is looked at for the one heading before it at most: linear in the page.
  const siblings = heading.parent?.children ?? [];
  for (let i = at + 1; i < siblings.length; i++) {
    const next = siblings[i] as HtmlElement | string;
    if (typeof next === "string") {
      if (next.trim() === "") continue;
      return false;
    }
    const s = stats.get(next) as Stats;
    if (s.text === 0) continue;
    return s.text >= 100 && s.link < s.text * 0.3;
  }
  return false;
}

/**
 * Counts what was left out around `roots`: each block outside them, by its reason (the block
 * holding a root is looked into, not counted).
 *
 * @example
 * countOutside(page.root, roots, stats, dropped);
 */
export function countOutside(
  root: HtmlElement,
  roots: readonly HtmlElement[],
  stats: ReadonlyMap<HtmlElement, Stats>,
  dropped: Dropped,
): void {
  const holders = new Set<HtmlElement>();
  // Roots are siblings: their ancestors are walked once.
  for (const r of roots) {
    for (let e = r.parent; e !== undefined && !holders.has(e); e = e.parent) holders.add(e);
  }
  const chosen = new Set(roots);
  const visit = (el: HtmlElement) => {
    for (const c of el.children) {
      if (typeof c === "string" || chosen.has(c)) continue;
      if (holders.has(c)) {
        visit(c);
        continue;
      }
      const s = stats.get(c) as Stats;
      if (s.text === 0) continue;
      const reason = FURNITURE_TAGS.get(c.tag) ?? reasonByName(c);
      // A wrapper of several blocks that names nothing is looked into: its parts say more.
      if (reason === undefined && s.blocks > 0 && s.text >= 200) visit(c);
      else note(dropped, reason ?? unnamed(c, s));
    }
  };
  visit(root);
}

/** What a block outside the content that names nothing is: by its tag, then by its text. */
function unnamed(el: HtmlElement, s: Stats): BoilerplateReason {
  if (el.tag === "header") return "navigation";
  return s.text < 100 || s.link > s.text * 0.5 ? "lowDensity" : "other";
}

/**
 * A short, link-heavy paragraph that is a sentence: it ends as one (`.`, `!`, `?`, and their CJK
 * forms, maybe before a closing quote or bracket) and has words of its own outside its links.
 * `See <a>the book</a> and <a>this</a>.` and `请参阅<a>官方文档</a>。` are prose; a teaser
 * (`Read more <a>Council approves budget…</a>`), a share bar, a credit (`Photo by <a>…</a> on
 * <a>…</a>`) or a consent bar ending in its buttons are not.
 */
export function isSentence(el: HtmlElement): boolean {
  const all: string[] = [];
  let own = false;
  const walk = (e: HtmlElement, linked: boolean) => {
    for (const c of e.children) {
      if (typeof c !== "string") walk(c, linked || c.tag === "a");
      else {
        all.push(c);
        if (!linked && !own && LETTER.test(c)) own = true;
      }
    }
  };
  walk(el, false);
  return own && SENTENCE_END.test(all.join("").trimEnd());
}
const LETTER = /\p{L}/u;
const WORD = /[\p{L}\p{N}]+/gu;

function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}

/** A heading that says the title again: three in four of its words are the title's. */
function saysTitle(heading: HtmlElement, titleWords: ReadonlySet<string>): boolean {
  const words = textOf(heading).toLowerCase().match(WORD) ?? [];
  if (words.length === 0) return true;
  let found = 0;
  for (const w of words) if (titleWords.has(w)) found++;
  return found >= words.length * 0.75;
}
const SENTENCE_END = /[.!?\u3002\uff01\uff1f]["'\u201d\u2019\u00bb)\]]*$/u;

/**
 * A list of links (navigation, related stories): most of its items are a link and little else.
 * A list whose items say something of their own around their links (a changelog, a list of
 * sources with notes) is content.
 */
function linkList(list: HtmlElement, stats: ReadonlyMap<HtmlElement, Stats>): boolean {
  let items = 0;
  let bare = 0;
  for (const c of list.children) {
    if (typeof c === "string" || c.tag !== "li") continue;
    const s = stats.get(c) as Stats;
    items++;
    if (s.text - s.link < 15) bare++;
  }
  return items > 0 && bare >= items * 0.8;
}
