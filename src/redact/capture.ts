/**
 * The lines before each line the keeper takes, as they came. When the text is redacted as it is
 * shown rather than as it passes, a shown line is judged with the lines before it (a name on one
 * line, its value on the next); those may have been skipped, never built. The decoder offers
 * every line it skips to `wanted()` first, so a wrapper over the sink sees each line, built or
 * not: it remembers the last few by position (a skipped one as its place in the chunk, without
 * building it) and hands the keeper the ones right before a line it takes.
 */
import type { LineSink } from "../pipeline/flow.js";
import { BEFORE_CHARS, BEFORE_LINES } from "./reveal.js";

/** Lines remembered: those before, and the line itself when wanted() saw it first. */
const RING = BEFORE_LINES + 1;

/** One remembered line: `text[start, end)` at 1-based position `at`. */
interface Seen {
  at: number;
  text: string;
  start: number;
  end: number;
}

/**
 * @example
 * const sink = capturing(keeper); // the decoder writes to `sink`, the keeper gets `before`
 */
export function capturing(inner: LineSink): LineSink {
  // Lines the inner sink counted (as it counts them: each line(), and skip(count)).
  let lines = 0;
  const ring: Seen[] = [];
  for (let i = 0; i < RING; i++) ring.push({ at: 0, text: "", start: 0, end: 0 });
  let next = 0;

  function note(at: number, text: string, start: number, end: number): void {
    const prev = ring[(next + RING - 1) % RING] as Seen;
    // A line offered to wanted() and then taken is seen twice: the second replaces the first.
    const slot = prev.at === at ? prev : (ring[next] as Seen);
    if (slot !== prev) next = (next + 1) % RING;
    slot.at = at;
    slot.text = text;
    slot.start = start;
    slot.end = end;
  }

  /** The lines right before position `at`, oldest first, at most BEFORE_CHARS of them. */
  function before(at: number): string | undefined {
    let out: string | undefined;
    let want = at - 1;
    for (let back = 1; back <= RING; back++) {
      const s = ring[(next + RING - back) % RING] as Seen;
      // The line itself, when wanted() saw it first.
      if (s.at === at) continue;
      if (want < at - BEFORE_LINES || s.at !== want || s.at <= 0) break;
      want--;
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
      inner.line(text, severity, omittedChars, b);
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
        const slot = ring[next] as Seen;
        next = next + 1 === RING ? 0 : next + 1;
        slot.at = at;
        slot.text = text;
        slot.start = start;
        slot.end = end;
        return target.wanted(text, start, end, pending);
      },
    });
  }
  Object.defineProperty(sink, "eager", { get: () => inner.eager, enumerable: true });
  return sink;
}
