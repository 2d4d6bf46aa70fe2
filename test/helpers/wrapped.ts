/**
 * Fake secrets of several providers, format-valid and built from a seed (no real-looking
 * credential is stored as a literal), hard-wrapped the way tools print them; and the checks
 * that compare what shape() shows and stores with what redact() replaces on the same text.
 */
import { ALNUM } from "../fixtures/secrets.js";
import { toolLines } from "./markers.js";

/**
 * `n` characters of `alphabet` from a seed (mulberry32): strings of different seeds do not
 * overlap, as those of a small linear generator's low bits would.
 */
export function gen(alphabet: string, n: number, seed: number): string {
  let a = (seed * 2654435761) >>> 0;
  let out = "";
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out += alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length];
  }
  return out;
}

const URL_SAFE = `${ALNUM}_-`;
const B64 = `${ALNUM}+/`;

function b64url(text: string): string {
  return btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

/** A provider's token, `seed` picking its characters. */
export const PROVIDERS = {
  openai: (seed: number) => `sk-proj-${gen(URL_SAFE, 156, seed)}`,
  anthropic: (seed: number) => `sk-ant-api03-${gen(URL_SAFE, 93, seed)}AA`,
  stripe: (seed: number) => `sk_live_${gen(ALNUM, 99, seed)}`,
  github_pat: (seed: number) => `github_pat_${gen(ALNUM, 22, seed)}_${gen(ALNUM, 59, seed + 1)}`,
  github: (seed: number) => `ghp_${gen(ALNUM, 36, seed)}`,
  /** A 216-character JWT, as in the review's repro (its header names a key of its own). */
  jwt: (seed: number) =>
    `${b64url(`{"kid":"${gen(ALNUM, 8, seed + 3)}","alg":"HS256","typ":"JWT"}`)}.${b64url(
      `{"sub":"1234567890","name":"${gen(ALNUM, 12, seed)}","iat":1516239022,"exp":1916239022,"x":123}`,
    )}.${gen(URL_SAFE, 43, seed + 2)}`,
} as const;

export type Provider = keyof typeof PROVIDERS;

/** `text` in lines of `width` characters (the last may be shorter). */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += width) out.push(text.slice(i, i + width));
  return out;
}

/** Lines of base64 of one width: the body of a key, a block scalar's value. */
export function base64Lines(count: number, width: number, seed: number): string[] {
  return Array.from({ length: count }, (_, i) => gen(B64, width, seed * 131 + i));
}

/** A service log's line `n`: timestamped, repetitive, as a web server writes them. */
export function logLine(n: number): string {
  const s = String(n % 60).padStart(2, "0");
  const m = String(Math.floor(n / 60) % 60).padStart(2, "0");
  return `2026-11-30T10:${m}:${s}.${n % 1000}Z INFO http GET /api/items/${n} 200 ${n % 97}ms`;
}

export function logLines(count: number, from = 1): string[] {
  return Array.from({ length: count }, (_, i) => logLine(from + i));
}

/** The characters of `text` that `redact()` replaced, line by line: [line, start, end). */
export interface Replaced {
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** Where `findings` fall in `text`, cut at line breaks into per-line pieces. */
export function replacedPieces(
  text: string,
  findings: ReadonlyArray<{ start: number; end: number }>,
): Replaced[] {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineOf = (at: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const out: Replaced[] = [];
  for (const f of findings) {
    for (let line = lineOf(f.start); line < lineStarts.length; line++) {
      const a = lineStarts[line] as number;
      const next = lineStarts[line + 1];
      const b = next === undefined ? text.length : next - 1;
      if (a >= f.end) break;
      const start = Math.max(a, f.start) - a;
      const end = Math.min(b, f.end) - a;
      if (end > start) out.push({ line, start, end });
    }
  }
  return out;
}

/** Windows this long of a replaced piece are looked for in what is shown. */
export const WINDOW = 8;

/**
 * What of the replaced characters is shown in `shown` (the text, or meta as JSON): every window
 * of WINDOW characters of a replaced piece that `shown` holds and redact()'s own output does not
 * (a window both hold is text redact() keeps elsewhere, not a leak); every input line with a
 * replaced piece too short for a window that `shown` holds as a line of its own; and every
 * shown line with a `[REDACTED:…]` tag (not a marker) that is no input line with runs replaced
 * and none of redact()'s characters kept (a character kept beside a tag). Empty: nothing.
 */
export function shownOf(
  text: string,
  reference: string,
  pieces: readonly Replaced[],
  shown: string,
  /** `shown` is lines of text (not meta as JSON): its tagged lines are read against the input. */
  asLines = true,
): string[] {
  const lines = text.split("\n");
  // The lines as the tool wrote them: a numbered layout's numbers are airlock's.
  const shownLines = new Set(toolLines(shown));
  const leaks: string[] = [];
  const forbidden = forbiddenByLine(lines, pieces);
  for (const out of asLines ? shownLines : []) {
    if (!out.includes("[REDACTED:") || out.startsWith("[airlock:")) continue;
    const ok = lines.some((raw, n) =>
      placeable(raw, out, forbidden.get(n) ?? new Uint8Array(raw.length)),
    );
    if (!ok) leaks.push(`shown line is no input line redacted: ${out}`);
  }
  for (const p of pieces) {
    const line = lines[p.line] as string;
    const piece = line.slice(p.start, p.end);
    if (piece.length < WINDOW) {
      if (shownLines.has(line)) leaks.push(`line ${p.line + 1} shown whole: ${line}`);
      continue;
    }
    for (let i = 0; i + WINDOW <= piece.length; i++) {
      const w = piece.slice(i, i + WINDOW);
      if (shown.includes(w) && !reference.includes(w)) {
        leaks.push(`line ${p.line + 1}: ${w} (of ${piece})`);
        break;
      }
    }
  }
  return leaks;
}

const TAG = /\[REDACTED:[\w.-]+\]/g;

/**
 * What of the replaced characters survives in `stored`, the text a store keeps, read line by line
 * against the input: each stored line is the input line with some runs replaced by
 * `[REDACTED:…]`, so its literal parts are placed on the input line (in order, each as early as
 * it can go without taking a replaced character) and a line where they cannot be placed without
 * one keeps a replaced character. Empty: nothing survives.
 */
export function storedOf(text: string, pieces: readonly Replaced[], stored: string): string[] {
  const lines = text.split("\n");
  const kept = stored.split("\n");
  if (kept.length !== lines.length) return [`${kept.length} stored lines for ${lines.length}`];
  const leaks: string[] = [];
  for (const [n, forbidden] of forbiddenByLine(lines, pieces)) {
    const out = kept[n] as string;
    if (!placeable(lines[n] as string, out, forbidden)) leaks.push(`line ${n + 1}: ${out}`);
  }
  return leaks;
}

/** For each line with replaced pieces, which of its characters redact() replaced. */
function forbiddenByLine(
  lines: readonly string[],
  pieces: readonly Replaced[],
): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  for (const p of pieces) {
    let f = out.get(p.line);
    if (f === undefined) {
      f = new Uint8Array((lines[p.line] as string).length);
      out.set(p.line, f);
    }
    f.fill(1, p.start, p.end);
  }
  return out;
}

/** True when `out` is `raw` with runs replaced by tags, and no forbidden character kept. */
function placeable(raw: string, out: string, forbidden: Uint8Array): boolean {
  const parts = out.split(TAG);
  const free = (a: number, b: number) => {
    for (let i = a; i < b; i++) if (forbidden[i] === 1) return false;
    return true;
  };
  if (parts.length === 1) return out === raw && free(0, raw.length);
  const head = parts[0] as string;
  const tail = parts[parts.length - 1] as string;
  if (!raw.startsWith(head) || !free(0, head.length)) return false;
  const tailAt = raw.length - tail.length;
  if (!raw.endsWith(tail) || !free(tailAt, raw.length)) return false;
  // Each tag replaced at least one character.
  let at = head.length + 1;
  for (let k = 1; k < parts.length - 1; k++) {
    const part = parts[k] as string;
    let i = raw.indexOf(part, at);
    while (i !== -1 && !free(i, i + part.length)) i = raw.indexOf(part, i + 1);
    if (i === -1) return false;
    at = i + part.length + 1;
  }
  return at <= tailAt;
}
