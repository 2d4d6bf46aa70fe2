/**
 * What explains a failure: the lines around an error line that belong to it (a stack, a
 * diagnostic's carets, an assertion's expected and actual, a compiler's messages above its
 * `Error 1`), as the keeper holds them with the error and as the fit gives them budget together.
 * No rule names a format: a line continues an error by its shape (indented, a frame), or
 * explains it by being new where ordinary lines repeat.
 */

import type { Unit } from "../pipeline/unit.js";
import type { Group } from "./groups.js";

// Lines that continue a stack trace or a compiler diagnostic belong to the error above them.
const CONTINUATION =
  /^(?:\s+at\s|\s+File "|\s*\.\.\. \d+ (?:more|common frames)|\s*Caused by\b|\s+-->|\s*\d*\s*\|(?!\|)|\s+\^|\s*= (?:note|help):|\s+\S+\.(?:go|rs|py|js|ts|java|kt|rb|cs|cpp|c|h):\d+|goroutine \d+|\s{4,}\S|\t\S)/;

/**
 * True when a line is part of the stack trace or diagnostic that precedes it. Given the line
 * that heads it, a prefix the two share (a `[info] ` column, a time) is looked past first.
 */
export function continuesEvidence(line: string, head?: string): boolean {
  if (CONTINUATION.test(line)) return true;
  if (head === undefined) return false;
  const max = Math.min(line.length, head.length, SHARED_PREFIX);
  let n = 0;
  while (n < max && line.charCodeAt(n) === head.charCodeAt(n)) n++;
  while (n > 0 && !PREFIX_END.test(line.charAt(n - 1))) n--;
  return n > 0 && CONTINUATION.test(line.slice(n));
}

/** Characters of a shared line prefix looked past, at most; where such a prefix may end. */
const SHARED_PREFIX = 64;
const PREFIX_END = /[\s\]|>:]/;

/**
 * Lines at the start of an input before which nothing is new: every template is, so novelty
 * explains nothing there (a log's first lines are not the block of its first error).
 */
export const NOVEL_AFTER = 32;

/**
 * True when a line under an error explains it: it continues it (a frame, carets, indented
 * detail) or its template is new to the input (seen at most twice past its first NOVEL_AFTER
 * lines: an assertion's expected and actual), where ordinary lines repeat.
 */
export function explains(
  unit: Pick<Unit, "text" | "occurrence" | "index">,
  head?: string,
): boolean {
  return (
    ((unit.occurrence ?? 1) <= 2 && unit.index > NOVEL_AFTER) || continuesEvidence(unit.text, head)
  );
}

/**
 * True when a line above an error explains it: as `explains`, or its template is new here
 * (`Unit.fresh`: a run of a compiler's diagnostics above its `Error 1`).
 */
export function explainsAbove(
  unit: Pick<Unit, "text" | "occurrence" | "fresh" | "index">,
  head?: string,
): boolean {
  return unit.fresh === true || explains(unit, head);
}

/**
 * A failure's block in its group: its headline (the first error line that does not itself
 * continue something, or the group's first line when every error line does: a trace whose head
 * is context), the lines just above it that explain it (`explainsAbove`), and the lines under it
 * that do (`explains`), across at most BLOCK_BRIDGE ordinary lines, up to BLOCK_LINES. Where the
 * output returns to its ordinary lines the block ends.
 */
export function blockOf(group: Group): Unit[] {
  const units = group.units;
  let at = units.findIndex((u) => u.severity >= 2 && !continuesEvidence(u.text));
  if (at === -1) at = 0;
  const head = (units[at] as Unit).text;
  let start = at;
  while (
    start > 0 &&
    (units[start - 1] as Unit).index + 1 === (units[start] as Unit).index &&
    explainsAbove(units[start - 1] as Unit, head)
  )
    start--;
  let end = at;
  for (let i = at + 1; i < units.length && i - at <= BLOCK_LINES; i++) {
    const u = units[i] as Unit;
    if (u.index !== (units[i - 1] as Unit).index + 1) break;
    if (explains(u, head)) end = i;
    else if (i - end > BLOCK_BRIDGE) break;
  }
  return units.slice(start, end + 1);
}

const BLOCK_LINES = 30;
const BLOCK_BRIDGE = 2;

/**
 * The part of a failure's block a trimmed group keeps: its headline and the lines under it that
 * continue it (a stack, carets), not the new lines that may explain it.
 */
export function traceOf(group: Group): Unit[] {
  const block = blockOf(group);
  const head = block.find((u) => u.severity >= 2 && !continuesEvidence(u.text));
  if (head === undefined) return [];
  return block.filter((u) => u === head || continuesEvidence(u.text, head.text));
}
