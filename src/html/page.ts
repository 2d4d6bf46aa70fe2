/**
 * A web page as `shape()` shows it. The text path reads `text`: the page's facts first (title,
 * byline, date), then its body, then what is known only once it has all streamed by. `result()`
 * then says what this stage did (the facts, the byte cap, the text that main-content extraction
 * left out), for the meta builder to declare, so a page is never `ok` and `truncated: false`
 * while part of it is missing. A page that hides text from its reader is a likely carrier of
 * injected instructions: the text says how much was removed.
 */
import {
  boilerplateMarker,
  hiddenTextMarker,
  pageCapMarker,
  streamedPageMarker,
} from "../pipeline/markers.js";
import type { PageFacts } from "./facts.js";
import type { HtmlInput } from "./html-to-text.js";
import {
  type HtmlToTextOptions,
  type PagePart,
  type PageResult,
  pageParts,
} from "./html-to-text.js";

export interface ShownPage {
  /** The page as text: one string when it was held, pieces as it streams when it was not. */
  readonly text: string | AsyncIterable<string>;
  /**
   * The page's facts and what was removed (`removed.boilerplateChars` is the text main-content
   * extraction left out), once `text` was read; for a meta builder of its own.
   */
  result(): PageResult | undefined;
}

/**
 * @example
 * const page = await readPage(response.body, { maxBytes }, 2 << 20);
 * for await (const piece of page.text) keep(piece);
 * page.result()?.removed.boilerplateChars; // text main-content extraction left out
 */
export async function readPage(
  input: HtmlInput,
  options: HtmlToTextOptions & { readonly maxBytes: number },
  streamAbove: number,
): Promise<ShownPage> {
  const parts = pageParts(input, options, streamAbove);
  let result: PageResult | undefined;
  const next = async (): Promise<PagePart | undefined> => {
    const r = await parts.next();
    if (r.done) {
      result = r.value;
      return undefined;
    }
    return r.value;
  };
  // The facts come first: at the end for a page that is held, at once for one that streams.
  let first = await next();
  const texts: string[] = [];
  while (first !== undefined && first.kind === "text") {
    texts.push(first.text);
    first = await next();
  }
  const facts = first?.kind === "facts" ? first : undefined;
  if (facts === undefined || !facts.streamed) {
    // Held: the rest is its text, in one piece.
    for (let part = await next(); part !== undefined; part = await next()) {
      if (part.kind === "text") texts.push(part.text);
    }
    const page = result as PageResult;
    const head = [...factLines(facts?.facts ?? {}), ...heldNotes(page)].join("\n");
    const text = [head, texts.join("")].filter((t) => t !== "").join("\n\n");
    return { text, result: () => result };
  }
  async function* streamed(): AsyncGenerator<string> {
    const head = factLines(facts?.facts ?? {});
    head.push(streamedPageMarker());
    yield `${head.join("\n")}\n\n`;
    for (let part = await next(); part !== undefined; part = await next()) {
      if (part.kind === "text") yield part.text;
    }
    const page = result as PageResult;
    const end: string[] = [];
    if (page.removed.hiddenChars > 0) end.push(hiddenTextMarker(page.removed.hiddenChars));
    if (page.capped) end.push(pageCapMarker());
    if (end.length > 0) yield end.join("\n");
  }
  return { text: streamed(), result: () => result };
}

/** The facts a page's text starts with: `# title`, then `by byline, date`. */
function factLines(facts: PageFacts): string[] {
  const lines: string[] = [];
  if (facts.title) lines.push(`# ${facts.title}`);
  const by = [facts.byline ? `by ${facts.byline}` : "", facts.date ?? ""].filter(Boolean);
  if (by.length > 0) lines.push(by.join(", "));
  return lines;
}

/** What a held page's text says under its facts: hidden text, furniture left out, the cap. */
function heldNotes(page: PageResult): string[] {
  const notes: string[] = [];
  if (page.removed.hiddenChars > 0) notes.push(hiddenTextMarker(page.removed.hiddenChars));
  if (page.removed.boilerplateChars > 0) {
    notes.push(boilerplateMarker(page.removed.boilerplateChars, page.removed.boilerplateBlocks));
  }
  if (page.capped) notes.push(pageCapMarker());
  return notes;
}
