import { foldLongRuns } from "../decode/normalize.js";
import { AirlockError } from "../errors.js";
import { fence } from "../fence/fence.js";
import type { Unit } from "../keep/keeper.js";
import {
  emptyMarker,
  gapMarker,
  LINE_CUT,
  lineCutMarker,
  repeatMarker,
  sectionMarker,
} from "../render/markers.js";
import { collect, join, type Layout, layout, type ReadSection } from "../render/render.js";
import type { Cut, SectionName } from "../types.js";
import { rank } from "./rank.js";
import type { ResolvedTokenizer } from "./tokenizer.js";

export interface FitRequest {
  readonly sections: readonly ReadSection[];
  readonly header: readonly string[];
  readonly labelled: boolean;
  readonly maxTokens: number;
  readonly maxBytes: number;
  readonly next: string;
  readonly untrusted: boolean;
  readonly tool: string | undefined;
  /** The most characters the keeper holds; a verbatim text longer than this is never counted. */
  readonly capacity: number;
}

export interface Fitted {
  readonly text: string;
  readonly boundary: string | undefined;
  readonly tokens: number;
  /** The layout shown; undefined when the input is shown verbatim. */
  readonly layout: Layout | undefined;
  /** Every cut: the layout's line cuts plus characters cut or folded inside kept lines. */
  readonly cuts: Cut[];
  /** True when not even one line fit and only a notice is shown. */
  readonly collapsed: boolean;
}

/** A kept line as it will be shown: run-folded, maybe shortened, with its token cost. */
interface View {
  text: string;
  /** Tokens of the line, its newline and its repeat marker. */
  tokens: number;
  /** Characters cut from the middle of the line (by the decoder's cap and by fit). */
  cut: number;
  folded: number;
  readonly section: SectionName;
}

/** Share of the free budget one line may take when there are others to show. */
const LINE_SHARE = 0.5;
/** ... and when it is the only line. */
const ONLY_LINE_SHARE = 0.95;

/**
 * Fits the held lines into the token budget, exactly:
 *  1. everything verbatim, if it was all held and fits;
 *  2. otherwise rank the held lines by value, and add them greedily (skipping any that does not
 *     fit, so one long line cannot starve the rest), estimating with per-line token counts and
 *     the cost of the gap markers each addition opens or closes;
 *  3. confirm with an exact count of the final text, backing off along the order of addition;
 *  4. if not even the markers fit, a fenced notice.
 * Only text of about the budget's size is ever tokenized.
 */
export async function fitToBudget(req: FitRequest, tokenizer: ResolvedTokenizer): Promise<Fitted> {
  const max = req.maxTokens;
  const wrap = async (body: string) =>
    req.untrusted ? fence(body, req.tool) : { text: body, boundary: undefined };
  const attempt = async (
    body: string,
    lay: Layout | undefined,
    cuts: Cut[],
    collapsed: boolean,
  ) => {
    const wrapped = await wrap(body);
    const tokens = await tokenizer.count(wrapped.text);
    if (tokens > max) return undefined;
    return { text: wrapped.text, boundary: wrapped.boundary, tokens, layout: lay, cuts, collapsed };
  };

  const verbatim = verbatimBody(req);
  if (verbatim !== undefined) {
    const done = await attempt(verbatim, undefined, [], false);
    if (done) return done;
  }

  // Every held unit, as it would be shown.
  const views = new Map<Unit, View>();
  for (const section of req.sections) {
    if (!section.kept) continue;
    for (const unit of collect(section.kept)) {
      const f = foldLongRuns(unit.text);
      const repeat =
        unit.repeat > 1 ? await tokenizer.count(`${repeatMarker(unit.repeat - 1)}\n`) : 0;
      const tokens = (await tokenizer.count(`${f.text}\n`)) + repeat;
      views.set(unit, {
        text: f.text,
        tokens,
        cut: unit.omittedChars,
        folded: f.folded,
        section: section.name,
      });
    }
  }
  const textOf = (unit: Unit): string => views.get(unit)?.text ?? unit.text;
  const tokensOf = (unit: Unit): number => views.get(unit)?.tokens ?? 0;
  const lay = (chosen: ReadonlySet<Unit>, next: string | undefined): Layout =>
    layout(req.sections, chosen, {
      header: req.header,
      maxBytes: req.maxBytes,
      next,
      labelled: req.labelled,
    });
  const cutsOf = (l: Layout): Cut[] => [
    ...l.cuts.filter((c) => c.kind !== "chars"),
    ...l.pieces.flatMap((p): Cut[] => {
      if (!("unit" in p)) return [];
      const v = views.get(p.unit);
      const count = (v?.cut ?? 0) + (v?.folded ?? 0);
      return v && count > 0
        ? [{ kind: "chars", section: v.section, line: p.unit.index, count }]
        : [];
    }),
  ];
  const gapCost = await tokenizer.count(
    `${gapMarker("stdout", 99_999_999, 99_999_999, 99_999_999)}\n`,
  );

  for (const next of [req.next, undefined]) {
    const empty = lay(new Set(), next);
    const base = await tokenizer.count((await wrap(join(empty.pieces, textOf))).text);
    if (base > max) continue;

    await shortenLongLines(views, max - base, tokenizer);
    const order = rank(
      req.sections.flatMap((s) =>
        s.kept ? [{ kept: s.kept, weight: weightOf(s, req.sections) }] : [],
      ),
      tokensOf,
    );
    const { included, used } = choose(order, req.sections, tokensOf, base, gapCost, max);

    // The estimate sums per-line counts; confirm it, and back off along the order of addition.
    const tryPrefix = async (k: number, units = included) => {
      const l = lay(new Set(units.slice(0, k)), next);
      return attempt(join(l.pieces, textOf), l, cutsOf(l), false);
    };
    const all = await tryPrefix(included.length);
    if (all) {
      // Per-line counts overestimate text whose lines merge into fewer tokens when joined: scale
      // the budget by what the exact count showed and try once more.
      const ratio = (all.tokens - base) / Math.max(1, used - base);
      if (all.tokens < max * 0.9 && ratio > 0 && ratio < 0.95 && included.length < order.length) {
        const more = choose(
          order,
          req.sections,
          tokensOf,
          base,
          gapCost,
          base + (max - base) / ratio,
        );
        // The longest prefix of the larger choice that fits, by exact counts.
        let best: Fitted = all;
        let low = included.length + 1;
        let high = more.included.length;
        while (low <= high) {
          const mid = (low + high) >> 1;
          const fitted = await tryPrefix(mid, more.included);
          if (fitted) {
            if (fitted.tokens > best.tokens) best = fitted;
            low = mid + 1;
          } else {
            high = mid - 1;
          }
        }
        return best;
      }
      return all;
    }
    let good: Fitted | undefined;
    let low = 0;
    let high = included.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const fitted = await tryPrefix(mid);
      if (fitted) {
        good = fitted;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (good) return good;
  }

  // Not even the markers fit (a small budget and a long header): say only that much.
  const collapsed = lay(new Set(), undefined);
  const allCut = collapsed.cuts.filter((c) => c.kind !== "chars");
  for (const body of [
    [...req.header, "[airlock: result omitted: it does not fit maxTokens]"].join("\n"),
    "[airlock: result omitted: it does not fit maxTokens]",
    "[airlock: omitted]",
  ]) {
    const done = await attempt(body, collapsed, allCut, true);
    if (done) return done;
  }
  throw new AirlockError(
    "fit/budget-too-small",
    `fit: maxTokens (${max}) cannot hold even the fenced notice under tokenizer "${tokenizer.name}"`,
  );
}

/** stderr gets more of the budget than stdout: it is where a failing command says why. */
function weightOf(section: ReadSection, all: readonly ReadSection[]): number {
  return section.name === "stdout" && all.some((s) => s.name === "stderr") ? 0.45 : 1;
}

/**
 * Adds units in rank order while the estimate stays within the budget. Adding a unit costs its
 * tokens plus a gap marker for each gap it opens, minus one for a gap it closes.
 */
function choose(
  order: readonly Unit[],
  sections: readonly ReadSection[],
  tokensOf: (u: Unit) => number,
  base: number,
  gapCost: number,
  max: number,
): { included: Unit[]; used: number } {
  const chosen = new Map<Unit, number>();
  const perSection = new Map<Unit, { sorted: Unit[]; total: number }>();
  for (const s of sections) {
    if (!s.kept) continue;
    const entry = { sorted: [] as Unit[], total: s.kept.lines };
    for (const u of collect(s.kept)) perSection.set(u, entry);
  }
  const included: Unit[] = [];
  let used = base;
  for (const unit of order) {
    const entry = perSection.get(unit);
    if (!entry || chosen.has(unit)) continue;
    const { sorted, total } = entry;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as Unit).index < unit.index) lo = mid + 1;
      else hi = mid;
    }
    const prev = sorted[lo - 1];
    const following = sorted[lo];
    const prevEnd = prev ? prev.index + prev.repeat - 1 : 0;
    const nextStart = following ? following.index : total + 1;
    const end = unit.index + unit.repeat - 1;
    const gaps = (a: number, b: number) => (b - a > 1 ? 1 : 0);
    const delta =
      tokensOf(unit) +
      gapCost * (gaps(prevEnd, unit.index) + gaps(end, nextStart) - gaps(prevEnd, nextStart));
    if (used + delta > max) continue;
    sorted.splice(lo, 0, unit);
    chosen.set(unit, delta);
    included.push(unit);
    used += delta;
  }
  return { included, used };
}

/**
 * A line too long for its share of the budget keeps its head and tail, with a marker counting
 * what was cut between them (added to any cut the decoder already made).
 */
async function shortenLongLines(
  views: Map<Unit, View>,
  room: number,
  tokenizer: ResolvedTokenizer,
): Promise<void> {
  const cap = Math.max(8, Math.floor(room * (views.size === 1 ? ONLY_LINE_SHARE : LINE_SHARE)));
  for (const [unit, view] of views) {
    for (let tries = 0; view.tokens > cap && tries < 6; tries++) {
      const match = LINE_CUT.exec(view.text);
      const head = match ? view.text.slice(0, match.index) : view.text;
      const tail = match ? view.text.slice(match.index + match[0].length) : "";
      const length = head.length + tail.length;
      // Aim below the cap by the share of characters per token seen in this line.
      const keep = Math.max(0, Math.floor((length * cap * 0.9) / view.tokens) - 48);
      const keepHead = Math.ceil(keep * 0.75);
      const keepTail = keep - keepHead;
      const newHead = safeSlice(match ? head : view.text, 0, Math.min(keepHead, head.length));
      const source = match ? tail : view.text;
      const newTail = safeSlice(
        source,
        Math.max(match ? 0 : newHead.length, source.length - keepTail),
        source.length,
      );
      const removed = length - newHead.length - newTail.length;
      view.cut += removed;
      view.text = `${newHead}${lineCutMarker(view.cut)}${newTail}`;
      const repeat =
        unit.repeat > 1 ? await tokenizer.count(`${repeatMarker(unit.repeat - 1)}\n`) : 0;
      view.tokens = (await tokenizer.count(`${view.text}\n`)) + repeat;
    }
  }
}

/** `text.slice(from, to)` that never splits a surrogate pair. */
function safeSlice(text: string, from: number, to: number): string {
  let a = from;
  let b = to;
  if (a > 0 && a < text.length && isLow(text.charCodeAt(a))) a += 1;
  if (b > 0 && b < text.length && isLow(text.charCodeAt(b))) b -= 1;
  return a >= b ? "" : text.slice(a, b);
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The body with every line as it was (repeats expanded), or undefined when anything was lost. */
function verbatimBody(req: FitRequest): string | undefined {
  let size = 0;
  const parts: string[] = [...req.header];
  for (const s of req.sections) {
    if (s.binary || s.capped || s.error || !s.kept || !s.kept.complete) return undefined;
    if (s.kept.lines === 0) continue;
    if (req.labelled) parts.push(sectionMarker(s.name));
    for (const unit of [...s.kept.head, ...s.kept.tail]) {
      if (unit.omittedChars > 0 || foldLongRuns(unit.text).folded > 0) return undefined;
      size += (unit.text.length + 1) * unit.repeat;
      if (size > req.capacity) return undefined;
      for (let i = 0; i < unit.repeat; i++) parts.push(unit.text);
    }
  }
  if (parts.length === req.header.length) parts.push(emptyMarker());
  return parts.join("\n");
}
