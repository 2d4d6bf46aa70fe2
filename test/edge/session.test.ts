/**
 * The Worker's sessions (`POST /session/:id/shape`, `GET /session/:id/view`) in real workerd,
 * with a Durable Object per conversation and tenant and the tenant's KV/R2 store. A run of
 * logs stays within the conversation's ceiling (counted with gpt-tokenizer, not by the
 * session), its handles read back through `POST /read`, another tenant with the same id sees
 * a conversation of its own, and the session survives its object's eviction.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { o200kCount } from "../helpers/sources.js";
import { call, type Json } from "./helpers.js";

const CEILING = 4000;

function logOf(n: number): string {
  const lines: string[] = [];
  for (let k = 0; k < 3000; k++) {
    lines.push(
      k === 1500
        ? `2026-12-04T10:00:00Z ERROR billing write failed: ledger-${n}-quota`
        : `2026-12-04T10:00:${String(k % 60).padStart(2, "0")}Z INFO worker-${k % 9} job ${k} done in ${(k * 13) % 700}ms`,
    );
  }
  return lines.join("\n");
}

async function shapeIn(conversation: string, n: number, tenant: "acme" | "globex" = "acme") {
  return call(
    `/session/${conversation}/shape?callId=call_${n}&tool=read_log&maxTokens=1500&maxRunTokens=${CEILING}`,
    { method: "POST", tenant, body: logOf(n), headers: { "content-type": "text/plain" } },
  );
}

async function viewOf(conversation: string, tenant: "acme" | "globex" = "acme"): Promise<Json> {
  const res = await call(`/session/${conversation}/view`, { tenant });
  expect(res.status).toBe(200);
  return res.body;
}

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function tokensOf(view: Json[]): Promise<number> {
  let n = 0;
  for (const e of view) n += await o200kCount(e.text);
  return n;
}

describe("edge: sessions in a Durable Object", () => {
  it("keeps a conversation within its ceiling, reads back its handles, and keeps tenants apart", async () => {
    for (let n = 1; n <= 10; n++) {
      const res = await shapeIn("conv_a", n);
      expect(res.status).toBe(200);
      expect(res.body.stats.maxRunTokens).toBe(CEILING);
    }
    const { view, stats } = await viewOf("conv_a");
    expect(view).toHaveLength(10);
    expect(await tokensOf(view)).toBeLessThanOrEqual(CEILING);
    expect(stats.reshapes).toBeGreaterThan(0);
    // A fact no longer in the view is one read away, by a handle the view holds.
    const all = view.map((e: Json) => e.text).join("\n");
    expect(all).not.toContain("ledger-1-quota");
    const handles = [...new Set([...all.matchAll(/res_[0-9a-f]{24}/g)].map((m) => m[0]))];
    let found = false;
    for (const handle of handles) {
      const page = await call("/read", {
        method: "POST",
        tenant: "acme",
        body: JSON.stringify({ handle, grep: "ledger-1-quota" }),
        headers: { "content-type": "application/json" },
      });
      if (String(page.body.text).includes("ledger-1-quota")) found = true;
    }
    expect(found).toBe(true);

    // The same id is another conversation for another tenant.
    expect((await viewOf("conv_a", "globex")).view).toEqual([]);
    await shapeIn("conv_a", 99, "globex");
    const theirs = (await viewOf("conv_a", "globex")).view;
    expect(theirs.map((e: Json) => e.callId)).toEqual(["call_99"]);
    expect((await viewOf("conv_a")).view).toHaveLength(10);
  });

  it("goes on from storage after its object is evicted", async () => {
    for (let n = 1; n <= 4; n++) expect((await shapeIn("conv_b", n)).status).toBe(200);
    const before = (await viewOf("conv_b")).view;
    const sessions = env.SESSIONS as {
      idFromName(name: string): unknown;
      get(id: unknown): unknown;
    };
    // The object forgets its session, as a new instance after an eviction would.
    await runInDurableObject(sessions.get(sessions.idFromName("acme\nconv_b")), (instance) => {
      (instance as { session: unknown }).session = undefined;
    });
    const after = (await viewOf("conv_b")).view;
    expect(after.map((e: Json) => e.text)).toEqual(before.map((e: Json) => e.text));
    for (let n = 5; n <= 8; n++) expect((await shapeIn("conv_b", n)).status).toBe(200);
    const later = (await viewOf("conv_b")).view;
    expect(later).toHaveLength(8);
    expect(await tokensOf(later)).toBeLessThanOrEqual(CEILING);
  });

  it("does not record a body over the byte cap or one that does not decode; its call id stays free", async () => {
    const bomb = await gzip("A".repeat(24 * 1024 * 1024 + 1));
    const over = await call("/session/conv_e/shape?callId=c_big", {
      method: "POST",
      tenant: "acme",
      body: bomb,
      headers: { "content-encoding": "gzip" },
    });
    expect(over.status).toBe(413);
    const broken = await call("/session/conv_e/shape?callId=c_big", {
      method: "POST",
      tenant: "acme",
      body: "plainly not gzip",
      headers: { "content-encoding": "gzip" },
    });
    expect(broken.status).toBe(400);
    expect((await viewOf("conv_e")).view).toEqual([]);
    const retry = await call("/session/conv_e/shape?callId=c_big", {
      method: "POST",
      tenant: "acme",
      body: "ok",
    });
    expect(retry.status).toBe(200);
    expect((await viewOf("conv_e")).view.map((e: Json) => e.callId)).toEqual(["c_big"]);
    // A ceiling above the Worker's own is refused.
    const huge = await call("/session/conv_f/shape?callId=c1&maxRunTokens=999999999", {
      method: "POST",
      tenant: "acme",
      body: "ok",
    });
    expect(huge.status).toBe(400);
  });

  it("refuses a bad id, a repeated call id and a wrong method", async () => {
    expect((await call("/session/a%20b/view", { tenant: "acme" })).status).toBe(400);
    expect((await shapeIn("conv_c", 1)).status).toBe(200);
    const again = await shapeIn("conv_c", 1);
    expect(again.status).toBe(400);
    expect(again.body.code ?? again.body.error?.code ?? JSON.stringify(again.body)).toMatch(
      /params\/invalid/,
    );
    const small = await call("/session/conv_d/shape?callId=c1&maxRunTokens=100", {
      method: "POST",
      tenant: "acme",
      body: logOf(1),
    });
    expect(small.status).toBe(400);
    expect(JSON.stringify(small.body)).toMatch(/maxRunTokens/);
    expect((await call("/session/conv_c/shape", { tenant: "acme" })).status).toBe(405);
    expect((await call("/session/conv_c/view")).status).toBe(401);
  });

  it("shapes a result whose key the conversation had as a re-run of it", async () => {
    const post = (n: number, body: string, key?: string) =>
      call(
        `/session/conv_rerun/shape?callId=run_${n}&tool=build&maxTokens=600${key !== undefined ? `&key=${encodeURIComponent(key)}` : ""}`,
        { method: "POST", tenant: "acme", body, headers: { "content-type": "text/plain" } },
      );
    const passing = logOf(1).replace(/\n.*ERROR.*\n/, "\n");
    const first = await post(1, passing, "make test");
    expect(first.status).toBe(200);
    const again = await post(2, logOf(7), "make test");
    expect(again.status).toBe(200);
    expect(again.body.text).toMatch(
      /\[airlock: re-run of run_1 \(res_[\w-]+\): \d+ lines as before, 1 new\]/,
    );
    expect(again.body.text).toContain("ERROR billing write failed: ledger-7-quota");
    // Negative control: another key is no re-run.
    const other = await post(3, logOf(8), "make lint");
    expect(other.body.text).not.toContain("re-run of");
    // An empty key is the request's fault; a long one is held by its hash.
    expect((await post(4, "ok", "")).status).toBe(400);
    expect((await post(5, "ok", "k".repeat(4097))).status).toBe(200);
  });
});
