import { createRedactor, createShaper, redact, redactWithFingerprints } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { PATH_RULES, PII_RULES } from "../../src/redact/optional.js";

describe("redact: paths (off by default)", () => {
  const cases: Array<[string, string]> = [
    ["/home/alice/src/app.ts:12", "/home/[REDACTED:home_path]/src/app.ts:12"],
    ["open /Users/bob/Library/x failed", "open /Users/[REDACTED:home_path]/Library/x failed"],
    ["C:\\Users\\carol\\AppData\\x.log", "C:\\Users\\[REDACTED:home_path]\\AppData\\x.log"],
    ['{"path": "C:\\\\Users\\\\dan\\\\x"}', '{"path": "C:\\\\Users\\\\[REDACTED:home_path]\\\\x"}'],
    ["c:/users/erin/y", "c:/users/[REDACTED:home_path]/y"],
  ];
  for (const [input, output] of cases) {
    it(input, () => {
      expect(redact(input).text).toBe(input);
      expect(redact(input, { paths: true }).text).toBe(output);
    });
  }

  it("tenant roots redact the segment after them", () => {
    const r = createRedactor({ paths: { roots: ["/srv/tenants/"] } });
    expect(r("read /srv/tenants/acme-corp/data.db").text).toBe(
      "read /srv/tenants/[REDACTED:tenant_path]/data.db",
    );
    expect(() => createRedactor({ paths: { roots: [""] } })).toThrow(
      expect.objectContaining({ code: "options/invalid" }),
    );
  });

  it("leaves relative and system paths alone", () => {
    const text = "src/home/page.tsx /usr/lib/node /var/log/syslog ./Users.ts";
    expect(redact(text, { paths: true }).text).toBe(text);
  });
});

describe("redact: PII (off by default)", () => {
  const found: Array<[string, string]> = [
    ["mail jane.doe+tag@example.co.uk now", "mail [REDACTED:email] now"],
    ["from 192.168.1.20:8080", "from [REDACTED:ip_address]:8080"],
    ["peer 2001:db8::8a2e:370:7334 up", "peer [REDACTED:ip_address] up"],
    ["v6 2001:0db8:85a3:0000:0000:8a2e:0370:7334", "v6 [REDACTED:ip_address]"],
  ];
  for (const [input, output] of found) {
    it(input, () => {
      expect(redact(input).text).toBe(input);
      expect(redact(input, { pii: true }).text).toBe(output);
    });
  }

  const kept = [
    "version 1.2.3 and 10.0 and 1.2.3.4.5",
    "at 12:30:45 the std::vector<int> grew",
    "npm i @scope/pkg@1.2.3",
    "999.1.1.1 is not an address",
    "a::b::c",
  ];
  for (const text of kept) {
    it(`keeps: ${text}`, () => {
      expect(redact(text, { pii: true }).text).toBe(text);
    });
  }
});

describe("redact: private keys without their BEGIN line", () => {
  it("an END line takes the key lines before it, and nothing else", () => {
    const body = ["TUlJRXZRSUJBREFOQmdrcWhraUc5dzBCQVFF", "QkFBU0NCS2N3Z2dTakFnRUFBb0lCQVFD"];
    const text = ["INFO tail of a log", ...body, "-----END PRIVATE KEY-----", "INFO after"].join(
      "\n",
    );
    const out = redact(text).text;
    for (const line of body) expect(out).not.toContain(line);
    expect(out.split("\n")).toEqual([
      "INFO tail of a log",
      "[REDACTED:private_key]",
      "[REDACTED:private_key]",
      "[REDACTED:private_key]",
      "INFO after",
    ]);
  });

  it("in JSON with literal \\n", () => {
    const text =
      '{"key": "QUJDREVGR0hJSktMTU5PUA==\\nUVJTVFVWV1hZWg==\\n-----END RSA PRIVATE KEY-----\\n"}';
    const out = redact(text).text;
    expect(out).not.toContain("QUJDREVGR0hJSktM");
    expect(out).not.toContain("UVJTVFVWV1hZWg");
  });
});

describe("redactWithFingerprints", () => {
  const token = `ghp_${"Qw3rTy7uI9oP".repeat(3)}`;

  it("gives equal secrets equal fingerprints, under one key only", async () => {
    const text = `a=${token} b=${token}`;
    const one = await redactWithFingerprints(text, { key: "k".repeat(32) });
    expect(one.text).toBe("a=[REDACTED:github_token] b=[REDACTED:github_token]");
    const [x, y] = one.findings;
    expect(x?.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(x?.fingerprint).toBe(y?.fingerprint);
    const two = await redactWithFingerprints(text, { key: "j".repeat(32) });
    expect(two.findings[0]?.fingerprint).not.toBe(x?.fingerprint);
    expect(JSON.stringify(one)).not.toContain(token.slice(4, 20));
  });

  it("accepts raw bytes and CryptoKeys, and refuses short keys", async () => {
    const raw = new Uint8Array(32).fill(7);
    const key = await crypto.subtle.importKey(
      "raw",
      raw,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const a = await redactWithFingerprints(token, { key: raw });
    const b = await redactWithFingerprints(token, { key });
    expect(a.findings[0]?.fingerprint).toBe(b.findings[0]?.fingerprint);
    await expect(redactWithFingerprints(token, { key: "short" })).rejects.toMatchObject({
      code: "options/invalid",
    });
  });

  it("matches an HMAC-SHA-256 computed independently", async () => {
    const keyBytes = new TextEncoder().encode("an independent key, 32 bytes ok");
    const key = await crypto.subtle.importKey(
      "raw",
      keyBytes,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = new Uint8Array(
      await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token)),
    );
    const hex = [...mac.subarray(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const { findings } = await redactWithFingerprints(`x ${token}`, { key: keyBytes });
    expect(findings[0]?.fingerprint).toBe(hex);
  });
});

describe("redact: name/value pairs are linear on pathological input", () => {
  const MB = 1 << 20;
  const inputs: Array<[string, string]> = [
    ["names without values", '"name": "token", '.repeat(MB / 17)],
    ["values without closing quotes", `name: token\nvalue: "${"a".repeat(MB)}`],
    ["one long unquoted value", `name=secret value=${"b ".repeat(MB / 2)}`],
    ["alternating pairs", "name: key value: x".repeat(MB / 18)],
  ];
  for (const [title, input] of inputs) {
    it(title, { timeout: 20_000 }, () => {
      const started = performance.now();
      redact(input);
      expect(performance.now() - started).toBeLessThan(3000);
    });
  }
});

describe("redact: optional rules are linear on pathological input", () => {
  const MB = 1 << 20;
  for (const rule of [...PATH_RULES, ...PII_RULES]) {
    it(`${rule.id} (${rule.keywords.join(" ")})`, { timeout: 20_000 }, () => {
      for (const keyword of rule.keywords) {
        for (const input of [
          keyword.repeat(MB / keyword.length),
          `${keyword}${"a".repeat(MB)}`,
          `${"a1.".repeat(MB / 3)}${keyword}`,
          `${"1.".repeat(MB / 2)}`,
          `${"f:".repeat(MB / 2)}`,
        ]) {
          const started = performance.now();
          redact(input, { paths: true, pii: true });
          expect(performance.now() - started).toBeLessThan(3000);
        }
      }
    });
  }
});

describe("redact options are refused when a shaper is compiled, before the rules load", () => {
  const bad: Array<[string, unknown]> = [
    ["a rule without keywords", { rules: [{ id: "acme", keywords: [], pattern: "acme_\\w+" }] }],
    [
      "a keyword that is not printable ASCII",
      { rules: [{ id: "acme", keywords: ["é"], pattern: "x" }] },
    ],
    [
      "a pattern that does not compile",
      { rules: [{ id: "acme", keywords: ["acme"], pattern: "(" }] },
    ],
    [
      "a reject that does not compile",
      { rules: [{ id: "acme", keywords: ["acme"], pattern: "a", reject: "[" }] },
    ],
    ["an allow-list that is not a list", { allow: { jwt: "eyJ" } }],
    ["an allow entry that is a number", { allow: { jwt: [42] } }],
    ["a tenant root too short", { paths: { roots: ["/"] } }],
    ["rules that are not a list", { rules: { id: "acme" } }],
    ["disable that is not a list", { disable: "jwt" }],
  ];
  for (const [title, options] of bad) {
    it(title, () => {
      // Synchronous: the shaper is never made, nothing is shaped.
      expect(() => createShaper({ redact: options as never })).toThrow(
        expect.objectContaining({ code: "options/invalid" }),
      );
      // The same options are refused by the synchronous redactor (one check, two doors).
      expect(() => createRedactor(options as never)).toThrow(
        expect.objectContaining({ code: "options/invalid" }),
      );
    });
  }

  it("valid options compile and shape (negative control)", async () => {
    const shaper = createShaper({
      redact: { rules: [{ id: "acme", keywords: ["acme_"], pattern: "acme_[a-z0-9]{12}" }] },
    });
    const { text } = await shaper("key acme_abcdef123456 here");
    expect(text).toContain("[REDACTED:acme]");
    expect(text).not.toContain("acme_abcdef123456");
  });
});
