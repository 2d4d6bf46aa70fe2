/**
 * A property over mixed hostile inputs (issue 14): random HTML, JSON, NDJSON and text carrying a
 * planted secret behind escapes, in random chunkings and input kinds. Whatever comes in, the
 * result is a `Shaped` (never a throw), within budget, and neither its text nor its `meta` holds
 * the secret. The negative control (redaction off) must find a leak.
 */
import { type Shaped, shape } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A GitHub token drawn from a seed (format-valid, never a real one). Drawn through a PRNG rather
 * than character by character, so shrinking cannot turn it into a placeholder (`ghp_AAAA…`),
 * which is rightly left alone.
 */
const token = fc.integer({ min: 1, max: 2 ** 31 - 1 }).map((seed) => {
  let state = seed;
  let out = "ghp_";
  for (let i = 0; i < 36; i++) {
    state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x6d2b79f5) >>> 0;
    out += ALNUM[state % ALNUM.length];
  }
  return out;
});

/** How the secret sits in the text: plain, or right after an escape's letters. */
const escapes = ["", "token=", "%3D", "%20", "%22", "\\n", "\\t", "\\u0022", "=3D", '"', "Bearer "];

const filler = fc.array(
  fc.constantFrom(
    "INFO request served",
    "ERROR upstream timed out",
    "<div>",
    "</p>",
    '{"a":',
    "]]]]",
    "\u202E",
    "\u200B",
    "\x1b[31m",
    "a\u0301\u0316",
    "&amp;",
    "<!--",
    "\\",
  ),
  { maxLength: 40 },
);

interface Case {
  readonly kind: "text" | "html" | "json" | "ndjson" | "value";
  readonly secret: string;
  readonly input: unknown;
  readonly chunk: number;
  readonly as: "string" | "bytes" | "stream" | "blob";
}

const cases = fc
  .record({
    kind: fc.constantFrom("text", "html", "json", "ndjson", "value" as const),
    secret: token,
    escape: fc.constantFrom(...escapes),
    before: filler,
    after: filler,
    chunk: fc.integer({ min: 1, max: 97 }),
    as: fc.constantFrom("string", "bytes", "stream", "blob" as const),
  })
  .map((c): Case => {
    const noise = (words: readonly string[]) => words.join(" ");
    const carried = `${c.escape}${c.secret}`;
    const text = `${noise(c.before)} ${carried} ${noise(c.after)}`;
    let input: unknown;
    switch (c.kind) {
      case "text":
        input = text;
        break;
      case "html":
        input = `<!doctype html><html><head><title>${carried}</title></head><body><p>${noise(c.before)}</p><p title="${carried}">${text}</p></body></html>`;
        break;
      case "json":
        input = JSON.stringify({ items: [{ msg: noise(c.before) }, { msg: text, note: carried }] });
        break;
      case "ndjson":
        input = [JSON.stringify({ msg: noise(c.before) }), JSON.stringify({ msg: text })].join(
          "\n",
        );
        break;
      case "value":
        input = { events: [{ msg: text }, { detail: { token: c.secret } }] };
        break;
    }
    return { kind: c.kind, secret: c.secret, input, chunk: c.chunk, as: c.as };
  });

function source(c: Case): unknown {
  if (typeof c.input !== "string") return c.input;
  const bytes = new TextEncoder().encode(c.input);
  if (c.as === "bytes") return bytes;
  if (c.as === "blob") return new Blob([bytes]);
  if (c.as === "string") return c.input;
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else {
        controller.enqueue(bytes.slice(at, at + c.chunk));
        at += c.chunk;
      }
    },
  });
}

const budgets = fc.integer({ min: 128, max: 1500 });

async function leaks(c: Case, maxTokens: number, redact: boolean): Promise<string | undefined> {
  let shaped: Shaped;
  try {
    shaped = await shape(source(c) as never, {
      maxTokens,
      tool: "fetch",
      ...(c.kind === "html" ? { contentType: "text/html" } : {}),
      ...(redact ? {} : { redact: false }),
    });
  } catch (error) {
    return `threw ${String(error)}`;
  }
  if (!["ok", "partial", "empty", "error"].includes(shaped.status)) return "bad status";
  if ((shaped.meta.tokens ?? Number.POSITIVE_INFINITY) > maxTokens)
    return `over budget: ${shaped.meta.tokens} > ${maxTokens}`;
  if (shaped.text.includes(c.secret)) return "secret in text";
  if (JSON.stringify(shaped.meta).includes(c.secret)) return "secret in meta";
  return undefined;
}

describe("hostile property: mixed hostile inputs", () => {
  it("always a Shaped, within budget, no planted secret in text or meta", async () => {
    await fc.assert(
      fc.asyncProperty(cases, budgets, async (c, maxTokens) => {
        const problem = await leaks(c, maxTokens, true);
        expect(
          problem,
          JSON.stringify({ ...c, input: String(c.input).slice(0, 300) }),
        ).toBeUndefined();
      }),
      { numRuns: 120 },
    );
  });

  it("negative control: with redaction off, the property finds the leak", async () => {
    const result = await fc.check(
      fc.asyncProperty(cases, budgets, async (c, maxTokens) => {
        return (await leaks(c, maxTokens, false)) === undefined;
      }),
      { numRuns: 120 },
    );
    expect(result.failed).toBe(true);
  });
});
