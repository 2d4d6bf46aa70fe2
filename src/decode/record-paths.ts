/**
 * Where the records of an already-parsed value are, by the rule the JSON splitter applies to the
 * same value written as text (`record-rule.ts`), so both give the same records. Keys are visited
 * in their order, as `JSON.stringify` writes them.
 */
import { arrayKind, enoughForRecords, recordRule } from "./record-rule.js";

export interface FoundArrays {
  /** The record arrays in input order, each with its path (keys joined by dots). */
  readonly sections: ReadonlyArray<{ readonly path: string; readonly array: readonly unknown[] }>;
  /** The value with every record array written `[]` (a copy along their paths only). */
  readonly envelope: unknown;
}

/** Objects visited at most while looking (a value wider than this is searched no further). */
const MAX_VISITS = 100_000;

/**
 * @example
 * findRecordArrays({ hits: { total: 2, hits: [a, b] } }).sections; // [{ path: "hits.hits", array: [a, b] }]
 */
export function findRecordArrays(
  value: unknown,
  options: {
    readonly paths?: readonly string[];
    readonly envelopeKeys?: readonly string[];
    /** The length of an element's compact JSON (`fromJs` then `JSON.stringify`), or -1. */
    readonly sizeOf: (element: unknown) => number;
  },
): FoundArrays {
  if (Array.isArray(value)) return { sections: [{ path: "", array: value }], envelope: [] };
  const sections: Array<{ path: string; array: readonly unknown[] }> = [];
  if (typeof value !== "object" || value === null) return { sections, envelope: value };
  const rule = recordRule(options);
  let visits = 0;

  /** Whether an array (not named, not an envelope key) holds enough to be records. */
  const large = (array: readonly unknown[], eager: boolean): boolean => {
    let chars = 0;
    for (let i = 0; i < array.length; i++) {
      const size = options.sizeOf(array[i]);
      // An element that cannot be read (or is too large to hold) is no tag: the array is records.
      if (size < 0) return true;
      chars += size;
      if (enoughForRecords(i + 1, chars, eager)) return true;
    }
    return false;
  };

  /** The object with its record arrays written `[]`, or itself when it holds none. */
  const visit = (object: object, path: readonly string[]): unknown => {
    if (++visits > MAX_VISITS || typeof (object as { toJSON?: unknown }).toJSON === "function")
      return object;
    let copy: Record<string, unknown> | undefined;
    let entries: string[];
    try {
      entries = Object.keys(object);
    } catch {
      return object;
    }
    for (const key of entries) {
      let v: unknown;
      try {
        v = (object as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      let replaced: unknown = v;
      if (Array.isArray(v)) {
        const at = [...path, key].join(".");
        const kind = arrayKind(rule, path, key, sections.length);
        const records = kind === "records" || (kind !== "plain" && large(v, kind === "eager"));
        if (records) {
          sections.push({ path: at, array: v });
          replaced = [];
        }
      } else if (typeof v === "object" && v !== null) {
        replaced = visit(v, [...path, key]);
      }
      if (replaced !== v) {
        copy ??= { ...(object as Record<string, unknown>) };
        copy[key] = replaced;
      }
    }
    return copy ?? object;
  };
  const envelope = visit(value, []);
  return { sections, envelope };
}
