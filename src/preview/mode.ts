/**
 * Which renderer a result gets. Web pages and markdown read as markdown; logs, command output,
 * records and CSV read like the tool's own output, preformatted. A plain text (a string, or
 * `meta.format` "text") is far more often a log than an article, so it is preformatted unless it
 * clearly is markdown: headings and paragraphs of prose, and no line that looks like a log's.
 */
import type { Shaped } from "../pipeline/shaped.js";

export type PreviewMode = "auto" | "preformatted" | "markdown";

/**
 * The renderer for `text`: the caller's choice, else what the result says it was.
 *
 * @example chooseMode(shapedPage, shapedPage.text, "auto"); // "markdown" (meta.format "html")
 */
export function chooseMode(
  shaped: Shaped | undefined,
  text: string,
  mode: PreviewMode,
): "preformatted" | "markdown" {
  if (mode !== "auto") return mode;
  const format = shaped?.meta.format;
  if (format === "html" || format === "markdown") return "markdown";
  if (format === undefined || format === "text") {
    return looksLikeMarkdown(text) ? "markdown" : "preformatted";
  }
  return "preformatted";
}

/** How much of a text the guess reads: enough to tell, bounded whatever the input. */
const SAMPLE_LINES = 200;
const SAMPLE_CHARS = 20_000;

const HEADING = /^#{1,6} +\S/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,3}[.)]) +\S/;
/** Lines only a log, a terminal or a stack trace would have. */
const LOG_LINE = new RegExp(
  [
    /^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/, // ISO timestamps
    /^\[?\d{1,2}:\d{2}:\d{2}/, // clock times
    /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}/, // syslog
    /^\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|PANIC|SEVERE)\b/,
    /^\d{1,3}(?:\.\d{1,3}){3}\s/, // access logs
    /^\[\d+\/\d+\]/, // build progress
    /^\s+at \S/, // JS and Java stack frames
    /^Traceback \(most recent call last\)/,
    /^(?:npm|yarn|pnpm) (?:ERR|WARN)/,
    /^[$%] \S/, // shell prompts
  ]
    .map((r) => r.source)
    .join("|"),
);
/** A word of prose: letters, maybe an apostrophe, maybe trailing punctuation. */
const WORD = /^[\p{L}][\p{L}'’-]*[,.;:!?)"”]*$/u;
const CODE_END = /[;{}()=]$/;
const SENTENCE_END = /[.!?:]["”)]?$/;

/**
 * Whether a plain text clearly is markdown: at least one heading, a blank line, a sentence,
 * more lines of prose than lines of code, no log-like line, and one more markdown sign (a list,
 * a link, code, emphasis, or a paragraph of prose). Anything in doubt is not.
 *
 * @example looksLikeMarkdown("# Notes\n\nThe build now runs in half the time it used to."); // true
 */
export function looksLikeMarkdown(text: string): boolean {
  const start = text.search(/\S/);
  if (start < 0) return false;
  // JSON (a record, an array) is never markdown; a text that opens with a marker may be.
  const opener = text[start];
  if (opener === "{" || (opener === "[" && !text.startsWith("[airlock: ", start))) return false;
  let headings = 0;
  let blanks = 0;
  let prose = 0;
  let code = 0;
  let paragraph = false;
  let signs = 0;
  let previousProse = false;
  let sentences = 0;
  const lines = text.slice(0, SAMPLE_CHARS).split("\n").slice(0, SAMPLE_LINES);
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (line === "") {
      blanks++;
      previousProse = false;
      continue;
    }
    // airlock's own lines and the fence say nothing about the content.
    if (/^\[airlock: .*\]$/.test(line) || /^<\/?untrusted-data[ >]/.test(line)) continue;
    if (LOG_LINE.test(line)) return false;
    if (HEADING.test(line)) {
      headings++;
      previousProse = false;
      continue;
    }
    if (
      LIST_ITEM.test(line) ||
      /\]\(https?:\/\//.test(line) ||
      /^```|`[^`\s][^`]*`|\*\*\S/.test(line)
    ) {
      signs++;
    }
    if (/^(?: {4}|\t)/.test(line) && !LIST_ITEM.test(line)) {
      code++;
      previousProse = false;
      continue;
    }
    if (CODE_END.test(line)) code++;
    const words = line.trim().split(/\s+/);
    const isProse =
      words.length >= 6 && words.filter((w) => WORD.test(w)).length >= words.length * 0.7;
    if (isProse) {
      prose++;
      // A sentence ends like one; a command line or a list of words does not.
      if (SENTENCE_END.test(line)) sentences++;
      if (previousProse || words.length >= 12) paragraph = true;
    }
    previousProse = isProse;
  }
  return headings > 0 && blanks > 0 && sentences > 0 && prose > code && (signs > 0 || paragraph);
}
