import { AirlockError } from "../errors/airlock-error.js";
import { createKeywordScanner, type Keyword } from "./keywords.js";
import { PATH_RULES, PII_RULES, tenantRule } from "./optional.js";
import { EXAMPLE_VALUES, PLACEHOLDER_VALUES, SECRET_RULES, type SecretRule } from "./rules.js";

/** Where a secret was found: the rule and the span in the input. Never the value. */
export interface Finding {
  readonly rule: string;
  readonly start: number;
  readonly end: number;
}

export interface Redacted {
  readonly text: string;
  readonly findings: readonly Finding[];
}

export interface RedactOptions {
  /** Extra rules, checked like the built-in ones. */
  readonly rules?: readonly SecretRule[];
  /** Built-in rule ids to turn off. */
  readonly disable?: readonly string[];
  /** Exact values the host knows are secret (its own environment); at least 6 characters each. */
  readonly knownValues?: readonly string[];
  /** Keep keys that vendors publish as documentation examples (`AKIAIOSFODNN7EXAMPLE`). Default false. */
  readonly keepExamples?: boolean;
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

/** The structural detectors, each run only on text holding one of its markers. */
type Gate = "pem" | "named" | "jwk" | "encoded";
const GATES: ReadonlyArray<readonly [string, boolean, Gate]> = [
  ["-----BEGIN ", false, "pem"],
  ["-----END ", false, "pem"],
  ["value", true, "named"],
  ['"kty"', false, "jwk"],
  ["LS0tLS1CRUdJTi", false, "encoded"],
];

/** A compiled redactor: rules are compiled once, the function is pure. */
export type Redactor = (text: string) => Redacted;

interface Compiled {
  readonly rule: SecretRule;
  readonly pattern: RegExp;
  readonly reject: RegExp | undefined;
}

/** A PEM block longer than this is not a key (and the search for its end stops here). */
const MAX_PEM = 64 * 1024;
const PEM_BEGIN = "-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----";

/** The secret of a match: the rule's group, or the first group after it that took part. */
function secretOf(m: RegExpExecArray, group: number | undefined): string | undefined {
  if (group === undefined) return m[0];
  for (let k = group; k < m.length; k++) if (m[k] !== undefined) return m[k];
  return undefined;
}

/**
 * Characters of base64url and hex tokens (and with `base64`, of standard base64: `+ / =`, for a
 * value that already holds them; a user name before `/src` is not base64).
 */
export function isTokenChar(c: number, base64: boolean): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 45 ||
    (base64 && (c === 43 || c === 47 || c === 61))
  );
}

/** Shannon entropy in bits a character. */
function entropy(value: string): number {
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
 * Compiles a redactor. One prefilter pass finds the keywords of every rule (a literal alternation,
 * fast over ordinary text); each rule then runs only on the lines around its keywords. PEM private
 * keys are found by their BEGIN line and cut to their END line, across lines and in JSON strings
 * with literal `\n`.
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
  const compiled: Compiled[] = rules.map((rule) => {
    if (rule.keywords.length === 0) {
      throw new AirlockError("options/invalid", `redact: rule "${rule.id}" has no keywords`);
    }
    try {
      return {
        rule,
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
      if (!/^[\x20-\x7e]+$/.test(k)) {
        throw new AirlockError(
          "options/invalid",
          `redact: rule "${c.rule.id}" has a keyword that is not printable ASCII`,
        );
      }
      const fold = c.rule.ignoreCase === true;
      const key = `${fold ? "i" : "s"}:${fold ? k.toLowerCase() : k}`;
      const entry = byKeyword.get(key) ?? { keyword: { text: k, fold }, rules: [] };
      entry.rules.push(c);
      byKeyword.set(key, entry);
    }
  }
  // The structural detectors look for their own markers; the one scan tells whether a piece
  // holds any, so a piece without them costs no pass of theirs.
  const entries: Array<{ keyword: Keyword; rules: Compiled[]; gate?: Gate }> = [
    ...byKeyword.values(),
    ...GATES.map(([text, fold, gate]) => ({ keyword: { text, fold }, rules: [], gate })),
  ];
  const scanner = createKeywordScanner(entries.map((e) => e.keyword));
  // Values are matched in the text as shaped: NFC, without the line break a file read leaves.
  const known = (options.knownValues ?? [])
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.trim().normalize("NFC"))
    .filter((v) => v.length >= 6);
  const keepExamples = options.keepExamples ?? false;

  const engine: Engine = {
    find(text: string, state?: RedactState): Span[] {
      const spans: Span[] = [];
      // Lines with keyword hits, and the rules their keywords call for: each rule then runs once
      // over each such line, however many hits the line has (so the work stays linear).
      const lines = new Map<number, { end: number; rules: Set<Compiled> }>();
      const runRule = (c: Compiled, from: number, to: number) => {
        const region = text.slice(from, to);
        c.pattern.lastIndex = 0;
        for (let m = c.pattern.exec(region); m !== null; m = c.pattern.exec(region)) {
          if (m[0].length === 0) {
            c.pattern.lastIndex++;
            continue;
          }
          const value = secretOf(m, c.rule.group);
          if (value === undefined || value === "") continue;
          if (PLACEHOLDER_VALUES.test(value)) continue;
          if (c.reject?.test(value)) continue;
          if (keepExamples && EXAMPLE_VALUES.has(value)) continue;
          if (
            c.rule.minEntropy !== undefined &&
            (entropy(value) < c.rule.minEntropy || /^\d+$/.test(value))
          ) {
            continue;
          }
          const offset = c.rule.group !== undefined ? m[0].lastIndexOf(value) : 0;
          const start = from + m.index + offset;
          // A value longer than its pattern's bound goes on: take the rest of its run too, so
          // no tail of a long secret is left behind (and the scan resumes after it).
          let end = start + value.length;
          const base64 = /[+/]/.test(value);
          while (end < to && isTokenChar(text.charCodeAt(end), base64)) end++;
          if (end > start + value.length) c.pattern.lastIndex = end - from;
          spans.push({
            rule: c.rule.id,
            start,
            end,
            from: from + m.index,
            generality: c.rule.generality ?? 0,
          });
        }
      };
      let lineStart = 0;
      let lineEnd = -1;
      let line: { end: number; rules: Set<Compiled> } | undefined;
      const seen = new Set<Gate>();
      scanner.scan(text, (at, id) => {
        const entry = entries[id];
        if (entry?.gate !== undefined) {
          seen.add(entry.gate);
          return;
        }
        // A keyword holds no line break, so hits never go back to an earlier line.
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
      for (const [start, { end, rules }] of lines) for (const c of rules) runRule(c, start, end);
      if (seen.has("pem") || (state?.pem ?? 0) > 0) findPrivateKeys(text, spans, state);
      if (seen.has("named") && !disabled.has("named_secret")) findNamedSecrets(text, spans);
      if (seen.has("jwk") && !disabled.has("jwk_private_key")) findJwkKeys(text, spans);
      if (seen.has("encoded") && !disabled.has("private_key")) findEncodedKeys(text, spans);
      for (const value of known) {
        for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
          spans.push({ rule: "known_value", start: i, end: i + value.length, generality: 0 });
        }
      }
      return merge(spans);
    },
  };
  const redactText = (text: string): Redacted => apply(text, engine.find(text));
  engines.set(redactText, engine);
  return redactText;
}

/**
 * The redactor behind a `Redactor` function, for the streaming filter: it finds spans (without
 * applying them) and carries the "inside a private key" state from one piece of text to the next.
 */
export interface Engine {
  find(text: string, state?: RedactState): Span[];
}

/** What a streamed redaction remembers between pieces of text. */
export interface RedactState {
  /** Characters of an unterminated private key block seen so far; 0 outside one. */
  pem: number;
}

const engines = new WeakMap<Redactor, Engine>();

/** The engine of a redactor made by `createRedactor`. */
export function engineOf(redactor: Redactor): Engine | undefined {
  return engines.get(redactor);
}

const PEM_END = /-----END ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * Private keys: from a BEGIN line to the matching END line, however many lines (or literal
 * `\n`s) apart. Fails closed: a BEGIN without an END is redacted up to MAX_PEM characters (and,
 * streamed, into the next pieces); an END without a BEGIN (text that starts inside a key) takes
 * the key material before it.
 */
function findPrivateKeys(text: string, spans: Span[], state: RedactState | undefined): void {
  let from = 0;
  if (state !== undefined && state.pem > 0) {
    PEM_END.lastIndex = 0;
    const end = PEM_END.exec(text);
    const stop = end === null ? text.length : end.index + end[0].length;
    const open = end === null && state.pem + text.length < MAX_PEM;
    if (stop > 0) {
      spans.push({ rule: "private_key", start: 0, end: stop, generality: 0, continued: true });
    }
    state.pem = open ? state.pem + text.length : 0;
    if (open) return;
    from = stop;
  }
  const pemBegin = new RegExp(PEM_BEGIN, "g");
  pemBegin.lastIndex = from;
  let orphanFrom = from;
  for (let m = pemBegin.exec(text); m !== null; m = pemBegin.exec(text)) {
    markOrphanEnds(text, orphanFrom, m.index, spans);
    const endLine = `-----END ${m[1] ?? ""}PRIVATE KEY`;
    const end = text.indexOf(endLine, m.index + m[0].length);
    const stop =
      end === -1 || end - m.index > MAX_PEM ? Math.min(text.length, m.index + MAX_PEM) : end;
    // Without an END line the rest of the block (up to the limit) is redacted: fail closed.
    const close = end === -1 ? stop : text.indexOf("-----", end + endLine.length);
    const last = Math.min(close === -1 ? stop : close + 5, text.length);
    spans.push({ rule: "private_key", start: m.index, end: last, generality: 0 });
    if (state !== undefined && end === -1 && last === text.length) {
      state.pem = last - m.index;
    }
    pemBegin.lastIndex = Math.max(pemBegin.lastIndex, last);
    orphanFrom = last;
  }
  markOrphanEnds(text, orphanFrom, text.length, spans);
}

/**
 * A `name` field that names a secret and the `value` field after it, on the same line or the
 * next: HAR headers and cookies (`{"name": "Authorization", "value": "Basic …"}`), Kubernetes env
 * (`- name: DB_PASSWORD` then `value: …`), .NET settings (`<add key="ApiKey" value="…" />`),
 * Terraform and CI variable lists.
 */
const NAMED =
  /(?:^|[\s{,[<-])["']?(?:name|key)["']?\s*[:=]\s*["']?([A-Za-z0-9_.-]{1,100})["']?[ \t]*,?[ \t]*(?:\r?\n[ \t]*(?:-[ \t]*)?)?["']?value["']?\s*[:=][ \t]*(?:"((?:[^"\\\r\n]|\\.){1,4096})"|'([^'\r\n]{1,4096})'|([^\s"'{[][^\r\n]{0,4095}))/gi;
const SECRET_NAME =
  /pass|secret|token|key|auth|cookie|session|sess\b|sid\b|credential|private|signature/i;
const NOT_SECRET_NAME = /public|_id$|keyid$|\bid$|type$|expir|path$|url$|name$/i;

function findNamedSecrets(text: string, spans: Span[]): void {
  // Called only when the scan saw "value"; the name field must be there too.
  if (!/name|key/i.test(text)) return;
  NAMED.lastIndex = 0;
  for (let m = NAMED.exec(text); m !== null; m = NAMED.exec(text)) {
    const name = m[1] ?? "";
    const quoted = m[4] === undefined;
    const raw = m[2] ?? m[3] ?? m[4] ?? "";
    // An unquoted value runs to the end of the line, less trailing spaces.
    const value = quoted ? raw : raw.trimEnd();
    if (!SECRET_NAME.test(name) || NOT_SECRET_NAME.test(name)) continue;
    if (value.length < 6 || PLACEHOLDER_VALUES.test(value) || entropy(value) < 2.5) continue;
    const end = m.index + m[0].length - (quoted ? 1 : raw.length - value.length);
    const start = end - value.length;
    spans.push({ rule: "named_secret", start, end: start + value.length, generality: 2 });
  }
}

/** A JWK's private members, near a `"kty"` (before or after it, over several lines). */
const JWK_PRIVATE = /"(?:d|p|q|dp|dq|qi|k)"\s{0,5}:\s{0,5}"([A-Za-z0-9_-]{16,8192})"/g;
const JWK_BEFORE = 4096;
const JWK_AFTER = 16 * 1024;

function findJwkKeys(text: string, spans: Span[]): void {
  let scanned = 0;
  for (let at = text.indexOf('"kty"'); at !== -1; at = text.indexOf('"kty"', at + 5)) {
    const from = Math.max(scanned, at - JWK_BEFORE);
    const to = Math.min(text.length, at + JWK_AFTER);
    if (from >= to) continue;
    JWK_PRIVATE.lastIndex = 0;
    const window = text.slice(from, to);
    for (let m = JWK_PRIVATE.exec(window); m !== null; m = JWK_PRIVATE.exec(window)) {
      const value = m[1] as string;
      const start = from + m.index + m[0].lastIndexOf(value);
      spans.push({ rule: "jwk_private_key", start, end: start + value.length, generality: 0 });
    }
    scanned = to;
  }
}

/** "-----BEGIN" in base64: a key file encoded whole (kubeconfig `client-key-data`, secrets). */
const ENCODED_BEGIN = "LS0tLS1CRUdJTi";
const ENCODED_RUN = /[A-Za-z0-9+/=]{0,65536}/y;

function findEncodedKeys(text: string, spans: Span[]): void {
  for (let at = text.indexOf(ENCODED_BEGIN); at !== -1; at = text.indexOf(ENCODED_BEGIN, at + 1)) {
    ENCODED_RUN.lastIndex = at;
    const run = ENCODED_RUN.exec(text)?.[0] ?? "";
    // Certificates are encoded the same way and are public: decode the header to tell.
    let header = "";
    try {
      header = atob(run.slice(0, 64));
    } catch {
      header = "";
    }
    if (/PRIVATE KEY/.test(header)) {
      spans.push({ rule: "private_key", start: at, end: at + run.length, generality: 0 });
    }
    at += Math.max(0, run.length - 1);
  }
}

/** END lines in `text[from, to)` with no BEGIN before them: the key material before each goes. */
function markOrphanEnds(text: string, from: number, to: number, spans: Span[]): void {
  if (text.indexOf("-----END ", from) === -1) return;
  PEM_END.lastIndex = from;
  for (let m = PEM_END.exec(text); m !== null && m.index < to; m = PEM_END.exec(text)) {
    const start = keyMaterialBefore(text, m.index, Math.max(from, m.index - MAX_PEM));
    spans.push({ rule: "private_key", start, end: m.index + m[0].length, generality: 0 });
  }
}

/**
 * Where the whole lines of key material (base64, lines broken by real or literal `\n`) that end
 * at `at` begin. A line with anything else in it is not key material and is not taken.
 */
function keyMaterialBefore(text: string, at: number, floor: number): number {
  let start = at;
  let i = at;
  while (i > floor) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13) {
      start = i;
      i--;
    } else if (c === 110 && i - 2 >= floor && text.charCodeAt(i - 2) === 92) {
      start = i;
      i -= 2;
    } else if (c === 34 || c === 39) {
      // A quote opens the string value that holds the key (JSON, YAML).
      start = i;
      break;
    } else if (isBase64(c)) {
      i--;
      if (i === floor) start = floor;
    } else {
      break;
    }
  }
  return start;
}

function isBase64(c: number): boolean {
  return c !== 95 && c !== 45 && isTokenChar(c, true);
}

export interface Span extends Finding {
  readonly generality: number;
  /** Where the whole match began (its key name, say), when that is before `start`. */
  readonly from?: number;
  /** The rest of a private key that began in an earlier piece of a stream (not a new finding). */
  readonly continued?: boolean;
}

/**
 * Merges overlapping spans into their union (nothing any rule found survives) and names the union
 * after its most specific rule: a GitHub token in a URL's password is a github_token.
 */
function merge(spans: Span[]): Span[] {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end || a.generality - b.generality);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s.start < last.end) {
      const named = s.generality < last.generality ? s : last;
      merged[merged.length - 1] = {
        rule: named.rule,
        generality: named.generality,
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
