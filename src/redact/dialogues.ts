import type { Span } from "./spans.js";

/**
 * Mail and file-transfer dialogues, as transcripts show them (`openssl s_client`, `curl -v`,
 * `lftp -d`, Python's smtplib debug output, `C:`/`S:` logs): the password is on a line of its own,
 * after a prompt or a user name, not after a key name.
 */

/** SASL's base64 of "Password:", the server's prompt in `AUTH LOGIN`. */
const PASSWORD_PROMPT = "UGFzc3dvcmQ6";
/** SMTP `AUTH PLAIN` or IMAP `AUTHENTICATE PLAIN` without an initial response. */
const PLAIN_ALONE = /\bAUTH(?:ENTICATE)?[ \t]+PLAIN[ \t]*(?=\\r|\\n|['"]|\r?\n|$)/gi;
/** The server's go-ahead: SMTP `334`, IMAP `+`. */
const GO_AHEAD = /^\W{0,12}(?:[CcSs]:\s{0,4})?(?:334\b|\+(?:\s|$))/;
/** A server reply line (`235 2.7.0 …`, `+OK`, `a1 OK`): not the client's blob. */
const SERVER_REPLY =
  /^\W{0,12}(?:[Ss]:\s{0,4}|[CcSs]:\s{0,4}(?=\d{3}[ -]))?(?:\d{3}[ -]|\+OK|-ERR|[A-Za-z0-9]{1,10} (?:OK|NO|BAD)\b)/;
const BASE64_RUN = /[A-Za-z0-9+/]{4,8192}={0,2}/g;
/** A client's prefix in a transcript: `C: `, `> `, `---> `, `>>> `, `send: '`. */
const CLIENT = String.raw`^[ \t]*(?:(?:[CcSs]:|[>\-]{1,4}|send:[ \t]*b?['"])[ \t]*)?`;
/** POP3 and FTP: `PASS <password>` after a `USER <name>` line. */
const PASS_LINE = new RegExp(`${CLIENT}(?:PASS|pass)[ \\t]+([^\\s\\\\'"]{1,256})`, "gm");
const USER_LINE = new RegExp(`${CLIENT}(?:USER|user)[ \\t]+\\S`, "m");
/**
 * IMAP: `a1 LOGIN <user> <password>`, each plain or quoted, wherever the line quotes it (an
 * error message may); the tag has a digit (`a1`, `A001`) and the command is in capitals.
 */
const IMAP_LOGIN =
  /(?<![A-Za-z0-9])[A-Za-z]{0,6}\d{1,6}[ \t]+LOGIN[ \t]+(?!-)(?:"(?:[^"\\\r\n]|\\.){1,256}"|\S{1,256})[ \t]+(?:"((?:[^"\\\r\n]|\\.){1,256})"|([^\s"]{1,256}))/g;
/** Commands and prompts of these dialogues, for the keyword prefilter. */
export const MAIL_KEYWORDS: readonly string[] = [
  PASSWORD_PROMPT,
  "auth plain",
  "authenticate plain",
  "pass ",
  " login ",
];
/** How far up a `USER` line may be. */
const LINES_BACK = 4;

export function findMailLogins(text: string, spans: Span[]): void {
  for (
    let at = text.indexOf(PASSWORD_PROMPT);
    at !== -1;
    at = text.indexOf(PASSWORD_PROMPT, at + 1)
  ) {
    const next = text.indexOf("\n", at);
    if (next !== -1) blobOnLine(text, next + 1, spans);
  }
  PLAIN_ALONE.lastIndex = 0;
  for (let m = PLAIN_ALONE.exec(text); m !== null; m = PLAIN_ALONE.exec(text)) {
    // The go-ahead is on one of the next two lines; the blob on the line after it.
    let line = text.indexOf("\n", m.index) + 1;
    for (let k = 0; k < 2 && line > 0; k++) {
      const end = text.indexOf("\n", line);
      const stop = end === -1 ? text.length : end;
      if (GO_AHEAD.test(text.slice(line, Math.min(stop, line + 64)))) {
        if (end !== -1) blobOnLine(text, end + 1, spans);
        break;
      }
      line = end + 1;
    }
  }
  // `PASS` counts only after a `USER` line a few lines up (a test runner prints `PASS file`).
  PASS_LINE.lastIndex = 0;
  for (let m = PASS_LINE.exec(text); m !== null; m = PASS_LINE.exec(text)) {
    let back = m.index;
    for (let k = 0; k < LINES_BACK && back > 0; k++) back = text.lastIndexOf("\n", back - 2) + 1;
    if (!USER_LINE.test(text.slice(back, m.index))) continue;
    const value = m[1] as string;
    push(spans, m.index + m[0].length - value.length, value);
  }
  IMAP_LOGIN.lastIndex = 0;
  for (let m = IMAP_LOGIN.exec(text); m !== null; m = IMAP_LOGIN.exec(text)) {
    const value = (m[1] ?? m[2]) as string;
    push(spans, m.index + m[0].lastIndexOf(value), value);
  }
}

function push(spans: Span[], start: number, value: string): void {
  if (value.length < 1) return;
  spans.push({ rule: "mail_login", start, end: start + value.length, generality: 1 });
}

function blobOnLine(text: string, start: number, spans: Span[]): void {
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  const line = text.slice(start, Math.min(end, start + 8192));
  if (SERVER_REPLY.test(line)) return;
  let best: RegExpExecArray | undefined;
  BASE64_RUN.lastIndex = 0;
  for (let m = BASE64_RUN.exec(line); m !== null; m = BASE64_RUN.exec(line)) {
    if (best === undefined || m[0].length > best[0].length) best = m;
  }
  if (best === undefined || best[0].length < 4) return;
  spans.push({
    rule: "smtp_auth",
    start: start + best.index,
    end: start + best.index + best[0].length,
    generality: 1,
  });
}
