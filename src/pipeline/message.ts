/**
 * A log line's message: the line past its header (its timestamp, its host, its level words and
 * the component it names, `sshd(pam_unix)[19939]:`), and the message as the summary groups and
 * shows it, its varying words made `<*>`. Pure text functions, for keep (grouping) and for
 * `meta` (showing, after redaction).
 */
import { lineKey } from "./rerun.js";
import { timeOf } from "./timestamps.js";

/** Header words looked past at most (a host, a level, a component). */
const HEADER_WORDS = 4;

const LEVEL =
  /^[[<(]?(?:trace|debug|info|notice|warn|warning|error|err|fatal|critical|crit|alert|emerg|severe)[\]>):,]?$/i;
const COMPONENT = /^([\w.$/-]+(?:\([\w.-]+\))?)(?:\[\d+\])?:$/;
/** A component whose colon comes after its parenthesised detail: `launchd[1] (com.apple.x):`. */
const NAMED = /^([A-Za-z][\w.$/-]*)\[\d+\]$/;

/** A component's parenthesised detail, which ends the header: `(com.apple.x):`. */
const DETAIL = /^\([^()\s]*\):$/;

/**
 * Where a line's message starts, and the component its header names: past the timestamp, the
 * first word within HEADER_WORDS that names a component ends the header (a host may come first);
 * with none, the header is the timestamp and the level words after it.
 */
export function messageOf(line: string): {
  readonly at: number;
  readonly source?: string;
  readonly time?: string;
} {
  const time = timeOf(line);
  const stamp = time === undefined ? {} : { time };
  let at = time === undefined ? 0 : line.indexOf(time) + time.length;
  if (line.charCodeAt(at) === 93) at++; // the `]` of `[Sun Dec 04 04:47:44 2005]`
  const word = /\S+/g;
  word.lastIndex = at;
  let levels = at;
  let leading = true;
  for (let n = 0; n < HEADER_WORDS; n++) {
    const m = word.exec(line);
    if (m === null) break;
    const w = m[0];
    const c = COMPONENT.exec(w);
    // A name of digits only (`255.10[94]:`) is one when a process id follows it, not a `12:`.
    if (c && (/[A-Za-z]/.test(c[1] as string) || w.endsWith("]:")))
      return { at: m.index + w.length, source: c[1] as string, ...stamp };
    const named = NAMED.exec(w);
    if (named) {
      const next = word.exec(line);
      if (next !== null && DETAIL.test(next[0]))
        return { at: next.index + next[0].length, source: named[1] as string, ...stamp };
      word.lastIndex = m.index + w.length;
    }
    if (leading && (LEVEL.test(w) || w === "," || w === "-")) levels = m.index + w.length;
    else leading = false;
  }
  return { at: levels, ...stamp };
}

/** A redaction placeholder, as the redactor writes it. */
const PLACEHOLDER = /\[REDACTED:[\w.-]*\]/g;

/**
 * The key a severe line is counted under (the summary's symptoms): its message, masked, hashed.
 * A redaction placeholder counts as the word `0` first: a secret with a digit in it masks to
 * `<*>` as that word does, so a line keys the same whether its secret was redacted before it was
 * counted (a stored result's text), after (a result shown without a store), or only where it
 * was stored (an echo of a secret found elsewhere). A secret of letters only still keys apart
 * from its placeholder.
 *
 * @example
 * messageKey("12:00:01 ERROR bad token [REDACTED:github_token]") === messageKey("12:00:07 ERROR bad token ghp_a1b2"); // true
 */
export function messageKey(line: string, at?: number): number {
  if (line.includes("[REDACTED:")) {
    const text = line.replace(PLACEHOLDER, "0");
    return lineKey(maskMessage(text.slice(messageOf(text).at)));
  }
  // `at`: where the message starts, when the caller has it already (`messageOf(line).at`).
  return lineKey(maskMessage(line.slice(at ?? messageOf(line).at)));
}

/** A name of letters and `_` (eight or more), a dot, a number: `block_invoke.434`. */
const NAME_NUMBER = /^([A-Za-z_]{8,}(?:\.[A-Za-z_]+)*)\.\d+([,;:)\]]?)$/;
/** A path or a URL: two slashes or more, at least 8 characters. */
const PATH = /^(?=.{8})[^/]*\/[^/]*\/.*/;

/**
 * A message as the summary groups and shows it: spaces made one, and each word that holds a
 * digit made `<*>` past its name (`uid=<*>`, `rhost=<*>`, `error:<*>`: what comes before the
 * last `=` or `:` ahead of its first digit stays; `block_invoke.<*>` keeps its name), and so is
 * each path, and each value after `=` that holds a `.` or a `/` (a host, a file).
 *
 * @example
 * maskMessage("login failed uid=0 rhost=218.188.2.4"); // "login failed uid=<*> rhost=<*>"
 */
export function maskMessage(text: string): string {
  const spaced = /\s\s|[\t\n\r\f\v]/.test(text) ? text.replace(/\s+/g, " ") : text;
  const words = spaced.trim().split(" ");
  for (let k = 0; k < words.length; k++) {
    const w = words[k] as string;
    // Only a word that holds a digit, a `/` or a `=` can change.
    for (let i = 0; i < w.length; i++) {
      const c = w.charCodeAt(i);
      if ((c >= 48 && c <= 57) || c === 47 || c === 61) {
        words[k] = maskWord(w);
        break;
      }
    }
  }
  return words.join(" ");
}

function maskWord(w: string): string {
  const digit = w.search(/\d/);
  if (digit !== -1) {
    const name = Math.max(w.lastIndexOf("=", digit), w.lastIndexOf(":", digit));
    if (name !== -1) return `${w.slice(0, name + 1)}<*>`;
    // A name with a number after a dot (`block_invoke.434`) keeps its name; any other word with
    // a digit goes whole (a token, a key or an id must not leave its letters behind).
    const named = NAME_NUMBER.exec(w);
    return named ? `${named[1]}.<*>${named[2]}` : "<*>";
  }
  // A path or an address, and a value named by `=` that is a host or a file, vary too.
  if (PATH.test(w)) return "<*>";
  const eq = w.indexOf("=");
  return eq !== -1 && /[./]/.test(w.slice(eq + 1)) ? `${w.slice(0, eq + 1)}<*>` : w;
}
