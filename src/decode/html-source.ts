/**
 * A web page as a text section: turned into readable text by the page stage (`html/page.ts`:
 * hidden content dropped, main content kept, its facts first), whose lines then go to keep like
 * any other text.
 */
import type { CappedReader } from "../intake/budget.js";
import type { RunContext } from "../pipeline/run.js";

/**
 * Pages whose light tree would weigh more than this (about 32,000 elements, or 2 M characters
 * of text) are streamed through in full mode instead of held.
 */
const HTML_STREAM_WEIGHT = 2 * 1024 * 1024;

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

/** The page's text, and what the page stage found (once the text was read). */
export interface PageText {
  readonly reader: CappedReader;
  /** Sets `ctx.facts.html`; call once the text was read. */
  finish(): void;
}

/**
 * The page's text as a reader of UTF-8 bytes, for the line decoder.
 *
 * @example
 * const page = await pageText(reader, "text/html", undefined, ctx);
 * await pumpLines(page.reader, …);
 * page.finish();
 */
export async function pageText(
  reader: CappedReader,
  contentType: string | undefined,
  baseUrl: string | undefined,
  ctx: RunContext,
): Promise<PageText> {
  // htmlparser2 loads with the first page: it stays out of the core chunk.
  const { readPage } = await import("../html/page.js");
  const page = await readPage(
    iterate(reader),
    {
      maxBytes: Number.POSITIVE_INFINITY,
      ...(contentType !== undefined ? { contentType } : {}),
      ...(baseUrl ? { baseUrl } : {}),
    },
    HTML_STREAM_WEIGHT,
  );
  const text = typeof page.text === "string" ? once(page.text) : page.text;
  return {
    reader: textReader(text, reader),
    finish() {
      const r = page.result();
      if (r === undefined) return;
      ctx.facts.html = {
        ...(r.title !== undefined ? { title: r.title } : {}),
        ...(r.byline !== undefined ? { byline: r.byline } : {}),
        ...(r.date !== undefined ? { date: r.date } : {}),
        mode: r.mode,
        charset: r.charset,
        links: r.links.length,
        removed: r.removed,
        // The cap is the reader's: the page stage was given no cap of its own.
        capped: reader.capped,
      };
    },
  };
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
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
