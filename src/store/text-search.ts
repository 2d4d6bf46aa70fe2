/**
 * The searches `read_result` runs over stored lines, beside grep's: the evidence of one level
 * (the first page's severity scale), and the lines of one message of the summary (`template`),
 * each with a probe that passes over the lines that cannot match. And the words a page says
 * about them.
 */
import { anchorScanner, lineClassifier } from "../keep/evidence.js";
import { messageKey } from "../pipeline/message.js";
import { readCall } from "../pipeline/read-back.js";
import type { Severity } from "../pipeline/unit.js";
import { compileGrep, type Matcher, type StepBudget } from "./grep.js";
import { type Probe, type SectionText, type StoredLine, scannerProbe } from "./text-source.js";
import type { EvidenceLevel } from "./tool.js";

export const LEVEL_NAMES: Readonly<Record<number, string>> = {
  3: "fatal",
  2: "error",
  1: "warning",
};

export function severityOf(level: EvidenceLevel): Severity {
  return level === "fatal" ? 3 : level === "error" ? 2 : 1;
}

/** How a page's note names the levels it reads: `fatal first, then errors, then warnings`. */
export function levelsFrom(level: EvidenceLevel | undefined): string {
  const at = severityOf(level ?? "fatal");
  const names = ["fatal", "errors", "warnings"].slice(3 - at);
  return names.length === 1
    ? `${names[0]}`
    : `${names[0]} first, then ${names.slice(1).join(", then ")}`;
}

/**
 * A literal that reads as a regular expression (`ECONNRESET|FATAL`, `timeout.*ms`, `\\d+`) and
 * matched nothing: the page names the call that searches for the pattern.
 */
export function regexHint(grep: string, handle: string): string {
  if (grep.startsWith("/") || !/\||\.\*|\\[dws]/.test(grep)) return "";
  // Only a pattern that compiles is named, with the flag that keeps the literal's any case.
  const pattern = `/${grep}/i`;
  if (typeof compileGrep(pattern) === "string") return "";
  // A bracket would close the marker: a literal holding one is not quoted back.
  const literal = /[[\]]/.test(grep) ? "" : ` ${JSON.stringify(grep)}`;
  return ` the literal${literal}; to search for it as a pattern call ${readCall({ handle, grep: pattern })}`;
}

/**
 * Evidence of one level (0: of any level) on the first page's scale: a cheap anchor scan, then
 * the classifier.
 */
export function evidenceMatcher(level: Severity): Matcher {
  const anchors = anchorScanner();
  const classify = lineClassifier();
  return {
    describe: "evidence lines",
    // Lines without an anchor cannot be evidence (as the decoder skips them for the first page).
    probe: scannerProbe(anchorScanner()),
    test(line: string, budget: StepBudget) {
      budget.steps += line.length;
      if (budget.steps > budget.max) budget.stopped = true;
      anchors.lastIndex = 0;
      if (!anchors.test(line)) return false;
      const found = classify(line);
      return level === 0 ? found > 0 : found === level;
    },
  };
}

/** A search over stored lines: what it is, where its matches may be, and its test of a line. */
export interface LineSearch {
  /** How the search reads in prose, in the page's header. */
  readonly describe: string;
  readonly probe?: Probe;
  /** True when the line matches; false (and `budget.stopped`) once the budget is spent. */
  hit(line: StoredLine, budget: StepBudget): boolean;
}

/** A matcher of text (a grep, the evidence) as a search of lines: the whole line is searched. */
export function searchOf(m: Matcher): LineSearch {
  return {
    describe: m.describe,
    ...(m.probe ? { probe: m.probe } : {}),
    hit: (line, budget) => m.test(line.search, budget),
  };
}

/** Characters, and lines, of a section's start a layout is told from (as the decoder tells it). */
const SAMPLE_CHARS = 1 << 16;
const SAMPLE_LINES = 64;

/**
 * The lines of one message of the summary (`template`): the lines the first page counted under
 * the symptom's key. Each is judged as the decoder and keep judged it: an evidence anchor of
 * the section's layout (told from its first lines, as the decoder tells it from its first
 * chunk), a severity above 0, then the key of its message (`messageKey`) over the line as the
 * decoder gave it to keep (cut at the stored `lineCap`, `StoredLine.keyed`).
 *
 * @example
 * const m = await templateMatcher("m3f2a9c01", 0x3f2a9c01, section);
 * m.hit(line, budget); // true for a line of that message
 */
export async function templateMatcher(
  id: string,
  key: number,
  section: SectionText,
): Promise<LineSearch> {
  const sample: string[] = [];
  let lines = 0;
  let chars = 0;
  await section.walk(1, (line) => {
    sample.push(line.search);
    chars += line.search.length + 1;
    if (line.search.trim() !== "") lines++;
    return lines < SAMPLE_LINES && chars < SAMPLE_CHARS;
  });
  const anchors = anchorScanner(sample.join("\n"));
  // A layout's anchors start at the newline before its line (`\n<\d`): a line is tested with one.
  const layout = anchors.source.includes("\\n");
  const classify = lineClassifier();
  return {
    describe: `lines of message ${id}`,
    probe: lineStartProbe(anchorScanner(sample.join("\n"))),
    hit(line, budget) {
      const text = line.search;
      budget.steps += text.length;
      if (budget.steps > budget.max) budget.stopped = true;
      anchors.lastIndex = 0;
      if (!anchors.test(layout ? `\n${text}` : text)) return false;
      if (classify(text) === 0) return false;
      return messageKey(line.keyed ?? line.text) === key;
    },
  };
}

/**
 * A probe for a scanner whose anchors may start at the newline before a line: searched from the
 * break before `from`, a hit on a newline is the line after it. A part's first line has no
 * break before it in the part, so it is always looked at.
 */
function lineStartProbe(scanner: RegExp): Probe {
  return (part, from) => {
    if (from === 0) return 0;
    scanner.lastIndex = from - 1;
    const m = scanner.exec(part.text);
    if (m === null) return -1;
    return part.text.charCodeAt(m.index) === 10 ? m.index + 1 : m.index;
  };
}
