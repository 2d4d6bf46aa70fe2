/**
 * Whether an element hides its content from the person reading the page while the model would
 * still read it: the `hidden` and `popover` attributes, `aria-hidden="true"`, and inline styles
 * that hide (`display:none`, `visibility:hidden`, `content-visibility:hidden`, `font-size:0`,
 * `opacity:0`, off-screen positioning, a zero-size box with overflow hidden, a zero clip), CSS
 * escapes read. Only inline styles are read: there is no
 * stylesheet engine without a DOM.
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
  const read = unescapeCss(raw);
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
  const style = attrs.style;
  const d = style === undefined || style === "" ? undefined : declarations(style);
  const display = d?.get("display");
  // A popover is shown only when a script or a button opens it: in the markup it is closed,
  // unless its own style says how to display it (or it is an open dialog).
  if (attrs.popover !== undefined && attrs.open === undefined && display === undefined) {
    return "hidden-attribute";
  }
  if (d === undefined) return undefined;
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
  /**
   * `.name` and `#name` that a rule shows and that win over a class's hiding rule: an id's rule
   * (more specific), or an `!important` display or visibility.
   */
  readonly shown: Set<string>;
  /** `.key` and `#key` whose hiding rule is `!important`: nothing but the rule's own kind wins. */
  readonly forced: Set<string>;
  /** Rules for a tag with a class or an id read (their keys are looked up only when some are). */
  tagged: number;
}

/** A rule's key for a selector with a tag (`p.note`): it hides only that tag's elements. */
const tagged = (tag: string, name: string) => `${tag.toLowerCase()}\u0000${name}`;
/** A rule body that shows with `!important`. */
const IMPORTANT_SHOW = /(?:display|visibility)\s*:[^;]*!\s*important/i;

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
    shown: new Set(),
    forced: new Set(),
    tagged: 0,
  },
): StyleRules {
  const { classes, ids, shown, forced } = rules;
  // `<!--` and `-->` around a sheet (old pages hid CSS from old browsers so) are no part of a rule.
  const text = stripCssComments(css.slice(0, MAX_STYLE_CHARS)).replace(/<!--|-->/g, " ");
  let depth = 0;
  let start = 0;
  let atRule = 0; // depth at which an at-rule block opened (0: none)
  // A stray `}` at the top starts a rule that CSS then drops: the next rule is not read.
  let stray = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{") {
      const prelude = stray ? "" : text.slice(start, i).trim();
      stray = false;
      depth++;
      if (atRule === 0 && prelude.startsWith("@")) atRule = depth;
      start = i + 1;
      if (atRule === 0 && depth === 1) {
        const close = text.indexOf("}", i + 1);
        if (close === -1) break;
        let body = text.slice(i + 1, close);
        let selectors = prelude;
        const inner = body.lastIndexOf("{");
        if (inner !== -1) {
          // A nested rule (`.a { .b { display:none } }`) hides `.a .b`: read as its own `.b`
          // (more than it hides, never less); `&.b` is `.a.b`, not read.
          const from = Math.max(body.lastIndexOf(";", inner), body.lastIndexOf("{", inner - 1)) + 1;
          selectors = body.slice(from, inner).trim();
          body = body.slice(inner + 1);
          if (selectors.includes("&")) selectors = "";
        }
        const reason = hiddenBy({ style: body });
        if (reason !== undefined && reason !== "offscreen") {
          const important = /!\s*important/i.test(body);
          for (const selector of selectors.split(",")) {
            const m = SIMPLE_SELECTOR.exec(selector.trim());
            if (m === null) continue;
            const name = m[3] as string;
            const key = m[1] ? tagged(m[1], name) : name;
            if (m[1]) rules.tagged++;
            (m[2] === "." ? classes : ids).set(key, reason);
            if (important) forced.add(`${m[2]}${key}`);
          }
        } else if (reason === undefined) {
          // A later rule for the selector that sets what an earlier one hid by wins (the cascade,
          // by order alone): `.x{display:none}` then `.x{display:block}` shows it. An id's rule
          // or an `!important` one wins over a class's rule whatever the order.
          const sets = declarations(body);
          const important = IMPORTANT_SHOW.test(body);
          for (const selector of selectors.split(",")) {
            const m = SIMPLE_SELECTOR.exec(selector.trim());
            if (m === null) continue;
            const name = m[3] as string;
            const key = m[1] ? tagged(m[1], name) : name;
            const map = m[2] === "." ? classes : ids;
            const was = map.get(key);
            const property = was === undefined ? undefined : PROPERTY[was];
            // A rule that is not `!important` does not undo one that is.
            const holds = forced.has(`${m[2]}${key}`) && !important;
            if (property !== undefined && sets.has(property) && !holds) {
              map.delete(key);
              forced.delete(`${m[2]}${key}`);
            }
            if ((important || m[2] === "#") && (sets.has("display") || sets.has("visibility"))) {
              shown.add(`${m[2]}${name}`);
            }
          }
        }
        i = close;
        // A nested rule closed: the rule around it is still open (its `}` comes later).
        if (inner === -1) depth--;
        start = close + 1;
      }
    } else if (c === "}") {
      if (depth === 0) stray = true;
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
  const id = attrs.id;
  const names = attrs.class?.split(/[ \t\n\r\f]+/) ?? [];
  // An `!important` rule that shows one of its names, or an id's rule, wins over a rule that is
  // not `!important`; the element's own style too. An `!important` hiding rule wins over both.
  const shown = (byClass: boolean) =>
    rules.shown.size > 0 &&
    ((byClass && id !== undefined && rules.shown.has(`#${id}`)) ||
      names.some((n) => n !== "" && rules.shown.has(`.${n}`)));
  const hidesBy = (map: Map<string, HiddenReason>, sign: string, key: string, byClass: boolean) => {
    const reason = map.get(key);
    if (reason === undefined) return undefined;
    if (rules.forced.size > 0 && rules.forced.has(`${sign}${key}`)) return reason;
    return overridden(attrs, reason) || shown(byClass) ? undefined : reason;
  };
  const hides = (map: Map<string, HiddenReason>, sign: string, name: string, byClass: boolean) =>
    hidesBy(map, sign, name, byClass) ??
    (tag === undefined || rules.tagged === 0
      ? undefined
      : hidesBy(map, sign, tagged(tag, name), byClass));
  if (id !== undefined) {
    const reason = hides(rules.ids, "#", id, false);
    if (reason !== undefined) return reason;
  }
  if (rules.classes.size === 0) return undefined;
  for (const name of names) {
    if (name === "") continue;
    const reason = hides(rules.classes, ".", name, true);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** The property a hiding reason of a rule sets: an inline style that sets it too wins. */
const PROPERTY: Partial<Record<HiddenReason, string>> = {
  "display-none": "display",
  "visibility-hidden": "visibility",
  "font-size-0": "font-size",
  "opacity-0": "opacity",
};

/** Whether the element's own style sets what the rule's reason hides by (inline wins). */
function overridden(attrs: Readonly<Record<string, string>>, reason: HiddenReason): boolean {
  const property = PROPERTY[reason];
  const style = attrs.style;
  if (property === undefined || style === undefined || style === "") return false;
  return declarations(style).has(property);
}

/**
 * Whether a `<style>` element's sheet applies to a page on a screen: no `media` or one for all or
 * screens, and no `type` other than CSS.
 */
export function styleApplies(attrs: Readonly<Record<string, string>>): boolean {
  const type = attrs.type?.trim().toLowerCase();
  if (type !== undefined && type !== "" && type !== "text/css") return false;
  const media = attrs.media?.trim().toLowerCase();
  return media === undefined || media === "" || media === "all" || media === "screen";
}
