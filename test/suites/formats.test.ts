/**
 * One pipeline, every format: the same events as log text, NDJSON, a JSON array, a JSON envelope
 * object and an already-parsed value keep the same evidence and the tail, with the same status.
 * Then the inputs whose shape used to take a second path: a stream whose first line is JSON, a
 * document with a long data URI, a parsed envelope, and sniffed JSON that strict parsing refuses.
 */
import { shape } from "agent-airlock";
import { describe, expect, it } from "vitest";

interface Event {
  readonly level: "INFO" | "WARN" | "ERROR" | "FATAL";
  readonly msg: string;
}

/** A failure shape: events, and the messages that must be shown (the evidence and the end). */
interface FailureShape {
  readonly title: string;
  readonly events: readonly Event[];
  readonly evidence: readonly string[];
  /** Evidence records there are (warnings and errors, and what stands out); default: `evidence`'s length. */
  readonly evidenceCount?: number;
  /** The budget (default 1500). */
  readonly maxTokens?: number;
  /**
   * Formats whose text must show the last event (default: all). Records are shown in view order,
   * evidence first, so that cursors can page: with more evidence than fits, the tail of the
   * records is on a later page, not in the first.
   */
  readonly tailIn?: readonly string[];
}

/** Info events whose message holds an error word: a corrected fault, logged again and again. */
function corrected(n: number, from = 0): Event[] {
  return Array.from({ length: n }, (_, i) => ({
    level: "INFO" as const,
    msg: `ECC error corrected on DIMM ${(from + i) % 8} at 0x${((from + i) * 7919).toString(16)}`,
  }));
}

function filler(n: number, from = 0): Event[] {
  return Array.from({ length: n }, (_, i) => ({
    level: "INFO" as const,
    msg: `request ${from + i} served in ${(i * 7) % 90} ms`,
  }));
}

const SHAPES: readonly FailureShape[] = [
  {
    title: "a panic in the middle of a long run of info lines",
    events: [
      ...filler(700),
      { level: "FATAL", msg: "panic: runtime error: index out of range [3]" },
      ...filler(700, 700),
    ],
    evidence: ["panic: runtime error: index out of range [3]"],
  },
  {
    title: "a warning, then an error, far apart",
    events: [
      ...filler(300),
      { level: "WARN", msg: "disk usage at 91% on /var" },
      ...filler(900, 300),
      { level: "ERROR", msg: "write failed: no space left on device" },
      ...filler(300, 1200),
    ],
    evidence: ["disk usage at 91% on /var", "write failed: no space left on device"],
  },
  {
    title: "a warning and nothing else",
    events: [
      ...filler(600),
      { level: "WARN", msg: "certificate expires in 6 days" },
      ...filler(600, 600),
    ],
    evidence: ["certificate expires in 6 days"],
  },
  {
    title: "an error word in the message of an info-level event",
    events: [
      ...filler(500),
      { level: "INFO", msg: "ERROR Task timed out after 30000 ms" },
      ...filler(500, 500),
    ],
    evidence: ["ERROR Task timed out after 30000 ms"],
  },
  {
    title: "a rare line among repeats: an event seen once in a repetitive log",
    events: [...filler(700), { level: "INFO", msg: "cache warmed by admin" }, ...filler(700, 700)],
    evidence: ["cache warmed by admin"],
  },
  {
    title: "a severe template among thousands of error-word info lines",
    events: [
      ...corrected(1500),
      { level: "ERROR", msg: "disk /dev/sda failed: I/O error at sector 881731" },
      ...corrected(1500, 1500),
      ...filler(50),
    ],
    evidence: ["disk /dev/sda failed: I/O error at sector 881731"],
    evidenceCount: 3001,
    tailIn: ["text"],
  },
];

const ts = (i: number) =>
  `2026-11-30T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;

/** The same events in every format the pipeline reads. */
function formats(events: readonly Event[]): Array<[string, unknown]> {
  const records = events.map((e, i) => ({ ts: ts(i), level: e.level, msg: e.msg }));
  return [
    ["text", records.map((r) => `${r.ts} ${r.level} ${r.msg}`).join("\n")],
    ["ndjson", records.map((r) => JSON.stringify(r)).join("\n")],
    ["json array", JSON.stringify(records)],
    ["json envelope", JSON.stringify({ events: records, next_token: null })],
    ["parsed value", { events: records, next_token: null }],
  ];
}

describe("formats: one pipeline keeps the same evidence in every format", () => {
  for (const s of SHAPES) {
    it(s.title, async () => {
      const last = s.events[s.events.length - 1] as Event;
      const statuses = new Set<string>();
      const maxTokens = s.maxTokens ?? 1500;
      for (const [name, input] of formats(s.events)) {
        const shaped = await shape(input as never, { maxTokens, tool: "logs" });
        expect(shaped.meta.tokens, name).toBeLessThanOrEqual(maxTokens);
        for (const m of s.evidence) expect(shaped.text, `${name} keeps "${m}"`).toContain(m);
        if (s.tailIn === undefined || s.tailIn.includes(name))
          expect(shaped.text, `${name} keeps the tail`).toContain(last.msg);
        expect(shaped.meta.truncated, name).toBe(true);
        statuses.add(shaped.status);
        if (name !== "text") {
          expect(shaped.meta.kind, name).toBe("structured");
          expect(shaped.meta.records?.evidence, name).toBe(s.evidenceCount ?? s.evidence.length);
        }
      }
      expect([...statuses]).toEqual(["partial"]);
    });
  }

  it("negative control: a head-only cut of the same budget loses the evidence", async () => {
    for (const s of SHAPES) {
      const text = formats(s.events)[0]?.[1] as string;
      const head = text.slice(0, 1500 * 3);
      for (const m of s.evidence) expect(head, s.title).not.toContain(m);
    }
  });

  it("negative control: the first error lines of the same budget miss the severe template", () => {
    // The old rule: evidence was the first lines that matched an error word.
    const s = SHAPES.find((x) => x.title.startsWith("a severe template")) as FailureShape;
    const lines = String(formats(s.events)[0]?.[1]).split("\n");
    const firstErrors = lines.filter((l) => /\berror\b/i.test(l)).slice(0, 60);
    expect(firstErrors.join("\n")).not.toContain(s.evidence[0]);
  });
});

describe("formats: a rare card among 5,000 as a page and as text", () => {
  const card = (i: number) =>
    i === 2718 ? `Widget ${i}: Out of stock: SKU-88412` : `Widget ${i}: In stock`;
  const cards = Array.from({ length: 5000 }, (_, i) => card(i));

  it("as text, the one card out of stock is shown", async () => {
    const shaped = await shape(cards.join("\n"), { maxTokens: 800 });
    expect(shaped.text).toContain("Widget 2718: Out of stock: SKU-88412");
    expect(shaped.meta.tokens).toBeLessThanOrEqual(800);
  });

  it("as a page of cards, the one out of stock is shown", async () => {
    const html = `<!doctype html><html><head><title>Catalogue</title></head><body><main>${cards
      .map(
        (c) =>
          `<div class="card"><h3>${c.split(":")[0]}</h3><p>${c.slice(c.indexOf(":") + 2)}</p></div>`,
      )
      .join("")}</main></body></html>`;
    const shaped = await shape(new Response(html, { headers: { "content-type": "text/html" } }), {
      maxTokens: 800,
    });
    expect(shaped.meta.format).toBe("html");
    expect(shaped.text).toContain("Out of stock: SKU-88412");
    expect(shaped.meta.tokens).toBeLessThanOrEqual(800);
  });

  it("negative control: a head and tail of the same budget miss it", () => {
    const text = cards.join("\n");
    expect(text.slice(0, 1200) + text.slice(-1200)).not.toContain("Out of stock");
  });
});

describe("formats: inputs whose shape used to take a second path", () => {
  it("a stream whose first line is JSON, followed by log text, is shown as text", async () => {
    const lines = [
      '{"status":"starting","pid":4242}',
      ...filler(400).map((e, i) => `${ts(i)} INFO ${e.msg}`),
    ];
    lines.splice(200, 0, `${ts(200)} ERROR database connection refused`);
    const bytes = new TextEncoder().encode(lines.join("\n"));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 1000) c.enqueue(bytes.subarray(i, i + 1000));
        c.close();
      },
    });
    const shaped = await shape(stream, { maxTokens: 800 });
    expect(shaped.status).toBe("partial");
    expect(shaped.meta.kind).toBe("text");
    expect(shaped.text).toContain("ERROR database connection refused");
    expect(shaped.text).toContain('{"status":"starting","pid":4242}');
    expect(shaped.meta.degraded?.[0]?.code).toBe("json/syntax");
  });

  it("a JSON document with a 2 MB data URI keeps its title; the blob is a placeholder", async () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAA".padEnd(2 * 1024 * 1024, "A1b2C3d4");
    const doc = JSON.stringify({
      title: "Checkout page",
      screenshot: `data:image/png;base64,${png}`,
    });
    for (const input of [doc, JSON.parse(doc)]) {
      const shaped = await shape(input, { maxTokens: 1000 });
      expect(shaped.status).not.toBe("error");
      expect(shaped.text).toContain("Checkout page");
      expect(shaped.text).toContain('"blob":"data-uri"');
      expect(shaped.text).not.toContain(png.slice(0, 200));
      expect(shaped.meta.records?.blobs.count).toBe(1);
    }
  });

  it("a parsed object with an envelope array is records, as its JSON text is", async () => {
    const value = {
      events: Array.from({ length: 300 }, (_, i) => ({
        id: i,
        level: i === 150 ? "error" : "info",
      })),
      nextToken: "abc",
    };
    const parsed = await shape(value, { maxTokens: 600 });
    const text = await shape(JSON.stringify(value), { maxTokens: 600 });
    for (const s of [parsed, text]) {
      expect(s.meta.records?.shape).toBe("records");
      expect(s.meta.records?.envelope).toBe("events");
      expect(s.meta.records?.total).toBe(300);
      expect(s.text).toContain('{"id":150,"level":"error"}');
    }
    expect(parsed.text).toBe(text.text);
  });

  const refusals: ReadonlyArray<[string, string, string]> = [
    ["duplicate keys", '{"a": 1, "a": 2, "note": "ERROR one"}', "json/duplicate-key"],
    ["a number out of range", '{"n": 1e400, "note": "ERROR two"}', "json/number-out-of-range"],
    ["a lone surrogate", '{"s": "\\ud800", "note": "ERROR three"}', "json/lone-surrogate"],
    [
      "20,000 keys",
      `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(",")},"note":"ERROR four"}`,
      "json/too-many-keys",
    ],
  ];
  for (const [title, input, code] of refusals) {
    it(`sniffed JSON refused for ${title} is shown as text, the refusal declared`, async () => {
      for (const source of [input, new TextEncoder().encode(input), new Blob([input])]) {
        const shaped = await shape(source, { maxTokens: 2000 });
        expect(shaped.status).not.toBe("error");
        expect(shaped.meta.kind).toBe("text");
        expect(shaped.meta.degraded?.[0]?.code).toBe(code);
        expect(shaped.text).toMatch(/ERROR (one|two|three|four)/);
      }
      // Declared JSON keeps the strict refusal.
      const declared = await shape(input, { contentType: "application/json" });
      expect(declared.status).toBe("error");
      expect(declared.meta.error?.code).toBe(code);
    });
  }

  it("a panic line among sniffed NDJSON events is a string record of the worst severity", async () => {
    const lines = filler(600).map((e, i) =>
      JSON.stringify({ ts: ts(i), level: "info", msg: e.msg }),
    );
    lines.splice(300, 0, "panic: runtime error: invalid memory address or nil pointer dereference");
    const shaped = await shape(lines.join("\n"), { maxTokens: 600 });
    expect(shaped.meta.records?.format).toBe("ndjson");
    expect(shaped.meta.records?.evidence).toBe(1);
    expect(shaped.text).toContain("panic: runtime error: invalid memory address");
  });

  it("keyed fingerprints are listed for secrets in JSON as in text", async () => {
    const token = `ghp_${"Ab3dE5gH7jK9mN1pQ3sT5vX7zB9dF1hJ3lN5"}`;
    const key = "a fingerprint key of 32 bytes..";
    for (const input of [`token=${token}`, JSON.stringify([{ token }]), [{ token }]]) {
      const shaped = await shape(input as never, { redact: { fingerprintKey: key } });
      expect(shaped.text).not.toContain(token);
      expect(shaped.meta.redactions?.fingerprints?.length, JSON.stringify(input)).toBe(1);
      expect(JSON.stringify(shaped.meta)).not.toContain(token);
    }
  });
});

describe("formats: a string too long to hold streams into a placeholder", () => {
  const chunked = (text: string, size = 64 * 1024) => {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= bytes.length) c.close();
        else {
          c.enqueue(bytes.subarray(at, at + size));
          at += size;
        }
      },
    });
  };
  const hex = (buffer: ArrayBuffer) =>
    [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const pngBytes = (n: number) => {
    const bytes = new Uint8Array(n);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (let i = 8; i < n; i++) bytes[i] = (i * 131 + 7) & 0xff;
    return bytes;
  };
  const base64 = (bytes: Uint8Array) => {
    let binary = "";
    for (let i = 0; i < bytes.length; i += 8192)
      binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
    return btoa(binary);
  };

  it("a 20 MB data URI in a streamed document: the title stays, the blob is hashed", async () => {
    const bytes = pngBytes(15 * 1024 * 1024);
    const doc = JSON.stringify({
      title: "Checkout page",
      screenshot: `data:image/png;base64,${base64(bytes)}`,
    });
    expect(doc.length).toBeGreaterThan(20_000_000);
    const shaped = await shape(chunked(doc), {
      contentType: "application/json",
      maxBytes: 64 << 20,
    });
    expect(shaped.status).not.toBe("error");
    expect(shaped.text).toContain("Checkout page");
    const sha = hex(await crypto.subtle.digest("SHA-256", bytes));
    expect(shaped.text).toContain(
      `{"blob":"data-uri","mime":"image/png","bytes":${bytes.length},"sha256":"${sha}"}`,
    );
    expect(shaped.meta.records?.blobs).toEqual({ count: 1, bytes: bytes.length });
  });

  it("a 6 MB base64 string in a record, with escaped slashes: the record stays", async () => {
    const bytes = pngBytes(4_500_000);
    const b64 = base64(bytes).replace(/\//g, "\\/");
    const text = `[{"id":1,"img":"${b64}"},{"id":2,"img":null}]`;
    const shaped = await shape(chunked(text), {
      contentType: "application/json",
      maxBytes: 64 << 20,
    });
    expect(shaped.meta.records?.total).toBe(2);
    expect(shaped.meta.records?.refused).toEqual({});
    expect(shaped.text).toContain(`"blob":"base64","mime":"image/png","bytes":${bytes.length}`);
  });

  it("a 3 MB text string is its head and tail around a marker, the JSON still valid", async () => {
    const body = 'He said \\"stop\\".\\n'.repeat(200_000);
    const text = `{"id":7,"log":"${body}END"}`;
    const shaped = await shape(chunked(text), { contentType: "application/json", maxTokens: 3000 });
    const data = /\ndata: ([\s\S]*?)\n(?:next|<\/untrusted)/.exec(shaped.text)?.[1] ?? "";
    const value = JSON.parse(data) as { id: number; log: string };
    expect(value.id).toBe(7);
    expect(value.log).toMatch(/^He said "stop"\.\n/);
    expect(value.log).toMatch(/\[airlock: \d+ chars omitted from this value\]…[\s\S]*END$/);
    expect(shaped.meta.records?.shortened.strings).toBeGreaterThanOrEqual(1);
  });

  it("property: whatever the chunking and lengths, the JSON stays valid and short strings unchanged", async () => {
    const fc = (await import("fast-check")).default;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.boolean()), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 7, max: 500 }),
        async (strings, chunk) => {
          const values = strings.map(
            ([n, escapes], i) =>
              `${i}:${(escapes ? 'a\\"b\\\\c' : "abcd").repeat(Math.ceil(n / 4))}`,
          );
          const text = `{"items":[${values.map((v, i) => `{"n":${i},"s":"${v}"}`).join(",")}]}`;
          const shaped = await shape(chunked(text, chunk), {
            contentType: "application/json",
            maxTokens: 20_000,
            limits: { maxStringLength: 200 },
          });
          const data =
            /\ndata: ([\s\S]*?)\n(?:next|<\/untrusted|omitted)/.exec(shaped.text)?.[1] ?? "[]";
          const records = JSON.parse(data) as Array<{ n: number; s: string }>;
          expect(records).toHaveLength(values.length);
          for (const r of records) {
            const raw = values[r.n] as string;
            if (raw.length <= 200) expect(r.s).toBe(JSON.parse(`"${raw}"`));
            else expect(r.s).toContain("chars omitted from this value");
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
