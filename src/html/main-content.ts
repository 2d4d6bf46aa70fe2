/**
 * Main-content extraction by scoring the light tree: paragraphs vote for the containers that
 * hold them (their parent fully, ancestors less), containers are weighted by tag and by their
 * class and id names (`article`, `content` up; `nav`, `comment`, `related`, `share` down) and
 * discounted by link density; the best container and its siblings that look like it are kept,
 * and page furniture inside them (navigation, share and related blocks, link lists) is left out.
 * When no container stands out, the whole page is the content.
 */
import type { HtmlElement } from "./tree.js";

export interface MainContent {
  /** The elements to render, in page order. */
  readonly roots: HtmlElement[];
  /** Descendants of the roots to leave out. */
  readonly skip: Set<HtmlElement>;
}

interface Stats {
  /** Non-space characters of text beneath. */
  text: number;
  /** Of those, inside links. */
  link: number;
  /** Commas beneath (a sign of prose). */
  commas: number;
  /** Block elements beneath: a `div` with none is written like a paragraph. */
  blocks: number;
}

const BLOCKISH = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "table",
  "ul",
  "ol",
  "dl",
  "pre",
  "blockquote",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "form",
  "figure",
  "header",
  "footer",
  "nav",
  "aside",
]);

const POSITIVE =
  /(?:^|[\s_-])(?:article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|richtext|rich-text|storycontent|articlebody)(?:$|[\s_-])|articlebody|article-body|post-body|entry-content|story-body/;
const NEGATIVE =
  /(?:^|[\s_-])(?:ad|ads|adv|advert|advertisement|banner|breadcrumbs?|combx|comments?|commentlist|community|consent|cookies?|disqus|foot|footer|footnotes?|gdpr|header|masthead|menu|modal|nav|navbar|navigation|newsletter|outbrain|pager|pagination|popup|promo|promos|recirc|related|remark|rss|share|sharing|shoutbox|sidebar|signup|skyscraper|social|sponsor|sponsored|subscribe|subscription|taboola|tags|toolbar|tools|trending|widget|most-popular|popular|recommended|read-more|author-bio|bio|paywall|overlay)(?:$|[\s_-])/;
/**
 * Names of containers that are almost never the content (comment threads, menus, sidebars …),
 * unless the name also says content: their text does not vote and they are not chosen.
 */
const UNLIKELY =
  /(?:^|[\s_-])(?:comment|communit|disqus|banner|breadcrumb|combx|cookie|consent|gdpr|footer|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|pagination|popup|newsletter|subscribe|recirc|outbrain|taboola|share|sharing|promo|trending|most-popular|masthead|navbar|ad-break|agegate)/;
/** Names of the small print around a story: bylines, dates, captions, credits. */
const SMALL_PRINT =
  /(?:^|[\s_-])(?:byline|dateline|timestamp|date|time|author|authors|meta|credit|credits|caption|captions|kicker|eyebrow|label|published|updated|photo|image|img|video|media-caption|read-more|readmore|more-on|also|see-also)(?:$|[\s_-])/;
const MAYBE = /and|article|body|column|content|main|shadow|story|post-|entry/;
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

function unlikely(el: HtmlElement): boolean {
  if (el.tag === "body" || el.tag === "article" || el.tag === "main" || el.tag === "a")
    return false;
  const h = hint(el);
  return h.trim() !== "" && UNLIKELY.test(h) && !MAYBE.test(h);
}

/** Elements that are page furniture wherever they are. */
const FURNITURE = new Set(["nav", "aside", "footer", "form"]);
const PARAGRAPH = new Set(["p", "pre", "td", "blockquote"]);

function hint(el: HtmlElement): string {
  const role = el.attrs.role ?? "";
  return `${el.attrs.class ?? ""} ${el.attrs.id ?? ""} ${role}`.toLowerCase();
}

/** +25 for names that say content, −25 for names that say furniture. */
function classWeight(el: HtmlElement): number {
  const h = hint(el);
  if (h.trim() === "") return 0;
  let w = 0;
  if (NEGATIVE.test(h)) w -= 25;
  if (POSITIVE.test(h)) w += 25;
  if (el.attrs.itemprop?.toLowerCase() === "articlebody") w += 50;
  return w;
}

function tagWeight(tag: string): number {
  switch (tag) {
    case "article":
      return 10;
    case "main":
    case "div":
      return 5;
    case "section":
      return 3;
    case "pre":
    case "td":
    case "blockquote":
      return 3;
    case "address":
    case "ol":
    case "ul":
    case "dl":
    case "dd":
    case "dt":
    case "li":
    case "form":
      return -3;
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
    case "th":
      return -5;
    default:
      return 0;
  }
}

function nonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/**
 * Finds the main content of a page, or undefined when nothing stands out (render it whole).
 *
 * @example
 * const main = findMainContent(page.root);
 * renderText(main ? main.roots : [page.root], { …, skip: main?.skip }, removed);
 */
export function findMainContent(root: HtmlElement): MainContent | undefined {
  const stats = new Map<HtmlElement, Stats>();
  const all: HtmlElement[] = [];
  // Post-order statistics (the tree is at most MAX_DEPTH deep).
  const measure = (el: HtmlElement, inLink: boolean): Stats => {
    all.push(el);
    const s: Stats = { text: 0, link: 0, commas: 0, blocks: 0 };
    const linked = inLink || el.tag === "a";
    for (const c of el.children) {
      if (typeof c === "string") {
        const n = nonSpace(c);
        s.text += n;
        if (linked) s.link += n;
        for (let i = c.indexOf(","); i !== -1; i = c.indexOf(",", i + 1)) s.commas++;
      } else {
        const k = measure(c, linked);
        s.text += k.text;
        s.link += k.link;
        s.commas += k.commas;
        s.blocks += k.blocks + (BLOCKISH.has(c.tag) ? 1 : 0);
      }
    }
    stats.set(el, s);
    return s;
  };
  const total = measure(root, false);
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
  const candidate = (el: HtmlElement): number => {
    let s = scores.get(el);
    if (s === undefined) {
      s = tagWeight(el.tag) + classWeight(el);
      scores.set(el, s);
    }
    return s;
  };
  for (const el of all) {
    if (out.has(el)) continue;
    const s = stats.get(el) as Stats;
    // A div holding only inline content is written like a paragraph.
    const paragraph = PARAGRAPH.has(el.tag) || (el.tag === "div" && s.blocks === 0);
    if (!paragraph) continue;
    if (s.text < 25 || s.link / s.text > 0.5) continue;
    const vote = 1 + Math.min(s.commas, 12) + Math.min(Math.floor(s.text / 100), 3);
    let ancestor = el.parent;
    for (let level = 0; ancestor !== undefined && level < 5; level++) {
      const share = level === 0 ? 1 : level === 1 ? 0.5 : 1 / (level * 3);
      scores.set(ancestor, candidate(ancestor) + vote * share);
      ancestor = ancestor.parent;
    }
  }

  let top: HtmlElement | undefined;
  let best = Number.NEGATIVE_INFINITY;
  for (const [el, score] of scores) {
    if (el === root || out.has(el)) continue;
    const s = stats.get(el) as Stats;
    const final = score * (1 - s.link / Math.max(1, s.text));
    scores.set(el, final);
    if (final > best) {
      best = final;
      top = el;
    }
  }
  if (top === undefined) return undefined;
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
  for (;;) {
    const parent: HtmlElement | undefined = top.parent;
    if (parent === undefined || parent === root || parent.tag === "body") break;
    const ps = stats.get(parent) as Stats;
    const ts = stats.get(top) as Stats;
    if (ps.text > ts.text * 1.15 || classWeight(parent) < 0) break;
    top = parent;
  }
  const topStats = stats.get(top) as Stats;
  if (topStats.text < 140) return undefined;

  // Siblings that look like content join it.
  const roots: HtmlElement[] = [];
  const parent = top.parent;
  const threshold = Math.max(10, (scores.get(top) ?? 0) * 0.2);
  for (const sibling of parent?.children ?? [top]) {
    if (typeof sibling === "string") continue;
    if (sibling === top) {
      roots.push(sibling);
      continue;
    }
    const s = stats.get(sibling) as Stats;
    const density = s.link / Math.max(1, s.text);
    const score = scores.get(sibling);
    if (classWeight(sibling) < 0 || FURNITURE.has(sibling.tag)) continue;
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

  // Furniture inside the content is left out.
  const skip = new Set<HtmlElement>();
  const prune = (el: HtmlElement) => {
    for (const c of el.children) {
      if (typeof c === "string") continue;
      const s = stats.get(c) as Stats;
      const density = s.link / Math.max(1, s.text);
      const weight = classWeight(c);
      const small = s.text < topStats.text * 0.5;
      const container = CONTAINER.has(c.tag);
      if (
        (FURNITURE.has(c.tag) && small) ||
        (container && (weight < 0 || unlikely(c)) && small) ||
        (container && density > 0.5 && s.text < 1500 && s.text - s.link < 200) ||
        (c.tag === "header" && s.text < 400) ||
        ((c.tag === "ul" || c.tag === "ol") && density > 0.35 && linkList(c, s)) ||
        // Small print, captions and figures; a paragraph or heading that is only a link.
        (SMALL_PRINT.test(hint(c)) && s.text < 300) ||
        c.tag === "figcaption" ||
        (c.tag === "figure" && s.blocks <= 2 && s.text < 300) ||
        c.tag === "img" ||
        ((c.tag === "p" || /^h[1-6]$/.test(c.tag)) &&
          density > 0.6 &&
          s.text < 300 &&
          (s.link >= s.text || !isSentence(c))) ||
        (c.tag === "h1" && s.text < 300)
      ) {
        skip.add(c);
        continue;
      }
      prune(c);
    }
  };
  for (const r of roots) prune(r);
  return { roots, skip };
}

/**
 * A short, link-heavy paragraph that is a sentence: it ends as one (`.`, `!`, `?`, and their CJK
 * forms, maybe before a closing quote or bracket) and has words of its own outside its links.
 * `See <a>the book</a> and <a>this</a>.` and `请参阅<a>官方文档</a>。` are prose; a teaser
 * (`Read more <a>Council approves budget…</a>`), a share bar, a credit (`Photo by <a>…</a> on
 * <a>…</a>`) or a consent bar ending in its buttons are not.
 */
function isSentence(el: HtmlElement): boolean {
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
const SENTENCE_END = /[.!?\u3002\uff01\uff1f]["'\u201d\u2019\u00bb)\]]*$/u;

/** A list of links (navigation, related stories): its items say little besides their links. */
function linkList(list: HtmlElement, s: Stats): boolean {
  let items = 0;
  for (const c of list.children) if (typeof c !== "string" && c.tag === "li") items++;
  return s.text - s.link < 40 * Math.max(1, items);
}

/** Characters of text in `roots` once `skip` is left out. */
export function keptChars(roots: readonly HtmlElement[], skip: ReadonlySet<HtmlElement>): number {
  let n = 0;
  const walk = (el: HtmlElement) => {
    for (const c of el.children) {
      if (typeof c === "string") n += nonSpace(c);
      else if (!skip.has(c)) walk(c);
    }
  };
  for (const r of roots) walk(r);
  return n;
}

/** Characters of text in the whole tree. */
export function allChars(root: HtmlElement): number {
  return keptChars([root], new Set());
}
