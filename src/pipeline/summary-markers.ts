/**
 * The summary's words (issue 29), beside the other markers (`markers.ts`): a severe message
 * the text does not show, a host model's answer's label, and a `read_result {summary: true}`
 * page. Tool text in them (times, a source's name, a message) is one line, without brackets,
 * capped.
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
export function summaryHeadMarker(
  handle: string,
  total: number,
  levels: string[],
  atLeast = false,
): string {
  const or =
    levels.length > 1 ? `${levels.slice(0, -1).join(", ")} or ${levels.at(-1)}` : levels[0];
  const what =
    total === 0
      ? "no fatal, error or warning line"
      : `${atLeast ? "at least " : ""}${total} message${total === 1 ? "" : "s"} of ${or} lines`;
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

/**
 * A severe message none of whose lines is shown (the summary's words for it, issue 29): how many
 * lines say it, at what level, where they lie, and the message itself, past its header, with its
 * varying words as `*` (tool text, redacted, one line, no brackets):
 *
 *   [airlock: 13 error lines not shown, lines 186-1881: Error returned from iconservicesagent: (null)]
 *   [airlock: 11 error or warning lines not shown, lines 5-900: pool exhausted]   (logged at two levels)
 */
export function unshownMarker(
  section: SectionName,
  n: { count: number; severity: string; first: number; last: number },
  message: string,
): string {
  const lines = `line${n.count === 1 ? "" : "s"}`;
  const where = n.first === n.last ? `line ${n.first}` : `lines ${n.first}-${n.last}`;
  // A redaction reads `(REDACTED:rule)` inside a marker, whose own brackets it may not hold.
  const said = oneLine(message.replace(/\[(REDACTED:[\w.-]+)\]/g, "($1)"), MENTION_CHARS);
  return `[airlock: ${n.count} ${scope(section)}${n.severity} ${lines} not shown, ${where}: ${said}]`;
}

/** Characters of a message an `unshownMarker` shows at most. */
export const MENTION_CHARS = 120;

/**
 * Above a host model's summary of a cut result (`summarize`): its words follow, `lines` lines of
 * them, inside the fence like the tool's (the model read only what the text shows):
 *
 *   [airlock: 3 lines by the host's model, summarising what is shown here; not the tool's words]
 */
export function hopLabel(lines: number): string {
  return `[airlock: ${lines} line${lines === 1 ? "" : "s"} by the host's model, summarising what is shown here; not the tool's words]`;
}
