import { evidenceScanner, type Severity, severityOf } from "../keep/evidence.js";
import { collapseCarriageReturns, stripAnsi } from "./normalize.js";

/** Receives decoded, normalised lines one at a time. */
export interface LineSink {
  /** `omittedChars` > 0 when an over-long line was shortened in the middle. */
  line(text: string, severity: Severity, omittedChars: number): void;
}

export interface LineDecoderStats {
  /** Runs of invalid UTF-8 replaced by a single U+FFFD. */
  invalid: number;
  /** Decoded characters, after normalisation. */
  chars: number;
}

export interface LineDecoder {
  write(bytes: Uint8Array): void;
  end(): void;
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
  options: { lineCap: number; encoding?: "utf-8" | "utf-16le" | "utf-16be" },
): LineDecoder {
  const decoder = new TextDecoder(options.encoding ?? "utf-8");
  const scanner = evidenceScanner();
  const headCap = Math.ceil(options.lineCap * 0.75);
  const tailCap = options.lineCap - headCap;
  const stats: LineDecoderStats = { invalid: 0, chars: 0 };

  // The unfinished last line. In "long" mode only its head and tail are held.
  let carry = "";
  let longHead: string | undefined;
  let longOmitted = 0;
  let longSeverity: Severity = 0;

  function emit(raw: string, severity: Severity, omitted: number): void {
    let text = raw;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.includes("\x1b") || text.includes("\x9b")) text = stripAnsi(text);
    if (text.includes("\r")) text = collapseCarriageReturns(text);
    sink.line(text, severity, omitted);
  }

  function emitLong(tail: string, severity: Severity): void {
    const head = longHead ?? "";
    const marker = `[airlock: ${longOmitted} chars omitted from this line]`;
    const sev = severity > longSeverity ? severity : longSeverity;
    const omitted = longOmitted;
    longHead = undefined;
    longOmitted = 0;
    longSeverity = 0;
    emit(`${head}${marker}${tail}`, sev, omitted);
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

  function take(chunk: string, final: boolean): void {
    const decoded = clean(chunk);
    stats.chars += decoded.length;
    const text = carry + decoded;
    carry = "";
    // One scan per chunk; matches are consumed in order as lines are cut.
    scanner.lastIndex = 0;
    let match = scanner.exec(text);
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      const unfinished = start < text.length || longHead !== undefined;
      const end = nl === -1 ? (final && unfinished ? text.length : -1) : nl;
      if (end === -1) break;
      let severity: Severity = 0;
      while (match !== null && match.index < end) {
        if (match.index >= start) {
          const sev = severityOf(match);
          if (sev > severity) severity = sev;
        }
        if (match[0].length === 0) scanner.lastIndex++;
        match = scanner.exec(text);
      }
      if (longHead !== undefined) {
        const segment = text.slice(start, end);
        if (segment.length > tailCap) longOmitted += segment.length - tailCap;
        emitLong(tailOf(segment, tailCap), severity);
      } else if (end - start > options.lineCap) {
        longHead = text.slice(start, start + headCap);
        longOmitted = end - start - headCap - tailCap;
        emitLong(text.slice(end - tailCap, end), severity);
      } else {
        emit(text.slice(start, end), severity, 0);
      }
      start = end + 1;
      if (nl === -1) return;
    }
    // Unfinished line: keep it whole if short, otherwise only its head and a rolling tail.
    let rest = text.slice(start);
    let restSeverity: Severity = 0;
    while (match !== null) {
      const sev = severityOf(match);
      if (sev > restSeverity) restSeverity = sev;
      if (match[0].length === 0) scanner.lastIndex++;
      match = scanner.exec(text);
    }
    if (longHead === undefined && rest.length <= options.lineCap) {
      carry = rest;
      return;
    }
    if (longHead === undefined) {
      longHead = rest.slice(0, headCap);
      rest = rest.slice(headCap);
    }
    if (restSeverity > longSeverity) longSeverity = restSeverity;
    // The held tail is re-scanned with the next chunk, so its matches count then, not now.
    if (rest.length > tailCap) {
      longOmitted += rest.length - tailCap;
      rest = rest.slice(rest.length - tailCap);
    }
    carry = rest;
  }

  return {
    stats,
    write(bytes: Uint8Array) {
      const chunk = decoder.decode(bytes, { stream: true });
      if (chunk.length > 0) take(chunk, false);
    },
    end() {
      const chunk = decoder.decode();
      if (chunk.length > 0 || carry.length > 0 || longHead !== undefined) take(chunk, true);
    },
  };
}

function tailOf(text: string, n: number): string {
  return text.length <= n ? text : text.slice(text.length - n);
}
