/**
 * What HTML says about elements when it builds a tree from tags: which have no content, and
 * which end tags a page may leave out (a start tag implies them). Written from the HTML
 * standard's rules on optional tags and on "has an element in scope", reduced to what a text
 * extractor needs.
 */

/** Elements that never have content or a close tag. */
export const VOID = new Set([
  "area",
  "base",
  "basefont",
  "bgsound",
  "br",
  "col",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

/** Starts of these close an open `p` (the HTML standard's list of where `</p>` may be left out). */
const CLOSES_P = [
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dd",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "ul",
  "xmp",
];
const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"];

/**
 * For a start tag, the elements it closes while one of them is the current element (checked
 * again after each close): the end tags HTML lets a page leave out.
 */
export const IMPLIED_CLOSES: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const rules = new Map<string, Set<string>>();
  const add = (starts: readonly string[], closes: readonly string[]) => {
    for (const s of starts) {
      const set = rules.get(s) ?? new Set<string>();
      for (const c of closes) set.add(c);
      rules.set(s, set);
    }
  };
  add(CLOSES_P, ["p"]);
  add(HEADINGS, HEADINGS);
  add(["li"], ["li"]);
  add(["dd", "dt"], ["dd", "dt"]);
  add(["option", "optgroup"], ["option"]);
  add(["optgroup"], ["optgroup"]);
  add(["td", "th"], ["td", "th"]);
  add(["tr"], ["tr", "td", "th"]);
  add(["thead", "tbody", "tfoot"], ["thead", "tbody", "tfoot", "tr", "td", "th"]);
  add(["rt", "rp"], ["rt", "rp"]);
  add(["body"], ["head"]);
  add(["a"], ["a"]);
  return rules;
})();

/**
 * Start tags that close an open element further down the stack, past inline elements (`<p><b>x
 * <div>` closes the `b` and the `p`), and where that search stops: HTML's "in button scope" for
 * `p`, the list-item rule for `li`, `dd` and `dt`. The parser looks a bounded number of elements
 * down, so a deep stack costs a bounded amount per tag.
 */
const SCOPE_BOUNDARY = [
  "applet",
  "button",
  "caption",
  "html",
  "marquee",
  "object",
  "table",
  "td",
  "template",
  "th",
];
const LIST_BOUNDARY = [
  ...SCOPE_BOUNDARY,
  "article",
  "aside",
  "blockquote",
  "body",
  "details",
  "dl",
  "fieldset",
  "figure",
  "footer",
  "form",
  "header",
  "main",
  "menu",
  "nav",
  "ol",
  "pre",
  "section",
  "ul",
];
export const SCOPED_CLOSES: ReadonlyMap<
  string,
  { readonly targets: ReadonlySet<string>; readonly stops: ReadonlySet<string> }
> = (() => {
  const rules = new Map<string, { targets: ReadonlySet<string>; stops: ReadonlySet<string> }>();
  const p = { targets: new Set(["p"]), stops: new Set(SCOPE_BOUNDARY) };
  for (const start of CLOSES_P) rules.set(start, p);
  rules.set("li", { targets: new Set(["li"]), stops: new Set(LIST_BOUNDARY) });
  const definition = { targets: new Set(["dd", "dt"]), stops: new Set(LIST_BOUNDARY) };
  rules.set("dd", definition);
  rules.set("dt", definition);
  return rules;
})();
/** Elements whose content is SVG or MathML, where `<x/>` closes `x`. */
export const FOREIGN = new Set(["svg", "math"]);
