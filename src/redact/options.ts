/** The options of `redact()` and their checks, compiled once. */
import { AirlockError } from "../errors/airlock-error.js";
import { PATH_RULES, PII_RULES, tenantRule } from "./optional.js";
import type { SecretRule } from "./rules.js";

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

export function optionalRules(options: RedactOptions): SecretRule[] {
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

export interface CompiledAllow {
  readonly literals: ReadonlySet<string>;
  readonly patterns: readonly RegExp[];
}

/** Checks and copies the allow-lists once: literals in a set, patterns without state. */
export function compileAllow(allow: RedactOptions["allow"]): Map<string, CompiledAllow> {
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

/**
 * Checks what the host wrote (its rules, allow-lists, path roots), without the built-in rule set:
 * options are refused when they are compiled, while the rules themselves load on first use.
 *
 * @example
 * checkRedactOptions({ rules: [{ id: "acme", keywords: [], pattern: "acme_\\w+" }] }); // throws options/invalid
 */
export function checkRedactOptions(options: RedactOptions): void {
  for (const key of ["rules", "disable", "knownValues"] as const) {
    const list = options[key];
    if (list !== undefined && !Array.isArray(list)) {
      throw new AirlockError("options/invalid", `redact: ${key} must be a list`);
    }
  }
  for (const rule of options.rules ?? []) checkRule(rule);
  compileAllow(options.allow);
  optionalRules(options);
}

function checkRule(rule: SecretRule): void {
  const id = typeof rule?.id === "string" ? rule.id : String(rule?.id);
  if (!Array.isArray(rule?.keywords) || rule.keywords.length === 0) {
    throw new AirlockError("options/invalid", `redact: rule "${id}" has no keywords`);
  }
  for (const k of rule.keywords) {
    if (typeof k !== "string" || !/^[\x20-\x7e]+$/.test(k)) {
      throw new AirlockError(
        "options/invalid",
        `redact: rule "${id}" has a keyword that is not printable ASCII`,
      );
    }
  }
  try {
    new RegExp(rule.pattern, rule.ignoreCase ? "gi" : "g");
    if (rule.reject !== undefined) new RegExp(rule.reject, rule.ignoreCase ? "i" : "");
  } catch (cause) {
    throw new AirlockError("options/invalid", `redact: rule "${id}" has an invalid pattern`, {
      cause,
    });
  }
}
