/**
 * What the edge Worker does with bodies and parameters it cannot take: a clear 4xx with a
 * stable code and one sentence, never a 500, never a stack. A tool output that is itself
 * malformed is not one of them: it is shaped, and the result says what was wrong with it.
 */
import { edgePreset } from "agent-airlock/edge/o200k_base";
import { describe, expect, it } from "vitest";
import { call, type Reply } from "./helpers.js";

const LIMIT = edgePreset.maxBytes;

/** A stream of `total` bytes of log text with no declared length. */
function streamOf(total: number, chunk = 1 << 20): ReadableStream<Uint8Array> {
  const line = new TextEncoder().encode("INFO filler line of a long log, nothing to see here\n");
  const block = new Uint8Array(chunk);
  for (let i = 0; i < chunk; i++) block[i] = line[i % line.length] as number;
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk, total - sent);
      controller.enqueue(n === chunk ? block.slice() : block.slice(0, n));
      sent += n;
    },
  });
}

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function expectClear(res: Reply, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
  // One sentence of ours: no stack frames, no file paths.
  expect(res.body.error.message).not.toMatch(/\n|\bat \S+ \(|\.ts:\d+|\.js:\d+/);
}

describe("edge Worker: bodies and parameters it refuses, with a clear 4xx", () => {
  const cases: Array<{
    title: string;
    path: string;
    init: RequestInit;
    status: number;
    code: string;
  }> = [
    {
      title: "maxTokens that is not a number",
      path: "/shape?maxTokens=lots",
      init: { method: "POST", body: "x" },
      status: 400,
      code: "params/invalid",
    },
    {
      title: "maxTokens below the minimum",
      path: "/shape?maxTokens=3",
      init: { method: "POST", body: "x" },
      status: 400,
      code: "params/invalid",
    },
    {
      title: "maxTokens above the Worker's largest budget",
      path: "/shape?maxTokens=32001",
      init: { method: "POST", body: "x" },
      status: 400,
      code: "params/invalid",
    },
    {
      title: "a negative maxTokens in a header",
      path: "/shape",
      init: { method: "POST", body: "x", headers: { "x-airlock-max-tokens": "-5" } },
      status: 400,
      code: "params/invalid",
    },
    {
      title: "a tool name with markup in it",
      path: "/shape?tool=%3Cscript%3E",
      init: { method: "POST", body: "x" },
      status: 400,
      code: "params/invalid",
    },
    {
      title: "an encoding the Worker does not read",
      path: "/shape",
      init: { method: "POST", body: "x", headers: { "content-encoding": "br" } },
      status: 415,
      code: "body/unsupported",
    },
    {
      title: "a gzip body that is not gzip",
      path: "/shape",
      init: { method: "POST", body: "plainly not gzip", headers: { "content-encoding": "gzip" } },
      status: 400,
      code: "body/malformed",
    },
    {
      title: "GET on /shape",
      path: "/shape",
      init: { method: "GET" },
      status: 405,
      code: "route/method",
    },
    {
      title: "an unknown route",
      path: "/admin",
      init: { method: "GET" },
      status: 404,
      code: "route/not-found",
    },
  ];
  for (const c of cases) {
    it(c.title, async () => {
      expectClear(await call(c.path, { ...c.init, tenant: "acme" }), c.status, c.code);
    });
  }

  it("a body over the byte cap with its length declared: 413", async () => {
    const res = await call("/shape", {
      method: "POST",
      tenant: "acme",
      body: new Uint8Array(LIMIT + 1),
    });
    expectClear(res, 413, "body/too-large");
  });

  it("a streamed body over the byte cap, no length declared: 413 once the cap is passed", async () => {
    const res = await call("/shape", {
      method: "POST",
      tenant: "acme",
      body: streamOf(LIMIT + 4096),
    });
    expectClear(res, 413, "body/too-large");
  });

  it("a gzip body that decodes past the byte cap (a small bomb): 413", async () => {
    const bomb = await gzip("A".repeat(LIMIT + 1));
    expect(bomb.byteLength).toBeLessThan(1 << 20);
    const res = await call("/shape", {
      method: "POST",
      tenant: "acme",
      body: bomb,
      headers: { "content-encoding": "gzip" },
    });
    expectClear(res, 413, "body/too-large");
  });

  it("controls: a body at the cap is shaped, and so is a gzip body", async () => {
    const atCap = await call("/shape?maxTokens=200", {
      method: "POST",
      tenant: "acme",
      body: streamOf(LIMIT),
    });
    expect(atCap.status).toBe(200);
    expect(atCap.body.meta.bytes).toBe(LIMIT);
    const zipped = await call("/shape", {
      method: "POST",
      tenant: "acme",
      body: await gzip("ERROR disk full\n"),
      headers: { "content-encoding": "gzip" },
    });
    expect(zipped.status).toBe(200);
    expect(zipped.body.text).toContain("ERROR disk full");
  });

  it("a malformed tool output (broken JSON) is shaped, and the result says so", async () => {
    const res = await call("/shape?tool=api", {
      method: "POST",
      tenant: "acme",
      body: '{"items": [1, 2,',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("error");
    expect(res.body.meta.error.code).toBe("json/syntax");
  });
});
