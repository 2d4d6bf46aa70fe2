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
import { utf8Length } from "../pipeline/text.js";
import { detectCharset, PRESCAN_BYTES } from "./charset.js";
import { factsOf, type PageFacts } from "./facts.js";
import { findMainContent } from "./main-content.js";
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
  const parts = pageParts(input, options, Number.POSITIVE_INFINITY);
  for (;;) {
    const next = await parts.next();
    // The one text part is the whole text, also in the result.
    if (next.done) {
      const { streamed: _, ...result } = next.value;
      return result;
    }
  }
}

/** A part of a page on its way: its facts first, then its text in one or more pieces. */
export type PagePart =
  | {
      readonly kind: "facts";
      readonly facts: PageFacts;
      /** The page is too big to hold: it streams in full mode, in pieces. */
      readonly streamed: boolean;
    }
  | { readonly kind: "text"; readonly text: string };

/** The result once every part is out; a streamed page's text was in the parts only. */
export type PageResult = HtmlText & { readonly streamed: boolean };

/** Once streaming, what the tree holds is rendered and let go each time it weighs this much. */
const PIECE_WEIGHT = 256 * 1024;

/**
 * The page in parts. While its light tree weighs at most `streamAbove` (64 an element plus the
 * characters of its text) the page is held and reduced to its main content: its facts, then its
 * text in one piece, come at the end. Past it, the page is too big to hold: its facts are read
 * from what is held then and come first, then what is complete is rendered in full mode (no link
 * list) and let go as it streams, to the last element, so memory stays flat and nothing is lost.
 *
 * @example
 * for await (const part of pageParts(stream, {}, 2 << 20)) if (part.kind === "text") keep(part.text);
 */
export async function* pageParts(
  input: HtmlInput,
  options: HtmlToTextOptions,
  streamAbove: number,
): AsyncGenerator<PagePart, PageResult> {
  const mode = options.mode ?? "main";
  if (mode !== "main" && mode !== "full") {
    throw new AirlockError("options/invalid", `htmlToText: mode must be "main" or "full"`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const builder = createTreeBuilder({ closedDetails: options.closedDetails ?? "keep" });
  let charset = "utf-8";
  let bytes = 0;
  let capped = false;
  let early: PageFacts | undefined;
  /** The parts due once the tree has taken more in: the facts when the page starts to stream, then pieces. */
  function* flush(): Generator<PagePart> {
    if (early === undefined) {
      if (builder.weight <= streamAbove) return;
      early = factsOf(builder.title, builder.meta, builder.root);
      yield { kind: "facts", facts: early, streamed: true };
    } else if (builder.weight < PIECE_WEIGHT) return;
    yield* piece();
  }
  function* piece(): Generator<PagePart> {
    const { root, continued, open } = builder.take();
    const rendered = renderText(
      [root],
      { links: false, maxLinks: 0, baseUrl: undefined, continued },
      builder.removed,
    ).text;
    // A piece cut inside a paragraph goes on in the next one on the same line.
    if (rendered !== "") yield { kind: "text", text: `${rendered}${open ? " " : "\n\n"}` };
  }
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
      yield* flush();
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
        yield* flush();
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
  const known = { removed, charset, bytes, capped };
  if (early !== undefined) {
    // Everything left, to the last element: a streamed page keeps its tail.
    yield* piece();
    const late = factsOf(page.title, page.meta, {
      tag: "#root",
      parent: undefined,
      children: [],
      attrs: {},
    });
    const title = early.title ?? late.title;
    return {
      ...late,
      ...early,
      title,
      ...known,
      text: "",
      links: [],
      mode: "full",
      streamed: true,
    };
  }
  const facts = factsOf(page.title, page.meta, body);
  const main = mode === "main" ? findMainContent(body, page.title) : undefined;
  const roots: HtmlElement[] = main ? main.roots : [body];
  const skip = main?.skip ?? new Set<HtmlElement>();
  if (main) {
    removed.boilerplateChars = main.leftOut;
    removed.boilerplateBlocks = main.dropped;
  }
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
  yield { kind: "facts", facts, streamed: false };
  yield { kind: "text", text: rendered.text };
  return {
    ...facts,
    title: facts.title,
    ...known,
    text: rendered.text,
    links: rendered.links,
    mode: main ? "main" : "full",
    streamed: false,
  };

  function start(head: Uint8Array[], contentType: string | undefined): TextDecoder {
    const label = detectCharset(concat(head, PRESCAN_BYTES), contentType);
    charset = label;
    return new TextDecoder(label);
  }
}
