/**
 * The lines around each line the keeper takes, as they came. When the text is redacted as it is
 * shown rather than as it passes, a shown line is judged with the lines around it (a name on one
 * line, its value on the next; a token hard-wrapped over several lines); those may have been
 * skipped, never built. The decoder offers every line it skips to `wanted()` first, so a wrapper
 * over the sink sees each line, built or not: it remembers the last few by position (a skipped
 * one as its place in the chunk, without building it) and hands the keeper the ones right before
 * a line it takes; and it notes on the unit that holds a taken line the lines that follow it,
 * while they may be the rest of a token that line begins.
 */
import type { LineSink } from "../pipeline/flow.js";
import type { Unit } from "../pipeline/unit.js";
import {
  AFTER_CHARS,
  AFTER_LINES,
  BEFORE_CHARS,
  BEFORE_LINES,
  BEFORE_MAX_LINES,
} from "./reveal.js";
import { isWrapChar, MIN_WRAP } from "./wraps.js";

/** Lines remembered: those before, and the line itself when wanted() saw it first. */
const RING = BEFORE_MAX_LINES + 1;

/** One remembered line: `text[start, end)` at 1-based position `at`. */
interface Seen {
  at: number;
  text: string;
  start: number;
  end: number;
}

/** Lines after a taken one, being noted on its unit. */
interface After {
  readonly unit: Unit;
  /** The position of the last line noted. */
  at: number;
  lines: number;
  text: string;
}

/** A line that ends in a run of this many token characters ends inside a token. */
const TOKEN_TAIL = 16;

/** The end of the line `text[start, end)` without its carriage return. */
function contentEnd(text: string, start: number, end: number): number {
  return end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
}

/** Whether the line ends in a run of TOKEN_TAIL token characters (it ends inside a token). */
function endsInToken(text: string, start: number, end: number): boolean {
  const e = contentEnd(text, start, end);
  if (e - start < TOKEN_TAIL) return false;
  for (let i = e - TOKEN_TAIL; i < e; i++) if (!isWrapChar(text.charCodeAt(i))) return false;
  return true;
}

/**
 * True when the line `text[start, end)` may be a line of a token that goes on into the next: it
 * ends in an escaped or soft line break, or it is as long as a hard wrap and ends inside a token.
 */
export function goesOn(text: string, start: number, end: number): boolean {
  const e = contentEnd(text, start, end);
  if (e - start < 2) return false;
  const last = text.charCodeAt(e - 1);
  if (last === 92 || last === 61) return true;
  return e - start >= MIN_WRAP && endsInToken(text, start, end);
}

/**
 * @example
 * const sink = capturing(keeper); // the decoder writes to `sink`, the keeper gets `before` and `after`
 */
export function capturing(inner: LineSink, anchored?: (line: string) => boolean): LineSink {
  // Lines the inner sink counted (as it counts them: each line(), and skip(count)).
  let lines = 0;
  // Slots are made as they are first used: a result of a few lines makes a few.
  const ring: Seen[] = [];
  const slot = (i: number): Seen => {
    let s = ring[i];
    if (s === undefined) {
      s = { at: 0, text: "", start: 0, end: 0 };
      ring[i] = s;
    }
    return s;
  };
  let next = 0;
  // Units whose following lines are being noted.
  const open: After[] = [];
  let lastUnit: Unit | undefined;

  function note(at: number, text: string, start: number, end: number): void {
    const prev = slot((next + RING - 1) % RING);
    // A line offered to wanted() and then taken is seen twice: the second replaces the first.
    const to = prev.at === at ? prev : slot(next);
    if (to !== prev) next = (next + 1) % RING;
    to.at = at;
    to.text = text;
    to.start = start;
    to.end = end;
    if (open.length > 0) follow(at, text, start, end);
  }

  function mayGoOn(line: string): boolean {
    if (goesOn(line, 0, line.length)) return true;
    const e = contentEnd(line, 0, line.length);
    return e >= MIN_WRAP && isWrapChar(line.charCodeAt(e - 1)) && anchored?.(line) === true;
  }

  /** Notes line `at` on the units it follows; a unit stops taking lines once they cannot go on. */
  function follow(at: number, text: string, start: number, end: number): void {
    let kept = 0;
    for (const a of open) {
      if (at <= a.at) {
        open[kept++] = a;
        continue;
      }
      if (at !== a.at + 1) continue;
      const line = text.slice(start, end);
      a.text = a.lines === 0 ? line : `${a.text}\n${line}`;
      a.at = at;
      a.lines++;
      a.unit.after = a.text;
      if (a.lines < AFTER_LINES && a.text.length < AFTER_CHARS && goesOn(text, start, end)) {
        open[kept++] = a;
      } else {
        // Done: a copy that does not keep the decoded chunk alive.
        a.unit.after = ` ${a.text.slice(0, AFTER_CHARS)}`.slice(1);
      }
    }
    open.length = kept;
  }

  /**
   * The lines right before position `at`, oldest first: BEFORE_LINES of them, and more while the
   * earliest is a line of a token or of a block of tokens (up to BEFORE_MAX_LINES), at most
   * BEFORE_CHARS characters.
   */
  function before(at: number): string | undefined {
    let out: string | undefined;
    let want = at - 1;
    let taken = 0;
    let earliest: Seen | undefined;
    for (let back = 1; back <= RING; back++) {
      const s = ring[(next + RING - back) % RING];
      if (s === undefined) break;
      // The line itself, when wanted() saw it first.
      if (s.at === at) continue;
      if (s.at !== want || s.at <= 0) break;
      // Past the first lines, only whole lines above a line of a token, within the bound.
      if (taken >= BEFORE_LINES) {
        const e = earliest as Seen;
        const more = (out?.length ?? 0) + s.end - s.start + 1;
        if (!endsInToken(e.text, e.start, e.end) || more > BEFORE_CHARS) break;
      }
      want--;
      taken++;
      earliest = s;
      const line = s.text.slice(Math.max(s.start, s.end - BEFORE_CHARS), s.end);
      out = out === undefined ? line : `${line}\n${out}`;
      if (out.length >= BEFORE_CHARS) return out.slice(-BEFORE_CHARS);
    }
    return out;
  }

  const sink: LineSink = {
    line(text, severity, omittedChars) {
      const at = lines + 1;
      const b = before(at);
      lines = at;
      note(at, text, 0, text.length);
      const held = inner.line(text, severity, omittedChars, b);
      const unit = typeof held === "object" && held !== null ? (held as Unit) : undefined;
      // A new unit whose line may hold a token that goes on: the lines after it are noted. A
      // token may begin at the line's end with a few characters, after its prefix or its name.
      if (unit !== undefined && unit !== lastUnit && mayGoOn(text)) {
        open.push({ unit, at, lines: 0, text: "" });
      }
      if (unit !== undefined) lastUnit = unit;
      return held;
    },
  };
  if (inner.hints !== undefined) Object.assign(sink, { hints: inner.hints });
  if (inner.skip !== undefined && inner.wanted !== undefined) {
    // Called for most lines of a big input: plain closures over the inner sink, no binding.
    const target = inner as Required<LineSink>;
    Object.assign(sink, {
      skip(count: number) {
        lines += count;
        target.skip(count);
      },
      wanted(text: string, start: number, end: number, pending: number) {
        const at = lines + pending + 1;
        const seen = slot(next);
        next = next + 1 === RING ? 0 : next + 1;
        seen.at = at;
        seen.text = text;
        seen.start = start;
        seen.end = end;
        if (open.length > 0) follow(at, text, start, end);
        return target.wanted(text, start, end, pending);
      },
    });
  }
  Object.defineProperty(sink, "eager", { get: () => inner.eager, enumerable: true });
  return sink;
}
