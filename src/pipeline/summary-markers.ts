/**
 * The words of a `read_result {summary: true}` page (issue 29), beside the other markers
 * (`markers.ts`): tool text in them (times, a source's name, a message) is one line, without
 * brackets, capped.
 */
import { oneLine, scope } from "./markers.js";
import type { SectionName } from "./unit.js";

/**
 * A `read_result {summary: true}` page (issue 29): its header, the input's span, the sources,
 * one line per message (tool text, one line, after its id), and the closing line:
 *
 *   [airlock: read_result: the summary of res_…: 71 messages of error or warning lines]
 *   [airlock: lines 1-2000, Jul  1 09:00:55 to Jul  8 08:10:46]
 *   [airlock: sources: quicklookd 13, kernel 9]
 *   error 13 lines 186-1881 (Jul  1 19:50:12 to Jul  7 21:01:22) m3f2a9c01: <message>
 *   [airlock: 41 of 71 messages not listed; to read a message's lines call read_result {…} with its id]
 */
export function summaryHeadMarker(handle: string, total: number, levels: string[]): string {
  const or =
    levels.length > 1 ? `${levels.slice(0, -1).join(", ")} or ${levels.at(-1)}` : levels[0];
  const what =
    total === 0
      ? "no fatal, error or warning line"
      : `${total} message${total === 1 ? "" : "s"} of ${or} lines`;
  return `[airlock: read_result: the summary of ${handle}: ${what}]`;
}

interface At {
  readonly line: number;
  readonly time?: string;
}

/** `lines a-b` (of one section, or from one to another) and `t1 to t2`, the times as written. */
function spanOf(first: At & { section: SectionName }, last: At & { section: SectionName }) {
  const lines =
    first.section !== last.section
      ? `${scope(first.section)}line ${first.line} to ${scope(last.section)}line ${last.line}`
      : `${scope(first.section)}${first.line === last.line ? `line ${first.line}` : `lines ${first.line}-${last.line}`}`;
  const [a, b] = [first.time, last.time].map((t) => (t === undefined ? "" : oneLine(t, 40)));
  const times = a && b ? (a === b ? a : `${a} to ${b}`) : a ? `from ${a}` : b ? `to ${b}` : "";
  return { lines, times };
}

/** The input's span: its first and last line, and the times they wrote. */
export function spanMarker(
  first: At & { section: SectionName },
  last: At & { section: SectionName },
): string {
  const { lines, times } = spanOf(first, last);
  return `[airlock: ${lines}${times ? `, ${times}` : ""}]`;
}

/** The components the severe lines name, with their lines. */
export function sourcesMarker(sources: ReadonlyArray<{ name: string; count: number }>): string {
  return `[airlock: sources: ${sources.map((s) => `${oneLine(s.name, 48)} ${s.count}`).join(", ")}]`;
}

/** One message of the summary: its level, lines, where and when, its id, then what it says. */
export function symptomLine(s: {
  severity: string;
  count: number;
  section: SectionName;
  first: At;
  last: At;
  id: string;
  text: string;
}): string {
  const { lines, times } = spanOf(
    { ...s.first, section: s.section },
    { ...s.last, section: s.section },
  );
  return `${s.severity} ${s.count} ${lines}${times ? ` (${times})` : ""} ${s.id}: ${oneLine(s.text, 400)}`;
}

/** The closing line: how many messages are not listed, and the call that reads one's lines. */
export function summaryCloseMarker(listed: number, total: number, call: string): string {
  const not = total - listed;
  const said = not === 0 ? "every message listed" : `${not} of ${total} messages not listed`;
  return `[airlock: ${said}; to read a message's lines call ${call} with its id]`;
}
