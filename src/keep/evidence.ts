import { collapseCarriageReturns, stripAnsi } from "../decode/normalize.js";
import type { EvidenceHints } from "../pipeline/flow.js";
import type { Severity } from "../pipeline/unit.js";

/**
 * What makes a line or a record evidence, on one scale (see `Severity`): 3 a crash, 2 an error
 * or failure, 1 a warning or a line that stands out. One vocabulary for every format: the words
 * a line says anywhere (plain alternations of literals under word boundaries, so the scan is
 * linear), the level its header gives (a syslog or log4j level column, logcat's letter, a level
 * after a component name, Apache's `[error]`, a `<3>` priority), and the level and status words of
 * records (`record-evidence.ts` reads records with this vocabulary).
 */
export type { Severity };

const FATAL = [
  String.raw`\bFATAL\b`,
  String.raw`(?<!non-)\b[Ff]atal\b`,
  String.raw`\bPANIC\b`,
  String.raw`\b[Pp]anic(?:ked)?\b`,
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
  // "0 errors" and "no errors" are a clean summary, not a failure.
  String.raw`(?<!(?:^|\s)(?:0|[Nn]o) )\b(?:[Ee]rrors|ERRORS)\b`,
  String.raw`\berror\[E\d+\]`,
  String.raw`\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Fail(?:ed|ure)?)\b`,
  String.raw`\b[Ee]xception\b`,
  // A non-zero error code: err=-12785.
  String.raw`\berr=-?[1-9]`,
  // "0 failed" is a passing summary, not a failure.
  String.raw`(?<!(?:^|\s)0 )\bFAIL(?:ED|URES?|S)?\b`,
  String.raw`(?<!(?:^|\s)0 )\b[Ff]ail(?:ed|ures?|s|ing)?\b`,
  String.raw`^\s*Caused by\b`,
  String.raw`\bERR!`,
  String.raw`\bnon-zero exit\b`,
  String.raw`\bexit(?:ed)?(?: with)?(?: status| code)? [1-9]\d*\b`,
  String.raw`\bexit status [1-9]\d*\b`,
  String.raw`HTTP/\d(?:\.\d)?" 5\d\d\b`,
  String.raw`\b(?:Bad Gateway|Service Unavailable|Gateway Time-?out)\b`,
  "[✗✖❌]",
  String.raw`\b(?:[Aa]bort(?:ed|ing|s)?|ABORT(?:ED)?)\b`,
  String.raw`\bKilled\b`,
  String.raw`\b(?:[Dd]enied|[Rr]efused)\b`,
];

const NOTICE = [
  String.raw`\bWARN(?:ING)?\b`,
  String.raw`\b[Ww]arn(?:ing|ed|s)?\b`,
  String.raw`\b[Dd]eprecat(?:ed|ion)\b`,
  String.raw`\bDEPRECATED\b`,
  String.raw`\b[Tt]imed out\b`,
  String.raw`\b(?:[Tt]imeouts?|TIMEOUT)\b`,
];

/**
 * The line classifier's words: one pattern with a group per severity, so its first match says
 * which it was, and one per severity above the lowest, for a higher word later in a line whose
 * first was milder. None is global or sticky: `exec` and `test` read and write no `lastIndex`, so
 * the patterns are shared by every call with no state between them (compiling a pattern of a
 * thousand characters costs about a microsecond, per call).
 */
const WORDS = new RegExp(`(${FATAL.join("|")})|(${ERROR.join("|")})|(${NOTICE.join("|")})`, "m");
const FATAL_WORDS_RE = new RegExp(FATAL.join("|"), "m");
const ERROR_WORDS_RE = new RegExp(ERROR.join("|"), "m");

/** The highest severity of any evidence word in `line`: one scan for a line with none. */
function wordsSeverity(line: string): Severity {
  const m = WORDS.exec(line);
  if (m === null) return 0;
  if (m[1] !== undefined || FATAL_WORDS_RE.test(line)) return 3;
  return m[2] !== undefined || ERROR_WORDS_RE.test(line) ? 2 : 1;
}

/**
 * Literal fragments, at least one of which occurs in every line the classifier flags, apart from
 * the line-start layouts below (a test checks this). A regex of plain literals lets V8 skip
 * through ordinary text at memory speed; only the lines where a fragment occurs are then
 * classified in full. Ordinary log text seldom contains any of them. The scan's speed depends
 * most on the set of first characters: every fragment starts with a character another one
 * already starts with (`alert`, not `lert`), and fragments starting with a space or a newline
 * (the slowest) are added only for a log whose layout needs them (`anchorScanner`).
 */
export const EVIDENCE_ANCHORS: readonly string[] = [
  "rror",
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
  "CRIT",
  "crit",
  "Crit",
  "EMERG",
  "emerg",
  "Emerg",
  "alert",
  "Alert",
  "ALERT",
  "EVERE",
  "ERR",
  "err=",
  "ARN",
  "arn",
  "eprecat",
  "EPRECAT",
  "imed out",
  "imeout",
  "IMEOUT",
  "Caused by",
  "exit",
  "non-zero",
  "HTTP/",
  "✗",
  "✖",
  "❌",
  "bort",
  "BORT",
  "illed",
  "enied",
  "efused",
];

const literal = (a: string) => a.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const ANCHOR_SOURCE = EVIDENCE_ANCHORS.map(literal).join("|");

/**
 * Layouts whose level is a letter or a number at a fixed place near the line start, found by
 * no word: each with the test a line of that layout passes, and the anchor (a regex piece over
 * the decoded text, where lines follow newlines) that finds its severe lines.
 */
const LAYOUTS: ReadonlyArray<{
  readonly line: RegExp;
  readonly anchor: string;
  /** What a line of the layout has that most lines do not: tested first, as it is cheaper. */
  readonly has: RegExp;
}> = [
  // syslog and kernel priorities: <3>, <11>, <134>1 (RFC 5424).
  { has: /^</, line: /^<\d{1,3}>/, anchor: String.raw`\n<\d` },
  // glog: E0612 12:00:00.000000 ...
  { has: /^[IWEF]/, line: /^[IWEF]\d{4} \d\d:\d\d:\d\d/, anchor: String.raw`\n[WEF]\d{4} ` },
  // logcat brief: E/ActivityManager( 123): ...
  { has: /^[VDIWEFA]\//, line: /^[VDIWEFA]\/[^\s(:]+/, anchor: String.raw`\n[WEFA]\/` },
  // logcat threadtime and other level-letter columns: 01-01 12:00:00.000  123  456 E Tag: ...
  {
    has: /\s[VDIWEFA]\s/,
    line: /^(?:[^\s\d]*\d\S*\s+){2,6}[VDIWEFA]\s/,
    anchor: String.raw`[ \t][WEFA][ \t]`,
  },
];

/** Lines of a sample looked at to tell its layout. */
const LAYOUT_SAMPLE = 64;

/** The layout anchors a sample of the text calls for: those at least a quarter of its lines fit. */
function layoutAnchors(sample: string): string[] {
  const lines: string[] = [];
  let at = 0;
  while (lines.length < LAYOUT_SAMPLE && at < sample.length) {
    let nl = sample.indexOf("\n", at);
    if (nl === -1) nl = sample.length;
    const line = sample.slice(at, Math.min(nl, at + 256));
    if (NON_BLANK.test(line)) lines.push(line);
    at = nl + 1;
  }
  if (lines.length === 0) return [];
  return LAYOUTS.filter((l) => {
    let fit = 0;
    for (const line of lines) if (l.has.test(line) && l.line.test(line)) fit++;
    return fit * 4 >= lines.length;
  }).map((l) => l.anchor);
}

const NON_BLANK = /\S/;

/**
 * Finds lines worth classifying. Each decoder owns one, so no `lastIndex` is shared. Given a
 * sample of the text (its first chunk), the anchors of its layout are added.
 */
export function anchorScanner(sample?: string): RegExp {
  const extra = sample === undefined ? [] : layoutAnchors(sample);
  return new RegExp([ANCHOR_SOURCE, ...extra].join("|"), "g");
}

/** A line start that only a layout anchor finds: records' text fields are checked for it. */
export const LAYOUT_START =
  /^(?:<\d{1,3}>|[IWEF]\d{4} \d|[VDIWEFA]\/\S|(?:[^\s\d]*\d\S*\s+){2,6}[VDIWEFA]\s)/;

/** True when `text` may hold evidence: an anchor, or a line start of a level layout. */
export function mayBeEvidence(anchors: RegExp, text: string): boolean {
  anchors.lastIndex = 0;
  return anchors.test(text) || LAYOUT_START.test(text);
}

// The level vocabulary: level and status words, by severity. Compared lower-cased and trimmed.

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
  "denied",
  "refused",
  "aborted",
]);
const WARN_WORDS = new Set(["warn", "warning", "warnings", "deprecated", "degraded"]);
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
/** The words a log header uses as its level column (a subset of the vocabulary above). */
const HEADER_LEVELS = new Set([
  "fatal",
  "emerg",
  "emergency",
  "panic",
  "critical",
  "crit",
  "alert",
  "severe",
  "error",
  "err",
  "warn",
  "warning",
  "trace",
  "debug",
  "verbose",
  "info",
  "information",
  "notice",
]);

/** True when `word` is a level a log header uses (`INFO`, `warn`, `[error]` without brackets). */
export function isLevelWord(word: string): boolean {
  return HEADER_LEVELS.has(word.toLowerCase());
}

/**
 * The severity a level or status word names (`"ERROR"` 2, `"crit"` 3, `"degraded"` 1), 0 for
 * any other word.
 *
 * @example
 * wordSeverity("Warning"); // 1
 */
export function wordSeverity(word: string): Severity {
  const w = word.trim().toLowerCase();
  if (FATAL_WORDS.has(w)) return 3;
  if (ERROR_WORDS.has(w)) return 2;
  if (WARN_WORDS.has(w)) return 1;
  return 0;
}

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

/** Month and weekday names: header tokens, part of a date. */
const DATE_TOKEN =
  /^[[(]?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[,\])]?$/i;

/** Logcat's and glog's level letters. */
const LETTERS: Readonly<Record<string, Severity>> = { V: 0, D: 0, I: 0, W: 1, E: 2, F: 3, A: 3 };

const HEADER_CHARS = 200;
const HEADER_TOKENS = 8;
const PRI = /^<(\d{1,3})>/;
const KEY_LEVEL = /^(?:level|lvl|severity|loglevel|log_level)=["']?([A-Za-z]+)["']?$/i;
const GLOG = /^([IWEF])\d{4} \d\d:\d\d:\d\d/;
const BRIEF = /^([VDIWEFA])\/[^\s(:]+/;

/** syslog severities 0–7: emergency, alert and critical are crashes; error; warning. */
function prioritySeverity(pri: number): Severity {
  const s = pri & 7;
  return s <= 2 ? 3 : s === 3 ? 2 : s === 4 ? 1 : 0;
}

function hasDigit(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/**
 * The level a line's header gives, or -1 when it names none: a `<3>` priority, a glog or logcat
 * letter, or a level word in the header. A level word counts in brackets (`[error]`), as the first
 * token when it is upper case or ends with a colon (`SEVERE: …`), after header tokens (times,
 * numbers, bracketed fields, at most one plain word such as a host) that include a number, or
 * after a component name that ends with a colon (`kernel: alert: …`).
 */
export function headerLevel(line: string): Severity | -1 {
  const first = line.charCodeAt(0);
  if (first === 60) {
    const m = PRI.exec(line);
    if (m) return prioritySeverity(Number(m[1]));
  }
  const letter = GLOG.exec(line) ?? BRIEF.exec(line);
  if (letter) return LETTERS[letter[1] as string] as Severity;
  const end = Math.min(line.length, HEADER_CHARS);
  let i = 0;
  let digits = 0;
  let plain = 0;
  let afterComponent = false;
  for (let k = 0; k < HEADER_TOKENS && i < end; k++) {
    while (i < end && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
    if (i >= end) break;
    const from = i;
    while (i < end && line.charCodeAt(i) !== 32 && line.charCodeAt(i) !== 9) i++;
    const token = line.slice(from, i);
    const opens = /^[[(<]/.test(token);
    const closes = /[\])>][:,|]?$/.test(token);
    const core = token.replace(/^[[(<]+/, "").replace(/[\])>:,|]+$/, "");
    const colon = token.endsWith(":");
    const header = plain === 0 || (plain === 1 && digits > 0);
    // A level letter after two to six numeric tokens (dates, times, ids), then a space.
    if (k >= 2 && k <= 6 && digits === k && token.length === 1 && i < line.length && first > 32) {
      const s = LETTERS[token];
      if (s !== undefined) return s;
    }
    // logfmt: level=crit, lvl=warn.
    const kv = KEY_LEVEL.exec(token);
    if (kv) {
      const word = (kv[1] as string).toLowerCase();
      if (HEADER_LEVELS.has(word) && word !== "err" && word !== "severe") return wordSeverity(word);
    }
    const lower = core.toLowerCase();
    // `err` and `severe` count in upper case only: no anchor finds the others.
    const anchored = (lower !== "err" && lower !== "severe") || core === core.toUpperCase();
    if (HEADER_LEVELS.has(lower) && isLevelCase(core) && anchored) {
      const upper = core === core.toUpperCase();
      const placed =
        (opens && closes) ||
        (k === 0 && (upper || colon)) ||
        (header && digits > 0) ||
        (afterComponent && (upper || colon));
      if (placed) return wordSeverity(lower);
    }
    if (hasDigit(token)) digits++;
    else if (!(opens || closes || colon || DATE_TOKEN.test(token) || /^[-|]$/.test(token))) plain++;
    afterComponent = colon || token.endsWith("]:") || token.endsWith("]");
    if (plain > 1 && !afterComponent) break;
  }
  return -1;
}

/** `error`, `ERROR` and `Error` are levels; `eRRor` is not. */
function isLevelCase(word: string): boolean {
  const lower = word.toLowerCase();
  return (
    word === lower ||
    word === word.toUpperCase() ||
    word === lower.charAt(0).toUpperCase() + lower.slice(1)
  );
}

/**
 * Severity of one line: the highest of any evidence word in it and of its header's level (0 when
 * none).
 *
 * @example
 * lineClassifier()("Jun 14 15:16:01 host kernel: alert: CPU0 temperature above threshold"); // 3
 */
export function lineClassifier(): (line: string) => Severity {
  return function classify(raw: string): Severity {
    // Classify what will be shown: colour codes hide word boundaries ("\x1b[31mERROR"), and a
    // redrawn line shows only its last state.
    let line = raw;
    if (line.includes("\x1b") || line.includes("\x9b")) line = stripAnsi(line);
    if (line.includes("\r"))
      line = collapseCarriageReturns(line.endsWith("\r") ? line.slice(0, -1) : line);
    const severity = wordsSeverity(line);
    if (severity === 3) return severity;
    const level = headerLevel(line);
    return level > severity ? (level as Severity) : severity;
  };
}

/** What the line decoder may know of evidence, to skip lines that cannot matter. */
export function evidenceHints(tailChars: number): EvidenceHints {
  return { anchors: anchorScanner, classifier: lineClassifier, tailChars };
}
