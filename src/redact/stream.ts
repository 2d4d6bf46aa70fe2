import { stripAnsi, WHOLE_ESCAPE } from "../decode/normalize.js";
import type { TextFilter as PipelineTextFilter } from "../pipeline/flow.js";
import type { Engine } from "./engine.js";
import { type InvisibleCounts, stripInvisible } from "./invisible.js";
import { heldFrom, spansAfter } from "./pieces.js";
import {
  apply,
  ECHO_TEXT_MAX,
  echoesIn,
  merge,
  noteEcho,
  type RedactState,
  type Span,
} from "./spans.js";
import { isTokenChar } from "./tokens.js";

/** What the filter did to a stream, for `meta`. */
export interface FilterStats {
  /** Secrets replaced, by rule id. */
  readonly redactions: Record<string, number>;
  readonly invisible: InvisibleCounts;
  /** Up to `keepValues` (rule, value) pairs, for keyed fingerprints; held only until shaping ends. */
  readonly values: Array<readonly [string, string]>;
  /** Secrets found, by value: their echoes in later pieces (and, at the end, before) go too. */
  echoes?: Map<string, string>;
}

/**
 * Cleans and redacts decoded text on its way to the line decoder. Text is redacted in whole
 * lines: the unfinished last line of a piece waits for the next one, so a secret split between two
 * chunks is whole when it is matched, and a private key block carries its "inside" state from
 * piece to piece.
 *
 * With `full` off (no store reads the text), only pieces with a trigger meet the rules: a private
 * key's BEGIN or END line, a PuTTY key's `Private-Lines:`, or the inside of an open key block. So
 * a key's body is redacted here whether or not its lines are ever shown, and the rest of the text
 * passes as it came: the lines that are shown are redacted later, once each (`reveal.ts`).
 */
export interface TextFilter extends PipelineTextFilter {
  write(text: string): string;
  /** The rest. `cut` is true when the byte cap stopped the read: a token it split is removed. */
  end(cut: boolean): string;
  readonly stats: FilterStats;
}

export interface FilterOptions {
  /** The redaction engine; absent when redaction is off. */
  readonly engine?: Engine;
  /** Remove invisible and control characters (and ANSI sequences, which contain them). */
  readonly invisible: boolean;
  /** Keep this many (rule, value) pairs for fingerprints. Default 0. */
  readonly keepValues?: number;
  /** Where the counts go (shared by every section of one result). Default: a fresh object. */
  readonly stats?: FilterStats;
  /**
   * Redact every piece (a store keeps this text). Off: only pieces with a trigger, the rest is
   * redacted when shown. Default true.
   */
  readonly full?: boolean;
  /**
   * Lines longer than this are cut in the middle by the line decoder: with `full` off they are
   * still redacted here, whole, since a secret the cut splits can no longer be recognised.
   * Default 256 (the least line cap).
   */
  readonly lineCap?: number;
}

/** A line without a newline is redacted in pieces once it is this long... */
const CARRY_MAX = 64 * 1024;
/** ...each piece seen with this much of what follows it, so a match across the seam is whole. */
const LOOKAHEAD = 16 * 1024;
/** An escape sequence (OSC 8 hyperlinks included) is at most this long. */
const ESCAPE_MAX = 4096;
/** The most of what was passed on that is read again in front of the next piece. */
const CONTEXT = 2048;
/** A token cut by the byte cap, at least this long, is removed: it may be part of a secret. */
const CUT_TOKEN = /[A-Za-z0-9+/=_.~%:@-]{12,}$/;
/**
 * What makes a piece meet the rules when `full` is off: the text of a private key block. One
 * regex pass (about 900 MB/s here), faster than three literal searches.
 */
export const TRIGGER = /-----(?:BEGIN|END) |Private-Lines:/;
/**
 * Anything but printable ASCII, tabs and line breaks: text without it has no invisible or control
 * character and no escape sequence, and is passed as it is (one simple class is about twice as
 * fast to scan as the invisible-character class, which needs the `u` flag).
 */
const NOT_PLAIN = /[^\t\n\r\x20-\x7e]/;

function triggered(text: string): boolean {
  return TRIGGER.test(text);
}

export function createTextFilter(options: FilterOptions): TextFilter {
  const { engine } = options;
  const full = options.full ?? true;
  const lineCap = Math.max(2, options.lineCap ?? 256);
  // A line longer than the cap holds a whole window of this many characters without a newline.
  const stride = Math.max(1, lineCap >> 1);
  // The line being passed on in pieces (`redactHead`) is over-long: its rest is redacted too.
  let inLong = false;
  const keepValues = options.keepValues ?? 0;
  const stats: FilterStats = options.stats ?? {
    redactions: {},
    invisible: { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 },
    values: [],
  };
  const state: RedactState = { pem: 0 };
  // Secrets found so far, for their echoes in later pieces (when every piece is redacted).
  if (engine !== undefined && full) stats.echoes ??= new Map();
  const echoes = engine !== undefined && full ? stats.echoes : undefined;
  let carry = "";
  let pendingEscape = "";

  function clean(text: string): string {
    if (!options.invisible || !NOT_PLAIN.test(text)) return text;
    const plain = text.includes("\x1b") || text.includes("\x9b") ? stripAnsi(text) : text;
    const { text: out, removed } = stripInvisible(plain);
    const total = stats.invisible;
    total.bidi += removed.bidi;
    total.zeroWidth += removed.zeroWidth;
    total.tag += removed.tag;
    total.control += removed.control;
    total.other += removed.other;
    return out;
  }

  function redactPiece(text: string, spans: readonly Span[]): string {
    for (const s of spans) {
      if (s.continued) continue;
      stats.redactions[s.rule] = (stats.redactions[s.rule] ?? 0) + 1;
      if (stats.values.length < keepValues) stats.values.push([s.rule, text.slice(s.start, s.end)]);
      if (echoes !== undefined) noteEcho(echoes, text.slice(s.start, s.end), s.rule);
    }
    return apply(text, spans).text;
  }

  /**
   * The end of what was already passed on, as it came (not as redacted), read again in front of
   * the next piece: a secret whose name is on one line and its value on the next (`- name:
   * DB_PASSWORD` then `value: …`, a pretty-printed JWK), or a token wrapped across the seam, may
   * straddle two pieces, and is judged as a whole text's redaction judges it. Only the new text
   * is redacted.
   */
  let context = "";
  /** Characters passed on before the piece being redacted (as the rules read them). */
  let passed = 0;
  /**
   * Spans already applied that reach into `context`, at those positions: a match begun there and
   * found again goes on into the new piece without being counted again. One not among them is a
   * late find (the lines it began on went before it could be seen whole): counted where found.
   */
  let applied: Array<readonly [number, number]> = [];

  /** `whole`: the piece ends its lines (a piece of an over-long line keeps its returns). */
  function redactLines(raw: string, whole = true): string {
    if (engine === undefined || raw.length === 0) return raw;
    const text = whole && raw.includes("\r") ? collapseRedraws(raw, engine) : raw;
    if (!full && state.pem === 0 && !triggered(text)) return passLines(text, engine);
    let spans = spansAfter(engine, context, text, state, passed - context.length, applied);
    // A secret found in an earlier piece, echoed here (within a whole text's redaction's bound).
    if (echoes !== undefined && echoes.size > 0 && passed + text.length <= ECHO_TEXT_MAX) {
      const more = echoesIn(text, echoes);
      if (more.length > 0) spans = merge([...spans, ...more]);
    }
    const out = redactPiece(text, spans);
    note(spans, passed);
    remember(text);
    // Every line passes here with a store: a long line is over once a line break has passed.
    if (full && inLong && text.includes("\n")) inLong = false;
    return out;
  }

  /**
   * Passes lines on as they came, but for the over-long ones (and the rest of one passed in
   * pieces), which are redacted whole: the decoder will cut them. Finding them costs one search
   * for a newline per `stride` characters, not a pass over every line.
   */
  function passLines(text: string, eng: Engine): string {
    let out = "";
    let at = 0;
    let from = 0;
    if (inLong) {
      const nl = text.indexOf("\n");
      inLong = nl === -1;
      from = nl === -1 ? text.length : nl + 1;
      out = redactRange(text, 0, from, eng);
      at = from;
    }
    for (let w = from; w + stride <= text.length; ) {
      const nl = text.indexOf("\n", w);
      if (nl !== -1 && nl < w + stride) {
        w = nl + 1;
        continue;
      }
      // A window without a newline: its line may be over-long.
      const start = text.lastIndexOf("\n", w) + 1;
      const end = nl === -1 ? text.length : nl + 1;
      if (end - start > lineCap) {
        out += text.slice(at, start) + redactRange(text, start, end, eng);
        at = end;
      }
      w = end;
    }
    const result = at === 0 ? text : out + text.slice(at);
    remember(text);
    return result;
  }

  /**
   * `text[start, end)` redacted, read after what came before it; `text` begins where the piece
   * being redacted does.
   */
  function redactRange(text: string, start: number, stop: number, eng: Engine): string {
    const end = stop === -1 ? text.length : stop;
    const leadFrom = Math.max(0, start - CONTEXT);
    const lead = start === 0 ? context : text.slice(leadFrom, start);
    const leadAt = start === 0 ? passed - context.length : passed + leadFrom;
    const piece = text.slice(start, end);
    const spans = spansAfter(eng, lead, piece, state, leadAt, applied);
    note(spans, passed + start);
    return redactPiece(piece, spans);
  }

  /** Keeps the spans applied at `at` that reach into what the next piece reads again. */
  function note(spans: readonly Span[], at: number): void {
    if (spans.length === 0 && applied.length === 0) return;
    const keep: Array<readonly [number, number]> = [];
    // Only the last CONTEXT characters (and the piece's) can be read again.
    const floor = at - CONTEXT;
    for (const a of applied) if (a[1] > floor) keep.push(a);
    for (const s of spans) if (at + s.end > floor) keep.push([at + s.start, at + s.end]);
    applied = keep;
  }

  /**
   * Keeps the end of what was passed on, as it came, from a line start when one is near; `text`
   * is the piece just passed on (it starts at `passed`).
   */
  function remember(text: string): void {
    // A piece shorter than CONTEXT is read again after the end of the one before it.
    const all = text.length < CONTEXT ? context + text : text;
    const tail = Math.max(0, all.length - CONTEXT);
    const lineStart = tail === 0 ? 0 : all.indexOf("\n", tail - 1) + 1;
    context = all.endsWith("\n") && lineStart > 0 ? all.slice(lineStart) : all.slice(tail);
    passed += text.length;
  }

  /**
   * Lines redrawn by carriage returns (`DB_PASSWORD=abc\rXk9…`), replaced by what a terminal
   * shows (the last non-empty segment, as the line decoder would show it) with the secrets in it
   * redacted: those found in the shown text, and those found in the whole line (where a key
   * before a return is next to its value after it) that reach into the shown part. The key
   * and the value are judged as the line is shown, and no part of a value survives the
   * collapse. Lines with colour codes are left whole (the decoder strips those first).
   */
  function collapseRedraws(text: string, eng: Engine): string {
    let out = "";
    let at = 0;
    // The rest of a line passed on in pieces keeps its returns, as its pieces did: the decoder
    // shows its final state.
    const rest = inLong ? text.indexOf("\n") : -1;
    for (let cr = text.indexOf("\r", rest + 1); cr !== -1; cr = text.indexOf("\r", cr + 1)) {
      if (text.charCodeAt(cr + 1) === 10 || cr + 1 >= text.length) continue;
      const start = text.lastIndexOf("\n", cr) + 1;
      if (start < at) continue;
      let end = text.indexOf("\n", cr);
      if (end === -1) end = text.length;
      const contentEnd = text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      const line = text.slice(start, contentEnd);
      cr = end;
      if (line.includes("\x1b") || line.includes("\x9b")) continue;
      const [from, to] = shownSegment(line);
      const spans: Span[] = [];
      for (const s of eng.find(line)) {
        if (s.end <= from || s.start >= to) continue;
        spans.push({
          ...s,
          start: Math.max(s.start, from) - from,
          end: Math.min(s.end, to) - from,
        });
      }
      const shown = line.slice(from, to);
      // A loop, not a spread: an over-long line may hold more spans than a call takes arguments.
      for (const s of eng.find(shown)) spans.push(s);
      out += text.slice(at, start) + redactPiece(shown, merge(spans));
      at = contentEnd;
    }
    return at === 0 ? text : out + text.slice(at);
  }

  /**
   * Redacts the head of an over-long line. The cut is placed where no match (key name included)
   * crosses it and not inside a token; a match that starts early is taken whole instead, so each
   * head is at least a quarter of CARRY_MAX and the work stays linear.
   */
  function redactHead(): string {
    if (engine === undefined) {
      const head = carry;
      carry = "";
      return head;
    }
    let at = carry.length - LOOKAHEAD;
    const probe = engine.find(carry, { pem: state.pem });
    for (let moved = true, rounds = 0; moved && rounds < 4; rounds++) {
      moved = false;
      for (const s of probe) {
        const from = Math.min(s.from ?? s.start, s.start);
        if (from < at && s.end > at) {
          at = from > CARRY_MAX / 4 ? from : s.end;
          moved = true;
        }
      }
    }
    for (let back = 0; back < 512 && at > CARRY_MAX / 4; back++) {
      if (!isTokenAt(carry, at - 1) || !isTokenAt(carry, at)) break;
      at--;
    }
    const head = carry.slice(0, at);
    carry = carry.slice(at);
    if (full) {
      // A piece of a line longer than any cap: its returns stay for the decoder (see below).
      inLong = true;
      return redactLines(head, false);
    }
    // Longer than any line cap: the decoder cuts it, so it is redacted whole, and its rest too.
    // Its returns stay: the line is not over, and the decoder shows its final state from its end.
    const out = redactRange(head, 0, -1, engine);
    remember(head);
    inLong = true;
    return out;
  }

  /** Passes on whole lines, and holds the unfinished last line (and trailing key lines). */
  function take(text: string): string {
    const nl = text.lastIndexOf("\n");
    if (nl === -1) {
      carry += text;
      return carry.length > CARRY_MAX ? redactHead() : "";
    }
    let lines = carry + text.slice(0, nl + 1);
    carry = text.slice(nl + 1);
    // Lines of bare key material may be the middle of a private key whose BEGIN line was never
    // seen (the tail of a file): they wait until a line that is not key material shows whether
    // an END line closes them; so do the lines of a block of tokens under a name, and lines a
    // wrapped token may go on from.
    if (engine !== undefined) {
      const held = heldFrom(lines, carry.length, engine);
      if (held < lines.length) {
        carry = lines.slice(held) + carry;
        lines = lines.slice(0, held);
      }
    }
    return redactLines(lines);
  }

  return {
    stats,
    write(chunk: string): string {
      // An escape sequence cut by the chunk's end waits for its end: cleaned in halves, its ESC
      // would go as a control character and leave "[01;31m" glued to the next token.
      const input = pendingEscape + chunk;
      const cut = options.invisible ? unfinishedEscape(input) : -1;
      pendingEscape = cut === -1 ? "" : input.slice(cut);
      return take(clean(cut === -1 ? input : input.slice(0, cut)));
    },
    end(cut: boolean): string {
      const last = pendingEscape === "" ? "" : take(clean(pendingEscape));
      pendingEscape = "";
      let rest = carry;
      carry = "";
      if (cut && engine !== undefined) {
        const token = CUT_TOKEN.exec(rest.slice(-1024));
        if (token !== null) {
          const start = rest.length - token[0].length;
          stats.redactions.cut_token = (stats.redactions.cut_token ?? 0) + 1;
          rest = `${rest.slice(0, start)}[REDACTED:cut_token]`;
        }
      }
      return last + redactLines(rest);
    },
  };
}

/** Where an unterminated escape sequence at the end of `text` begins, or -1. */
function unfinishedEscape(text: string): number {
  // Only the end can hold one: search forward from there, not backward through the whole chunk.
  let at = -1;
  for (const esc of ["\x1b", "\x9b"]) {
    for (
      let k = text.indexOf(esc, Math.max(0, text.length - ESCAPE_MAX));
      k !== -1;
      k = text.indexOf(esc, k + 1)
    ) {
      if (k > at) at = k;
    }
  }
  if (at === -1) return -1;
  // Sequences never span lines: one with a line break after it is broken, not unfinished.
  if (text.indexOf("\n", at) !== -1) return -1;
  WHOLE_ESCAPE.lastIndex = at;
  return WHOLE_ESCAPE.test(text) ? -1 : at;
}

/** The part of a redrawn line a terminal shows: the last non-empty segment after a return. */
function shownSegment(line: string): [number, number] {
  let end = line.length;
  while (end > 0) {
    const start = line.lastIndexOf("\r", end - 1);
    if (line.slice(start + 1, end).trim() !== "" || start < 0) return [start + 1, end];
    end = start;
  }
  return [0, 0];
}

function isTokenAt(text: string, i: number): boolean {
  return isTokenChar(text.charCodeAt(i), true);
}
