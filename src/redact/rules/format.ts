/** What a rule is, and the pattern pieces the rule tables share. */
export interface SecretRule {
  /** Stable id, shown in the replacement: `[REDACTED:<id>]`. */
  readonly id: string;
  /**
   * Literal fragments, at least one of which occurs in every match (in any case when
   * `ignoreCase`). A rule may instead name context its matches need on the same line:
   * `jwk_private_key` runs only on lines that hold `"kty"`.
   */
  readonly keywords: readonly string[];
  /** The pattern; compiled with the `g` flag (and `i` when `ignoreCase`). */
  readonly pattern: string;
  readonly ignoreCase?: boolean;
  /**
   * Capture group that holds the secret (the first group from this one on that took part, so
   * alternatives such as quoted and unquoted values can each have their own); the whole match
   * when absent.
   */
  readonly group?: number;
  /** Minimum Shannon entropy (bits a character) of the secret, for generic rules. */
  readonly minEntropy?: number;
  /**
   * Values that are not secrets though the pattern takes them (code, references): a pattern
   * tested against the value (with the rule's `ignoreCase`). Keep it linear like `pattern`.
   */
  readonly reject?: string;
  /**
   * How generic the rule is: 0 (default) for a token format, 1 for a carrier (URL, header,
   * query string), 2 for a key name. When rules find the same secret, the most specific names it.
   */
  readonly generality?: 0 | 1 | 2;
  /**
   * The secret is the value of the key name the match ends in: the whole name is read back and a
   * name that says the value is something else (`next_page_token`, `token_type`, `key_id`,
   * `public_key`) keeps it, as does a value that is a word, a path, a reference, a number or a
   * placeholder.
   */
  readonly keyed?: boolean;
  /**
   * The value is encoded: it is decoded and judged by what it holds (a certificate, a public key
   * or a placeholder stays; a secret inside, or a key name that names one, redacts it).
   */
  readonly encoded?: "base64";
  /**
   * `false` for a format whose every body is a real key, however repetitive (an age secret key is
   * bech32 of 32 random bytes with a checksum): a match is never kept as a placeholder.
   */
  readonly placeholders?: false;
}

/**
 * Escape sequences a token may follow in text that was encoded and shown as is: URL encoding
 * (`%3D`, `%20`, `%22`), JSON and C string escapes (`\n`, `\t`, `\"`, `\u0022`, `\x22`) and
 * quoted-printable (`=3D`). Their last character is a letter or digit, so a word boundary alone
 * would hide every token right after one. ESCAPE_HEAD is each sequence less its last character.
 */
export const ESCAPE_TAIL = String.raw`%[0-9A-Fa-f]{2}|\\[nrtbfv0'"\\/]|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|=[0-9A-F]{2}`;
const ESCAPE_HEAD = String.raw`%[0-9A-Fa-f]|\\|\\u[0-9A-Fa-f]{3}|\\x[0-9A-Fa-f]|=[0-9A-F]`;

/**
 * A start boundary: not right after a character of `chars` (a regex class body), unless that
 * character ends an escape sequence. Written as a look-behind inside a look-behind rather than
 * an alternation: V8 still finds the literal that follows by its fast scan then (an alternation
 * of look-behinds made every rule about fifty times slower on the lines it ran on).
 */
export function after(chars: string): string {
  return `(?<!(?<!${ESCAPE_HEAD})[${chars}])`;
}

/** Start boundary that also treats "_" as a word character, and sees through escapes. */
export const B = after("A-Za-z0-9_");
export const E = `(?![A-Za-z0-9_])`;
/** A quote around a name or a value, also escaped (`\"` in JSON shown as text, `%22`, `\u0022`). */
export const QUOTE = String.raw`(?:\\{0,3}["']|%2[27]|\\u002[27]|&quot;|&#3[49];)`;
/**
 * An assignment operator: `:`, `=`, `:=`, `::=`, `?=`, `+=` (Make), `=>`, `<-`, and `:`/`=`
 * URL-, JSON- or QP-encoded. A comparison (`==`, `=~`) is not one.
 */
export const OPERATOR = String.raw`(?:::?=|[?+.]=|=>|<-|[:=](?![=~])|%3[AaDd]|=3D|\\u003[AaDd])`;
/**
 * A string type between a name and its assignment: `var token string = "…"` (Go),
 * `const apiKey: string = "…"` (TypeScript), `let key: &str = "…"` (Rust), `val k: String = …`.
 */
const TYPED = String.raw`(?:(?:[ \t]{0,4}:[ \t]{0,4}|[ \t]{1,4})(?:string|String|str|&str|&'static str)(?=[ \t]{0,4}=))`;
/**
 * What comes between a key name and its value, short of the value's own quote: a quote, a type,
 * an operator; or, between two quoted strings, a comma (`System.setProperty("API_KEY", "…")`,
 * `os.environ.setdefault("TOKEN", "…")`) when the second has a digit or a symbol (a list of
 * names, `["api_key", "request_id"]`, has neither; rules may ignore case, so capitals cannot tell).
 */
export const BETWEEN = String.raw`(?:${QUOTE}?${TYPED}?\s{0,32}${OPERATOR}\s{0,32}|["'][ \t]{0,4},[ \t]{0,4}(?=["'][^"'\r\n]{0,1024}?[0-9!@#%^&*+/=~]))`;
/** Between a key name and its value: a quote, an operator, then a quote (or a Go raw string's backtick). */
export const ASSIGN = `${BETWEEN}(?:${QUOTE}|${"`"})?`;
/** Between a header name and its value (curl -v, HTTP logs, JSON and YAML maps of headers). */
export const COLON = String.raw`${QUOTE}?\s{0,32}(?::|%3[Aa]|\\u003[Aa])\s{0,32}${QUOTE}?`;
/** A value is not an expression, a reference or a redaction: `${VAR}`, `$(cmd)`, `<id>`, `[…]`. */
export const VALUE_START = "(?![\\[({$<%`])";
export const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * A vendor's key name (`HEROKU_API_KEY=`, `heroku.apiKey:`, `"heroku_token":`): the vendor word at
 * the start of a name, up to 30 name characters, what the value is, the rest of the name, then the
 * assignment. Every run is bounded, so a keyword hit costs a constant however long the line.
 */
export function named(vendor: string, what: string): string {
  return `(?:${after("A-Za-z0-9")}|(?<=-D))(?:${vendor})[A-Za-z0-9_.-]{0,30}?(?:${what})[A-Za-z0-9_.-]{0,20}${ASSIGN}`;
}

/**
 * A rule for a value whose format alone is not distinctive (a UUID, 32 hex digits), found only
 * after a key name that names the vendor. More specific than a bare key name (`secret_assignment`),
 * less than a token format.
 */
export function vendorKey(
  id: string,
  keywords: readonly string[],
  vendor: string,
  what: string,
  value: string,
  minEntropy?: number,
): SecretRule {
  return {
    id,
    keywords,
    pattern: `${named(vendor, what)}${VALUE_START}(${value})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
    ...(minEntropy !== undefined ? { minEntropy } : {}),
  };
}

/** GitLab's prefixed tokens; newer ones may end in a routing suffix (`.01.abcdefghi`). */
export function gitlab(id: string, prefix: string, body: string): SecretRule {
  return {
    id,
    keywords: [prefix],
    pattern: String.raw`${B}${prefix}${body}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?${E}`,
  };
}
