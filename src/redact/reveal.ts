/**
 * Redaction of what can be shown. When no store reads the text, the text filter lets most lines
 * through as they came (`stream.ts`), and each line the keeper holds is redacted here once, after
 * the input ended: seen with the lines before it (as they were when the keeper took it) and the
 * next held line when that is the line after it, so a name on one line and its value on the next,
 * or a token wrapped across two shown lines, is judged whole. (Lines the decoder cuts in the
 * middle, and private keys, were redacted as they passed: `stream.ts`.)
 */
import type { Unit } from "../pipeline/unit.js";
import type { Engine } from "./engine.js";
import { apply, type Span } from "./spans.js";
import type { FilterStats } from "./stream.js";

/**
 * Redacts a held unit's text in place, counting what it replaced into the run's facts. `before`
 * is up to three lines that came before it (joined by newlines), `after` the next line when it
 * is held too.
 */
export type Reveal = (unit: Unit, before: string | undefined, after: string | undefined) => void;

/** Lines before a line, at most, and their characters, at most, that a shown line is judged with. */
export const BEFORE_LINES = 3;
export const BEFORE_CHARS = 768;
/** Of the next line, this much at most is read. */
const AFTER_CHARS = 768;

/**
 * @example
 * const reveal = createReveal(engine, facts, 0);
 * reveal(unit, "  - name: DB_PASSWORD", undefined); // unit.text: "    value: [REDACTED:…]"
 */
export function createReveal(engine: Engine, stats: FilterStats, keepValues: number): Reveal {
  const count = (rule: string, times: number) => {
    stats.redactions[rule] = (stats.redactions[rule] ?? 0) + times;
  };
  return (unit, before, after) => {
    const text = unit.text;
    if (text.length === 0) return;
    const lead = before === undefined || before === "" ? "" : `${before}\n`;
    const all = lead + text + (after === undefined ? "" : `\n${after.slice(0, AFTER_CHARS)}`);
    const from = lead.length;
    const to = from + text.length;
    const spans: Span[] = [];
    for (const s of engine.find(all)) {
      if (s.end <= from || s.start >= to) continue;
      // Begun on a line before: redacted here, counted where it began (or not, if never shown).
      const begun = s.start < from;
      if (!begun) {
        count(s.rule, unit.repeat);
        if (stats.values.length < keepValues)
          stats.values.push([s.rule, all.slice(s.start, s.end)]);
      }
      spans.push({ ...s, start: Math.max(s.start, from) - from, end: Math.min(s.end, to) - from });
    }
    unit.text = spans.length === 0 ? text : apply(text, spans).text;
  };
}
