/**
 * The markdown renderer of the preview, for web pages and markdown: marked with its own link,
 * image, code and HTML renderers. The source has every `<` escaped before marked reads it, so
 * tool output is never markup; links keep only http(s) and mailto, images are off unless asked
 * for (https only); airlock's markers, redactions and invisible characters become elements.
 */
import { Marked, type Tokens } from "marked";
import {
  codePoint,
  escapeAll,
  escapeText,
  INVISIBLE,
  invisibleBadge,
  MARKER_LINE,
  REDACTED,
  redactedBadge,
} from "./escape.js";
import { keepCells, showDefinition, tableCells } from "./hidden-text.js";

/** What the markdown renderer needs of the preview's options. */
export interface MarkdownOptions {
  readonly images?: boolean;
}

const LINK_SCHEMES = /^(?:https?:\/\/|mailto:)/i;
const IMAGE_SCHEMES = /^https:\/\//i;
const INVISIBLE_MARK = /^\u27E6U\+([0-9A-F]{4,5})\u27E7/;
const REDACTED_AT_START = new RegExp(`^${REDACTED.source}`);

/**
 * The body of a markdown preview, as HTML built only from the renderer's own tags.
 *
 * @example renderMarkdown("# Title\n\nSome **bold** text", {}); // "<h1>Title</h1>\n<p>Some …"
 */
export function renderMarkdown(text: string, options: MarkdownOptions): string {
  // Tool output is never markup: every `<` is escaped before marked reads the source, and
  // invisible characters become a mark the inline extension turns into a badge.
  // Line ends as marked reads them (a lone `\r` is one too), so that tame sees the same lines.
  const source = tame(
    text
      .replace(/\r\n?/g, "\n")
      .replace(/</g, "&lt;")
      .replace(INVISIBLE, (c) => `\u27E6U+${codePoint(c)}\u27E7`),
  );
  return createMarked(options).parse(source, { async: false }) as string;
}

/**
 * Container markers (`>`, `-`, `*`, `+`, `1.`) a line keeps at its start: marked reads each
 * level by recursion, at a cost that doubles per quote level past about eight.
 */
const MAX_CONTAINERS = 8;
/** Emphasis delimiters a block may hold and still be read as emphasis. */
const MAX_DELIMITERS = 64;
/**
 * Link openers a block may hold and still be read as links: marked looks for each one's closer
 * through the rest of the block (80,000 unclosed `[`: 1.5 s). Past it the block's `[` are text.
 */
const MAX_BRACKETS = 512;
// One marker and the blanks after it; the next marker starts on a non-blank, so a line is
// matched one way only (linear, whatever the line).
const CONTAINER = String.raw`(?:>|[-+*](?=[ 	]|$)|\d{1,9}[.)](?=[ 	]|$))[ 	]*`;
const CONTAINERS = new RegExp(`^[ \t]{0,3}(?:${CONTAINER}){${MAX_CONTAINERS + 1},}`);
const KEPT_CONTAINERS = new RegExp(`^[ \t]{0,3}(?:${CONTAINER}){${MAX_CONTAINERS}}`);
const CONTAINER_START = new RegExp(`^[ \t]{0,3}${CONTAINER}`);
/** Lines a list item or a quote may go on without a marker before its block is ended. */
const MAX_LAZY = 64;
/** Indentation a line keeps: each list level under another is read again by recursion. */
const MAX_INDENT = 32;
const INDENT = /^[ \t]{33,}/;
/** A code fence as CommonMark opens one: a backtick fence's info string holds no backtick. */
const FENCE = /^ {0,3}(?:(`{3,})[^`]*|(~{3,}).*)$/;

/**
 * What marked would spend more than linear time or stack on, made plain: a line's container
 * markers (quote, list) past the eighth and its indentation past 32 columns are dropped; a block
 * (lines between blank lines, outside code fences) holding more than 64 emphasis delimiters has
 * them escaped, and one holding more than 512 `[` has those written as text, since marked
 * searches for each one's closer through the rest of the block; a list item or quote is ended
 * after 64 lines without a marker. What GFM would render as nothing is kept visible
 * (`hidden-text.ts`).
 *
 * @example tame("> ".repeat(3999) + "x"); // eight levels of quote, then "x"
 */
export function tame(source: string): string {
  const lines = source.split("\n");
  // The run of the fence open, if one is: only the same character, as long or longer, with
  // nothing after it but spaces, closes it.
  let fenced: string | undefined;
  let start = 0;
  let delimiters = 0;
  /** Lines since the block's last container marker (-1: no container in this block). */
  let lazy = -1;
  /** In a table: the cells of its header. */
  let cells: number | undefined;
  let brackets = 0;
  const close = (end: number) => {
    if (delimiters > MAX_DELIMITERS) {
      for (let i = start; i < end; i++) lines[i] = (lines[i] as string).replace(/[*_~]/g, "\\$&");
    }
    if (brackets > MAX_BRACKETS) {
      for (let i = start; i < end; i++) lines[i] = (lines[i] as string).replace(/\[/g, "&#91;");
    }
    delimiters = 0;
    brackets = 0;
    start = end + 1;
  };
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] as string;
    if (fenced !== undefined) {
      const run = /^ {0,3}(`+|~+) *$/.exec(line)?.[1];
      if (run?.[0] === fenced[0] && run.length >= fenced.length) fenced = undefined;
      start = i + 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      close(i);
      fenced = fence[1] ?? fence[2];
      cells = undefined;
      continue;
    }
    if (line.trim() === "") {
      close(i);
      lazy = -1;
      cells = undefined;
      continue;
    }
    const deep = CONTAINERS.exec(line);
    if (deep) {
      const kept = KEPT_CONTAINERS.exec(line)?.[0] ?? "";
      line = lines[i] = `${kept}${line.slice(deep[0].length)}`;
    }
    const indent = INDENT.exec(line);
    if (indent) line = lines[i] = `${" ".repeat(MAX_INDENT)}${line.slice(indent[0].length)}`;
    line = lines[i] = showDefinition(line);
    if (cells !== undefined) line = lines[i] = keepCells(line, cells);
    else if (i > start) cells = tableCells(lines[i - 1] as string, line);
    // Lines that go on a list item or a quote without a marker of their own: marked reads the
    // item again for each, so past MAX_LAZY the block is ended before the next one.
    if (CONTAINER_START.test(line)) lazy = 0;
    else if (lazy >= 0 && ++lazy > MAX_LAZY) {
      close(i);
      start = i;
      lines[i] = `\n${line}`;
      lazy = -1;
    }
    for (let j = 0; j < line.length; j++) {
      const c = line.charCodeAt(j);
      if (c === 0x2a || c === 0x5f || c === 0x7e) delimiters++;
      else if (c === 0x5b) brackets++;
    }
  }
  if (fenced === undefined) close(lines.length);
  return lines.join("\n");
}

/** The source's own `<` and `[`, escaped before the markdown was read, given back (for code). */
function unescapeSource(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&#91;/g, "[");
}

/** A URL the preview may link to: http, https or mailto, after decoding what marked kept. */
function safeHref(raw: string, schemes: RegExp): string | undefined {
  const href = unescapeSource(raw)
    .replace(/&amp;/g, "&")
    .replace(/[\t\n\r]/g, "")
    .replace(/^[^\x21-\uffff]+|[^\x21-\uffff]+$/g, "");
  if (!schemes.test(href)) return undefined;
  try {
    return new URL(href).href;
  } catch {
    return undefined;
  }
}

function createMarked(options: MarkdownOptions): Marked {
  return new Marked({
    gfm: true,
    breaks: false,
    async: false,
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag) {
        // Cannot happen (no `<` reaches marked), and if it did: text, never markup.
        return escapeAll(unescapeSource(text));
      },
      text(token: Tokens.Text | Tokens.Escape) {
        if ("tokens" in token && token.tokens) return this.parser.parseInline(token.tokens);
        return escapeText(token.text);
      },
      code({ text }: Tokens.Code) {
        return `<pre class="airlock-code"><code>${escapeAll(unescapeSource(text))}</code></pre>\n`;
      },
      codespan({ text }: Tokens.Codespan) {
        return `<code>${escapeAll(unescapeSource(text))}</code>`;
      },
      checkbox({ checked }: Tokens.Checkbox) {
        return checked ? "[x] " : "[ ] ";
      },
      heading({ tokens, depth }: Tokens.Heading) {
        const level = Math.min(6, Math.max(1, depth));
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      link({ href, tokens, autolink }: Tokens.Link) {
        const label = this.parser.parseInline(tokens);
        // A bare URL that ran into markup (`…x.js"></script>`) is text, not a link: the `<`
        // that would have ended it was escaped before marked read it.
        if (autolink && (href.includes("&lt;") || href.includes('"'))) return label;
        const url = safeHref(href, LINK_SCHEMES);
        if (url === undefined) return label;
        return `<a href="${escapeAll(url)}" rel="noopener noreferrer nofollow ugc">${label}</a>`;
      },
      image({ href, text }: Tokens.Image) {
        const alt = escapeText(text);
        const url = options.images ? safeHref(href, IMAGE_SCHEMES) : undefined;
        if (url === undefined) return `<span class="airlock-image">[image: ${alt}]</span>`;
        return `<img src="${escapeAll(url)}" alt="${alt}" referrerpolicy="no-referrer">`;
      },
    },
    extensions: [
      {
        // A marker line (`[airlock: lines 121–49,880 omitted]`) is its own element.
        name: "airlockMarker",
        level: "block",
        start: (src: string) => src.match(/^\[airlock: /m)?.index,
        tokenizer(src: string) {
          const line = /^[^\n]*(?:\n|$)/.exec(src)?.[0] ?? "";
          if (!MARKER_LINE.test(line.trim())) return undefined;
          return { type: "airlockMarker", raw: line, text: line.trim().slice(10, -1) };
        },
        renderer(token: Tokens.Generic) {
          return `<div class="airlock-marker">${escapeText(String(token.text))}</div>\n`;
        },
      },
      {
        name: "airlockRedacted",
        level: "inline",
        start: (src: string) => src.indexOf("[REDACTED:"),
        tokenizer(src: string) {
          const m = REDACTED_AT_START.exec(src);
          if (m === null) return undefined;
          return { type: "airlockRedacted", raw: m[0], rule: m[1] };
        },
        renderer(token: Tokens.Generic) {
          return redactedBadge(String(token.rule));
        },
      },
      {
        name: "airlockInvisible",
        level: "inline",
        start: (src: string) => src.indexOf("\u27E6U+"),
        tokenizer(src: string) {
          const m = INVISIBLE_MARK.exec(src);
          if (m === null) return undefined;
          return { type: "airlockInvisible", raw: m[0], code: m[1] };
        },
        renderer(token: Tokens.Generic) {
          return invisibleBadge(String(token.code));
        },
      },
    ],
  });
}
