/**
 * The order in which held lines are given budget, by value. Each template gets one line before
 * any gets a second:
 *   1. the last line of each section (where it ended);
 *   2. one held line of every severe template (its first, or one costing much less): fatal,
 *      then error, then warning, and within a level by what the line costs to show (its tokens
 *      and the gap it opens), a rare template's at half (more templates fit);
 *   3. the block of an error group of every headline template (its headline, the trace or diagnostic under it, the
 *      new lines just above it: `keep/blocks.ts`), the rarer headline first (a failure said
 *      once before one logged on every request), then those with a trace, then first and
 *      last groups before the middle ones; then, for each severe message none of whose
 *      lines is shown, the one line that names it (the summary's words, issue 29), and after
 *      all of them the held line of each such message (where it fits, it replaces the name:
 *      every message is named before any is shown by a further line);
 *   4. for each severe line of step 2, a marker counting the other lines like it and where they
 *      are (a repeating template is shown once, with its count: how often an error happened is
 *      worth more than one more rare line); then the held line of every other error message
 *      (those past the names' cap), the most severe and then the cheapest first;
 *   5. the first held line of every rare template (seen once, then twice; shorter first);
 *   6. the context of the severe lines (the quiet lines after it, then the lines before it);
 *   7. the latest line of every severe template seen more than once (the first and the latest);
 *   8. one line of every other template held, the less common first, and its marker;
 *   9. the rest by lanes (evidence, head, tail) interleaved by token share.
 * Lines are still shown in input order: this is only the order of the choice.
 */
import { blockOf, continuesEvidence } from "../keep/blocks.js";
import type { Group, Kept, Template, Unit } from "../keep/keeper.js";
import type { Mention } from "../render/lines.js";

/** A "more lines like this" marker for a shown unit: a candidate of its own, after the unit. */
export interface Note {
  readonly note: Unit;
}

/** A severe message named in one line, in place of its lines (`unshownMarker`). */
export interface Said {
  readonly mention: Mention;
}

export type Candidate = Unit | Note | Said;

export function isNote(c: Candidate): c is Note {
  return "note" in c;
}

export function isSaid(c: Candidate): c is Said {
  return "mention" in c;
}

export interface RankSection {
  readonly kept: Kept;
  /** Its severe messages that may be named when their lines do not fit, most telling first. */
  readonly mentions?: readonly Mention[];
  /** Relative share of the budget for this section (stderr gets more than stdout). */
  readonly weight: number;
}

/** A queue of units of one kind (evidence, head or tail of one section) with its budget share. */
interface Lane {
  readonly units: readonly Unit[];
  readonly share: number;
  next: number;
  used: number;
}

/** What one section holds, by template. */
interface Held {
  readonly kept: Kept;
  /** Held units of each template, in line order. */
  readonly byTemplate: Map<Template, Unit[]>;
  readonly groupOf: Map<Unit, Group>;
  readonly inTail: Set<Unit>;
  readonly last: Unit | undefined;
  /** Lines repeat their templates, so a rare one stands out (not prose, where each line is new). */
  readonly repeats: boolean;
  /** The first held line of each severe message (`Unit.symptom`). */
  readonly bySymptom: Map<number, Unit>;
}

/**
 * Below one template per REPEAT_RATIO lines seen, rarity means something. A page, an article or a
 * file of prose makes a template of almost every line: ranking those by rarity would pick short
 * lines from anywhere instead of reading order.
 */
const REPEAT_RATIO = 4;

function heldOf(kept: Kept): Held {
  const all = new Set<Unit>();
  for (const u of kept.head) all.add(u);
  for (const g of kept.groups) for (const u of g.units) all.add(u);
  for (const u of kept.rare) all.add(u);
  for (const u of kept.messages) all.add(u);
  for (const u of kept.tail) all.add(u);
  const units = [...all].sort((a, b) => a.index - b.index);
  const byTemplate = new Map<Template, Unit[]>();
  for (const u of units) {
    const t = u.template === undefined ? undefined : kept.templates.get(u.template);
    if (t === undefined) continue;
    const list = byTemplate.get(t);
    if (list) list.push(u);
    else byTemplate.set(t, [u]);
  }
  const groupOf = new Map<Unit, Group>();
  for (const g of kept.groups) for (const u of g.units) groupOf.set(u, g);
  const bySymptom = new Map<number, Unit>();
  for (const u of units)
    if (u.symptom !== undefined && !bySymptom.has(u.symptom)) bySymptom.set(u.symptom, u);
  return {
    bySymptom,
    kept,
    byTemplate,
    groupOf,
    inTail: new Set(kept.tail),
    // Where the section ended, of what it holds: a short section's lines are all in its head.
    last: units[units.length - 1],
    repeats: !readsAsProse(kept),
  };
}

/** Whether a section reads as prose: each line new, not lines repeating their templates. */
export function readsAsProse(kept: Kept): boolean {
  return kept.mining.created * REPEAT_RATIO > kept.lines;
}

/** Orders groups: higher severity first; within one, first and last before the middle ones. */
function groupOrder(groups: readonly Group[]): Group[] {
  const bySeverity = new Map<number, Group[]>();
  for (const g of groups) {
    const list = bySeverity.get(g.severity) ?? [];
    list.push(g);
    bySeverity.set(g.severity, list);
  }
  const ordered: Group[] = [];
  for (const severity of [...bySeverity.keys()].sort((a, b) => b - a)) {
    const list = bySeverity.get(severity) as Group[];
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      ordered.push(list[lo++] as Group);
      if (lo <= hi) ordered.push(list[hi--] as Group);
    }
  }
  return ordered;
}

/** Evidence lines: every matching line of every group first, then neighbours by distance. */
function evidenceUnits(groups: readonly Group[]): Unit[] {
  const entries: Array<{ unit: Unit; distance: number; rank: number }> = [];
  groupOrder(groups).forEach((group, rank) => {
    const cores: number[] = [];
    group.units.forEach((u, i) => {
      if (u.severity > 0) cores.push(i);
    });
    group.units.forEach((unit, i) => {
      let distance = Number.POSITIVE_INFINITY;
      for (const c of cores) distance = Math.min(distance, Math.abs(c - i));
      entries.push({ unit, distance, rank });
    });
  });
  entries.sort((a, b) => a.distance - b.distance || a.rank - b.rank || a.unit.index - b.unit.index);
  return entries.map((e) => e.unit);
}

/**
 * The context of an evidence line in its group: the quiet lines after it (its trace or
 * diagnostic, up to the next evidence line, which has a place of its own), then the quiet lines
 * just before it, nearest first.
 */
function contextOf(unit: Unit, group: Group | undefined): Unit[] {
  if (group === undefined) return [];
  const units = group.units;
  const at = units.indexOf(unit);
  if (at === -1) return [];
  const out: Unit[] = [];
  for (let i = at + 1; i < units.length && (units[i] as Unit).severity === 0; i++)
    out.push(units[i] as Unit);
  for (
    let i = at - 1, n = 0;
    i >= 0 && n < CONTEXT_BEFORE && (units[i] as Unit).severity === 0;
    i--, n++
  )
    out.push(units[i] as Unit);
  return out;
}

/** What a gap marker around a line shown alone costs, about (docs/markers.md). */
const GAP_TOKENS = 11;
/** A template seen at most twice is worth this share of its cost more than a common one. */
const RARE_DISCOUNT = 0.5;

/** A later line of a template stands for it instead of its first when it costs this share or less. */
const CHEAPER = 0.75;

/**
 * The line a severe template is shown by: its first evidence line (when it began), or a held
 * one that costs much less (a short message where the first carried a long payload).
 */
function exemplarOf(units: readonly Unit[], tokensOf: (unit: Unit) => number): Unit {
  const severe = units.filter((u) => u.severity > 0);
  const first = severe[0] ?? (units[0] as Unit);
  let best = first;
  let cost = tokensOf(first);
  for (const u of severe) {
    const c = tokensOf(u);
    if (c < cost) {
      best = u;
      cost = c;
    }
  }
  return cost <= tokensOf(first) * CHEAPER ? best : first;
}

/** Quiet lines before an evidence line given as its context. */
const CONTEXT_BEFORE = 2;

interface Pick {
  readonly unit: Unit;
  readonly t: Template;
  readonly section: number;
}

/**
 * Ranks every held unit (and the markers that may follow them) by value, for a budget to be
 * filled in this order.
 *
 * @example
 * const order = rank([{ kept, weight: 1 }], (u) => tokens.get(u) ?? 0);
 */
export function rank(
  sections: readonly RankSection[],
  tokensOf: (unit: Unit) => number,
): Candidate[] {
  const order: Candidate[] = [];
  const taken = new Set<Candidate>();
  const push = (c: Candidate | undefined) => {
    if (c === undefined || taken.has(c)) return;
    taken.add(c);
    order.push(c);
  };
  const notes = new Map<Unit, Note>();
  const note = (u: Unit, t: Template) => {
    if (t.count <= u.repeat || notes.has(u)) return;
    const n = { note: u };
    notes.set(u, n);
    push(n);
  };
  const held = sections.map((s) => heldOf(s.kept));

  const severe: Pick[] = [];
  const latest: Pick[] = [];
  const rare: Pick[] = [];
  const common: Pick[] = [];
  held.forEach((h, section) => {
    for (const [t, units] of h.byTemplate) {
      if (t.severity > 0) {
        const first = exemplarOf(units, tokensOf);
        severe.push({ unit: first, t, section });
        const end = units[units.length - 1] as Unit;
        if (end !== first) latest.push({ unit: end, t, section });
      } else if (!h.repeats) {
        // Prose: its quiet lines keep reading order (the lanes below).
      } else if (t.runs <= 2) {
        rare.push({ unit: units[0] as Unit, t, section });
      } else {
        // One line of a common template where the log starts or ends, not out of some context.
        const end = [...units].reverse().find((u) => h.inTail.has(u));
        const start = units.find((u) => !h.groupOf.has(u));
        common.push({ unit: end ?? start ?? (units[0] as Unit), t, section });
      }
    }
  });
  // Among templates of equal value the cheaper line first: more of them fit.
  const byCost = (a: Pick, b: Pick) =>
    tokensOf(a.unit) - tokensOf(b.unit) || a.section - b.section || a.unit.index - b.unit.index;
  // A severe template's line by what it costs to show (its tokens and the gap it opens), a rare
  // one's at half: among equals the rare first, but one long rare line does not take the room of
  // several templates' lines.
  const value = (p: Pick) => (tokensOf(p.unit) + GAP_TOKENS) * (p.t.runs <= 2 ? RARE_DISCOUNT : 1);
  severe.sort((a, b) => b.t.severity - a.t.severity || value(a) - value(b) || byCost(a, b));
  rare.sort((a, b) => a.t.runs - b.t.runs || byCost(a, b));
  common.sort(
    (a, b) => a.t.count - b.t.count || b.unit.index - a.unit.index || a.section - b.section,
  );

  for (const h of held) push(h.last);
  // One line of every severe template, then each error's block: what explains it. In a re-run
  // (the few lines new since the run before are the evidence there), the errors and their
  // blocks come before the new lines that say no error.
  const rerun = held.some((h) => h.kept.rerun !== undefined);
  for (const p of severe) if (!rerun || p.t.severity >= 2) push(p.unit);
  // One block of each headline's template: a second failure like one shown waits its turn.
  const blocks: Array<{ units: Unit[]; count: number; traced: boolean }> = [];
  const headlines = new Set<Template>();
  for (const h of held) {
    for (const g of groupOrder(h.kept.groups)) {
      if (g.severity < 2) continue;
      const units = blockOf(g);
      const head = units.find((u) => u.severity >= 2) ?? units[0];
      const t = head?.template === undefined ? undefined : h.kept.templates.get(head.template);
      if (t !== undefined) {
        if (headlines.has(t)) continue;
        headlines.add(t);
      }
      const traced = units.some((u, i) => i > 0 && continuesEvidence(u.text, head?.text));
      blocks.push({ units, count: t?.count ?? 1, traced });
    }
  }
  blocks.sort((a, b) => a.count - b.count || Number(b.traced) - Number(a.traced));
  for (const b of blocks) for (const u of b.units) push(u);
  // What the summary says of a severe message none of whose lines fitted: one line, after every
  // severe line and failure block had its turn (it never takes their room). Then the held line
  // of each such message (a later line of a template another message began: their templates
  // are one, their messages two): where it fits, it is shown and its name is not (the render
  // names only messages no shown line says), so a budget names every message before it shows
  // a second line of any.
  for (const s of sections) for (const mention of s.mentions ?? []) push({ mention });
  sections.forEach((s, i) => {
    for (const m of s.mentions ?? []) push(held[i]?.bySymptom.get(m.key));
  });
  for (const p of severe) push(p.unit);
  for (const p of severe) note(p.unit, p.t);
  // The held line of every other error message (past the names' cap): the most severe, then the
  // cheapest first, before rare lines that say no error. Not warnings: a compiler's hundreds of
  // distinct warnings would take every rare line's place (helper-10).
  const others = held
    .flatMap((h) => h.kept.messages.filter((u) => u.severity >= 2))
    .sort((a, b) => b.severity - a.severity || tokensOf(a) - tokensOf(b) || a.index - b.index);
  for (const u of others) push(u);
  for (const p of rare) push(p.unit);
  for (const p of severe)
    for (const u of contextOf(p.unit, held[p.section]?.groupOf.get(p.unit))) push(u);
  for (const p of latest) push(p.unit);
  for (const p of common) {
    push(p.unit);
    note(p.unit, p.t);
  }
  for (const p of rare) note(p.unit, p.t);

  // The rest: lanes interleaved by token share; a lane that runs dry leaves its share to others.
  const lanes: Lane[] = [];
  for (const { kept, weight } of sections) {
    const hasEvidence = kept.groups.length > 0;
    if (hasEvidence)
      lanes.push({ units: evidenceUnits(kept.groups), share: weight * 0.5, next: 0, used: 0 });
    lanes.push({ units: kept.head, share: weight * (hasEvidence ? 0.2 : 0.4), next: 0, used: 0 });
    lanes.push({
      units: [...kept.tail].reverse(),
      share: weight * (hasEvidence ? 0.3 : 0.6),
      next: 0,
      used: 0,
    });
  }
  for (;;) {
    let best: Lane | undefined;
    for (const lane of lanes) {
      while (lane.next < lane.units.length && taken.has(lane.units[lane.next] as Unit)) lane.next++;
      if (lane.next >= lane.units.length) continue;
      if (best === undefined || lane.used / lane.share < best.used / best.share) best = lane;
    }
    if (best === undefined) return order;
    const unit = best.units[best.next++] as Unit;
    push(unit);
    best.used += tokensOf(unit);
  }
}
