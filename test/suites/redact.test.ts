import { createRedactor, redact } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SECRET_RULES } from "../../src/redact/rules.js";
import { lookAlikes, secretCases } from "../fixtures/secrets.js";

describe("redact: every kind of secret", () => {
  for (const c of secretCases()) {
    it(c.title, () => {
      const { text, findings } = redact(c.text);
      expect(text).not.toContain(c.secret);
      // No long fragment of the secret survives either.
      for (let i = 0; i + 12 <= c.secret.length; i += 6)
        expect(text).not.toContain(c.secret.slice(i, i + 12));
      expect(text).toContain(`[REDACTED:${c.rule}]`);
      expect(findings.map((f) => f.rule)).toContain(c.rule);
      // Findings carry positions in the input, never the value.
      for (const f of findings) {
        expect(Object.keys(f).sort()).toEqual(["end", "rule", "start"]);
        expect(f.start).toBeGreaterThanOrEqual(0);
        expect(f.end).toBeLessThanOrEqual(c.text.length);
      }
    });
  }
});

describe("redact: look-alikes survive untouched", () => {
  for (const c of lookAlikes()) {
    it(c.title, () => {
      expect(redact(c.text)).toEqual({ text: c.text, findings: [] });
    });
  }
});

describe("redact: options", () => {
  it("documented example keys are kept unless redacted on purpose", () => {
    expect(redact("AKIAIOSFODNN7EXAMPLE").text).toBe("AKIAIOSFODNN7EXAMPLE");
    expect(redact("AKIAIOSFODNN7EXAMPLE", { keepExamples: false }).text).toBe(
      "[REDACTED:aws_access_key_id]",
    );
  });

  it("known values are redacted wherever they occur", () => {
    const redactor = createRedactor({ knownValues: ["correct horse battery", "short"] });
    expect(redactor("said correct horse battery twice: correct horse battery").text).toBe(
      "said [REDACTED:known_value] twice: [REDACTED:known_value]",
    );
    // Values under 6 characters would redact ordinary words: they are ignored.
    expect(redactor("a short word").text).toBe("a short word");
  });

  it("rules can be disabled and added", () => {
    const key = `ghp_${"a1".repeat(18)}`;
    expect(redact(key, { disable: ["github_token"] }).text).toBe(key);
    const custom = { id: "acme_key", keywords: ["acme_"], pattern: "acme_[a-z0-9]{16}" };
    expect(redact("use acme_7f3k9q2m5x8c4v1b now", { rules: [custom] }).text).toBe(
      "use [REDACTED:acme_key] now",
    );
  });

  it("an invalid custom rule is an options error", () => {
    expect(() => createRedactor({ rules: [{ id: "bad", keywords: ["x"], pattern: "(" }] })).toThrow(
      expect.objectContaining({ code: "options/invalid" }),
    );
  });
});

describe("redact: properties", () => {
  const cases = secretCases(3);
  const filler = fc.array(
    fc.constantFrom("INFO ok", "GET /health 200", "", "  at x (y.js:1:1)", "building..."),
    {
      maxLength: 30,
    },
  );

  it("a planted secret never survives, wherever it is planted", () => {
    fc.assert(
      fc.property(
        filler,
        filler,
        fc.integer({ min: 0, max: cases.length - 1 }),
        (before, after, k) => {
          const c = cases[k];
          if (!c) return true;
          const { text } = redact([...before, c.text, ...after].join("\n"));
          return !text.includes(c.secret);
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });

  it("redaction is idempotent", () => {
    fc.assert(
      fc.property(filler, fc.integer({ min: 0, max: cases.length - 1 }), (lines, k) => {
        const once = redact([...lines, cases[k]?.text ?? ""].join("\n")).text;
        return redact(once).text === once;
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it("negative control: with every rule disabled the same property fails", () => {
    const none = secretCases().map((c) => c.rule);
    const result = fc.check(
      fc.property(fc.integer({ min: 0, max: cases.length - 1 }), (k) => {
        const c = cases[k];
        if (!c) return true;
        return !redact(c.text, { disable: [...none, "private_key"] }).text.includes(c.secret);
      }),
      { numRuns: 50, seed: 42 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("redact: linear time on pathological inputs", () => {
  const MB = 1 << 20;
  const inputs: Array<[string, string]> = [
    ["a megabyte of one keyword", "token=".repeat(MB / 6)],
    ["keywords without values", "password password password ".repeat(MB / 27)],
    ["a long identifier before =", `${"a".repeat(MB)}_token=`],
    ["scheme-like runs", "a://b:c".repeat(MB / 7)],
    ["BEGIN without END", `-----BEGIN PRIVATE KEY-----${"A".repeat(MB)}`],
    ["many BEGIN lines", "-----BEGIN RSA PRIVATE KEY-----\n".repeat(MB / 32)],
    ["prefix runs", "ghp_ghp_ghp_".repeat(MB / 12)],
    ["query separators", "?api_key=&".repeat(MB / 10)],
  ];
  for (const [title, input] of inputs) {
    it(title, { timeout: 15_000 }, () => {
      const { text } = redact(input);
      expect(text.length).toBeGreaterThan(0);
    });
  }
});

describe("redact: every rule is linear on pathological input", () => {
  // For each keyword, one line a shape: the keyword over and over, followed by "=" or ': "',
  // between short runs (joined by a letter, or by "-", "." or "/", which a start boundary may
  // accept and a token alphabet may hold), then a long run of a token alphabet that ends in a
  // character the pattern does not take, and a long run before the keyword. The first keyword's
  // lines are ~256 KB each, the others' ~32 KB: a rule that backtracks quadratically over a line
  // of that length takes seconds (jwt did, on "eyJa-a-…eyJa-a-…"), a linear one milliseconds.
  // (workerd's clock stands still during synchronous work: there only the test timeout bounds it.)
  const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length));
  const shapes = (keyword: string, n: number) => [
    fill(keyword, n),
    fill(`${keyword}=`, n),
    fill(`${keyword}: "`, n),
    fill(`${keyword}${"a".repeat(20)}`, n),
    fill(`${keyword}${"a-".repeat(10)}`, n),
    fill(`${keyword}${"a.".repeat(10)}`, n),
    fill(`${keyword}${"a/".repeat(10)}`, n),
    `${keyword}${fill("a1", n)}_`,
    `${keyword}${fill("A", n)}!`,
    `${keyword}${fill("f0", n)}g`,
    `${keyword}${fill("a-", n)}~`,
    `${keyword}=${fill("a.+/", n)}~`,
    `  ${fill("f0", n)}${keyword}`,
    // After escape sequences, which a start boundary lets a match begin behind.
    fill(`%3D${keyword}a1`, n),
    fill(`\\u0022${keyword}=`, n),
    fill(`=3D${keyword}${"a-".repeat(4)}`, n),
  ];
  for (const rule of SECRET_RULES) {
    it(`${rule.id} (${rule.keywords.join(" ")})`, { timeout: 30_000 }, () => {
      const input = rule.keywords
        .flatMap((keyword, i) => shapes(keyword, i === 0 ? 256_000 : 32_000))
        .join("\n");
      const started = performance.now();
      const { text } = redact(input);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(text.length).toBeGreaterThan(0);
    });
  }
});
