import type { ShapedErrorCode } from "../errors/codes.js";
import type { Kept, Template, Unit } from "../keep/keeper.js";
import {
  binaryMarker,
  capMarker,
  emptyMarker,
  gapMarker,
  type LikeThis,
  likeTheseMarker,
  likeThisMarker,
  lostMarker,
  numberedLine,
  readFailedMarker,
  repeatMarker,
  sectionMarker,
  stoppedMarker,
  summaryMarker,
  uncapturedMarker,
} from "../pipeline/markers.js";
import type { ReadStop } from "../pipeline/run.js";
import type { BinaryInfo, Cut, SectionName } from "../pipeline/shaped.js";

/** One source after intake and keep: what the renderer and the fitter work from. */
export interface ReadSection {
  readonly name: SectionName;
  readonly bytes: number;
  readonly capped: boolean;
  /** The host stopped the read early. */
  readonly stopped?: ReadStop;
  /** Output the stream let go before airlock attached (its size, when known). */
  readonly lost?: { readonly bytes: number | undefined };
  /** A process's stream that was not piped to airlock. */
  readonly uncaptured?: true;
  readonly invalid: number;
  readonly kept?: Kept;
  readonly binary?: BinaryInfo;
  /** Set when the source failed while it was read: what was read before is shown. */
  readonly error?: {
    readonly code: ShapedErrorCode;
    readonly message: string;
    readonly detail?: string;
  };
}

/**
 * A severe message of a section that the fit may name in one line when none of its lines is
 * shown (`unshownMarker`): the summary's words for evidence that did not fit.
 */
export interface Mention {
  readonly section: SectionName;
  /** The message's key: the units that say it carry it (`Unit.symptom`). */
  readonly key: number;
  /** The marker, written. */
  readonly text: string;
  readonly severity: number;
  readonly count: number;
}

/** The hint of the closing summary, or how to write it from the layout's first gap. */
export type NextHint = string | ((firstGap: Extract<Cut, { kind: "lines" }> | undefined) => string);

/**
 * A line of the rendered body: a kept unit (with its number, in a numbered layout), or a marker
 * written by airlock.
 */
export type Piece = { readonly unit: Unit; readonly numbered?: true } | { readonly marker: string };

export interface Layout {
  readonly pieces: Piece[];
  /** Lines represented in the text (a folded repeat counts all its lines). */
  readonly shownLines: number;
  readonly shownEvidence: number;
  readonly cuts: Cut[];
}

export interface LayoutContext {
  /** Every held unit of a section, sorted by line (computed once by the caller). */
  readonly unitsOf?: (section: ReadSection) => readonly Unit[];
  readonly header: readonly string[];
  readonly maxBytes: number;
  /**
   * Sentence for the model on how to get more; `undefined` leaves it out. A function writes it
   * from the first gap of the layout (a stored result's hint names the lines it reads).
   */
  readonly next: NextHint | undefined;
  /** Label each section (command output has two streams). */
  readonly labelled: boolean;
  /** Shown units followed by a marker counting the other lines of their template. */
  readonly noted?: ReadonlySet<Unit>;
  /**
   * Every shown line carries its number, and gaps between shown lines are not written (the
   * numbers say them): cheaper than a gap marker a line when the shown lines lie apart. A
   * section that shows no line still has its one gap marker.
   */
  readonly numbered?: boolean;
  /** Severe messages to name at the end of their section, when none of their lines is shown. */
  readonly mentions?: ReadonlySet<Mention>;
}

/**
 * Lays out the chosen units in input order, with a marker for every gap, repeat, cap and binary
 * source, and a closing summary when anything was cut. Pure: the same choice gives the same text.
 */
export function layout(
  sections: readonly ReadSection[],
  chosen: ReadonlySet<Unit>,
  ctx: LayoutContext,
): Layout {
  const pieces: Piece[] = ctx.header.map((marker) => ({ marker }));
  const cuts: Cut[] = [];
  let shownLines = 0;
  let shownEvidence = 0;
  let totalLines = 0;
  let totalEvidence = 0;
  let anyContent = false;
  // Numbered only where the summary will say so: when some line is not shown.
  const numbering = ctx.numbered === true && someCut(sections, chosen, ctx);

  for (const section of sections) {
    if (section.binary) {
      const b = section.binary;
      if (ctx.labelled) pieces.push({ marker: sectionMarker(section.name) });
      pieces.push({ marker: binaryMarker(b.mime, b.bytes, b.complete, b.sha256) });
      cuts.push({ kind: "binary", section: section.name, mime: b.mime, bytes: b.bytes });
      anyContent = true;
      continue;
    }
    const kept = section.kept;
    if (section.uncaptured) {
      anyContent = true;
      pieces.push({ marker: uncapturedMarker(section.name) });
      continue;
    }
    if (!kept || kept.lines === 0) {
      // Nothing was read, but the reason may be worth saying: the cap, a stop, a failure, or
      // output that was gone before it could be read.
      if (section.capped || section.stopped || section.error || section.lost) {
        anyContent = true;
        if (ctx.labelled) pieces.push({ marker: sectionMarker(section.name) });
        lost(section);
        if (section.capped) {
          pieces.push({ marker: capMarker(ctx.maxBytes) });
          cuts.push({
            kind: "bytes",
            section: section.name,
            at: section.bytes,
            limit: ctx.maxBytes,
          });
        }
        if (section.stopped) stop(section);
        if (section.error) {
          const detail = section.error.detail ?? section.error.message;
          pieces.push({ marker: readFailedMarker(section.name, detail) });
        }
      }
      continue;
    }
    anyContent = true;
    totalLines += kept.lines;
    totalEvidence += kept.evidenceLines;
    if (ctx.labelled) pieces.push({ marker: sectionMarker(section.name) });
    lost(section);
    const units = alone(
      (ctx.unitsOf ? ctx.unitsOf(section) : sortedUnits(kept)).filter((u) => chosen.has(u)),
    );
    const notes = ctx.noted && ctx.noted.size > 0 ? notesOf(kept, units, ctx.noted) : undefined;
    let next = 1;
    // Notes wait for the end of their run of shown lines, so no run (an error and its trace) is
    // split. A severe line's count is said on its own (how often an error happened); the counts
    // of the other lines of a run are said in one marker.
    const pending: Array<{ note: LikeThis; severe: boolean }> = [];
    const flushNotes = () => {
      const quiet = pending.filter((p) => !p.severe).map((p) => p.note);
      for (const p of pending) {
        if (p.severe || quiet.length === 1)
          pieces.push({ marker: likeThisMarker(section.name, p.note) });
        else if (p.note === quiet[quiet.length - 1])
          pieces.push({ marker: likeTheseMarker(section.name, quiet) });
      }
      pending.length = 0;
    };
    const numbered = numbering && units.length > 0;
    for (const unit of units) {
      if (unit.index > next) {
        flushNotes();
        if (!numbered) pieces.push({ marker: gapMarker(section.name, next, unit.index - 1) });
        cuts.push(lineCut(section.name, next, unit.index - 1, kept.lines));
      }
      pieces.push(numbered ? { unit, numbered: true } : { unit });
      if (unit.omittedChars > 0) {
        cuts.push({
          kind: "chars",
          section: section.name,
          line: unit.index,
          count: unit.omittedChars,
        });
      }
      if (unit.repeat > 1) pieces.push({ marker: repeatMarker(unit.repeat - 1) });
      const note = notes?.get(unit);
      if (note !== undefined) pending.push({ note, severe: unit.severity > 0 });
      shownLines += unit.repeat;
      if (unit.severity > 0) shownEvidence += unit.repeat;
      next = unit.index + unit.repeat;
    }
    flushNotes();
    if (next <= kept.lines) {
      if (!numbered) pieces.push({ marker: gapMarker(section.name, next, kept.lines) });
      cuts.push(lineCut(section.name, next, kept.lines, kept.lines));
    }
    if (ctx.mentions && ctx.mentions.size > 0) mention(section, units);
    if (section.capped) {
      pieces.push({ marker: capMarker(ctx.maxBytes) });
      cuts.push({ kind: "bytes", section: section.name, at: section.bytes, limit: ctx.maxBytes });
    }
    if (section.stopped) stop(section);
    if (section.error)
      pieces.push({
        marker: readFailedMarker(section.name, section.error.detail ?? section.error.message),
      });
  }
  if (!anyContent) pieces.push({ marker: emptyMarker() });

  /** What went before the section's first line: output it had let go before it was read. */
  function lost(section: ReadSection): void {
    if (!section.lost) return;
    pieces.push({ marker: lostMarker(section.name, section.lost.bytes) });
    cuts.push({
      kind: "lost",
      section: section.name,
      ...(section.lost.bytes !== undefined ? { bytes: section.lost.bytes } : {}),
    });
  }

  /** The chosen mentions of a section whose message no shown line says. */
  function mention(section: ReadSection, units: readonly Unit[]): void {
    const said = new Set<number>();
    for (const u of units) if (u.symptom !== undefined) said.add(u.symptom);
    for (const m of ctx.mentions ?? []) {
      if (m.section === section.name && !said.has(m.key)) pieces.push({ marker: m.text });
    }
  }

  function stop(section: ReadSection): void {
    const reason = section.stopped as ReadStop;
    pieces.push({ marker: stoppedMarker(reason) });
    cuts.push({ kind: "stopped", section: section.name, at: section.bytes, reason });
  }
  if (shownLines < totalLines) {
    const next =
      typeof ctx.next === "function"
        ? ctx.next(cuts.find((c): c is Extract<Cut, { kind: "lines" }> => c.kind === "lines"))
        : ctx.next;
    pieces.push({
      marker: summaryMarker(
        shownLines,
        totalLines,
        shownEvidence,
        totalEvidence,
        next,
        numbering && shownLines > 0,
      ),
    });
  }
  return { pieces, shownLines, shownEvidence, cuts };
}

/** True when the chosen units leave some line of a section unshown (the summary is written). */
function someCut(
  sections: readonly ReadSection[],
  chosen: ReadonlySet<Unit>,
  ctx: LayoutContext,
): boolean {
  for (const section of sections) {
    const kept = section.kept;
    if (section.binary || section.uncaptured || !kept || kept.lines === 0) continue;
    let shown = 0;
    for (const u of ctx.unitsOf ? ctx.unitsOf(section) : sortedUnits(kept))
      if (chosen.has(u)) shown += u.repeat;
    if (shown < kept.lines) return true;
  }
  return false;
}

/**
 * The shown units less the blank lines that would stand alone between two gaps: a blank line
 * says nothing there, and the two gap markers around it cost more than the one that takes it in
 * (a cut page's paragraphs read `[airlock: omitted lines 20-22]`, not a marker, a blank line and
 * a marker).
 */
function alone(units: readonly Unit[]): Unit[] {
  return units.filter((u, i) => {
    if (u.text.trim() !== "" || u.severity > 0) return true;
    const before = units[i - 1];
    const after = units[i + 1];
    const joinedBefore = before !== undefined && before.index + before.repeat === u.index;
    const joinedAfter = after !== undefined && u.index + u.repeat === after.index;
    return joinedBefore || joinedAfter || u.index === 1;
  });
}

/**
 * The "more lines like this" markers of the noted units among `shown`: the lines of each
 * template not shown, and the span they lie in.
 */
function notesOf(
  kept: Kept,
  shown: readonly Unit[],
  noted: ReadonlySet<Unit>,
): Map<Unit, LikeThis> {
  const shownOf = new Map<number, number>();
  const covered = (line: number) => shown.some((u) => u.index <= line && line < u.index + u.repeat);
  for (const u of shown) {
    if (u.template !== undefined)
      shownOf.set(u.template, (shownOf.get(u.template) ?? 0) + u.repeat);
  }
  const out = new Map<Unit, LikeThis>();
  for (const u of shown) {
    if (!noted.has(u) || u.template === undefined) continue;
    const t = kept.templates.get(u.template);
    if (t === undefined) continue;
    const more = t.count - (shownOf.get(u.template) ?? 0);
    if (more <= 0) continue;
    const [from, to] = unshownSpan(t, covered);
    out.set(u, { more, like: u.index, from, to, atLeast: kept.mining.sampled, total: kept.lines });
  }
  return out;
}

/**
 * Bounds of the lines of `t` not shown, from what the table knows exactly: its first positions
 * (the first and second, or the first few of a severe template) and its last ones. When all the
 * known first ones are shown, the others lie after them; when all the known last ones are, before.
 */
function unshownSpan(t: Template, covered: (line: number) => boolean): [number, number] {
  const p = t.positions ?? [];
  const firsts =
    p.length > 0
      ? p.slice(0, Math.min(p.length, 8))
      : [t.first, ...(t.second > 0 ? [t.second] : [])];
  const lasts = p.length > 8 ? p.slice(8) : [t.last];
  let lo = firsts.find((l) => !covered(l)) ?? (firsts[firsts.length - 1] as number) + 1;
  const open = lasts.filter((l) => !covered(l));
  let hi = open.length > 0 ? Math.max(...open) : Math.min(...lasts) - 1;
  // A shown line is not one of them: the span starts and ends at lines not shown.
  while (lo < hi && covered(lo)) lo++;
  while (hi > lo && covered(hi)) hi--;
  return hi >= lo ? [lo, hi] : [t.first, t.last];
}

/**
 * Whether a line is shown, given the shown units in line order: a binary search over the runs they
 * cover (a unit covers its line and its repeats).
 */
export function coverage(shown: readonly Unit[]): (line: number) => boolean {
  return (line) => {
    let lo = 0;
    let hi = shown.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const u = shown[mid] as Unit;
      if (line < u.index) hi = mid - 1;
      else if (line >= u.index + u.repeat) lo = mid + 1;
      else return true;
    }
    return false;
  };
}

function lineCut(section: SectionName, from: number, to: number, of: number): Cut {
  return { kind: "lines", section, from, to, count: to - from + 1, of };
}

/** Every unit the keeper holds for a section, each once, in line order. */
export function sortedUnits(kept: Kept): Unit[] {
  return collect(kept).sort((a, b) => a.index - b.index);
}

/** Every unit the keeper holds for a section, each once. */
export function collect(kept: Kept): Unit[] {
  const seen = new Set<Unit>();
  for (const u of kept.head) seen.add(u);
  for (const g of kept.groups) for (const u of g.units) seen.add(u);
  for (const u of kept.rare) seen.add(u);
  for (const u of kept.messages) seen.add(u);
  for (const u of kept.tail) seen.add(u);
  return [...seen];
}

/** Characters some readers take for a line break (U+2028, U+2029, NEL, a lone CR). */
const SEPARATORS = /[\u2028\u2029\u0085\r]/g;

/** The body text of a layout; `textOf` gives the (run-folded) text of a unit. */
export function join(pieces: readonly Piece[], textOf: (unit: Unit) => string): string {
  let out = "";
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as Piece;
    if (i > 0) out += "\n";
    if (!("unit" in piece)) out += piece.marker;
    // A line separator inside a numbered line would read as a line without its number.
    else if (piece.numbered)
      out += numberedLine(piece.unit.index, textOf(piece.unit).replace(SEPARATORS, " "));
    else out += textOf(piece.unit);
  }
  return out;
}

/** What the fit sizes for lines: the sections as read and kept, and the frame around them. */
export interface FitRequest {
  readonly sections: readonly ReadSection[];
  readonly header: readonly string[];
  readonly labelled: boolean;
  readonly maxTokens: number;
  readonly maxBytes: number;
  readonly next: NextHint;
  /** The most characters the keeper holds; a verbatim text longer than this is never counted. */
  readonly capacity: number;
  /**
   * Severe messages the fit may name when none of their lines fits (most telling first), made
   * when a cut asks for them (each is redacted: a result shown whole pays nothing).
   */
  readonly mentions?: () => readonly Mention[];
  /** A page or markdown: prose, laid out with paragraph gaps and never numbered. */
  readonly prose?: boolean;
}
