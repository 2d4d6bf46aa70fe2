/**
 * Views: copies of small pieces of the text with a few characters taken out or replaced, so a
 * secret split or disguised in the text as shown is whole when matched. The spans found in a
 * view map back to the text through a position table.
 *
 * - a token hard-wrapped across lines (`fold -w 76`, a terminal, a PDF copy) or broken by a
 *   quoted-printable soft line break (`=` at the end of a line): the line breaks are taken out
 *   (`wraps.ts` finds where);
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
  const first = firstAfter(view.seams, start);
  let crosses = first < view.seams.length && (view.seams[first] as number) < end;
  if (view.folded !== undefined) {
    // A folded key is the point of the view; a folded value is not a secret of that format.
    for (let k = start; k < end; k++) if (view.folded[k] === 1) return undefined;
    crosses = true;
  }
  if (!crosses) return undefined;
  return { start: view.at[start] as number, end: (view.at[end - 1] as number) + 1 };
}

/** The index of the first of the ascending `positions` greater than `at` (a binary search). */
export function firstAfter(positions: readonly number[], at: number): number {
  let lo = 0;
  let hi = positions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((positions[mid] as number) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

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
  let lineBegin = 0;
  let lineEnd = -1;
  const close = () => {
    if (from !== -1) regions.push({ from, to, removals, lines: [lineStart] });
    from = -1;
    removals = [];
  };
  for (let cr = text.indexOf("\r"); cr !== -1; cr = text.indexOf("\r", cr + 1)) {
    const next = text.charCodeAt(cr + 1);
    if (next === 10 || cr + 1 >= text.length) continue;
    // The line's bounds, found once a line (a progress bar may redraw thousands of times).
    if (cr >= lineEnd) {
      lineBegin = text.lastIndexOf("\n", cr) + 1;
      lineEnd = text.indexOf("\n", cr);
      if (lineEnd === -1) lineEnd = text.length;
    }
    const start = lineBegin;
    const end = lineEnd;
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
