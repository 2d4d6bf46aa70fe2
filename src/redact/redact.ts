import { AirlockError } from "../errors.js";
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
}

/** A compiled redactor: rules are compiled once, the function is pure. */
export type Redactor = (text: string) => Redacted;

interface Compiled {
  readonly rule: SecretRule;
  readonly pattern: RegExp;
}

/** A PEM block longer than this is not a key (and the search for its end stops here). */
const MAX_PEM = 64 * 1024;
const PEM_BEGIN = "-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----";

function escapeLiteral(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
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
  const rules = [...SECRET_RULES, ...(options.rules ?? [])].filter((r) => !disabled.has(r.id));
  const compiled: Compiled[] = rules.map((rule) => {
    if (rule.keywords.length === 0) {
      throw new AirlockError("options/invalid", `redact: rule "${rule.id}" has no keywords`);
    }
    try {
      return { rule, pattern: new RegExp(rule.pattern, rule.ignoreCase ? "gi" : "g") };
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
  // Keywords to rules, in two prefilters: exact case, and any case for rules that ignore it.
  const exact = new Map<string, Compiled[]>();
  const folded = new Map<string, Compiled[]>();
  for (const c of compiled) {
    for (const k of c.rule.keywords) {
      const map = c.rule.ignoreCase ? folded : exact;
      const key = c.rule.ignoreCase ? k.toLowerCase() : k;
      map.set(key, [...(map.get(key) ?? []), c]);
    }
  }
  const longest = Math.max(0, ...[...exact.keys(), ...folded.keys()].map((k) => k.length));
  const exactSource = [...exact.keys()].map(escapeLiteral).join("|");
  const foldedSource = [...folded.keys()].map(escapeLiteral).join("|");
  const known = (options.knownValues ?? []).filter((v) => typeof v === "string" && v.length >= 6);
  const keepExamples = options.keepExamples ?? false;
  const pemBegin = new RegExp(PEM_BEGIN, "g");

  return function redactText(text: string): Redacted {
    const spans: Span[] = [];
    // Lines with keyword hits, and the rules their keywords call for: each rule then runs once
    // over each such line, however many hits the line has (so the work stays linear).
    const lines = new Map<number, { end: number; rules: Set<Compiled> }>();
    const scan = (source: string, flags: string, table: Map<string, Compiled[]>, fold: boolean) => {
      if (source === "") return;
      const prefilter = new RegExp(source, flags);
      let lineStart = 0;
      let lineEnd = -1;
      let entry: { end: number; rules: Set<Compiled> } | undefined;
      for (let m = prefilter.exec(text); m !== null; m = prefilter.exec(text)) {
        const at = m.index;
        // Keywords may overlap ("sk-ant-" and "sk-"): look again one character on.
        prefilter.lastIndex = at + 1;
        if (at > lineEnd) {
          lineStart = text.lastIndexOf("\n", at) + 1;
          lineEnd = text.indexOf("\n", at);
          if (lineEnd === -1) lineEnd = text.length;
          entry = lines.get(lineStart);
          if (entry === undefined) {
            entry = { end: lineEnd, rules: new Set() };
            lines.set(lineStart, entry);
          }
        }
        // Every keyword that starts here counts, not only the one the alternation picked.
        const here = text.slice(at, at + longest);
        const probe = fold ? here.toLowerCase() : here;
        for (const [keyword, rules] of table) {
          if (probe.startsWith(keyword)) for (const c of rules) entry?.rules.add(c);
        }
      }
    };
    const runRule = (c: Compiled, from: number, to: number) => {
      const region = text.slice(from, to);
      c.pattern.lastIndex = 0;
      for (let m = c.pattern.exec(region); m !== null; m = c.pattern.exec(region)) {
        if (m[0].length === 0) {
          c.pattern.lastIndex++;
          continue;
        }
        const value = c.rule.group !== undefined ? m[c.rule.group] : m[0];
        if (value === undefined || value === "") continue;
        if (PLACEHOLDER_VALUES.test(value)) continue;
        if (keepExamples && EXAMPLE_VALUES.has(value)) continue;
        if (
          c.rule.minEntropy !== undefined &&
          (entropy(value) < c.rule.minEntropy || /^\d+$/.test(value))
        ) {
          continue;
        }
        const offset = c.rule.group !== undefined ? m[0].lastIndexOf(value) : 0;
        const start = from + m.index + offset;
        spans.push({
          rule: c.rule.id,
          start,
          end: start + value.length,
          generality: c.rule.generality ?? 0,
        });
      }
    };
    scan(exactSource, "g", exact, false);
    scan(foldedSource, "gi", folded, true);
    for (const [start, { end, rules }] of lines) for (const c of rules) runRule(c, start, end);

    // PEM private keys: from BEGIN to the matching END, however many lines (or literal "\n"s).
    pemBegin.lastIndex = 0;
    for (let m = pemBegin.exec(text); m !== null; m = pemBegin.exec(text)) {
      const endLine = `-----END ${m[1] ?? ""}PRIVATE KEY`;
      const end = text.indexOf(endLine, m.index + m[0].length);
      const stop =
        end === -1 || end - m.index > MAX_PEM ? Math.min(text.length, m.index + MAX_PEM) : end;
      // Without an END line the rest of the block (up to the limit) is redacted: fail closed.
      const close = end === -1 ? stop : text.indexOf("-----", end + endLine.length);
      const last = close === -1 ? stop : close + 5;
      spans.push({
        rule: "private_key",
        start: m.index,
        end: Math.min(last, text.length),
        generality: 0,
      });
      pemBegin.lastIndex = Math.max(pemBegin.lastIndex, last);
    }

    for (const value of known) {
      for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
        spans.push({ rule: "known_value", start: i, end: i + value.length, generality: 0 });
      }
    }
    return apply(text, spans);
  };
}

interface Span extends Finding {
  readonly generality: number;
}

/**
 * Merges overlapping spans into their union (nothing any rule found survives) and names the union
 * after its most specific rule: a GitHub token in a URL's password is a github_token.
 */
function apply(text: string, spans: Span[]): Redacted {
  if (spans.length === 0) return { text, findings: [] };
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
      };
      continue;
    }
    merged.push(s);
  }
  let out = "";
  let at = 0;
  for (const s of merged) {
    out += `${text.slice(at, s.start)}[REDACTED:${s.rule}]`;
    at = s.end;
  }
  out += text.slice(at);
  return { text: out, findings: merged.map(({ rule, start, end }) => ({ rule, start, end })) };
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
