/**
 * Records read with the one vocabulary of `evidence.ts`: their level and status fields, their
 * error fields, and their text fields (`message`, `msg`, `error`, `log`, …) classified like lines,
 * header levels included. Also the text a record's event template is mined from.
 */
import type { JsonValue, Severity } from "../pipeline/unit.js";
import { anchorScanner, lineClassifier, mayBeEvidence, wordSeverity } from "./evidence.js";
import { MINED_CHARS } from "./signature.js";

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
  // Kubernetes' `status.phase` (Failed), Argo's and Tekton's phases.
  "phase",
]);
/** Level fields that may hold logcat's or glog's single letter (`"E"`, `"W"`). */
const LETTER_FIELDS = new Set(["level", "lvl", "severity", "loglevel", "log_level", "priority"]);

function letterSeverity(v: string): Severity {
  return v === "E" ? 2 : v === "W" ? 1 : v === "F" || v === "A" ? 3 : 0;
}

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

/** Levels below a record's top that are read (`_source.level`, `node.status.conclusion`). */
const DEPTH = 4;
/** Objects of one record read at most (the first ones, breadth first). */
const OBJECTS = 48;
/** Elements of an array inside a record that are read. */
const ELEMENTS = 8;

/**
 * The severity of one record, on the same scale as lines. A string record (a line of text
 * among records) is read like a line; an object by its level, status and error fields and by
 * its text fields, at its top level and in the objects below it, breadth first, a few levels
 * deep (`log.level`, `_source.level`, `status.phase`, `node.checkSuite.conclusion`) and into the
 * first elements of its arrays, within a bound. The classifier holds its own regex state: make
 * one per stream.
 *
 * @example
 * const classify = recordClassifier();
 * classify({ level: "warn", msg: "disk 91% full" }); // 1
 * classify({ msg: "panic: runtime error: index out of range" }); // 3
 */
export function recordClassifier(): (record: JsonValue) => Severity {
  const classifyLine = lineClassifier();
  // Most text fields hold no evidence word: the literal anchors rule them out at scan speed.
  const anchors = anchorScanner();
  const line = (text: string): Severity => (mayBeEvidence(anchors, text) ? classifyLine(text) : 0);
  /** `words`: free-text fields count too (a record's own, and its objects' one level down). */
  const fields = (object: { [key: string]: JsonValue }, words: boolean): Severity => {
    let worst = 0 as Severity;
    const raise = (s: Severity) => {
      if (s > worst) worst = s;
    };
    for (const key of Object.keys(object)) {
      const name = key.toLowerCase();
      const v = object[key];
      if (typeof v === "string") {
        if (LEVEL_FIELDS.has(name)) raise(wordSeverity(v));
        if (LETTER_FIELDS.has(name)) raise(letterSeverity(v));
        if (words && TEXT_FIELDS.has(name))
          raise(line(v.length > TEXT_CHARS ? v.slice(0, TEXT_CHARS) : v));
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
    let worst = 0 as Severity;
    // Breadth first: a record's own fields say most; what is deeper only adds.
    // Free text is read in the record and its objects one level down (`event.message`); below
    // that, and in arrays (a label's description), only level, status and error fields count.
    type Visit = {
      readonly object: { [key: string]: JsonValue };
      readonly depth: number;
      readonly words: boolean;
    };
    const queue: Visit[] = [{ object: record, depth: 0, words: true }];
    for (let at = 0; at < queue.length && at < OBJECTS; at++) {
      const { object, depth, words } = queue[at] as Visit;
      const s = fields(object, words);
      if (s > worst) worst = s;
      if (worst === 3 || depth >= DEPTH) continue;
      for (const key of Object.keys(object)) {
        const v = object[key];
        if (v === null || typeof v !== "object") continue;
        if (!Array.isArray(v)) queue.push({ object: v, depth: depth + 1, words: depth === 0 });
        else
          for (const item of v.slice(0, ELEMENTS))
            if (item !== null && typeof item === "object" && !Array.isArray(item))
              queue.push({ object: item, depth: depth + 1, words: false });
        if (queue.length >= OBJECTS) break;
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

/** Keys of an object record read for its template, at most. */
const TEMPLATE_KEYS = 32;

/**
 * The text a record's event template is mined from: a string record itself; for an object, its
 * top-level fields as `key=value` tokens with its text fields' words after their key, so records
 * of one shape that say the same thing share a template whatever their ids and numbers.
 *
 * @example
 * eventText({ id: 7, level: "info", msg: "In stock" }); // "id=7 level=info msg= In stock"
 */
export function eventText(record: JsonValue): string {
  if (typeof record === "string") return record.slice(0, MINED_CHARS);
  if (record === null || typeof record !== "object" || Array.isArray(record)) {
    return JSON.stringify(record).slice(0, MINED_CHARS);
  }
  let out = "";
  let keys = 0;
  for (const key of Object.keys(record)) {
    if (keys++ >= TEMPLATE_KEYS || out.length >= MINED_CHARS) break;
    const v = record[key];
    const part =
      typeof v === "string"
        ? TEXT_FIELDS.has(key.toLowerCase())
          ? `${key}= ${v.slice(0, MINED_CHARS)}`
          : `${key}=${v.slice(0, 64)}`
        : v === null || typeof v !== "object"
          ? `${key}=${String(v)}`
          : `${key}=${Array.isArray(v) ? "[]" : "{}"}`;
    out += out === "" ? part : ` ${part}`;
  }
  return out.slice(0, MINED_CHARS);
}
