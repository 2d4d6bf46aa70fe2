/**
 * The light tree measured once, bottom up: for every element the text beneath it, the share of
 * that text inside links, its commas (a sign of prose) and its blocks; and the paragraphs of the
 * page, including text written loose between blocks (`<div>Text<br>more text<p>…</p></div>`),
 * which a reader sees as a paragraph of its own.
 */
import type { HtmlElement } from "./tree.js";

export interface Stats {
  /** Non-space characters of text beneath. */
  text: number;
  /** Of those, inside links (a link to a place on the same page counts 0.3 a character). */
  link: number;
  /** Commas beneath (a sign of prose). */
  commas: number;
  /** Block elements beneath: a `div` with none is written like a paragraph. */
  blocks: number;
  /** `article` elements beneath. */
  articles: number;
}

/** A run of inline text between the blocks of a container: a paragraph without a `<p>`. */
export interface LooseRun {
  readonly parent: HtmlElement;
  text: number;
  link: number;
  commas: number;
}

export interface Measured {
  readonly stats: Map<HtmlElement, Stats>;
  /** Every element, in page order (parents before children). */
  readonly all: HtmlElement[];
  readonly runs: LooseRun[];
}

export const BLOCKISH = new Set([
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

/** Containers whose loose text between blocks reads as paragraphs. */
const LOOSE = new Set([
  "div",
  "section",
  "article",
  "main",
  "body",
  "center",
  "li",
  "form",
  "span",
]);

export function nonSpace(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/**
 * What a link's text weighs in link density: a link to a place on the same page (a table of
 * contents, a permalink, a footnote) keeps the reader in the text, and weighs 0.3; `#` and
 * `#!…` alone are buttons.
 */
function linkWeight(a: HtmlElement): number {
  const href = a.attrs.href;
  if (href === undefined) return 1;
  // A bare `#` is a button that scripts handle, not a place.
  return href.length > 1 && href.charCodeAt(0) === 35 && href.charCodeAt(1) !== 33 ? 0.3 : 1;
}

/** Commas of every script: Latin, Arabic, ideographic and fullwidth, small and vertical forms. */
function isComma(c: number): boolean {
  return (
    c === 0x2c ||
    c === 0x60c ||
    c === 0x3001 ||
    c === 0xff0c ||
    c === 0xfe10 ||
    c === 0xfe11 ||
    c === 0xfe50 ||
    c === 0x2e32 ||
    c === 0x2e34 ||
    c === 0x2e41
  );
}

/** Non-space characters and commas of a text, in one pass. */
function countText(text: string, linked: number): Stats {
  let n = 0;
  let commas = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) {
      n++;
      if (c < 0x2d ? c === 0x2c : c > 0x5ff && isComma(c)) commas++;
    }
  }
  return { text: n, link: linked * n, commas, blocks: 0, articles: 0 };
}

/**
 * Measures the tree under `root` (at most MAX_DEPTH deep: the recursion stays shallow).
 *
 * @example
 * const { stats, all, runs } = measure(page.root);
 * stats.get(page.root)?.text; // characters of text on the page
 */
export function measure(root: HtmlElement): Measured {
  const stats = new Map<HtmlElement, Stats>();
  const all: HtmlElement[] = [];
  const runs: LooseRun[] = [];
  const walk = (el: HtmlElement, inLink: number): Stats => {
    all.push(el);
    const s: Stats = { text: 0, link: 0, commas: 0, blocks: 0, articles: 0 };
    const linked = el.tag === "a" && inLink === 0 ? linkWeight(el) : inLink;
    const loose = LOOSE.has(el.tag);
    /** The run of inline content since the last block child (of a loose container). */
    let run: LooseRun | undefined;
    for (const c of el.children) {
      let k: Stats;
      if (typeof c === "string") {
        k = countText(c, linked);
      } else {
        k = walk(c, linked);
        s.blocks += k.blocks + (BLOCKISH.has(c.tag) ? 1 : 0);
        s.articles += k.articles + (c.tag === "article" ? 1 : 0);
        if (BLOCKISH.has(c.tag) || k.blocks > 0) {
          // A block ends the run before it, which is then a run beside blocks.
          if (run !== undefined && run.text > 0) runs.push(run);
          run = undefined;
          s.text += k.text;
          s.link += k.link;
          s.commas += k.commas;
          continue;
        }
      }
      s.text += k.text;
      s.link += k.link;
      s.commas += k.commas;
      if (loose) {
        run ??= { parent: el, text: 0, link: 0, commas: 0 };
        run.text += k.text;
        run.link += k.link;
        run.commas += k.commas;
      }
    }
    // Only beside blocks: a container of inline content alone is a paragraph itself.
    if (run !== undefined && run.text > 0 && s.blocks > 0) runs.push(run);
    stats.set(el, s);
    return s;
  };
  walk(root, 0);
  return { stats, all, runs };
}

/** The text beneath an element, joined (for short elements: a heading, a caption). */
export function textOf(el: HtmlElement): string {
  let out = "";
  const walk = (e: HtmlElement) => {
    for (const c of e.children) {
      if (typeof c === "string") out += c;
      else {
        out += " ";
        walk(c);
      }
    }
  };
  walk(el);
  return out;
}
