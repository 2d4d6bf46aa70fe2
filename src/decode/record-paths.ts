/**
 * Where the records of an already-parsed value are, by the rule the JSON splitter applies to the
 * same value written as text (`record-rule.ts`), so both give the same records: keys in their
 * order, as `JSON.stringify` writes them (`toJSON` applied), the same bounds on depth, key
 * length and objects searched.
 */
import {
  arrayKind,
  enoughForRecords,
  MAX_KEY_CHARS,
  MAX_PATH_DEPTH,
  MAX_VISITS,
  recordRule,
} from "./record-rule.js";

export interface FoundArrays {
  /** The record arrays in input order, each with its path (keys joined by dots). */
  readonly sections: ReadonlyArray<{ readonly path: string; readonly array: readonly unknown[] }>;
  /** The value with every record array written `[]` (a copy along their paths only). */
  readonly envelope: unknown;
}

/** A value as `JSON.stringify` reads it: `toJSON` applied (a Date is its string). */
function jsonOf(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return value;
  try {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    return typeof toJSON === "function" ? toJSON.call(value, key) : value;
  } catch {
    return value;
  }
}

/**
 * @example
 * findRecordArrays({ hits: { total: 2, hits: [a, b] } }, { sizeOf }).sections; // [{ path: "hits.hits", array: [a, b] }]
 */
export function findRecordArrays(
  input: unknown,
  options: {
    readonly paths?: readonly string[];
    readonly envelopeKeys?: readonly string[];
    /** The length of an element's compact JSON as the splitter measures it, or -1 (too large). */
    readonly sizeOf: (element: unknown) => number;
  },
): FoundArrays {
  const value = jsonOf(input, "");
  if (Array.isArray(value)) return { sections: [{ path: "", array: value }], envelope: [] };
  const sections: Array<{ path: string; array: readonly unknown[] }> = [];
  if (typeof value !== "object" || value === null) return { sections, envelope: value };
  const rule = recordRule(options);
  let visits = 1;
  /** Sections taken for their name alone. */
  let named = 0;

  /** Arrays measured already: one array under many keys is measured once. */
  const decided = new Map<readonly unknown[], "size" | "name" | undefined>();
  /** Whether an undecided array holds enough to be records, and whether by its name alone. */
  const decide = (array: readonly unknown[], eager: boolean): "size" | "name" | undefined => {
    const key = eager ? undefined : array;
    if (key !== undefined && decided.has(key)) return decided.get(key);
    const by = measure(array, eager);
    if (key !== undefined) decided.set(key, by);
    return by;
  };
  const measure = (array: readonly unknown[], eager: boolean): "size" | "name" | undefined => {
    let chars = 0;
    for (let i = 0; i < array.length; i++) {
      const size = options.sizeOf(jsonOf(array[i], String(i)));
      // An element too large to hold is no tag: the array is records.
      if (size < 0) return "size";
      chars += size;
      if (enoughForRecords(i + 1, chars, eager))
        return enoughForRecords(i + 1, chars) ? "size" : "name";
    }
    return undefined;
  };

  /** The object with its record arrays written `[]`, or itself when it holds none. */
  const visit = (object: object, path: readonly string[]): unknown => {
    let copy: Record<string, unknown> | undefined;
    let keys: string[];
    try {
      keys = Object.keys(object);
    } catch {
      return object;
    }
    for (const key of keys) {
      let raw: unknown;
      try {
        raw = (object as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      const v = jsonOf(raw, key);
      const name = key.length > MAX_KEY_CHARS ? undefined : key;
      let replaced: unknown = v;
      if (Array.isArray(v) && name !== undefined) {
        const kind = arrayKind(rule, path, name, sections.length, named);
        const by =
          kind === "records" ? "size" : kind === "plain" ? undefined : decide(v, kind === "eager");
        if (by === "name") named++;
        if (by !== undefined) {
          sections.push({ path: [...path, name].join("."), array: v });
          replaced = [];
        }
      } else if (
        typeof v === "object" &&
        v !== null &&
        !Array.isArray(v) &&
        // A typed array holds no records, and listing its indices costs its length.
        !ArrayBuffer.isView(v) &&
        name !== undefined &&
        path.length + 1 < MAX_PATH_DEPTH &&
        ++visits <= MAX_VISITS
      ) {
        replaced = visit(v, [...path, name]);
      }
      if (replaced !== raw) {
        copy ??= { ...(object as Record<string, unknown>) };
        copy[key] = replaced;
      }
    }
    return copy ?? object;
  };
  return { sections, envelope: visit(value, []) };
}
