/**
 * Views: copies of small pieces of the text with a few characters taken out or replaced, so a
 * secret split or disguised in the text as shown is whole when matched. The spans found in a
 * view map back to the text through a position table.
 *
 * - a token hard-wrapped across lines (`fold -w 76`, a terminal, a PDF copy) or broken by a
 *   quoted-printable soft line break (`=` at the end of a line): the line breaks are taken out;
 * - a value redrawn by a carriage return (`DB_PASSWORD=abc\rXk9…`, where the terminal shows only
 *   what follows the return): the return is taken out, so the key is next to the whole value;
 * - a key name spelled with look-alike letters or invisible characters (`pаssword` with a
 *   Cyrillic `а`, `ｐａｓｓｗｏｒｄ`, `pass\u200bword`): see `confusables.ts`.
 *
 * Each view is bounded in size, and together they cover each character of the text a bounded
 * number of times, so the work stays linear.
 */

export interface View {
  readonly text: string;
  /** Where each character of the view is in the text; one more entry for the view's end. */
  readonly at: Int32Array;
  /** View positions with characters taken out just before them. */
  readonly seams: readonly number[];
  /** View positions whose character was replaced (a look-alike letter folded); absent if none. */
  readonly folded?: Uint8Array;
}

export interface Removal {
  readonly start: number;
  readonly end: number;
}

/** The view of `text[from, to)` without the `removals` (sorted, disjoint, inside the range). */
export function cutView(
  text: string,
  from: number,
  to: number,
  removals: readonly Removal[],
): View {
  const parts: string[] = [];
  const at = new Int32Array(to - from + 1);
  const seams: number[] = [];
  let n = 0;
  let i = from;
  for (const r of removals) {
    parts.push(text.slice(i, r.start));
    for (let k = i; k < r.start; k++) at[n++] = k;
    seams.push(n);
    i = r.end;
  }
  parts.push(text.slice(i, to));
  for (let k = i; k < to; k++) at[n++] = k;
  at[n] = to;
  return { text: parts.join(""), at: at.subarray(0, n + 1), seams };
}

/** The span `[start, end)` of a view in the text, or undefined if it crosses no seam or fold. */
export function spanInText(
  view: View,
  start: number,
  end: number,
): { start: number; end: number } | undefined {
  if (end <= start) return undefined;
  let crosses = false;
  for (const s of view.seams) {
    if (s > start && s < end) {
      crosses = true;
      break;
    }
  }
  if (view.folded !== undefined) {
    // A folded key is the point of the view; a folded value is not a secret of that format.
    for (let k = start; k < end; k++) if (view.folded[k] === 1) return undefined;
    crosses = true;
  }
  if (!crosses) return undefined;
  return { start: view.at[start] as number, end: (view.at[end - 1] as number) + 1 };
}

/** Characters a wrapped token may be cut at: base64 and base64url, and `.`, `~`, `%`. */
function isWrapChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 45 ||
    c === 43 ||
    c === 47 ||
    c === 61 ||
    c === 46 ||
    c === 126 ||
    c === 37
  );
}

/** Widths that tools hard-wrap at (fold, base64, PEM, MIME, terminals, mail clients). */
const WRAP_WIDTHS = new Set([60, 64, 70, 72, 76, 78, 79, 80, 100, 120, 128]);
/** A run of equal-length lines at least this long is a wrap at whatever width it has. */
const MIN_WRAP = 40;
/** A quoted-printable line is at most 76 characters, its soft break `=` included. */
const QP_MAX = 78;
/** A joined region spans at most this many lines; a longer run is seen in overlapping windows. */
const REGION_LINES = 256;
const REGION_OVERLAP = 12;
/** A log line's timestamp, which a wrapped fragment's line starts with too (CI logs). */
const TIMESTAMP =
  /^(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?|\[?\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?\]?)[ \t]+/;

export interface Seam extends Removal {
  /**
   * The break is surely inside a token: the line is at a common wrap width, or ends in a
   * soft break or an escaped line break. A weak seam (equal-length lines at another width) does
   * not continue a match that was already complete at the line's end.
   */
  readonly strong: boolean;
  /** A quoted-printable soft break: the region's `=3D` escapes are decoded too. */
  readonly qp?: boolean;
}

export interface Region {
  readonly from: number;
  readonly to: number;
  readonly removals: readonly Seam[];
  /** Line starts in the region, for the caller's keyword gate. */
  readonly lines: readonly number[];
}

/** Length of the run of spaces and tabs at `at`. */
function indentAt(text: string, at: number, end: number): number {
  let i = at;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i - at;
}

/** Length of a leading timestamp (and the space after it) on the line at `at`, or 0. */
function stampAt(text: string, at: number, end: number): number {
  const c = text.charCodeAt(at);
  if (!((c >= 48 && c <= 57) || c === 91)) return 0;
  return TIMESTAMP.exec(text.slice(at, Math.min(end, at + 48)))?.[0].length ?? 0;
}

/**
 * Runs of lines a token may continue across, with the breaks to take out:
 * - a full line (at a common wrap width, or as long as a neighbour of at least MIN_WRAP
 *   characters) that ends in a token character, and a next line that starts with one, after the
 *   same indentation (a wrapped, indented paragraph) or the same kind of timestamp (a CI log);
 * - a quoted-printable soft break (`=` at the end of a line);
 * - an escaped line break (`\` at the end of a line: a YAML double-quoted scalar, a shell
 *   continuation), before the next line's indentation.
 * Each region holds at most REGION_LINES lines.
 */
export function wrapRegions(text: string): Region[] {
  // Line starts and content ends (a CR before the LF is not content).
  const starts: number[] = [];
  const ends: number[] = [];
  let s = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", s)) {
    starts.push(s);
    ends.push(nl > s && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
    s = nl + 1;
  }
  starts.push(s);
  ends.push(text.length);
  const count = starts.length;
  const len = (i: number) => (ends[i] as number) - (starts[i] as number);
  // A message that says it is quoted-printable makes every soft break a sure one.
  const qpText = text.includes("quoted-printable");
  // A line's prefix (a timestamp, or an indentation) is not part of what was wrapped.
  const stamps = new Int32Array(count);
  const prefixes = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const at = starts[i] as number;
    const end = ends[i] as number;
    stamps[i] = stampAt(text, at, end);
    prefixes[i] = stamps[i] || indentAt(text, at, end);
  }
  const body = (i: number) => len(i) - (prefixes[i] as number);
  const seam: Array<Seam | undefined> = new Array(count - 1);
  for (let i = 0; i + 1 < count; i++) {
    const e = ends[i] as number;
    const l = len(i);
    if (l < 2 || len(i + 1) === 0) continue;
    const last = text.charCodeAt(e - 1);
    const before = text.charCodeAt(e - 2);
    const next = starts[i + 1] as number;
    const nextIndent = indentAt(text, next, ends[i + 1] as number);
    if (last === 92 && isWrapChar(before) && isWrapChar(text.charCodeAt(next + nextIndent))) {
      seam[i] = { start: e - 1, end: next + nextIndent, strong: true };
      continue;
    }
    if (!isWrapChar(text.charCodeAt(next)) && prefixes[i + 1] === 0) continue;
    if (last === 61 && l <= QP_MAX && isWrapChar(before) && isWrapChar(text.charCodeAt(next))) {
      seam[i] = { start: e - 1, end: next, strong: qpText || l >= 70, qp: true };
      continue;
    }
    if (!isWrapChar(last)) continue;
    // The next line continues after the same prefix (none, an indentation, a timestamp).
    const p = prefixes[i] as number;
    const q = prefixes[i + 1] as number;
    const sameKind =
      stamps[i] !== 0 && stamps[i + 1] !== 0
        ? true
        : stamps[i] === 0 && stamps[i + 1] === 0 && p === q;
    if (!sameKind || !isWrapChar(text.charCodeAt(next + q))) continue;
    const w = body(i);
    const strong = WRAP_WIDTHS.has(w) || WRAP_WIDTHS.has(l);
    const even = w >= MIN_WRAP && ((i > 0 && body(i - 1) === w) || body(i + 1) === w);
    if (strong || even) seam[i] = { start: e, end: next + q, strong };
  }
  const regions: Region[] = [];
  for (let i = 0; i + 1 < count; ) {
    if (seam[i] === undefined) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < count && seam[j] !== undefined) j++;
    // Lines i..j are joined; a long run is cut into overlapping windows.
    for (let a = i; a < j; a += REGION_LINES - REGION_OVERLAP) {
      const b = Math.min(j, a + REGION_LINES - 1);
      let removals: Seam[] = [];
      const lines: number[] = [];
      for (let k = a; k <= b; k++) {
        lines.push(starts[k] as number);
        if (k < b) removals.push(seam[k] as Seam);
      }
      const from = starts[a] as number;
      const to = ends[b] as number;
      if (removals.some((r) => r.qp)) removals = withQpEscapes(text, from, to, removals);
      regions.push({ from, to, removals, lines });
      if (b === j) break;
    }
    i = j + 1;
  }
  return regions;
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

/** Text on each side of a carriage return that a key and its value may span. */
const REDRAW_REACH = 1024;
const REDRAW_MAX = 64 * 1024;

/**
 * Windows around bare carriage returns (not part of a CRLF), with those returns to take out: a
 * key before a return and its value after it are next to each other in the view.
 */
export function redrawRegions(text: string): Region[] {
  const regions: Region[] = [];
  let from = -1;
  let to = -1;
  let lineStart = 0;
  let removals: Seam[] = [];
  const close = () => {
    if (from !== -1) regions.push({ from, to, removals, lines: [lineStart] });
    from = -1;
    removals = [];
  };
  for (let cr = text.indexOf("\r"); cr !== -1; cr = text.indexOf("\r", cr + 1)) {
    const next = text.charCodeAt(cr + 1);
    if (next === 10 || cr + 1 >= text.length) continue;
    const start = text.lastIndexOf("\n", cr) + 1;
    let end = text.indexOf("\n", cr);
    if (end === -1) end = text.length;
    const a = Math.max(start, cr - REDRAW_REACH);
    const b = Math.min(end, cr + 1 + REDRAW_REACH);
    if (from !== -1 && start === lineStart && a <= to && b - from <= REDRAW_MAX) {
      to = Math.max(to, b);
    } else {
      close();
      from = a;
      to = b;
      lineStart = start;
    }
    removals.push({ start: cr, end: cr + 1, strong: true });
  }
  close();
  return regions;
}
