/**
 * Secret rules, written from the formats' public descriptions. Each rule names the literal
 * fragments every match contains (`keywords`, found by one prefilter scan, in exact case unless
 * the rule ignores case); the pattern runs only on the line around a keyword hit. Patterns are
 * alternations and bounded character-class runs, with no nested quantifiers, so each runs in
 * linear time. A keyword is a distinctive prefix wherever the format has one; a run of one
 * character is never a keyword (a zero run in base64 would hit at every offset).
 */
import { CLOUD_RULES } from "./rules/cloud.js";
import type { SecretRule } from "./rules/format.js";
import { GENERIC_RULES } from "./rules/generic.js";
import { PLATFORM_RULES } from "./rules/platforms.js";
import { SERVICE_RULES } from "./rules/services.js";

export type { SecretRule } from "./rules/format.js";

/**
 * Every built-in rule, in a fixed order: where two rules find the same secret with the same
 * generality, the earlier one names it.
 */
export const SECRET_RULES: readonly SecretRule[] = [
  ...CLOUD_RULES,
  ...SERVICE_RULES,
  ...PLATFORM_RULES,
  ...GENERIC_RULES,
];

export { EXAMPLE_VALUES, PLACEHOLDER_VALUES } from "./judge.js";
