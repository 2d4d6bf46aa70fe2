import { collapseCarriageReturns, stripAnsi } from "../decode/normalize.js";

/**
 * What makes a line evidence. Severity 3 is a crash, 2 an error or failure, 1 a warning or a line
 * that stands out. The patterns are plain alternations of literals under word boundaries, so the
 * scan is linear in the text; they run once over each decoded chunk, not once per line.
 */
export type Severity = 0 | 1 | 2 | 3;

const FATAL = [
  String.raw`\bFATAL\b`,
  String.raw`\b[Ff]atal(?: error)?:`,
  String.raw`\bPANIC\b`,
  String.raw`\bpanic(?:ked)?\b`,
  String.raw`Traceback \(most recent call last\)`,
  "Segmentation fault",
  String.raw`\bsegfault\b`,
  "core dumped",
  String.raw`\bOOMKilled\b`,
  String.raw`\b(?:OOM|[Oo]om)[- ]?[Kk]ill(?:ed|er)?\b`,
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
  // "0 failed" is a passing summary, not a failure.
  String.raw`(?<!\b0 )\bFAIL(?:ED|URE|S)?\b`,
  String.raw`(?<!\b0 )\b[Ff]ail(?:ed|ure|s)\b`,
  String.raw`^\s*Caused by\b`,
  String.raw`\bERR!`,
  String.raw`\bnon-zero exit\b`,
  String.raw`\bexit(?:ed)?(?: with)?(?: status| code)? [1-9]\d*\b`,
  String.raw`\bexit status [1-9]\d*\b`,
  String.raw`HTTP/\d(?:\.\d)?" 5\d\d\b`,
  String.raw`\b(?:Bad Gateway|Service Unavailable|Gateway Time-?out)\b`,
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

/** Source of the line classifier: one group per severity, so a match says which it was. */
const EVIDENCE_SOURCE = `(${FATAL.join("|")})|(${ERROR.join("|")})|(${NOTICE.join("|")})`;

/**
 * Literal fragments, at least one of which occurs in every match of EVIDENCE_SOURCE (a test checks
 * this). A regex of plain literals lets V8 skip through ordinary text at memory speed; only the
 * lines where a fragment occurs are then classified with the full pattern. Ordinary log text
 * seldom contains any of them, so the full pattern runs on a tiny fraction of the input.
 */
export const EVIDENCE_ANCHORS: readonly string[] = [
  "rror",
  "RROR",
  "ail",
  "AIL",
  "xception",
  "atal",
  "ATAL",
  "anic",
  "ANIC",
  "raceback",
  "egmentation",
  "egfault",
  "core dumped",
  "OOM",
  "oom",
  "Oom",
  "Bad Gateway",
  "Unavailable",
  "Gateway Time",
  "ut of memory",
  "nhandled",
  "ncaught",
  "RITICAL",
  "EMERG",
  "ERR!",
  "ARN",
  "arning",
  "eprecat",
  "EPRECAT",
  "imed out",
  "IMEOUT",
  "Caused by",
  "exit",
  "non-zero",
  "HTTP/",
  "✗",
  "✖",
  "❌",
  "borted",
  "illed",
];

const ANCHOR_SOURCE = EVIDENCE_ANCHORS.map((a) => a.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join(
  "|",
);

/** Finds lines worth classifying. Each decoder owns one, so no `lastIndex` is shared. */
export function anchorScanner(): RegExp {
  return new RegExp(ANCHOR_SOURCE, "g");
}

/**
 * Severity of one line: the highest severity of any evidence match in it (0 when none).
 * The pattern is compiled per classifier so no global `lastIndex` is ever shared.
 */
export function lineClassifier(): (line: string) => Severity {
  const pattern = new RegExp(EVIDENCE_SOURCE, "gm");
  return function classify(raw: string): Severity {
    // Classify what will be shown: colour codes hide word boundaries ("\x1b[31mERROR"), and a
    // redrawn line shows only its last state.
    let line = raw;
    if (line.includes("\x1b") || line.includes("\x9b")) line = stripAnsi(line);
    if (line.includes("\r"))
      line = collapseCarriageReturns(line.endsWith("\r") ? line.slice(0, -1) : line);
    pattern.lastIndex = 0;
    let severity: Severity = 0;
    for (let m = pattern.exec(line); m !== null; m = pattern.exec(line)) {
      const sev: Severity = m[1] !== undefined ? 3 : m[2] !== undefined ? 2 : 1;
      if (sev > severity) severity = sev;
      if (severity === 3) break;
      if (m[0].length === 0) pattern.lastIndex++;
    }
    return severity;
  };
}

// Lines that continue a stack trace or a compiler diagnostic belong to the error above them.
const CONTINUATION =
  /^(?:\s+at\s|\s+File "|\s*\.\.\. \d+ (?:more|common frames)|\s*Caused by\b|\s+-->|\s*\d*\s*\|(?!\|)|\s+\^|\s*= (?:note|help):|\s+\S+\.(?:go|rs|py|js|ts|java|kt|rb|cs|cpp|c|h):\d+|goroutine \d+|\s{4,}\S|\t\S)/;

/** True when a line is part of the stack trace or diagnostic that precedes it. */
export function continuesEvidence(line: string): boolean {
  return CONTINUATION.test(line);
}
