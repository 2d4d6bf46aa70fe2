import { describe, expect, inject, it } from "vitest";

/**
 * Guards the test infrastructure itself: each Vitest project must really run
 * in the runtime it claims (see `provide: { runtime }` in vitest.config.ts).
 */

type Runtime = "node" | "chromium" | "workerd";

function detectRuntime(): Runtime | "unknown" {
  const ua = typeof navigator === "undefined" ? undefined : navigator.userAgent;
  // workerd first: with nodejs_compat (forced by the pool) it also has `process`.
  if (ua === "Cloudflare-Workers") return "workerd";
  if (
    typeof window !== "undefined" &&
    typeof document !== "undefined" &&
    typeof ua === "string" &&
    /\b(?:Headless)?Chrome\//.test(ua)
  ) {
    return "chromium";
  }
  const proc = (
    globalThis as { process?: { versions?: { node?: string }; release?: { name?: string } } }
  ).process;
  if (typeof proc?.versions?.node === "string" && proc.release?.name === "node") return "node";
  return "unknown";
}

describe("runtime identity", () => {
  const expected = inject("runtime");

  it(`runs in the runtime the project claims (${expected})`, () => {
    const ua = typeof navigator === "undefined" ? "(no navigator)" : navigator.userAgent;
    console.info(`[runtime-identity] project=${expected} detected=${detectRuntime()} ua=${ua}`);
    expect(detectRuntime()).toBe(expected);
  });

  it("has WebCrypto SHA-256", async () => {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode("abc"));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
    expect(hex).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("decodes UTF-8 split across chunks with a streaming TextDecoder", () => {
    const bytes = new TextEncoder().encode("a€b"); // € is 3 bytes
    const decoder = new TextDecoder("utf-8", { fatal: false });
    const out =
      decoder.decode(bytes.subarray(0, 2), { stream: true }) +
      decoder.decode(bytes.subarray(2, 4), { stream: true }) +
      decoder.decode(bytes.subarray(4));
    expect(out).toBe("a€b");
  });

  it("has web streams", async () => {
    const stream = new ReadableStream<BufferSource>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("he"));
        controller.enqueue(new TextEncoder().encode("llo"));
        controller.close();
      },
    }).pipeThrough(new TextDecoderStream());
    let text = "";
    for await (const chunk of stream as unknown as AsyncIterable<string>) text += chunk;
    expect(text).toBe("hello");
  });

  it("can lazily import gpt-tokenizer", async () => {
    const { encode, decode } = await import("gpt-tokenizer");
    const tokens = encode("hello world");
    expect(tokens.length).toBe(2);
    expect(decode(tokens)).toBe("hello world");
  });
});
