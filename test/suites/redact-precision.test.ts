import { createRedactor, redact, shape } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foundFixtures, keptFixtures } from "../fixtures/precision.js";

describe("redact: values that are not secrets stay (issue 20)", () => {
  for (const f of keptFixtures()) {
    it(f.title, () => {
      expect(redact(f.input).text).toBe(f.expected);
    });
  }
});

describe("shape: a model can page through results", () => {
  it("a pagination cursor in an API response reaches the model", async () => {
    const cursor = btoa(JSON.stringify({ page: 4, after: "a81f09c2" }));
    const body = {
      items: [{ id: 1 }, { id: 2 }],
      next_page_token: cursor,
      nextForwardToken: `f/${"3".repeat(40)}`,
    };
    const asValue = await shape(body, { untrusted: false });
    expect(asValue.text).toContain(cursor);
    const asText = await shape(JSON.stringify(body, null, 2), { untrusted: false });
    expect(asText.text).toContain(cursor);
    expect(asText.meta.redactions?.count ?? 0).toBe(0);
  });
});

describe("redact: the new rules and detectors", () => {
  for (const f of foundFixtures()) {
    it(f.title, () => {
      expect(redact(f.input).text).toBe(f.expected);
    });
  }
});

describe("redact: options", () => {
  const key = `ghp_${"Qw3rTy7uI9oP".repeat(3)}`;

  it("allow: a literal or a pattern a rule lets through, for that rule only", () => {
    const text = `a ${key} b sk_live_${"Zx8Cv7Bn6Mq5".repeat(2)}`;
    const allowed = createRedactor({ allow: { github_token: [key] } })(text).text;
    expect(allowed).toContain(key);
    expect(allowed).toContain("[REDACTED:stripe_key]");
    const byPattern = createRedactor({ allow: { github_token: [/^ghp_Qw3r/g] } });
    // A shared RegExp with the g flag keeps no state between values.
    expect(byPattern(`${key} ${key}`).text).toBe(`${key} ${key}`);
    expect(createRedactor({ allow: { "*": [key] } })(text).text).toContain(key);
    expect(createRedactor({ allow: { stripe_key: [key] } })(text).text).not.toContain(key);
  });

  it("allow applies to detectors too", () => {
    const pem =
      "-----BEGIN PRIVATE KEY-----\nTUlJRXZRSUJBREFOQmdrcWhraUc5dzBCQVFF\n-----END PRIVATE KEY-----";
    expect(createRedactor({ allow: { private_key: [pem] } })(pem).text).toBe(pem);
  });

  it("an invalid allow-list is an options error", () => {
    expect(() => createRedactor({ allow: { github_token: [42 as unknown as string] } })).toThrow(
      expect.objectContaining({ code: "options/invalid" }),
    );
    expect(() => createRedactor({ allow: { github_token: "x" as unknown as string[] } })).toThrow(
      expect.objectContaining({ code: "options/invalid" }),
    );
  });

  it("keepPlaceholders: false redacts a placeholder like any key of its format", () => {
    const text = "AKIAXXXXXXXXXXXXXXXX";
    expect(redact(text).text).toBe(text);
    expect(redact(text, { keepPlaceholders: false }).text).toBe("[REDACTED:aws_access_key_id]");
  });

  it("keepExamples: false redacts documented examples", () => {
    const text = "AKIAIOSFODNN7EXAMPLE";
    expect(redact(text).text).toBe(text);
    expect(redact(text, { keepExamples: false }).text).toBe("[REDACTED:aws_access_key_id]");
  });

  it("disable turns off a detector as well as a rule", () => {
    const text = "C: AUTH PLAIN AGFsaWNlAGh1bnRlcjJodW50ZXIy";
    expect(redact(text).text).toContain("[REDACTED:smtp_auth]");
    expect(redact(text, { disable: ["smtp_auth"] }).text).toBe(text);
  });
});

describe("findings: a complete report of what was redacted", () => {
  it("every replacement has a finding, by rule, and shape's meta counts them alike", async () => {
    const key = `ghp_${"Qw3rTy7uI9oP".repeat(3)}`;
    const text = [
      `token=${key}`,
      "password: Xk9#mQ2vL7pR",
      `kind: Secret\ndata:\n  config: ${btoa("API_KEY=sk_live_abcdefghijklmnopqrstuvwx")}`,
      "C: AUTH PLAIN AGFsaWNlAGh1bnRlcjJodW50ZXIy",
    ].join("\n");
    const { text: out, findings } = redact(text);
    const tags = [...out.matchAll(/\[REDACTED:([a-z0-9_]+)\]/g)].map((m) => m[1]);
    expect(findings.map((f) => f.rule).sort()).toEqual([...tags].sort());
    const shaped = await shape(text, { untrusted: false });
    const byRule: Record<string, number> = {};
    for (const f of findings) byRule[f.rule] = (byRule[f.rule] ?? 0) + 1;
    expect(shaped.meta.redactions?.rules).toEqual(byRule);
    expect(shaped.meta.redactions?.count).toBe(findings.length);
  });
});

describe("properties: precision", () => {
  const names = fc.constantFrom(
    "next_page_token",
    "nextPageToken",
    "NextContinuationToken",
    "prev_page_token",
    "nextForwardToken",
    "pageToken",
    "continuation_token",
    "next_cursor",
    "resumptionToken",
  );
  const cursor = fc
    .record({ page: fc.nat(1000), after: fc.stringMatching(/^[0-9a-f]{4,24}$/) })
    .map((o) => btoa(JSON.stringify(o)));
  const layouts = [
    (k: string, v: string) => `{"${k}": "${v}", "items": []}`,
    (k: string, v: string) => `${k}: ${v}`,
    (k: string, v: string) => `GET /v1/list?${k}=${encodeURIComponent(v)}&limit=10`,
  ];

  it("a pagination token survives, whatever its key spelling and carrier", () => {
    fc.assert(
      fc.property(names, cursor, fc.integer({ min: 0, max: layouts.length - 1 }), (k, v, l) => {
        const text = (layouts[l] as (k: string, v: string) => string)(k, v);
        return redact(text).text === text;
      }),
      { numRuns: 300, seed: 20 },
    );
  });

  it("negative control: the same values under a secret's key are redacted", () => {
    const result = fc.check(
      fc.property(cursor, fc.integer({ min: 0, max: layouts.length - 1 }), (v, l) => {
        const text = (layouts[l] as (k: string, v: string) => string)("access_token", v);
        return redact(text).text === text;
      }),
      { numRuns: 50, seed: 20 },
    );
    expect(result.failed).toBe(true);
  });
});
