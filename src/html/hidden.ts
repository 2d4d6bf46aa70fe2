/**
 * Whether an element hides its content from the person reading the page while the model would
 * still read it: the `hidden` and `popover` attributes, `aria-hidden="true"`, and inline styles
 * that hide (`display:none`, `visibility:hidden`, `content-visibility:hidden`, `font-size:0`,
 * `opacity:0`, off-screen positioning, a zero-size box with overflow hidden, a zero clip), their
 * CSS escapes read; and the page's own `<style>` rules for simple selectors (`parseStyleRules`).
 * There is no cascade engine without a DOM: a rule that shows never undoes one that hides.
 */

/** Why content was dropped: a hiding technique, or an element whose content is never text. */
export type HiddenReason =
  | "hidden-attribute"
  | "aria-hidden"
  | "display-none"
  | "visibility-hidden"
  | "font-size-0"
  | "opacity-0"
  | "offscreen"
  | "zero-size"
  | "closed-details";

/**
 * CSS without its comments, in one pass: a comment never closed runs to the end (as CSS reads
 * it). A lazy `/\*[\s\S]*?\*\//g` would scan to the end again from every unclosed opener.
 */
export function stripCssComments(css: string): string {
  let open = css.indexOf("/*");
  if (open === -1) return css;
  let out = "";
  let from = 0;
  while (open !== -1) {
    out += css.slice(from, open);
    const close = css.indexOf("*/", open + 2);
    if (close === -1) return out;
    from = close + 2;
    open = css.indexOf("/*", from);
  }
  return out + css.slice(from);
}

/** A CSS escape: `\` and one to six hex digits (a space after them is theirs), or any other character. */
const CSS_ESCAPE = /\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n\r\f])?|([^\n\r\f0-9a-fA-F]))/g;

/**
 * CSS text with its escapes read (`d\isplay` is `display`, `\6e one` is `none`), as a browser
 * reads them: a code point that is zero, a surrogate or past Unicode's end is U+FFFD.
 */
function unescapeCss(css: string): string {
  return css.replace(CSS_ESCAPE, (_, hex: string | undefined, char: string | undefined) => {
    if (hex === undefined) return char as string;
    const code = Number.parseInt(hex, 16);
    return code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff
      ? "\ufffd"
      : String.fromCodePoint(code);
  });
}

/**
 * A name or a keyword as CSS reads it. An escape makes an identifier, so it counts only where the
 * unescaped text is a plain keyword (`\6e one` is `none`); otherwise the raw text is kept, which
 * no check matches (`\30` is an identifier, not the number 0; `none\9` is not `none`).
 */
function keyword(raw: string): string {
  if (!raw.includes("\\")) return raw.toLowerCase();
  // An escaped `!important` is one all the same (`!\important`): it goes, with the spaces before
  // it (spaces only: an escaped tab stays, and `none\9` is no keyword).
  const read = unescapeCss(raw)
    .replace(/!\s*important\s*$/i, "")
    .replace(/ +$/, "");
  return /^-?[a-zA-Z][a-zA-Z-]*$/.test(read) ? read.toLowerCase() : raw;
}

/** Where `text` has `char` not escaped by a `\`, from `from`; -1 when it has none. */
function unescaped(text: string, char: string, from = 0): number {
  for (let i = text.indexOf(char, from); i !== -1; i = text.indexOf(char, i + 1)) {
    let slashes = 0;
    while (i - slashes - 1 >= from && text[i - slashes - 1] === "\\") slashes++;
    if (slashes % 2 === 0) return i;
  }
  return -1;
}

/**
 * The declarations of an inline style, property names lowercased, values trimmed. Escapes are
 * read in names and keywords only, after the split: an escaped `;` or `:` is a character of the
 * declaration, not a separator.
 */
function declarations(style: string): Map<string, string> {
  const out = new Map<string, string>();
  // Comments in a style attribute can split a property from its value: remove them first.
  const css = stripCssComments(style);
  let at = 0;
  while (at <= css.length) {
    let end = css.includes("\\") ? unescaped(css, ";", at) : css.indexOf(";", at);
    if (end === -1) end = css.length;
    const part = css.slice(at, end);
    at = end + 1;
    const colon = part.includes("\\") ? unescaped(part, ":") : part.indexOf(":");
    if (colon === -1) continue;
    const name = keyword(part.slice(0, colon).trim());
    const value = keyword(
      part
        .slice(colon + 1)
        .replace(/(^|[^\\])!\s*important\s*$/i, "$1")
        .trim(),
    );
    if (name !== "") out.set(name, value);
  }
  return out;
}

/** A CSS length that is zero (`0`, `0px`, `0.0em`, `0%`). */
const ZERO = /^[+-]?(?:0+(?:\.0+)?|\.0+)(?:[a-z%]+)?$/;
/** A length far off-screen: -1000 or less in px, or -100 or less in em/rem/vw/vh/%. */
function offscreen(value: string | undefined): boolean {
  if (value === undefined) return false;
  const m = /^(-\d+(?:\.\d+)?)(px|em|rem|vw|vh|%|pt)?$/.exec(value.replace(/\s+/g, ""));
  if (m === null) return false;
  const n = Number(m[1]);
  return m[2] === undefined || m[2] === "px" || m[2] === "pt" ? n <= -999 : n <= -99;
}

/**
 * The reason an element with these attributes hides its content, or undefined.
 *
 * @example
 * hiddenBy({ style: "position:absolute; left:-9999px" }); // "offscreen"
 */
export function hiddenBy(attrs: Readonly<Record<string, string>>): HiddenReason | undefined {
  // `hidden="until-found"` is hidden too (a browser reveals it only to find-in-page).
  if (attrs.hidden !== undefined) return "hidden-attribute";
  if (attrs["aria-hidden"]?.trim().toLowerCase() === "true") return "aria-hidden";
  // A popover is shown only when a script or a button opens it: in the markup it is closed.
  if (attrs.popover !== undefined) return "hidden-attribute";
  const style = attrs.style;
  if (style === undefined || style === "") return undefined;
  const d = declarations(style);
  const display = d.get("display");
  if (display === "none") return "display-none";
  const visibility = d.get("visibility");
  if (visibility === "hidden" || visibility === "collapse") return "visibility-hidden";
  // Its content is not rendered (unlike `auto`, which renders it when near the screen).
  if (d.get("content-visibility") === "hidden") return "visibility-hidden";
  const fontSize = d.get("font-size");
  if (fontSize !== undefined && ZERO.test(fontSize)) return "font-size-0";
  const opacity = d.get("opacity");
  if (opacity !== undefined && /^(?:0+(?:\.0+)?|\.0+)%?$/.test(opacity)) return "opacity-0";
  const position = d.get("position");
  if (position === "absolute" || position === "fixed") {
    if (offscreen(d.get("left")) || offscreen(d.get("top")) || offscreen(d.get("right"))) {
      return "offscreen";
    }
    const clip = d.get("clip")?.replace(/\s+/g, "");
    if (
      clip !== undefined &&
      /^rect\(0(?:px)?[, ]?0(?:px)?[, ]?0(?:px)?[, ]?0(?:px)?\)$/.test(clip)
    ) {
      return "offscreen";
    }
  }
  if (offscreen(d.get("text-indent"))) return "offscreen";
  const clipPath = d.get("clip-path");
  if (clipPath !== undefined && /inset\(\s*50%/.test(clipPath)) return "zero-size";
  const overflow = d.get("overflow");
  const width = d.get("width");
  const height = d.get("height");
  if (
    overflow === "hidden" &&
    ((width !== undefined && ZERO.test(width)) || (height !== undefined && ZERO.test(height)))
  ) {
    return "zero-size";
  }
  if (d.get("transform")?.includes("scale(0")) return "zero-size";
  return undefined;
}

/**
 * Hiding rules a page declares in its own `<style>` elements, for simple selectors: a class
 * (`.promo-note`), an id (`#x`), or a tag with a class (`p.x`), alone or in a list. Rules inside
 * `@media` and other at-rules are ignored (they hide for some screens only), as are selectors
 * with combinators or pseudo-classes. A stylesheet loaded from elsewhere is not seen.
 */
export interface StyleRules {
  /** Class names (a tag's rule keyed `tag\0name`) and the way their rule hides. */
  readonly classes: Map<string, HiddenReason>;
  readonly ids: Map<string, HiddenReason>;
  /** Rules for a tag with a class or an id read (their keys are looked up only when some are). */
  tagged: number;
}

/** A rule's key for a selector with a tag (`p.note`): it hides only that tag's elements. */
const tagged = (tag: string, name: string) => `${tag.toLowerCase()}\u0000${name}`;

/** Characters of stylesheet read at most (per page). */
const MAX_STYLE_CHARS = 512 * 1024;
const SIMPLE_SELECTOR = /^([a-zA-Z][a-zA-Z0-9-]*)?([.#])(-?[_a-zA-Z][\w-]*)$/;

/**
 * Reads the hiding rules of one stylesheet into `rules` (a page's sheets add up in one set of
 * maps, never copied: a page of many `<style>` blocks stays linear).
 *
 * @example
 * parseStyleRules(".note{display:none} @media print{.x{display:none}}").classes; // Map { "note" → "display-none" }
 */
export function parseStyleRules(
  css: string,
  rules: StyleRules = {
    classes: new Map(),
    ids: new Map(),
    tagged: 0,
  },
): StyleRules {
  const { classes, ids } = rules;
  // `<!--` and `-->` around a sheet (old pages hid CSS from old browsers so) are no part of a rule.
  const text = stripCssComments(css.slice(0, MAX_STYLE_CHARS)).replace(/<!--|-->/g, " ");
  let depth = 0;
  let start = 0;
  let atRule = 0; // depth at which an at-rule block opened (0: none)
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") {
      const prelude = text.slice(start, i).trim();
      depth++;
      if (atRule === 0 && prelude.startsWith("@")) atRule = depth;
      start = i + 1;
      if (atRule === 0 && depth === 1) {
        const close = text.indexOf("}", i + 1);
        if (close === -1) break;
        // Up to the first `}`: a nested rule's declarations count for the rule around it (it
        // hides more than CSS would, never less).
        const body = text.slice(i + 1, close);
        const reason = hiddenBy({ style: body.replaceAll("{", ";") });
        if (reason !== undefined && reason !== "offscreen") {
          for (const selector of prelude.split(",")) {
            const m = SIMPLE_SELECTOR.exec(selector.trim());
            if (m === null) continue;
            const name = m[3] as string;
            if (m[1]) rules.tagged++;
            (m[2] === "." ? classes : ids).set(m[1] ? tagged(m[1], name) : name, reason);
          }
        }
        i = close;
        depth--;
        start = close + 1;
      }
    } else if (c === "}") {
      if (depth === atRule) atRule = 0;
      depth = Math.max(0, depth - 1);
      start = i + 1;
    } else if (c === ";" && depth === 0) start = i + 1;
  }
  return rules;
}

/** The reason the page's own stylesheet hides an element with these attributes, or undefined. */
export function hiddenByRules(
  attrs: Readonly<Record<string, string>>,
  rules: StyleRules,
  tag?: string,
): HiddenReason | undefined {
  if (rules.classes.size === 0 && rules.ids.size === 0) return undefined;
  const ruleOf = (map: Map<string, HiddenReason>, name: string) =>
    map.get(name) ??
    (tag === undefined || rules.tagged === 0 ? undefined : map.get(tagged(tag, name)));
  const id = attrs.id;
  if (id !== undefined) {
    const reason = ruleOf(rules.ids, id);
    if (reason !== undefined) return reason;
  }
  const cls = attrs.class;
  if (cls === undefined || rules.classes.size === 0) return undefined;
  for (const name of cls.split(/[ \t\n\r\f]+/)) {
    const reason = name === "" ? undefined : ruleOf(rules.classes, name);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/**
 * Whether a `<style>` element's sheet applies to a page on a screen: no `media` or one for all or
 * screens, and no `type` other than CSS.
 */
export function styleApplies(attrs: Readonly<Record<string, string>>): boolean {
  const type = attrs.type?.trim().toLowerCase();
  if (type !== undefined && type !== "" && type !== "text/css") return false;
  // Read unless every query of the list is for a medium that is no screen: a query it cannot
  // judge (`(min-width: 1px)`, `only screen and …`) may apply, and a sheet that may hides.
  const media = attrs.media?.trim().toLowerCase();
  if (media === undefined || media === "") return true;
  return !media.split(",").every((query) => NOT_SCREEN.test(query.trim()));
}

/** A media query for a medium that is no screen only (`print`, `speech`, `only print and …`). */
const NOT_SCREEN = /^(?:only\s+)?(?:print|speech|aural|braille|embossed|tty)(?:\s+and\b.*)?$/;
