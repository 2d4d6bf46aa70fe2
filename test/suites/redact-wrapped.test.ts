/**
 * Hard-wrapped secrets through both redaction paths (issue 27, the hostile review of 2026-12-02,
 * sections 2 to 4): what `redact()` replaces in a text is not shown by `shape()`, with a store or
 * without, nor kept by the store, and `meta.redactions` counts it. Each case here failed before
 * the fix: with a store only a wrapped key's first line was redacted (the rest was shown and
 * stored); without one a wrapped JWT's first lines were shown with a count of 0, a token
 * wrapped at a kept/skipped boundary showed its first line, and a YAML block's lines more than
 * three lines below its name were shown raw.
 */
import {
  createMemoryStore,
  createResultReader,
  type ResultStore,
  redact,
  type StoredText,
  shape,
} from "agent-airlock";
import { describe, expect, it } from "vitest";
import { createPresenter } from "../../src/fence/present.js";
import { chunkedStream } from "../helpers/sources.js";
import {
  base64Lines,
  logLines,
  PROVIDERS,
  type Provider,
  replacedPieces,
  shownOf,
  storedOf,
  wrap,
} from "../helpers/wrapped.js";

/** The stored text of a result, every part in order. */
async function storedText(store: ResultStore, handle: string): Promise<string> {
  const stored = (await store.get(handle)) as StoredText;
  let out = "";
  for (const part of stored.parts) out += (await store.getPart?.(part.key)) ?? "";
  return out;
}

/** The input as a stream of one chunk a line: every line reaches the filter on its own. */
function byLine(text: string): ReadableStream<Uint8Array> {
  const lines = text.split("\n");
  return chunkedStream(lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l))).stream;
}

/** What redact() replaces in `text`, and the checks against it. */
function reference(text: string) {
  const r = redact(text);
  const pieces = replacedPieces(text, r.findings);
  return {
    pieces,
    shown: (out: string) => shownOf(text, r.text, pieces, out),
    stored: (out: string) => storedOf(text, pieces, out),
  };
}

describe("a hard-wrapped key under a `$ cat` line, with a store (review section 2)", () => {
  const cases: Array<[Provider, number]> = [
    ["openai", 40],
    ["openai", 48],
    ["anthropic", 40],
    ["anthropic", 48],
    ["stripe", 40],
    ["stripe", 48],
    ["github_pat", 40],
    ["jwt", 40],
  ];
  for (const [provider, width] of cases) {
    for (const feed of ["string", "a chunk a line"] as const) {
      it(`${provider} at ${width} columns, fed as ${feed}: not shown, not stored`, async () => {
        const key = PROVIDERS[provider](2700 + width);
        const text = [`$ cat ~/.config/${provider}/key`, ...wrap(key, width)].join("\n");
        const ref = reference(text);
        // redact() replaces every line of the key: the reference the stream must match.
        expect(ref.pieces.map((p) => p.line)).toEqual(wrap(key, width).map((_, i) => i + 1));
        const store = createMemoryStore();
        const shaped = await shape(feed === "string" ? text : byLine(text), {
          store,
          untrusted: false,
        });
        expect(ref.shown(shaped.text)).toEqual([]);
        expect(shaped.meta.redactions?.scope).toBe("read");
        expect(shaped.meta.redactions?.count).toBeGreaterThan(0);
        const handle = shaped.meta.handle as string;
        expect(ref.stored(await storedText(store, handle))).toEqual([]);
        // read_result serves the stored text: a grep for a piece of the key's second line finds
        // no line.
        const second = wrap(key, width)[1] as string;
        const page = await createResultReader({ store })({ handle, grep: second.slice(4, 16) });
        expect(page.text).toContain("no line matches");
        expect(page.text).not.toContain(second.slice(16));
      });
    }
  }
});

describe("a wrapped JWT without a store (review section 3)", () => {
  for (const width of [64, 60, 72, 76, 40]) {
    it(`at ${width} columns: no line shown, and counted`, async () => {
      const jwt = PROVIDERS.jwt(3100 + width);
      expect(jwt.length).toBe(216);
      const text = wrap(jwt, width).join("\n");
      const ref = reference(text);
      expect(ref.pieces.length).toBe(wrap(jwt, width).length);
      const shaped = await shape(text, { untrusted: false });
      expect(ref.shown(shaped.text)).toEqual([]);
      expect(shaped.meta.redactions?.count).toBeGreaterThan(0);
      expect(shaped.meta.redactions?.rules.jwt).toBeGreaterThan(0);
    });
  }

  it("inside a log, where the keeper holds only some of its lines", async () => {
    for (const width of [40, 60, 64]) {
      const jwt = PROVIDERS.jwt(3200 + width);
      const lines = [...logLines(40), ...wrap(jwt, width), ...logLines(3, 41)];
      const text = lines.join("\n");
      const ref = reference(text);
      for (const maxTokens of [150, 200, 300]) {
        const shaped = await shape(text, { maxTokens, untrusted: false });
        expect(ref.shown(shaped.text), `${width} columns, ${maxTokens} tokens`).toEqual([]);
        if (shaped.text.includes("[REDACTED:")) {
          expect(shaped.meta.redactions?.count).toBeGreaterThan(0);
        }
      }
    }
  });
});

describe("a token wrapped at a kept/skipped boundary (review section 3)", () => {
  const pat = PROVIDERS.github_pat(3300);
  const text = (() => {
    const lines = logLines(3000);
    lines.splice(1500, 0, ...wrap(pat, 60));
    return lines.join("\n");
  })();

  for (const maxTokens of [200, 300, 500, 1000]) {
    it(`a github_pat_ at 60 columns in a 3,000-line log, ${maxTokens} tokens`, async () => {
      const ref = reference(text);
      expect(ref.pieces.length).toBe(2);
      const shaped = await shape(text, { maxTokens, untrusted: false });
      expect(ref.shown(shaped.text)).toEqual([]);
      expect(shaped.text).not.toContain("github_pat_");
      // The line stands out, so it is shown: redacted, and counted.
      expect(shaped.text).toContain("[REDACTED:github_fine_grained_token]");
      expect(shaped.meta.redactions?.rules.github_fine_grained_token).toBe(1);
    });
  }

  it("a JWT at 40 columns whose first lines are skipped and last lines shown is counted", async () => {
    // The tail begins inside the token: the lines it began on are never shown.
    const jwt = PROVIDERS.jwt(3350);
    for (const after of [0, 3, 8, 16]) {
      const text = [...logLines(3000), ...wrap(jwt, 40), ...logLines(after, 3001)].join("\n");
      const ref = reference(text);
      const shaped = await shape(text, { maxTokens: 150, untrusted: false });
      expect(ref.shown(shaped.text), `${after} lines after`).toEqual([]);
      expect(shaped.text).toContain("[REDACTED:jwt]");
      expect(shaped.meta.redactions?.rules.jwt, `${after} lines after`).toBeGreaterThan(0);
    }
  });
});

describe("a YAML block scalar far below its name (review section 4)", () => {
  const block = (lines: number, seed: number) => {
    const body = base64Lines(lines, 60, seed);
    const text = [
      ...logLines(3000),
      "config:",
      "  private_key: |",
      ...body.map((b) => `    ${b}`),
    ].join("\n");
    return { body, text };
  };

  for (const lines of [7, 12, 40]) {
    it(`${lines} lines of 60 base64 characters: none shown without a store, none with one`, async () => {
      const { body, text } = block(lines, 3400 + lines);
      const ref = reference(text);
      // redact() takes every line of the block.
      expect(ref.pieces.length).toBe(lines);
      for (const maxTokens of [200, 300, 1000]) {
        const shaped = await shape(text, { maxTokens, untrusted: false });
        expect(ref.shown(shaped.text), `${maxTokens} tokens`).toEqual([]);
        const shownLines = body.filter((b) => shaped.text.includes(b.slice(0, 20)));
        expect(shownLines).toEqual([]);
        expect(shaped.meta.redactions?.rules.secret_block).toBeGreaterThan(0);
        const store = createMemoryStore();
        const stored = await shape(text, { maxTokens, untrusted: false, store });
        expect(ref.shown(stored.text)).toEqual([]);
        expect(ref.stored(await storedText(store, stored.meta.handle as string))).toEqual([]);
      }
    });
  }

  it("a block under a public name stays, when its name is in view", async () => {
    const body = base64Lines(5, 64, 3500);
    const text = [...logLines(3000), "tls:", "  ca.crt: |", ...body.map((b) => `    ${b}`)].join(
      "\n",
    );
    expect(redact(text).findings).toEqual([]);
    const shaped = await shape(text, { maxTokens: 1000, untrusted: false });
    for (const b of body) expect(shaped.text).toContain(b);
  });

  it("a block of another shape stays: lines of prose, short values, hex digests", async () => {
    const blocks = [
      ["  run: |", "    npm ci", "    npm run build --workspaces --if-present", "    npm test"],
      [
        "  checksums: |",
        ...base64Lines(12, 64, 3600).map(
          (l) => `    ${l.toLowerCase().replace(/[^0-9a-f]/g, "0")}`,
        ),
      ],
    ];
    for (const b of blocks) {
      const text = [...logLines(3000), "steps:", ...b].join("\n");
      const shaped = await shape(text, { maxTokens: 300, untrusted: false });
      const last = b[b.length - 1] as string;
      expect(shaped.text).toContain(last.trim());
    }
  });
});

describe("the last redaction pass over a numbered layout (marker grammar 3)", () => {
  // The presenter alone, as the fit calls it: its last pass is the net under every earlier one.
  const presenter = createPresenter({
    redact: (text) => redact(text).text,
    spotlight: "fence",
    datamark: "",
    untrusted: false,
    tool: undefined,
  });
  const numbered = (lines: readonly string[], from: number) =>
    lines.map((l, i) => `${from + i}\t${l}`).join("\n");

  for (const provider of ["openai", "jwt", "github_pat"] as const) {
    it(`a ${provider} wrapped over numbered lines is judged whole, the numbers kept`, async () => {
      const parts = wrap(PROVIDERS[provider](11), 40);
      const shown = (await presenter.present(numbered(parts, 998), true)).text.split("\n");
      expect(shown).toHaveLength(parts.length);
      for (const [i, line] of shown.entries()) {
        expect(line).toBe(`${998 + i}\t${line.split("\t")[1]}`);
        expect(line, line).toContain("[REDACTED:");
      }
    });

    it(`negative control: the same ${provider} read with its numbers, a piece survives`, async () => {
      const parts = wrap(PROVIDERS[provider](11), 40);
      const shown = (await presenter.present(numbered(parts, 998), false)).text;
      expect(parts.some((p) => shown.includes(p))).toBe(true);
    });
  }
});
