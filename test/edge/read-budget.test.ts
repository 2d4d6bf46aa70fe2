/**
 * The smallest reader (issue 27, break 10): `POST /read` under `MIN_READ_TOKENS` is a 400, and
 * `/mcp`'s `read_result` under it is a -32602 error for that call; at it, pages come back within
 * the budget.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bearer, call, type Json, ORIGIN } from "./helpers.js";

const lines = Array.from({ length: 3000 }, (_, i) => `L${i + 1} INFO step ${i + 1} ok`).join("\n");

async function handleOf(): Promise<string> {
  const res = await call("/shape?maxTokens=300", {
    method: "POST",
    tenant: "acme",
    body: lines,
    headers: { "content-type": "text/plain" },
  });
  expect(res.status).toBe(200);
  return res.body.meta.handle as string;
}

describe("edge Worker: a reader's smallest budget", () => {
  it("POST /read below 160 tokens is a 400; at 160 a page within it", async () => {
    const handle = await handleOf();
    const read = (maxTokens: number) =>
      call(`/read?maxTokens=${maxTokens}`, {
        method: "POST",
        tenant: "acme",
        body: JSON.stringify({ handle, lines: { from: 1200 } }),
        headers: { "content-type": "application/json" },
      });
    const small = await read(100);
    expect(small.status).toBe(400);
    expect(JSON.stringify(small.body)).toContain("160");
    const least = await read(160);
    expect(least.status).toBe(200);
    expect(least.body.meta.tokens).toBeLessThanOrEqual(160);
    expect(least.body.meta.next?.args.lines.from).toBeGreaterThan(1200);
  });

  it("/mcp read_result below 160 tokens is a -32602 error for that call", async () => {
    const handle = await handleOf();
    const res = await SELF.fetch(`${ORIGIN}/mcp?maxTokens=100`, {
      method: "POST",
      headers: {
        ...bearer("acme"),
        accept: "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "read_result", arguments: { handle } },
      }),
    });
    const answer = (await res.json()) as Json;
    expect(answer.id).toBe(7);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toContain("160");
  });
});
