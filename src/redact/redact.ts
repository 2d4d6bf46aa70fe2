/**
 * `redact()` and `createRedactor()`: secrets out of text, each replaced by `[REDACTED:<rule>]`,
 * synchronously (the rule set loads with this module). The rule set is compiled once
 * (`rule-set.ts`), the engine finds the spans (`engine.ts`), and `apply` writes the replacements
 * (`spans.ts`).
 */
import { compileRedactor, type Redactor } from "./compile.js";
import type { RedactOptions } from "./options.js";
import type { Redacted } from "./spans.js";

export type { Redactor } from "./compile.js";

export type { Engine } from "./engine.js";
export type { AllowList, RedactOptions } from "./options.js";
export type { SecretRule } from "./rules.js";
export type { Finding, Redacted, RedactState, Span } from "./spans.js";
export { apply, merge } from "./spans.js";
export { isTokenChar } from "./tokens.js";

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
  return compileRedactor(options).redactor;
}

/**
 * Removes secrets from text: each becomes `[REDACTED:<rule>]`, and `findings` say which rule
 * matched where (positions in the input), never the value.
 *
 * @example
 * redact("export GITHUB_TOKEN=ghp_" + "a".repeat(36)).text; // "export GITHUB_TOKEN=[REDACTED:github_token]"
 */
export function redact(text: string, options?: RedactOptions): Redacted {
  if (options === undefined || Object.keys(options).length === 0) {
    // The built-in rule set, compiled on the first call that uses it: compiling it was nearly
    // all of a 1 KB call (370 µs). It depends only on the code, and its patterns run
    // synchronously, so no call sees another's `lastIndex`.
    builtIn ??= compileRedactor({}).redactor;
    return builtIn(text);
  }
  return createRedactor(options)(text);
}

let builtIn: Redactor | undefined;
