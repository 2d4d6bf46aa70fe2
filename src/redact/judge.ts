/**
 * Whether a match is a secret: the checks that come after a pattern matched. A token format
 * decides by itself, except for placeholders (`AKIAXXXXXXXXXXXXXXXX`); a value found by its key
 * name is judged by that name (a pagination token, an endpoint, a count is not a secret whatever
 * its value) and by the value itself (a word, a path, a reference, a placeholder is not one).
 */

/** Values that are placeholders, not secrets: a key named PASSWORD whose value is one of these stays. */
export const PLACEHOLDER_VALUES =
  /^(?:\*+|x+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_]+%|%\([A-Za-z_]\w*\)s|#\{[^}]*\}|<%=?[^%]*%>|\{\{[^}]*\}\}|null|nil|none|true|false|undefined|changeme|change_me|replace_?me|redacted|hidden|masked|example|sample|dummy|placeholder|your[_-]?\w*|(?:insert|enter|put|add)[_-]\w+|\[REDACTED:[a-z0-9_]+\])$/i;

/** Keys published in vendor documentation as examples (kept with `keepExamples`). */
export const EXAMPLE_VALUES: ReadonlySet<string> = new Set([
  "AKIAIOSFODNN7EXAMPLE",
  "AKIAI44QH8DHBEXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
  // The jwt.io example token.
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
]);

/** AWS documentation marks its example keys by ending them in EXAMPLE or EXAMPLEKEY. */
const EXAMPLE_MARK = /EXAMPLE(?:KEY)?$/;

/** A documented example key: one of the published ones, or one marked the way AWS marks them. */
export function isExample(value: string): boolean {
  return EXAMPLE_VALUES.has(value) || EXAMPLE_MARK.test(value);
}

/** Shannon entropy in bits a character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A placeholder made of one character repeated after the format's literal prefix, separators
 * aside: `AKIAXXXXXXXXXXXXXXXX`, `fo1_xxxx…`, `A3-XXXXXX-XXXXXXXXXXX-…`, `ghp_000…`, `********`.
 * `prefixes` are the rule's keywords; the longest one the value starts with is set aside.
 */
export function isRepeatedPlaceholder(value: string, prefixes: readonly string[]): boolean {
  let from = 0;
  const lower = value.toLowerCase();
  for (const p of prefixes) {
    if (p.length > from && lower.startsWith(p.toLowerCase())) from = p.length;
  }
  let first = -1;
  let count = 0;
  for (let i = from; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // Separators between the groups of a format (`-`, `_`, `.`) do not count.
    if (c === 45 || c === 95 || c === 46) continue;
    if (first === -1) first = c;
    else if (c !== first) return false;
    count++;
  }
  return count >= 4;
}

/**
 * The normalised form of a key name: lower case, separators and quotes gone, so that
 * `next_page_token`, `nextPageToken` and `"Next-Page-Token"` compare alike.
 */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * Names whose values are not secrets though they hold a secret word: pagination and continuation
 * tokens (a model paging through results needs them), what a token or key *is* rather than the
 * token itself (type, endpoint, URL, path, file, name, id, expiry, length, count, hash, …),
 * token counts, and public keys. Tested against a normalised name.
 */
const PUBLIC_NAME = new RegExp(
  [
    // Pagination, continuation and sync cursors: next_page_token, nextForwardToken, prev_page_token,
    // NextContinuationToken, pageToken, resumptionToken, nextSyncToken, pagination_token.
    "(?:page|next|prev|previous|continuation|forward|backward|cursor|sync|resumption|pagination|scroll|marker)(?:page)?tokens?$",
    // What the secret is, not the secret.
    "(?:token|secret|password|passwd|passphrase|pass|pwd|key|credentials?|auth)(?:types?|endpoints?|urls?|uris?|paths?|files?|filenames?|dirs?|directory|names?|expiry|expires|expiresin|expiresat|expiration|expirationdate|lifetime|ttl|timeout|limits?|counts?|length|len|size|usage|budget|index|ids?|prefix|suffix|format|kind|scopes?|headers?|location|policy|policies|rotation|version|enabled|disabled|required|optional|min|max|minlength|maxlength|regex|pattern|mode|hint|label|refs?|keyrefs?|arns?|hash|hashes|digest|checksum|fingerprint|sha\\d*|md5|algorithm|alg|encoding|source|provider|store|env|var|field|param|parameter|column|prompt|placeholder|mask|masked|last4|lastfour|created|updated|createdat|updatedat|issuedat|status|state|valid|validity|audience|issuer|method|grant|granttype|supported|valuessupported|strength|reset|resetat|changed|changedat|ref|selector|secretname|secretref|template|generator|schema)$",
    // Token counts and tokenizers.
    "tokens$",
    "(?:tokeniz|tokenis)",
    "(?:passwordless|secretary|secretaries)",
    // Public halves of key pairs, and keys published by design.
    "public|publishable|^pub(?:lic)?key|sitekey|anonkey",
  ].join("|"),
);

/** Names that look public by their suffix but name a secret: Vault's AppRole `secret_id`. */
const SECRET_DESPITE = /^(?:secretid|clientsecretid)$/;

/** True when a key name says its value is something other than a secret. */
export function isPublicName(name: string): boolean {
  const n = normalizeName(name);
  return n !== "" && PUBLIC_NAME.test(n) && !SECRET_DESPITE.test(n);
}

/** A dictionary-like word: letters only, camel case allowed, with vowels and no long consonant run. */
const WORD = /^[A-Za-z][a-z]*(?:[A-Z][a-z]+)*$/;
const VOWEL = /[aeiouy]/i;
const CONSONANTS = /[b-df-hj-np-tv-xz]{5}/i;

function isWord(value: string): boolean {
  return value.length <= 16 && WORD.test(value) && VOWEL.test(value) && !CONSONANTS.test(value);
}
/** A reference to a secret by name: `db-password`, `my_app_secret`, `api.key.ref`. */
const REFERENCE = /^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+$/;
const SECRET_SEGMENT =
  /(?:^|[-_.])(?:password|passwd|pass|pwd|secret|secrets|token|key|keys|apikey|credentials?|auth)(?:$|[-_.])/;
const URL_VALUE = /^(?:https?|ftp|wss?|file|s3|gs):\/\//i;
const PATH_VALUE = /^(?:\/[\w.-]|\.\.?\/|~\/|[A-Za-z]:\\)/;
const NUMBER_LIKE = /^v?\d+(?:[.:,]\d+)*$/;
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/;

/**
 * Whether the value of a key that names a secret looks like one: not a placeholder, a word, a
 * reference to a secret by name, a number, a date, a URL or a path (credentials inside URLs have
 * rules of their own), and with some variety in its characters. The entropy bar grows with the
 * length up to 3 bits: an 8-character password cannot have more than 3, a 20-character one with
 * less is a pattern.
 */
export function looksSecret(value: string, minLength = 6): boolean {
  if (value.length < minLength) return false;
  if (PLACEHOLDER_VALUES.test(value)) return false;
  if (isRepeatedPlaceholder(value, [])) return false;
  if (NUMBER_LIKE.test(value) || DATE_LIKE.test(value)) return false;
  if (URL_VALUE.test(value) || PATH_VALUE.test(value)) return false;
  if (isWord(value)) return false;
  if (REFERENCE.test(value) && SECRET_SEGMENT.test(value)) return false;
  const bar = Math.min(3, Math.log2(value.length) - 0.7);
  return entropy(value) >= bar;
}
