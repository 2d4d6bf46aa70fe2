/**
 * What a page's own names say about an element: its tag, its class, id and role words, and its
 * schema.org type. Names are the weakest evidence the content scorer reads (structure comes
 * first), so each word list is kept to words that mean the same thing on every site.
 */
import type { BoilerplateReason } from "../pipeline/html-facts.js";
import type { HtmlElement } from "./tree.js";

const POSITIVE =
  /(?:^|[\s_-])(?:article|body|content|entry|hentry|h-entry|main|page|post|text|blog|story|prose|richtext|rich-text|storycontent|articlebody)(?:$|[\s_-])|articlebody|article-body|post-body|entry-content|story-body/;
const NEGATIVE =
  /(?:^|[\s_-])(?:ad|ads|adv|advert|advertisement|banner|breadcrumbs?|combx|comments?|commentlist|community|consent|cookies?|disqus|foot|footer|footnotes?|gdpr|header|masthead|menu|modal|nav|navbar|navigation|newsletter|outbrain|pager|pagination|popup|promo|promos|recirc|related|remark|rss|share|sharing|shoutbox|sidebar|signup|skyscraper|sponsor|sponsored|subscribe|subscription|taboola|tags|toolbar|tools|trending|widget|most-popular|popular|recommended|read-more|author-bio|bio|paywall|overlay)(?:$|[\s_-])/;
/**
 * Names of containers that are almost never the content (comment threads, menus, sidebars …),
 * unless the name also says content: their text does not vote and they are not chosen.
 */
const UNLIKELY =
  /(?:^|[\s_-])(?:comment|communit|disqus|banner|breadcrumb|combx|cookie|consent|gdpr|footer|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|sponsor|supplemental|pagination|popup|newsletter|subscribe|recirc|outbrain|taboola|share|sharing|promo|trending|most-popular|masthead|navbar|ad-break|agegate)/;
const MAYBE = /and|article|body|column|content|main|shadow|story|entry/;
/** Names of the small print around a story: bylines, dates, captions, credits. */
export const SMALL_PRINT =
  /(?:^|[\s_-])(?:byline|dateline|timestamp|date|time|author|authors|meta|credit|credits|caption|captions|kicker|eyebrow|label|published|updated|photo|image|img|video|media-caption|read-more|readmore|more-on|also|see-also)(?:$|[\s_-])/;

/** The furniture a name says a block is, checked in this order (a "comment-nav" is comments). */
const REASONS: ReadonlyArray<readonly [BoilerplateReason, RegExp]> = [
  [
    "comments",
    /(?:^|[\s_-])(?:comments?|commentlist|comment-list|disqus|replies|remarks?|respond)(?:$|[\s_-])/,
  ],
  [
    "related",
    /(?:^|[\s_-])(?:related|recirc|outbrain|taboola|trending|most-popular|popular|recommended|read-more|readmore|more-on|see-also|sidebar|supplemental)(?:$|[\s_-])/,
  ],
  [
    "ads",
    /(?:^|[\s_-])(?:ad|ads|adv|advert|advertisement|banner|sponsor|sponsored|promo|promos|newsletter|subscribe|subscription|signup|paywall|popup|modal|overlay|consent|cookies?|gdpr|skyscraper|agegate)(?:$|[\s_-])/,
  ],
  ["footer", /(?:^|[\s_-])(?:foot|footer|copyright|legal)(?:$|[\s_-])/],
  [
    "navigation",
    /(?:^|[\s_-])(?:nav|navbar|navigation|menu|breadcrumbs?|pager|pagination|toolbar|tools|tags|masthead|header|share|sharing|social|rss)(?:$|[\s_-])/,
  ],
  ["smallPrint", SMALL_PRINT],
];

/** Elements that are page furniture wherever they are, and what furniture they are. */
export const FURNITURE_TAGS: ReadonlyMap<string, BoilerplateReason> = new Map([
  ["nav", "navigation"],
  ["aside", "related"],
  ["footer", "footer"],
  ["form", "navigation"],
]);

/**
 * An element's class, id and role, lowercased. An id or class that is a sentence's slug (five
 * words or more joined by hyphens: `sharing-with-a-single-developer`, an anchor made from a
 * heading) says nothing about what the element is, and is left out.
 */
export function hint(el: HtmlElement): string {
  const { class: cls, id, role } = el.attrs;
  // Most elements have no names at all.
  if (cls === undefined && id === undefined && role === undefined) return "";
  const names = `${cls ?? ""} ${id ?? ""} ${role ?? ""}`.toLowerCase();
  // Most names have no slug in them: split only those that may.
  if (!hyphens(names, 4)) return names;
  let out = "";
  for (const w of names.split(/\s+/)) if (w !== "" && !SLUG.test(w)) out += ` ${w}`;
  return out;
}

/** Whether `text` has at least `n` hyphens. */
function hyphens(text: string, n: number): boolean {
  let i = text.indexOf("-");
  for (let k = 1; i !== -1; k++, i = text.indexOf("-", i + 1)) if (k >= n) return true;
  return false;
}
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+){4,}$/;

/** schema.org types of a written work: the element is one article's scope. */
const ARTICLE_TYPE = /schema\.org\/(?:\w*Article|BlogPosting|Report|Review|Recipe|HowTo)\b/i;

/**
 * +25 for names that say content, −25 for names that say furniture; +50 for a schema.org
 * `articleBody`, +25 for the scope of a schema.org article.
 */
export function classWeight(el: HtmlElement): number {
  let w = 0;
  const h = hint(el);
  if (h.trim() !== "") {
    if (NEGATIVE.test(h)) w -= 25;
    if (POSITIVE.test(h)) w += 25;
  }
  if (el.attrs.itemprop?.toLowerCase() === "articlebody") w += 50;
  if (ARTICLE_TYPE.test(el.attrs.itemtype ?? "")) w += 25;
  return w;
}

/** A container named like comments, menus, sidebars … and not also like content. */
export function unlikely(el: HtmlElement): boolean {
  if (el.tag === "body" || el.tag === "article" || el.tag === "main" || el.tag === "a")
    return false;
  const h = hint(el);
  return h.trim() !== "" && UNLIKELY.test(h) && !MAYBE.test(h);
}

/** The furniture an element's names say it is, if any. */
export function reasonByName(el: HtmlElement): BoilerplateReason | undefined {
  const h = hint(el);
  if (h.trim() === "") return undefined;
  for (const [reason, re] of REASONS) if (re.test(h)) return reason;
  return undefined;
}

/** The tag's prior as a container of content (Readability's weights). */
export function tagWeight(tag: string): number {
  switch (tag) {
    case "article":
      return 10;
    case "main":
    case "div":
      return 5;
    case "section":
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
