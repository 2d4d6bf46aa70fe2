/**
 * The light tree as readable text: headings as `#` lines, paragraphs apart, lists as `- ` and
 * `1. ` items, `pre` verbatim in fences, blockquotes as `> ` lines, tables as pipe tables (TSV
 * when wide), images as their alt text, links as their text and a number, listed at the end
 * (only http(s) and mailto; other schemes are dropped and counted). Whitespace is collapsed
 * outside `pre`.
 */
import type { HtmlElement, Removed } from "./tree.js";

export interface RenderOptions {
  /** List links at the end. Default true. */
  readonly links: boolean;
  readonly maxLinks: number;
  /** Resolves relative links; without it they are not listed. */
  readonly baseUrl: string | undefined;
  /** Elements left out (page furniture found by main-content extraction). */
  readonly skip?: ReadonlySet<HtmlElement>;
  /**
   * For an element whose start was rendered in an earlier piece of a streamed page (a table has
   * its header there), the list items shown there; undefined for others.
   */
  readonly continued?: (el: HtmlElement) => number | undefined;
}

export interface Link {
  readonly index: number;
  readonly href: string;
  readonly text: string;
}

const BLOCK = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "nav",
  "aside",
  "ul",
  "ol",
  "li",
  "dl",
  "dt",
  "dd",
  "figure",
  "figcaption",
  "form",
  "fieldset",
  "legend",
  "address",
  "details",
  "summary",
  "center",
  "body",
  "html",
  "hgroup",
  "caption",
  "tr",
  "tbody",
  "thead",
  "tfoot",
]);
const HEADING = /^h([1-6])$/;
/** A table wider than this is written as TSV: a pipe table of many columns wastes tokens. */
const PIPE_MAX_COLUMNS = 8;

/** A URL the model may be shown, resolved against the base, or undefined (and why). */
export function safeUrl(
  raw: string,
  baseUrl: string | undefined,
): { url: string } | { unsafe: boolean } {
  // Browsers ignore tabs and newlines inside URLs and strip leading and trailing control
  // characters and spaces: so must the check.
  const href = raw.replace(/[\t\n\r]/g, "").replace(/^[^\x21-\uffff]+|[^\x21-\uffff]+$/g, "");
  if (href === "" || href.startsWith("#")) return { unsafe: false };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme !== "http" && scheme !== "https" && scheme !== "mailto") return { unsafe: true };
    try {
      return { url: new URL(href).href };
    } catch {
      return { unsafe: false };
    }
  }
  if (baseUrl === undefined) return { unsafe: false };
  try {
    const url = new URL(href, baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") return { unsafe: true };
    return { url: url.href };
  } catch {
    return { unsafe: false };
  }
}

/** Collapsed inline text: runs of whitespace (and no-break spaces) become one space. */
const SPACE = /[\s\u00a0]+/g;

class Writer {
  readonly blocks: string[] = [];
  private lines: string[] = [];
  private line = "";
  /**
   * The line is empty or ends with a space. Kept as a flag: `endsWith` on a line built by `+=`
   * flattens it every time, quadratic on one paragraph of many links.
   */
  private spaced = true;

  text(t: string): void {
    const collapsed = t.replace(SPACE, " ");
    if (collapsed === "" || (collapsed === " " && this.spaced)) return;
    const add = this.spaced ? collapsed.trimStart() : collapsed;
    if (add === "") return;
    this.line += add;
    this.spaced = add.charCodeAt(add.length - 1) === 32;
  }

  br(): void {
    this.lines.push(this.line.trim());
    this.line = "";
    this.spaced = true;
  }

  /** True when the last block is a list item, which the next item joins without a blank line. */
  private item = false;

  /**
   * Ends the current block; `prefix` is written before its first line, `indent` before the
   * rest. A list item (`item`) follows the previous item on the next line.
   */
  end(prefix = "", indent = "", item = false): void {
    this.br();
    const lines = this.lines.filter((l, i, all) => l !== "" || (i > 0 && all[i - 1] !== ""));
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    this.lines = [];
    if (lines.length === 0) return;
    const text = lines.map((l, i) => (i === 0 ? prefix : indent) + l).join("\n");
    if (item && this.item && this.blocks.length > 0) {
      this.blocks[this.blocks.length - 1] += `\n${text}`;
    } else this.blocks.push(text);
    this.item = item;
  }

  raw(block: string): void {
    this.end();
    if (block.trim() !== "") {
      this.blocks.push(block);
      this.item = false;
    }
  }

  /** Inline text of the current line, and resets it (for headings, cells). */
  take(): string {
    this.br();
    const out = this.lines.filter((l) => l !== "").join(" ");
    this.lines = [];
    return out;
  }
}

/**
 * Renders `roots` (and their subtrees, except `skip`) as text; links are numbered in order.
 *
 * @example
 * renderText([page.root], { links: true, maxLinks: 50, baseUrl: undefined }, removed);
 */
export function renderText(
  roots: readonly HtmlElement[],
  options: RenderOptions,
  removed: Removed,
): { text: string; links: Link[] } {
  const links: Link[] = [];
  const byUrl = new Map<string, number>();
  const out = new Writer();

  const link = (href: string, text: string): string => {
    if (!options.links || text.trim() === "") return "";
    const safe = safeUrl(href, options.baseUrl);
    if ("unsafe" in safe) {
      if (safe.unsafe) removed.unsafeLinks++;
      return "";
    }
    let index = byUrl.get(safe.url);
    if (index === undefined) {
      if (links.length >= options.maxLinks) {
        removed.linksOverCap++;
        return "";
      }
      index = links.length + 1;
      byUrl.set(safe.url, index);
      links.push({ index, href: safe.url, text: text.replace(SPACE, " ").trim().slice(0, 200) });
    }
    return ` [${index}]`;
  };

  /** Text of an element and its descendants as one collapsed line (cells, headings, link text). */
  const inline = (el: HtmlElement): string => {
    const w = new Writer();
    const walk = (e: HtmlElement) => {
      for (const c of e.children) {
        if (typeof c === "string") w.text(c);
        else if (!options.skip?.has(c)) {
          if (c.tag === "img") {
            const alt = c.attrs.alt?.trim();
            if (alt) w.text(` [image: ${alt}] `);
          } else if (c.tag === "br") w.text(" ");
          else if (c.tag === "a" && c.attrs.href !== undefined) {
            const label = inline(c);
            w.text(label);
            w.text(link(c.attrs.href, label));
          } else {
            if (BLOCK.has(c.tag) || HEADING.test(c.tag)) w.text(" ");
            walk(c);
            if (BLOCK.has(c.tag) || HEADING.test(c.tag)) w.text(" ");
          }
        }
      }
    };
    walk(el);
    return w.take();
  };

  const preText = (el: HtmlElement): string => {
    let text = "";
    const walk = (e: HtmlElement) => {
      for (const c of e.children) {
        if (typeof c === "string") text += c;
        else if (c.tag === "br") text += "\n";
        else walk(c);
      }
    };
    walk(el);
    return text.replace(/^\n/, "").replace(/\s+$/, "");
  };

  const table = (el: HtmlElement): void => {
    const rows: Array<{ cells: string[]; header: boolean }> = [];
    const walk = (e: HtmlElement, inHead: boolean) => {
      for (const c of e.children) {
        if (typeof c === "string" || options.skip?.has(c)) continue;
        if (c.tag === "tr") {
          const cells: string[] = [];
          let header = inHead;
          for (const cell of c.children) {
            if (typeof cell === "string" || (cell.tag !== "td" && cell.tag !== "th")) continue;
            if (cell.tag === "th") header = header || cells.length === 0;
            const text = inline(cell).replace(/\|/g, "\\|");
            const span = Math.min(
              20,
              Math.max(1, Number.parseInt(cell.attrs.colspan ?? "1", 10) || 1),
            );
            cells.push(text);
            for (let k = 1; k < span; k++) cells.push("");
          }
          if (cells.some((x) => x !== "")) rows.push({ cells, header });
        } else if (c.tag === "table") {
          table(c); // a nested table stands on its own
        } else walk(c, inHead || c.tag === "thead");
      }
    };
    walk(el, false);
    if (rows.length === 0) return;
    // A loop, not Math.max(...rows): spreading 130,000 rows into a call overflows the stack.
    let width = 0;
    for (const r of rows) width = Math.max(width, r.cells.length);
    const pad = (cells: string[]) => {
      const out = cells.slice();
      while (out.length < width) out.push("");
      return out;
    };
    if (width > PIPE_MAX_COLUMNS) {
      out.raw(rows.map((r) => pad(r.cells).join("\t")).join("\n"));
      return;
    }
    if (width === 1) {
      // A one-column "table" is layout: its cells are paragraphs.
      for (const r of rows) out.raw(r.cells[0] as string);
      return;
    }
    const lines: string[] = [];
    const first = rows[0] as { cells: string[]; header: boolean };
    // A streamed table's later pieces are more rows of the table begun above.
    const continued = options.continued?.(el) !== undefined;
    const body = first.header && !continued ? rows.slice(1) : rows;
    if (!continued) {
      lines.push(`| ${pad(first.header ? first.cells : []).join(" | ")} |`);
      lines.push(`|${" --- |".repeat(width)}`);
    }
    for (const r of body) lines.push(`| ${pad(r.cells).join(" | ")} |`);
    out.raw(lines.join("\n"));
  };

  const list = (el: HtmlElement, level: number): void => {
    out.end("", "", level > 0);
    let n = Number.parseInt(el.attrs.start ?? "1", 10);
    if (!Number.isFinite(n)) n = 1;
    // A streamed list goes on numbering after the items an earlier piece showed.
    n += options.continued?.(el) ?? 0;
    const indent = "  ".repeat(level);
    for (const c of el.children) {
      if (typeof c === "string") {
        out.text(c);
        continue;
      }
      if (options.skip?.has(c)) continue;
      if (c.tag !== "li") {
        block(c, level);
        continue;
      }
      const marker = el.tag === "ol" ? `${n++}. ` : "- ";
      // The item's own text, then its nested lists below it.
      for (const d of c.children) {
        if (typeof d === "string") out.text(d);
        else if (options.skip?.has(d)) continue;
        else if (d.tag === "ul" || d.tag === "ol") {
          out.end(indent + marker, `${indent}${" ".repeat(marker.length)}`, true);
          list(d, level + 1);
        } else block(d, level + 1, indent + marker);
      }
      out.end(indent + marker, `${indent}${" ".repeat(marker.length)}`, true);
    }
    out.end("", "", level > 0);
  };

  /** An element in a flow of blocks; `prefix` carries a list item's marker to its first block. */
  const block = (el: HtmlElement, level: number, prefix = ""): void => {
    const tag = el.tag;
    const h = HEADING.exec(tag);
    if (h) {
      out.end();
      const text = inline(el);
      if (text !== "") out.raw(`${"#".repeat(Number(h[1]))} ${text}`);
      return;
    }
    switch (tag) {
      case "br":
        out.br();
        return;
      case "hr":
        out.end();
        return;
      case "img": {
        const alt = el.attrs.alt?.trim();
        if (alt) out.text(` [image: ${alt}] `);
        return;
      }
      case "pre": {
        const text = preText(el);
        if (text.trim() !== "") out.raw(`\`\`\`\n${text}\n\`\`\``);
        return;
      }
      case "blockquote": {
        // Its content rendered on its own (as a plain block), then quoted line by line.
        const content: HtmlElement = {
          tag: "div",
          parent: undefined,
          children: el.children,
          attrs: {},
        };
        const inner = renderText([content], { ...options, links: false }, removed).text;
        out.end();
        // Links inside quotes are kept as text: quotes are rendered on their own.
        if (inner !== "")
          out.raw(
            inner
              .split("\n")
              .map((l) => (l === "" ? ">" : `> ${l}`))
              .join("\n"),
          );
        return;
      }
      case "table":
        out.end();
        table(el);
        return;
      case "ul":
      case "ol":
        list(el, level);
        return;
      case "a":
        if (el.attrs.href !== undefined) {
          const text = inline(el);
          out.text(text);
          out.text(link(el.attrs.href, text));
          return;
        }
        break;
    }
    const isBlock = BLOCK.has(tag);
    if (isBlock && prefix === "") out.end();
    for (const c of el.children) {
      if (typeof c === "string") out.text(c);
      else if (!options.skip?.has(c)) block(c, level);
    }
    if (isBlock && prefix === "") out.end();
  };

  for (const r of roots) block(r, 0);
  out.end();
  let text = out.blocks.join("\n\n");
  if (links.length > 0)
    text += `\n\nLinks:\n${links.map((l) => `[${l.index}] ${l.href}`).join("\n")}`;
  return { text, links };
}
