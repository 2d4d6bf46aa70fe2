/**
 * How the text filter cuts a stream into pieces that the rules can judge as a whole text's
 * redaction does: which lines at the end of a piece wait for the next one, and how a piece is
 * read after the end of the one before it.
 */
import type { Engine } from "./engine.js";
import type { RedactState, Span } from "./spans.js";

/**
 * A line of one token, maybe indented: a line of a PEM body, of a YAML block scalar's value, or
 * of what a command printed. Judged with the lines around it (an END line after it, a name or
 * a command above it), so such lines at the end of a piece wait for the next one.
 */
const TOKEN_LINE = /^[ \t]*[A-Za-z0-9+/=_.~:@!#%^&*-]{8,4096}[ \t]*$/;
/**
 * Lines held back at the end of a piece, at most: key lines (an 8192-bit RSA key is about
 * 6.5 KiB), and the lines of a hard-wrapped token the next line may go on.
 */
const MAX_HELD_KEY = 16 * 1024;

/**
 * Where the lines that end `text` (whole lines) and may go on in the next piece begin: lines of
 * one token (key material, a block's lines, a command's output), and the lines of a wrap region
 * its next line could still join (the engine asks its own wrap search, with a next line that
 * goes on as a token). `text.length` when none, or when they are more than can be held (with
 * the unfinished line after them, `carried`).
 */
export function heldFrom(text: string, carried: number, engine: Engine): number {
  let keys = text.length;
  while (keys > 0) {
    const prev = keys >= 2 ? text.lastIndexOf("\n", keys - 2) + 1 : 0;
    const line = text.slice(prev, keys - 1).replace(/\r$/, "");
    if (!TOKEN_LINE.test(line)) break;
    keys = prev;
    if (text.length - keys > MAX_HELD_KEY) break;
  }
  const wrap = engine.pending(text);
  let held = text.length;
  for (const at of [Math.min(keys, wrap), keys, wrap]) {
    if (at < held && text.length - at + carried < MAX_HELD_KEY) held = at;
  }
  // A wrap region that goes on into the held lines is held whole: its first lines, passed on
  // alone, would be judged without the rest.
  if (held < text.length && held > 0) {
    const before = engine.pending(text.slice(0, held));
    if (before < held && text.length - before + carried < MAX_HELD_KEY) held = before;
  }
  return held;
}

/**
 * The spans of `text` read after `lead` (what came before it, already passed on), shifted to
 * `text`'s own positions; one begun in the lead is marked continued: already redacted there,
 * not a new finding.
 */
export function spansAfter(
  eng: Engine,
  lead: string,
  text: string,
  state: RedactState,
  leadAt: number,
  applied: ReadonlyArray<readonly [number, number]>,
): Span[] {
  const skip = lead.length;
  const spans: Span[] = [];
  for (const s of eng.find(lead + text, state)) {
    if (s.end <= skip) continue;
    const at = leadAt + s.start;
    const clipped = s.start < skip && applied.some(([a, b]) => a <= at && at < b);
    spans.push({
      ...s,
      start: Math.max(0, s.start - skip),
      end: s.end - skip,
      ...(clipped ? { continued: true } : {}),
    });
  }
  return spans;
}
