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
export interface Reveal {
  (unit: Unit, before: string | undefined, after: string | undefined): void;
  /**
   * After every held line was revealed: the other occurrences, in any held line, of a secret
   * found in one (a tool echoing the password it was given), as a whole text's redaction
   * catches them. Call once per held line, in any order.
   */
  echoes(unit: Unit): void;
}

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
  // Secrets found, by value: their echoes in other held lines are redacted too (bounded as the
  // engine's own echo pass is: a few dozen values of at least ECHO_MIN characters).
  const found = new Map<string, Span>();
  const reveal = (unit: Unit, before: string | undefined, after: string | undefined) => {
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
      const span = { ...s, start: Math.max(s.start, from) - from, end: Math.min(s.end, to) - from };
      spans.push(span);
      const value = text.slice(span.start, span.end);
      if (!begun && value.length >= ECHO_MIN && found.size < ECHO_VALUES && !value.includes("\n"))
        found.set(value, span);
    }
    unit.text = spans.length === 0 ? text : apply(text, spans).text;
  };
  const echoes = (unit: Unit) => {
    if (found.size === 0) return;
    const text = unit.text;
    const spans: Span[] = [];
    for (const [value, s] of found) {
      for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
        spans.push({ rule: s.rule, start: i, end: i + value.length, generality: s.generality });
        count(s.rule, unit.repeat);
      }
    }
    if (spans.length > 0) unit.text = apply(text, spans).text;
  };
  return Object.assign(reveal, { echoes });
}

/** Echoes are looked for of this many values at most, each at least ECHO_MIN characters. */
const ECHO_VALUES = 32;
const ECHO_MIN = 8;
