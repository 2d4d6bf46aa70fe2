/**
 * The one fitting search every format shares: estimate what fits from per-unit token counts,
 * count the rendered text exactly, and search for the longest prefix of the choice that fits.
 * Only text of about the budget's size is ever tokenized (tokenizers are slow on hostile runs).
 */

/** Exact-count probes when searching for a larger selection after the estimate overshot. */
const RESCALE_PROBES = 5;

export interface Choice<U> {
  readonly included: U[];
  /** The estimated tokens of the choice, frame included. */
  readonly used: number;
}

/**
 * Adds candidates in priority order while the estimate stays within `max`. `delta(u, shown)` is
 * what adding `u` costs given what is already shown (a line's gap markers depend on its
 * neighbours). With `skip`, a candidate that does not fit is passed over, so one long line cannot
 * starve the rest; without it (records, shown as a prefix of their view) the choice stops there.
 *
 * @example
 * choose(units, (u) => cost(u), 40, 2000, true).included;
 */
export function choose<U>(
  order: readonly U[],
  delta: (u: U, shown: ReadonlySet<U>) => number | undefined,
  base: number,
  max: number,
  skip: boolean,
): Choice<U> {
  const shown = new Set<U>();
  const included: U[] = [];
  let used = base;
  for (const unit of order) {
    if (shown.has(unit)) continue;
    const d = delta(unit, shown);
    if (d === undefined) continue;
    if (used + d > max) {
      if (skip) continue;
      break;
    }
    shown.add(unit);
    included.push(unit);
    used += d;
  }
  return { included, used };
}

/**
 * Whether choice `a` shows more of the ranking than `b`: at the first candidate in rank order
 * that one shows and the other does not, `a` shows it; when they show the same, `a` costs less.
 *
 * @example
 * ranksBefore(numbered, gapped, order); // true: the numbered layout shows a line gapped does not
 */
export function ranksBefore<C>(a: Choice<C>, b: Choice<C>, order: readonly C[]): boolean {
  const at = new Map<C, number>();
  for (const [i, c] of order.entries()) at.set(c, i);
  const n = Math.min(a.included.length, b.included.length);
  for (let i = 0; i < n; i++) {
    const x = at.get(a.included[i] as C) ?? 0;
    const y = at.get(b.included[i] as C) ?? 0;
    if (x !== y) return x < y;
  }
  if (a.included.length !== b.included.length) return a.included.length > b.included.length;
  return a.used < b.used;
}

/** Binary search for the largest k in [low, high] whose prefix fits, with at most `probes` tries. */
export async function longestFitting<R>(
  low: number,
  high: number,
  probes: number,
  attempt: (k: number) => Promise<R | undefined>,
): Promise<R | undefined> {
  let best: R | undefined;
  let lo = low;
  let hi = high;
  for (let n = 0; lo <= hi && n < probes; n++) {
    const mid = (lo + hi) >> 1;
    const fitted = await attempt(mid);
    if (fitted) {
      best = fitted;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

export interface Search<U, R extends { readonly tokens: number }> {
  readonly choice: Choice<U>;
  /** The frame's exact tokens (what showing nothing costs). */
  readonly base: number;
  readonly max: number;
  /** Candidates there are in all (the choice may hold fewer). */
  readonly total: number;
  readonly costOf: (u: U) => number;
  /** Renders and counts the first `k` of `units`; undefined when it does not fit. */
  readonly attempt: (units: readonly U[], k: number) => Promise<R | undefined>;
  /** Tokens of the last attempt, fitting or not: how far over it was. */
  readonly lastCount: () => number;
  /** A larger choice for a larger estimated budget (when the estimate overshot). */
  readonly more?: (budget: number) => readonly U[];
}

/**
 * Confirms an estimated choice with exact counts. When it fits but per-unit counts overestimated
 * (units that merge into fewer tokens when joined), it searches a larger choice scaled by what the
 * exact count showed; when it does not fit, it drops the last-added units worth the excess (plus a
 * margin) a few times, then searches between the last prefix that failed and the first that fits.
 *
 * @example
 * const fitted = await search({ choice, base, max, total, costOf, attempt, lastCount });
 */
export async function search<U, R extends { readonly tokens: number }>(
  s: Search<U, R>,
): Promise<R | undefined> {
  const { included, used } = s.choice;
  const all = await s.attempt(included, included.length);
  if (all) {
    const ratio = (all.tokens - s.base) / Math.max(1, used - s.base);
    if (
      s.more === undefined ||
      all.tokens >= s.max * 0.9 ||
      ratio <= 0 ||
      ratio >= 0.95 ||
      included.length >= s.total
    ) {
      return all;
    }
    const bigger = s.more(s.base + (s.max - s.base) / ratio);
    // Only a prefix that holds every unit of the fitted choice: a larger budget may rank a unit
    // that was skipped before ahead of some of them, and more tokens must not show less.
    const at = new Map<U, number>();
    for (const [i, u] of bigger.entries()) at.set(u, i);
    let least = included.length + 1;
    for (const u of included) least = Math.max(least, (at.get(u) ?? Number.POSITIVE_INFINITY) + 1);
    if (least > bigger.length) return all;
    const best = await longestFitting(least, bigger.length, RESCALE_PROBES, (k) =>
      s.attempt(bigger, k),
    );
    return best && best.tokens > all.tokens ? best : all;
  }
  let failed = included.length;
  let k = included.length;
  let good: R | undefined;
  for (let tries = 0; tries < 4 && k > 0 && good === undefined; tries++) {
    let excess = Math.ceil((s.lastCount() - s.max) * 1.1) + 1;
    while (k > 0 && excess > 0) excess -= s.costOf(included[--k] as U);
    good = await s.attempt(included, k);
    if (good === undefined) failed = k;
  }
  if (good === undefined) {
    return longestFitting(0, k - 1, Number.POSITIVE_INFINITY, (j) => s.attempt(included, j));
  }
  return (await longestFitting(k + 1, failed - 1, 3, (j) => s.attempt(included, j))) ?? good;
}
