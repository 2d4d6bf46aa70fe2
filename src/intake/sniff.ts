import { completeLength } from "../pipeline/text.js";

/** What the first bytes of a source say it is. */
export type Sniffed =
  | { readonly kind: "text"; readonly encoding: "utf-8" | "utf-16le" | "utf-16be" }
  | { readonly kind: "binary"; readonly mime: string };

/** How many leading bytes the sniffer wants before it decides. */
export const SNIFF_BYTES = 4096;

// Signatures from the formats' published magic numbers; `at` is the byte offset.
const MAGIC: ReadonlyArray<{ mime: string; bytes: readonly number[]; at?: number }> = [
  { mime: "image/png", bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mime: "image/jpeg", bytes: [0xff, 0xd8, 0xff] },
  { mime: "image/gif", bytes: [0x47, 0x49, 0x46, 0x38] },
  { mime: "image/webp", bytes: [0x57, 0x45, 0x42, 0x50], at: 8 },
  { mime: "image/bmp", bytes: [0x42, 0x4d], at: 0 },
  { mime: "image/x-icon", bytes: [0x00, 0x00, 0x01, 0x00] },
  { mime: "application/pdf", bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { mime: "application/zip", bytes: [0x50, 0x4b, 0x03, 0x04] },
  { mime: "application/gzip", bytes: [0x1f, 0x8b] },
  { mime: "application/x-bzip2", bytes: [0x42, 0x5a, 0x68] },
  { mime: "application/x-xz", bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { mime: "application/zstd", bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { mime: "application/x-7z-compressed", bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { mime: "application/x-elf", bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { mime: "application/wasm", bytes: [0x00, 0x61, 0x73, 0x6d] },
  { mime: "application/x-mach-binary", bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { mime: "application/vnd.sqlite3", bytes: [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66] },
  { mime: "audio/ogg", bytes: [0x4f, 0x67, 0x67, 0x53] },
  { mime: "audio/flac", bytes: [0x66, 0x4c, 0x61, 0x43] },
  { mime: "audio/mpeg", bytes: [0x49, 0x44, 0x33] },
  { mime: "video/mp4", bytes: [0x66, 0x74, 0x79, 0x70], at: 4 },
  { mime: "font/woff2", bytes: [0x77, 0x4f, 0x46, 0x32] },
  { mime: "font/woff", bytes: [0x77, 0x4f, 0x46, 0x46] },
];

/**
 * A signature made only of printable ASCII ("GIF89a", "ID3", "BZh", "%PDF-", "SQLite format 3")
 * is also a plausible start of prose, so it counts only when the bytes also look binary.
 */
function weak(bytes: readonly number[]): boolean {
  return bytes.every((b) => b >= 0x20 && b < 0x7f);
}

const BINARY_TYPES =
  /^(?:image\/(?!svg)|audio\/|video\/|font\/|application\/(?:octet-stream|pdf|zip|gzip|x-|vnd\.(?!.*(?:json|xml))|wasm|zstd))/i;

/** A media type as RFC 6838 names them: `type/subtype`, restricted characters, bounded. */
const PLAIN_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

function matches(head: Uint8Array, sig: { bytes: readonly number[]; at?: number }): boolean {
  const at = sig.at ?? 0;
  if (head.byteLength < at + sig.bytes.length) return false;
  for (let i = 0; i < sig.bytes.length; i++) if (head[at + i] !== sig.bytes[i]) return false;
  return true;
}

/**
 * Decides text or binary from the first bytes and the declared type. Bytes win over a declared
 * text type (a NUL byte is never text), a declared binary type wins over text-looking bytes.
 */
export function sniff(head: Uint8Array, contentType?: string): Sniffed {
  if (head[0] === 0xff && head[1] === 0xfe) return { kind: "text", encoding: "utf-16le" };
  if (head[0] === 0xfe && head[1] === 0xff) return { kind: "text", encoding: "utf-16be" };
  for (const sig of MAGIC) {
    if (!matches(head, sig)) continue;
    if (weak(sig.bytes) && !looksBinary(head)) continue;
    return { kind: "binary", mime: sig.mime };
  }
  const declared = contentType?.split(";")[0]?.trim().toLowerCase();
  if (declared && BINARY_TYPES.test(declared)) {
    // A declared type is the host's or the server's text: only a plain type/subtype is repeated.
    return {
      kind: "binary",
      mime: PLAIN_TYPE.test(declared) ? declared : "application/octet-stream",
    };
  }
  if (looksBinary(head)) return { kind: "binary", mime: "application/octet-stream" };
  return { kind: "text", encoding: "utf-8" };
}

/**
 * A NUL byte means binary. Otherwise binary needs many bytes that text does not have: C0 controls
 * other than the ones terminals use (BEL, BS, TAB, LF, VT, FF, CR, ESC) and invalid UTF-8. Legacy
 * 8-bit text (Latin-1) is text with replacement characters, not binary, so the bar is high.
 */
function looksBinary(head: Uint8Array): boolean {
  if (head.byteLength === 0) return false;
  let suspicious = 0;
  let literalReplacement = 0;
  for (let i = 0; i < head.byteLength; i++) {
    const b = head[i] as number;
    if (b === 0) return true;
    if (b < 0x20 && (b < 7 || b > 13) && b !== 27) suspicious++;
    // U+FFFD written as UTF-8 in the text itself is not an invalid sequence.
    if (b === 0xef && head[i + 1] === 0xbf && head[i + 2] === 0xbd) literalReplacement++;
  }
  const text = new TextDecoder("utf-8").decode(head.subarray(0, completeLength(head)));
  let invalid = -literalReplacement;
  for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) invalid++;
  const odd = suspicious + invalid;
  return odd >= 8 && odd / head.byteLength > 0.3;
}

/** A structured format of records. */
export type StructuredFormat = "json" | "ndjson" | "csv" | "tsv";

/** The media type without parameters, lower-cased. */
export function mediaType(contentType: string | undefined): string | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "" ? undefined : type;
}

/** The format a media type names, if it names a structured one. */
export function formatOfType(contentType: string | undefined): StructuredFormat | undefined {
  const type = mediaType(contentType);
  if (!type) return undefined;
  if (/(?:nd|x-nd|jsonl|json-seq|jsonlines|x-jsonlines)$|ndjson|jsonl/.test(type)) return "ndjson";
  if (type === "application/json" || type.endsWith("+json") || type === "text/json") return "json";
  if (type === "text/csv" || type === "application/csv") return "csv";
  if (type === "text/tab-separated-values") return "tsv";
  return undefined;
}

/** A media type that says HTML. */
export function isHtmlType(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === "text/html" || type === "application/xhtml+xml";
}

/** A declared content type that may still hide JSON or HTML (none, or plain text). */
export function isSniffable(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === undefined || type === "text/plain";
}

/** The start of an HTML document: a doctype or an `<html>` tag, after comments and spaces. */
export function looksLikeHtml(head: string): boolean {
  // Comments are skipped one by one with a bounded search, never a lazy regex over the head.
  let at = 0;
  const text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  for (;;) {
    while (at < text.length && /\s/.test(text[at] as string)) at++;
    if (!text.startsWith("<!--", at)) break;
    const end = text.indexOf("-->", at + 4);
    if (end === -1) return false;
    at = end + 3;
  }
  return /^<(?:!doctype\s+html|html[\s>])/i.test(text.slice(at, at + 32));
}

/**
 * Sniffs JSON or NDJSON from the first characters of a text; undefined means text. Cautious: a
 * log line that starts with `[2026-11-30 …]` or `{date}` must stay text, so JSON needs `[`
 * followed by `{`, `[`, `"` or `]`, or `{` followed by `"` or `}`. Whether the text then holds
 * up as JSON is for the decoder to find out (it falls back to text while it still can).
 */
export function sniffFormat(head: string): StructuredFormat | undefined {
  const start = head.search(/\S/);
  if (start === -1) return undefined;
  const rest = head.slice(start);
  if (/^\[\s*(?:[[{"\]]|$)/.test(rest.slice(0, 64))) return "json";
  if (!/^\{\s*(?:"|\}|$)/.test(rest.slice(0, 64))) return undefined;
  // One object a line: NDJSON (whether each line parses is the decoder's to find out).
  const newline = rest.indexOf("\n");
  if (newline !== -1) {
    const first = rest.slice(0, newline).trim();
    const second = rest.slice(newline + 1, newline + 65).trimStart();
    if (first.endsWith("}") && second.startsWith("{")) return "ndjson";
  }
  return "json";
}
