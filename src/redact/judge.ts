/**
 * Whether a match is a secret: the checks that come after a pattern matched. A token format
 * decides by itself, except for placeholders (`AKIAXXXXXXXXXXXXXXXX`); a value found by its key
 * name is judged by that name (a pagination token, an endpoint, a count is not a secret whatever
 * its value) and by the value itself (a word, a path, a reference, a placeholder is not one).
 */

/** Values that are placeholders, not secrets: a key named PASSWORD whose value is one of these stays. */
export const PLACEHOLDER_VALUES =
  /^(?:\*+|x+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_]+%|%\([A-Za-z_]\w*\)s|#\{[^}]*\}|<%=?[^%]*%>|\{\{[^}]*\}\}|null|nil|none|true|false|undefined|changeme|change_me|replace_?me|redacted|hidden|masked|example|sample|dummy|placeholder|your[_-]?\w*|(?:insert|enter|put|add)[_-]\w+|\[REDACTED:[a-z0-9_]+\]|.{0,64}(?:\.\.\.|…)|(?:my|your)?(?:password|passwd|pass|pwd|secret|token|api[_-]?key|apikey|key|credentials?))$/i;

/** Keys published in vendor documentation as examples (kept with `keepExamples`). */
export const EXAMPLE_VALUES: ReadonlySet<string> = new Set([
  "AKIAIOSFODNN7EXAMPLE",
  "AKIAI44QH8DHBEXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
  // RFC 7617 (HTTP Basic: "Aladdin:open sesame"), RFC 6749 and 6750 (OAuth 2.0), the
  // Kubernetes documentation's Secret (admin / 1f2d1e2e67df), Stripe's documented test keys.
  "QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
  "2YotnFZFEjr1zCsicMWpAA",
  "tGzv3JOkF0XG5Qx2TlKWIA",
  "SplxlOBeZQQYbYS6WxSbIA",
  "mF_9.B5f-4.1JqM",
  "YWRtaW4=",
  "MWYyZDFlMmU2N2Rm",
  "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
  // MongoDB's connection string documentation.
  "D1fficultP%40ssw0rd",
  "pk_test_TYooMQauvdEDq54NiTphI7jx",
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
  // ASCII values (nearly all) are counted in a small table; others by code point.
  const table = new Uint16Array(128);
  let counts: Map<string, number> | undefined;
  let length = 0;
  for (const ch of value) {
    const c = ch.charCodeAt(0);
    length++;
    if (c < 128 && ch.length === 1) table[c] = (table[c] as number) + 1;
    else {
      counts ??= new Map();
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
  }
  let bits = 0;
  const add = (n: number) => {
    const p = n / length;
    bits -= p * Math.log2(p);
  };
  for (const n of table) if (n > 0) add(n);
  if (counts !== undefined) for (const n of counts.values()) add(n);
  return bits;
}

/** Runs of the alphabet (`1234567890`, `abcdefgh`): a sequence typed as an example, not drawn. */
const SEQUENCE = "0123456789abcdefghijklmnopqrstuvwxyz";
const SEQUENCE_RUN = 8;

function hasSequence(body: string): boolean {
  const lower = body.toLowerCase();
  let run = 1;
  for (let i = 1; i < lower.length; i++) {
    const prev = SEQUENCE.indexOf(lower[i - 1] as string);
    const next = SEQUENCE.indexOf(lower[i] as string);
    // 9 is followed by 0 on a keyboard, by a in the alphabet: both count.
    const follows = prev !== -1 && (next === prev + 1 || (prev === 9 && next === 0));
    run = follows ? run + 1 : 1;
    if (run >= SEQUENCE_RUN) return true;
  }
  return false;
}

/** A word of a phrase: lower-case letters with a vowel (`your`, `bot`, `token`, `not`). */
const PHRASE_WORD = /^[a-z]*[aeiouy][a-z]*$/;

/**
 * A placeholder where a token's random part should be, after the format's literal prefix: one
 * character repeated (`AKIAXXXXXXXXXXXXXXXX`, `ghp_000…`), groups that are each one character
 * repeated (`xoxb-000000000000-0000000000000-xxxx…`, `A3-XXXXXX-XXXXXXXXXXX-…`, after sub-prefixes
 * such as `sk-proj-`), a run of the alphabet (`ghp_1234567890abcdef…`), or words
 * (`xoxb-your-bot-token`, `xoxb-not-a-real-token-this-will-not-work`); the last two only after
 * a prefix (a password may be a phrase). `prefixes` are the rule's keywords; the longest one the
 * value starts with is set aside.
 */
export function isPlaceholderToken(value: string, prefixes: readonly string[]): boolean {
  let from = 0;
  let to = value.length;
  const lower = value.toLowerCase();
  for (const p of prefixes) {
    const k = p.toLowerCase();
    if (p.length > from && lower.startsWith(k)) from = p.length;
    // A format's fixed suffix (`…_mmk`) is set aside the same way.
    if (value.length - p.length < to && value.length > p.length && lower.endsWith(k)) {
      to = value.length - p.length;
    }
  }
  if (to <= from) return false;
  const body = value.slice(from, to);
  const groups = body.split(/[-_./]+/).filter((g) => g !== "");
  if (groups.length === 0) return false;
  // A body that ends in a long run of a mask character (`…/XXXXXXXXXXXXXXXX`, `…-00000000`).
  const tail = groups[groups.length - 1] as string;
  if (tail.length >= 8 && /^[xX0*#]/.test(tail) && isRun(tail)) return true;
  // After a format's prefix, a sequence or a phrase is an example; a password may be either.
  if (from > 0 && hasSequence(body)) return true;
  if (from > 0 && groups.length >= 2 && groups.every((g) => PHRASE_WORD.test(g))) return true;
  // Leading groups may be a sub-prefix (`proj`, `api03`); from the first run on, all are runs.
  let first = groups.findIndex((g) => g.length >= 4 && isRun(g));
  if (first === -1 && groups.length === 1 && body.length >= 4 && isRun(body)) first = 0;
  if (first === -1) return false;
  let length = 0;
  for (let k = first; k < groups.length; k++) {
    const g = groups[k] as string;
    if (!isRun(g)) return false;
    length += g.length;
  }
  return length >= 4;
}

function isRun(group: string): boolean {
  for (let i = 1; i < group.length; i++) if (group[i] !== group[0]) return false;
  return true;
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
    "(?:page|next|prev|previous|continuation|forward|backward|cursor|sync|resumption|pagination|scroll|marker|skip)(?:page)?tokens?$",
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

/**
 * Keys that are public by design, whatever the name they are stored under: Mapbox public tokens,
 * Stripe and Clerk publishable keys, PostHog project keys.
 */
const PUBLISHABLE = /^(?:pk\.eyJ|pk_(?:live|test)_|phc_[A-Za-z0-9]{20})/;

export function isPublishable(value: string): boolean {
  return PUBLISHABLE.test(value);
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
/**
 * A file path: a path's start, and no base64 padding or `+` (base64 may start with `/`), and not
 * the variety of encoded random bytes in a long value.
 */
function isPath(value: string): boolean {
  if (!PATH_VALUE.test(value) || /[+=]/.test(value)) return false;
  if (value.length < 24) return true;
  return !(
    /[0-9]/.test(value) &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    entropy(value) > 4.2
  );
}

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
  if (isPlaceholderToken(value, []) || isPublishable(value)) return false;
  if (NUMBER_LIKE.test(value) || DATE_LIKE.test(value)) return false;
  if (URL_VALUE.test(value) || isPath(value)) return false;
  if (isWord(value)) return false;
  if (REFERENCE.test(value) && SECRET_SEGMENT.test(value)) return false;
  const bar = Math.min(3, Math.log2(value.length) - 0.7);
  return entropy(value) >= bar;
}
