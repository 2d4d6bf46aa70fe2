/**
 * The wrap search: runs of lines a hard-wrapped token may continue across (a token folded at a
 * width, after an indentation or a log timestamp; a quoted-printable soft break; an escaped line
 * break), with the breaks to take out for a view (`views.ts`) in which the token is whole; and,
 * for a stream, which lines at the end of a piece a next line could still join.
 */
import type { Region, Seam } from "./views.js";

/** Characters a wrapped token may be cut at: base64 and base64url, and `.`, `~`, `%`. */
const WRAP_CHARS = new Uint8Array(128);
for (const range of ["09", "AZ", "az"]) {
  for (let c = range.charCodeAt(0); c <= range.charCodeAt(1); c++) WRAP_CHARS[c] = 1;
}
for (const ch of "_-+/=.~%") WRAP_CHARS[ch.charCodeAt(0)] = 1;

export function isWrapChar(c: number): boolean {
  return c < 128 && WRAP_CHARS[c] === 1;
}

/** Widths that tools hard-wrap at (fold, base64, PEM, MIME, terminals, mail clients). */
const WRAP_WIDTHS = new Set([60, 64, 70, 72, 76, 78, 79, 80, 100, 120, 128]);
/** The same as a table by length, for the test asked of every line. */
const IS_WIDTH = new Uint8Array(129);
for (const w of WRAP_WIDTHS) IS_WIDTH[w] = 1;

function isWidth(length: number): boolean {
  return length <= 128 && IS_WIDTH[length] === 1;
}
/** A run of equal-length lines at least this long is a wrap at whatever width it has. */
export const MIN_WRAP = 40;
/** A quoted-printable line is at most 76 characters, its soft break `=` included. */
const QP_MAX = 78;
/** A joined region spans at most this many lines; a longer run is seen in overlapping windows. */
const REGION_LINES = 256;
const REGION_OVERLAP = 12;

/** Length of the run of spaces and tabs at `at`. */
function indentAt(text: string, at: number, end: number): number {
  let i = at;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i - at;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** True when `n` digits start at `at`. */
function digits(text: string, at: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!isDigit(text.charCodeAt(at + k))) return false;
  return true;
}

/**
 * Length of a leading timestamp and the space after it (`2026-11-30T10:33:34.5428587Z `,
 * `[2026-11-30 10:33:34,123] `, `10:33:34 `) on the line at `at`, or 0. Written out rather than
 * as a pattern: it is asked of nearly every line of a log.
 */
function stampAt(text: string, at: number, end: number): number {
  let i = at;
  const bracket = text.charCodeAt(i) === 91;
  if (bracket) i++;
  if (!isDigit(text.charCodeAt(i))) return 0;
  if (
    digits(text, i, 4) &&
    text.charCodeAt(i + 4) === 45 &&
    digits(text, i + 5, 2) &&
    text.charCodeAt(i + 7) === 45 &&
    digits(text, i + 8, 2)
  ) {
    const sep = text.charCodeAt(i + 10);
    if (sep !== 84 && sep !== 32) return 0;
    i += 11;
  }
  if (
    !(
      digits(text, i, 2) &&
      text.charCodeAt(i + 2) === 58 &&
      digits(text, i + 3, 2) &&
      text.charCodeAt(i + 5) === 58 &&
      digits(text, i + 6, 2)
    )
  ) {
    return 0;
  }
  i += 8;
  const c = text.charCodeAt(i);
  if (c === 46 || c === 44) {
    i++;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
  }
  const z = text.charCodeAt(i);
  if (z === 90) i++;
  else if ((z === 43 || z === 45) && digits(text, i + 1, 2)) {
    i += 3;
    if (text.charCodeAt(i) === 58) i++;
    if (digits(text, i, 2)) i += 2;
  }
  if (bracket) {
    if (text.charCodeAt(i) !== 93) return 0;
    i++;
  }
  const space = i;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i > space ? i - at : 0;
}

/**
 * Runs of lines a token may continue across, with the breaks to take out:
 * - a full line (at a common wrap width, or as long as a neighbour of at least MIN_WRAP
 *   characters) that ends in a token character, and a next line that starts with one, after the
 *   same indentation (a wrapped, indented paragraph) or a timestamp (a CI log);
 * - a quoted-printable soft break (`=` at the end of a line);
 * - an escaped line break (`\` at the end of a line: a YAML double-quoted scalar, a shell
 *   continuation), before the next line's indentation.
 * Every line is looked at for the first and the last; a line of another length only when it is
 * an anchor (a line with a keyword on it: a wrapped token's first line holds its prefix) or
 * continues a run, since fixed-format log lines are often equal in length. Each region holds at
 * most REGION_LINES lines; a longer run is seen in overlapping windows.
 */
export function wrapRegions(text: string, anchors: readonly number[] = []): Region[] {
  // A message that says it is quoted-printable makes every soft break a sure one (asked only
  // once a soft break is seen: the search reads the whole text).
  let qp: boolean | undefined;
  const qpText = () => {
    qp ??= text.includes("quoted-printable");
    return qp;
  };
  const regions: Region[] = [];
  // The run of joined lines being built (a plain local: a closure over it would slow the loop).
  let run: Run | undefined;
  // One search for a line break a line. Most lines of a log fail the cheap tests on their
  // length and last character; the prefix (a timestamp, an indentation) is read only for the
  // others.
  let prevBody = -1;
  let start = 0;
  let nl = text.indexOf("\n");
  let prefix: number | undefined;
  let anchor = 0;
  let end = text.length;
  while (nl !== -1) {
    const next = nl + 1;
    end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    if (next >= text.length) break;
    const nextNl = text.indexOf("\n", next);
    const length = end - start;
    const last = length > 0 ? text.charCodeAt(end - 1) : 0;
    while (anchor < anchors.length && (anchors[anchor] as number) < start) anchor++;
    const consider =
      last === 92 ||
      last === 61 ||
      (isWrapChar(last) && (isWidth(length) || run !== undefined || anchors[anchor] === start));
    let nextPrefix: number | undefined;
    let seam: Seam | undefined;
    let nextEnd = -1;
    if (consider) {
      const stop = nextNl === -1 ? text.length : nextNl;
      nextEnd = stop > next && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
      prefix ??= prefixAt(text, start, end);
      nextPrefix = prefixAt(text, next, nextEnd);
      seam = seamAt(text, start, end, prefix, next, nextEnd, nextPrefix, prevBody, qpText, run);
    }
    if (seam !== undefined) {
      run ??= { from: start, lines: [start], removals: [] };
      run.removals.push(seam);
      run.lines.push(next);
      if (run.lines.length >= REGION_LINES) {
        const { lines, removals } = run;
        closeRun(text, run, nextEnd, regions);
        const k = lines.length - REGION_OVERLAP;
        run = { from: lines[k] as number, lines: lines.slice(k), removals: removals.slice(k) };
      }
    } else if (run !== undefined) {
      closeRun(text, run, end, regions);
      run = undefined;
    }
    prevBody = prefix === undefined ? -1 : length - Math.abs(prefix);
    start = next;
    prefix = nextPrefix;
    nl = nextNl;
  }
  if (nl === -1) {
    const last = text.length;
    end = last > start && text.charCodeAt(last - 1) === 13 ? last - 1 : last;
  }
  if (run !== undefined) closeRun(text, run, end, regions);
  return regions;
}

/**
 * Where the lines at the end of `text` that its next line could still join begin: the first line
 * of the wrap region its last line is in, were the next line to go on as a token (after the same
 * prefix, as long as the last line's body); `text.length` when no next line could join it. A
 * stream holds these lines back until that next line is read, so a hard-wrapped token is judged
 * whole, as `wrapRegions` over the whole text would join it. `text` is whole lines (its last may
 * end in a newline); `anchorsOf` gives the starts of the lines with a keyword, as the engine's
 * scan finds them.
 */
export function pendingWrap(text: string, anchorsOf: (text: string) => readonly number[]): number {
  const end = text.charCodeAt(text.length - 1) === 10 ? text.length - 1 : text.length;
  const lineStart = text.lastIndexOf("\n", end - 1) + 1;
  const lineEnd = end > lineStart && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
  const length = lineEnd - lineStart;
  const last = length > 0 ? text.charCodeAt(lineEnd - 1) : 0;
  // A seam needs a syntactic break, or a line at least as long as the narrowest wrap.
  if (length < 2 || !(last === 92 || (isWrapChar(last) && (last === 61 || length >= MIN_WRAP)))) {
    return text.length;
  }
  const prefix = prefixAt(text, lineStart, lineEnd);
  const lead = text.slice(lineStart, lineStart + Math.abs(prefix));
  const probe = `${lead}${"A".repeat(Math.max(MIN_JOINED, length - Math.abs(prefix)))}`;
  // The tail the region may begin in, grown until its start is clear of the tail's first lines
  // (whose own seams depend on the lines above them).
  for (let lines = 4; ; lines *= 2) {
    let from = lineStart;
    for (let k = 0; k < lines && from > 0; k++)
      from = from >= 2 ? text.lastIndexOf("\n", from - 2) + 1 : 0;
    const tail = `${text.slice(from, end)}\n${probe}`;
    const regions = wrapRegions(tail, anchorsOf(tail));
    const r = regions[regions.length - 1];
    const probeAt = tail.length - probe.length;
    if (r === undefined || r.lines[r.lines.length - 1] !== probeAt) return text.length;
    // Clear of the first two lines of the tail (or the tail is the whole text, or too long to hold).
    let clear = from;
    for (let k = 0; k < 2; k++) {
      const nl = text.indexOf("\n", clear);
      clear = nl === -1 ? end : nl + 1;
    }
    if (from === 0 || from + r.from >= clear || end - from > PENDING_MAX) return from + r.from;
  }
}

/** Lines a stream holds back for a wrap that may go on, at most (as many characters). */
const PENDING_MAX = 32 * 1024;

interface Run {
  readonly from: number;
  readonly lines: number[];
  readonly removals: Seam[];
}

function closeRun(text: string, run: Run, to: number, regions: Region[]): void {
  let removals = run.removals;
  if (removals.some((r) => r.qp)) removals = withQpEscapes(text, run.from, to, removals);
  regions.push({ from: run.from, to, removals, lines: run.lines });
}

/**
 * A line's prefix: a timestamp's length as a negative number, an indentation's as a positive
 * one (a fragment continues only after the same kind of prefix), 0 for none.
 */
function prefixAt(text: string, start: number, end: number): number {
  const stamp = stampAt(text, start, end);
  return stamp > 0 ? -stamp : indentAt(text, start, end);
}

/** Token characters on each side of a seam, together, at least this many (or a syntactic break). */
const MIN_JOINED = 16;

/** Length of the run of wrap characters ending at `end` (at most `cap`). */
function runBefore(text: string, end: number, cap: number): number {
  let i = end;
  while (i > 0 && end - i < cap && isWrapChar(text.charCodeAt(i - 1))) i--;
  return end - i;
}

/** Length of the run of wrap characters starting at `at` (at most `cap`). */
function runAfter(text: string, at: number, cap: number): number {
  let i = at;
  while (i < text.length && i - at < cap && isWrapChar(text.charCodeAt(i))) i++;
  return i - at;
}

/**
 * The seam between the line `[start, end)` and the next `[next, nextEnd)`, if a token may
 * continue across it; `prevBody` is the previous line's body length (-1 when unknown).
 */
function seamAt(
  text: string,
  start: number,
  end: number,
  prefix: number,
  next: number,
  nextEnd: number,
  nextPrefix: number,
  prevBody: number,
  qpText: () => boolean,
  run: Run | undefined,
): Seam | undefined {
  const l = end - start;
  if (l < 2 || nextEnd === next) return undefined;
  const last = text.charCodeAt(end - 1);
  const before = text.charCodeAt(end - 2);
  // Syntactic breaks: an escaped line break, a quoted-printable soft break.
  if (last === 92 || last === 61) {
    if (!isWrapChar(before)) return undefined;
    if (last === 92) {
      const indent = indentAt(text, next, nextEnd);
      if (!isWrapChar(text.charCodeAt(next + indent))) return undefined;
      return { start: end - 1, end: next + indent, strong: true };
    }
    if (l <= QP_MAX && isWrapChar(text.charCodeAt(next))) {
      return { start: end - 1, end: next, strong: l >= 70 || qpText(), qp: true };
    }
  }
  // The next line continues after the same prefix (none, an indentation, a timestamp).
  // An indented line folded at a wrap width goes on at the next line's start (fold keeps no
  // indentation), so an indentation may also be followed by none.
  const sameKind =
    prefix < 0
      ? nextPrefix < 0
      : prefix === nextPrefix || (prefix > 0 && nextPrefix === 0 && isWidth(l));
  if (!isWrapChar(last) || !sameKind) return undefined;
  const q = Math.abs(nextPrefix);
  if (!isWrapChar(text.charCodeAt(next + q))) return undefined;
  const w = l - Math.abs(prefix);
  const strong = isWidth(w) || isWidth(l);
  const nextBody = nextEnd - next - q;
  if (!strong && !(w >= MIN_WRAP && (prevBody === w || nextBody === w))) return undefined;
  const head = runAfter(text, next + q, MIN_JOINED);
  if (runBefore(text, end, MIN_JOINED) + head < MIN_JOINED) return undefined;
  // Equal lengths alone are weak evidence (fixed-format log lines are equal too), and so is a
  // timestamped line of any length (log lines follow each other): the next line must go on with
  // a long token, or be nothing but the token's end.
  // A line that is all token, inside a run, is a middle fragment: the next may hold a short end.
  const middle = run !== undefined && runBefore(text, end, w) >= w;
  if ((!strong || prefix < 0) && head < MIN_JOINED && next + q + head !== nextEnd && !middle) {
    return undefined;
  }
  return { start: end, end: next + q, strong };
}

/**
 * The region's seams and its quoted-printable `=3D` escapes (an encoded `=`, base64 padding
 * inside a token): each `3D` is taken out too, so the view shows the `=` alone.
 */
function withQpEscapes(text: string, from: number, to: number, seams: Seam[]): Seam[] {
  const out: Seam[] = [...seams];
  for (let i = text.indexOf("=3D", from); i !== -1 && i + 3 <= to; i = text.indexOf("=3D", i + 3)) {
    out.push({ start: i + 1, end: i + 3, strong: true });
  }
  return out.sort((x, y) => x.start - y.start);
}
