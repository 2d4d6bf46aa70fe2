/**
 * What makes a line evidence. Severity 3 is a crash, 2 an error or failure, 1 a warning or a line
 * that stands out. The patterns are plain alternations of literals under word boundaries, so the
 * scan is linear in the text; they run once over each decoded chunk, not once per line.
 */
export const SEVERITY = { none: 0, notice: 1, error: 2, fatal: 3 } as const;
export type Severity = 0 | 1 | 2 | 3;

const FATAL = [
  String.raw`\bFATAL\b`,
  String.raw`\b[Ff]atal(?: error)?:`,
  String.raw`\bPANIC\b`,
  String.raw`\bpanic(?:ked)?\b`,
  String.raw`Traceback \(most recent call last\)`,
  "Segmentation fault",
  "core dumped",
  String.raw`\bOOMKilled\b`,
  String.raw`\b[Oo]ut of memory\b`,
  String.raw`\bOutOfMemoryError\b`,
  String.raw`\bUnhandled(?:PromiseRejection| exception| rejection)`,
  String.raw`\bUncaught\b`,
  String.raw`\bCRITICAL\b`,
  String.raw`\bEMERG(?:ENCY)?\b`,
];

const ERROR = [
  String.raw`\bERROR\b`,
  String.raw`\b[Ee]rror\b`,
  String.raw`\berror\[E\d+\]`,
  String.raw`\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b`,
  String.raw`\b[Ee]xception\b`,
  String.raw`\bFAIL(?:ED|URE|S)?\b`,
  String.raw`\b[Ff]ail(?:ed|ure|s)\b`,
  String.raw`^\s*Caused by\b`,
  String.raw`\bERR!`,
  String.raw`\bnon-zero exit\b`,
  String.raw`\bexit(?:ed)?(?: with)?(?: status| code)? [1-9]\d*\b`,
  String.raw`\bexit status [1-9]\d*\b`,
  String.raw`HTTP/\d(?:\.\d)?" 5\d\d\b`,
  "[✗✖❌]",
  String.raw`\bAborted\b`,
  String.raw`\bKilled\b`,
];

const NOTICE = [
  String.raw`\bWARN(?:ING)?\b`,
  String.raw`\b[Ww]arning\b`,
  String.raw`\b[Dd]eprecat(?:ed|ion)\b`,
  String.raw`\bDEPRECATED\b`,
  String.raw`\b[Tt]imed out\b`,
  String.raw`\bTIMEOUT\b`,
];

/** Source of the chunk scanner: one group per severity, so a match says which it was. */
export const EVIDENCE_SOURCE = `(${FATAL.join("|")})|(${ERROR.join("|")})|(${NOTICE.join("|")})`;

/** A fresh scanner. Each decoder owns one, so no `lastIndex` is ever shared between shapes. */
export function evidenceScanner(): RegExp {
  return new RegExp(EVIDENCE_SOURCE, "gm");
}

/** Severity of a single match of the scanner. */
export function severityOf(match: RegExpExecArray): Severity {
  if (match[1] !== undefined) return 3;
  if (match[2] !== undefined) return 2;
  return 1;
}

// Lines that continue a stack trace or a compiler diagnostic belong to the error above them.
const CONTINUATION =
  /^(?:\s+at\s|\s+File "|\s*\.\.\. \d+ (?:more|common frames)|\s*Caused by\b|\s+-->|\s*\d*\s*\|(?!\|)|\s+\^|\s*= (?:note|help):|\s+\S+\.(?:go|rs|py|js|ts|java|kt|rb|cs|cpp|c|h):\d+|goroutine \d+|\s{4,}\S|\t\S)/;

/** True when a line is part of the stack trace or diagnostic that precedes it. */
export function continuesEvidence(line: string): boolean {
  return CONTINUATION.test(line);
}
