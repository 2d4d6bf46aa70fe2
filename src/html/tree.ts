/**
 * A light tree of an HTML page, built from htmlparser2's streaming events with no DOM: only
 * the elements and text a reader would see. Content the reader never sees is dropped as it
 * streams past and counted by reason: scripts, styles, templates, embedded documents, comments,
 * hidden inputs, and anything hidden by an attribute or an inline style (with everything inside
 * it: a visible child of a hidden parent is hidden too).
 */
import { Parser } from "htmlparser2";
import type { HtmlRemoved } from "../pipeline/shaped.js";
import {
  type HiddenReason,
  hiddenBy,
  hiddenByRules,
  parseStyleRules,
  type StyleRules,
} from "./hidden.js";

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
  };
}

export interface ParsedPage {
  readonly root: HtmlElement;
  readonly title: string | undefined;
  /** `<meta>` facts: author, published time, site name. */
  readonly meta: Readonly<Record<string, string>>;
  readonly removed: Removed;
}

/** Elements whose content is never page text. */
const DROPPED = new Set([
  "script",
  "noscript",
  "template",
  "svg",
  "math",
  "canvas",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "audio",
  "video",
  "select",
  "datalist",
]);

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
  "role",
  "rel",
  "open",
  "type",
];

/** The longest unfinished tag held back between pieces. */
const HOLD_MAX = 64 * 1024;

/** Deeper elements are flattened into their ancestor at this depth: walks stay shallow. */
export const MAX_DEPTH = 200;

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
   * Detaches what is complete (every child of an open element but the last), in document
   * order, so a huge page can be rendered and let go piece by piece.
   */
  take(): Array<HtmlElement | string>;
  /** The title, once the head has been read. */
  readonly title: string | undefined;
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
   * One entry per open tag, as htmlparser2 reports them (every open gets exactly one close,
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
  let rules: StyleRules = { classes: new Map(), ids: new Map() };
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

  const parser = new Parser(
    {
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
        if (headLevel > 0 && name === "style") {
          count(removed, "style");
          styleLevel = opened.length;
          css = "";
          return;
        }
        if (headLevel > 0) return startSkip(undefined, false);
        if (name === "style") {
          count(removed, "style");
          styleLevel = opened.length;
          css = "";
          return;
        }
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
        const hidden: HiddenReason | undefined = hiddenBy(attribs) ?? hiddenByRules(attribs, rules);
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
          const found = parseStyleRules(css);
          rules = {
            classes: new Map([...rules.classes, ...found.classes]),
            ids: new Map([...rules.ids, ...found.ids]),
          };
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
        if (last >= 0 && typeof children[last] === "string") children[last] += text;
        else children.push(text);
      },
      oncomment(text) {
        count(removed, "comment");
        removed.hiddenChars += text.trim().length;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  // The text after the last `<` waits for the next piece: if the input ends inside a tag, the
  // unfinished tag is dropped (as a browser does), not shown as text.
  let held = "";
  return {
    get weight() {
      return weight;
    },
    write(text) {
      const all = held + text;
      const lt = all.lastIndexOf("<");
      if (lt === -1 || all.indexOf(">", lt) !== -1 || all.length - lt > HOLD_MAX) {
        held = "";
        parser.write(all);
      } else {
        held = all.slice(lt);
        parser.write(all.slice(0, lt));
      }
    },
    take() {
      const path: HtmlElement[] = [];
      for (let e: HtmlElement | undefined = current; e !== undefined; e = e.parent) path.unshift(e);
      const out: Array<HtmlElement | string> = [];
      for (const e of path) {
        const done = e.children.length - 1;
        if (done <= 0) continue;
        out.push(...e.children.splice(0, done));
      }
      weight = 0;
      return out;
    },
    removed,
    get title() {
      return title?.replace(/\s+/g, " ").trim() || undefined;
    },
    end() {
      if (held !== "" && !/^<[a-zA-Z/!?]/.test(held)) parser.write(held);
      held = "";
      parser.end();
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
