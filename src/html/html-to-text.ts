/**
 * `htmlToText`: a web page as the text a person reads on it, with no DOM (htmlparser2, in
 * Workers and browsers alike). Read under a byte cap, decoded in the page's charset, parsed into
 * a light tree that keeps only visible content, reduced to the main content when one stands
 * out, and rendered as plain structured text with a numbered link list.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { concat } from "../intake/budget.js";
import { DEFAULT_MAX_BYTES, type StreamSource } from "../intake/input.js";
import { openSource } from "../intake/source.js";
import { detectCharset, PRESCAN_BYTES } from "./charset.js";
import { allChars, findMainContent, keptChars } from "./main-content.js";
import { type Link, renderText } from "./render.js";
import { createTreeBuilder, type HtmlElement, type Removed } from "./tree.js";

export interface HtmlToTextOptions {
  /** `main` (default): the main content when one stands out, else everything; `full`: everything. */
  readonly mode?: "main" | "full";
  /** What to do with the bodies of closed `<details>`: keep (default) or drop them. */
  readonly closedDetails?: "keep" | "drop";
  /** List links at the end, numbered. Default true. */
  readonly links?: boolean;
  /** Links listed at most. Default 50. */
  readonly maxLinks?: number;
  /** Resolves relative links (without it they are not listed). */
  readonly baseUrl?: string;
  /** The declared media type; its charset wins over the page's `<meta>`. */
  readonly contentType?: string;
  /** Bytes read at most. Default 256 MiB. */
  readonly maxBytes?: number;
}

export interface HtmlText {
  readonly text: string;
  readonly title: string | undefined;
  readonly byline?: string;
  readonly date?: string;
  readonly links: Link[];
  readonly removed: Removed;
  /** The mode used: `main` asked for falls back to `full` when no main content stands out. */
  readonly mode: "main" | "full";
  readonly charset: string;
  /** Bytes read (characters, for a string). */
  readonly bytes: number;
  /** True when `maxBytes` stopped the read. */
  readonly capped: boolean;
}

export type HtmlInput = StreamSource | Response;

/**
 * @example
 * const { text, title, removed } = await htmlToText(await fetch(url));
 * removed.hiddenChars; // characters of hidden text (display:none, aria-hidden, …) left out
 */
export async function htmlToText(
  input: HtmlInput,
  options: HtmlToTextOptions = {},
): Promise<HtmlText> {
  const out: { result?: HtmlText } = {};
  for await (const _ of htmlPieces(input, options, Number.POSITIVE_INFINITY, out)) {
    // The one piece is the whole text, also in the result.
  }
  return out.result as HtmlText;
}

/** Characters of rendered text a streamed page gathers before it is handed on. */
const PIECE_CHARS = 256 * 1024;

/**
 * The page's text in pieces. While its light tree weighs at most `streamAbove` (64 an element
 * plus the characters of its text) the page is held and reduced to its main content, and the
 * text comes as one piece; past it, the page is too big to hold: what is complete is rendered in full mode (no link list) and let go as it streams, so
 * memory stays flat. `out.result` is set at the end (its `text` is empty when streamed).
 *
 * @example
 * for await (const piece of htmlPieces(stream, {}, 8 << 20, info)) keep(piece);
 */
export async function* htmlPieces(
  input: HtmlInput,
  options: HtmlToTextOptions,
  streamAbove: number,
  out: { result?: HtmlText },
): AsyncGenerator<string> {
  const mode = options.mode ?? "main";
  if (mode !== "main" && mode !== "full") {
    throw new AirlockError("options/invalid", `htmlToText: mode must be "main" or "full"`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const builder = createTreeBuilder({ closedDetails: options.closedDetails ?? "keep" });
  let charset = "utf-8";
  let bytes = 0;
  let capped = false;
  let streamed = false;
  let pending = "";
  /** Renders and lets go what the page has completed, once it is past `streamAbove`. */
  const flush = (all: boolean): string | undefined => {
    if (!streamed && builder.weight <= streamAbove && !all) return undefined;
    streamed = true;
    const taken = builder.take();
    if (taken.length > 0) {
      const part: HtmlElement = { tag: "div", parent: undefined, children: taken, attrs: {} };
      const text = renderText(
        [part],
        { links: false, maxLinks: 0, baseUrl: undefined },
        builder.removed,
      ).text;
      if (text !== "") pending += `${text}\n\n`;
    }
    if (pending.length < PIECE_CHARS && !all) return undefined;
    const piece = pending;
    pending = "";
    return piece === "" ? undefined : piece;
  };
  if (typeof input === "string") {
    // Bytes are counted as UTF-8, like every other input; a string over the cap is cut at a
    // character boundary.
    let text = input;
    bytes = utf8Length(input);
    if (bytes > maxBytes) {
      const encoded = new TextEncoder().encode(input).subarray(0, maxBytes);
      text = new TextDecoder().decode(encoded).replace(/\uFFFD$/, "");
      capped = true;
      bytes = maxBytes;
    }
    text = text.replace(/^\uFEFF/, "");
    const step = 1 << 20;
    for (let i = 0; i < text.length; i += step) {
      builder.write(text.slice(i, i + step));
      const piece = flush(false);
      if (piece !== undefined) yield piece;
    }
  } else {
    let contentType = options.contentType;
    let source: StreamSource = input as StreamSource;
    if (typeof Response !== "undefined" && input instanceof Response) {
      contentType ??= input.headers.get("content-type") ?? undefined;
      source = input.body ?? "";
    }
    const src = openSource(source);
    const head: Uint8Array[] = [];
    let headBytes = 0;
    let decoder: TextDecoder | undefined;
    const feed = (chunk: Uint8Array) => {
      if (decoder === undefined) return;
      builder.write(decoder.decode(chunk, { stream: true }));
    };
    try {
      for (;;) {
        let chunk = await src.read();
        if (chunk === undefined) break;
        if (bytes + chunk.byteLength > maxBytes) {
          chunk = chunk.subarray(0, maxBytes - bytes);
          capped = true;
        }
        bytes += chunk.byteLength;
        if (decoder === undefined) {
          head.push(chunk);
          headBytes += chunk.byteLength;
          if (headBytes < PRESCAN_BYTES && !capped) continue;
          decoder = start(head, contentType);
          for (const h of head) feed(h);
          head.length = 0;
        } else feed(chunk);
        const piece = flush(false);
        if (piece !== undefined) yield piece;
        if (capped) break;
      }
    } finally {
      if (capped) src.cancel().catch(() => undefined);
    }
    if (decoder === undefined) {
      decoder = start(head, contentType);
      for (const h of head) feed(h);
    }
    builder.write(decoder.decode());
    charset = decoder.encoding;
  }
  const page = builder.end();
  const removed = page.removed;
  const body = page.root;
  const byline = page.meta.author ?? page.meta["article:author"] ?? bylineOf(body);
  const date = page.meta["article:published_time"] ?? page.meta.date ?? dateOf(body);
  const facts = {
    title: page.title ?? page.meta["og:title"],
    ...(byline ? { byline: byline.trim().slice(0, 200) } : {}),
    ...(date ? { date: date.trim().slice(0, 64) } : {}),
    removed,
    charset,
    bytes,
    capped,
  };
  if (streamed) {
    const piece = flush(true);
    if (piece !== undefined) yield piece;
    out.result = { ...facts, text: "", links: [], mode: "full" };
    return;
  }
  const main = mode === "main" ? findMainContent(body) : undefined;
  const roots: HtmlElement[] = main ? main.roots : [body];
  const skip = main?.skip ?? new Set<HtmlElement>();
  if (main) removed.boilerplateChars = Math.max(0, allChars(body) - keptChars(roots, skip));
  const rendered = renderText(
    roots,
    {
      links: options.links ?? true,
      maxLinks: options.maxLinks ?? 50,
      baseUrl: options.baseUrl,
      skip,
    },
    removed,
  );
  out.result = {
    ...facts,
    text: rendered.text,
    links: rendered.links,
    mode: main ? "main" : "full",
  };
  yield rendered.text;

  function start(head: Uint8Array[], contentType: string | undefined): TextDecoder {
    const label = detectCharset(concat(head, PRESCAN_BYTES), contentType);
    charset = label;
    return new TextDecoder(label);
  }
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

function textOf(el: HtmlElement): string {
  let out = "";
  const stack: Array<HtmlElement | string> = [el];
  while (stack.length > 0 && out.length < 400) {
    const n = stack.pop() as HtmlElement | string;
    if (typeof n === "string") out += n;
    else
      for (let i = n.children.length - 1; i >= 0; i--)
        stack.push(n.children[i] as HtmlElement | string);
  }
  return out.replace(/\s+/g, " ");
}

/** UTF-8 bytes of a string, without encoding it. */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : c < 0x800 ? 1 : 1;
  }
  return n;
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
