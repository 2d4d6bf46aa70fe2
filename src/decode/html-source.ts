/**
 * A web page as a text section: turned into readable text by `htmlToText` (hidden content
 * dropped, main content kept), whose lines then go to keep like any other text. The text starts
 * with the page's facts and says when hidden text was removed: a page that hides text from its
 * reader is a likely carrier of injected instructions.
 */
import type { HtmlText } from "../html/html-to-text.js";
import type { CappedReader } from "../intake/budget.js";
import { noteMarker } from "../pipeline/markers.js";
import type { RunContext } from "../pipeline/run.js";

/**
 * Pages whose light tree would weigh more than this (about 32,000 elements, or 2 M characters
 * of text) are streamed through in full mode instead of held.
 */
const HTML_STREAM_WEIGHT = 2 * 1024 * 1024;

/** The facts a page's text starts with: title, byline and date, hidden text removed, the cap. */
function htmlHead(page: HtmlText): string[] {
  const head: string[] = [];
  if (page.title) head.push(`# ${page.title}`);
  const facts = [page.byline ? `by ${page.byline}` : "", page.date ?? ""].filter(Boolean);
  if (facts.length > 0) head.push(facts.join(", "));
  if (page.removed.hiddenChars > 0) {
    head.push(noteMarker(`${page.removed.hiddenChars} characters of hidden text removed`));
  }
  if (page.capped) head.push(noteMarker("page cut at maxBytes"));
  return head;
}

/** The bytes of a page as an async iterable, for `htmlPieces` (the cap is the reader's). */
function iterate(reader: CappedReader): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      return {
        async next() {
          const value = await reader.read();
          return value === undefined ? { value: undefined, done: true } : { value, done: false };
        },
        async return() {
          reader.stop();
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/**
 * The page's text as a reader of UTF-8 bytes, for the line decoder; `ctx.facts.html` is set once
 * the page is read.
 *
 * @example
 * const text = await pageText(reader, "text/html", undefined, ctx);
 */
export async function pageText(
  reader: CappedReader,
  contentType: string | undefined,
  baseUrl: string | undefined,
  ctx: RunContext,
): Promise<CappedReader> {
  // htmlparser2 loads with the first page: it stays out of the core chunk.
  const { htmlPieces } = await import("../html/html-to-text.js");
  const out: { result?: HtmlText } = {};
  const pieces = htmlPieces(
    iterate(reader),
    {
      maxBytes: Number.POSITIVE_INFINITY,
      ...(contentType !== undefined ? { contentType } : {}),
      ...(baseUrl ? { baseUrl } : {}),
    },
    HTML_STREAM_WEIGHT,
    out,
  );
  const first = await pieces.next();
  const facts = () => {
    const page = out.result;
    if (page === undefined) return;
    ctx.facts.html = {
      ...(page.title !== undefined ? { title: page.title } : {}),
      ...(page.byline !== undefined ? { byline: page.byline } : {}),
      ...(page.date !== undefined ? { date: page.date } : {}),
      mode: page.mode,
      charset: page.charset,
      links: page.links.length,
      removed: page.removed,
      capped: reader.capped,
    };
  };
  let text: AsyncIterable<string>;
  if (out.result !== undefined) {
    // The page was held whole: its facts lead the text.
    const page = out.result;
    const whole = [htmlHead({ ...page, capped: reader.capped }).join("\n"), page.text]
      .filter((t) => t !== "")
      .join("\n\n");
    facts();
    text = (async function* () {
      yield whole;
    })();
  } else {
    // Too big to hold: pieces stream into the text path; the facts known only at the end close it.
    text = (async function* () {
      if (!first.done) yield first.value;
      for await (const piece of pieces) yield piece;
      const page = out.result;
      if (page) {
        facts();
        yield `\n${noteMarker(`a page of ${reader.bytes} bytes, too large to hold: shown whole, without main-content extraction or a link list`)}`;
        const head = htmlHead({ ...page, capped: reader.capped });
        if (head.length > 0) yield `\n${head.join("\n")}`;
      }
    })();
  }
  return textReader(text, reader);
}

/** Text pieces as a reader of their UTF-8 bytes; sizes and the cap are the page's. */
function textReader(pieces: AsyncIterable<string>, page: CappedReader): CappedReader {
  const encoder = new TextEncoder();
  const iterator = pieces[Symbol.asyncIterator]();
  let ended = false;
  return {
    name: page.name,
    size: undefined,
    async read() {
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) {
          ended = true;
          return undefined;
        }
        if (value !== "") return encoder.encode(value);
      }
    },
    stop() {
      page.stop();
      iterator.return?.();
    },
    get bytes() {
      return page.bytes;
    },
    get capped() {
      return false;
    },
    get stopped() {
      return page.stopped;
    },
    get ended() {
      return ended;
    },
    get failure() {
      return page.failure;
    },
  };
}
