import type { EvidenceHints, LineSink, TextFilter } from "../pipeline/flow.js";
import { lineCutMarker } from "../pipeline/markers.js";
import type { Severity } from "../pipeline/unit.js";
import { collapseCarriageReturns, stripAnsi } from "./normalize.js";
import { createUtf8Decoder } from "./utf8.js";

/** Lines up to this long are classified whole; longer ones in windows around each anchor. */
const WHOLE_LINE = 4096;
const WINDOW = 256;

const NON_BLANK = /\S/;
/** How far a classification window is widened to reach a space, and how much of it is rescanned. */
const EDGE = 64;

/** What a line shows: without colour codes, and a redrawn line in its final state. */
function normalizeLine(raw: string, hasCR: boolean, hasEscape: boolean): string {
  let text = raw;
  if (hasEscape && (text.includes("\x1b") || text.includes("\x9b"))) text = stripAnsi(text);
  if (hasCR && text.includes("\r")) {
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.includes("\r")) text = collapseCarriageReturns(text);
  }
  return text;
}

/**
 * Asks the sink whether it wants the quiet line `text[start, end)`, as the keeper would see it
 * (after normalisation): a clean line is offered in place, without building it.
 */
function wantedAt(
  sink: Required<LineSink>,
  text: string,
  start: number,
  end: number,
  pending: number,
  hasCR: boolean,
  hasEscape: boolean,
): boolean {
  if (!hasCR && !hasEscape) return sink.wanted(text, start, end, pending);
  const line = normalizeLine(text.slice(start, end), hasCR, hasEscape);
  return sink.wanted(line, 0, line.length, pending);
}

/**
 * Start of the line that ends just before `start` (a line start, or the text's end). Note that
 * `lastIndexOf` with a negative position still looks at index 0, hence the guard.
 */
function lineBefore(text: string, start: number): number {
  return start >= 2 ? text.lastIndexOf("\n", start - 2) + 1 : 0;
}

/** `at`, moved back to just after a space within EDGE characters (not before `floor`). */
function spaceBefore(text: string, at: number, floor: number): number {
  for (let i = at; i > floor && i > at - EDGE; i--) if (text.charCodeAt(i - 1) === 32) return i;
  return at;
}

/** `at`, moved forward to a space within EDGE characters (not past `ceiling`). */
function spaceAfter(text: string, at: number, ceiling: number): number {
  for (let i = at; i < ceiling && i < at + EDGE; i++) if (text.charCodeAt(i) === 32) return i;
  return at;
}

/** True when `text` has the same `length` characters at `a` and at `b` (cheap checks first). */
function sameAt(text: string, a: number, b: number, length: number): boolean {
  // Neighbouring log lines of equal length usually differ in a number near the end.
  const probe = Math.min(length, 12);
  for (let i = 1; i <= probe; i++) {
    if (text.charCodeAt(a + length - i) !== text.charCodeAt(b + length - i)) return false;
  }
  return length <= 12 || text.slice(a, a + length) === text.slice(b, b + length);
}

export type { LineSink };

/** Hints for a sink that has none: no anchors, nothing is evidence. */
const PLAIN: EvidenceHints = {
  anchors: () => /(?!)/g,
  classifier: () => () => 0,
  tailChars: 0,
};

export interface LineDecoderStats {
  /** Runs of invalid UTF-8 replaced by a single U+FFFD. */
  invalid: number;
  /** True once any line had a non-space character. */
  nonBlank: boolean;
  /** Decoded characters, after normalisation. */
  chars: number;
}

export interface LineDecoder {
  write(bytes: Uint8Array): void;
  /** Text already decoded (a stored result read again), instead of bytes: not mixed with them. */
  writeText(text: string): void;
  /** `cut` is true when the read stopped early (the byte cap): the text ends mid-stream. */
  end(cut?: boolean): void;
  readonly stats: LineDecoderStats;
}

/**
 * Streams bytes into lines. UTF-8 is decoded in stream mode so a code point split between chunks
 * is never broken; the BOM is dropped; runs of invalid sequences become one U+FFFD; ANSI
 * sequences are removed and carriage-return redraws collapse to their final state. A line longer
 * than `lineCap` characters keeps its head and tail and counts the rest, so memory is bounded by
 * the cap even for a 1 GB line without a newline.
 */
export function createLineDecoder(
  sink: LineSink,
  options: {
    lineCap: number;
    encoding?: "utf-8" | "utf-16le" | "utf-16be";
    tailWindow?: number;
    /** Runs over the decoded text before it is split into lines (redaction, invisibles). */
    filter?: TextFilter;
    /** Sees the text after the filter, piece by piece, as it is split into lines. */
    tap?: (text: string) => void;
  },
): LineDecoder {
  const encoding = options.encoding ?? "utf-8";
  // UTF-16 is rare enough to take the simple path; UTF-8 keeps V8's fast one-byte strings.
  const utf16 = encoding === "utf-8" ? undefined : new TextDecoder(encoding);
  const filter = options.filter;
  const tap = options.tap;
  const utf8 = createUtf8Decoder((text) => {
    if (text.length > 0) give(text);
  });
  // What is evidence is keep's to say; without its hints every line is plain (severity 0).
  const hints: EvidenceHints = sink.hints ?? PLAIN;
  // Made from the first text seen, which tells the line layout (a logcat letter, a priority).
  let anchors: RegExp | undefined;
  const classify = hints.classifier();
  const lineCap = options.lineCap;
  const headCap = Math.ceil(lineCap * 0.75);
  const tailCap = lineCap - headCap;
  const stats: LineDecoderStats = { invalid: 0, nonBlank: false, chars: 0 };
  // Lines in the last `tailWindow` characters of a chunk are always materialised: if the chunk
  // is the last one, they are the tail.
  const tailWindow = options.tailWindow ?? hints.tailChars;
  const skipper = sink.skip && sink.wanted ? (sink as Required<LineSink>) : undefined;

  // The line still being read. Short: all of it in `pending`. Long: its head in `pendingHead`,
  // a rolling tail in `pending`, and a count of what fell between them.
  let pending = "";
  let pendingHead: string | undefined;
  let pendingOmitted = 0;
  let pendingSeverity: Severity = 0;

  function emit(
    raw: string,
    severity: Severity,
    omitted: number,
    hasCR: boolean,
    hasEscape: boolean,
  ): void {
    if (!stats.nonBlank && NON_BLANK.test(raw)) stats.nonBlank = true;
    sink.line(normalizeLine(raw, hasCR, hasEscape), severity, omitted);
  }

  /**
   * Adds a piece of the line being read. While the line is short it is held whole and classified
   * whole when it ends (a keyword cut by a chunk edge must not count, nor be missed); once it is
   * too long to hold, the severities of its pieces are what is known of it.
   */
  function append(segment: string, severity: Severity): void {
    if (pendingHead === undefined) {
      if (pending.length + segment.length <= lineCap) {
        pending += segment;
        return;
      }
      const held = classify(pending);
      pendingSeverity = held > severity ? held : severity;
      const whole = pending + segment;
      pendingHead = whole.slice(0, headCap);
      pending = whole.slice(headCap);
    } else {
      if (severity > pendingSeverity) pendingSeverity = severity;
      pending += segment;
    }
    if (pending.length > tailCap) {
      pendingOmitted += pending.length - tailCap;
      pending = pending.slice(pending.length - tailCap);
    }
  }

  function flush(): void {
    if (pendingHead === undefined) {
      emit(pending, classify(pending), 0, true, true);
    } else if (pendingHead.includes("\r") || pending.includes("\r")) {
      // A line redrawn past the cap (a progress bar over megabytes): what a terminal would show
      // at the end is in its tail, and the rest is said to be left out, in front of it.
      const shown = pending.includes("\r")
        ? collapseCarriageReturns(pending.replace(/\r$/, ""))
        : pending;
      const omitted = pendingHead.length + pendingOmitted + pending.length - shown.length;
      emit(`${lineCutMarker(omitted)}${shown}`, pendingSeverity, omitted, false, true);
    } else {
      const marker = lineCutMarker(pendingOmitted);
      emit(`${pendingHead}${marker}${pending}`, pendingSeverity, pendingOmitted, true, true);
    }
    pending = "";
    pendingHead = undefined;
    pendingOmitted = 0;
    pendingSeverity = 0;
  }

  /** The final state of a carriage-return redrawn line, if it fits the line cap. */
  function collapsedWithin(line: string): string | undefined {
    if (!line.includes("\r")) return undefined;
    const collapsed = collapseCarriageReturns(line.endsWith("\r") ? line.slice(0, -1) : line);
    return collapsed.length <= lineCap ? collapsed : undefined;
  }

  function clean(chunk: string): string {
    let text = chunk;
    if (text.includes("\uFFFD")) {
      text = text.replace(/\uFFFD+/g, () => {
        stats.invalid++;
        return "\uFFFD";
      });
    }
    // gpt-tokenizer mis-encodes U+FEFF; TextDecoder drops only a leading BOM.
    if (text.includes("\uFEFF")) text = text.replace(/\uFEFF/g, "");
    return text;
  }

  /**
   * Finds the lines of `text` that hold evidence: a literal-anchor scan first (fast over ordinary
   * text), then the full classifier on just those lines. Returns [lineStart, severity] pairs in
   * order. A very long line is classified in windows around each anchor, each window at most once.
   */
  function evidenceLines(text: string, context: Set<number>): number[] {
    const found: number[] = [];
    anchors ??= hints.anchors(text.slice(0, 1 << 16));
    anchors.lastIndex = 0;
    // Bounds of the line of the previous anchor: a long line with many anchors is searched for
    // its ends once, not once per anchor (which would be quadratic).
    let lineStart = 0;
    let lineEnd = -1;
    for (let m = anchors.exec(text); m !== null; m = anchors.exec(text)) {
      // A layout anchor starts at the newline before its line.
      const at = text.charCodeAt(m.index) === 10 ? m.index + 1 : m.index;
      if (at > lineEnd) {
        lineStart = text.lastIndexOf("\n", at - 1) + 1;
        lineEnd = text.indexOf("\n", at);
        if (lineEnd === -1) lineEnd = text.length;
      }
      let severity: Severity;
      if (lineEnd - lineStart <= WHOLE_LINE) {
        severity = classify(text.slice(lineStart, lineEnd));
        anchors.lastIndex = lineEnd + 1;
      } else {
        // A window around the anchor, widened to nearby spaces so no word is cut into a false
        // match; its last EDGE characters are scanned again, as a keyword may straddle its end.
        const from = spaceBefore(text, Math.max(lineStart, at - WINDOW), lineStart);
        const to = spaceAfter(text, Math.min(lineEnd, at + WINDOW), lineEnd);
        severity = classify(text.slice(from, to));
        anchors.lastIndex = severity === 3 ? lineEnd + 1 : Math.max(at + 1, to - EDGE);
      }
      if (severity === 0) continue;
      const n = found.length;
      if (n > 0 && found[n - 2] === lineStart) {
        if (severity > (found[n - 1] as number)) found[n - 1] = severity;
        continue;
      }
      found.push(lineStart, severity);
      // The two lines before it are its context: they must not be skipped.
      if (lineStart > 0) {
        const before = lineBefore(text, lineStart);
        context.add(before);
        if (before > 0) context.add(lineBefore(text, before));
      }
    }
    return found;
  }

  /**
   * Where the lines that could be the tail begin: walking back from the end of the chunk, lines
   * are counted as the keeper would hold them (at most `lineCap` each) until the tail is full.
   */
  function tailStart(text: string): number {
    let end = text.length;
    let held = 0;
    while (end > 0 && held < tailWindow) {
      const start = lineBefore(text, end);
      held += Math.min(end - start, lineCap + 1);
      end = start;
    }
    return end;
  }

  function take(chunk: string): void {
    // The chunk is scanned as its own flat string: joining it to the pending line first would
    // make V8 flatten a fresh copy of every chunk.
    const text = clean(chunk);
    stats.chars += text.length;
    const context = new Set<number>();
    const found = evidenceLines(text, context);
    let fi = 0;
    const severityAt = (start: number): Severity => {
      while (fi < found.length && (found[fi] as number) < start) fi += 2;
      return (fi < found.length && found[fi] === start ? found[fi + 1] : 0) as Severity;
    };

    // 1. The chunk's first segment completes the pending line. A short line is classified whole
    // when it ends; a long one only by its pieces, so a keyword straddling the join is checked here.
    let nl = text.indexOf("\n");
    const firstEnd = nl === -1 ? text.length : nl;
    let severity = severityAt(0);
    const long = pendingHead !== undefined || pending.length + firstEnd > lineCap;
    if (long && pending.length > 0) {
      const join = classify(pending.slice(-WINDOW) + text.slice(0, Math.min(firstEnd, WINDOW)));
      if (join > severity) severity = join;
    }
    const joined = pending.length > 0 || pendingHead !== undefined;
    append(text.slice(0, firstEnd), severity);
    if (nl === -1) return;
    flush();

    // 2. Whole lines inside the chunk. Lines that cannot be kept (not head, not tail, not
    // evidence or its context, not a stand-out, not a repeat) are only counted.
    const hasCR = text.includes("\r");
    const hasEscape = text.includes("\x1b") || text.includes("\x9b");
    const fullFrom = skipper ? tailStart(text) : 0;
    let start = nl + 1;
    let skipped = 0;
    // The previous line, by position, for repeat detection (unknown if it began in a past chunk).
    let prevStart = joined ? -1 : 0;
    let prevEnd = joined ? -1 : firstEnd;
    let prevSkipped = false;
    for (nl = text.indexOf("\n", start); nl !== -1; nl = text.indexOf("\n", start)) {
      const sev = severityAt(start);
      const length = nl - start;
      if (
        skipper !== undefined &&
        sev === 0 &&
        start < fullFrom &&
        length <= lineCap &&
        !skipper.eager &&
        !context.has(start)
      ) {
        if (!stats.nonBlank && NON_BLANK.test(text.slice(start, nl))) stats.nonBlank = true;
        if (prevEnd - prevStart === length && sameAt(text, prevStart, start, length)) {
          // A repeat: materialise the line it repeats, so the keeper can fold the run.
          if (prevSkipped) {
            skipper.skip(skipped - 1);
            skipped = 0;
            emit(text.slice(prevStart, prevEnd), 0, 0, hasCR, hasEscape);
          }
          emit(text.slice(start, nl), 0, 0, hasCR, hasEscape);
          prevSkipped = false;
        } else if (wantedAt(skipper, text, start, nl, skipped, hasCR, hasEscape)) {
          skipper.skip(skipped);
          skipped = 0;
          emit(text.slice(start, nl), 0, 0, hasCR, hasEscape);
          prevSkipped = false;
        } else {
          skipped++;
          prevSkipped = true;
        }
      } else {
        if (skipped > 0) {
          skipper?.skip(skipped);
          skipped = 0;
        }
        const redrawn =
          length > lineCap && hasCR ? collapsedWithin(text.slice(start, nl)) : undefined;
        if (length <= lineCap) {
          emit(text.slice(start, nl), sev, 0, hasCR, hasEscape);
        } else if (redrawn !== undefined) {
          // A progress bar redrawn many times: its final state is short, nothing is cut.
          emit(redrawn, classify(redrawn), 0, false, hasEscape);
        } else {
          append(text.slice(start, nl), sev);
          flush();
        }
        prevSkipped = false;
      }
      prevStart = start;
      prevEnd = nl;
      start = nl + 1;
    }
    if (skipped > 0) skipper?.skip(skipped);

    // 3. The unfinished last line waits for the next chunk.
    if (start < text.length) append(text.slice(start), severityAt(start));
  }

  function give(text: string): void {
    const out = filter === undefined ? text : filter.write(text);
    if (out.length === 0) return;
    tap?.(out);
    take(out);
  }

  return {
    stats,
    writeText(text: string) {
      if (text.length > 0) give(text);
    },
    write(bytes: Uint8Array) {
      if (utf16 === undefined) {
        utf8.write(bytes);
        return;
      }
      const chunk = utf16.decode(bytes, { stream: true });
      if (chunk.length > 0) give(chunk);
    },
    end(cut = false) {
      if (utf16 === undefined) {
        utf8.end();
      } else {
        const chunk = utf16.decode();
        if (chunk.length > 0) give(chunk);
      }
      if (filter !== undefined) {
        const rest = filter.end(cut);
        if (rest.length > 0) {
          tap?.(rest);
          take(rest);
        }
      }
      if (pending.length > 0 || pendingHead !== undefined || pendingSeverity > 0) flush();
    },
  };
}
