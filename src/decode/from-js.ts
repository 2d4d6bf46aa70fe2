/**
 * An already-parsed JavaScript value read as JSON under the same limits as parsed text.
 */
import {
  DEFAULT_JSON_LIMITS,
  type JsonErrorCode,
  type JsonLimits,
  type JsonValue,
  setKey,
} from "./json.js";

type JsonObject = { [key: string]: JsonValue };
type Container = JsonValue[] | JsonObject;

export type FromJs =
  | { readonly ok: true; readonly value: JsonValue }
  | {
      readonly ok: false;
      readonly code: JsonErrorCode;
      readonly message: string;
      /** The read ran out of `budget`: the input's byte cap, not this value, stopped it. */
      readonly capped?: true;
    };

/**
 * Characters a whole read may still take, shared by the values read under it (the records of one
 * input): every string and key at its full length, as the text path would read their bytes.
 */
export interface ReadBudget {
  left: number;
  /** Objects refused for their key count: met again (shared), refused without listing them. */
  readonly wide?: WeakSet<object>;
}

/** A host's array length as a count, or undefined (a Proxy may answer anything). */
export function countOf(length: unknown): number | undefined {
  return typeof length === "number" && Number.isSafeInteger(length) && length >= 0
    ? length
    : undefined;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Reads an already-parsed JavaScript value as JSON, as `JSON.stringify` would see it (`toJSON`,
 * dropped `undefined` and functions, non-finite numbers as null), with a BigInt written as its
 * decimal string, under the limits of `parseJson`. Iterative: depth costs no stack. A cycle, a
 * throwing getter or a lone surrogate is refused with a stable code.
 *
 * @example
 * fromJs({ id: 1n, when: new Date(0) }); // { ok: true, value: { id: "1", when: "1970-01-01T00:00:00.000Z" } }
 */
export function fromJs(
  input: unknown,
  limits: Partial<JsonLimits> = {},
  /** Keep strings over `maxStringLength` (the pipeline's cleaning shortens them or makes blobs). */
  keepLongStrings = false,
  /**
   * Characters of JSON the value may expand to. A value that refers to one object from many
   * places (a parsed YAML alias, say) is as big as its JSON, not as its objects: past this it is
   * refused as `json/too-large` while it is read, never after.
   */
  maxChars = Number.POSITIVE_INFINITY,
  /** Spent as the value is read; when it runs out, the read stops (`capped`), never after. */
  budget: ReadBudget = { left: Number.POSITIVE_INFINITY },
): FromJs {
  const max: JsonLimits = { ...DEFAULT_JSON_LIMITS, ...limits };
  const refuse = (code: JsonErrorCode, message: string): FromJs => ({
    ok: false,
    code,
    message: `json: ${message}`,
  });
  const capped: FromJs = {
    ok: false,
    code: "json/too-large",
    message: "json: the input's byte cap",
    capped: true,
  };
  const onPath = new Set<object>();
  // Work items: read `source` into `target[key]`; or leave an object (pop it from the path).
  type Item =
    | {
        readonly source: unknown;
        readonly target: Container | null;
        readonly key: string | number;
        readonly depth: number;
      }
    | { readonly leave: object };
  const root: { value?: JsonValue } = {};
  const stack: Item[] = [{ source: input, target: null, key: 0, depth: 0 }];
  // The JSON written so far, counted low (a number as one character): a bound, not a length.
  let chars = 0;
  try {
    while (stack.length > 0) {
      const item = stack.pop() as Item;
      if ("leave" in item) {
        onPath.delete(item.leave);
        continue;
      }
      const own = typeof item.key === "string" ? item.key.length + 4 : 1;
      chars += own;
      budget.left -= own;
      if (budget.left < 0) return capped;
      if (chars > maxChars)
        return refuse("json/too-large", `the value is over ${maxChars} characters as JSON`);
      let value = item.source;
      if (
        value !== null &&
        typeof value === "object" &&
        typeof (value as { toJSON?: unknown }).toJSON === "function"
      ) {
        value = (value as { toJSON(key: string): unknown }).toJSON(String(item.key));
      }
      let out: JsonValue | undefined;
      let children: Array<[string | number, unknown]> | undefined;
      switch (typeof value) {
        case "string":
          // Spent before the string is looked at: one string met many times costs each time.
          budget.left -= value.length;
          if (budget.left < 0) return capped;
          if (!keepLongStrings && value.length > max.maxStringLength)
            return refuse("json/string-too-long", `string longer than ${max.maxStringLength}`);
          if (LONE_SURROGATE.test(value))
            return refuse("json/lone-surrogate", "lone surrogate in a string");
          out = value;
          // A string too long to hold is written as its placeholder (keepLongStrings).
          chars += Math.min(value.length, max.maxStringLength);
          break;
        case "number":
          out = Number.isFinite(value) ? value : null;
          break;
        case "boolean":
          out = value;
          break;
        case "bigint":
          out = value.toString();
          break;
        case "object": {
          if (value === null) {
            out = null;
            break;
          }
          if (onPath.has(value)) return refuse("json/cycle", "the value refers to itself");
          if (item.depth >= max.maxDepth)
            return refuse("json/too-deep", `nesting deeper than ${max.maxDepth}`);
          if (Array.isArray(value)) {
            // Read once: a Proxy may answer another length the next time.
            const length = countOf(value.length);
            if (length === undefined)
              return refuse("json/unreadable", "an array whose length is not a count");
            if (length > max.maxArrayLength)
              return refuse(
                "json/array-too-long",
                `array longer than ${max.maxArrayLength} elements`,
              );
            out = new Array<JsonValue>(length).fill(null);
            // By index: a hole is null, as JSON.stringify writes it (map would skip it).
            children = [];
            for (let i = 0; i < length; i++) children.push([i, value[i]]);
          } else {
            // A typed array is an object of its indices to JSON: refused by its length, unlisted.
            const view = ArrayBuffer.isView(value) ? (value as { length?: unknown }) : undefined;
            if (view && (typeof view.length === "number" ? view.length : 0) > max.maxKeys)
              return refuse("json/too-many-keys", `more than ${max.maxKeys} keys`);
            if (budget.wide?.has(value))
              return refuse("json/too-many-keys", `more than ${max.maxKeys} keys`);
            const keys = Object.keys(value);
            if (keys.length > max.maxKeys) {
              budget.wide?.add(value);
              return refuse("json/too-many-keys", `more than ${max.maxKeys} keys`);
            }
            out = {};
            children = keys.map((k) => [k, (value as Record<string, unknown>)[k]]);
          }
          onPath.add(value);
          stack.push({ leave: value });
          break;
        }
        default:
          // undefined, functions and symbols: absent in objects, null in arrays (as JSON.stringify).
          out = undefined;
      }
      const { target, key } = item;
      if (target === null) root.value = out ?? null;
      else if (Array.isArray(target)) target[key as number] = out ?? null;
      else if (out !== undefined) setKey(target, key as string, out);
      if (children !== undefined) {
        for (let i = children.length - 1; i >= 0; i--) {
          const [k, v] = children[i] as [string | number, unknown];
          stack.push({ source: v, target: out as Container, key: k, depth: item.depth + 1 });
        }
      }
    }
  } catch {
    return refuse("json/unreadable", "the value could not be read (a getter or toJSON threw)");
  }
  if (chars > maxChars)
    return refuse("json/too-large", `the value is over ${maxChars} characters as JSON`);
  // Objects whose `undefined` members were skipped keep key order; arrays were pre-sized.
  return { ok: true, value: root.value ?? null };
}
