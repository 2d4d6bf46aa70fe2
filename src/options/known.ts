/**
 * The names every options object may use, and the check that refuses any other: a misspelt
 * option (`maxToken: 150`) silently ignored is a budget silently not applied. The error names the
 * option and the nearest known one. The tables are typed against the option interfaces, so a new
 * option that is not listed here fails to compile.
 */
import type { ContractOptions, Invariants } from "../contract/contract.js";
import type { StructuredLimits } from "../decode/records.js";
import { AirlockError } from "../errors/airlock-error.js";
import type { CallOptions, ShapeOptions, ShapeRedactOptions } from "./compile.js";
import type { McpShapeOptions, McpToolsOptions } from "./mcp.js";

type Names<T> = { readonly [K in keyof Required<T>]: true };

export const SHAPE_OPTIONS = {
  maxTokens: true,
  maxBytes: true,
  contentType: true,
  tool: true,
  untrusted: true,
  tokenizer: true,
  tokenCount: true,
  next: true,
  hashLimit: true,
  redact: true,
  invisible: true,
  spotlight: true,
  datamark: true,
  format: true,
  records: true,
  fields: true,
  sort: true,
  errorsFirst: true,
  envelope: true,
  limits: true,
  maxStringChars: true,
  store: true,
  storeMaxChars: true,
  contract: true,
  summarize: true,
  maxSummaryTokens: true,
  summaryTimeoutMs: true,
  onShaped: true,
  abortSignal: true,
  timeoutMs: true,
  toolError: true,
} as const satisfies Names<ShapeOptions>;

/** What a compiled shaper takes per call (`shaper(input, call)`). */
export const CALL_OPTIONS = {
  maxTokens: true,
  maxBytes: true,
  tool: true,
  contentType: true,
  abortSignal: true,
  timeoutMs: true,
} as const satisfies Names<CallOptions>;

/** `shapeCallToolResult` (`agent-airlock/mcp`): the options of `shape()` and of the parts. */
export const MCP_OPTIONS = {
  ...SHAPE_OPTIONS,
  maxStructuredTokens: true,
  outputSchema: true,
  maxImageBytes: true,
  images: true,
  audio: true,
} as const satisfies Names<McpShapeOptions>;

/** The MCP client and server wrappers: the defaults, and options per tool. */
export const MCP_CLIENT_OPTIONS = {
  ...MCP_OPTIONS,
  tools: true,
} as const satisfies Names<McpToolsOptions>;

export const REDACT_OPTIONS = {
  rules: true,
  disable: true,
  knownValues: true,
  keepExamples: true,
  allow: true,
  keepPlaceholders: true,
  paths: true,
  pii: true,
  fingerprintKey: true,
} as const satisfies Names<ShapeRedactOptions>;

export const CONTRACT_OPTIONS = {
  record: true,
  document: true,
  dropUnknown: true,
  invariants: true,
} as const satisfies Names<ContractOptions>;

export const INVARIANTS = {
  maxRecords: true,
  tenant: true,
  readOnly: true,
  check: true,
} as const satisfies Names<Invariants>;

export const LIMITS = {
  maxDepth: true,
  maxKeys: true,
  maxArrayLength: true,
  maxStringLength: true,
  maxNumberLength: true,
  maxRecordChars: true,
  maxDocumentChars: true,
} as const satisfies Names<StructuredLimits>;

/**
 * Throws `options/invalid` for the first own key of `value` that `known` does not list, naming
 * it and the nearest known name (by edit distance, case ignored), when one is near enough.
 *
 * @example
 * checkNames({ maxToken: 150 }, SHAPE_OPTIONS, "options");
 * // AirlockError options/invalid: options: unknown option "maxToken" (did you mean "maxTokens"?)
 */
export function checkNames(value: object, known: object, where: string): void {
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(known, key)) continue;
    const near = nearest(key, Object.keys(known));
    const hint = near === undefined ? "" : ` (did you mean "${near}"?)`;
    // The key is the host's own text, but shown bounded and on one line all the same.
    const shown = JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
    throw new AirlockError("options/invalid", `${where}: unknown option ${shown}${hint}`);
  }
}

/** The known name nearest to `name`, when it is within a third of its length (at least 2 edits). */
export function nearest(name: string, names: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of names) {
    const d = distance(lower, candidate.toLowerCase(), limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions), cut off once it
 * must exceed `limit`. Names are short: a name longer than 64 characters is no near miss.
 */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit || a.length > 64) return Number.POSITIVE_INFINITY;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      row.push(d);
      smallest = Math.min(smallest, d);
    }
    if (smallest > limit) return Number.POSITIVE_INFINITY;
    before = previous;
    previous = row;
  }
  return previous[b.length] as number;
}
