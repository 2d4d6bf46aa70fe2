/**
 * Redaction of what can be shown. When no store reads the text, the text filter lets most lines
 * through as they came (`stream.ts`), and the lines the keeper holds are redacted here once, after
 * the input ended: each run of held lines that follow each other in the input is judged as one
 * text, with the lines that came before its first (as they were when the keeper took it) and the
 * lines after its last while they may go on a token it holds. So a name on one line and its
 * value on the next, or a token wrapped across lines (shown or not), is judged whole, and a span
 * is applied to every shown line it touches: a match found from a later line also takes the
 * earlier lines it began on. (Lines the decoder cuts in the middle, and private keys, were
 * redacted as they passed: `stream.ts`.)
 */
import type { Unit } from "../pipeline/unit.js";
import { isPublicMaterial } from "./encoded.js";
import type { Engine } from "./engine.js";
import { looksEncodedRandom } from "./keyed.js";
import { apply, ECHO_MIN, ECHO_VALUES, echoesIn, merge, type Span } from "./spans.js";
import type { FilterStats } from "./stream.js";

/**
 * Redacts held units' text in place, counting what it replaced into the run's facts.
 */
export interface Reveal {
  /**
   * `run`: held units that follow each other in the input (each the line after the one before,
   * its repeats counted), in order. `before` is the lines that came before the first (joined by
   * newlines), `after` the lines after the last. `section` tells the input's sections apart, so
   * a span seen from two runs is counted once.
   */
  (
    run: readonly Unit[],
    before: string | undefined,
    after: string | undefined,
    section?: number,
  ): void;
  /**
   * After every held line was revealed: the other occurrences, in any held line, of a secret
   * found in one (a tool echoing the password it was given), as a whole text's redaction
   * catches them. Call once per held line, in any order.
   */
  echoes(unit: Unit): void;
}

/**
 * Lines before a line that a shown line is judged with: this many, and more while they are the
 * lines of a token or of a block of tokens, up to BEFORE_MAX_LINES; at most BEFORE_CHARS
 * characters in all.
 */
export const BEFORE_LINES = 3;
export const BEFORE_MAX_LINES = 32;
export const BEFORE_CHARS = 768;
/** Lines after a line, at most, and their characters, that it is judged with. */
export const AFTER_LINES = 32;
export const AFTER_CHARS = 768;

/** A line of a block of base64 under an indentation (a YAML block scalar's body). */
const BLOCK_BODY = /^([ \t]+)([A-Za-z0-9+/=_-]{16,4096})[ \t]*\r?$/;

/**
 * @example
 * const reveal = createReveal(engine, facts, 0);
 * reveal([unit], "  - name: DB_PASSWORD", undefined); // unit.text: "    value: [REDACTED:…]"
 */
export function createReveal(engine: Engine, stats: FilterStats, keepValues: number): Reveal {
  const count = (rule: string, times: number) => {
    stats.redactions[rule] = (stats.redactions[rule] ?? 0) + times;
  };
  // Secrets found, by value: their echoes in other held lines are redacted too (bounded as the
  // engine's own echo pass is: a few dozen values of at least ECHO_MIN characters).
  const found = new Map<string, Span>();
  // Spans counted, by where they begin (section, line, column): one seen from two runs counts once.
  const counted = new Set<string>();
  const reveal = (
    run: readonly Unit[],
    before: string | undefined,
    after: string | undefined,
    section = 0,
  ) => {
    const first = run[0];
    if (first === undefined) return;
    const lead = before === undefined || before === "" ? "" : `${before}\n`;
    // The run as one text: where each unit starts in it.
    const starts: number[] = [];
    let all = lead;
    for (let i = 0; i < run.length; i++) {
      if (i > 0) all += "\n";
      starts.push(all.length);
      all += (run[i] as Unit).text;
    }
    const from = lead.length;
    const to = all.length;
    if (after !== undefined && after !== "") all += `\n${after.slice(0, AFTER_CHARS)}`;
    const spans = engine.find(all);
    // Lines above the window were never seen here: a block of base64 that reaches its top is
    // judged by its own shape.
    const leadLines = lead === "" ? 0 : lead.split("\n").length - 1;
    if (first.index - leadLines > 1) hiddenBlock(all, spans);
    const perUnit: Span[][] = run.map(() => []);
    for (const s of merge(spans)) {
      if (s.end <= from || s.start >= to) continue;
      // Where it begins: in a unit (line and column), or on a line before the run.
      let k = -1;
      for (let lo = 0, hi = starts.length - 1; lo <= hi; ) {
        const mid = (lo + hi) >> 1;
        if ((starts[mid] as number) <= s.start) {
          k = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      let line: number;
      let column: number;
      if (k === -1) {
        line = first.index - countLines(all, s.start, from);
        column = s.start - (all.lastIndexOf("\n", s.start - 1) + 1);
      } else {
        line = (run[k] as Unit).index;
        column = s.start - (starts[k] as number);
      }
      const key = `${section}:${line}:${column}`;
      const value = all.slice(s.start, s.end);
      if (!counted.has(key)) {
        counted.add(key);
        // A span on one line stands for each of its repeats; one over several lines once.
        const inOne = k !== -1 && !value.includes("\n");
        count(s.rule, inOne ? (run[k] as Unit).repeat : 1);
        if (stats.values.length < keepValues) stats.values.push([s.rule, value]);
      }
      if (value.length >= ECHO_MIN && found.size < ECHO_VALUES && !value.includes("\n"))
        found.set(value, s);
      // Applied to every unit of the run it touches.
      for (let j = Math.max(0, k); j < run.length; j++) {
        const a = starts[j] as number;
        const b = a + (run[j] as Unit).text.length;
        if (a >= s.end) break;
        if (b <= s.start) continue;
        (perUnit[j] as Span[]).push({
          ...s,
          start: Math.max(s.start, a) - a,
          end: Math.min(s.end, b) - a,
        });
      }
    }
    for (let j = 0; j < run.length; j++) {
      const u = run[j] as Unit;
      const own = perUnit[j] as Span[];
      if (own.length > 0) u.text = apply(u.text, own).text;
    }
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
    if (spans.length > 0) unit.text = apply(text, merge(spans)).text;
  };
  return Object.assign(reveal, { echoes });
}

/**
 * For a run whose every line was redacted as it passed (a store read the text): only the echoes,
 * in held lines, of the secrets the filter found (`stats.echoes`), wherever they are: one echoed
 * before its secret was found went by before it was known. Not counted here: the stored text's
 * own pass counts them (`echoRewrite`).
 */
export function createEchoReveal(stats: FilterStats): Reveal {
  const reveal = () => undefined;
  const echoes = (unit: Unit) => {
    const values = stats.echoes;
    if (values === undefined || values.size === 0) return;
    const spans = echoesIn(unit.text, values);
    if (spans.length > 0) unit.text = apply(unit.text, merge(spans)).text;
  };
  return Object.assign(reveal, { echoes });
}

/**
 * The stored text's last pass, when it is still whole in memory: the echoes of the secrets the
 * filter found, taken and counted (those before a secret's first sighting went by unknown).
 */
export function echoRewrite(stats: FilterStats): ((text: string) => string) | undefined {
  const values = stats.echoes;
  if (values === undefined || values.size === 0) return undefined;
  return (text) => {
    const spans = merge(echoesIn(text, values));
    if (spans.length === 0) return text;
    for (const s of spans) stats.redactions[s.rule] = (stats.redactions[s.rule] ?? 0) + 1;
    return apply(text, spans).text;
  };
}

/** Newlines in `text[from, to)`. */
function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The body of a block of base64 that begins above what is seen (its name, and whether that
 * names a secret, out of reach): lines of one token from the first line seen, at its indentation
 * or deeper (a block scalar's value runs as long as that), two of them as long as each other (a
 * blob wrapped at a width), that read as encoded random bytes. Judged by that shape alone, as a
 * secret block (fail closed: a certificate's body that far below its header is taken too).
 */
function hiddenBlock(text: string, spans: Span[]): void {
  const found: Array<[number, number]> = [];
  const widths = new Set<number>();
  let wrapped = false;
  let indent = -1;
  let body = "";
  for (let at = 0; at < text.length; ) {
    let stop = text.indexOf("\n", at);
    if (stop === -1) stop = text.length;
    const m = BLOCK_BODY.exec(text.slice(at, stop));
    if (m === null) break;
    const depth = (m[1] as string).length;
    if (indent === -1) indent = depth;
    if (depth < indent) break;
    const value = m[2] as string;
    if (widths.has(value.length)) wrapped = true;
    widths.add(value.length);
    const valueAt = at + depth;
    found.push([valueAt, valueAt + value.length]);
    if (body.length < 128) body += value;
    at = stop + 1;
  }
  if (!wrapped || isPublicMaterial(body) || !looksEncodedRandom(body.slice(0, 64))) return;
  for (const [a, b] of found) spans.push({ rule: "secret_block", start: a, end: b, generality: 2 });
}
