/**
 * Strict, bounded JSON (RFC 8259) for tool results: the limits are enforced while parsing, so a
 * hostile document is refused before it costs anything, and the parser keeps its own stack, so
 * 100,000 levels of nesting are an error result, never a stack overflow. Anything JSON.parse
 * accepts that RFC 8259 leaves open is refused with a stable code: duplicate keys (parsers
 * disagree on which one wins), lone surrogates (not text), numbers that overflow to Infinity.
 *
 */
import type { JsonErrorCode } from "../errors/codes.js";
import type { JsonValue } from "../pipeline/unit.js";

export type { JsonErrorCode, JsonValue };

export interface JsonLimits {
  /** Arrays and objects inside one another. Default 64. */
  readonly maxDepth: number;
  /** Keys in one object. Default 10,000. */
  readonly maxKeys: number;
  /** Elements in one array. Default 1,000,000. */
  readonly maxArrayLength: number;
  /** UTF-16 code units in one string (key or value), after unescaping. Default 1,048,576. */
  readonly maxStringLength: number;
  /** Characters in one number literal. Default 64. */
  readonly maxNumberLength: number;
}

export const DEFAULT_JSON_LIMITS: JsonLimits = Object.freeze({
  maxDepth: 64,
  maxKeys: 10_000,
  maxArrayLength: 1_000_000,
  maxStringLength: 1 << 20,
  maxNumberLength: 64,
});

export type JsonParsed =
  | { readonly ok: true; readonly value: JsonValue }
  | {
      readonly ok: false;
      readonly error: {
        readonly code: JsonErrorCode;
        readonly message: string;
        readonly at: number;
      };
    };

/**
 * Sets `key` as an own data property of a JSON object, also when it is `__proto__` (assigning
 * that would set the prototype instead).
 *
 * @example
 * setKey(record, "__proto__", 1); // Object.keys(record) includes "__proto__"
 */
export function setKey(target: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

class Refused extends Error {
  constructor(
    readonly code: JsonErrorCode,
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

/** A container being filled: an array, or an object with the key waiting for its value. */
type Frame =
  | { readonly kind: "array"; readonly value: JsonValue[] }
  | {
      readonly kind: "object";
      readonly value: { [key: string]: JsonValue };
      readonly keys: Set<string>;
      key: string | undefined;
    };

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * Parses `text` as one JSON value under `limits`. Never throws for content: a refusal is
 * `{ ok: false, error: { code, message, at } }` with `at` the offset where it was found.
 *
 * @example
 * parseJson('{"a": 1, "a": 2}'); // { ok: false, error: { code: "json/duplicate-key", … } }
 */
export function parseJson(text: string, limits: Partial<JsonLimits> = {}): JsonParsed {
  return parseJsonWithin(text, { ...DEFAULT_JSON_LIMITS, ...limits });
}

const SMALL_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;

/** `parseJson` with every limit given (no defaults merged): for a caller parsing many records. */
/**
 * `parseJson` with limits already complete. With `keepLongStrings`, a string over
 * `maxStringLength` is kept rather than refused: the pipeline bounds it by the record and
 * document limits, and its cleaning turns it into a blob placeholder or shortens it.
 */
export function parseJsonWithin(
  text: string,
  max: JsonLimits,
  keepLongStrings = false,
): JsonParsed {
  // Records of a streamed array are often plain numbers or literals: no parser needed.
  if (text.length <= 16) {
    if (SMALL_INTEGER.test(text)) return { ok: true, value: Number(text) };
    if (text === "true" || text === "false" || text === "null") {
      return { ok: true, value: text === "null" ? null : text === "true" };
    }
  }
  try {
    return { ok: true, value: parse(text, max, keepLongStrings) };
  } catch (error) {
    if (error instanceof Refused) {
      return { ok: false, error: { code: error.code, message: error.message, at: error.at } };
    }
    throw error;
  }
}

function parse(text: string, max: JsonLimits, keepLongStrings: boolean): JsonValue {
  const maxString = keepLongStrings ? Number.POSITIVE_INFINITY : max.maxStringLength;
  let i = 0;
  const stack: Frame[] = [];
  let result: JsonValue | undefined;
  let done = false;

  const fail = (code: JsonErrorCode, message: string, at = i): never => {
    throw new Refused(code, `json: ${message} at offset ${at}`, at);
  };
  const skipSpace = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };

  /** Puts a finished value where it belongs: the result, an array, or an object's waiting key. */
  const place = (value: JsonValue) => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      result = value;
      done = true;
    } else if (top.kind === "array") {
      if (top.value.length >= max.maxArrayLength) {
        fail("json/array-too-long", `array longer than ${max.maxArrayLength} elements`);
      }
      top.value.push(value);
    } else {
      const key = top.key as string;
      // "__proto__" is an ordinary key in JSON: defined, never assigned.
      setKey(top.value, key, value);
      top.key = undefined;
    }
  };

  const open = (frame: Frame) => {
    if (stack.length >= max.maxDepth) fail("json/too-deep", `nesting deeper than ${max.maxDepth}`);
    stack.push(frame);
  };

  /**
   * After a value inside a container: a comma (and what must follow it) or the closing bracket,
   * which finishes the container, which is itself a value inside its parent: a loop, not
   * recursion, however many brackets close at once.
   */
  const afterValue = (): void => {
    for (;;) {
      skipSpace();
      const top = stack[stack.length - 1];
      if (top === undefined) return;
      const c = text[i];
      if (c === ",") {
        i++;
        skipSpace();
        if (top.kind === "object") readKey(top);
        else if (text[i] === "]") fail("json/syntax", "trailing comma");
        return;
      }
      if ((c === "]" && top.kind === "array") || (c === "}" && top.kind === "object")) {
        i++;
        stack.pop();
        place(top.value);
        if (done) return;
        continue;
      }
      fail("json/syntax", `expected "," or "${top.kind === "array" ? "]" : "}"}"`);
    }
  };

  const readKey = (frame: Extract<Frame, { kind: "object" }>) => {
    if (text[i] !== '"') fail("json/syntax", "expected a string key");
    const at = i;
    const key = readString();
    if (frame.keys.has(key))
      // The key is tool text: the message names only where it is.
      fail("json/duplicate-key", "duplicate key", at);
    if (frame.keys.size >= max.maxKeys)
      fail("json/too-many-keys", `more than ${max.maxKeys} keys`, at);
    frame.keys.add(key);
    frame.key = key;
    skipSpace();
    if (text[i] !== ":") fail("json/syntax", 'expected ":"');
    i++;
  };

  const readString = (): string => {
    // text[i] is the opening quote.
    const start = ++i;
    let out = "";
    let from = start;
    for (;;) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c)) fail("json/syntax", "unterminated string", start - 1);
      if (c === 0x22) break;
      if (c < 0x20) fail("json/syntax", "control character in a string");
      if (c >= 0xd800 && c <= 0xdfff) {
        const pair = c <= 0xdbff && isLow(text.charCodeAt(i + 1));
        if (!pair) fail("json/lone-surrogate", "lone surrogate in a string");
        i += 2;
      } else if (c === 0x5c) {
        out += text.slice(from, i);
        out += readEscape();
        from = i;
      } else {
        i++;
      }
      if (out.length + (i - from) > maxString) {
        fail("json/string-too-long", `string longer than ${max.maxStringLength}`, start - 1);
      }
    }
    out += text.slice(from, i);
    i++;
    return out;
  };

  /** An escape at text[i] (the backslash); a \u surrogate must come in a pair. */
  const readEscape = (): string => {
    const e = text[i + 1];
    i += 2;
    switch (e) {
      case '"':
        return '"';
      case "\\":
        return "\\";
      case "/":
        return "/";
      case "b":
        return "\b";
      case "f":
        return "\f";
      case "n":
        return "\n";
      case "r":
        return "\r";
      case "t":
        return "\t";
      case "u": {
        const unit = hex4();
        if (unit >= 0xdc00 && unit <= 0xdfff) fail("json/lone-surrogate", "lone low surrogate");
        if (unit >= 0xd800 && unit <= 0xdbff) {
          if (text[i] !== "\\" || text[i + 1] !== "u")
            fail("json/lone-surrogate", "lone high surrogate");
          i += 2;
          const low = hex4();
          if (!isLow(low)) fail("json/lone-surrogate", "high surrogate without its low half");
          return String.fromCharCode(unit, low);
        }
        return String.fromCharCode(unit);
      }
      default:
        return fail("json/syntax", "invalid escape", i - 2);
    }
  };

  const hex4 = (): number => {
    const digits = text.slice(i, i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail("json/syntax", "invalid \\u escape");
    i += 4;
    return Number.parseInt(digits, 16);
  };

  const readNumber = (): number => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) fail("json/syntax", "invalid number");
    const literal = (m as RegExpExecArray)[0];
    if (literal.length > max.maxNumberLength) {
      fail("json/number-too-long", `number longer than ${max.maxNumberLength} characters`);
    }
    const value = Number(literal);
    if (!Number.isFinite(value)) fail("json/number-out-of-range", "number out of range");
    i += literal.length;
    return value;
  };

  const literal = (word: string, value: JsonValue) => {
    if (!text.startsWith(word, i)) fail("json/syntax", "unexpected token");
    i += word.length;
    place(value);
  };

  // One value at a time; containers push a frame instead of recursing.
  skipSpace();
  while (!done) {
    skipSpace();
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      const frame: Frame =
        c === "{"
          ? { kind: "object", value: {}, keys: new Set(), key: undefined }
          : { kind: "array", value: [] };
      open(frame);
      skipSpace();
      if (text[i] === (c === "{" ? "}" : "]")) {
        // Empty: closed at once.
        i++;
        stack.pop();
        place(frame.value);
      } else {
        if (frame.kind === "object") readKey(frame);
        continue;
      }
    } else if (c === '"') {
      place(readString());
    } else if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      place(readNumber());
    } else if (c === "t") {
      literal("true", true);
    } else if (c === "f") {
      literal("false", false);
    } else if (c === "n") {
      literal("null", null);
    } else {
      fail("json/syntax", c === undefined ? "unexpected end" : "unexpected token");
    }
    if (!done) afterValue();
  }
  skipSpace();
  if (i < text.length) fail("json/syntax", "data after the value");
  return result as JsonValue;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The value at a dot path, through own properties only (an inherited `constructor` is no
 * field), with numeric segments indexing arrays.
 *
 * @example
 * valueAt({ user: { login: "ada" }, tags: ["a"] }, ["tags", "0"]); // "a"
 */
export function valueAt(value: JsonValue, path: readonly string[]): JsonValue | undefined {
  let at: JsonValue = value;
  for (const segment of path) {
    if (at === null || typeof at !== "object" || !Object.hasOwn(at, segment)) return undefined;
    if (Array.isArray(at) && !/^\d+$/.test(segment)) return undefined;
    at = (at as Record<string, JsonValue>)[segment] as JsonValue;
  }
  return at;
}
