import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonErrorCode, parseJson } from "../../src/decode/json.js";

function refused(text: string, limits = {}): JsonErrorCode | undefined {
  const parsed = parseJson(text, limits);
  return parsed.ok ? undefined : parsed.error.code;
}

describe("parseJson: what JSON.parse also accepts", () => {
  it("parses what JSON.parse parses, to the same value (random JSON)", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6, noUnicodeString: false }), (text) => {
        const parsed = parseJson(text);
        // fast-check's JSON may hold duplicate keys or lone surrogates, which are refused here.
        if (!parsed.ok) {
          return ["json/duplicate-key", "json/lone-surrogate"].includes(parsed.error.code);
        }
        expect(parsed.value).toEqual(JSON.parse(text));
        return true;
      }),
      { numRuns: 500, seed: 5 },
    );
  });

  it("negative control: a parser that drops the last array element is caught", () => {
    const broken = (text: string) => {
      const parsed = parseJson(text);
      if (parsed.ok && Array.isArray(parsed.value)) parsed.value.pop();
      return parsed;
    };
    const result = fc.check(
      fc.property(fc.json({ maxDepth: 3 }), (text) => {
        const parsed = broken(text);
        return !parsed.ok || JSON.stringify(parsed.value) === JSON.stringify(JSON.parse(text));
      }),
      { numRuns: 500, seed: 5 },
    );
    expect(result.failed).toBe(true);
  });

  it("keeps __proto__ as an ordinary key", () => {
    const parsed = parseJson('{"__proto__": {"polluted": true}, "a": 1}');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(Object.keys(parsed.value as object)).toEqual(["__proto__", "a"]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed.value)).toBe(Object.prototype);
  });

  it("unescapes every escape and keeps surrogate pairs", () => {
    const parsed = parseJson('"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00😀"');
    expect(parsed).toEqual({ ok: true, value: '"\\/\b\f\n\r\té😀😀' });
  });
});

describe("parseJson: refusals, each with a stable code", () => {
  const cases: Array<[string, string, JsonErrorCode]> = [
    ["duplicate keys", '{"a": 1, "b": 2, "a": 3}', "json/duplicate-key"],
    ["NaN", "[NaN]", "json/syntax"],
    ["Infinity", '{"x": Infinity}', "json/syntax"],
    ["a number that overflows", "[1e400]", "json/number-out-of-range"],
    ["a leading zero", "[01]", "json/syntax"],
    ["a trailing comma in an array", "[1, 2,]", "json/syntax"],
    ["a trailing comma in an object", '{"a": 1,}', "json/syntax"],
    ["a comment", "[1] // two", "json/syntax"],
    ["single quotes", "{'a': 1}", "json/syntax"],
    ["an unquoted key", "{a: 1}", "json/syntax"],
    ["a raw control character in a string", '"a\u0001b"', "json/syntax"],
    ["an invalid escape", '"\\x41"', "json/syntax"],
    ["an escaped lone high surrogate", '"\\ud800"', "json/lone-surrogate"],
    ["an escaped lone low surrogate", '"\\udc00x"', "json/lone-surrogate"],
    ["a raw lone surrogate", '"a\ud800b"', "json/lone-surrogate"],
    ["data after the value", '{"a": 1} {"b": 2}', "json/syntax"],
    ["an unterminated string", '["abc', "json/syntax"],
    ["an unclosed array", "[1, 2", "json/syntax"],
    ["nothing", "", "json/syntax"],
    ["a mismatched bracket", '{"a": [1}', "json/syntax"],
  ];
  for (const [title, text, code] of cases) {
    it(title, () => {
      expect(refused(text)).toBe(code);
    });
  }

  it("reports where it stopped", () => {
    const parsed = parseJson('{"a": 1, "a": 2}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.at).toBe(9);
  });
});

describe("parseJson: limits hold while parsing", () => {
  it("20 levels pass under the default, 100,000 levels are refused without a stack overflow", () => {
    expect(parseJson(`${"[".repeat(20)}${"]".repeat(20)}`).ok).toBe(true);
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(refused(deep)).toBe("json/too-deep");
    // Raised far past any stack: still no overflow, the parser keeps its own stack.
    expect(parseJson(deep, { maxDepth: 200_000 }).ok).toBe(true);
    const objects = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    expect(parseJson(objects, { maxDepth: 200_000 }).ok).toBe(true);
  });

  it("array length, keys, string and number length", () => {
    expect(refused(`[${"1,".repeat(10)}1]`, { maxArrayLength: 10 })).toBe("json/array-too-long");
    expect(refused(`[${"1,".repeat(9)}1]`, { maxArrayLength: 10 })).toBeUndefined();
    const keys = (n: number) => `{${Array.from({ length: n }, (_, k) => `"k${k}":0`).join(",")}}`;
    expect(refused(keys(6), { maxKeys: 5 })).toBe("json/too-many-keys");
    expect(refused(keys(5), { maxKeys: 5 })).toBeUndefined();
    expect(refused(`"${"a".repeat(11)}"`, { maxStringLength: 10 })).toBe("json/string-too-long");
    expect(refused(`"${"\\n".repeat(11)}"`, { maxStringLength: 10 })).toBe("json/string-too-long");
    expect(refused(`"${"a".repeat(10)}"`, { maxStringLength: 10 })).toBeUndefined();
    expect(refused(`[1${"0".repeat(70)}]`)).toBe("json/number-too-long");
  });

  it("a huge string is refused as soon as it passes the limit", () => {
    const huge = `["${"x".repeat(8 << 20)}"]`;
    expect(refused(huge, { maxStringLength: 1 << 20 })).toBe("json/string-too-long");
  });
});
