/**
 * `redact()` and `createRedactor()`: secrets out of text, each replaced by `[REDACTED:<rule>]`.
 * The rule set is compiled once (`rule-set.ts`), the engine finds the spans (`engine.ts`), and
 * `apply` writes the replacements (`spans.ts`).
 */
import { createEngine, type Engine } from "./engine.js";
import type { RedactOptions } from "./options.js";
import { compileRules } from "./rule-set.js";
import { apply, type Redacted } from "./spans.js";

export type { Engine } from "./engine.js";
export type { AllowList, RedactOptions } from "./options.js";
export type { SecretRule } from "./rules.js";
export type { Finding, Redacted, RedactState, Span } from "./spans.js";
export { apply, merge } from "./spans.js";
export { isTokenChar } from "./tokens.js";

/** A compiled redactor: rules are compiled once, the function is pure. */
export type Redactor = (text: string) => Redacted;

const engines = new WeakMap<Redactor, Engine>();

/** The engine of a redactor made by `createRedactor`. */
export function engineOf(redactor: Redactor): Engine | undefined {
  return engines.get(redactor);
}

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
  const engine = createEngine(compileRules(options));
  const redactText = (text: string): Redacted => apply(text, engine.find(text));
  engines.set(redactText, engine);
  return redactText;
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
