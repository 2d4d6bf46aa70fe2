import { collapseCarriageReturns, stripAnsi } from "../decode/normalize.js";
import type { EvidenceHints } from "../pipeline/flow.js";
import type { JsonValue, Severity } from "../pipeline/unit.js";

/**
 * What makes a line or a record evidence, on one scale (see `Severity`): 3 a crash, 2 an error
 * or failure, 1 a warning or a line that stands out. The line patterns are plain alternations of
 * literals under word boundaries, so the scan is linear in the text; they run once over each
 * decoded chunk, not once per line. Records are read by the same words: their level and status
 * fields, and their text fields classified like lines.
 */
export type { Severity };

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

// Records: level and status fields, error fields, text fields.

const LEVEL_FIELDS = new Set([
  "level",
  "severity",
  "status",
  "state",
  "conclusion",
  "outcome",
  "result",
  "log_level",
  "loglevel",
  "levelname",
  "lvl",
  "severity_text",
  "severitytext",
  "priority",
  "type",
]);
/** Level and status words, by severity. Compared lower-cased and trimmed. */
const FATAL_WORDS = new Set([
  "fatal",
  "emerg",
  "emergency",
  "panic",
  "crashed",
  "critical",
  "crit",
  "alert",
]);
const ERROR_WORDS = new Set([
  "error",
  "err",
  "errored",
  "failed",
  "failure",
  "fail",
  "failing",
  "exception",
  "severe",
  "timed_out",
  "timed out",
  "timedout",
  "timeout",
  "broken",
]);
const WARN_WORDS = new Set(["warn", "warning", "warnings", "deprecated", "degraded"]);
/** Fields whose mere presence (not empty) says the record reports a failure. */
const ERROR_FIELDS = new Set([
  "error",
  "err",
  "exception",
  "errors",
  "error_message",
  "errormessage",
  "stack",
  "stacktrace",
]);
const HTTP_STATUS_FIELDS = new Set([
  "statuscode",
  "status_code",
  "http_status",
  "httpstatus",
  "status",
  "code",
]);
/** Text fields classified like lines: what a record says in words. */
const TEXT_FIELDS = new Set([
  "message",
  "msg",
  "error",
  "log",
  "text",
  "detail",
  "description",
  "summary",
  "reason",
  "exception",
  "err",
]);
/** Characters of a text field that are classified. */
const TEXT_CHARS = 4096;

function wordSeverity(word: string): Severity {
  const w = word.trim().toLowerCase();
  if (FATAL_WORDS.has(w)) return 3;
  if (ERROR_WORDS.has(w)) return 2;
  if (WARN_WORDS.has(w)) return 1;
  return 0;
}

/** Numeric levels: OpenTelemetry severity numbers, syslog severities, pino/bunyan levels. */
function numberSeverity(name: string, v: number): Severity {
  if (name === "severity_number" || name === "severitynumber") {
    // OpenTelemetry: 13–16 WARN, 17–20 ERROR, 21–24 FATAL.
    return v >= 21 && v <= 24 ? 3 : v >= 17 ? (v <= 20 ? 2 : 0) : v >= 13 ? 1 : 0;
  }
  if (name === "severity" || name === "priority") {
    // syslog (RFC 5424): 0 emergency, 1 alert, 2 critical, 3 error, 4 warning.
    if (!Number.isInteger(v) || v < 0 || v > 7) return 0;
    return v <= 2 ? 3 : v === 3 ? 2 : v === 4 ? 1 : 0;
  }
  if (name === "level" || name === "lvl") {
    // pino and bunyan: 40 warn, 50 error, 60 fatal.
    return v >= 60 ? 3 : v >= 50 ? 2 : v >= 40 ? 1 : 0;
  }
  return 0;
}

/**
 * The severity of one record, on the same scale as lines. A string record (a line of text
 * among records) is read like a line; an object by its level, status and error fields and by
 * its text fields, at its top level and one level below (`log.level`, `event.message`).
 * The classifier holds its own regex state: make one per stream.
 *
 * @example
 * const classify = recordClassifier();
 * classify({ level: "warn", msg: "disk 91% full" }); // 1
 * classify({ msg: "panic: runtime error: index out of range" }); // 3
 */
export function recordClassifier(): (record: JsonValue) => Severity {
  const classifyLine = lineClassifier();
  // Most text fields hold no evidence word: the literal anchors rule them out at scan speed.
  const anchors = new RegExp(ANCHOR_SOURCE);
  const line = (text: string): Severity => (anchors.test(text) ? classifyLine(text) : 0);
  const fields = (object: { [key: string]: JsonValue }): Severity => {
    let worst = 0 as Severity;
    const raise = (s: Severity) => {
      if (s > worst) worst = s;
    };
    for (const key of Object.keys(object)) {
      const name = key.toLowerCase();
      const v = object[key];
      if (typeof v === "string") {
        if (LEVEL_FIELDS.has(name)) raise(wordSeverity(v));
        if (TEXT_FIELDS.has(name)) raise(line(v.length > TEXT_CHARS ? v.slice(0, TEXT_CHARS) : v));
        if (ERROR_FIELDS.has(name) && v.trim() !== "") raise(2);
      } else if (typeof v === "number") {
        if (HTTP_STATUS_FIELDS.has(name) && v >= 500 && v <= 599) raise(2);
        else if (LEVEL_FIELDS.has(name) || name === "severity_number" || name === "severitynumber")
          raise(numberSeverity(name, v));
      } else if (ERROR_FIELDS.has(name) && v !== null && v !== false && isPresent(v)) {
        raise(2);
      }
      if (worst === 3) return worst;
    }
    return worst;
  };
  return function classify(record: JsonValue): Severity {
    if (typeof record === "string") {
      return line(record.length > TEXT_CHARS ? record.slice(0, TEXT_CHARS) : record);
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) return 0;
    let worst = fields(record) as Severity;
    if (worst === 3) return worst;
    for (const key of Object.keys(record)) {
      const v = record[key];
      if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        const s = fields(v);
        if (s > worst) worst = s;
        if (worst === 3) break;
      }
    }
    return worst;
  };
}

function isPresent(v: JsonValue): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object" && v !== null) return Object.keys(v).length > 0;
  return true;
}

/**
 * What the line decoder may know of evidence, to skip lines that cannot matter: the anchors,
 * the classifier and the template function of this module.
 */
export function evidenceHints(
  tailChars: number,
  template: EvidenceHints["template"],
): EvidenceHints {
  return { anchors: anchorScanner, classifier: lineClassifier, template, tailChars };
}

/** Level words below any evidence, from the least: they order records in a sort on a level field. */
const QUIET_WORDS: Readonly<Record<string, number>> = {
  trace: -4,
  debug: -3,
  verbose: -3,
  info: -2,
  information: -2,
  ok: -2,
  success: -2,
  passed: -2,
  notice: -1,
};

/**
 * A level word's rank on the evidence scale, with quiet levels below it (trace < debug < info <
 * notice < warn < error < fatal); undefined for a word that is not a level.
 *
 * @example
 * levelRank("WARN"); // 1
 */
export function levelRank(word: string): number | undefined {
  const w = word.trim().toLowerCase();
  const quiet = QUIET_WORDS[w];
  if (quiet !== undefined) return quiet;
  const s = wordSeverity(w);
  return s > 0 ? s : undefined;
}
