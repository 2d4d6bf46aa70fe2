/** What a keyed match says about itself: its secret, its whole key name, its context. */
import { entropy } from "./judge.js";
import { ASSIGN } from "./rules/format.js";

/** The secret of a match: the rule's group, or the first group after it that took part. */
export function secretOf(m: RegExpExecArray, group: number | undefined): string | undefined {
  if (group === undefined) return m[0];
  for (let k = group; k < m.length; k++) if (m[k] !== undefined) return m[k];
  return undefined;
}

/**
 * The assignment between a key name and its value, at the end of the text before the value; or
 * the `>` of an XML element, or the space after a command-line flag.
 */
const ASSIGN_AT_END = new RegExp(`(?:${ASSIGN}|>|[ \\t]{1,5}["']?)$`);
const NAME_RUN = /[A-Za-z0-9_.-]*$/;
const NAME_REACH = 64;

function isNameChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 45 ||
    c === 46
  );
}

/**
 * The whole key name a keyed match's value belongs to: the name run before the assignment, read
 * back past the match's start (a match begins at its secret word: `next_page_` before `token`).
 */
export function keyName(text: string, matchStart: number, valueStart: number): string {
  const before = text.slice(matchStart, valueStart);
  const assign = ASSIGN_AT_END.exec(before);
  const name = before.slice(0, assign === null ? before.length : assign.index);
  const run = NAME_RUN.exec(name)?.[0] ?? "";
  let k = matchStart + (name.length - run.length);
  if (run.length === name.length) {
    while (k > 0 && k > matchStart - NAME_REACH && isNameChar(text.charCodeAt(k - 1))) k--;
  }
  const whole = k < matchStart ? text.slice(k, matchStart) + run : run;
  // Names of two words (`public key:` in `wg show`, `api key =`): the word before counts too.
  if (text.charCodeAt(k - 1) === 32 && isNameChar(text.charCodeAt(k - 2))) {
    let w = k - 1;
    while (w > 0 && w > k - 1 - 24 && isNameChar(text.charCodeAt(w - 1))) w--;
    return `${text.slice(w, k - 1)} ${whole}`;
  }
  return whole;
}

/** Pagination words in the text before a bare `token` key (a continuation header's JSON). */
export const PAGING_CONTEXT =
  /continuation|skiptoken|nexttoken|next_token|nextpage|next_page|pagetoken|page_token|cursor|paging|pagination/i;

/**
 * A character right after a value (at `at`) that makes it a template's prefix
 * (`lin_api_<your-key>`); an XML end tag (`…</apiKey>`) closes the value instead.
 */
export function continuesAsTemplate(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c === 60) return text.charCodeAt(at + 1) !== 47; // "<", unless "</"
  return c === 123 || c === 36 || c === 91; // { $ [
}

/** Names under which a decoded value that says little by itself is still a secret. */
export const SECRET_WORDISH =
  /pass|pwd|secret|token|key|auth|cred|private|cert|dsn|connection|api/i;

/** Base64 of random bytes: both cases, a digit, and entropy to match. */
export function looksEncodedRandom(value: string): boolean {
  return /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && entropy(value) >= 3;
}

/** Text inside an encoded value is searched this deep (a Secret holding a base64 .env, say). */
export const MAX_DEPTH = 2;
