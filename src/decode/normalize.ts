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
