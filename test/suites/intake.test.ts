import { shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { toolLines } from "../helpers/markers.js";
import { body, bytesOf, chunkedStream, split } from "../helpers/sources.js";

const plain = { untrusted: false } as const;

describe("intake: every input kind reads the same", () => {
  const text = "alpha\nbeta ünïcødé 😀\ngamma\n";
  const bytes = bytesOf(text);
  const kinds: Array<[string, () => unknown]> = [
    ["string", () => text],
    ["Uint8Array", () => bytes],
    ["ArrayBuffer", () => bytes.slice().buffer],
    ["Blob", () => new Blob([bytes])],
    ["ReadableStream (1-byte chunks)", () => chunkedStream(split(bytes, 1)).stream],
    [
      "Response",
      () => new Response(bytes, { headers: { "content-type": "text/plain; charset=utf-8" } }),
    ],
    [
      "command output with a stream",
      () => ({ stdout: chunkedStream(split(bytes, 3)).stream, exitCode: 0 }),
    ],
  ];
  for (const [name, make] of kinds) {
    it(name, async () => {
      const shaped = await shape(make() as never, plain);
      const lines = toolLines(shaped.text).filter((l) => !l.startsWith("[airlock:"));
      expect(lines).toEqual(["alpha", "beta ünïcødé 😀", "gamma"]);
      expect(shaped.status).toBe("ok");
      expect(shaped.meta.bytes).toBe(bytes.byteLength);
      expect(shaped.meta.truncated).toBe(false);
    });
  }

  it("an async iterable of chunks (a Node stream, a generator) is read, and stopped at the cap", async () => {
    let finished = false;
    async function* chunks() {
      try {
        for (let i = 0; i < 1000; i++) yield i % 2 ? `line ${i}\n` : bytesOf(`line ${i}\n`);
      } finally {
        finished = true;
      }
    }
    const all = await shape(chunks(), { ...plain, maxTokens: 100_000 });
    expect(all.meta.lines).toBe(1000);
    finished = false;
    const capped = await shape(chunks(), { ...plain, maxBytes: 100 });
    expect(capped.meta.sections[0]?.capped).toBe(true);
    // return() was called on the iterator: the generator ran its finally block.
    expect(finished).toBe(true);
  });

  it("maxBytes: Infinity means no cap", async () => {
    const shaped = await shape("x\n".repeat(10), { ...plain, maxBytes: Number.POSITIVE_INFINITY });
    expect(shaped.meta.sections[0]?.capped).toBe(false);
  });

  it("rejects an unsupported input with a stable code", async () => {
    await expect(shape((() => 1) as never)).rejects.toMatchObject({ code: "input/unsupported" });
    await expect(shape(Symbol("x") as never)).rejects.toMatchObject({ code: "input/unsupported" });
    await expect(shape(null as never)).rejects.toMatchObject({ code: "input/unsupported" });
  });

  it("reads an already-parsed value as structured data, not as an unsupported source", async () => {
    const number = await shape(42);
    expect(number.meta.kind).toBe("structured");
    expect(number.text).toContain("data: 42");
    const object = await shape({ nope: 1 });
    expect(object.meta.records?.shape).toBe("document");
    expect(object.text).toContain('data: {"nope":1}');
  });

  it("rejects a consumed Response or a locked stream with a stable code", async () => {
    const used = new Response("body");
    await used.text();
    await expect(shape(used)).rejects.toMatchObject({ code: "input/unsupported" });
    const stream = new Blob(["x"]).stream();
    stream.getReader();
    await expect(shape(stream)).rejects.toMatchObject({ code: "input/unsupported" });
  });

  it("rejects invalid options with a stable code", async () => {
    await expect(shape("x", { maxTokens: 0 })).rejects.toMatchObject({ code: "options/invalid" });
    await expect(shape("x", { maxTokens: 1.5 })).rejects.toMatchObject({ code: "options/invalid" });
    await expect(shape("x", { maxBytes: -1 })).rejects.toMatchObject({ code: "options/invalid" });
    await expect(shape("x", { tokenizer: "p50k" as never })).rejects.toMatchObject({
      code: "options/invalid",
    });
  });
});

describe("intake: the byte cap", () => {
  it("stops reading at maxBytes, cancels the source and says so", async () => {
    const chunks = Array.from({ length: 100 }, (_, i) => `line ${i} ${"x".repeat(90)}\n`);
    const source = chunkedStream(chunks);
    const shaped = await shape(source.stream, { ...plain, maxBytes: 1000 });
    expect(source.cancelled()).toBe(true);
    // At most one chunk past the cap is pulled (the stream's own read-ahead may queue one more).
    expect(source.pulled()).toBeLessThanOrEqual(13);
    expect(shaped.meta.bytes).toBe(1000);
    expect(shaped.meta.sections[0]?.capped).toBe(true);
    expect(shaped.text).toContain(
      "[airlock: read stopped at maxBytes (1000); the rest was not read]",
    );
    expect(shaped.meta.cuts).toContainEqual({
      kind: "bytes",
      section: "text",
      at: 1000,
      limit: 1000,
    });
    expect(shaped.status).toBe("partial");
    expect(shaped.meta.truncated).toBe(true);
  });

  it("an input of exactly maxBytes is not capped", async () => {
    const shaped = await shape(chunkedStream(["abcde", "fghij"]).stream, {
      ...plain,
      maxBytes: 10,
    });
    expect(shaped.meta.sections[0]?.capped).toBe(false);
    expect(shaped.text).toBe("abcdefghij");
  });

  it("the cap is shared by stdout and stderr", async () => {
    const shaped = await shape(
      { stdout: "o".repeat(600), stderr: "e".repeat(600), exitCode: 0 },
      { ...plain, maxBytes: 1000 },
    );
    expect(shaped.meta.bytes).toBe(1000);
  });
});

describe("intake: UTF-8", () => {
  it("never splits a code point across chunks", async () => {
    const text = "héllo wörld 😀 ∑ 中文 ".repeat(50);
    for (const size of [1, 2, 3, 5, 7]) {
      const shaped = await shape(chunkedStream(split(bytesOf(text), size)).stream, plain);
      expect(shaped.text).toBe(text);
      expect(shaped.meta.sections[0]?.invalidUtf8).toBe(0);
    }
  });

  it("strips the BOM, including one split over two chunks", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const rest = bytesOf("hello");
    const shaped = await shape(
      chunkedStream([bom.subarray(0, 2), new Uint8Array([...bom.subarray(2), ...rest])]).stream,
      plain,
    );
    expect(shaped.text).toBe("hello");
  });

  it("drops U+FEFF inside the text (the tokenizer mis-encodes it)", async () => {
    const shaped = await shape("a\uFEFFb", plain);
    expect(shaped.text).toBe("ab");
  });

  it("collapses runs of invalid bytes to one U+FFFD and counts them", async () => {
    const head = bytesOf(`${"ok line\n".repeat(1000)}bad:`);
    const junk = new Uint8Array(300).fill(0xff);
    const tail = bytesOf(":end\n");
    const shaped = await shape(new Uint8Array([...head, ...junk, ...tail]), {
      ...plain,
      maxTokens: 100000,
    });
    expect(shaped.text).toContain("bad:\uFFFD:end");
    expect(shaped.text.match(/\uFFFD/g)?.length).toBe(1);
    expect(shaped.meta.sections[0]?.invalidUtf8).toBe(1);
  });

  it("decodes UTF-16 with a BOM, either byte order", async () => {
    const le = [0xff, 0xfe];
    const be = [0xfe, 0xff];
    for (const ch of "hi ü") {
      le.push(ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >> 8);
      be.push(ch.charCodeAt(0) >> 8, ch.charCodeAt(0) & 0xff);
    }
    expect((await shape(new Uint8Array(le), plain)).text).toBe("hi ü");
    expect((await shape(new Uint8Array(be), plain)).text).toBe("hi ü");
  });
});

describe("intake: binary is never decoded", () => {
  async function sha256(bytes: Uint8Array): Promise<string> {
    const d = new Uint8Array(
      await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
    );
    return [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
  }

  it("a PNG becomes a placeholder with mime, size and sha256", async () => {
    const png = new Uint8Array(5000);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (let i = 8; i < png.length; i++) png[i] = (i * 31) & 0xff;
    const shaped = await shape(png);
    const digest = await sha256(png);
    expect(body(shaped.text)).toEqual([
      `[airlock: binary content not shown: image/png, 5000 bytes, sha256 ${digest}]`,
    ]);
    expect(shaped.meta.kind).toBe("binary");
    expect(shaped.meta.sections[0]?.binary).toEqual({
      mime: "image/png",
      bytes: 5000,
      complete: true,
      sha256: digest,
    });
    expect(shaped.status).toBe("partial");
  });

  it("a Blob's size is known without reading it all", async () => {
    const head = new Uint8Array(1024);
    head.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const blob = new Blob([head, new Uint8Array(3 * 1024 * 1024)]);
    const shaped = await shape(blob, { ...plain, hashLimit: 4096 });
    expect(shaped.meta.sections[0]?.binary).toEqual({
      mime: "image/png",
      bytes: blob.size,
      complete: true,
    });
    expect(shaped.meta.bytes).toBeLessThan(blob.size);
  });

  it("NUL bytes mark text-looking bytes as binary", async () => {
    const shaped = await shape(bytesOf("hello\u0000world"), plain);
    expect(shaped.text).toMatch(
      /^\[airlock: binary content not shown: application\/octet-stream, 11 bytes, sha256 [0-9a-f]{64}\]$/,
    );
  });

  it("a declared binary type is trusted over text-looking bytes", async () => {
    const res = new Response("just text", {
      headers: { "content-type": "application/octet-stream" },
    });
    const shaped = await shape(res, plain);
    expect(shaped.text).toContain("binary content not shown: application/octet-stream, 9 bytes");
  });

  it("a large binary stream stops at hashLimit and reports a lower bound", async () => {
    const chunks = Array.from({ length: 40 }, () => new Uint8Array(1024).fill(0));
    const source = chunkedStream(chunks);
    const shaped = await shape(source.stream, { ...plain, hashLimit: 8 * 1024 });
    expect(source.cancelled()).toBe(true);
    expect(shaped.text).toMatch(/more than \d+ bytes\]$/);
    expect(shaped.meta.sections[0]?.binary?.sha256).toBeUndefined();
    expect(shaped.meta.sections[0]?.binary?.complete).toBe(false);
  });
});

describe("intake: failures are results, not throws", () => {
  it("a stream that errors midway yields status error and keeps what was read", async () => {
    let n = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n++ < 2) controller.enqueue(bytesOf(`part ${n}\n`));
        else controller.error(new Error("connection reset"));
      },
    });
    const shaped = await shape(stream, plain);
    expect(shaped.status).toBe("error");
    expect(shaped.meta.error?.code).toBe("intake/read-failed");
    expect(shaped.meta.error?.message).toContain("connection reset");
    expect(shaped.text).toContain("part 1");
  });

  it("an HTTP error response is an error with its status in the text", async () => {
    const shaped = await shape(
      new Response("no such page", { status: 404, statusText: "Not Found" }),
      plain,
    );
    expect(shaped.status).toBe("error");
    expect(shaped.meta.httpStatus).toBe(404);
    expect(toolLines(shaped.text)[0]).toBe("[airlock: HTTP 404 Not Found]");
    expect(shaped.text).toContain("no such page");
  });
});
