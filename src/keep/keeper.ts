import type { EvidenceHints, LineSink } from "../pipeline/flow.js";
import type { RerunCounts, RerunInput } from "../pipeline/rerun.js";
import { detach } from "../pipeline/text.js";
import type { Severity, Unit } from "../pipeline/unit.js";
import { continuesEvidence, explains, explainsAbove, NOVEL_AFTER, traceOf } from "./blocks.js";
import { evidenceHints } from "./evidence.js";
import { createReservoir, type Group } from "./groups.js";
import { createMessageHold } from "./message-hold.js";
import { createRerunLines } from "./rerun-lines.js";
import { createSymptomTable, type SymptomTable } from "./symptom-table.js";
import { createTemplateTable, TEMPLATE_CAP, type Template } from "./templates.js";

export type { Group, Template, Unit };

export interface KeeperLimits {
  /** Characters of the first lines to hold. */
  readonly headChars: number;
  /** Characters of the last lines to hold (a ring buffer). */
  readonly tailChars: number;
  /** Characters of evidence groups to hold. */
  readonly evidenceChars: number;
  /** Characters of first lines of rare templates to hold (default: `evidenceChars`). */
  readonly rareChars?: number;
  /**
   * Most lines held in the head and in the tail. A shown line costs at least a token, so
   * holding more lines than the budget has tokens only costs time (a log of one-character lines).
   */
  readonly headLines?: number;
  readonly tailLines?: number;
  /** Lines of context kept before and after an evidence line. */
  readonly context?: number;
  /** Longest stack trace or diagnostic kept as one group. */
  readonly maxGroupLines?: number;
  /** Templates the template table holds at most (default TEMPLATE_CAP). */
  readonly templates?: number;
}

/** What the keeper held when the input ended. */
export interface Kept {
  readonly head: readonly Unit[];
  readonly tail: readonly Unit[];
  readonly groups: readonly Group[];
  /** First lines of templates seen at most twice, held for their rarity, in line order. */
  readonly rare: readonly Unit[];
  /** The first line of each severe message, held apart (a template's later line may be one): `message-hold.ts`. */
  readonly messages: readonly Unit[];
  /** Lines seen (each repeat counted). */
  readonly lines: number;
  /** Lines that were evidence (each repeat counted). */
  readonly evidenceLines: number;
  /** True when every line seen is in `head` or `tail`: nothing was dropped. */
  readonly complete: boolean;
  /** The templates of the held lines, and every severe or rare template still in the table. */
  readonly templates: ReadonlyMap<number, Template>;
  readonly mining: {
    /** Templates made, and let go by the table's cap. */
    readonly created: number;
    readonly evicted: number;
    /** Some lines were skipped unseen (a very long input): template counts are lower bounds. */
    readonly sampled: boolean;
  };
  /** A re-run's lines: as in the earlier run, and new since it. */
  readonly rerun?: RerunCounts;
  /** Every severe line, counted by its message (the summary's symptoms). */
  readonly symptoms?: SymptomTable;
}

export interface Keeper extends LineSink {
  /** Returns the unit that holds the line: a new one, or the one it repeats. */
  line(text: string, severity: Severity, omittedChars: number, before?: string): Unit;
  /**
   * `count` lines the decoder did not materialise because they cannot be kept: they are counted,
   * and the repeat and context chains are broken there.
   */
  skip(count: number): void;
  wanted(text: string, start: number, end: number, pending: number): boolean;
  /** True while every line is needed: the head is filling or an evidence group is open. */
  readonly eager: boolean;
  readonly hints: EvidenceHints;
  finish(): Kept;
}

/**
 * Lines mined exactly: each skipped line's full signature is taken. Past them a skipped line is
 * credited through its prefix where the prefix has proved reliable (checked now and then),
 * because a pass over every character of every line would cost more than decoding it.
 */
const EXACT_LINES = 4096;
/** Past this many lines only one skipped line in SAMPLE_STRIDE is looked at. */
const SAMPLE_FROM = 1_000_000;
const SAMPLE_STRIDE = 4;
/** Lines before an error held with it at most: its context and the block above it. */
const BEFORE_LINES = 8;
/** A template first seen fewer lines above than this is new here (`Unit.fresh`). */
const FRESH_LINES = 32;
/** Lines new to the log held under an error past its last evidence or continuation line. */
const FRESH_AFTER = 12;

/** `detach` for a unit held long: its text, and the lines before it when it carries them. */
function hold(unit: Unit): void {
  unit.text = detach(unit.text);
  if (unit.before !== undefined) unit.before = detach(unit.before);
  if (unit.after !== undefined) unit.after = detach(unit.after);
}

/**
 * Equality with cheap rejections first: most neighbouring log lines differ in length or in their
 * last characters, and comparing sliced strings in full costs more than the rest of the keeper.
 */
function sameLine(a: string, b: string): boolean {
  const n = a.length;
  if (n !== b.length) return false;
  if (n === 0) return true;
  if (
    a.charCodeAt(n - 1) !== b.charCodeAt(n - 1) ||
    a.charCodeAt(n >> 1) !== b.charCodeAt(n >> 1)
  ) {
    return false;
  }
  return a === b;
}

/**
 * The one budgeted selector every format of lines shares. It holds the first lines (head), a
 * ring of the last lines (tail), a reservoir of evidence groups with their context, and the
 * first line of every template rare so far, and counts the rest; every line is mined into the
 * template table as it passes. Memory is bounded by the limits and the table's cap, never by the
 * input: a 1 GB log and a 1 KB log cost the same.
 *
 * In a re-run (`rerun.before`), a line the earlier run of the command had is ordinary whatever it
 * says when that run did not fail (it did not fail it), and a run of lines new since it is
 * evidence: what changed comes first.
 *
 * @example
 * const keeper = createKeeper({ headChars: 2000, tailChars: 3000, evidenceChars: 4000 });
 * keeper.line("ERROR boom", 2, 0);
 * keeper.finish().groups.length; // 1
 */
export function createKeeper(limits: KeeperLimits, rerun?: RerunInput): Keeper {
  const context = limits.context ?? 2;
  const maxGroupLines = limits.maxGroupLines ?? 40;
  const headLines = limits.headLines ?? Number.POSITIVE_INFINITY;
  const tailLines = limits.tailLines ?? Number.POSITIVE_INFINITY;
  const rareChars = limits.rareChars ?? limits.evidenceChars;
  // One long stack trace may not take the whole reservoir from the errors around it.
  const maxGroupChars = Math.max(256, Math.floor(limits.evidenceChars / 3));
  const head: Unit[] = [];
  let headChars = 0;
  let headOpen = true;
  // Ring buffer of tail units: `tail[tailStart..]` are live.
  let tail: Unit[] = [];
  let tailStart = 0;
  let tailChars = 0;
  let dropped = false;
  const reservoir = createReservoir(limits.evidenceChars, traceOf);
  let groupSeq = 0;
  let open: Group | undefined;
  let openAfter = 0;
  let openFresh = 0;
  // The evidence line that opened the group: a prefix it shares with a line is looked past.
  let openHead: string | undefined;
  let lines = 0;
  let evidenceLines = 0;
  let last: Unit | undefined;
  let lastTemplate: Template | undefined;
  // The last lines seen, newest last, contiguous: an error's context and the block above it.
  const recent: Unit[] = [];
  let sampled = false;
  // The skipped line last credited to a template, in case the decoder hands it over after all.
  let creditedAt = 0;
  let creditedTemplate: Template | undefined;
  // A re-run: each line read against the earlier run of its command (`rerun-lines.ts`).
  const lens = rerun === undefined ? undefined : createRerunLines(rerun);
  const symptoms = createSymptomTable();

  // First lines of rare templates, oldest first; a template seen a third time lets go of its own.
  const rare = new Map<Template, Unit>();
  let rareHeld = 0;
  const table = createTemplateTable({
    cap: limits.templates ?? TEMPLATE_CAP,
    onCommon(t) {
      const unit = rare.get(t);
      if (unit === undefined) return;
      rare.delete(t);
      rareHeld -= unit.text.length + 1;
    },
  });

  // The first line of each severe message, within as many characters as the groups.
  const messages = createMessageHold(limits.evidenceChars);
  function holdRare(unit: Unit, t: Template): void {
    hold(unit);
    rare.set(t, unit);
    rareHeld += unit.text.length + 1;
    while (rareHeld > rareChars && rare.size > 1) {
      const [oldest, gone] = rare.entries().next().value as [Template, Unit];
      rare.delete(oldest);
      rareHeld -= gone.text.length + 1;
    }
  }

  function pushTail(unit: Unit): void {
    tail.push(unit);
    tailChars += unit.text.length + 1;
    while (
      (tailChars > limits.tailChars || tail.length - tailStart > tailLines) &&
      tail.length - tailStart > 1
    ) {
      const gone = tail[tailStart] as Unit;
      tailChars -= gone.text.length + 1;
      // Let go of it now: a line is a slice of a decoded chunk, and would keep the chunk alive.
      (tail as Array<Unit | undefined>)[tailStart] = undefined;
      tailStart++;
      dropped = true;
    }
    // Compact the ring now and then so the array does not grow with the input.
    if (tailStart > 1024 && tailStart * 2 > tail.length) {
      tail = tail.slice(tailStart);
      tailStart = 0;
    }
  }

  function evict(): void {
    if (reservoir.evict(open)) open = undefined;
  }

  function attach(unit: Unit, severity: Severity): boolean {
    if (open === undefined) return false;
    // Under an error, a line new to the log explains it (an assertion's expected and actual),
    // for FRESH_AFTER lines past the last line that is evidence or continues it.
    const strong = severity > 0 || continuesEvidence(unit.text, openHead);
    const continues =
      strong ||
      openAfter > 0 ||
      (open.severity >= 2 && openFresh < FRESH_AFTER && explains(unit, openHead));
    // The cap counts what follows the error, not the context before it: one long line before an
    // exception must not cost the exception its stack trace.
    const full =
      open.units.length >= maxGroupLines || open.traceChars + unit.text.length + 1 > maxGroupChars;
    if (!continues || full) {
      open = undefined;
      return false;
    }
    hold(unit);
    open.units.push(unit);
    open.chars += unit.text.length + 1;
    open.traceChars += unit.text.length + 1;
    reservoir.grew(open, unit.text.length + 1);
    if (severity > open.severity) open.severity = severity;
    if (severity > 0 && unit.occurrence === 1) open.exemplar = true;
    openAfter = severity > 0 ? context : openAfter - 1;
    openFresh = strong ? 0 : openFresh + 1;
    return true;
  }

  function openGroup(unit: Unit, severity: Severity): void {
    const units: Unit[] = [];
    // The `context` lines before it, and above them the lines that explain it (a compiler's
    // diagnostics above its `Error 1`), up to BEFORE_LINES.
    let from = recent.length;
    while (
      from > 0 &&
      recent.length - from < BEFORE_LINES &&
      (recent.length - from < context ||
        (severity >= 2 && explainsAbove(recent[from - 1] as Unit, unit.text)))
    )
      from--;
    for (let i = from; i < recent.length; i++) {
      const u = recent[i] as Unit;
      hold(u);
      units.push(u);
    }
    units.push(unit);
    let chars = 0;
    for (const u of units) chars += u.text.length + 1;
    open = {
      units,
      severity,
      seq: groupSeq++,
      chars,
      traceChars: 0,
      exemplar: unit.occurrence === 1,
      trimmed: false,
    };
    openAfter = context;
    openFresh = 0;
    openHead = unit.text;
    reservoir.add(open);
  }

  function line(text: string, given: Severity, omittedChars: number, linesBefore?: string): Unit {
    lines++;
    const repeats =
      last !== undefined &&
      sameLine(text, last.text) &&
      omittedChars === 0 &&
      last.omittedChars === 0;
    const severity = lens === undefined ? given : lens.line(text, given, repeats, lines);
    // Every severe line is counted by its message, for the summary.
    const symptom = severity > 0 ? symptoms.add(text, severity, lines, repeats) : undefined;
    if (severity > 0) evidenceLines++;
    if (repeats && last !== undefined) {
      last.repeat++;
      if (lastTemplate !== undefined) table.repeat(lastTemplate, lines);
      return last;
    }
    // A line seen is mined exactly (its signature first: no tree walk for a known shape).
    const t =
      lines === creditedAt && creditedTemplate !== undefined
        ? creditedTemplate
        : table.mine(text, severity, lines);
    creditedAt = 0;
    lastTemplate = t;
    const held = headOpen || severity > 0 || open !== undefined;
    const unit: Unit = {
      index: lines,
      text: held ? detach(text) : text,
      repeat: 1,
      severity,
      omittedChars,
      template: t.id,
      occurrence: t.runs,
      fresh: t.first > NOVEL_AFTER && (t.runs <= 2 || lines - t.first < FRESH_LINES),
    };
    if (symptom !== undefined) unit.symptom = symptom;
    const first = symptom !== undefined && symptoms.entries.get(symptom)?.count === 1;
    if (first) messages.offer(unit);
    if (linesBefore !== undefined) unit.before = held ? detach(linesBefore) : linesBefore;
    last = unit;

    let inHead = false;
    if (headOpen && headChars + text.length + 1 <= limits.headChars && head.length < headLines) {
      head.push(unit);
      headChars += text.length + 1;
      inHead = true;
    } else {
      headOpen = false;
      pushTail(unit);
    }

    if (attach(unit, severity)) {
      evict();
    } else if (severity > 0) {
      openGroup(unit, severity);
      evict();
    }
    // The first line of a template is held while it is rare, whatever group it is context in.
    if (severity === 0 && t.runs === 1 && !inHead) holdRare(unit, t);
    recent.push(unit);
    if (recent.length > BEFORE_LINES) recent.shift();
    return unit;
  }

  function skip(count: number): void {
    if (count <= 0) return;
    lines += count;
    dropped = true;
    lens?.broken();
    // A skipped line sits between: nothing may fold across it or count it as context.
    last = undefined;
    recent.length = 0;
  }

  function wanted(text: string, start: number, end: number, pending: number): boolean {
    const position = lines + pending + 1;
    if (lens === undefined) return sighted(text, start, end, position);
    // A line new since the earlier run is handed over: it is evidence there (past SAMPLE_FROM,
    // as sampled as any other: keyed and counted, one in SAMPLE_STRIDE read).
    if (lens.isNew(text, start, end, position)) {
      if (position <= SAMPLE_FROM || position % SAMPLE_STRIDE === 0) return true;
      sampled = true;
    } else if (sighted(text, start, end, position)) return true;
    lens.skipped(position);
    return false;
  }

  function sighted(text: string, start: number, end: number, position: number): boolean {
    if (position > SAMPLE_FROM && position % SAMPLE_STRIDE !== 0) {
      sampled = true;
      return false;
    }
    const t = table.sight(text, start, end, position, position <= EXACT_LINES);
    // Unknown: hand it over, to be mined (and held, if its template is new).
    if (t === undefined) return true;
    creditedAt = position;
    creditedTemplate = t;
    // A run of a template new here is handed over: it may be the block above an error.
    return t.first > NOVEL_AFTER && position - t.first < FRESH_LINES;
  }

  function finish(): Kept {
    // A template seen once or twice stands out of a repetitive log: it is evidence there.
    const repetitive = table.created * 20 <= lines;
    const rareUnits: Unit[] = [];
    for (const [t, unit] of rare) {
      if (t.runs > 2) continue;
      rareUnits.push(unit);
      // (In a re-run what is new is evidence already, and what is as before is not.)
      if (lens?.against !== true && repetitive && unit.severity === 0 && t.count * 100 <= lines) {
        unit.severity = 1;
        evidenceLines += unit.repeat;
      }
    }
    rareUnits.sort((a, b) => a.index - b.index);
    const liveTail = tail.slice(tailStart);
    const templates = new Map<number, Template>();
    const live = new Map<number, Template>();
    for (const t of table.live()) {
      live.set(t.id, t);
      if (t.severity > 0 || t.runs <= 2) templates.set(t.id, t);
    }
    const groups = reservoir.groups;
    for (const list of [head, liveTail, rareUnits, messages.units, ...groups.map((g) => g.units)]) {
      for (const u of list) {
        if (u.template === undefined || templates.has(u.template)) continue;
        const t = live.get(u.template) ?? table.byId(u.template);
        if (t !== undefined) templates.set(t.id, t);
      }
    }
    return {
      head,
      tail: liveTail,
      groups,
      rare: rareUnits,
      messages: messages.units,
      lines,
      evidenceLines,
      complete: !dropped,
      templates,
      mining: { created: table.created, evicted: table.evicted, sampled },
      symptoms,
      ...(lens?.against ? { rerun: lens.counts() as RerunCounts } : {}),
    };
  }

  return {
    line,
    skip,
    wanted,
    hints: evidenceHints(limits.tailChars),
    get eager() {
      return headOpen || open !== undefined;
    },
    finish,
  };
}
