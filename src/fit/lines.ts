import { foldLongRuns } from "../decode/normalize.js";
import { AirlockError } from "../errors/airlock-error.js";
import type { Unit } from "../keep/keeper.js";
import {
  emptyMarker,
  gapMarker,
  LINE_CUT,
  likeThisMarker,
  lineCutMarker,
  numberedLine,
  OMITTED_NOTICES,
  repeatMarker,
  sectionMarker,
} from "../pipeline/markers.js";
import type { Presenter } from "../pipeline/present.js";
import type { Cut, SectionName } from "../pipeline/shaped.js";
import { safeSlice, utf8Length } from "../pipeline/text.js";
import {
  type FitRequest,
  join,
  type Layout,
  layout,
  type Mention,
  type ReadSection,
  sortedUnits,
} from "../render/lines.js";
import { type Candidate, isNote, isSaid, rank, readsAsProse, type Said } from "./rank.js";
import { choose, ranksBefore, search } from "./search.js";
import type { ResolvedTokenizer } from "./tokenizer.js";

export type { FitRequest };

export interface Fitted {
  readonly text: string;
  readonly boundary: string | undefined;
  readonly tokens: number;
  /** Set instead of an exact count by `boundFit`: the text's UTF-8 length, at least its tokens. */
  readonly tokenBound?: number;
  /** The layout shown; undefined when the input is shown verbatim. */
  readonly layout: Layout | undefined;
  /** Every cut: the layout's line cuts plus characters cut or folded inside kept lines. */
  readonly cuts: Cut[];
  /** True when not even one line fit and only a notice is shown. */
  readonly collapsed: boolean;
}

/** A kept line as it will be shown: maybe shortened, run-folded, with its token cost. */
interface View {
  /** The line before run folding (maybe shortened by fit). */
  raw: string;
  /** What is shown: `raw` with long runs folded. */
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
 * A line naming a message not shown (`not shown`) summarises evidence and may not crowd it out
 * of a small budget: it takes at most a twentieth of the budget.
 */
const MENTION_SHARE = 0.05;

/**
 * The fit proved without a tokenizer (`tokenCount: "bound"`): the whole input, presented, when
 * its UTF-8 length is within the budget. Every token of the built-in encodings is at least one
 * byte, so that length bounds its tokens; `tokens` is then that bound, and `tokenBound` says so.
 * Undefined when the input was not held whole or is longer than the budget in bytes.
 *
 * @example
 * const proved = await boundFit(request, presenter); // no tokenizer loaded
 */
export async function boundFit(req: FitRequest, presenter: Presenter): Promise<Fitted | undefined> {
  const verbatim = verbatimBody(req);
  // A body longer in characters than the budget cannot be shorter in bytes: no need to present it.
  if (verbatim === undefined || verbatim.length > req.maxTokens) return undefined;
  const shown = await presenter.present(verbatim);
  const bytes = utf8Length(shown.text);
  if (bytes > req.maxTokens) return undefined;
  const fitted = { text: shown.text, boundary: shown.boundary, tokens: bytes, tokenBound: bytes };
  return { ...fitted, layout: undefined, cuts: [], collapsed: false };
}

/**
 * Fits the held lines into the token budget, exactly:
 *  1. everything verbatim, if it was all held and fits;
 *  2. otherwise rank the held lines by value, and add them greedily (skipping any that does not
 *     fit, so one long line cannot starve the rest), estimating with per-line token counts and
 *     the cost of the gap markers each addition opens or closes;
 *  3. confirm with an exact count of the presented text, and search (`search.ts`);
 *  4. if not even the markers fit, a fenced notice.
 *
 * @example
 * const fitted = await fitLines(request, tokenizer, presenter);
 */
export async function fitLines(
  req: FitRequest,
  tokenizer: ResolvedTokenizer,
  presenter: Presenter,
): Promise<Fitted> {
  const max = req.maxTokens;
  const transform = presenter.estimate;
  const estimator: ResolvedTokenizer =
    transform === undefined
      ? tokenizer
      : { name: tokenizer.name, count: (text: string) => tokenizer.count(transform(text)) };
  // The token count of the last attempt, fitting or not: it tells how far over an attempt was.
  let lastCount = 0;
  const attempt = async (
    body: string,
    lay: Layout | undefined,
    cuts: Cut[],
    collapsed: boolean,
    numbered = false,
  ): Promise<Fitted | undefined> => {
    const shown = await presenter.present(body, numbered);
    const tokens = await tokenizer.count(shown.text);
    lastCount = tokens;
    if (tokens > max) return undefined;
    return { text: shown.text, boundary: shown.boundary, tokens, layout: lay, cuts, collapsed };
  };

  const verbatim = verbatimBody(req);
  if (verbatim !== undefined) {
    const done = await attempt(verbatim, undefined, [], false);
    if (done) return done;
  }

  // Every held unit, as it would be shown; each section's units sorted once.
  const views = new Map<Unit, View>();
  const sorted = new Map<ReadSection, Unit[]>();
  for (const section of req.sections) {
    if (!section.kept) continue;
    const units = sortedUnits(section.kept);
    sorted.set(section, units);
    for (const unit of units)
      views.set(unit, await viewOf(unit, unit.text, unit.omittedChars, section.name, estimator));
  }
  const textOf = (unit: Unit): string => views.get(unit)?.text ?? unit.text;
  const tokensOf = (unit: Unit): number => views.get(unit)?.tokens ?? 0;
  const lay = (
    chosen: Iterable<Candidate>,
    next: FitRequest["next"] | undefined,
    numbered = false,
  ): Layout => {
    const units = new Set<Unit>();
    const noted = new Set<Unit>();
    const mentions = new Set<Mention>();
    for (const c of chosen) {
      if (isNote(c)) noted.add(c.note);
      else if (isSaid(c)) mentions.add(c.mention);
      else units.add(c);
    }
    return layout(req.sections, units, {
      header: req.header,
      maxBytes: req.maxBytes,
      next,
      labelled: req.labelled,
      unitsOf: (section) => sorted.get(section) ?? [],
      noted,
      numbered,
      mentions,
    });
  };
  const cutsOf = (l: Layout): Cut[] => {
    const cuts: Cut[] = l.cuts.filter((c) => c.kind !== "chars");
    for (const piece of l.pieces) {
      if (!("unit" in piece)) continue;
      const v = views.get(piece.unit);
      if (v === undefined || v.cut + v.folded === 0) continue;
      cuts.push({
        kind: "chars",
        section: v.section,
        line: piece.unit.index,
        count: v.cut + v.folded,
      });
    }
    return cuts;
  };
  const gapCost = await estimator.count(`${gapMarker("stdout", 99_999_999, 99_999_999)}\n`);
  // A "more lines like this" marker costs at most what the longest one does (several after one
  // run share one marker, which costs less than theirs apart).
  const noteCost = await estimator.count(
    `${likeThisMarker("stdout", { more: 99_999_999, like: 99_999_999, from: 1, to: 99_999_999, atLeast: false, total: Number.MAX_SAFE_INTEGER })}\n`,
  );
  const unitDelta = gapDelta(sorted, tokensOf, gapCost);
  // A message is named only while none of its held lines is shown.
  const sayers = new Map<number, Unit[]>();
  for (const unit of views.keys()) {
    if (unit.symptom === undefined) continue;
    const list = sayers.get(unit.symptom);
    if (list) list.push(unit);
    else sayers.set(unit.symptom, [unit]);
  }
  // Made only now, for a cut: a result shown whole never names what it did not show.
  const mentions = req.mentions?.() ?? [];
  const mentionCost = new Map<Mention, number>();
  for (const m of mentions) mentionCost.set(m, await estimator.count(`${m.text}\n`));
  const lineSays = (key: number, shown: ReadonlySet<Candidate>): boolean =>
    sayers.get(key)?.some((u) => shown.has(u)) ?? false;
  const said = (c: Said, shown: ReadonlySet<Candidate>): number | undefined => {
    const cost = mentionCost.get(c.mention) ?? 0;
    return lineSays(c.mention.key, shown) || cost > max * MENTION_SHARE ? undefined : cost;
  };
  // The name of each message in this attempt's ranking: a line of a named message, once shown,
  // takes the name's place (the render names only messages no shown line says).
  let nameOf = new Map<number, Said>();
  const freed = (u: Unit, shown: ReadonlySet<Candidate>): number => {
    const name = u.symptom === undefined ? undefined : nameOf.get(u.symptom);
    if (name === undefined || !shown.has(name) || lineSays(name.mention.key, shown)) return 0;
    return mentionCost.get(name.mention) ?? 0;
  };
  const delta = (c: Candidate, shown: ReadonlySet<Candidate>): number | undefined => {
    if (isNote(c)) return shown.has(c.note) ? noteCost : undefined;
    if (isSaid(c)) return said(c, shown);
    const d = unitDelta(c, shown);
    return d === undefined ? d : d - freed(c, shown);
  };
  // Lines of prose read as prose, with gaps between paragraphs; a log may number its lines.
  const numberable =
    req.prose !== true && req.sections.every((s) => s.kept === undefined || !readsAsProse(s.kept));
  // In a numbered layout a line costs its number and a tab instead of the gaps it opens.
  const numberCost = new Map<Unit, number>();
  if (numberable)
    for (const unit of views.keys())
      numberCost.set(unit, await estimator.count(numberedLine(unit.index, "")));
  const numberedDelta = (c: Candidate, shown: ReadonlySet<Candidate>): number | undefined =>
    isNote(c) || isSaid(c)
      ? delta(c, shown)
      : tokensOf(c) + (numberCost.get(c) ?? 0) - freed(c, shown);
  const costOf = (c: Candidate): number =>
    isNote(c) ? noteCost : isSaid(c) ? (mentionCost.get(c.mention) ?? 0) : tokensOf(c);
  const original = new Map(views);
  // Whether the chosen body may need a fence's boundary: some line it can show holds a `<`.
  const holds =
    [...views.values()].some((v) => presenter.holdsFence(v.raw)) ||
    mentions.some((m) => presenter.holdsFence(m.text));

  for (const next of [req.next, undefined]) {
    const empty = lay([], next);
    const bare = join(empty.pieces, textOf);
    const least = await tokenizer.count((await presenter.present(bare)).text);
    if (least > max) continue;
    // Estimated under the largest fence the budget allows, since the chosen body may need it
    // (unless that alone is over the budget: then only a body that needs no more can fit).
    const framed = await tokenizer.count((await presenter.framed(bare, holds)).text);
    const base = framed > max ? least : framed;

    // Lines are shortened for this attempt's room; a later attempt starts from the originals.
    for (const [unit, view] of original) views.set(unit, view);
    await shortenLongLines(views, max - base, estimator);
    const order = rank(
      req.sections.flatMap((s) =>
        s.kept
          ? [
              {
                kept: s.kept,
                weight: weightOf(s, req.sections),
                mentions: mentions.filter((m) => m.section === s.name),
              },
            ]
          : [],
      ),
      tokensOf,
    );
    nameOf = new Map();
    for (const c of order) if (isSaid(c)) nameOf.set(c.mention.key, c);
    // Numbered when that shows more of the ranking than gap markers would (lines that lie apart:
    // each gap marker costs several numbers), or the same lines for fewer tokens.
    const gapped = choose(order, delta, base, max, true);
    const byNumber = numberable ? choose(order, numberedDelta, base, max, true) : undefined;
    const numbered = byNumber !== undefined && ranksBefore(byNumber, gapped, order);
    const cost = numbered ? numberedDelta : delta;
    const good = await search<Candidate, Fitted>({
      choice: numbered ? (byNumber as typeof gapped) : gapped,
      base,
      max,
      total: order.length,
      costOf: numbered
        ? (c) => costOf(c) + (isNote(c) || isSaid(c) ? 0 : (numberCost.get(c) ?? 0))
        : costOf,
      lastCount: () => lastCount,
      more: (budget) => choose(order, cost, base, budget, true).included,
      attempt: (units, k) => {
        const l = lay(units.slice(0, k), next, numbered);
        return attempt(join(l.pieces, textOf), l, cutsOf(l), false, numbered);
      },
    });
    if (good) return good;
  }

  // Not even the markers fit (a small budget and a long header): say only that much.
  const collapsed = lay([], undefined);
  const allCut = collapsed.cuts.filter((c) => c.kind !== "chars");
  const [notice, last] = OMITTED_NOTICES as [string, string];
  for (const body of [[...req.header, notice].join("\n"), notice, last]) {
    const done = await attempt(body, collapsed, allCut, true);
    if (done) return done;
  }
  throw new AirlockError(
    "fit/budget-too-small",
    `fit: maxTokens (${max}) cannot hold even the fenced notice under tokenizer "${tokenizer.name}"`,
  );
}

/**
 * What showing a unit costs: its tokens, plus the change in gap markers. A unit not shown sits in
 * exactly one gap; showing it leaves a gap on its left unless the line before it is shown, and
 * one on its right unless the line after it is, so the change is known from its two neighbours
 * among the held units, in constant time.
 */
function gapDelta(
  sorted: ReadonlyMap<ReadSection, readonly Unit[]>,
  tokensOf: (u: Unit) => number,
  gapCost: number,
): (unit: Unit, shown: ReadonlySet<Candidate>) => number | undefined {
  const place = new Map<Unit, { units: readonly Unit[]; at: number; total: number }>();
  for (const [section, units] of sorted) {
    const total = section.kept?.lines ?? 0;
    for (const [at, u] of units.entries()) place.set(u, { units, at, total });
  }
  return (unit, shown) => {
    const where = place.get(unit);
    if (!where) return undefined;
    const before = where.units[where.at - 1];
    const after = where.units[where.at + 1];
    const end = unit.index + unit.repeat - 1;
    const leftShown =
      before !== undefined && shown.has(before) && before.index + before.repeat === unit.index;
    const rightShown = after !== undefined && shown.has(after) && end + 1 === after.index;
    // A blank line alone between two gaps is not shown (render/lines.ts): it costs nothing yet.
    if (
      !leftShown &&
      !rightShown &&
      unit.index > 1 &&
      unit.severity === 0 &&
      unit.text.trim() === ""
    )
      return 0;
    const left = unit.index > 1 && !leftShown ? 1 : 0;
    const right = end < where.total && !rightShown ? 1 : 0;
    return tokensOf(unit) + gapCost * (left + right - 1);
  };
}

/** A unit's view: `raw` run-folded, and its token cost with newline and repeat marker. */
async function viewOf(
  unit: Unit,
  raw: string,
  cut: number,
  section: SectionName,
  tokenizer: ResolvedTokenizer,
): Promise<View> {
  const f = foldLongRuns(raw);
  const repeat = unit.repeat > 1 ? await tokenizer.count(`${repeatMarker(unit.repeat - 1)}\n`) : 0;
  const tokens = (await tokenizer.count(`${f.text}\n`)) + repeat;
  return { raw, text: f.text, tokens, cut, folded: f.folded, section };
}

/** stderr gets more of the budget than stdout: it is where a failing command says why. */
function weightOf(section: ReadSection, all: readonly ReadSection[]): number {
  return section.name === "stdout" && all.some((s) => s.name === "stderr") ? 0.45 : 1;
}

/**
 * A line too long for its share of the budget keeps its head and tail, with a marker counting
 * what was cut between them (added to any cut the decoder already made). It is cut in its raw
 * form and folded afterwards, so no fold marker is ever cut through.
 */
async function shortenLongLines(
  views: Map<Unit, View>,
  room: number,
  tokenizer: ResolvedTokenizer,
): Promise<void> {
  const cap = Math.max(8, Math.floor(room * (views.size === 1 ? ONLY_LINE_SHARE : LINE_SHARE)));
  for (const [unit, first] of views) {
    let view = first;
    for (let tries = 0; view.tokens > cap && tries < 6; tries++) {
      const match = LINE_CUT.exec(view.raw);
      const head = match ? view.raw.slice(0, match.index) : view.raw;
      const tail = match ? view.raw.slice(match.index + match[0].length) : "";
      const length = head.length + tail.length;
      // Aim below the cap by the characters per token seen in this line.
      const keep = Math.max(0, Math.floor((length * cap * 0.9) / view.tokens) - 48);
      const keepHead = Math.ceil(keep * 0.75);
      const newHead = safeSlice(head, 0, Math.min(keepHead, head.length));
      const source = match ? tail : head;
      const from = Math.max(match ? 0 : newHead.length, source.length - (keep - keepHead));
      const newTail = safeSlice(source, from, source.length);
      const cut = view.cut + length - newHead.length - newTail.length;
      view = await viewOf(
        unit,
        `${newHead}${lineCutMarker(cut)}${newTail}`,
        cut,
        view.section,
        tokenizer,
      );
    }
    views.set(unit, view);
  }
}

/** The body with every line as it was (repeats expanded), or undefined when anything was lost. */
function verbatimBody(req: FitRequest): string | undefined {
  let size = 0;
  const parts: string[] = [...req.header];
  for (const s of req.sections) {
    if (
      s.binary ||
      s.capped ||
      s.stopped ||
      s.lost ||
      s.uncaptured ||
      s.error ||
      !s.kept ||
      !s.kept.complete
    )
      return undefined;
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
