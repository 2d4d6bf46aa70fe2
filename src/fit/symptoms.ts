/**
 * The summary of a text result, by rule (issue 29's first hop): from what keep counted and held,
 * each severe message with its exact count (`keep/symptom-table.ts`), the line that stands for
 * it, and its first and last sighting with the times those lines wrote; the input's own span;
 * and what the cut leaves unknown. No model is asked: every fact is a count or a position the
 * keeper already has. What a message says is made in `meta`, from its first line once redacted.
 */
import type { Kept } from "../keep/keeper.js";
import type { SymptomEntry } from "../keep/symptom-table.js";
import type { SummaryDraft } from "../pipeline/facts.js";
import type { SectionName, SummaryPoint, Symptom } from "../pipeline/shaped.js";
import { symptomId } from "../pipeline/symptom-id.js";
import { detach } from "../pipeline/text.js";
import { timeOf } from "../pipeline/timestamps.js";
import type { Unit } from "../pipeline/unit.js";
import { collect } from "../render/lines.js";

/** Symptoms listed: one per this many tokens of the budget, within these bounds. */
const TOKENS_PER_SYMPTOM = 8;
const LEAST_SYMPTOMS = 16;
const MOST_SYMPTOMS = 128;

const SEVERITY = ["warning", "warning", "error", "fatal"] as const;

/** A line and its time (the symptom table's times are its own copies already). */
function pointOf(line: number, time: string | undefined): SummaryPoint {
  return time === undefined ? { line } : { line, time };
}

/** A held line's own time, copied: the line may be a slice of a decoded chunk (the tail). */
function timeIn(unit: Unit): string | undefined {
  const time = timeOf(unit.text);
  return time === undefined ? undefined : detach(time);
}

/**
 * @example
 * const summary = summaryOf(kept.sections, (u) => shown.has(u), () => false, 2000);
 */
export function summaryOf(
  sections: ReadonlyArray<{ readonly name: SectionName; readonly kept: Kept }>,
  visible: (u: Unit) => boolean,
  capped: (section: SectionName) => boolean,
  maxTokens: number,
): SummaryDraft | undefined {
  const found: Array<{ symptom: Symptom; unshown: boolean }> = [];
  const open: Array<SummaryDraft["open"][number]> = [];
  let more = 0;
  let atLeast = false;
  let first: SummaryDraft["timeline"]["first"] | undefined;
  let last: SummaryDraft["timeline"]["last"] | undefined;
  for (const { name, kept } of sections) {
    if (kept.lines === 0) continue;
    const held = collect(kept).sort((a, b) => a.index - b.index);
    const start = held[0];
    const end = held[held.length - 1];
    if (first === undefined && start !== undefined)
      first = { section: name, ...pointOf(start.index, timeIn(start)) };
    if (end !== undefined) {
      // The section's last line, and the time it wrote when it is held (a skipped last line is not).
      const time = end.index + end.repeat - 1 === kept.lines ? timeIn(end) : undefined;
      last = { section: name, ...pointOf(kept.lines, time) };
    }
    const table = kept.symptoms;
    if (table === undefined) continue;
    more += table.more;
    atLeast ||= table.moreAtLeast;
    // The shown lines of each message: how many, and the first (it stands for the message).
    const shown = new Map<number, { unit: Unit; count: number }>();
    for (const u of held) {
      if (u.symptom === undefined || !visible(u)) continue;
      const e = shown.get(u.symptom);
      if (e) e.count += u.repeat;
      else shown.set(u.symptom, { unit: u, count: u.repeat });
    }
    for (const entry of table.entries.values()) {
      const seen = shown.get(entry.key);
      found.push({
        symptom: symptomOf(name, entry, seen?.unit, seen?.count ?? 0),
        unshown: seen === undefined,
      });
    }
    if (kept.mining.sampled)
      open.push({ what: "sampled", section: name, lines: { from: 1, to: kept.lines } });
    if (capped(name)) open.push({ what: "capped", section: name });
  }
  if (found.length === 0 || first === undefined || last === undefined) return undefined;
  found.sort(
    (a, b) =>
      rank(b.symptom.severity) - rank(a.symptom.severity) ||
      Number(a.symptom.section !== first?.section) - Number(b.symptom.section !== first?.section) ||
      a.symptom.first.line - b.symptom.first.line,
  );
  const most = Math.max(
    LEAST_SYMPTOMS,
    Math.min(MOST_SYMPTOMS, Math.floor(maxTokens / TOKENS_PER_SYMPTOM)),
  );
  const listed = found.slice(0, most);
  const unshown = listed.flatMap(({ symptom, unshown }, i) =>
    unshown
      ? [
          {
            what: "unshown" as const,
            section: symptom.section,
            symptom: i,
            lines: { from: symptom.first.line, to: symptom.last.line },
          },
        ]
      : [],
  );
  return {
    symptoms: listed.map((f) => f.symptom),
    more: more + found.length - listed.length,
    ...(atLeast ? { moreAtLeast: true as const } : {}),
    timeline: { first, last },
    open: [...unshown, ...open],
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
    id: symptomId(e.key),
    section,
    // Its first line, for `meta` to redact and then make the message of.
    text: e.line,
    severity: SEVERITY[e.severity] as Symptom["severity"],
    count: e.count,
    shown: n,
    line: shown?.index ?? e.first,
    first: pointOf(e.first, e.firstTime),
    last: pointOf(e.last, e.lastTime),
  };
}
