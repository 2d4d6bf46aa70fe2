import { stripAnsi } from "../decode/normalize.js";
import { stripInvisible } from "./invisible.js";

/**
 * Scrubbing: turns the message of a thrown error into one line a model may read. Error messages
 * are written for the developer: they carry stack frames, absolute paths (user names, deploy
 * layout), SQL text, internal host names and addresses, and sometimes credentials. What is removed
 * is replaced by a short placeholder, so the reader knows something was there:
 * `<stack>`, `<sql>`, `<url>`, `<path>`, `<host>`, `[REDACTED:<rule>]`.
 *
 * Every pattern runs on at most `WORK_LIMIT` characters of one line, and each is a single pass of
 * character classes without nested quantifiers, so the work is bounded whatever is thrown.
 */

/** Characters of a message searched for its meaningful line. */
const SCAN_LIMIT = 64 * 1024;
/** Characters of the chosen line that are scrubbed (the rest is cut at a word boundary). */
const WORK_LIMIT = 2000;

// --- choosing the line --------------------------------------------------------------------------

// JS and Java frames: "at fn (file:1:2)", "at file:1:2", "at com.x.Y.m(Y.java:12)",
// "at Array.map (<anonymous>)", C# "at N.C.M() in C:\x.cs:line 4"; the line must end like a frame,
// so "at least 3 items required" is not one.
const FRAME_LINE = new RegExp(
  [
    String.raw`^\s*at\s+.*\((?:[^()]*:\d+(?::\d+)?|Native Method|Unknown Source|<anonymous>|native|index \d+)\)\s*$`,
    String.raw`^\s*at\s+\S*:\d+:\d+\s*$`,
    String.raw`^\s*at\s.*\sin\s.*:line \d+\s*$`,
    String.raw`^\s+at\s+[\w$.<>\x60\[\],/]+\(.*\)\s*$`,
    String.raw`^\s*\.\.\. \d+ (?:more|common frames omitted)\s*$`,
    // Python: File "x.py", line 3, in f
    String.raw`^\s*File\s+"[^"]*",\s+line\s+\d+`,
    // Go: /src/main.go:12 +0x1d; Rust: "  12: std::rt::lang_start"
    String.raw`^\s*\S*\.go:\d+(?:\s+\+0x[0-9a-fA-F]+)?\s*$`,
    String.raw`^\s+\d+:\s+\S`,
  ].join("|"),
);
/** After one of these headers everything is trace (Go, Rust, Node's own "Error stack:"). */
const TRACE_HEADER = /^\s*(?:goroutine \d+ \[|stack backtrace:|Stack trace:|Stacktrace:)/i;
const PY_TRACEBACK = /^\s*Traceback \(most recent call last\)/;
const PY_CHAIN =
  /^(?:During handling of the above exception|The above exception was the direct cause)/;
const PUNCTUATION_ONLY = /^[\s[\]{}(),;:'"`.]*$/;

/**
 * The line of a message that says what went wrong: the first line that is not a stack frame,
 * or, in a Python traceback, the last exception line (Python prints the exception after the
 * frames). Messages longer than `SCAN_LIMIT` are searched in their first `SCAN_LIMIT` characters.
 */
export function meaningfulLine(message: string): string {
  let text = message.length > SCAN_LIMIT ? message.slice(0, SCAN_LIMIT) : message;
  // A cut between the halves of a surrogate pair leaves a lone half: drop it.
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  let traceback = false;
  let exceptionLine = "";
  let at = 0;
  while (at <= text.length) {
    let end = text.indexOf("\n", at);
    if (end === -1) end = text.length;
    const raw = text.slice(at, end).replace(/\r$/, "");
    at = end + 1;
    const line = raw.trim();
    if (line === "" || PUNCTUATION_ONLY.test(line)) continue;
    if (PY_TRACEBACK.test(line)) {
      traceback = true;
      continue;
    }
    if (TRACE_HEADER.test(line)) {
      if (traceback) continue;
      break;
    }
    // A frame is short; longer lines are not tested (the patterns backtrack on long lines).
    if (raw.length <= 1000 && FRAME_LINE.test(raw)) continue;
    if (!traceback) return line;
    // In a traceback, indented lines are source lines under a frame; the exception line is not.
    if (/^\s/.test(raw) || PY_CHAIN.test(line)) continue;
    exceptionLine = line;
  }
  return exceptionLine;
}

// --- scrubbing the line -------------------------------------------------------------------------

const INLINE_FRAMES = new RegExp(
  [
    // JS: at fn (file:1:2) / at async fn (<anonymous>) / at file:1:2
    String.raw`\bat\s+(?:async\s+|new\s+)?(?:[^\s()]+\s+)?\((?:[^()\s]*:\d+(?::\d+)?|<anonymous>|native)\)`,
    String.raw`\bat\s+[^\s()]*[A-Za-z/][^\s()]*:\d+:\d+`,
    // Java: at com.x.Y.m(Y.java:12)
    String.raw`\bat\s+[\w$./<>]+\((?:[\w$.-]+:\d+|Native Method|Unknown Source)\)`,
    // Python: File "x.py", line 3, in f
    String.raw`File\s+"[^"\n]*",\s+line\s+\d+(?:,\s+in\s+[^\s,]+)?`,
    // Go: /src/x.go:12 +0x1d
    String.raw`\S*\.go:\d+(?:\s+\+0x[0-9a-fA-F]+)?`,
  ].join("|"),
  "g",
);

// The start of an SQL statement, shaped enough that prose ("select a file from the list") is not.
const SQL_START = new RegExp(
  [
    String.raw`\bSELECT\s+(?:\*|DISTINCT\b|TOP\s+\d|\w+\s*\(|[\w."\x60\[\]]+\s*(?:,|\bAS\b|\bFROM\b))`,
    String.raw`\bINSERT\s+INTO\b`,
    String.raw`\bUPDATE\s+[\w."\x60\[\]]+\s+SET\b`,
    String.raw`\bDELETE\s+FROM\b`,
    String.raw`\b(?:CREATE|DROP|ALTER|TRUNCATE)\s+(?:TABLE|INDEX|VIEW|DATABASE|SCHEMA|SEQUENCE|FUNCTION|PROCEDURE|TRIGGER|USER|ROLE)\b`,
    String.raw`\bWITH\s+(?:RECURSIVE\s+)?[\w"]+\s+AS\s*\(`,
    String.raw`\bMERGE\s+INTO\b`,
  ].join("|"),
  "i",
);
// MySQL: "... near 'FROM users WHERE id = 1' at line 1": the quoted text is SQL.
const MYSQL_NEAR = /\bnear\s+'.*'(?=\s+at\s+line\s+\d+)/gi;

/**
 * Replaces each SQL statement with `<sql>`. A statement runs to the end of the line, except that
 * it stops at the closing quote when it was opened by a quote, and before the last " - " (the
 * separator knex and others put between the statement and the database's message). Fail closed:
 * when unsure, more is removed, never less.
 */
function stripSql(line: string): string {
  let rest = line.replace(MYSQL_NEAR, "near <sql>");
  let out = "";
  for (let m = SQL_START.exec(rest); m !== null; m = SQL_START.exec(rest)) {
    const start = m.index;
    const quote = rest.charAt(start - 1);
    let end = rest.length;
    if (quote === '"' || quote === "'" || quote === "`") {
      const close = rest.lastIndexOf(quote);
      if (close > start) end = close;
    } else {
      const sep = rest.lastIndexOf(" - ");
      if (sep > start) end = sep;
    }
    out += `${rest.slice(0, start)}<sql>`;
    rest = rest.slice(end);
  }
  return out + rest;
}

const URL_PATTERN = /\b[A-Za-z][A-Za-z0-9+.-]{1,15}:\/\/[^\s"'<>`]*/g;
// C:\Users\bob\My Files\x.txt (segments may hold single spaces; the last one may not), C:/x, UNC.
const WINDOWS_PATH =
  /(?<![\w])[A-Za-z]:[\\/](?:[^\\/\s"'<>|*?]+(?: [^\\/\s"'<>|*?]+)*[\\/])*[^\\/\s"'<>|*?,;)]*/g;
const UNC_PATH = /\\\\[^\s\\"'<>|]+\\[^\s"'<>|]*/g;
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(
  `(?<![\\w.])(?:${OCTET}\\.){3}${OCTET}(?:/\\d{1,2})?(?::\\d{1,5})?(?!\\w|\\.\\d)`,
  "g",
);
const H = "[0-9A-Fa-f]{1,4}";
// Full (eight groups) or compressed (with "::" and at least one group), with a zone.
const IPV6_BODY = `(?:(?:${H}:){7}${H}|(?:${H}(?::${H}){0,6})?::${H}(?::${H}){0,6}|${H}(?::${H}){0,6}::)(?:%[\\w.-]+)?`;
const IPV6_BRACKETED = new RegExp(`\\[${IPV6_BODY}\\](?::\\d{1,5})?`, "g");
const IPV6 = new RegExp(`(?<![\\w:.])${IPV6_BODY}(?![\\w:])`, "g");
// Names that only resolve inside a network: cluster, cloud-internal and LAN suffixes.
const INTERNAL_HOST =
  /(?<![\w.-])(?:[A-Za-z0-9-]+\.)+(?:internal|local|localdomain|lan|corp|intranet|intra|home\.arpa|svc|consul|(?:rds|cache|elb|es)\.amazonaws\.com|database\.windows\.net)(?![\w-])/gi;
const LOCALHOST = /(?<![\w.-])localhost(?![\w-])/gi;
// The name after a failed lookup ("getaddrinfo ENOTFOUND db-primary", curl's "resolve host: x").
const LOOKUP_HOST = /\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME|resolve host:?)(\s+)[^\s'",;)\]]+/gi;
// host='db', hostname: x, endpoint=x
const HOST_FIELD =
  /\b(host(?:name)?|host_name|server_name|endpoint|upstream)(\s*[=:]\s*)(['"]?)[^\s'",;)}\]]+/gi;
// name:port (a name starting with a letter, so times and line:column pairs are left alone).
const HOST_PORT = /(?<![\w.\-/:])[A-Za-z][\w.-]*:\d{2,5}(?![\w:])/g;
// /home/bob/x, ~/x; not the "/b" of "a/b" (a relative path or a fraction), nor the "/x" of a
// closing tag ("</untrusted-data …>": a shaped result's fence, shaped again).
const POSIX_PATH = /(?<![\w.~\-/\\@<])~?\/(?=[^\s/])[^\s"'`()[\]{}<>,;|]*[^\s"'`()[\]{}<>,;|.:!?]/g;

function scrubLine(input: string): string {
  let line = input.replace(INLINE_FRAMES, "<stack>");
  line = stripSql(line);
  line = line.replace(URL_PATTERN, (url) => (/^file:/i.test(url) ? "<path>" : "<url>"));
  line = line.replace(WINDOWS_PATH, "<path>").replace(UNC_PATH, "<path>");
  line = line.replace(IPV6_BRACKETED, "<host>").replace(IPV4, "<host>").replace(IPV6, "<host>");
  line = line.replace(INTERNAL_HOST, "<host>").replace(LOCALHOST, "<host>");
  line = line.replace(LOOKUP_HOST, "$1$2<host>").replace(HOST_FIELD, "$1$2$3<host>");
  line = line.replace(HOST_PORT, "<host>").replace(/<host>:\d{1,5}(?!\d)/g, "<host>");
  line = line.replace(POSIX_PATH, "<path>");
  // A run of frames is one placeholder.
  return line.replace(/<stack>(?:[\s,;]*<stack>)+/g, "<stack>");
}

/** Cuts text to `limit` UTF-16 units without splitting a surrogate pair, marking the cut. */
export function capText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let cut = limit - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut--;
  return `${text.slice(0, cut).trimEnd()}…`;
}

/**
 * Scrubs one message into a single safe line: picks its meaningful line, removes invisible and
 * control characters, stack frames, SQL, URLs, paths, addresses and internal host names, and
 * redacts secrets before and after (so no rewrite can hide a secret from `redact`). Returns ""
 * when nothing readable is left.
 *
 * @example
 * scrubMessage('connect ECONNREFUSED 10.0.3.7:5432 at f (/srv/app/db.js:1:2)', (t) => redact(t).text);
 * // "connect ECONNREFUSED <host> <stack>"
 */
export function scrubMessage(message: string, redact: (text: string) => string): string {
  // Colour codes go as whole sequences first: an ESC removed alone leaves "[31m" glued to the
  // next word, which hides a token from the rules.
  let line = stripInvisible(stripAnsi(meaningfulLine(stripAnsi(message)))).text;
  line = line.replace(/\s+/g, " ").trim();
  if (line.length > WORK_LIMIT) {
    // Cut at a space, so no half token (half a secret, half a path) reaches the patterns.
    const space = line.lastIndexOf(" ", WORK_LIMIT);
    line = space > 0 ? line.slice(0, space) : "";
  }
  line = redact(line);
  line = scrubLine(line);
  line = redact(line);
  return line.replace(/\s+/g, " ").trim();
}

/** Lines of airlock's own (markers): scrubbing leaves them as they are. */
const MARKER_LINE = /^\[airlock: /;

/**
 * Error shaping for a whole text the host said is the tool's error (`toolError`, MCP
 * `isError`): every line is kept, but a run of stack frames becomes one `<stack>` line and every
 * other line loses its inline frames, SQL, URLs, paths, addresses and internal host names, as a
 * message does. Markers are left alone. A line longer than the scrubbed window is scrubbed a
 * window at a time, cut at a space, so the work stays linear in the text.
 *
 * @example
 * scrubErrorText("Error: connect ECONNREFUSED 10.0.3.7:5432\n    at f (/srv/app/db.js:1:2)");
 * // "Error: connect ECONNREFUSED <host>\n<stack>"
 */
export function scrubErrorText(text: string): string {
  const out: string[] = [];
  let frames = false;
  for (const line of text.split("\n")) {
    if (MARKER_LINE.test(line)) {
      out.push(line);
      frames = false;
    } else if (line.length <= 1000 && FRAME_LINE.test(line)) {
      if (!frames) out.push("<stack>");
      frames = true;
    } else {
      out.push(scrubWindows(line));
      frames = false;
    }
  }
  return out.join("\n");
}

function scrubWindows(line: string): string {
  if (line.length <= WORK_LIMIT) return scrubLine(line);
  let out = "";
  let at = 0;
  while (at < line.length) {
    let end = Math.min(line.length, at + WORK_LIMIT);
    if (end < line.length) {
      const space = line.lastIndexOf(" ", end);
      if (space > at + WORK_LIMIT / 2) end = space;
      else if (/[\uD800-\uDBFF]/.test(line.charAt(end - 1))) end--;
    }
    out += scrubLine(line.slice(at, end));
    at = end;
  }
  return out;
}
