/**
 * The one rule for where a JSON value's records are, read by the streaming splitter
 * (`json-array.ts`) and by the search of an already-parsed value (`record-paths.ts`), so a value
 * and its text give the same records. A top-level array is records. An array of an object is
 * records at once when the host named its path (and then no other array is), or when it sits
 * under an envelope key of the top object (`items`, `data`, …); any other array of an object
 * becomes records once two or more of its elements reach `RECORDS_AT_CHARS` characters of compact
 * JSON together (once it has one element, when its name says failures: `failed`, `errors`), and
 * is part of the envelope if it ends before. An array inside an array that is
 * not records is not searched.
 */

/** Keys of the top object whose array is records at once, whatever its size. */
export const ENVELOPE_KEYS: readonly string[] = [
  "items",
  "data",
  "results",
  "events",
  "rows",
  "records",
  "hits",
  "entries",
  "values",
];

/**
 * Characters (of compact JSON) that an array's elements reach together, two at least, before
 * the array counts as records: a list of tags or a pair of coordinates stays in the envelope.
 */
export const RECORDS_AT_CHARS = 2048;

/** Record arrays of one document at most; later arrays are part of its envelope. */
export const MAX_SECTIONS = 32;
/** ...of which at most this many taken for their name alone (`failed`, `warnings`), however small. */
export const MAX_NAMED_SECTIONS = 8;
/** Objects deeper than this are not searched (a path is kept for each level above). */
export const MAX_PATH_DEPTH = 64;
/** A key longer than this (decoded) names no path: nothing under it is searched. */
export const MAX_KEY_CHARS = 256;
/** Objects searched at most, in document order; past them nothing is. */
export const MAX_VISITS = 100_000;

export interface RecordRule {
  /** The paths the host named (the `records` option), or undefined to find them. */
  readonly named: ReadonlySet<string> | undefined;
  readonly envelopeKeys: ReadonlySet<string>;
}

/**
 * @example
 * const rule = recordRule({ paths: ["hits.hits"] });
 */
export function recordRule(options: {
  readonly paths?: readonly string[] | undefined;
  readonly envelopeKeys?: readonly string[] | undefined;
}): RecordRule {
  return {
    named: options.paths === undefined ? undefined : new Set(options.paths),
    envelopeKeys: new Set(options.envelopeKeys ?? ENVELOPE_KEYS),
  };
}

/**
 * What an array under `key` of an object at `path` is: records, undecided (records once its
 * elements are enough), or plain (part of the envelope, not searched).
 *
 * @example
 * arrayKind(rule, [], "items", 0); // "records"
 * arrayKind(rule, ["hits"], "hits", 0); // "pending"
 */
export function arrayKind(
  rule: RecordRule,
  path: readonly string[],
  key: string,
  sections: number,
  /** Sections taken for their name alone so far. */
  named = 0,
): "records" | "pending" | "eager" | "plain" {
  if (sections >= MAX_SECTIONS) return "plain";
  if (rule.named !== undefined)
    return rule.named.has([...path, key].join(".")) ? "records" : "plain";
  if (path.length === 0 && rule.envelopeKeys.has(key)) return "records";
  // `failed`, `errors`: each element is evidence, however few (an empty one stays in the envelope).
  if (pathSeverity(key) > 0 && named < MAX_NAMED_SECTIONS) return "eager";
  return "pending";
}

/**
 * An undecided array's elements so far are enough to make it records (`eager`: an array whose
 * name says its elements are failures or warnings, from its first).
 */
export function enoughForRecords(elements: number, chars: number, eager = false): boolean {
  return eager ? elements >= 1 : elements >= 2 && chars >= RECORDS_AT_CHARS;
}

/** Names of an array that say each of its records is a failure, or a warning. */
const FAILED_ARRAY =
  /^(?:failed|failures?|errors?|errored|rejected|declined|crash(?:es|ed)?|dead[_-]?letters?|failed[_-]\w+)$/i;
const WARNED_ARRAY = /^(?:warnings?|skipped|retried|retries)$/i;

/**
 * What a record array's own name says of every record in it (`{ succeeded: […], failed: […] }`):
 * the last key of its path. Such an array is records from its first element, whatever its size.
 *
 * @example
 * pathSeverity("batch.failed"); // 2
 */
export function pathSeverity(path: string): 0 | 1 | 2 {
  const last = path.slice(path.lastIndexOf(".") + 1);
  return FAILED_ARRAY.test(last) ? 2 : WARNED_ARRAY.test(last) ? 1 : 0;
}
