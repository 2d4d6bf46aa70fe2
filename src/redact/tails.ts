/**
 * What follows a seam where a match was already complete at its line's end: the tail of a
 * wrapped token, or the next line's own words. Read by the engine's wrapped-token search.
 */
import { isTokenChar } from "./tokens.js";

/**
 * After a weak seam (equal-length lines at an uncommon width), a match complete at the line's end
 * is continued only by a next line that starts with at least this many token characters: the
 * rest of a wrapped token, not a word or a timestamp.
 */
export const WEAK_TAIL = 16;

/** `text[at, at + n)` is a word: letters, lower case but for the first (at most WEAK_TAIL). */
export function isWord(text: string, at: number, n: number): boolean {
  if (n === 0 || n >= WEAK_TAIL) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(at + i);
    const lower = c >= 97 && c <= 122;
    if (!lower && !(i === 0 && c >= 65 && c <= 90)) return false;
  }
  return true;
}

export function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/** Length of the run of token characters (base64, `-`, `_`, `.`) at `at`, at most WEAK_TAIL. */
export function tokenRun(text: string, at: number): number {
  let i = at;
  while (
    i < text.length &&
    i - at < WEAK_TAIL &&
    (isTokenChar(text.charCodeAt(i), true) || text.charCodeAt(i) === 46)
  )
    i++;
  return i - at;
}
