/**
 * What the fit decided, read back in the terms `meta` reports: every cut with its position, the
 * lines and evidence each section shows, the records shown and where a cursor reads on.
 */
import type { Kept } from "../keep/keeper.js";
import { templateText } from "../keep/templates.js";
import type { KeptView } from "../keep/view.js";
import type { Outcome } from "../pipeline/facts.js";
import type { Cut, EvidenceCut, EvidenceMeta, SectionName } from "../pipeline/shaped.js";
import type { Unit } from "../pipeline/unit.js";
import { collect, coverage } from "../render/lines.js";
import type { Draft } from "../render/stage.js";
import type { Fitted } from "./stage.js";
import { summaryOf } from "./symptoms.js";

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
    ...(lines.tokenBound !== undefined ? { tokenBound: lines.tokenBound } : {}),
    tokenizer: fitted.tokenizer,
    cuts,
    sections: perSection,
    status: cuts.length > 0 ? "partial" : "ok",
    // Text that was read has templates; a binary source or nothing at all has none to report.
    ...(kept.sections.some((k) => k.kept.lines > 0) ? textFacts() : {}),
  };

  function textFacts() {
    const visible = (u: Unit) => (lines.layout ? shown.has(u) : !lines.collapsed);
    const capped = (name: SectionName) => sections.some((s) => s.name === name && s.capped);
    const budget = draft.kind === "lines" ? draft.request.maxTokens : 0;
    const summary = summaryOf(kept.sections, visible, capped, budget);
    return {
      evidence: evidenceOf(kept.sections, visible),
      ...(summary !== undefined ? { summary } : {}),
    };
  }
}

/** Cut templates, and kept evidence lines, listed in `meta.evidence`, at most. */
const MAX_CUT = 64;
const MAX_KEPT = 256;

/**
 * The templates of every section, and for each severe or rare one with lines left out, where they
 * lie: the lines of it held but not shown, and the positions the table sampled.
 */
function evidenceOf(
  sections: ReadonlyArray<{ readonly name: SectionName; readonly kept: Kept }>,
  visible: (u: Unit) => boolean,
): EvidenceMeta {
  let templates = 0;
  let evicted = 0;
  let sampled = false;
  const severe = { templates: 0, shown: 0 };
  const rare = { templates: 0, shown: 0 };
  const cut: EvidenceCut[] = [];
  const keptLines: EvidenceMeta["kept"][number][] = [];
  for (const { name, kept } of sections) {
    templates += kept.mining.created;
    evicted += kept.mining.evicted;
    sampled ||= kept.mining.sampled;
    const shownUnits = collect(kept)
      .filter(visible)
      .sort((a, b) => a.index - b.index);
    const shownOf = new Map<number, number>();
    for (const u of shownUnits) {
      if (u.template !== undefined)
        shownOf.set(u.template, (shownOf.get(u.template) ?? 0) + u.repeat);
    }
    const covered = coverage(shownUnits);
    for (const u of shownUnits) {
      const t = u.template === undefined ? undefined : kept.templates.get(u.template);
      if (keptLines.length < MAX_KEPT && (u.severity > 0 || (t !== undefined && t.runs <= 2)))
        keptLines.push({ section: name, line: u.index, severity: u.severity });
    }
    for (const t of kept.templates.values()) {
      const isRare = t.runs <= 2;
      if (t.severity === 0 && !isRare) continue;
      const shown = shownOf.get(t.id) ?? 0;
      for (const tally of [t.severity > 0 ? severe : undefined, isRare ? rare : undefined]) {
        if (tally === undefined) continue;
        tally.templates++;
        if (shown > 0) tally.shown++;
      }
      if (shown >= t.count) continue;
      const known = t.positions ? [...t.positions] : [t.first, ...(t.second > 0 ? [t.second] : [])];
      const lines = [...new Set(known)].filter((l) => !covered(l)).sort((a, b) => a - b);
      cut.push({
        section: name,
        template: templateText(t),
        severity: t.severity,
        rare: isRare,
        count: t.count,
        shown,
        first: t.first,
        last: t.last,
        lines,
      });
    }
  }
  cut.sort((a, b) => b.severity - a.severity || a.count - b.count || a.first - b.first);
  return { templates, evicted, sampled, severe, rare, cut: cut.slice(0, MAX_CUT), kept: keptLines };
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
