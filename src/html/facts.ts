/**
 * The facts a page states about itself: its title, its author and its date, from `<meta>` tags
 * first, then from the body (`rel="author"`, `itemprop="author"`, a `.byline`, the first
 * `<time datetime>`). Each walk is bounded (elements visited, characters read), so a hostile
 * page cannot make it cost more than a fixed amount.
 */
import type { HtmlElement } from "./tree.js";

export interface PageFacts {
  readonly title?: string;
  readonly byline?: string;
  readonly date?: string;
}

/** Longest byline and date kept. */
const BYLINE_MAX = 200;
const DATE_MAX = 64;

/**
 * @example
 * factsOf(builder.title, builder.meta, builder.root); // { title: "…", byline: "Ann Lee" }
 */
export function factsOf(
  title: string | undefined,
  meta: Readonly<Record<string, string>>,
  root: HtmlElement,
): PageFacts {
  const byline = meta.author ?? meta["article:author"] ?? bylineOf(root);
  const date = meta["article:published_time"] ?? meta.date ?? dateOf(root);
  const heading = title ?? meta["og:title"];
  return {
    ...(heading !== undefined ? { title: heading } : {}),
    ...(byline ? { byline: byline.trim().slice(0, BYLINE_MAX) } : {}),
    ...(date ? { date: date.trim().slice(0, DATE_MAX) } : {}),
  };
}

const BYLINE_CLASS = /(?:^|\s)(?:byline|by-line|author|author-name|article-author)(?:\s|$)/i;

/** The page's author as marked in the body: `rel="author"`, `itemprop="author"`, `.byline`. */
function bylineOf(root: HtmlElement): string | undefined {
  const stack: HtmlElement[] = [root];
  let seen = 0;
  while (stack.length > 0 && seen < 20_000) {
    const el = stack.pop() as HtmlElement;
    seen++;
    const marked =
      /(?:^|\s)author(?:\s|$)/i.test(el.attrs.rel ?? "") ||
      el.attrs.itemprop?.toLowerCase() === "author" ||
      BYLINE_CLASS.test(el.attrs.class ?? "");
    if (marked) {
      const text = textOf(el)
        .replace(/^\s*by\s+/i, "")
        .trim();
      if (text !== "" && text.length <= 120) return text;
    }
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (c !== undefined && typeof c !== "string") stack.push(c);
    }
  }
  return undefined;
}

/** The first 400 or so characters of an element's text, whitespace collapsed. */
function textOf(el: HtmlElement): string {
  let out = "";
  const stack: Array<HtmlElement | string> = [el];
  let seen = 0;
  while (stack.length > 0 && out.length < 400 && seen < 20_000) {
    const n = stack.pop() as HtmlElement | string;
    seen++;
    if (typeof n === "string") out += n.slice(0, 400);
    // An element flattened at the depth cap can have a great many children: the first do.
    else
      for (let i = Math.min(n.children.length, 1000) - 1; i >= 0; i--)
        stack.push(n.children[i] as HtmlElement | string);
  }
  return out.replace(/\s+/g, " ");
}

/** The first `<time datetime>` of the page, a common way to mark a publication date. */
function dateOf(root: HtmlElement): string | undefined {
  const stack: HtmlElement[] = [root];
  let seen = 0;
  while (stack.length > 0 && seen < 5000) {
    const el = stack.pop() as HtmlElement;
    seen++;
    if (el.tag === "time" && el.attrs.datetime) return el.attrs.datetime;
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (c !== undefined && typeof c !== "string") stack.push(c);
    }
  }
  return undefined;
}
