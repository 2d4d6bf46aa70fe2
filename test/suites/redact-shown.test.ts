/**
 * Redaction of what is shown (issue 20): without a store, text passes the rules only where it can
 * be shown, and cheap state keeps the guarantees for what is skipped. Each property here has a
 * negative control: a wrong variant (no redaction, or each shown line redacted alone, without the
 * lines around it or the private-key state) that the same property catches.
 */
import { createMemoryStore, redact, shape } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { secretCases } from "../fixtures/secrets.js";
import { bytesOf, chunkedStream, serviceLog, split, streamCutAt } from "../helpers/sources.js";

/** No 12-character fragment of `secret` is in `text`. */
function leaks(text: string, secret: string): boolean {
  if (text.includes(secret)) return true;
  for (let i = 0; i + 12 <= secret.length; i += 4) {
    if (text.includes(secret.slice(i, i + 12))) return true;
  }
  return false;
}

/** The text as a stream: one byte a chunk, or cut at the given offsets. */
function streamOf(text: string, cuts: readonly number[] | "bytes"): ReadableStream<Uint8Array> {
  if (cuts === "bytes") return chunkedStream(split(bytesOf(text), 1)).stream;
  return streamCutAt(text, cuts);
}

const chunking = fc.oneof(
  fc.constant("bytes" as const),
  fc.array(fc.integer({ min: 1, max: 60_000 }), { maxLength: 12 }),
);

/** The wrong variant: the shown lines, unredacted, then each redacted alone. */
async function eachLineAlone(text: string, maxTokens: number): Promise<string> {
  const raw = await shape(text, { maxTokens, untrusted: false, redact: false });
  return raw.text
    .split("\n")
    .map((l) => redact(l).text)
    .join("\n");
}

const LINES = 600;
const TAG = "planted-q7x";

describe("redaction of what is shown: a planted secret", () => {
  const cases = secretCases(20).filter((c) => !c.text.includes("PRIVATE KEY"));
  /**
   * Where the planted secret lands: its line number, and the lines that put it there (the carrier
   * is kept whole, as some only hold a secret at the start of a line).
   */
  const places = {
    head: (text: string) => [2, `${TAG} next`, text] as const,
    tail: (text: string) => [LINES - 2, `${TAG} next`, text] as const,
    evidence: (text: string) => [LINES / 2, `ERROR ${TAG} request failed:`, text] as const,
    rare: (text: string) => [LINES / 3, `${TAG} config reloaded`, text] as const,
    skipped: (text: string) => [LINES / 4, "INFO next", text] as const,
  };
  const planted = fc.record({
    k: fc.integer({ min: 0, max: cases.length - 1 }),
    place: fc.constantFrom(...(Object.keys(places) as Array<keyof typeof places>)),
    cuts: chunking,
  });
  const logOf = (k: number, place: keyof typeof places) => {
    const c = cases[k] as (typeof cases)[number];
    const [at, ...planted] = places[place](c.text);
    const lines = serviceLog(LINES).split("\n");
    lines.splice(at, 0, ...planted);
    return { c, text: lines.join("\n") };
  };

  it("never survives on a shown line, whatever the chunking and wherever the line lands", async () => {
    let shown = 0;
    await fc.assert(
      fc.asyncProperty(planted, async ({ k, place, cuts }) => {
        const { c, text } = logOf(k, place);
        const shaped = await shape(streamOf(text, cuts), { maxTokens: 300, untrusted: false });
        if (shaped.text.includes(TAG)) shown++;
        return !leaks(shaped.text, c.secret) && !leaks(JSON.stringify(shaped.meta), c.secret);
      }),
      { numRuns: 60, seed: 20 },
    );
    // Not vacuous: most planted lines were shown.
    expect(shown).toBeGreaterThan(30);
  });

  it("is counted when it is shown (scope shown)", async () => {
    for (let k = 0; k < 12; k++) {
      const { c, text } = logOf(k, "evidence");
      const shaped = await shape(text, { maxTokens: 300, untrusted: false });
      expect(shaped.text, c.title).toContain(TAG);
      expect(shaped.meta.redactions?.scope).toBe("shown");
      expect(shaped.meta.redactions?.rules[c.rule], c.title).toBeGreaterThanOrEqual(1);
    }
  });

  it("negative control: with redaction off the same property fails", async () => {
    const result = await fc.check(
      fc.asyncProperty(planted, async ({ k, place, cuts }) => {
        const { c, text } = logOf(k, place);
        const shaped = await shape(streamOf(text, cuts), {
          maxTokens: 300,
          untrusted: false,
          redact: false,
        });
        return !leaks(shaped.text, c.secret);
      }),
      { numRuns: 30, seed: 20 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("redaction of what is shown: a private key whose BEGIN line was skipped", () => {
  // Body lines as a PEM body has them: 64 base64 characters, from a seed.
  const bodyLine = (seed: number, i: number) => {
    let s = (seed * 7919 + i * 104729 + 1) >>> 0;
    let out = "";
    const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (let n = 0; n < 64; n++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      out += b64[(s >>> 8) % 64];
    }
    return out;
  };
  const key = fc.record({
    seed: fc.integer({ min: 1, max: 1 << 20 }),
    length: fc.integer({ min: 40, max: 160 }),
    // Lines of log after the END line (none: the input ends inside the key, END included or not).
    after: fc.integer({ min: 0, max: 12 }),
    end: fc.boolean(),
    cuts: chunking,
  });
  const inputOf = (k: { seed: number; length: number; after: number; end: boolean }) => {
    const body = Array.from({ length: k.length }, (_, i) => bodyLine(k.seed, i));
    const lines = serviceLog(400).split("\n");
    lines.push("-----BEGIN RSA PRIVATE KEY-----", ...body);
    if (k.end || k.after > 0) lines.push("-----END RSA PRIVATE KEY-----");
    lines.push(
      ...serviceLog(k.after)
        .split("\n")
        .filter((l) => l !== ""),
    );
    return { body, text: lines.join("\n") };
  };

  it("never leaks a body line, whatever the chunking", async () => {
    let beginHidden = 0;
    await fc.assert(
      fc.asyncProperty(key, async (k) => {
        const { body, text } = inputOf(k);
        const shaped = await shape(streamOf(text, k.cuts), { maxTokens: 300, untrusted: false });
        if (!shaped.text.includes("-----BEGIN")) beginHidden++;
        return body.every((b) => !shaped.text.includes(b.slice(8, 40)));
      }),
      { numRuns: 40, seed: 21 },
    );
    // Not vacuous: the BEGIN line was left out of most results.
    expect(beginHidden).toBeGreaterThan(20);
  });

  it("negative control: each shown line redacted alone leaks body lines", async () => {
    const result = await fc.check(
      fc.asyncProperty(key, async (k) => {
        const { body, text } = inputOf(k);
        const shown = await eachLineAlone(text, 300);
        return body.every((b) => !shown.includes(b.slice(8, 40)));
      }),
      { numRuns: 20, seed: 21 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("redaction of what is shown: what must stay", () => {
  const cursor = `"next_page_token": "eyJwYWdlIjogNH0="`;
  const page = fc.record({
    at: fc.integer({ min: 1, max: LINES }),
    cuts: chunking,
    store: fc.boolean(),
  });

  it("a pagination token survives, with a store or without, whatever the chunking", async () => {
    let seen = 0;
    await fc.assert(
      fc.asyncProperty(page, async ({ at, cuts, store }) => {
        const text = serviceLog(LINES, new Map([[at, `INFO page ${cursor}`]]));
        const shaped = await shape(streamOf(text, cuts), {
          maxTokens: 300,
          untrusted: false,
          ...(store ? { store: createMemoryStore() } : {}),
        });
        if (!shaped.text.includes("next_page_token")) return true;
        seen++;
        return shaped.text.includes(cursor);
      }),
      { numRuns: 40, seed: 22 },
    );
    expect(seen).toBeGreaterThan(5);
  });

  it("negative control: a known secret format under the same key does not survive", async () => {
    const aws = secretCases(22).find((c) => c.rule === "aws_access_key_id");
    if (aws === undefined) throw new Error("no AWS case");
    const result = await fc.check(
      fc.asyncProperty(page, async ({ cuts }) => {
        const line = `INFO page "next_page_token": "${aws.secret}"`;
        const text = serviceLog(LINES, new Map([[2, line]]));
        const shaped = await shape(streamOf(text, cuts), { maxTokens: 300, untrusted: false });
        return shaped.text.includes(aws.secret);
      }),
      { numRuns: 10, seed: 22 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("redaction of what is shown: secrets the decoder or the cap cut", () => {
  const GHP = `ghp_${"aB3cD4eF5gH6".repeat(3)}`;
  const cut = fc.record({
    // Where the byte cap falls inside the token, and where the line cap splits a long line.
    into: fc.integer({ min: 12, max: GHP.length - 1 }),
    offset: fc.integer({ min: 0, max: 40_000 }),
    cuts: fc.array(fc.integer({ min: 1, max: 60_000 }), { maxLength: 8 }),
  });

  it("a secret cut at the byte cap is still replaced", async () => {
    await fc.assert(
      fc.asyncProperty(cut, async ({ into, cuts }) => {
        const text = `${serviceLog(300)}\nINFO auth token ${GHP} accepted`;
        const maxBytes = text.indexOf(GHP) + into;
        const shaped = await shape(streamOf(text, cuts), {
          maxTokens: 300,
          maxBytes,
          untrusted: false,
        });
        return !leaks(shaped.text, GHP.slice(0, into));
      }),
      { numRuns: 30, seed: 23 },
    );
  });

  it("a secret where the line cap cuts an over-long line is still replaced", async () => {
    await fc.assert(
      fc.asyncProperty(cut, async ({ offset, cuts }) => {
        const line = `${"x ".repeat(offset >> 1)}token ${GHP} ${"y ".repeat(20_000)}`;
        const text = `${serviceLog(50)}\n${line}\n${serviceLog(50)}`;
        const shaped = await shape(streamOf(text, cuts), { maxTokens: 300, untrusted: false });
        return !leaks(shaped.text, GHP);
      }),
      { numRuns: 30, seed: 24 },
    );
  });

  it("negative control: with redaction off a cut prefix is shown", async () => {
    const result = await fc.check(
      fc.asyncProperty(cut, async ({ into }) => {
        const text = `${serviceLog(300)}\nINFO auth token ${GHP} accepted`;
        const shaped = await shape(text, {
          maxTokens: 300,
          maxBytes: text.indexOf(GHP) + into,
          untrusted: false,
          redact: false,
        });
        return !leaks(shaped.text, GHP.slice(0, into));
      }),
      { numRuns: 10, seed: 23 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("redaction of what is shown: secrets over two lines", () => {
  const GHP = `ghp_${"aB3cD4eF5gH6".repeat(3)}`;
  const PASSWORD = "hunter2correcthorse";
  /** Pairs whose halves the rules judge together, on two consecutive lines. */
  const pairs = [
    { secret: GHP, lines: [`${"a".repeat(52)} ${GHP.slice(0, 23)}`, GHP.slice(23)] },
    { secret: GHP, lines: [`Authorization: Bearer ${GHP.slice(0, 18)}\\`, GHP.slice(18)] },
    { secret: PASSWORD, lines: ["- name: DB_PASSWORD", `  value: ${PASSWORD}`] },
  ];
  const split2 = fc.record({
    p: fc.integer({ min: 0, max: pairs.length - 1 }),
    // Lines from the end where the pair's second line lands: around the tail's first line.
    fromEnd: fc.integer({ min: 0, max: 60 }),
    place: fc.constantFrom("head", "tail"),
    cuts: chunking,
  });
  const inputOf = (p: number, fromEnd: number, place: string) => {
    const pair = pairs[p] as (typeof pairs)[number];
    const lines = serviceLog(LINES).split("\n");
    const at = place === "head" ? 3 : LINES - 1 - fromEnd;
    lines.splice(at, 0, ...pair.lines);
    return { pair, text: lines.join("\n") };
  };

  it("a hard-wrapped token or a name and its value on two lines are caught when shown", async () => {
    await fc.assert(
      fc.asyncProperty(split2, async ({ p, fromEnd, place, cuts }) => {
        const { pair, text } = inputOf(p, fromEnd, place);
        const shaped = await shape(streamOf(text, cuts), { maxTokens: 300, untrusted: false });
        return !leaks(shaped.text, pair.secret);
      }),
      { numRuns: 60, seed: 25 },
    );
  });

  it("negative control: each shown line redacted alone leaks a half", async () => {
    const result = await fc.check(
      fc.asyncProperty(split2, async ({ p, fromEnd, place }) => {
        const { pair, text } = inputOf(p, fromEnd, place);
        return !leaks(await eachLineAlone(text, 300), pair.secret);
      }),
      { numRuns: 20, seed: 25 },
    );
    expect(result.failed).toBe(true);
  });

  /** A manifest of many env blocks: its name lines are common, so most are skipped unseen. */
  const manifest = fc.record({
    blocks: fc.integer({ min: 150, max: 260 }),
    // One block whose value line is of a shape of its own: held as rare, its name line skipped.
    odd: fc.integer({ min: 20, max: 140 }),
    seed: fc.integer({ min: 1, max: 1 << 20 }),
    cuts: chunking,
  });
  const manifestOf = (blocks: number, seed: number, odd: number) => {
    const values: string[] = [];
    const lines: string[] = [];
    for (let b = 0; b < blocks; b++) {
      const value = `pw${((seed + b) * 2654435761) >>> 0}x${(b * 40503) % 9973}zq`;
      values.push(value);
      const shown = b === odd ? `  value: ${value} # rotated by ops` : `  value: ${value}`;
      lines.push("- name: DB_PASSWORD", shown, "- name: LOG_LEVEL", "  value: info");
    }
    return { values, text: lines.join("\n") };
  };

  it("a value shown without its name line is still judged with it", async () => {
    let shownValues = 0;
    await fc.assert(
      fc.asyncProperty(manifest, async ({ blocks, seed, odd, cuts }) => {
        const { values, text } = manifestOf(blocks, seed, odd);
        const shaped = await shape(streamOf(text, cuts), { maxTokens: 300, untrusted: false });
        shownValues += shaped.text.split("value: [REDACTED").length - 1;
        return values.every((v) => !shaped.text.includes(v));
      }),
      { numRuns: 40, seed: 26 },
    );
    expect(shownValues).toBeGreaterThan(40);
  });

  it("negative control: each shown line redacted alone leaks the values", async () => {
    const result = await fc.check(
      fc.asyncProperty(manifest, async ({ blocks, seed, odd }) => {
        const { values, text } = manifestOf(blocks, seed, odd);
        const shown = await eachLineAlone(text, 300);
        return values.every((v) => !shown.includes(v));
      }),
      { numRuns: 10, seed: 26 },
    );
    expect(result.failed).toBe(true);
  });
});

describe("redaction of what is shown: a secret echoed on another shown line", () => {
  // A value found once (after its key) is redacted where a tool repeats it, as a whole text's
  // redaction does, with a store or without.
  const echoed = fc.record({
    gap: fc.integer({ min: 1, max: 40 }),
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    filler: fc.integer({ min: 0, max: 3_000 }),
  });
  const textOf = ({ gap, seed, filler }: { gap: number; seed: number; filler: number }) => {
    const pw = `Hunter${(seed * 2654435761).toString(36).slice(0, 8)}X!x`;
    const lines = [
      `api_key=${pw}`,
      ...Array.from({ length: gap }, (_, i) => `step ${i} ok`),
      `login failed for password ${pw}`,
      ...serviceLog(filler).split("\n"),
    ];
    return { pw, text: `${lines.join("\n")}\n` };
  };

  it("never survives, with a store or without", async () => {
    await fc.assert(
      fc.asyncProperty(echoed, async (c) => {
        const { pw, text } = textOf(c);
        const bare = await shape(text, { maxTokens: 800, untrusted: false });
        const stored = await shape(text, {
          maxTokens: 800,
          untrusted: false,
          store: createMemoryStore(),
        });
        return !bare.text.includes(pw) && !stored.text.includes(pw);
      }),
      { numRuns: 12, seed: 41 },
    );
  });

  it("negative control: each shown line redacted alone leaks the echo", async () => {
    const result = await fc.check(
      fc.asyncProperty(echoed, async (c) => {
        const { pw, text } = textOf(c);
        return !(await eachLineAlone(text, 800)).includes(pw);
      }),
      { numRuns: 12, seed: 41 },
    );
    expect(result.failed).toBe(true);
  });
});
