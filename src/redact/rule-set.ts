/**
 * A rule set compiled once from the options: the rules and their patterns, one keyword scanner for
 * every rule's keywords and every detector's markers, the host's known values, and the checks a
 * found value passes (placeholders, allow-lists).
 */
import { GATE_RULE, GATES, type Gate } from "./gates.js";
import { isPlaceholderToken, PLACEHOLDER_VALUES } from "./judge.js";
import { createKeywordScanner, type Keyword } from "./keywords.js";
import {
  type CompiledAllow,
  checkRedactOptions,
  compileAllow,
  optionalRules,
  type RedactOptions,
} from "./options.js";
import { SECRET_RULES, type SecretRule } from "./rules.js";

export interface Compiled {
  readonly rule: SecretRule;
  /** The rule's place in the list: where rules of one generality find one secret, the first names it. */
  readonly rank: number;
  readonly pattern: RegExp;
  readonly reject: RegExp | undefined;
}

export interface RuleSet {
  readonly disabled: ReadonlySet<string>;
  readonly compiled: readonly Compiled[];
  readonly entries: ReadonlyArray<{ keyword: Keyword; rules: Compiled[]; gate?: Gate }>;
  readonly scanner: ReturnType<typeof createKeywordScanner>;
  readonly known: readonly string[];
  readonly keepExamples: boolean;
  readonly keepPlaceholders: boolean;
  readonly allow: ReadonlyMap<string, CompiledAllow>;
  readonly allKeywords: readonly string[];
  isPlaceholder(value: string): boolean;
  allowed(rule: string, value: string): boolean;
}

/**
 * @example
 * const rules = compileRules({ disable: ["jwt"] });
 * rules.allowed("github_token", value);
 */
export function compileRules(options: RedactOptions = {}): RuleSet {
  checkRedactOptions(options);
  const disabled = new Set(options.disable ?? []);
  const rules = [...SECRET_RULES, ...optionalRules(options), ...(options.rules ?? [])].filter(
    (r) => !disabled.has(r.id),
  );
  const compiled: Compiled[] = rules.map((rule, rank) => ({
    rule,
    rank,
    pattern: new RegExp(rule.pattern, rule.ignoreCase ? "gi" : "g"),
    reject:
      rule.reject === undefined ? undefined : new RegExp(rule.reject, rule.ignoreCase ? "i" : ""),
  }));
  // Keywords to the rules they call for; one scanner finds them all.
  const byKeyword = new Map<string, { keyword: Keyword; rules: Compiled[] }>();
  for (const c of compiled) {
    for (const k of c.rule.keywords) {
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

  return {
    disabled,
    compiled,
    entries,
    scanner,
    known,
    keepExamples,
    keepPlaceholders,
    allow,
    allKeywords,
    isPlaceholder,
    allowed,
  };
}
