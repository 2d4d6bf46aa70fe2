import { AirlockError } from "../errors.js";
import { foldView } from "./confusables.js";
import {
  BLOCK_KEYWORDS,
  ENCODED_TOKEN_KEYWORDS,
  findCommandOutput,
  findEncodedTokens,
  findPgpass,
  findSecretBlocks,
  findSnykConfig,
  PRINTING_KEYWORDS,
  publicBlocks,
} from "./context.js";
import {
  type EncodedJudge,
  findKubernetesData,
  findNamedSecrets,
  isPlainDataName,
} from "./detectors.js";
import { findMailLogins, MAIL_KEYWORDS } from "./dialogues.js";
import { asText, decodeBase64, isPublicMaterial } from "./encoded.js";
import {
  entropy,
  isExample,
  isPlaceholderToken,
  isPublicName,
  isPublishable,
  looksSecret,
  normalizeName,
  PLACEHOLDER_VALUES,
} from "./judge.js";
import { findEncodedKeys, findJwkKeys, findPrivateKeys, findPuttyKeys } from "./keys.js";
import { createKeywordScanner, type Keyword } from "./keywords.js";
import { PATH_RULES, PII_RULES, tenantRule } from "./optional.js";
import { ASSIGN } from "./rules/format.js";
import { SECRET_RULES, type SecretRule } from "./rules.js";
import type { Finding, RedactState, Span } from "./spans.js";
import { isTokenChar } from "./tokens.js";
import {
  cutView,
  firstAfter,
  redrawRegions,
  type Seam,
  spanInText,
  type View,
  wrapRegions,
} from "./views.js";

export type { Finding, RedactState, Span } from "./spans.js";
export { isTokenChar } from "./tokens.js";

export interface Redacted {
  readonly text: string;
  readonly findings: readonly Finding[];
}

/** Values a rule lets through: exact strings, or patterns tested against the whole value. */
export type AllowList = readonly (string | RegExp)[];

export interface RedactOptions {
  /** Extra rules, checked like the built-in ones. */
  readonly rules?: readonly SecretRule[];
  /** Built-in rule ids to turn off. */
  readonly disable?: readonly string[];
  /**
   * Values each rule lets through, by rule id (`"*"`: every rule): an exact value, or a RegExp
   * tested against the value a rule found (its `g` and `y` flags are dropped). For test fixtures
   * and public tokens a host knows: `{ jwt: [/^eyJhbGciOiJub25l/], "*": ["sk-test-fixture-…"] }`.
   */
  readonly allow?: { readonly [ruleId: string]: AllowList };
  /** Exact values the host knows are secret (its own environment); at least 6 characters each. */
  readonly knownValues?: readonly string[];
  /**
   * Keep keys that vendors and RFCs publish as documentation examples (`AKIAIOSFODNN7EXAMPLE`,
   * the jwt.io token, keys AWS marks with `EXAMPLE`, RFC 7617's `Aladdin:open sesame`): they are
   * public and never work. Default true; `false` redacts them like any key of their format.
   */
  readonly keepExamples?: boolean;
  /**
   * Keep placeholders made of one character repeated after a format's prefix
   * (`AKIAXXXXXXXXXXXXXXXX`, `ghp_000…`, `sk_live_xxxx…`): documentation and templates, never a
   * key. Default true.
   */
  readonly keepPlaceholders?: boolean;
  /**
   * Redact the user in home directory paths (`/home/alice`, `/Users/alice`, `C:\Users\alice`), and
   * with `roots`, the segment after each given prefix (tenant paths such as `/srv/tenants/`).
   * Default false.
   */
  readonly paths?: boolean | { readonly roots?: readonly string[] };
  /** Redact personal data: email addresses and IPv4/IPv6 addresses. Default false. */
  readonly pii?: boolean;
}

function optionalRules(options: RedactOptions): SecretRule[] {
  const out: SecretRule[] = [];
  if (options.paths) {
    out.push(...PATH_RULES);
    const roots = typeof options.paths === "object" ? (options.paths.roots ?? []) : [];
    for (const root of roots) {
      if (typeof root !== "string" || root.length < 2) {
        throw new AirlockError("options/invalid", "redact: paths.roots must be path prefixes");
      }
      out.push(tenantRule(root));
    }
  }
  if (options.pii) out.push(...PII_RULES);
  return out;
}

interface CompiledAllow {
  readonly literals: ReadonlySet<string>;
  readonly patterns: readonly RegExp[];
}

/** Checks and copies the allow-lists once: literals in a set, patterns without state. */
function compileAllow(allow: RedactOptions["allow"]): Map<string, CompiledAllow> {
  const out = new Map<string, CompiledAllow>();
  if (allow === undefined) return out;
  if (typeof allow !== "object" || allow === null) {
    throw new AirlockError("options/invalid", "redact: allow must map rule ids to value lists");
  }
  for (const [rule, list] of Object.entries(allow)) {
    if (!Array.isArray(list)) {
      throw new AirlockError("options/invalid", `redact: allow["${rule}"] must be a list`);
    }
    const literals = new Set<string>();
    const patterns: RegExp[] = [];
    for (const item of list as unknown[]) {
      if (typeof item === "string") literals.add(item);
      else if (item instanceof RegExp) {
        // A shared RegExp with `g` or `y` keeps a lastIndex between tests: drop those flags.
        patterns.push(new RegExp(item.source, item.flags.replace(/[gy]/g, "")));
      } else {
        throw new AirlockError(
          "options/invalid",
          `redact: allow["${rule}"] holds a ${typeof item}; only strings and RegExps`,
        );
      }
    }
    out.set(rule, { literals, patterns });
  }
  return out;
}

/** The structural detectors, each run only on text holding one of its markers. */
type Gate =
  | "pem"
  | "named"
  | "jwk"
  | "encoded"
  | "kube"
  | "mail"
  | "putty"
  | "output"
  | "block"
  | "b64token"
  | "sealed"
  | "pgpass"
  | "snyk";
const GATES: ReadonlyArray<readonly [string, boolean, Gate]> = [
  ["-----BEGIN ", false, "pem"],
  ["-----END ", false, "pem"],
  ["value", true, "named"],
  ['"kty"', false, "jwk"],
  ["LS0tLS1CRUdJTi", false, "encoded"],
  ["data:", true, "kube"],
  ['data":', true, "kube"],
  ["Private-Lines:", false, "putty"],
  ["encryptedData", false, "sealed"],
  ["pgpass", true, "pgpass"],
  ["snyk", true, "snyk"],
  ...MAIL_KEYWORDS.map((k) => [k, true, "mail"] as const),
  ...PRINTING_KEYWORDS.map((k) => [k, true, "output"] as const),
  ...BLOCK_KEYWORDS.map((k) => [k, false, "block"] as const),
  ...ENCODED_TOKEN_KEYWORDS.map((k) => [k, false, "b64token"] as const),
];
/** The detector each gate runs, for `disable`. */
const GATE_RULE: Record<Gate, string> = {
  pem: "private_key",
  named: "named_secret",
  jwk: "jwk_private_key",
  encoded: "private_key",
  kube: "kubernetes_secret_data",
  mail: "mail_login",
  putty: "private_key",
  output: "command_output",
  block: "secret_block",
  b64token: "encoded_token",
  sealed: "public_blocks",
  pgpass: "pgpass_password",
  snyk: "snyk_token",
};

/** A compiled redactor: rules are compiled once, the function is pure. */
export type Redactor = (text: string) => Redacted;

interface Compiled {
  readonly rule: SecretRule;
  /** The rule's place in the list: where rules of one generality find one secret, the first names it. */
  readonly rank: number;
  readonly pattern: RegExp;
  readonly reject: RegExp | undefined;
}

/** The secret of a match: the rule's group, or the first group after it that took part. */
function secretOf(m: RegExpExecArray, group: number | undefined): string | undefined {
  if (group === undefined) return m[0];
  for (let k = group; k < m.length; k++) if (m[k] !== undefined) return m[k];
  return undefined;
}

/** The assignment between a key name and its value, at the end of the text before the value. */
const ASSIGN_AT_END = new RegExp(`(?:${ASSIGN})$`);
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
function keyName(text: string, matchStart: number, valueStart: number): string {
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
const PAGING_CONTEXT =
  /continuation|skiptoken|nexttoken|next_token|nextpage|next_page|pagetoken|page_token|cursor|paging|pagination/i;

/** A character right after a value that makes it a template's prefix (`lin_api_<your-key>`). */
function continuesAsTemplate(c: number): boolean {
  return c === 60 || c === 123 || c === 36 || c === 91; // < { $ [
}

/** Names under which a decoded value that says little by itself is still a secret. */
const SECRET_WORDISH = /pass|pwd|secret|token|key|auth|cred|private|cert|dsn|connection|api/i;

/** Base64 of random bytes: both cases, a digit, and entropy to match. */
function looksEncodedRandom(value: string): boolean {
  return /[0-9]/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && entropy(value) >= 3;
}

/** Text inside an encoded value is searched this deep (a Secret holding a base64 .env, say). */
const MAX_DEPTH = 2;

/**
 * Compiles a redactor. One prefilter pass finds the keywords of every rule (an Aho–Corasick
 * scan, fast over ordinary text); each rule then runs only on the lines around its keywords.
 * Structural detectors (private keys, name/value pairs, Kubernetes data, SMTP dialogues) run on
 * text holding their markers. Views see through hard wraps, quoted-printable soft breaks,
 * carriage-return redraws and look-alike letters in key names.
 *
 * @example
 * const redactEnv = createRedactor({ knownValues: [hostSecrets.dbPassword] });
 * redactEnv("DB_PASSWORD=hunter2hunter2").text; // "DB_PASSWORD=[REDACTED:secret_assignment]"
 */
export function createRedactor(options: RedactOptions = {}): Redactor {
  const disabled = new Set(options.disable ?? []);
  const rules = [...SECRET_RULES, ...optionalRules(options), ...(options.rules ?? [])].filter(
    (r) => !disabled.has(r.id),
  );
  const compiled: Compiled[] = rules.map((rule, rank) => {
    if (!Array.isArray(rule.keywords) || rule.keywords.length === 0) {
      throw new AirlockError("options/invalid", `redact: rule "${rule.id}" has no keywords`);
    }
    try {
      return {
        rule,
        rank,
        pattern: new RegExp(rule.pattern, rule.ignoreCase ? "gi" : "g"),
        reject:
          rule.reject === undefined
            ? undefined
            : new RegExp(rule.reject, rule.ignoreCase ? "i" : ""),
      };
    } catch (cause) {
      throw new AirlockError(
        "options/invalid",
        `redact: rule "${rule.id}" has an invalid pattern`,
        {
          cause,
        },
      );
    }
  });
  // Keywords to the rules they call for; one scanner finds them all.
  const byKeyword = new Map<string, { keyword: Keyword; rules: Compiled[] }>();
  for (const c of compiled) {
    for (const k of c.rule.keywords) {
      if (typeof k !== "string" || !/^[\x20-\x7e]+$/.test(k)) {
        throw new AirlockError(
          "options/invalid",
          `redact: rule "${c.rule.id}" has a keyword that is not printable ASCII`,
        );
      }
      const fold = c.rule.ignoreCase === true;
      const key = `${fold ? "i" : "s"}:${fold ? k.toLowerCase() : k}`;
      const entry = byKeyword.get(key) ?? { keyword: { text: k, fold }, rules: [] };
      if (!entry.rules.includes(c)) entry.rules.push(c);
      byKeyword.set(key, entry);
    }
  }
  // The structural detectors look for their own markers; the one scan tells whether a piece
  // holds any, so a piece without them costs no pass of theirs.
  const entries: Array<{ keyword: Keyword; rules: Compiled[]; gate?: Gate }> = [
    ...byKeyword.values(),
    ...GATES.filter(([, , gate]) => !disabled.has(GATE_RULE[gate])).map(([text, fold, gate]) => ({
      keyword: { text, fold },
      rules: [],
      gate,
    })),
  ];
  const scanner = createKeywordScanner(entries.map((e) => e.keyword));
  // Values are matched in the text as shaped: NFC, without the line break a file read leaves.
  const known = (options.knownValues ?? [])
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.trim().normalize("NFC"))
    .filter((v) => v.length >= 6);
  const keepExamples = options.keepExamples ?? true;
  const keepPlaceholders = options.keepPlaceholders ?? true;
  const allow = compileAllow(options.allow);
  const allowAll = allow.get("*");

  /** Every rule's keywords: the literal prefixes a placeholder may start with. */
  const allKeywords = [...new Set(compiled.flatMap((c) => c.rule.keywords))];

  /** A placeholder value: a word like `changeme`, or a token's prefix and a mask. */
  const isPlaceholder = (value: string): boolean =>
    PLACEHOLDER_VALUES.test(value) || (keepPlaceholders && isPlaceholderToken(value, allKeywords));

  const allowed = (rule: string, value: string): boolean => {
    for (const list of [allow.get(rule), allowAll]) {
      if (list === undefined) continue;
      if (list.literals.has(value)) return true;
      for (const p of list.patterns) if (p.test(value)) return true;
    }
    return false;
  };

  /** What an encoded value holds decides whether it is a secret (see EncodedJudge). */
  const judgeEncoded = (depth: number): EncodedJudge => {
    return (name, value, secretDoc) => {
      const bytes = decodeBase64(value);
      if (bytes === undefined) return undefined;
      const plain = asText(bytes);
      // Binary: key material or a keystore, unless nothing says it is a secret.
      if (plain === undefined) return bytes.length >= 8 && (secretDoc || SECRET_WORDISH.test(name));
      const t = plain.trim();
      if (t === "" || isPublicMaterial(t) || isPlaceholder(t)) return false;
      if (depth < MAX_DEPTH && scan(plain, undefined, depth + 1).length > 0) return true;
      if (isPlainDataName(name) || isPublicName(name)) return false;
      if (secretDoc || SECRET_WORDISH.test(name)) return t.length >= 4;
      return t.length >= 16 && !/\s/.test(t) && looksSecret(t);
    };
  };

  /**
   * Whether a line a secret-printing command printed is a secret: not a certificate or public
   * key (in base64 too), not a `kubectl` jsonpath of a public entry (`{.data.ca\.crt}`).
   */
  const printedSecret = (value: string, command: string): boolean => {
    const entry = /\.data\.([\w\\.-]{1,128})/.exec(command)?.[1]?.replace(/\\/g, "");
    if (entry !== undefined && isPlainDataName(entry)) return false;
    const bytes = decodeBase64(value);
    const plain = bytes === undefined ? undefined : asText(bytes);
    if (plain !== undefined && isPublicMaterial(plain.trim())) return false;
    if (isPlaceholderToken(value, allKeywords) || PLACEHOLDER_VALUES.test(value)) return false;
    return looksSecret(value, 8) || looksEncodedRandom(value);
  };

  /** Whether a base64 blob (standard or URL-safe) decodes to text that holds a secret. */
  const holdsSecret =
    (depth: number) =>
    (blob: string): boolean => {
      if (depth >= MAX_DEPTH) return false;
      const bytes = decodeBase64(blob.replace(/-/g, "+").replace(/_/g, "/"));
      const plain = bytes === undefined ? undefined : asText(bytes);
      return plain !== undefined && scan(plain, undefined, depth + 1).length > 0;
    };

  /** Whether a pattern's match is a secret: placeholders, allow-lists, key names, values. */
  const accept = (
    c: Compiled,
    value: string,
    text: string,
    matchStart: number,
    valueStart: number,
    depth: number,
  ): boolean => {
    const rule = c.rule;
    if (PLACEHOLDER_VALUES.test(value)) return false;
    if (keepPlaceholders && isPlaceholderToken(value, rule.keywords)) return false;
    if (c.reject?.test(value)) return false;
    if (keepExamples && isExample(value)) return false;
    if (allowed(rule.id, value)) return false;
    if (
      rule.minEntropy !== undefined &&
      (entropy(value) < rule.minEntropy || /^\d+$/.test(value))
    ) {
      return false;
    }
    if (isPublishable(value)) return false;
    if (rule.keyed) {
      const name = keyName(text, matchStart, valueStart);
      if (isPublicName(name)) return false;
      if (
        normalizeName(name) === "token" &&
        PAGING_CONTEXT.test(text.slice(Math.max(0, matchStart - 80), matchStart))
      ) {
        return false;
      }
      const after = text.charCodeAt(valueStart + value.length);
      if (continuesAsTemplate(after)) return false;
      if (rule.encoded === "base64") {
        const bytes = decodeBase64(value);
        // Not text inside: a hash, an identifier or raw key bytes. Only a value with the variety
        // of encoded random bytes (both cases and a digit) is taken for key material.
        if (bytes === undefined || asText(bytes) === undefined) return looksEncodedRandom(value);
        return judgeEncoded(depth)(name, value, false) === true;
      }
      if (!looksSecret(value)) return false;
    }
    return true;
  };

  const runRule = (
    c: Compiled,
    text: string,
    from: number,
    to: number,
    spans: Span[],
    depth: number,
  ) => {
    const region = text.slice(from, to);
    // The position is kept here, not in the shared pattern: judging an encoded value searches
    // the decoded text with the same patterns, which would move their lastIndex under us.
    let next = 0;
    for (;;) {
      c.pattern.lastIndex = next;
      const m = c.pattern.exec(region);
      if (m === null) break;
      next = m[0].length === 0 ? c.pattern.lastIndex + 1 : c.pattern.lastIndex;
      if (m[0].length === 0) continue;
      const value = secretOf(m, c.rule.group);
      if (value === undefined || value === "") continue;
      const offset = c.rule.group !== undefined ? m[0].lastIndexOf(value) : 0;
      const start = from + m.index + offset;
      if (!accept(c, value, text, from + m.index, start, depth)) continue;
      // A value longer than its pattern's bound goes on: take the rest of its run too, so
      // no tail of a long secret is left behind (and the scan resumes after it).
      let end = start + value.length;
      const base64 = /[+/]/.test(value);
      while (end < to && isTokenChar(text.charCodeAt(end), base64)) end++;
      if (end > start + value.length) next = end - from;
      spans.push({
        rule: c.rule.id,
        start,
        end,
        from: from + m.index,
        generality: c.rule.generality ?? 0,
        rank: c.rank,
      });
    }
  };

  /**
   * Every span the rules and detectors find in `text` (unmerged). At depth 0 the views are
   * searched too; inside a view or a decoded value they are not (each view is already a joined or
   * folded copy, and one level of it is enough).
   */
  function scan(text: string, state: RedactState | undefined, depth: number): Span[] {
    const spans: Span[] = [];
    // Lines with keyword hits, and the rules their keywords call for: each rule then runs once
    // over each such line, however many hits the line has (so the work stays linear).
    const lines = new Map<number, { end: number; rules: Set<Compiled> }>();
    let lineStart = 0;
    let lineEnd = -1;
    let line: { end: number; rules: Set<Compiled> } | undefined;
    const seen = new Set<Gate>();
    const wide = scanner.scan(text, (at, id) => {
      const entry = entries[id];
      if (entry?.gate !== undefined) seen.add(entry.gate);
      // A keyword holds no line break, so hits never go back to an earlier line. A detector's
      // marker counts as a hit for the views' gate (an encoded token wrapped over lines).
      if (at > lineEnd) {
        lineStart = text.lastIndexOf("\n", at) + 1;
        lineEnd = text.indexOf("\n", at);
        if (lineEnd === -1) lineEnd = text.length;
        line = lines.get(lineStart);
        if (line === undefined) {
          line = { end: lineEnd, rules: new Set() };
          lines.set(lineStart, line);
        }
      }
      for (const c of entry?.rules ?? []) line?.rules.add(c);
    });
    for (const [start, { end, rules }] of lines) {
      for (const c of rules) runRule(c, text, start, end, spans, depth);
    }
    if (seen.has("pem") || (state?.pem ?? 0) > 0) findPrivateKeys(text, spans, state);
    if (seen.has("named")) findNamedSecrets(text, spans);
    if (seen.has("jwk")) findJwkKeys(text, spans);
    if (seen.has("encoded")) findEncodedKeys(text, spans);
    if (seen.has("kube")) findKubernetesData(text, spans, judgeEncoded(depth), isPlaceholder);
    if (seen.has("mail")) findMailLogins(text, spans);
    if (seen.has("putty")) findPuttyKeys(text, spans);
    if (seen.has("output")) findCommandOutput(text, spans, printedSecret);
    if (seen.has("block")) findSecretBlocks(text, spans);
    if (seen.has("b64token")) findEncodedTokens(text, spans, holdsSecret(depth));
    if (seen.has("pgpass")) findPgpass(text, spans);
    if (seen.has("snyk")) findSnykConfig(text, spans);
    for (const value of known) {
      for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
        spans.push({ rule: "known_value", start: i, end: i + value.length, generality: 0 });
      }
    }
    if (depth === 0) searchViews(text, lines, wide, spans);
    let out = spans;
    // Values public by design (a SealedSecret's ciphertext) are not redacted by their key names.
    if (seen.has("sealed")) {
      const shields = publicBlocks(text);
      if (shields.length > 0) {
        out = out.filter(
          (s) => s.generality === 0 || !shields.some(([a, b]) => s.start >= a && s.end <= b),
        );
      }
    }
    // Examples and allow-listed values stay whichever detector found them.
    if (keepExamples || allow.size > 0) {
      out = out.filter((s) => {
        if (s.continued) return true;
        const value = text.slice(s.start, s.end);
        return !(keepExamples && isExample(value)) && !allowed(s.rule, value);
      });
    }
    if (depth === 0) echoes(text, out);
    return out;
  }

  /**
   * Other occurrences of a secret found once (a tool echoing the value it was given: `bundle
   * config` repeating a credential, an error quoting the password): redacted too. Bounded to
   * texts the size of a tool result, and to a few dozen values.
   */
  function echoes(text: string, spans: Span[]): void {
    if (spans.length === 0 || text.length > ECHO_TEXT_MAX) return;
    const values = new Map<string, Span>();
    for (const s of spans) {
      if (s.continued || s.end - s.start < ECHO_MIN || values.size >= ECHO_VALUES) continue;
      const value = text.slice(s.start, s.end);
      if (!value.includes("\n") && !values.has(value)) values.set(value, s);
    }
    for (const [value, s] of values) {
      for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
        if (i === s.start) continue;
        spans.push({ rule: s.rule, start: i, end: i + value.length, generality: s.generality });
      }
    }
  }

  /**
   * Spans found in a view, moved to the text; only those the view made whole are kept. `cut`
   * turns down a span that crosses a seam where the text already had a complete match ending.
   */
  const inView = (view: View, spans: Span[], cut?: (start: number, end: number) => boolean) => {
    for (const s of scan(view.text, undefined, 1)) {
      const span = spanInText(view, s.start, s.end);
      if (span === undefined || cut?.(span.start, span.end)) continue;
      const from = s.from === undefined ? undefined : view.at[s.from];
      spans.push({
        rule: s.rule,
        generality: s.generality,
        ...(s.rank !== undefined ? { rank: s.rank } : {}),
        ...span,
        ...(from !== undefined && from < span.start ? { from } : {}),
      });
    }
  };

  /** True when a piece of text holds a keyword of some rule (not only a detector's marker). */
  const hasKeyword = (text: string): boolean => {
    let found = false;
    scanner.scan(text, (_at, id) => {
      if (entries[id]?.gate === undefined) found = true;
    });
    return found;
  };

  function searchViews(
    text: string,
    lines: ReadonlyMap<number, unknown>,
    wide: number,
    spans: Span[],
  ): void {
    // Carriage-return redraws: the key before a return, the value after it.
    if (text.indexOf("\r") !== -1) {
      for (const r of redrawRegions(text)) {
        if (lines.has(r.lines[0] as number)) inView(cutView(text, r.from, r.to, r.removals), spans);
      }
    }
    // Hard wraps and soft breaks: a region is searched when one of its lines had a keyword, or
    // when a keyword was cut by one of its breaks. A line that already ends in a complete match
    // is not continued by the next one: a token that ends where its line does is whole, and the
    // next line's first word is not its tail (this leaves at most the tail of a token longer
    // than its format's minimum, cut after that minimum).
    if (text.indexOf("\n") !== -1) {
      let ends: Set<number> | undefined;
      // The scan meets lines in order, so the map's keys are ascending.
      for (const r of wrapRegions(text, [...lines.keys()])) {
        let gated = r.lines.some((start) => lines.has(start));
        for (let k = 0; !gated && k < r.removals.length; k++) {
          const cut = r.removals[k] as { start: number; end: number };
          gated = hasKeyword(
            text.slice(Math.max(r.from, cut.start - 24), cut.start) +
              text.slice(cut.end, cut.end + 24),
          );
        }
        if (!gated) continue;
        ends ??= new Set(spans.map((s) => s.end));
        const complete = ends;
        const cuts = r.removals.map((cut) => cut.start);
        inView(cutView(text, r.from, r.to, r.removals), spans, (start, end) => {
          for (let k = firstAfter(cuts, start); k < cuts.length; k++) {
            const cut = r.removals[k] as Seam;
            if (cut.start >= end) break;
            // A match complete at its line's end is not continued across a weak seam; a
            // placeholder that ends where its line does is not continued at all.
            // (A match may end before a soft break's `=` or after it, as base64 padding.)
            const whole = complete.has(cut.start) || complete.has(cut.start + 1);
            if (!cut.strong && whole && tokenRun(text, cut.end) < WEAK_TAIL) {
              return true;
            }
            if (isPlaceholderToken(text.slice(start, cut.start), [])) return true;
          }
          return false;
        });
      }
    }
    // Look-alike letters and invisibles in key names: lines with non-ASCII characters.
    if (wide > 0) {
      for (let at = nextWide(text, 0); at !== -1; ) {
        const start = text.lastIndexOf("\n", at) + 1;
        let end = text.indexOf("\n", at);
        if (end === -1) end = text.length;
        at = nextWide(text, end);
        for (let from = start; from < end; from += FOLD_WINDOW - FOLD_OVERLAP) {
          const to = Math.min(end, from + FOLD_WINDOW);
          const view = foldView(text, from, to);
          if (view !== undefined && hasKeyword(view.text)) inView(view, spans);
          if (to === end) break;
        }
      }
    }
  }

  const engine: Engine = {
    find(text: string, state?: RedactState): Span[] {
      return merge(scan(text, state, 0));
    },
  };
  const redactText = (text: string): Redacted => apply(text, engine.find(text));
  engines.set(redactText, engine);
  return redactText;
}

const WIDE = /[\u0080-\uffff]/g;

/** Where the next character that is not ASCII is, from `from` on, or -1 (a native search). */
function nextWide(text: string, from: number): number {
  WIDE.lastIndex = from;
  return WIDE.exec(text)?.index ?? -1;
}

/**
 * After a weak seam (equal-length lines at an uncommon width), a match complete at the line's end
 * is continued only by a next line that starts with at least this many token characters: the
 * rest of a wrapped token, not a word or a timestamp.
 */
const WEAK_TAIL = 16;

/** Length of the run of token characters (base64, `-`, `_`, `.`) at `at`. */
function tokenRun(text: string, at: number): number {
  let i = at;
  while (
    i < text.length &&
    i - at < WEAK_TAIL &&
    (isTokenChar(text.charCodeAt(i), true) || text.charCodeAt(i) === 46)
  )
    i++;
  return i - at;
}

/** Echoes of a found secret are searched in texts up to this long, for this many values. */
const ECHO_TEXT_MAX = 1 << 20;
const ECHO_VALUES = 32;
const ECHO_MIN = 8;

/** Lines longer than this are folded in overlapping windows. */
const FOLD_WINDOW = 16 * 1024;
const FOLD_OVERLAP = 1024;

/**
 * The redactor behind a `Redactor` function, for the streaming filter: it finds spans (without
 * applying them) and carries the "inside a private key" state from one piece of text to the next.
 */
export interface Engine {
  find(text: string, state?: RedactState): Span[];
}

const engines = new WeakMap<Redactor, Engine>();

/** The engine of a redactor made by `createRedactor`. */
export function engineOf(redactor: Redactor): Engine | undefined {
  return engines.get(redactor);
}

/**
 * True when `a` names a shared span rather than `b` (which sorts first): it is more specific, or
 * as specific and the same span found by an earlier rule.
 */
function outranks(a: Span, b: Span): boolean {
  if (a.generality !== b.generality) return a.generality < b.generality;
  if (a.start !== b.start || a.end !== b.end) return false;
  return (a.rank ?? Number.MAX_SAFE_INTEGER) < (b.rank ?? Number.MAX_SAFE_INTEGER);
}

/**
 * Merges overlapping spans into their union (nothing any rule found survives) and names the union
 * after its most specific rule: a GitHub token in a URL's password is a github_token.
 */
export function merge(spans: Span[]): Span[] {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end || a.generality - b.generality);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s.start < last.end) {
      const named = outranks(s, last) ? s : last;
      merged[merged.length - 1] = {
        rule: named.rule,
        generality: named.generality,
        ...(named.rank !== undefined ? { rank: named.rank } : {}),
        start: last.start,
        end: Math.max(last.end, s.end),
        ...(last.continued ? { continued: true } : {}),
      };
      continue;
    }
    merged.push(s);
  }
  return merged;
}

/**
 * Replaces merged, ordered spans with `[REDACTED:<rule>]`. A span over several lines (a private
 * key) becomes one replacement a line, so line numbers after it still match the input.
 */
export function apply(text: string, spans: readonly Span[]): Redacted {
  if (spans.length === 0) return { text, findings: [] };
  let out = "";
  let at = 0;
  for (const s of spans) {
    const tag = `[REDACTED:${s.rule}]`;
    out += text.slice(at, s.start);
    // Only the span is searched for line breaks: one long line with many spans stays linear.
    const lines = text.slice(s.start, s.end).split("\n");
    out += lines.map((line, i) => (line === "" && i === lines.length - 1 ? "" : tag)).join("\n");
    at = s.end;
  }
  out += text.slice(at);
  return { text: out, findings: spans.map(({ rule, start, end }) => ({ rule, start, end })) };
}

/**
 * Removes secrets from text: each becomes `[REDACTED:<rule>]`, and `findings` say which rule
 * matched where (positions in the input), never the value.
 *
 * @example
 * redact("export GITHUB_TOKEN=ghp_" + "a".repeat(36)).text; // "export GITHUB_TOKEN=[REDACTED:github_token]"
 */
export function redact(text: string, options?: RedactOptions): Redacted {
  return createRedactor(options)(text);
}
