import type { RedactState, Span } from "./spans.js";
import { isTokenChar } from "./tokens.js";

/**
 * Private keys in their text forms: PEM blocks (found by their BEGIN line and cut to their END
 * line, across lines and in JSON strings with literal `\n`, or by an END line whose BEGIN was
 * never seen), JSON Web Keys' private members, key files encoded whole in base64, and PuTTY key
 * files.
 */

/** A PEM block longer than this is not a key (and the search for its end stops here). */
const MAX_PEM = 64 * 1024;
const PEM_BEGIN = "-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----";

const PEM_END = /-----END ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * Private keys: from a BEGIN line to the matching END line, however many lines (or literal
 * `\n`s) apart. Fails closed: a BEGIN without an END is redacted up to MAX_PEM characters (and,
 * streamed, into the next pieces); an END without a BEGIN (text that starts inside a key) takes
 * the key material before it.
 */
export function findPrivateKeys(text: string, spans: Span[], state: RedactState | undefined): void {
  let from = 0;
  if (state !== undefined && state.pem > 0) {
    PEM_END.lastIndex = 0;
    const end = PEM_END.exec(text);
    const stop = end === null ? text.length : end.index + end[0].length;
    const open = end === null && state.pem + text.length < MAX_PEM;
    if (stop > 0) {
      spans.push({ rule: "private_key", start: 0, end: stop, generality: 0, continued: true });
    }
    state.pem = open ? state.pem + text.length : 0;
    if (open) return;
    from = stop;
  }
  const pemBegin = new RegExp(PEM_BEGIN, "g");
  pemBegin.lastIndex = from;
  let orphanFrom = from;
  for (let m = pemBegin.exec(text); m !== null; m = pemBegin.exec(text)) {
    markOrphanEnds(text, orphanFrom, m.index, spans);
    const endLine = `-----END ${m[1] ?? ""}PRIVATE KEY`;
    const end = text.indexOf(endLine, m.index + m[0].length);
    const stop =
      end === -1 || end - m.index > MAX_PEM ? Math.min(text.length, m.index + MAX_PEM) : end;
    // Without an END line the rest of the block (up to the limit) is redacted: fail closed.
    const close = end === -1 ? stop : text.indexOf("-----", end + endLine.length);
    const last = Math.min(close === -1 ? stop : close + 5, text.length);
    spans.push({ rule: "private_key", start: m.index, end: last, generality: 0 });
    if (state !== undefined && end === -1 && last === text.length) {
      state.pem = last - m.index;
    }
    pemBegin.lastIndex = Math.max(pemBegin.lastIndex, last);
    orphanFrom = last;
  }
  markOrphanEnds(text, orphanFrom, text.length, spans);
}

/** A JWK's private members, near a `"kty"` (before or after it, over several lines). */
const JWK_PRIVATE = /"(?:d|p|q|dp|dq|qi|k)"\s{0,5}:\s{0,5}"([A-Za-z0-9_-]{16,8192})"/g;
const JWK_BEFORE = 4096;
const JWK_AFTER = 16 * 1024;

export function findJwkKeys(text: string, spans: Span[]): void {
  let scanned = 0;
  for (let at = text.indexOf('"kty"'); at !== -1; at = text.indexOf('"kty"', at + 5)) {
    const from = Math.max(scanned, at - JWK_BEFORE);
    const to = Math.min(text.length, at + JWK_AFTER);
    if (from >= to) continue;
    JWK_PRIVATE.lastIndex = 0;
    const window = text.slice(from, to);
    for (let m = JWK_PRIVATE.exec(window); m !== null; m = JWK_PRIVATE.exec(window)) {
      const value = m[1] as string;
      const start = from + m.index + m[0].lastIndexOf(value);
      spans.push({ rule: "jwk_private_key", start, end: start + value.length, generality: 0 });
    }
    scanned = to;
  }
}

/** "-----BEGIN" in base64: a key file encoded whole (kubeconfig `client-key-data`, secrets). */
const ENCODED_BEGIN = "LS0tLS1CRUdJTi";
const ENCODED_RUN = /[A-Za-z0-9+/=]{0,65536}/y;

export function findEncodedKeys(text: string, spans: Span[]): void {
  for (let at = text.indexOf(ENCODED_BEGIN); at !== -1; at = text.indexOf(ENCODED_BEGIN, at + 1)) {
    ENCODED_RUN.lastIndex = at;
    const run = ENCODED_RUN.exec(text)?.[0] ?? "";
    // Certificates are encoded the same way and are public: decode the header to tell.
    let header = "";
    try {
      header = atob(run.slice(0, 64));
    } catch {
      header = "";
    }
    if (/PRIVATE KEY/.test(header)) {
      spans.push({ rule: "private_key", start: at, end: at + run.length, generality: 0 });
    }
    at += Math.max(0, run.length - 1);
  }
}

/** END lines in `text[from, to)` with no BEGIN before them: the key material before each goes. */
function markOrphanEnds(text: string, from: number, to: number, spans: Span[]): void {
  if (text.indexOf("-----END ", from) === -1) return;
  PEM_END.lastIndex = from;
  for (let m = PEM_END.exec(text); m !== null && m.index < to; m = PEM_END.exec(text)) {
    const start = keyMaterialBefore(text, m.index, Math.max(from, m.index - MAX_PEM));
    spans.push({ rule: "private_key", start, end: m.index + m[0].length, generality: 0 });
  }
}

/**
 * Where the whole lines of key material (base64, lines broken by real or literal `\n`) that end
 * at `at` begin. A line with anything else in it is not key material and is not taken.
 */
function keyMaterialBefore(text: string, at: number, floor: number): number {
  let start = at;
  let i = at;
  while (i > floor) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13) {
      start = i;
      i--;
    } else if (c === 110 && i - 2 >= floor && text.charCodeAt(i - 2) === 92) {
      start = i;
      i -= 2;
    } else if (c === 34 || c === 39) {
      // A quote opens the string value that holds the key (JSON, YAML).
      start = i;
      break;
    } else if (isBase64(c)) {
      i--;
      if (i === floor) start = floor;
    } else {
      break;
    }
  }
  return start;
}

function isBase64(c: number): boolean {
  return c !== 95 && c !== 45 && isTokenChar(c, true);
}

/**
 * PuTTY key files (`.ppk`): the `Private-Lines: N` header is followed by N lines of the private
 * key in base64, and `Private-MAC:` by a check value of it.
 */
const PUTTY_PRIVATE = /Private-Lines:[ \t]*(\d{1,3})[ \t]*\r?\n/g;

export function findPuttyKeys(text: string, spans: Span[]): void {
  PUTTY_PRIVATE.lastIndex = 0;
  for (let m = PUTTY_PRIVATE.exec(text); m !== null; m = PUTTY_PRIVATE.exec(text)) {
    let at = m.index + m[0].length;
    const start = at;
    for (let n = Number(m[1]); n > 0 && at < text.length; n--) {
      const nl = text.indexOf("\n", at);
      at = nl === -1 ? text.length : nl + 1;
    }
    // The key lines only: the header before them and the MAC line after them are not the key.
    let end = at;
    if (end > start && text.charCodeAt(end - 1) === 10) end--;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    if (end > start) spans.push({ rule: "private_key", start, end, generality: 0 });
    PUTTY_PRIVATE.lastIndex = Math.max(PUTTY_PRIVATE.lastIndex, end);
  }
}
