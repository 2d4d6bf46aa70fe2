import type { ShapedErrorCode } from "../errors/codes.js";
import type { Kept, Unit } from "../keep/keeper.js";
import {
  binaryMarker,
  capMarker,
  emptyMarker,
  gapMarker,
  readFailedMarker,
  repeatMarker,
  sectionMarker,
  stoppedMarker,
  summaryMarker,
} from "../pipeline/markers.js";
import type { BinaryInfo, Cut, SectionName } from "../pipeline/shaped.js";

/** One source after intake and keep: what the renderer and the fitter work from. */
export interface ReadSection {
  readonly name: SectionName;
  readonly bytes: number;
  readonly capped: boolean;
  /** The host stopped the read early. */
  readonly stopped?: "aborted" | "timeout";
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

/** The hint of the closing summary, or how to write it from the layout's first gap. */
export type NextHint = string | ((firstGap: Extract<Cut, { kind: "lines" }> | undefined) => string);

/** A line of the rendered body: a kept unit, or a marker written by airlock. */
export type Piece = { readonly unit: Unit } | { readonly marker: string };

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
    if (!kept || kept.lines === 0) {
      // Nothing was read, but the reason may be worth saying: the cap, a stop, or a failure.
      if (section.capped || section.stopped || section.error) {
        anyContent = true;
        if (ctx.labelled) pieces.push({ marker: sectionMarker(section.name) });
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
    const units = (ctx.unitsOf ? ctx.unitsOf(section) : sortedUnits(kept)).filter((u) =>
      chosen.has(u),
    );
    let next = 1;
    for (const unit of units) {
      if (unit.index > next) {
        pieces.push({ marker: gapMarker(section.name, next, unit.index - 1, kept.lines) });
        cuts.push(lineCut(section.name, next, unit.index - 1, kept.lines));
      }
      pieces.push({ unit });
      if (unit.omittedChars > 0) {
        cuts.push({
          kind: "chars",
          section: section.name,
          line: unit.index,
          count: unit.omittedChars,
        });
      }
      if (unit.repeat > 1) pieces.push({ marker: repeatMarker(unit.repeat - 1) });
      shownLines += unit.repeat;
      if (unit.severity > 0) shownEvidence += unit.repeat;
      next = unit.index + unit.repeat;
    }
    if (next <= kept.lines) {
      pieces.push({ marker: gapMarker(section.name, next, kept.lines, kept.lines) });
      cuts.push(lineCut(section.name, next, kept.lines, kept.lines));
    }
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

  function stop(section: ReadSection): void {
    const reason = section.stopped as "aborted" | "timeout";
    pieces.push({ marker: stoppedMarker(reason) });
    cuts.push({ kind: "stopped", section: section.name, at: section.bytes, reason });
  }
  if (shownLines < totalLines) {
    const next =
      typeof ctx.next === "function"
        ? ctx.next(cuts.find((c): c is Extract<Cut, { kind: "lines" }> => c.kind === "lines"))
        : ctx.next;
    pieces.push({
      marker: summaryMarker(shownLines, totalLines, shownEvidence, totalEvidence, next),
    });
  }
  return { pieces, shownLines, shownEvidence, cuts };
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
  for (const u of kept.tail) seen.add(u);
  return [...seen];
}

/** The body text of a layout; `textOf` gives the (run-folded) text of a unit. */
export function join(pieces: readonly Piece[], textOf: (unit: Unit) => string): string {
  let out = "";
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] as Piece;
    if (i > 0) out += "\n";
    out += "unit" in piece ? textOf(piece.unit) : piece.marker;
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
}
