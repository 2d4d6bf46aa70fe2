/**
 * Which path an input takes: structured (JSON, NDJSON, CSV, an already-parsed value) or text.
 * The `format` option decides first, then the declared content type, then (for JSON and NDJSON
 * only) the first characters. Sniffing never consumes a source: bytes, strings and Blobs are
 * looked at in place, streams are peeked and replayed.
 */

import {
  asIterable,
  formatOfType,
  headHoldsUp,
  peek,
  replay,
  type StructuredFormat,
  sniffFormat,
} from "../decode/structured.js";
import type { CompiledOptions, ShapeInput, StreamSource } from "../options/compile.js";
import type { ByteSource } from "./source.js";
import { openSource } from "./source.js";

export type Routed =
  | {
      readonly kind: "structured";
      readonly input:
        | {
            readonly source: StreamSource | ByteSource;
            readonly format: StructuredFormat;
            /** The format was sniffed, not declared. */
            readonly sniffed?: boolean;
          }
        | { readonly value: unknown };
      readonly httpStatus?: number;
      readonly httpFailed?: boolean;
      /** The same input for the text path, when the format was only sniffed and it can be read again. */
      readonly fallback?: ShapeInput;
    }
  | { readonly kind: "text"; readonly input: ShapeInput }
  | {
      readonly kind: "html";
      readonly source: StreamSource;
      readonly contentType: string | undefined;
      /** The `Response` the page came in, for its status. */
      readonly response?: Response;
    };

/** A media type that says HTML. */
export function isHtmlType(contentType: string | undefined): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "text/html" || type === "application/xhtml+xml";
}

/** The start of an HTML document: a doctype or an `<html>` tag, after comments and spaces. */
export function looksLikeHtml(head: string): boolean {
  return /^\uFEFF?\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>])/i.test(head);
}

/** Characters looked at to sniff a format in place. */
const SNIFF_CHARS = 4096;
/** Bytes of a stream read ahead to sniff it and check that its first record holds up. */
const PEEK_BYTES = 64 * 1024;

function isSource(input: unknown): boolean {
  return (
    typeof input === "string" ||
    input instanceof ArrayBuffer ||
    ArrayBuffer.isView(input) ||
    (typeof Blob !== "undefined" && input instanceof Blob) ||
    (typeof ReadableStream !== "undefined" && input instanceof ReadableStream) ||
    (typeof Response !== "undefined" && input instanceof Response) ||
    (typeof input === "object" && input !== null && Symbol.asyncIterator in input)
  );
}

function isCommand(input: unknown): boolean {
  return typeof input === "object" && input !== null && !isSource(input) && "stdout" in input;
}

/** A declared content type that may still hide JSON (none, or plain text). */
function sniffable(contentType: string | undefined): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === undefined || type === "" || type === "text/plain";
}

/**
 * @example
 * await route([{ id: 1 }], options); // { kind: "structured", input: { value: [{ id: 1 }] } }
 */
export async function route(input: ShapeInput, options: CompiledOptions): Promise<Routed> {
  if (options.format === "text" || isCommand(input) || input === null || input === undefined) {
    return { kind: "text", input };
  }
  const declared = options.format === "auto" ? undefined : (options.format as StructuredFormat);
  if (!isSource(input)) {
    if (typeof input === "object" || typeof input === "number" || typeof input === "boolean") {
      return { kind: "structured", input: { value: input } };
    }
    return { kind: "text", input };
  }
  if (typeof Response !== "undefined" && input instanceof Response) {
    if (input.bodyUsed) return { kind: "text", input }; // the text path says why it cannot read it
    const contentType = options.contentType ?? input.headers.get("content-type") ?? undefined;
    // A page, also a failed request's error page: its markup is no use to the model either way.
    if (options.format === "auto" && isHtmlType(contentType)) {
      return { kind: "html", source: input.body ?? "", contentType, response: input };
    }
    // Any other failed request's body is an error page more often than data (a 502 from a
    // proxy in front of a JSON API): the text path shows it with its status.
    if (!input.ok) return { kind: "text", input };
    const http = { httpStatus: input.status, httpFailed: !input.ok };
    const format = declared ?? formatOfType(contentType);
    if (format) return { kind: "structured", input: { source: input.body ?? "", format }, ...http };
    if (!sniffable(contentType) || input.body === null || input.status < 200)
      return { kind: "text", input };
    const src = openSource(input.body);
    const { head, text, ended, failure } = await peek(src, Math.min(PEEK_BYTES, options.maxBytes));
    const found = sniffFormat(text);
    const sniffed = found && headHoldsUp(text, found, ended) ? found : undefined;
    const again = replay(head, src, failure);
    if (!sniffed && options.format === "auto" && looksLikeHtml(text)) {
      return { kind: "html", source: asIterable(again), contentType, response: input };
    }
    if (sniffed) {
      return {
        kind: "structured",
        input: { source: again, format: sniffed, sniffed: true },
        ...http,
      };
    }
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await again.read();
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel: () => again.cancel(),
    });
    return {
      kind: "text",
      input: new Response(body, {
        status: input.status,
        statusText: input.statusText,
        headers: input.headers,
      }),
    };
  }
  const source = input as StreamSource;
  if (options.format === "auto" && isHtmlType(options.contentType)) {
    return { kind: "html", source, contentType: options.contentType };
  }
  const format = declared ?? formatOfType(options.contentType);
  if (format) return { kind: "structured", input: { source, format } };
  if (!sniffable(options.contentType)) return { kind: "text", input };
  // Sources that can be read again are looked at in place, and may fall back to text.
  let head: string | undefined;
  if (typeof source === "string") head = source.slice(0, SNIFF_CHARS);
  else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes =
      source instanceof ArrayBuffer
        ? new Uint8Array(source, 0, Math.min(source.byteLength, SNIFF_CHARS))
        : new Uint8Array(
            source.buffer,
            source.byteOffset,
            Math.min(source.byteLength, SNIFF_CHARS),
          );
    head = new TextDecoder().decode(bytes);
  } else if (typeof Blob !== "undefined" && source instanceof Blob) {
    head = new TextDecoder().decode(await source.slice(0, SNIFF_CHARS).arrayBuffer());
  }
  if (head !== undefined) {
    if (options.format === "auto" && looksLikeHtml(head)) {
      return { kind: "html", source, contentType: options.contentType };
    }
    const sniffed = sniffFormat(head.replace(/^\uFEFF/, ""));
    return sniffed
      ? { kind: "structured", input: { source, format: sniffed, sniffed: true }, fallback: input }
      : { kind: "text", input };
  }
  // A stream: peek, then replay what was read in front of the rest.
  const src = openSource(source);
  const peeked = await peek(src, Math.min(PEEK_BYTES, options.maxBytes));
  const again = replay(peeked.head, src, peeked.failure);
  const found = sniffFormat(peeked.text);
  const sniffed = found && headHoldsUp(peeked.text, found, peeked.ended) ? found : undefined;
  if (!sniffed && options.format === "auto" && looksLikeHtml(peeked.text)) {
    return { kind: "html", source: asIterable(again), contentType: options.contentType };
  }
  if (sniffed)
    return { kind: "structured", input: { source: again, format: sniffed, sniffed: true } };
  return { kind: "text", input: asIterable(again) };
}
