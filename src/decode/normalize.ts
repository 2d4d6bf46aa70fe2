import { foldMarker, INLINE_CUT } from "../pipeline/markers.js";

// ANSI/VT escape sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), and two-byte escapes.
// Each alternative consumes characters left to right without nested quantifiers: linear time.
const ANSI = new RegExp(
  [
    String.raw`\x1b\[[0-?]*[ -/]*[@-~]`,
    String.raw`\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)?`,
    String.raw`\x1b[@-Z\\-_]`,
    String.raw`\x9b[0-?]*[ -/]*[@-~]`,
  ].join("|"),
  "g",
);

/** One complete escape sequence (an OSC with its terminator), matched where `lastIndex` says. */
export const WHOLE_ESCAPE = new RegExp(
  [
    String.raw`\x1b\[[0-?]*[ -/]*[@-~]`,
    String.raw`\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)`,
    String.raw`\x1b[@-Z\\-_]`,
    String.raw`\x9b[0-?]*[ -/]*[@-~]`,
  ].join("|"),
  "y",
);

/** Removes terminal colour and cursor sequences. */
export function stripAnsi(line: string): string {
  return line.replace(ANSI, "");
}

/**
 * A line with carriage returns is a terminal redraw (progress bars, spinners): what stays on
 * screen is the last non-empty segment written after the final return.
 */
export function collapseCarriageReturns(line: string): string {
  let end = line.length;
  while (end > 0) {
    const start = line.lastIndexOf("\r", end - 1);
    const segment = line.slice(start + 1, end);
    if (segment.trim() !== "") return segment;
    if (start < 0) return segment;
    end = start;
  }
  return "";
}

/** Maximal runs of one tokenizer character class: letters, symbols, or horizontal space. */
const RUNS = /[\p{L}\p{M}]+|[^\s\p{L}\p{M}\p{N}]+|[^\S\r\n]+/gu;

/**
 * Runs longer than this are folded before any text reaches a tokenizer. gpt-tokenizer needs
 * about 0.5 ms for a 1,000-character run and time quadratic beyond it, so a budget's worth of
 * such runs still counts in milliseconds; ordinary text (table borders included) stays verbatim.
 */
export const MAX_RUN = 1000;
const RUN_KEEP = 64;

/**
 * BPE tokenizers spend time quadratic in the length of one pre-token (200 KB of `[[[[` takes
 * gpt-tokenizer about 17 s). Any run of one character class longer than MAX_RUN is shortened to
 * its first RUN_KEEP characters and a count, so counting cost stays linear in the text.
 * Returns the line unchanged (same string) when nothing was folded.
 */
export function foldLongRuns(line: string): { text: string; folded: number } {
  if (line.length <= MAX_RUN) return { text: line, folded: 0 };
  // A marker airlock wrote inside the line is not content: fold around it, never through it.
  const parts = line.split(INLINE_CUT);
  if (parts.length > 1) {
    let folded = 0;
    const text = parts
      .map((part, i) => {
        if (i % 2 === 1) return part;
        const f = foldLongRuns(part);
        folded += f.folded;
        return f.text;
      })
      .join("");
    return { text, folded };
  }
  let folded = 0;
  const text = line.replace(RUNS, (run: string) => {
    if (run.length <= MAX_RUN) return run;
    // Never cut a surrogate pair in half.
    let keep = RUN_KEEP;
    const code = run.charCodeAt(keep - 1);
    if (code >= 0xd800 && code <= 0xdbff) keep += 1;
    folded += run.length - keep;
    return `${run.slice(0, keep)}${foldMarker(run.length - keep)}`;
  });
  return { text, folded };
}

/**
 * Airlock's own one-line text that holds the host's words (the `next` hint, inside a marker):
 * each run longer than `MAX_RUN` keeps its first `RUN_KEEP` characters and an ellipsis, with no
 * marker (a marker inside a marker would not read as one).
 *
 * @example
 * shortenLongRuns("n".repeat(5000)).length; // 65
 */
export function shortenLongRuns(text: string): string {
  if (text.length <= MAX_RUN) return text;
  return text.replace(RUNS, (run: string) => {
    if (run.length <= MAX_RUN) return run;
    const keep = isHigh(run.charCodeAt(RUN_KEEP - 1)) ? RUN_KEEP + 1 : RUN_KEEP;
    return `${run.slice(0, keep)}\u2026`;
  });
}

/** A run of one tokenizer class longer than `MAX_RUN`, white space of any kind included. */
const LONG_RUN = /[\p{L}\p{M}]{1001,}|[^\s\p{L}\p{M}\p{N}]{1001,}|\s{1001,}/u;
const LONG_RUNS = new RegExp(LONG_RUN.source, "gu");
/** Characters kept at each end of a long run by `withoutLongRuns`. */
const RUN_ENDS = 32;
const utf8 = new TextEncoder();

/**
 * The text with the middle of each run longer than `MAX_RUN` taken out (its first and last 32
 * characters kept, so what joins the run on either side tokenizes as it did), and the UTF-8
 * bytes taken out. No token is shorter than a byte, so the tokens of the text are at most the
 * tokens of what is left plus `bytes`: an upper bound for text that must not be changed (a
 * JSON value's own punctuation, `["","",…]`) but whose runs must not reach a tokenizer either.
 * Returns the text itself (and 0) when it has no such run.
 *
 * @example
 * withoutLongRuns(`[${'"",'.repeat(1000)}""]`).bytes; // 2940
 */
export function withoutLongRuns(text: string): { text: string; bytes: number } {
  if (text.length <= MAX_RUN || !LONG_RUN.test(text)) return { text, bytes: 0 };
  let bytes = 0;
  const out = text.replace(LONG_RUNS, (run: string) => {
    let head = RUN_ENDS;
    if (isHigh(run.charCodeAt(head - 1))) head++;
    let tail = run.length - RUN_ENDS;
    if (isHigh(run.charCodeAt(tail - 1))) tail--;
    bytes += utf8.encode(run.slice(head, tail)).byteLength;
    return run.slice(0, head) + run.slice(tail);
  });
  return { text: out, bytes };
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
