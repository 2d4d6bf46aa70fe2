/**
 * A JSON string too long to hold, streamed instead: base64 and data URIs become the same blob
 * placeholder cleaning writes (`{blob, mime, bytes, sha256}`), hashed while they stream; any other
 * text keeps its head and tail around an in-value marker. Either way the document it sits in is
 * never refused for it. The input is the string's raw JSON source (escapes as written), so the
 * head and tail are cut only between escapes.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { sniff } from "../intake/sniff.js";
import { valueCutMarker } from "../pipeline/markers.js";

/** What a long string became, for the facts. */
export interface LongStringStats {
  blobs: number;
  blobBytes: number;
  strings: number;
  chars: number;
}

export interface LongString {
  /** More of the string's raw source (between the quotes). */
  write(raw: string): void;
  /** The JSON value that stands for the whole string, quotes included. */
  end(): string;
}

/** Raw characters of a long text string kept at its start and its end. */
const HEAD = 1024;
const TAIL = 256;
/** Raw characters looked at to tell a blob from text. */
const PROBE = 512;
const DATA_URI =
  /^data:([a-z0-9!#$&^_.+-]+(?:\\?\/)[a-z0-9!#$&^_.+-]+)?((?:;[a-z0-9-]+=[^;,"\\]*)*)(;base64)?,/i;
const BASE64_RAW = /^(?:[A-Za-z0-9+=_-]|\\\/)+$/;
const PLAIN_MIME = /^(?:image|audio|video|text|application|font|model)\/[a-z0-9.+-]{1,64}$/;

/**
 * @example
 * const s = createLongString(16 << 20, stats);
 * s.write("data:image/png;base64,iVBORw0KGgo…");
 * s.end(); // '{"blob":"data-uri","mime":"image/png","bytes":2097152,"sha256":"…"}'
 */
export function createLongString(hashLimit: number, stats: LongStringStats): LongString {
  let probe = "";
  let kind: "blob" | "text" | undefined;
  let mime: string | undefined;
  let uri = false;
  let head = "";
  let tail = "";
  let total = 0;
  // Base64 decoding, four characters at a time, into the hash.
  let quad = "";
  let bytes = 0;
  let sniffHead = new Uint8Array(0);
  const hash = sha256.create();
  let hashing = true;
  let invalid = false;

  function decode(raw: string, last = false): void {
    const text = quad + raw.replace(/\\\//g, "/").replace(/=+$/, "");
    let whole = text.length - (text.length % 4);
    quad = text.slice(whole);
    let group = text.slice(0, whole);
    // The last group, padded (base64 without padding is common in JSON).
    if (last && quad.length >= 2) {
      group += quad + "=".repeat(4 - quad.length);
      whole += quad.length;
      quad = "";
    }
    if (group === "") return;
    let binary: string;
    try {
      binary = atob(group.replace(/-/g, "+").replace(/_/g, "/"));
    } catch {
      invalid = true;
      return;
    }
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    bytes += out.length;
    if (sniffHead.length < 4096) {
      const joined = new Uint8Array(Math.min(4096, sniffHead.length + out.length));
      joined.set(sniffHead);
      joined.set(out.subarray(0, joined.length - sniffHead.length), sniffHead.length);
      sniffHead = joined;
    }
    if (hashing && bytes <= hashLimit) hash.update(out);
    else hashing = false;
  }

  function keepText(raw: string): void {
    // A few characters past HEAD, so the cut can back off to the end of an escape.
    if (head.length < HEAD + 8) head += raw.slice(0, HEAD + 8 - head.length);
    tail = (tail + raw).slice(-TAIL * 2);
  }

  function decide(): void {
    const m = DATA_URI.exec(probe);
    if (m) {
      kind = m[3] ? "blob" : "text";
      uri = true;
      const declared = m[1]?.replace("\\/", "/").toLowerCase();
      if (declared !== undefined && PLAIN_MIME.test(declared)) mime = declared;
      if (kind === "blob") {
        decode(probe.slice(m[0].length));
        return;
      }
    } else {
      const mixed = /[A-Z]/.test(probe) && /[a-z]/.test(probe) && /[0-9]/.test(probe);
      kind = mixed && BASE64_RAW.test(probe) ? "blob" : "text";
      if (kind === "blob") {
        decode(probe);
        return;
      }
    }
    keepText(probe);
  }

  // An escape's backslash may arrive alone (the splitter hands escapes over a character at a
  // time): it waits for what it escapes.
  let carry = "";
  return {
    write(piece) {
      let raw = carry + piece;
      carry = "";
      const run = /\\+$/.exec(raw);
      if (run && run[0].length % 2 === 1) {
        carry = "\\";
        raw = raw.slice(0, -1);
      }
      total += raw.length;
      if (kind === undefined) {
        probe += raw;
        if (probe.length >= PROBE) decide();
        return;
      }
      if (kind === "blob") decode(raw);
      else keepText(raw);
    },
    end() {
      total += carry.length;
      if (kind === undefined) decide();
      if (kind === "blob" && !invalid) {
        decode("", true);
        const sniffed = sniff(sniffHead);
        const type =
          mime ?? (sniffed.kind === "binary" ? sniffed.mime : "application/octet-stream");
        stats.blobs++;
        stats.blobBytes += bytes;
        const sha = hashing && bytes <= hashLimit ? `,"sha256":"${bytesToHex(hash.digest())}"` : "";
        return `{"blob":"${uri ? "data-uri" : "base64"}","mime":"${type}","bytes":${bytes}${sha}}`;
      }
      // Text: its head and tail, cut between escapes, around a marker of what was left out. The
      // tail buffer starts anywhere; a scan from its start is in step again after one escape.
      const start = safeHead(head, HEAD);
      const end = safeTail(tail, TAIL);
      const omitted = total - start.length - end.length;
      stats.strings++;
      stats.chars += omitted;
      return `"${start}…${valueCutMarker(omitted)}…${end}"`;
    },
  };
}

/** Where each character or escape of raw JSON string source starts, from `from` on. */
function boundaries(raw: string, from: number): number[] {
  const out: number[] = [];
  for (let i = from; i < raw.length; ) {
    out.push(i);
    if (raw.charCodeAt(i) !== 0x5c) i++;
    else i += raw[i + 1] === "u" ? 6 : 2;
  }
  out.push(raw.length);
  return out;
}

/** The longest prefix of raw source (from its start) that ends between escapes. */
function safeHead(raw: string, max: number): string {
  let end = 0;
  for (const b of boundaries(raw, 0)) {
    if (b > max) break;
    end = b;
  }
  return raw.slice(0, end);
}

/** The last `max` or fewer characters of raw source, starting between escapes. */
function safeTail(raw: string, max: number): string {
  const want = raw.length - max;
  for (const b of boundaries(raw, 0)) if (b >= want) return raw.slice(b);
  return "";
}
