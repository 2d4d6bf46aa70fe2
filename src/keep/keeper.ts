import type { EvidenceHints, LineSink } from "../pipeline/flow.js";
import type { Severity, Unit } from "../pipeline/unit.js";
import { continuesEvidence, evidenceHints } from "./evidence.js";

export type { Unit };

/** A piece of evidence: the lines that matched and the context around them. */
export interface Group {
  readonly units: Unit[];
  severity: Severity;
  /** Order of creation; the first group of a severity is never evicted by a later one. */
  readonly seq: number;
  chars: number;
  /** Characters of the lines after the first evidence line (its trace or diagnostic). */
  traceChars: number;
}

export interface KeeperLimits {
  /** Characters of the first lines to hold. */
  readonly headChars: number;
  /** Characters of the last lines to hold (a ring buffer). */
  readonly tailChars: number;
  /** Characters of evidence groups to hold. */
  readonly evidenceChars: number;
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
}

/** What the keeper held when the input ended. */
export interface Kept {
  readonly head: readonly Unit[];
  readonly tail: readonly Unit[];
  readonly groups: readonly Group[];
  /** Lines seen (each repeat counted). */
  readonly lines: number;
  /** Lines that were evidence (each repeat counted). */
  readonly evidenceLines: number;
  /** True when every line seen is in `head` or `tail`: nothing was dropped. */
  readonly complete: boolean;
}

export interface Keeper extends LineSink {
  line(text: string, severity: Severity, omittedChars: number): void;
  /**
   * `count` lines the decoder did not materialise because they cannot be kept: they are counted,
   * and the repeat and context chains are broken there.
   */
  skip(count: number): void;
  /**
   * Notes the template of a line the decoder wants to skip. Returns true when the line is a
   * stand-out candidate; the decoder then hands it over with `line()` instead of skipping it.
   */
  skippable(template: number, pending: number): boolean;
  /** True while every line is needed: the head is filling or an evidence group is open. */
  readonly eager: boolean;
  readonly hints: EvidenceHints;
  finish(): Kept;
}

const NOVELTY_WARMUP = 200;
/** Leading characters that make a line's template (digits folded): level and message start. */
const TEMPLATE_CHARS = 32;

/**
 * A copy of `text` that does not keep its source alive. Lines are slices of 1 MiB decoded
 * chunks, and V8 keeps the whole chunk alive for as long as a slice of it lives; a kept evidence
 * line would otherwise pin a megabyte each. Only lines held long (head, evidence) are copied.
 */
function detach(text: string): string {
  return text.length === 0 ? text : ` ${text}`.slice(1);
}

/**
 * Template of the line `text[start, end)`: a hash of its first TEMPLATE_CHARS characters with each
 * run of digits folded to one symbol, so lines that differ only in numbers share a template.
 */
export function templateOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  const n = Math.min(end, start + TEMPLATE_CHARS);
  let digits = false;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits) continue;
      digits = true;
      h = Math.imul(h ^ 35, 16777619);
      continue;
    }
    digits = false;
    h = Math.imul(h ^ c, 16777619);
  }
  return h;
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
const MAX_TEMPLATES = 4096;
const MAX_NOVEL = 32;
/** Evidence groups held at once; eviction scans them, so this also bounds its cost per line. */
const MAX_GROUPS = 256;

/**
 * The one budgeted selector every format shares. It holds the first lines (head), a ring of the
 * last lines (tail), and a reservoir of evidence groups with their context, and counts the rest.
 * Memory is bounded by the limits, never by the input: a 1 GB log and a 1 KB log cost the same.
 *
 * Eviction favours what an agent needs: a lower severity goes before a higher one, and within a
 * severity the first group (often the root cause) stays while later ones roll like a ring, so
 * the first and the latest errors survive.
 *
 * @example
 * const keeper = createKeeper({ headChars: 2000, tailChars: 3000, evidenceChars: 4000 });
 * keeper.line("ERROR boom", 2, 0);
 * keeper.finish().groups.length; // 1
 */
export function createKeeper(limits: KeeperLimits): Keeper {
  const context = limits.context ?? 2;
  const maxGroupLines = limits.maxGroupLines ?? 40;
  const headLines = limits.headLines ?? Number.POSITIVE_INFINITY;
  const tailLines = limits.tailLines ?? Number.POSITIVE_INFINITY;
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
  const groups: Group[] = [];
  let groupChars = 0;
  let groupSeq = 0;
  let open: Group | undefined;
  let openAfter = 0;
  let lines = 0;
  let evidenceLines = 0;
  let last: Unit | undefined;
  let prev1: Unit | undefined;
  let prev2: Unit | undefined;

  // Stand-out detection: count line templates (digits folded, first 32 chars); a template first
  // seen after the warm-up that stays rare is evidence of something unusual in a repetitive log.
  // An open-addressing table (hash, count) in typed arrays: a Map here costs more than all the
  // rest of the per-line work together.
  const slots = MAX_TEMPLATES * 2;
  const templateKeys = new Int32Array(slots);
  const templateCounts = new Int32Array(slots);
  let templateCount = 0;
  let templatesFull = false;

  /** Adds one sighting of template `t` and returns how often it was seen before. */
  function sight(t: number): number {
    const key = t === 0 ? 1 : t;
    let i = (key >>> 0) % slots;
    for (;;) {
      const k = templateKeys[i] as number;
      if (k === key) return (templateCounts[i] as number)++;
      if (k === 0) {
        templateKeys[i] = key;
        templateCounts[i] = 1;
        templateCount++;
        return 0;
      }
      i = i + 1 === slots ? 0 : i + 1;
    }
  }

  function seen(t: number): number {
    const key = t === 0 ? 1 : t;
    let i = (key >>> 0) % slots;
    for (;;) {
      const k = templateKeys[i] as number;
      if (k === key) return templateCounts[i] as number;
      if (k === 0) return 0;
      i = i + 1 === slots ? 0 : i + 1;
    }
  }
  const novel: Array<{ unit: Unit; template: number }> = [];

  function detachUnit(unit: Unit): Unit {
    unit.text = detach(unit.text);
    return unit;
  }

  function addGroup(group: Group): void {
    groups.push(group);
    groupChars += group.chars;
  }

  /**
   * Frees reservoir space. Victims are chosen lowest severity first and, within a severity, the
   * second-oldest (so the first, often the root cause, stays while later ones roll). A group still
   * being built never evicts a group more severe than itself: if only such groups are left, the
   * open group gives way instead.
   */
  function evict(): void {
    while ((groupChars > limits.evidenceChars || groups.length > MAX_GROUPS) && groups.length > 0) {
      const ceiling = open ? open.severity : 3;
      let victim = -1;
      let firstOfSeverity = -1;
      let lowest = 4;
      for (let i = 0; i < groups.length; i++) {
        const g = groups[i] as Group;
        if (g === open || g.severity > ceiling) continue;
        if (g.severity < lowest) {
          lowest = g.severity;
          firstOfSeverity = i;
          victim = i;
        } else if (g.severity === lowest && victim === firstOfSeverity) {
          victim = i;
        }
      }
      if (victim === -1) {
        const at = open ? groups.indexOf(open) : -1;
        if (at === -1) return;
        groups.splice(at, 1);
        groupChars -= (open as Group).chars;
        open = undefined;
        return;
      }
      const [gone] = groups.splice(victim, 1);
      groupChars -= (gone as Group).chars;
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

  function attach(unit: Unit, severity: Severity): boolean {
    if (open === undefined) return false;
    const continues = severity > 0 || openAfter > 0 || continuesEvidence(unit.text);
    // The cap counts what follows the error, not the context before it: one long line before an
    // exception must not cost the exception its stack trace.
    const full =
      open.units.length >= maxGroupLines || open.traceChars + unit.text.length + 1 > maxGroupChars;
    if (!continues || full) {
      open = undefined;
      return false;
    }
    open.units.push(unit);
    open.chars += unit.text.length + 1;
    open.traceChars += unit.text.length + 1;
    groupChars += unit.text.length + 1;
    if (severity > open.severity) open.severity = severity;
    openAfter = severity > 0 ? context : openAfter - 1;
    return true;
  }

  function line(text: string, severity: Severity, omittedChars: number): void {
    lines++;
    if (severity > 0) evidenceLines++;
    if (
      last !== undefined &&
      sameLine(text, last.text) &&
      omittedChars === 0 &&
      last.omittedChars === 0
    ) {
      last.repeat++;
      return;
    }
    const held = headOpen || severity > 0 || open !== undefined;
    const unit: Unit = {
      index: lines,
      text: held ? detach(text) : text,
      repeat: 1,
      severity,
      omittedChars,
    };
    last = unit;

    if (headOpen && headChars + text.length + 1 <= limits.headChars && head.length < headLines) {
      head.push(unit);
      headChars += text.length + 1;
    } else {
      headOpen = false;
      pushTail(unit);
    }

    if (!attach(unit, severity)) {
      if (severity > 0) {
        const units: Unit[] = [];
        if (context >= 2 && prev2 !== undefined) units.push(detachUnit(prev2));
        if (context >= 1 && prev1 !== undefined) units.push(detachUnit(prev1));
        units.push(unit);
        let chars = 0;
        for (const u of units) chars += u.text.length + 1;
        open = { units, severity, seq: groupSeq++, chars, traceChars: 0 };
        openAfter = context;
        addGroup(open);
        evict();
      } else if (!templatesFull) {
        const t = templateOf(text, 0, text.length);
        const before = sight(t);
        if (templateCount >= MAX_TEMPLATES) templatesFull = true;
        if (before === 0 && lines > NOVELTY_WARMUP && novel.length < MAX_NOVEL) {
          unit.text = detach(unit.text);
          novel.push({ unit, template: t });
        }
      }
    } else {
      evict();
    }
    prev2 = prev1;
    prev1 = unit;
  }

  function skip(count: number): void {
    if (count <= 0) return;
    lines += count;
    dropped = true;
    // A skipped line sits between: nothing may fold across it or count it as context.
    last = undefined;
    prev1 = undefined;
    prev2 = undefined;
  }

  function skippable(t: number, pending: number): boolean {
    if (templatesFull) return false;
    // `pending`: lines the decoder skipped but has not reported yet; they count for the warm-up.
    if (seen(t) === 0 && lines + pending > NOVELTY_WARMUP && novel.length < MAX_NOVEL) return true;
    sight(t);
    if (templateCount >= MAX_TEMPLATES) templatesFull = true;
    return false;
  }

  function finish(): Kept {
    // Stand-outs count only in a repetitive log, and only if their template stayed rare.
    const repetitive = !templatesFull && templateCount * 20 <= lines;
    if (repetitive) {
      for (const { unit, template: t } of novel) {
        if (seen(t) > 2) continue;
        unit.severity = 1;
        evidenceLines += unit.repeat;
        addGroup({
          units: [unit],
          severity: 1,
          seq: groupSeq++,
          chars: unit.text.length + 1,
          traceChars: 0,
        });
      }
      groups.sort((a, b) => (a.units[0] as Unit).index - (b.units[0] as Unit).index);
      evict();
    }
    return {
      head,
      tail: tail.slice(tailStart),
      groups,
      lines,
      evidenceLines,
      complete: !dropped,
    };
  }

  return {
    line,
    skip,
    skippable,
    hints: evidenceHints(limits.tailChars, templateOf),
    get eager() {
      return headOpen || open !== undefined;
    },
    finish,
  };
}
