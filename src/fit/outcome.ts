/**
 * What the fit decided, read back in the terms `meta` reports: every cut with its position, the
 * lines and evidence each section shows, the records shown and where a cursor reads on.
 */
import type { KeptView } from "../keep/view.js";
import type { Outcome } from "../pipeline/facts.js";
import type { Cut } from "../pipeline/shaped.js";
import type { Unit } from "../pipeline/unit.js";
import { collect } from "../render/lines.js";
import type { Draft } from "../render/stage.js";
import type { Fitted } from "./stage.js";

/**
 * @example
 * const outcome = outcomeOf(fitted, kept);
 */
export function outcomeOf(fitted: Fitted & { readonly draft: Draft }): Outcome {
  const kept = fitted.draft.kept;
  if (fitted.kind === "envelope") return recordsOutcome(fitted, kept.view);
  const { lines } = fitted;
  const draft = fitted.draft;
  const sections = draft.kind === "lines" ? draft.request.sections : [];
  const cuts: Cut[] = [...lines.cuts];
  if (lines.collapsed) {
    // Only a notice was shown: every line of every section is omitted.
    for (const s of sections) {
      const n = s.kept?.lines ?? 0;
      const listed = cuts.some((c) => c.kind === "lines" && c.section === s.name);
      if (n > 0 && !listed)
        cuts.push({ kind: "lines", section: s.name, from: 1, to: n, count: n, of: n });
    }
  }
  const shown = new Set<Unit>();
  for (const piece of lines.layout?.pieces ?? []) if ("unit" in piece) shown.add(piece.unit);
  const perSection = kept.sections.map(({ name, kept: k }) => {
    const omitted = cuts.reduce(
      (n, c) => n + (c.kind === "lines" && c.section === name ? c.count : 0),
      0,
    );
    let keptEvidence = 0;
    for (const u of collect(k)) {
      const visible = lines.layout ? shown.has(u) : !lines.collapsed;
      if (visible && u.severity > 0) keptEvidence += u.repeat;
    }
    return {
      name,
      lines: k.lines,
      keptLines: k.lines - omitted,
      evidenceLines: k.evidenceLines,
      keptEvidenceLines: keptEvidence,
    };
  });
  return {
    text: lines.text,
    boundary: lines.boundary,
    tokens: lines.tokens,
    tokenizer: fitted.tokenizer,
    cuts,
    sections: perSection,
    status: cuts.length > 0 ? "partial" : "ok",
  };
}

function recordsOutcome(
  fitted: Extract<Fitted, { kind: "envelope" }> & { readonly draft: Draft },
  view: KeptView | undefined,
): Outcome {
  const env = fitted.envelope;
  const draft = fitted.draft;
  const status =
    draft.kind === "envelope"
      ? draft.status(fitted.request, env.shown, env.reduced === true)
      : "ok";
  let records: Outcome["records"];
  if (view && draft.kind === "envelope" && draft.candidates && draft.shown) {
    const shownUnits = draft.shown(env.shown);
    const tails = new Set(view.tail);
    const tail = shownUnits.filter((u) => tails.has(u)).length;
    records = {
      shown: env.shown,
      errorsShown: shownUnits.filter((u) => u.severity >= 2).length,
      evidenceShown: shownUnits.filter((u) => u.severity >= 1).length,
      reduced: env.reduced === true,
      next: { offset: env.shown - tail, end: view.total - tail },
    };
  } else {
    records = { shown: env.shown, errorsShown: 0, evidenceShown: 0, reduced: env.reduced === true };
  }
  return {
    text: env.text,
    boundary: env.boundary,
    tokens: env.tokens,
    tokenizer: fitted.tokenizer,
    cuts: [],
    sections: [],
    records,
    status,
  };
}
