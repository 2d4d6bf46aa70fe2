/**
 * The summary of a text result, by rule (issue 29's first hop): from what keep counted and held,
 * each severe message with its exact count (`keep/symptom-table.ts`), the line that stands for
 * it, and its first and last sighting with the times those lines wrote; the input's own span;
 * the components its evidence lines name; and what the cut leaves unknown. No model is asked:
 * every fact is a count or a position the keeper already has.
 */
import type { Kept } from "../keep/keeper.js";
import type { SymptomEntry } from "../keep/symptom-table.js";
import { timeOf } from "../keep/timestamps.js";
import type { SectionName, ShapeSummary, SummaryPoint, Symptom } from "../pipeline/shaped.js";
import type { Unit } from "../pipeline/unit.js";
import { collect } from "../render/lines.js";

/** Symptoms listed at most (the rest are counted in `more`). */
const MAX_SYMPTOMS = 128;
/** Sources listed at most. */
const MAX_SOURCES = 12;

const SEVERITY = ["warning", "warning", "error", "fatal"] as const;

function pointOf(line: number, time: string | undefined): SummaryPoint {
  return time === undefined ? { line } : { line, time };
}

/**
 * @example
 * const summary = summaryOf(kept.sections, (u) => shown.has(u), () => false);
 */
export function summaryOf(
  sections: ReadonlyArray<{ readonly name: SectionName; readonly kept: Kept }>,
  visible: (u: Unit) => boolean,
  capped: (section: SectionName) => boolean,
): ShapeSummary | undefined {
  const symptoms: Symptom[] = [];
  const sources = new Map<string, number>();
  const open: ShapeSummary["open"][number][] = [];
  let more = 0;
  let first: SummaryPoint | undefined;
  let last: SummaryPoint | undefined;
  for (const { name, kept } of sections) {
    if (kept.lines === 0) continue;
    const held = collect(kept).sort((a, b) => a.index - b.index);
    const start = held[0];
    const end = held[held.length - 1];
    if (first === undefined && start !== undefined)
      first = pointOf(start.index, timeOf(start.text));
    if (end !== undefined) {
      // The section's last line, and the time it wrote when it is held (a skipped last line is not).
      const time = end.index + end.repeat - 1 === kept.lines ? timeOf(end.text) : undefined;
      last = pointOf(kept.lines, time);
    }
    const table = kept.symptoms;
    if (table === undefined) continue;
    more += table.overflow;
    // The shown lines of each message: how many, and the first (it stands for the message).
    const shown = new Map<number, { unit: Unit; count: number }>();
    for (const u of held) {
      if (u.severity === 0 || !visible(u)) continue;
      const key = table.keyOf(u.text);
      const e = shown.get(key);
      if (e) e.count += u.repeat;
      else shown.set(key, { unit: u, count: u.repeat });
    }
    for (const entry of table.entries.values()) {
      const seen = shown.get(entry.key);
      symptoms.push(symptomOf(name, entry, seen?.unit, seen?.count ?? 0));
      if (entry.source !== undefined)
        sources.set(entry.source, (sources.get(entry.source) ?? 0) + entry.count);
      if (seen === undefined)
        open.push({
          what: "unshown",
          section: name,
          text: entry.text,
          lines: { from: entry.first, to: entry.last },
        });
    }
    if (kept.mining.sampled)
      open.push({ what: "sampled", section: name, lines: { from: 1, to: kept.lines } });
    if (capped(name)) open.push({ what: "capped", section: name });
  }
  if (symptoms.length === 0 || first === undefined || last === undefined) return undefined;
  symptoms.sort((a, b) => rank(b.severity) - rank(a.severity) || a.first.line - b.first.line);
  return {
    symptoms: symptoms.slice(0, MAX_SYMPTOMS),
    more: more + Math.max(0, symptoms.length - MAX_SYMPTOMS),
    timeline: { first, last },
    sources: [...sources]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_SOURCES)
      .map(([source, count]) => ({ name: source, count })),
    open: open.slice(0, MAX_SYMPTOMS),
  };
}

const rank = (severity: Symptom["severity"]) => SEVERITY.indexOf(severity);

function symptomOf(
  section: SectionName,
  e: SymptomEntry,
  shown: Unit | undefined,
  n: number,
): Symptom {
  return {
    section,
    text: e.text,
    severity: SEVERITY[e.severity] as Symptom["severity"],
    count: e.count,
    shown: n,
    line: shown?.index ?? e.first,
    first: pointOf(e.first, e.firstTime),
    last: pointOf(e.last, e.lastTime),
  };
}
