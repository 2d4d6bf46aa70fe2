/**
 * A light tree of an HTML page, built from htmlparser2's streaming events with no DOM: only
 * the elements and text a reader would see. Content the reader never sees is dropped as it
 * streams past and counted by reason: scripts, styles, templates, embedded documents, comments,
 * hidden inputs, and anything hidden by an attribute or an inline style (with everything inside
 * it: a visible child of a hidden parent is hidden too).
 */
import type { HtmlRemoved } from "../pipeline/shaped.js";
import {
  type HiddenReason,
  hiddenBy,
  hiddenByRules,
  parseStyleRules,
  type StyleRules,
  styleApplies,
} from "./hidden.js";
import { createHtmlParser } from "./parse.js";
import { type TakenPiece, takeComplete } from "./take.js";

/** What a piece of text joined to the one before it weighs beyond its characters. */
const ROPE_NODE = 32;

export type { TakenPiece } from "./take.js";

export interface HtmlElement {
  readonly tag: string;
  readonly parent: HtmlElement | undefined;
  readonly children: Array<HtmlElement | string>;
  /** The attributes the renderer and the content scorer read (href, alt, class, id, …). */
  readonly attrs: Readonly<Record<string, string>>;
}

/** What was dropped and why. */
export type Removed = HtmlRemoved;

export function createRemoved(): Removed {
  return {
    hiddenChars: 0,
    hiddenElements: 0,
    byReason: {},
    unsafeLinks: 0,
    linksOverCap: 0,
    boilerplateChars: 0,
    boilerplateBlocks: {},
  };
}

export interface ParsedPage {
  readonly root: HtmlElement;
  readonly title: string | undefined;
  /** `<meta>` facts: author, published time, site name. */
  readonly meta: Readonly<Record<string, string>>;
  readonly removed: Removed;
}

/**
 * Elements whose content is never page text. A formula (`math`) is: its tokens are what it
 * says, but its `annotation` (a TeX or other source kept for software) is not shown.
 */
const DROPPED = new Set([
  "script",
  "noscript",
  "template",
  "svg",
  "annotation",
  "annotation-xml",
  "canvas",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "noembed",
  "noframes",
  "applet",
  "audio",
  "video",
  "select",
  "datalist",
]);

/** Elements whose content is read for facts or rules, never shown. */
const NOT_BODY = new Set(["head", "title", "style"]);

/** Attributes kept on elements: what rendering and content scoring read. */
const KEPT = [
  "href",
  "alt",
  "class",
  "id",
  "colspan",
  "start",
  "datetime",
  "itemprop",
  "itemtype",
  "role",
  "rel",
  "open",
  "type",
];

/** Deeper elements are flattened into their ancestor at this depth: walks stay shallow. */
export const MAX_DEPTH = 200;

/**
 * Drops the elements a rule read after them hides (a `<style>` at the end of the body hides an
 * element above it, as in a browser), counting them and their text as hidden. An element a rule
 * hid when it opened never reached the tree. One pass, no recursion (the tree is MAX_DEPTH deep).
 */
function dropLateHidden(root: HtmlElement, rules: StyleRules, removed: Removed): void {
  const stack: HtmlElement[] = [root];
  for (let el = stack.pop(); el !== undefined; el = stack.pop()) {
    const kids = el.children;
    let kept = 0;
    for (const child of kids) {
      if (typeof child !== "string") {
        const reason = hiddenByRules(child.attrs, rules, child.tag);
        if (reason !== undefined) {
          removed.hiddenElements++;
          count(removed, reason);
          removed.hiddenChars += textChars(child);
          continue;
        }
        stack.push(child);
      }
      kids[kept++] = child;
    }
    kids.length = kept;
  }
}

/** Characters of text under an element (trimmed per piece, as hidden text is counted). */
function textChars(element: HtmlElement): number {
  let n = 0;
  const stack: HtmlElement[] = [element];
  for (let el = stack.pop(); el !== undefined; el = stack.pop()) {
    for (const child of el.children) {
      if (typeof child === "string") n += child.trim().length;
      else stack.push(child);
    }
  }
  return n;
}

function count(removed: Removed, reason: string): void {
  removed.byReason[reason] = (removed.byReason[reason] ?? 0) + 1;
}

/**
 * Parses HTML text (fed in pieces) into a light tree.
 *
 * @example
 * const build = createTreeBuilder({ closedDetails: "keep" });
 * build.write(html);
 * const { root, title, removed } = build.end();
 */
export function createTreeBuilder(options: { readonly closedDetails: "keep" | "drop" }): {
  write(text: string): void;
  end(): ParsedPage;
  /**
   * Detaches what is complete, so a huge page can be rendered and let go piece by piece: every
   * child of an open element but the open one, and of the text still growing, what ends on a
   * word (in `pre`, on a line). After `end()`, everything left.
   */
  take(): TakenPiece;
  /** The tree as built so far (for the facts a page states early: byline, date). */
  readonly root: HtmlElement;
  /** The title, once the head has been read. */
  readonly title: string | undefined;
  /** `<meta>` facts read so far. */
  readonly meta: Readonly<Record<string, string>>;
  /** What was dropped so far. */
  readonly removed: Removed;
  /** About what the tree holds: 64 per element plus its text's characters. */
  readonly weight: number;
} {
  const removed = createRemoved();
  const root: HtmlElement = { tag: "#root", parent: undefined, children: [], attrs: {} };
  const meta: Record<string, string> = {};
  let current = root;
  /**
   * One entry per open tag, as the parser reports them (every open gets exactly one close,
   * implied or not): whether it created an element. Skipping is by level, never by counting
   * closes, so implied closes inside dropped content cannot unbalance it.
   */
  const opened: boolean[] = [];
  let weight = 0;
  let depth = 0;
  /** Dropped content: the level of the element that started it (0: not skipping). */
  let skipLevel = 0;
  let skipHidden = false;
  /** Inside a `<style>`: its text is read for hiding rules, never shown. */
  let styleLevel = 0;
  let css = "";
  const rules: StyleRules = {
    classes: new Map(),
    ids: new Map(),
    tagged: 0,
  };
  // An element was built; a hiding rule came after one was (`dropLateHidden` at the end).
  let made = false;
  let late = false;
  // The `<style>` being read applies to a screen (`styleApplies`).
  let styleOn = true;
  let headLevel = 0;
  let title: string | undefined;
  let titleLevel = 0;
  /** `<details>` elements that are closed and dropped: their bodies but the summary. */
  const closedDetails = new Set<HtmlElement>();

  const skipping = () => skipLevel > 0;
  const startSkip = (reason: string | undefined, hidden: boolean) => {
    skipLevel = opened.length;
    skipHidden = hidden;
    if (reason !== undefined) count(removed, reason);
  };

  const parser = createHtmlParser({
    onopentag(name, attribs) {
      opened.push(false);
      if (skipping()) return;
      if (name === "title" && title === undefined) {
        titleLevel = opened.length;
        title = "";
        return;
      }
      if (name === "meta") {
        const key = (attribs.name ?? attribs.property ?? attribs.itemprop ?? "").toLowerCase();
        if (key !== "" && attribs.content !== undefined && meta[key] === undefined) {
          meta[key] = attribs.content;
        }
      }
      if (name === "head") {
        // Only the title and meta facts matter in the head; nothing in it is body text.
        count(removed, "head");
        headLevel = opened.length;
        return;
      }
      // A sheet is read for its hiding rules, in the head or the body.
      if (name === "style") {
        count(removed, "style");
        styleLevel = opened.length;
        styleOn = styleApplies(attribs);
        css = "";
        return;
      }
      if (headLevel > 0) return startSkip(undefined, false);
      if (DROPPED.has(name)) return startSkip(name, false);
      // A dialog is shown only when open.
      if (name === "dialog" && attribs.open === undefined) {
        removed.hiddenElements++;
        return startSkip("closed-dialog", true);
      }
      if (name === "input") {
        if (attribs.type?.toLowerCase() === "hidden") {
          count(removed, "hidden-input");
          removed.hiddenChars += attribs.value?.length ?? 0;
        }
        return;
      }
      const hidden: HiddenReason | undefined =
        hiddenBy(attribs) ?? hiddenByRules(attribs, rules, name);
      if (hidden !== undefined) {
        removed.hiddenElements++;
        return startSkip(hidden, true);
      }
      if (closedDetails.has(current) && name !== "summary") {
        removed.hiddenElements++;
        return startSkip("closed-details", true);
      }
      if (depth >= MAX_DEPTH) return;
      const attrs: Record<string, string> = {};
      for (const k of KEPT) {
        const v = attribs[k];
        if (v !== undefined) attrs[k] = v;
      }
      const element: HtmlElement = { tag: name, parent: current, children: [], attrs };
      made = true;
      weight += 64;
      current.children.push(element);
      current = element;
      depth++;
      opened[opened.length - 1] = true;
      if (name === "details" && attribs.open === undefined && options.closedDetails === "drop") {
        closedDetails.add(element);
      }
    },
    onclosetag() {
      const level = opened.length;
      const created = opened.pop();
      if (level === styleLevel) {
        styleLevel = 0;
        const before = rules.classes.size + rules.ids.size;
        // A sheet for print or speech, or not CSS, hides nothing on a screen.
        if (styleOn) parseStyleRules(css, rules);
        // A rule read after elements were built hides them too (a sheet applies to the whole page).
        if (made && rules.classes.size + rules.ids.size > before) late = true;
        css = "";
      }
      if (level === skipLevel) skipLevel = 0;
      if (level === headLevel) headLevel = 0;
      if (level === titleLevel) titleLevel = 0;
      if (created && current.parent !== undefined) {
        closedDetails.delete(current);
        current = current.parent;
        depth--;
      }
    },
    ontext(text) {
      if (styleLevel > 0) {
        if (css.length < 512 * 1024) css += text;
        return;
      }
      if (titleLevel > 0 && title !== undefined) {
        if (title.length < 2048) title += text;
        return;
      }
      if (skipping()) {
        if (skipHidden) removed.hiddenChars += text.trim().length;
        return;
      }
      if (headLevel > 0) return;
      if (closedDetails.has(current)) {
        removed.hiddenChars += text.trim().length;
        return;
      }
      weight += text.length;
      const children = current.children;
      const last = children.length - 1;
      if (last >= 0 && typeof children[last] === "string") {
        // Joined as a rope (a node per piece, past what its characters weigh): counted, so
        // that a run of texts with nothing between them (tags past MAX_DEPTH) is taken early.
        children[last] += text;
        weight += ROPE_NODE;
      } else children.push(text);
    },
    oncomment(text) {
      count(removed, "comment");
      removed.hiddenChars += text.trim().length;
    },
    skips(name, attribs) {
      if (DROPPED.has(name) || NOT_BODY.has(name)) return true;
      if (name === "dialog" && attribs.open === undefined) return true;
      return hiddenBy(attribs) !== undefined || hiddenByRules(attribs, rules, name) !== undefined;
    },
    onskippedtext(text) {
      removed.hiddenChars += text.trim().length;
    },
  });

  /** Elements whose content began in a piece already taken, with the list items it held. */
  const begun = new WeakMap<HtmlElement, number>();
  let ended = false;

  const take = (): TakenPiece => {
    // A page that streams: what a rule read since the last piece hides goes before this one.
    if (late) {
      late = false;
      dropLateHidden(root, rules, removed);
    }
    const { piece, depth, held } = takeComplete(current, begun, ended);
    weight = ended ? 0 : 64 * depth + held;
    return piece;
  };

  return {
    get weight() {
      return weight;
    },
    write(text) {
      parser.write(text);
    },
    take,
    root,
    meta,
    removed,
    get title() {
      return title?.replace(/\s+/g, " ").trim() || undefined;
    },
    end() {
      ended = true;
      parser.end();
      if (late) {
        late = false;
        dropLateHidden(root, rules, removed);
      }
      const cleanTitle = title?.replace(/\s+/g, " ").trim();
      return {
        root,
        title: cleanTitle === "" ? undefined : cleanTitle,
        meta,
        removed,
      };
    },
  };
}
