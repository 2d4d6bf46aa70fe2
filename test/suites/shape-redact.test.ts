import { createMemoryStore, redact, shape } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { secretCases } from "../fixtures/secrets.js";
import { toolLines } from "../helpers/markers.js";
import {
  bytesOf,
  chunkedStream,
  gaps,
  serviceLog,
  split,
  streamCutAt,
} from "../helpers/sources.js";

/** No 12-character fragment of `secret` is in `text`. */
function leaks(text: string, secret: string): boolean {
  if (text.includes(secret)) return true;
  for (let i = 0; i + 12 <= secret.length; i += 4) {
    if (text.includes(secret.slice(i, i + 12))) return true;
  }
  return false;
}

const GHP = `ghp_${"aB3cD4eF5gH6".repeat(3)}`;

describe("shape redacts before anything is kept", () => {
  for (const c of secretCases(5)) {
    it(`${c.title}, in the middle of a long log`, async () => {
      const log = serviceLog(2000, new Map([[1000, c.text]]));
      const shaped = await shape(log, { maxTokens: 400 });
      expect(leaks(shaped.text, c.secret)).toBe(false);
      expect(leaks(JSON.stringify(shaped.meta), c.secret)).toBe(false);
      expect(shaped.meta.redactions?.rules[c.rule]).toBeGreaterThanOrEqual(1);
    });
  }

  it("secrets are counted where lines can be shown (scope shown), in every line with a store (scope read)", async () => {
    const planted = new Map<number, string>();
    for (let n = 2000; n < 2100; n++) planted.set(n, `INFO ${n} using key ${GHP}`);
    const log = serviceLog(5000, planted);
    const shaped = await shape(log, { maxTokens: 300 });
    const shown = shaped.text.split("[REDACTED:github_token]").length - 1;
    expect(shown).toBeLessThan(100);
    const counted = shaped.meta.redactions?.count ?? 0;
    // Every shown one is counted; lines never shown were not read by the rules.
    expect(counted).toBeGreaterThanOrEqual(shown);
    expect(counted).toBeLessThan(100);
    expect(shaped.meta.redactions?.scope).toBe("shown");
    const stored = await shape(log, { maxTokens: 300, store: createMemoryStore() });
    expect(stored.meta.redactions).toEqual({
      count: 100,
      rules: { github_token: 100 },
      scope: "read",
    });
  });

  it("a private key over 30 lines is redacted line by line, so line numbers stay exact", async () => {
    const key = Array.from(
      { length: 30 },
      (_, i) => `MII${String(i).padStart(4, "0")}${"Qk9vYmFy".repeat(7)}`,
    );
    const pem = ["-----BEGIN EC PRIVATE KEY-----", ...key, "-----END EC PRIVATE KEY-----"];
    const lines = serviceLog(100).split("\n");
    lines.splice(50, 0, ...pem);
    const shaped = await shape(lines.join("\n"), { maxTokens: 8000, untrusted: false });
    expect(shaped.meta.truncated).toBe(false);
    for (const k of key) expect(shaped.text).not.toContain(k.slice(7));
    expect(shaped.meta.lines).toBe(lines.length);
    expect(shaped.meta.redactions?.rules).toEqual({ private_key: 1 });
    // The line after the key is where it was.
    expect(toolLines(shaped.text)[82]).toBe(lines[82]);
  });

  it("a key whose BEGIN line was cut away by the byte cap of an earlier read still fails closed", async () => {
    // The text starts inside a key: an END with no BEGIN takes the key lines before it.
    const body = Array.from({ length: 20 }, (_, i) => `${"TUlJQ1h3SUJBQUtCZ1FD".repeat(3)}${i}`);
    const text = [...body, "-----END PRIVATE KEY-----", "INFO done"].join("\n");
    const shaped = await shape(text, { untrusted: false });
    for (const line of body) expect(shaped.text).not.toContain(line);
    expect(shaped.text).toContain("INFO done");
  });

  it("a secret split across chunks of a stream is caught, at every split point", async () => {
    const text = `INFO start\nexport GITHUB_TOKEN=${GHP}\nINFO end\n`;
    const bytes = bytesOf(text);
    for (let at = 1; at < bytes.byteLength; at++) {
      const { stream } = chunkedStream([bytes.subarray(0, at), bytes.subarray(at)]);
      const shaped = await shape(stream, { untrusted: false });
      expect(shaped.text, `split at ${at}`).not.toContain(GHP.slice(4, 16));
      expect(shaped.meta.redactions?.count).toBe(1);
    }
  });

  it("a name and value on two lines are caught wherever a chunk splits them", async () => {
    const value = "q8Zr2LmN4vPx7TbK1wYs";
    const text = `env:\n  - name: DB_PASSWORD\n    value: "${value}"\n  - name: LOG_LEVEL\n`;
    const bytes = bytesOf(text);
    for (let at = 1; at < bytes.byteLength; at++) {
      const { stream } = chunkedStream([bytes.subarray(0, at), bytes.subarray(at)]);
      const shaped = await shape(stream, { untrusted: false });
      expect(shaped.text, `split at ${at}`).not.toContain(value.slice(0, 12));
      expect(shaped.meta.redactions?.rules.named_secret, `split at ${at}`).toBe(1);
    }
  });

  it("a private key streamed one byte at a time is still one finding", async () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n".repeat(25)}-----END RSA PRIVATE KEY-----\nINFO after`;
    const { stream } = chunkedStream(split(bytesOf(pem), 1));
    const shaped = await shape(stream, { untrusted: false });
    expect(shaped.text).not.toContain("QUJDREVGR0hJSktM");
    expect(shaped.text).toContain("INFO after");
    expect(shaped.meta.redactions).toEqual({ count: 1, rules: { private_key: 1 }, scope: "read" });
  });

  it("a secret deep inside a line far longer than the line cap is redacted before the cut", async () => {
    for (const offset of [100, 70_000, 131_000, 200_000 - 60]) {
      const line = `${"x ".repeat(offset / 2)}token ${GHP} ${"y ".repeat(100_000)}`;
      const shaped = await shape(`${line}\nINFO after`, { maxTokens: 300, untrusted: false });
      expect(leaks(shaped.text, GHP), `secret at ${offset}`).toBe(false);
      expect(shaped.meta.redactions?.rules.github_token).toBe(1);
    }
  });

  it("a token cut by the byte cap is removed: a prefix of a secret is not shown", async () => {
    const text = `INFO ok\nAuthorization: Bearer ${"eyJhbGciOiJIUzI1NiJ9abcdefghijklmnopqrstuvwxyz".repeat(2)}`;
    const cap = text.indexOf("Bearer ") + 7 + 30;
    const shaped = await shape(text, { maxBytes: cap, untrusted: false });
    expect(shaped.text).not.toContain("eyJhbGciOiJIUzI1NiJ9");
    expect(shaped.meta.redactions?.rules.cut_token).toBe(1);
  });

  it("the error message of a failed stream is redacted", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytesOf("INFO partial output\n"));
        controller.error(new Error(`upstream said: invalid key ${GHP}`));
      },
    });
    const shaped = await shape(stream);
    expect(shaped.status).toBe("error");
    expect(leaks(shaped.text, GHP)).toBe(false);
    expect(leaks(shaped.meta.error?.message ?? "", GHP)).toBe(false);
    expect(shaped.meta.error?.message).toContain("[REDACTED:github_token]");
  });

  it("the error message of a failed stream loses stack frames and paths", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(
          new Error(
            "EACCES: permission denied, open '/home/alice/app/.env'\n    at Object.openSync (node:fs:573:18)",
          ),
        );
      },
    });
    const shaped = await shape(stream);
    for (const where of [shaped.text, shaped.meta.error?.message ?? ""]) {
      expect(where).not.toContain("/home/alice");
      expect(where).not.toContain("openSync");
      expect(where).toContain("permission denied");
    }
    expect(shaped.meta.error).toMatchObject({ code: "intake/read-failed", retryable: true });
  });

  it("the last pass redacts what the shaper adds around the content (the next hint)", async () => {
    const shaped = await shape(serviceLog(3000), {
      maxTokens: 300,
      next: `call again with header x-token ${GHP}`,
    });
    expect(shaped.meta.truncated).toBe(true);
    expect(leaks(shaped.text, GHP)).toBe(false);
    expect(shaped.text).toContain("[REDACTED:github_token]");
  });

  it("redact: false turns it off for a tool that shows example keys", async () => {
    const shaped = await shape(`example: ${GHP}`, { redact: false, untrusted: false });
    expect(shaped.text).toBe(`example: ${GHP}`);
    expect(shaped.meta.redactions).toBeUndefined();
  });

  it("redact options reach the stage: known values, paths, PII, example keys", async () => {
    const text =
      "DB host pw is correct-horse-battery; home /home/alice/src; mail bob@example.org from 10.1.2.3; AKIAIOSFODNN7EXAMPLE";
    const shaped = await shape(text, {
      untrusted: false,
      redact: {
        knownValues: ["correct-horse-battery"],
        paths: true,
        pii: true,
        keepExamples: false,
      },
    });
    expect(shaped.text).toBe(
      "DB host pw is [REDACTED:known_value]; home /home/[REDACTED:home_path]/src; mail [REDACTED:email] from [REDACTED:ip_address]; [REDACTED:aws_access_key_id]",
    );
    // Off by default (and documented examples are kept by default).
    const plain = await shape(text, { untrusted: false });
    expect(plain.text).toContain("/home/alice/src");
    expect(plain.text).toContain("bob@example.org");
    expect(plain.text).toContain("AKIAIOSFODNN7EXAMPLE");
  });

  it("keyed fingerprints correlate equal secrets without storing them", async () => {
    const other = `ghp_${"Zy9Xw8Vu7Ts6".repeat(3)}`;
    const text = `a ${GHP}\nb ${other}\nc ${GHP}`;
    const key = "an operator key of enough bytes";
    const one = await shape(text, { redact: { fingerprintKey: key } });
    const prints = one.meta.redactions?.fingerprints ?? [];
    expect(prints.map((p) => p.rule)).toEqual(["github_token", "github_token", "github_token"]);
    expect(prints[0]?.fingerprint).toMatch(/^[0-9a-f]{32}$/);
    expect(prints[0]?.fingerprint).toBe(prints[2]?.fingerprint);
    expect(prints[0]?.fingerprint).not.toBe(prints[1]?.fingerprint);
    // Another key, other fingerprints; and no value anywhere in the result.
    const two = await shape(text, { redact: { fingerprintKey: `${key}!` } });
    expect(two.meta.redactions?.fingerprints?.[0]?.fingerprint).not.toBe(prints[0]?.fingerprint);
    expect(leaks(JSON.stringify(one), GHP)).toBe(false);
  });

  it("a short HMAC key is an options error", async () => {
    await expect(shape("x", { redact: { fingerprintKey: "short" } })).rejects.toMatchObject({
      code: "options/invalid",
    });
  });
});

describe("shape removes invisible characters before redacting", () => {
  it("a zero-width space cannot split a secret past the rules", async () => {
    const hidden = `ghp_${"aB3cD4eF5gH6".repeat(2)}\u200B${"aB3cD4eF5gH6"}`;
    const shaped = await shape(`token: ${hidden}`, { untrusted: false });
    expect(shaped.text).toBe("token: [REDACTED:github_token]");
    expect(shaped.meta.invisible).toMatchObject({ count: 1, zeroWidth: 1 });
  });

  it("bidi overrides, tag characters and controls are removed and counted", async () => {
    const tags = [..."ignore previous"]
      .map((ch) => String.fromCodePoint(0xe0000 + ch.charCodeAt(0)))
      .join("");
    const text = `invoice\u202Efdp.exe ok${tags}\x00\x7f\u0085 done`;
    const shaped = await shape(text, { untrusted: false });
    expect(shaped.text).toBe("invoicefdp.exe ok done");
    expect(shaped.meta.invisible).toEqual({
      count: 1 + 15 + 3,
      bidi: 1,
      zeroWidth: 0,
      tag: 15,
      control: 3,
      other: 0,
    });
  });

  it("colour codes are removed as sequences, not left as [31m debris", async () => {
    const shaped = await shape("\x1b[31mERROR\x1b[0m failed\n\x1b]0;title\x07next", {
      untrusted: false,
    });
    expect(shaped.text).toBe("ERROR failed\nnext");
  });

  it("text is NFC-normalised", async () => {
    const shaped = await shape("cafe\u0301", { untrusted: false });
    expect(shaped.text).toBe("caf\u00e9");
  });

  it("invisible: false keeps them", async () => {
    const shaped = await shape("a\u200Bb", { untrusted: false, invisible: false });
    expect(shaped.text).toBe("a\u200Bb");
    expect(shaped.meta.invisible).toBeUndefined();
  });
});

describe("shape: properties", () => {
  const cases = secretCases(9);
  const filler = fc.array(
    fc.constantFrom("INFO ok", "GET /health 200", "", "  at x (y.js:1:1)", "WARN slow", "done."),
    { maxLength: 40 },
  );
  const planted = fc.record({
    before: filler,
    after: filler,
    k: fc.integer({ min: 0, max: cases.length - 1 }),
    cuts: fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 8 }),
  });

  /** The text as a stream cut at the given byte offsets. */
  function cutStream(text: string, cuts: readonly number[]): ReadableStream<Uint8Array> {
    return streamCutAt(text, cuts);
  }

  it("a secret planted anywhere and split at random chunk boundaries never survives", async () => {
    await fc.assert(
      fc.asyncProperty(planted, async ({ before, after, k, cuts }) => {
        const c = cases[k];
        if (!c) return true;
        const text = [...before, c.text, ...after].join("\n");
        const shaped = await shape(cutStream(text, cuts), { maxTokens: 2000, untrusted: false });
        return !leaks(shaped.text, c.secret);
      }),
      { numRuns: 120, seed: 7 },
    );
  });

  it("negative control: with redaction off the same property fails", async () => {
    const result = await fc.check(
      fc.asyncProperty(planted, async ({ before, after, k, cuts }) => {
        const c = cases[k];
        if (!c) return true;
        const text = [...before, c.text, ...after].join("\n");
        const shaped = await shape(cutStream(text, cuts), {
          maxTokens: 2000,
          untrusted: false,
          redact: false,
        });
        return !leaks(shaped.text, c.secret);
      }),
      { numRuns: 30, seed: 7 },
    );
    expect(result.failed).toBe(true);
  });

  it("the shaped text of a redacted input is a fixed point of redact", async () => {
    await fc.assert(
      fc.asyncProperty(planted, async ({ before, after, k }) => {
        const c = cases[k];
        if (!c) return true;
        const shaped = await shape([...before, c.text, ...after].join("\n"), { untrusted: false });
        return redact(shaped.text).text === shaped.text;
      }),
      { numRuns: 80, seed: 11 },
    );
  });

  it("line numbers in markers stay exact when keys are redacted", async () => {
    const c = cases.find((x) => x.rule === "private_key");
    if (!c) throw new Error("fixture has a private key case");
    const lines = serviceLog(3000).split("\n");
    lines.splice(1500, 0, ...toolLines(c.text));
    const shaped = await shape(lines.join("\n"), { maxTokens: 400 });
    // The key's lines stay lines: the summary's total and every gap count the input's lines.
    expect(shaped.text).toContain(` of ${lines.length} lines`);
    const found = gaps(shaped.text);
    expect(found.length).toBeGreaterThan(1);
    for (const g of found) expect(g.to).toBeLessThanOrEqual(lines.length);
    const last = found.at(-1);
    const tail = lines.at(-1) as string;
    expect(last?.to === lines.length || shaped.text.includes(tail)).toBe(true);
  });
});

/** Base64 of `n` pseudo-random bytes (deterministic), as a long secret value. */
function randomBase64(n: number, seed: number): string {
  const bytes = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    bytes[i] = s >>> 24;
  }
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

describe("shape: leaks found in review stay closed", () => {
  it("a value longer than its rule's bound is redacted whole", async () => {
    for (const [name, value] of [
      ["SSH_PRIVATE_KEY_B64", randomBase64(1800, 1)],
      ["GOOGLE_CREDENTIALS", randomBase64(2400, 2)],
    ] as const) {
      const shaped = await shape(`${name}=${value}\nINFO next`, { untrusted: false });
      expect(leaks(shaped.text, value), name).toBe(false);
      expect(shaped.text).toContain("INFO next");
    }
  });

  it("quoted passwords keep their commas, semicolons and spaces inside the redaction", async () => {
    for (const text of [
      '{"password": "Xk9mP2v,L8qR4wZ7tQ"}',
      'DB_PASSWORD="Xk9;mP2vL8qR4wZ7"',
      "db_password: 'Xk9 mP2v L8qR 4wZ7'",
    ]) {
      const shaped = await shape(text, { untrusted: false });
      expect(shaped.text, text).not.toMatch(/Xk9|L8qR/);
    }
  });

  it("colour codes around a token split at any byte do not hide it", async () => {
    const token = `ghp_${"aB3dE5fG7hJ9".repeat(3)}`;
    const text = `x\n\x1b[01;31m\x1b[K${token.slice(0, 4)}\x1b[m\x1b[K${token.slice(4)}\ny\n`;
    const bytes = bytesOf(text);
    for (let at = 1; at < bytes.byteLength; at++) {
      const { stream } = chunkedStream([bytes.subarray(0, at), bytes.subarray(at)]);
      const shaped = await shape(stream, { untrusted: false });
      expect(leaks(shaped.text, token), `split at ${at}`).toBe(false);
      expect(shaped.text).not.toContain("[01;31m");
    }
  });

  it("a pretty-printed JWK loses its private members", async () => {
    const d = randomBase64(96, 3).replace(/[+/=]/g, "A");
    const jwk = JSON.stringify(
      { kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", d },
      null,
      2,
    );
    const shaped = await shape(jwk, { untrusted: false });
    expect(leaks(shaped.text, d)).toBe(false);
    expect(shaped.text).toContain("f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU");
  });

  it("a base64-encoded private key is redacted, an encoded certificate is not", async () => {
    const key = btoa(
      `-----BEGIN RSA PRIVATE KEY-----\n${randomBase64(600, 4)}\n-----END RSA PRIVATE KEY-----\n`,
    );
    const cert = btoa(
      `-----BEGIN CERTIFICATE-----\n${randomBase64(300, 5)}\n-----END CERTIFICATE-----\n`,
    );
    const kubeconfig = `users:\n- name: admin\n  user:\n    client-key-data: ${key}\n    client-certificate-data: ${cert}\n`;
    const shaped = await shape(kubeconfig, { untrusted: false, maxTokens: 8000 });
    // Both begin with "-----BEGIN " encoded: the key's own part is what must not survive.
    expect(leaks(shaped.text, key.slice(16))).toBe(false);
    expect(shaped.text).toContain(cert);
  });

  it("a key without its BEGIN line, streamed a line at a time, does not leak", async () => {
    const body = Array.from({ length: 12 }, (_, i) => randomBase64(48, 10 + i));
    const lines = ["INFO tail -n 20 key.pem", ...body, "-----END PRIVATE KEY-----", "INFO done"];
    const { stream } = chunkedStream(lines.map((l) => `${l}\n`));
    const shaped = await shape(stream, { untrusted: false });
    for (const line of body) expect(shaped.text).not.toContain(line.slice(0, 24));
    expect(shaped.text).toContain("INFO done");
    expect(shaped.meta.redactions?.rules.private_key).toBe(1);
  });

  it("a secret on a very long line is caught wherever the piece seam falls", async () => {
    // A 70,000-character chunk without a newline is redacted in pieces; the seam falls a fixed
    // lookahead before its end (about 53,600 or 65,900 characters in, by version). The key
    // name, its separator and its value are each cut there in turn.
    const value = "Xk9mP2vL8qR4wZ7tQ3nB";
    const prefix = " DB_PASSWORD=";
    const length = 70_000;
    for (const seam of [length - 16_384, length - 4096]) {
      for (let k = 0; k <= prefix.length + 4; k++) {
        const start = seam - k;
        const body = `${"x".repeat(start)}${prefix}${value} `;
        const chunk = body + "y".repeat(length - body.length);
        const shaped = await shape(chunkedStream([chunk, "\nINFO after\n"]).stream, {
          untrusted: false,
          maxTokens: 16_000,
        });
        expect(leaks(shaped.text, value), `seam ${seam}, ${k} into the name`).toBe(false);
      }
    }
  });

  it("a coloured token in a failing stream's message is redacted", async () => {
    const token = `ghp_${"Qw3rTy7uI9oP".repeat(3)}`;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.error(new Error(`auth failed for token \x1b[31m${token}\x1b[39m`));
      },
    });
    const shaped = await shape(stream);
    expect(leaks(JSON.stringify(shaped), token)).toBe(false);
  });

  it("a source whose cancel never settles does not hang the byte cap", async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(bytesOf("INFO line of output\n".repeat(100)));
      },
      cancel() {
        return new Promise<void>(() => undefined);
      },
    });
    const shaped = await shape(stream, { maxBytes: 10_000 });
    expect(shaped.meta.sections[0]?.capped).toBe(true);
    expect(sent).toBeGreaterThan(0);
  });

  it("a stream failing with something that cannot be printed is still a result", async () => {
    for (const reason of [
      Object.create(null),
      Object.defineProperty(new Error("x"), "message", {
        get() {
          throw new Error("getter");
        },
      }),
    ]) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.error(reason);
        },
      });
      const shaped = await shape(stream);
      expect(shaped.status).toBe("error");
      expect(shaped.meta.error?.code).toBe("intake/read-failed");
    }
  });

  it("known values match after NFC and without the line break a file read leaves", async () => {
    const shaped = await shape("pass Caf\u00e9Secret99 and more", {
      untrusted: false,
      redact: { knownValues: ["Cafe\u0301Secret99\n"] },
    });
    expect(shaped.text).toBe("pass [REDACTED:known_value] and more");
  });

  it("an HTTP reason phrase is cleaned before it reaches meta", async () => {
    const token = `ghp_${"Zx8Cv7Bn6Ma5".repeat(3)}`;
    const response = new Response("body", { status: 502, statusText: `Bad Gateway ${token}` });
    const shaped = await shape(response);
    expect(leaks(JSON.stringify(shaped), token)).toBe(false);
    expect(shaped.meta.error?.retryable).toBe(true);
  });
});
