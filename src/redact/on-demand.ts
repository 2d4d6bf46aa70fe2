/**
 * The rule set, as the lazy paths load it (`load.ts` for the redact stage, `fingerprint.ts`).
 * Only ever imported dynamically: `redact.ts` imports `compile.ts` statically for the synchronous
 * `redact()`, and a bundler cannot split out a module that is imported both ways (Rolldown warns
 * INEFFECTIVE_DYNAMIC_IMPORT and keeps it in the static chunk), so the lazy paths import this one.
 */
export { type CompiledRedactor, compileRedactor } from "./compile.js";
