import { createRedactor, redact, type SecretRule, shape } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ESCAPES, escapeCases, pairCases, tokens } from "../fixtures/escapes.js";
import { bytesOf, chunkedStream, split } from "../helpers/sources.js";

/** No 12-character fragment of `secret` is in `text`. */
function leaks(text: string, secret: string): boolean {
  if (text.includes(secret)) return true;
  for (let i = 0; i + 12 <= secret.length; i += 3) {
    if (text.includes(secret.slice(i, i + 12))) return true;
  }
  return false;
}

describe("redact: tokens after escape sequences (issue 14)", () => {
  for (const c of escapeCases()) {
    it(c.title, () => {
      const { text, findings } = redact(c.text);
      expect(leaks(text, c.secret)).toBe(false);
      expect(findings.length).toBeGreaterThan(0);
    });
  }
});

describe("redact: generic pairs in other syntaxes and look-alike key names", () => {
  for (const c of pairCases()) {
    it(c.title, () => {
      const { text } = redact(c.text);
      expect(leaks(text, c.secret)).toBe(false);
      expect(text).toContain("[REDACTED:");
    });
  }

  it("the fold is for the key, never the value: a look-alike value is not a token", () => {
    // "ghp_" with a Cyrillic р is no GitHub token, and nothing names it a secret.
    const fake = `ghр_${"aB3dE5fG7hJ9".repeat(3)}`;
    expect(redact(`commit message mentions ${fake}`).text).toContain(fake);
  });

  it("a comparison is not an assignment", () => {
    const text = 'if password == "hunter2hunter2": pass';
    expect(redact(text).text).toBe(text);
  });
});

describe("shape: a carriage-return redraw is judged as the line is shown", () => {
  const value = "Xk9mQ2vL7pR4wZ8tx";
  const text = `env\nDB_PASSWORD=abc\r${value}\nINFO done\n`;

  it("the value a redraw leaves on screen is redacted, with its key out of view", async () => {
    const shaped = await shape(text, { untrusted: false });
    expect(shaped.text).not.toContain(value);
    expect(shaped.text).not.toContain("\r");
    expect(shaped.text).toContain("INFO done");
    expect(shaped.meta.redactions?.rules.secret_assignment).toBe(1);
  });

  it("wherever a stream splits the line", async () => {
    const bytes = bytesOf(text);
    for (let at = 1; at < bytes.byteLength; at++) {
      const { stream } = chunkedStream([bytes.subarray(0, at), bytes.subarray(at)]);
      const shaped = await shape(stream, { untrusted: false });
      expect(shaped.text, `split at ${at}`).not.toContain(value);
    }
  });

  it("redact() alone: the whole value after the return goes too", () => {
    expect(redact(`DB_PASSWORD=abc\r${value}`).text).toBe(
      "DB_PASSWORD=[REDACTED:secret_assignment]",
    );
  });
});

describe("wrapped and soft-broken tokens", () => {
  const [github, , slack] = tokens(3);
  const token = (github as { secret: string }).secret;

  for (const width of [60, 72, 80]) {
    it(`a token hard-wrapped at ${width} columns, in one piece and streamed line by line`, async () => {
      // The token starts 20 columns before the wrap, so the break falls inside it.
      const line = `${"#".repeat(width - 40)}export GITHUB_TOKEN=${token} # rotate monthly`;
      const wrapped = (line.match(new RegExp(`.{1,${width}}`, "g")) ?? []).join("\n");
      expect(wrapped.split("\n")[0]?.endsWith(token.slice(0, 20))).toBe(true);
      expect(leaks(redact(wrapped).text, token)).toBe(false);
      const { stream } = chunkedStream(wrapped.split("\n").map((l) => `${l}\n`));
      const shaped = await shape(stream, { untrusted: false });
      expect(leaks(shaped.text, token)).toBe(false);
    });
  }

  it("a quoted-printable soft break inside a token", () => {
    const secret = (slack as { secret: string }).secret;
    const text = `Content-Transfer-Encoding: quoted-printable\n\nYour token: ${secret.slice(0, 20)}=\n${secret.slice(20)}\n`;
    expect(leaks(redact(text).text, secret)).toBe(false);
  });

  it("a whole token that ends a line at a wrap width does not take the next line's first word", () => {
    // "export GITHUB_TOKEN=" and a 40-character token: 60 columns, a common wrap width.
    const whole = `ghp_${"Qw3rTy7uI9oP".repeat(3)}`;
    const text = `export GITHUB_TOKEN=${whole}\nThe deploy finished with status ready.`;
    expect(text.indexOf("\n")).toBe(60);
    expect(redact(text).text).toBe(
      "export GITHUB_TOKEN=[REDACTED:github_token]\nThe deploy finished with status ready.",
    );
    // Negative control: a token the wrap did cut is still joined across the same seam.
    const cutToken = `${"#".repeat(20)}export GITHUB_TOKEN=${token} # rotate monthly`;
    const wrapped = (cutToken.match(/.{1,60}/g) ?? []).join("\n");
    expect(leaks(redact(wrapped).text, token)).toBe(false);
  });

  it("the short tail of a wrapped token after a key name is still joined", () => {
    // 76 columns, then the last 14 characters of the token and a space: a tail, not prose.
    const l1 = `export GITHUB_TOKEN=${token.slice(0, 26)}`;
    const text = `${"a".repeat(76 - l1.length - 1)} ${l1}\n${token.slice(26)} deploy done\n`;
    expect(text.indexOf("\n")).toBe(76);
    expect(redact(text).text).not.toContain(token.slice(26));
  });

  it("an indented line folded at a wrap width goes on at the next line's start", async () => {
    for (const lead of ["using ", "export GITHUB_TOKEN="]) {
      for (const cut of [10, 26]) {
        const l1 = `${lead}${token.slice(0, cut)}`;
        const text = `    ${"a".repeat(76 - l1.length - 5)} ${l1}\n${token.slice(cut)}\nnext\n`;
        expect(text.indexOf("\n")).toBe(76);
        const out = redact(text).text;
        expect(out, `${lead}, cut at ${cut}`).not.toContain(token.slice(0, cut));
        expect(out, `${lead}, cut at ${cut}`).not.toContain(token.slice(cut));
        const shaped = (await shape(text, { untrusted: false })).text;
        expect(shaped).not.toContain(token.slice(cut));
      }
    }
    // Negative control: the same lines at a width no tool wraps at are not joined.
    const l1 = `using ${token.slice(0, 10)}`;
    const odd = `    ${"a".repeat(77 - l1.length - 5)} ${l1}\n${token.slice(10)}\nnext\n`;
    expect(odd.indexOf("\n")).toBe(77);
    expect(redact(odd).text).toContain(token.slice(10));
  });

  it("a line that merely ends where a wrap would is not joined to the next one", () => {
    // Three 42-character lines, each ending in a whole token: the next line's first word stays.
    const lines = ["a", "b", "c"].map((k) => `${k} ghp_${"Qw3rTy7uI9oP".repeat(3)}`);
    const out = redact(lines.join("\n")).text.split("\n");
    expect(out.map((l) => l.slice(0, 2))).toEqual(["a ", "b ", "c "]);
  });
});

describe("properties: escapes", () => {
  const kinds = tokens(11);
  const fillers = fc.constantFrom("", "INFO ", "x=1&", '{"a":', "url=https://h/p?", "  ");

  it("a planted secret after any escape is redacted, whatever is around it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: kinds.length - 1 }),
        fc.integer({ min: 0, max: ESCAPES.length - 1 }),
        fillers,
        fillers,
        (k, e, before, after) => {
          const secret = (kinds[k] as { secret: string }).secret;
          const carrier = (ESCAPES[e] as readonly [string, (s: string) => string])[1];
          const text = `${before}${carrier(secret)}${after}`;
          return !leaks(redact(text).text, secret);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it("negative control: a rule with a plain word boundary misses tokens after escapes", () => {
    // The same GitHub format as a user rule, bounded the way every rule was before issue 14.
    const naive: SecretRule = {
      id: "naive_github",
      keywords: ["ghp_"],
      pattern: "(?<![A-Za-z0-9_])ghp_[A-Za-z0-9]{36}(?![A-Za-z0-9_])",
    };
    const only = createRedactor({
      rules: [naive],
      disable: ["github_token", "secret_assignment", "url_query_secret", "encoded_token"],
    });
    const secret = (kinds[0] as { secret: string }).secret;
    const result = fc.check(
      fc.property(fc.integer({ min: 0, max: ESCAPES.length - 1 }), (e) => {
        const carrier = (ESCAPES[e] as readonly [string, (s: string) => string])[1];
        return !only(carrier(secret)).text.includes(secret);
      }),
      { numRuns: 50, seed: 7 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("redaction stays linear on escape-heavy text", () => {
  const MB = 1 << 20;
  const inputs: Array<[string, string]> = [
    ["URL escapes", "%3D%22%20".repeat(MB / 9)],
    ["JSON escapes", String.raw`\n\t\u0022\"`.repeat(MB / 12)],
    ["quoted-printable", "=3D=20=\n".repeat(MB / 8)],
    ["escapes before prefixes", "%3Dghp_%20sk-%22eyJ=3DAKIA".repeat(MB / 26)],
    ["escaped keys", String.raw`\"password\": \"`.repeat(MB / 16)],
    ["soft breaks", `${"A".repeat(75)}=\n`.repeat(MB / 77)],
    ["wrapped lines", `${"ghp_".repeat(19)}\n`.repeat(MB / 77)],
    ["redraws", "token=abc\rdef".repeat(MB / 13)],
    ["look-alike keys", "pаssword=".repeat(MB / 9)],
    // The detectors added with them, on the shapes that would make a careless pattern quadratic.
    ["prompt lines that print nothing", `$ cat ${"a".repeat(600)}\n`.repeat(MB / 607)],
    [
      "prompt lines naming a secret",
      `$ cat secret ${"a-".repeat(300)}\n${"Ab1".repeat(20)}\n`.repeat(MB / 680),
    ],
    ["spaces before PASS", `USER a\n${" ".repeat(4000)}PASS b\n`.repeat(MB / 4014)],
    ["pgpass-like runs", `.pgpass\n${"a".repeat(MB)}`],
    ["block scalars", `key: |\n${`  ${"A1b".repeat(26)}\n`.repeat(64)}`.repeat(MB / 5200)],
    ["data blocks", `data:\n${"  k: dmFsdWU=\n".repeat(64)}`.repeat(MB / 900)],
    ["encoded prefixes", "Z2hwX ".repeat(MB / 6)],
    ["header names", "x-a-key: x-b-token: ".repeat(MB / 20)],
    ["SMTP prompts", "334 UGFzc3dvcmQ6\n".repeat(MB / 17)],
  ];
  for (const [title, input] of inputs) {
    it(title, { timeout: 30_000 }, () => {
      const started = performance.now();
      const { text } = redact(input);
      expect(text.length).toBeGreaterThan(0);
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  }
});

describe("streaming: bytes in every chunking", () => {
  it("a token after an escape, split at every byte", async () => {
    const secret = (tokens(5)[0] as { secret: string }).secret;
    const bytes = bytesOf(`a\nGET /x?t%3D${secret}&y=1\nb\n`);
    for (const size of [1, 3, 7, 64]) {
      const { stream } = chunkedStream(split(bytes, size));
      const shaped = await shape(stream, { untrusted: false });
      expect(leaks(shaped.text, secret), `chunks of ${size}`).toBe(false);
    }
  });
});
