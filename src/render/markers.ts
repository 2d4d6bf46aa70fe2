import type { SectionName } from "../pipeline/shaped.js";

/**
 * The marker grammar. Every marker is one line of the form `[airlock: …]` with plain integers, so a
 * program can parse it and a model can read it:
 *
 *   [airlock: omitted lines 121-49880 of 50000]
 *   [airlock: omitted stderr lines 3-9 of 12]
 *   [airlock: previous line repeated 99998 more times]
 *   [airlock: 1048000 chars omitted from this line]          (inside a line)
 *   [airlock: 300 chars folded]                               (inside a line, a run of one character class)
 *   [airlock: read stopped at maxBytes (268435456); the rest was not read]
 *   [airlock: binary content not shown: image/png, 5120 bytes, sha256 9f86d0…]
 *   [airlock: shown 240 of 50000 lines; evidence 14 of 31 lines shown; <what to do next>]
 */
function scope(section: SectionName): string {
  return section === "text" ? "" : `${section} `;
}

export function gapMarker(section: SectionName, from: number, to: number, total: number): string {
  const what = from === to ? `line ${from}` : `lines ${from}-${to}`;
  return `[airlock: omitted ${scope(section)}${what} of ${total}]`;
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
  const clean = message
    .replace(/[\r\n\][]+/g, " ")
    .slice(0, 200)
    .trim();
  const what = section === "text" ? "the input" : section;
  return `[airlock: reading ${what} failed (${clean}); the output above may be incomplete]`;
}

export function repeatMarker(times: number): string {
  return `[airlock: previous line repeated ${times} more time${times === 1 ? "" : "s"}]`;
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

export function sectionMarker(section: SectionName): string {
  return `[airlock: ${section}]`;
}

export function emptyMarker(): string {
  return "[airlock: no output]";
}

export function summaryMarker(
  shown: number,
  total: number,
  evidenceShown: number,
  evidenceTotal: number,
  next: string | undefined,
): string {
  const evidence =
    evidenceTotal > 0 ? `; evidence ${evidenceShown} of ${evidenceTotal} lines shown` : "";
  const hint = next ? `; ${next}` : "";
  return `[airlock: shown ${shown} of ${total} lines${evidence}${hint}]`;
}

export interface CommandHeader {
  readonly exitCode: number | null | undefined;
  readonly signal: string | null | undefined;
  readonly streams: ReadonlyArray<{
    name: SectionName;
    lines: number;
    bytes: number;
    capped: boolean;
  }>;
}

/** How a command ended, in words: also the message of a failed command's `meta.error`. */
export function commandOutcome(
  exitCode: number | null | undefined,
  signal: string | null | undefined,
): string {
  if (signal != null) return `command killed by ${signal}`;
  if (exitCode == null) return "command exit code unknown";
  return `command exited with code ${exitCode}`;
}

export function commandHeader(header: CommandHeader): string {
  const outcome = commandOutcome(header.exitCode, header.signal);
  const streams = header.streams
    .map((s) => `${s.name} ${s.lines} lines, ${s.capped ? "more than " : ""}${s.bytes} bytes`)
    .join("; ");
  return `[airlock: ${outcome}; ${streams}]`;
}

export function httpHeader(status: number, statusText: string): string {
  return `[airlock: HTTP ${status}${statusText ? ` ${statusText}` : ""}]`;
}
