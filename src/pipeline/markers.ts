import type { BoilerplateReason } from "./html-facts.js";
import { EXIT_QUIET_MS, type ReadStop } from "./run.js";
import type { SectionName } from "./unit.js";

/** The version of the marker grammar docs/markers.md describes. */
export const MARKER_GRAMMAR = 3;

/**
 * The marker grammar. Every marker is one line of the form `[airlock: …]` with plain integers, so a
 * program can parse it and a model can read it:
 *
 * Version 3 (docs/markers.md): a numbered layout; version 2: gap markers carry no total.
 *
 *   [airlock: omitted lines 121-49880]
 *   [airlock: omitted stderr lines 3-9]
 *   [airlock: previous line repeated 99998 more times]
 *   [airlock: 312 more lines like line 1203, lines 1204-8991]   (a repeating event, after its run)
 *   [airlock: 66848 more lines like lines 66938-66942]   (several, after their run; no span over half)
 *   [airlock: 13 error lines not shown, lines 186-1881: <message>]   (a severe message unshown)
 *   [airlock: 1048000 chars omitted from this line]          (inside a line)
 *   [airlock: 300 chars folded]                               (inside a line, a run of one character class)
 *   [airlock: read stopped at maxBytes (268435456); the rest was not read]
 *   [airlock: binary content not shown: image/png, 5120 bytes, sha256 9f86d0…]
 *   [airlock: shown 240 of 50000 lines, evidence 14 of 31; <what to do next>]
 *   [airlock: shown 30 of 2000 lines by number, evidence 29 of 362; <what to do next>]
 *                   (each shown line starts with its number and a tab; no gap markers)
 *
 * The markers of a `read_result {summary: true}` page are in `summary-markers.ts` (this module
 * is at its size).
 */
/** A section as a marker names it: `stderr `, `stdout `, or nothing for plain text. */
export function scope(section: SectionName): string {
  return section === "text" ? "" : `${section} `;
}

/** Lines not shown, 1-based and inclusive; the section's total is in the closing summary. */
export function gapMarker(section: SectionName, from: number, to: number): string {
  const what = from === to ? `line ${from}` : `lines ${from}-${to}`;
  return `[airlock: omitted ${scope(section)}${what}]`;
}

/** Inside a line: the middle of an over-long line was cut. */
export function lineCutMarker(chars: number): string {
  return `[airlock: ${chars} chars omitted from this line]`;
}

/** Matches a `lineCutMarker` inside a line, capturing the count. */
export const LINE_CUT = /\[airlock: (\d+) chars omitted from this line\]/;

/** After the last line of a source that failed while it was read. */
export function readFailedMarker(section: SectionName, message: string): string {
  // The message comes from the source: one line, bounded, no brackets that could close the marker.
  const clean = oneLine(message);
  const what = section === "text" ? "the input" : section;
  return `[airlock: reading ${what} failed (${clean}); the output above may be incomplete]`;
}

/**
 * After the run of shown lines that holds line `like`: how many other lines of its event template
 * there are (`atLeast` when some lines were skipped unseen, so the count is a floor), and the
 * span they lie in, when it says something: a span over more than half the section's lines is
 * left out (`meta.evidence.cut` still has it).
 */
export function likeThisMarker(section: SectionName, note: LikeThis): string {
  const { more, like, atLeast } = note;
  const lines = `line${more === 1 ? "" : "s"}`;
  return `[airlock: ${atLeast ? "at least " : ""}${more} more ${scope(section)}${lines} like line ${like}${spanOf(note)}]`;
}

/** A line's "more like" count, as `likeThisMarker` writes it. */
export interface LikeThis {
  readonly more: number;
  readonly like: number;
  readonly from: number;
  readonly to: number;
  readonly atLeast: boolean;
  /** Lines of the section: a span over more than half of them is not written. */
  readonly total: number;
}

function spanOf({ from, to, total }: Pick<LikeThis, "from" | "to" | "total">): string {
  if ((to - from + 1) * 2 > total) return "";
  return from === to ? `, line ${from}` : `, lines ${from}-${to}`;
}

/**
 * After a run of shown lines several of which stand for templates with more lines: one marker
 * for them all, their total (exact, or a floor with `at least`), the shown lines they are like
 * (as ranges) and, when it says something, the span the others lie in. `meta.evidence.cut` has
 * each template's count.
 */
export function likeTheseMarker(section: SectionName, notes: readonly LikeThis[]): string {
  let more = 0;
  let from = Number.POSITIVE_INFINITY;
  let to = 0;
  let atLeast = false;
  let total = 0;
  const likes: number[] = [];
  for (const n of notes) {
    more += n.more;
    from = Math.min(from, n.from);
    to = Math.max(to, n.to);
    atLeast ||= n.atLeast;
    total = Math.max(total, n.total);
    likes.push(n.like);
  }
  likes.sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < likes.length; ) {
    let j = i;
    while (j + 1 < likes.length && (likes[j + 1] as number) === (likes[j] as number) + 1) j++;
    ranges.push(i === j ? `${likes[i]}` : `${likes[i]}-${likes[j]}`);
    i = j + 1;
  }
  return `[airlock: ${atLeast ? "at least " : ""}${more} more ${scope(section)}lines like lines ${ranges.join(", ")}${spanOf({ from, to, total })}]`;
}

export function repeatMarker(times: number): string {
  return `[airlock: previous line repeated ${times} more time${times === 1 ? "" : "s"}]`;
}

/** The host stopped the read (its abort signal, or `timeoutMs`): what follows was not read. */
export function stoppedMarker(reason: ReadStop): string {
  if (reason === "exited")
    return `[airlock: read stopped ${EXIT_QUIET_MS} ms after the command exited: its pipe stayed open and quiet (a process it started may hold it); the rest was not read]`;
  const why = reason === "timeout" ? "timeoutMs passed" : "the host aborted";
  return `[airlock: read stopped early (${why}); the rest was not read]`;
}

/**
 * Before a stream's first line: output it had let go before airlock could read it (a host that
 * awaited between spawn and shape, and a runtime that discarded the unread pipe).
 */
export function lostMarker(section: SectionName, bytes: number | undefined): string {
  const what = section === "text" ? "the input" : section;
  return bytes === undefined
    ? `[airlock: ${what} had already ended before it could be read; any output it carried was lost]`
    : `[airlock: the first ${bytes} bytes of ${what} were lost before they could be read]`;
}

export function capMarker(limit: number): string {
  return `[airlock: read stopped at maxBytes (${limit}); the rest was not read]`;
}

export function binaryMarker(
  mime: string,
  bytes: number,
  complete: boolean,
  sha256?: string,
): string {
  const size = complete ? `${bytes} bytes` : `more than ${bytes} bytes`;
  const hash = sha256 ? `, sha256 ${sha256}` : "";
  return `[airlock: binary content not shown: ${mime}, ${size}${hash}]`;
}

/**
 * An MCP resource link, named in a message's text: airlock's words and the media type only. The
 * link's name and address are the tool's, and go in a fence after it (`linkLine`).
 */
export function resourceLinkMarker(mime: string | undefined): string {
  return `[airlock: resource link${mime !== undefined ? ` (${mime})` : ""}]`;
}

/** The reasons a page's furniture was left out, in the order the marker names them, as it says them. */
const BOILERPLATE_LABELS: ReadonlyArray<readonly [BoilerplateReason, string]> = [
  ["navigation", "navigation"],
  ["related", "related links"],
  ["comments", "comments"],
  ["footer", "footer"],
  ["ads", "ads"],
  ["smallPrint", "small print"],
  ["lowDensity", "low text density"],
  ["other", "other text"],
];

/**
 * What main-content extraction left out of a page, under its facts: the characters, and the
 * blocks by reason, each reason named once.
 *
 * @example
 * boilerplateMarker(4120, { navigation: 12, comments: 1 });
 * // "[airlock: main content only; left out 4120 characters in 13 blocks: navigation 12, comments 1]"
 */
export function boilerplateMarker(
  chars: number,
  blocks: Readonly<Partial<Record<BoilerplateReason, number>>>,
): string {
  const parts: string[] = [];
  let total = 0;
  for (const [reason, label] of BOILERPLATE_LABELS) {
    const n = blocks[reason] ?? 0;
    if (n <= 0) continue;
    parts.push(`${label} ${n}`);
    total += n;
  }
  const by = total > 0 ? ` in ${total} block${total === 1 ? "" : "s"}: ${parts.join(", ")}` : "";
  return `[airlock: main content only; left out ${chars} character${chars === 1 ? "" : "s"}${by}]`;
}

/** Text a page hid from its reader (a likely carrier of injected instructions), removed. */
export function hiddenTextMarker(chars: number): string {
  return `[airlock: ${chars} character${chars === 1 ? "" : "s"} of hidden text removed]`;
}

/** A page cut at `maxBytes`: its text ends early. */
export function pageCapMarker(): string {
  return "[airlock: page cut at maxBytes]";
}

/** A page too large to hold, read as it streamed. */
export function streamedPageMarker(): string {
  return "[airlock: a page too large to hold: read as it streamed, in full mode (no main-content extraction, no link list)]";
}

export function sectionMarker(section: SectionName): string {
  return `[airlock: ${section}]`;
}

export function emptyMarker(): string {
  return "[airlock: no output]";
}

/**
 * The closing summary. `numbered` says the shown lines carry their numbers (`numberedLine`), so
 * the gaps between them were written as jumps in the numbers, not as gap markers.
 */
export function summaryMarker(
  shown: number,
  total: number,
  evidenceShown: number,
  evidenceTotal: number,
  next: string | undefined,
  numbered = false,
): string {
  const evidence = evidenceTotal > 0 ? `, evidence ${evidenceShown} of ${evidenceTotal}` : "";
  const hint = next ? `; ${next}` : "";
  return `[airlock: shown ${shown} of ${total} lines${numbered ? " by number" : ""}${evidence}${hint}]`;
}

/**
 * A shown line in a numbered layout: its 1-based number and a tab, then the line (as `cat -n`
 * and `grep -n` write it). Every line of such a section has its number, so the tool's own text
 * cannot pass for one; a jump in the numbers is lines omitted.
 */
export function numberedLine(line: number, text: string): string {
  return `${line}\t${text}`;
}

export interface CommandHeader {
  readonly exitCode: number | null | undefined;
  readonly signal: string | null | undefined;
  readonly failure?: string | undefined;
  readonly streams: ReadonlyArray<{
    name: SectionName;
    lines: number;
    bytes: number;
    capped: boolean;
    /** False for a stream the process did not pipe to airlock. */
    captured?: boolean;
  }>;
}

/** How a command ended, in words: also the message of a failed command's `meta.error`. */
export function commandOutcome(
  exitCode: number | null | undefined,
  signal: string | null | undefined,
  /** Why the command failed without an exit code (it could not start), in safe words. */
  failure?: string,
): string {
  if (signal != null) return `command killed by ${signal}`;
  if (exitCode == null && failure !== undefined) return `command failed (${oneLine(failure)})`;
  if (exitCode == null) return "command exit code unknown";
  return `command exited with code ${exitCode}`;
}

export function commandHeader(header: CommandHeader): string {
  let outcome = commandOutcome(header.exitCode, header.signal, header.failure);
  // Reading stops at the cap and closes the pipe; a command that writes on then fails on the
  // closed pipe (EPIPE, SIGPIPE) was ended by airlock, not by its own trouble: say both.
  const cut = header.streams.filter((s) => s.capped).map((s) => s.name);
  const failed = header.signal != null || (header.exitCode != null && header.exitCode !== 0);
  if (cut.length > 0 && failed)
    outcome += ` after airlock stopped reading ${cut.join(" and ")} at maxBytes (which may have ended it)`;
  const streams = header.streams
    .map((s) =>
      s.captured === false
        ? `${s.name} not captured`
        : `${s.name} ${s.lines} line${s.lines === 1 ? "" : "s"}, ${s.capped ? "more than " : ""}${s.bytes} bytes`,
    )
    .join("; ");
  return `[airlock: ${outcome}; ${streams}]`;
}

/** In place of a stream a process did not pipe to airlock (it went to a terminal, or nowhere). */
export function uncapturedMarker(section: SectionName): string {
  return `[airlock: ${section} was not captured (the process wrote it elsewhere); it is not shown]`;
}

/** The first line of a result the host said is the tool's error (`toolError: true`, MCP `isError`). */
export function toolErrorMarker(): string {
  return "[airlock: the tool reported an error]";
}

export function httpHeader(status: number, statusText: string): string {
  return `[airlock: HTTP ${status}${statusText ? ` ${statusText}` : ""}]`;
}

/** A note from airlock about the text around it, one line (the note's own brackets removed). */
export function noteMarker(text: string): string {
  return `[airlock: ${oneLine(text, 400)}]`;
}

/** Inside a line: a run of one character class folded to its start and a count. */
export function foldMarker(chars: number): string {
  return `[airlock: ${chars} chars folded]`;
}

/** Matches a `lineCutMarker` as a whole part of a line, for splitting around it. */
export const INLINE_CUT = /(\[airlock: \d+ chars omitted from this line\])/;

/** Inside a string value: its middle was cut for display. */
export function valueCutMarker(chars: number): string {
  return `[airlock: ${chars} chars omitted from this value]`;
}

/** In place of the items of an array past the ones shown. */
export function itemsMarker(count: number): string {
  return `[airlock: ${count} more items omitted]`;
}

/** The value of the `[airlock]` key in place of an object's keys past the ones shown. */
export function keysNote(count: number): string {
  return `${count} more keys omitted`;
}

/** In place of a value nested deeper than is shown. */
export const NESTING_MARKER = "[airlock: nesting omitted]";

/** The key an outline of a record too large to show stands under. */
export const OUTLINE_KEY = "[airlock: record too large, outline]";

/**
 * A result none of whose text fits the budget (not even fenced): what it was, in airlock's
 * words and plain integers, so it needs no fence.
 *
 *   [airlock: result not shown (budget 12 tokens): 48213 lines, 2097152 bytes; command exited with code 2]
 */
export function notShownMarker(what: string, budget: number | undefined): string {
  const why = budget === undefined ? "" : ` (budget ${budget} tokens)`;
  return `[airlock: result not shown${why}: ${what}]`;
}

/** An earlier result of a session, shown as one line (its level `line`): what it was. */
export interface ResultLine {
  /** The host's call id, made safe (`safeName`). */
  readonly callId: string;
  readonly tool?: string;
  readonly status: string;
  /** Its size in airlock's words: `51081 lines`, `1200 records`, `2048 bytes`. */
  readonly size: string;
  /** Evidence lines or records in the whole result. */
  readonly evidence: number;
  /** `read_result {…}` that reads it again; absent when it was not kept. */
  readonly read?: string;
}

/**
 * A session's earlier result as one line, in plain integers and safe names, with the call that
 * reads it again:
 *
 *   [airlock: earlier result of call_3 (bash), partial, 51081 lines, evidence 53; read it again: read_result {"handle":"res_…","evidence":true}]
 */
export function resultLineMarker(r: ResultLine): string {
  const tool = r.tool === undefined ? "" : ` (${r.tool})`;
  const evidence = r.evidence > 0 ? `, evidence ${r.evidence}` : "";
  const again = r.read === undefined ? "; it was not kept" : `; read it again: ${r.read}`;
  return `[airlock: earlier result of ${r.callId}${tool}, ${r.status}, ${r.size}${evidence}${again}]`;
}

/**
 * Under the header of a re-run (a session result whose `key` an earlier one had): how many of
 * its lines are as in that run, and how many are new since it (those were ranked first). The
 * earlier result is named by its call id, and its handle when it was kept:
 *
 *   [airlock: re-run of call_7 (res_…): 1203 lines as before, 57 new]
 */
export function rerunMarker(
  callId: string,
  asBefore: number,
  fresh: number,
  handle?: string,
): string {
  const line = (n: number) => `${n} line${n === 1 ? "" : "s"}`;
  const earlier = handle === undefined ? "" : ` (${handle})`;
  return `[airlock: re-run of ${callId}${earlier}: ${line(asBefore)} as before, ${fresh} new]`;
}

/**
 * The oldest one-line results of a session, folded into the first of them: each call id with
 * its handle (`-` when it was not kept), and how to read one again. The other folded results
 * are empty. When the run's ceiling cannot hold every handle, the oldest are not listed, and the
 * line says how many:
 *
 *   [airlock: 3 earlier results folded: call_1 res_…, call_2 res_…, call_4 -; read one again: read_result {"handle":"…"}]
 *   [airlock: 900 earlier results folded: call_850 res_…, …; 840 older ones not listed; read one again: read_result {"handle":"…"}]
 */
export function foldedMarker(
  results: ReadonlyArray<{ callId: string; handle?: string | undefined }>,
  unlisted = 0,
): string {
  const list = results.map((r) => `${r.callId} ${r.handle ?? "-"}`).join(", ");
  const n = results.length + unlisted;
  const older =
    unlisted > 0 ? `; ${unlisted} older ${unlisted === 1 ? "one" : "ones"} not listed` : "";
  const shown = list === "" ? "" : `: ${list}`;
  return `[airlock: ${n} earlier result${n === 1 ? "" : "s"} folded${shown}${older}; read one again: read_result {"handle":"…"}]`;
}

/**
 * A name the host or a model chose (a call id, a tool) as it may stand in a marker: letters,
 * digits and `_ . : -`, at most 64 of them; anything else is left to `fallback`.
 */
export function safeName(name: unknown, fallback: string): string {
  return typeof name === "string" && /^[A-Za-z0-9_.:-]{1,64}$/.test(name) ? name : fallback;
}

/** What is left when not even one line or record fits the budget: the longest first. */
export const OMITTED_NOTICES: readonly string[] = [
  "[airlock: result omitted: it does not fit maxTokens]",
  "[airlock: omitted]",
];

/** Tool text made safe to sit inside a marker: one line, no brackets that could close it, capped. */
export function oneLine(text: string, max = 200): string {
  return text
    .replace(/[\r\n\][]+/g, " ")
    .slice(0, max)
    .trim();
}
