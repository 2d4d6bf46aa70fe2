/**
 * A redactor compiled from its options: the rule set (`rule-set.ts`), the engine that finds spans
 * (`engine.ts`) and the function that applies them. `shape()` loads this module on first use;
 * `createRedactor` calls it directly.
 */
import { createEngine, type Engine } from "./engine.js";
import type { RedactOptions } from "./options.js";
import { compileRules } from "./rule-set.js";
import { apply, type Redacted } from "./spans.js";

/** A compiled redactor: rules are compiled once, the function is pure. */
export type Redactor = (text: string) => Redacted;

/** The redactor and its engine (the streaming filter finds spans without applying them). */
export interface CompiledRedactor {
  readonly redactor: Redactor;
  readonly engine: Engine;
}

/**
 * @example
 * const { redactor, engine } = compileRedactor({ disable: ["jwt"] });
 */
export function compileRedactor(options: RedactOptions = {}): CompiledRedactor {
  const engine = createEngine(compileRules(options));
  return { engine, redactor: (text) => apply(text, engine.find(text)) };
}
