/**
 * The edge Worker end to end, in workerd with Miniflare's KV and R2: `POST /shape` keeps what
 * it cut, `POST /read` reads it back and pages to the end, for a 20 MB log, a 2 MB page and
 * 100,000 records. Every page is checked against the input (each log line names its number,
 * each record its id, each paragraph its index), never against the code under test.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dataOf, numberedLog, range, shownLines, sorted } from "../helpers/read-back.js";
import { bearer, call, type Json, ORIGIN, type Tenant } from "./helpers.js";

const MB = 1 << 20;

/** Follows `meta.next` through `POST /read` to the end; every page must be a 200. */
async function follow(
  tenant: Tenant,
  args: unknown,
  max: number,
  maxTokens = 32_000,
): Promise<Json[]> {
  const pages: Json[] = [];
  let next: unknown = args;
  while (next !== undefined) {
    if (pages.length >= max) throw new Error(`more than ${max} pages`);
    const res = await call(`/read?maxTokens=${maxTokens}`, {
      method: "POST",
      tenant,
      body: JSON.stringify(next),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    if (res.body.status === "error") throw new Error(`read_result: ${res.body.text}`);
    expect(res.body.meta.tokens).toBeLessThanOrEqual(maxTokens);
    pages.push(res.body);
    next = res.body.meta.next?.args;
  }
  return pages;
}

async function shapeBody(
  tenant: Tenant,
  body: BodyInit,
  query: string,
  contentType = "text/plain",
): Promise<Json> {
  const res = await call(`/shape?${query}`, {
    method: "POST",
    tenant,
    body,
    headers: { "content-type": contentType },
  });
  expect(res.status).toBe(200);
  return res.body;
}

describe("edge Worker: a 20 MB log", () => {
  const log = numberedLog(20 * MB);
  let handle = "";

  it("is shaped, kept in KV and R2, and paged to the end: every line exactly once", async () => {
    const first = await shapeBody("acme", log.text, "tool=app_log&maxTokens=2000");
    expect(first.status).toBe("partial");
    handle = first.meta.handle;
    expect(handle).toMatch(/^res_[0-9a-f]{24}$/);
    expect(first.text).toContain(handle);
    expect(first.meta.next.args.handle).toBe(handle);
    // The manifest is small (KV), the 1 MiB parts large (R2).
    const kv = env.RESULTS_KV as { list(o: { prefix: string }): Promise<{ keys: unknown[] }> };
    const r2 = env.RESULTS_R2 as { list(o: { prefix: string }): Promise<{ objects: unknown[] }> };
    expect((await kv.list({ prefix: `airlock/t:acme/r/${handle}` })).keys).toHaveLength(1);
    expect((await r2.list({ prefix: "airlock/t:acme/p/" })).objects.length).toBeGreaterThanOrEqual(
      20,
    );

    const pages = await follow("acme", { handle, lines: { from: 1 }, pageSize: 1000 }, 400);
    expect(pages.flatMap((p) => shownLines(p.text))).toEqual(range(1, log.lines));
    expect(pages.at(-1).text).toContain("that is the last line");
  }, 300_000);

  it("a grep pages through every error; another tenant reads nothing of it", async () => {
    const grep = await follow("acme", { handle, grep: "upstream timeout", pageSize: 200 }, 100);
    expect(grep.flatMap((p) => shownLines(p.text))).toEqual(log.errors);
    const other = await call("/read", {
      method: "POST",
      tenant: "globex",
      body: JSON.stringify({ handle, lines: { from: 1, to: 50 } }),
    });
    expect(other.status).toBe(200);
    expect(other.body.status).toBe("error");
    expect(shownLines(other.body.text)).toEqual([]);
    expect(other.body.text).not.toContain("INFO http GET");
  }, 120_000);
});

describe("edge Worker: a 2 MB page", () => {
  it("is shaped as HTML, kept, and every paragraph read back exactly once", async () => {
    const paragraphs = 20_000;
    const html = `<!doctype html><html><head><title>Release notes</title></head><body><article><h1>Release notes</h1>${Array.from(
      { length: paragraphs },
      (_, i) =>
        `<p>para-${String(i).padStart(5, "0")} The release adds <b>faster</b> paging and <a href="/x/${i}">links</a> to stored results.</p>`,
    ).join("")}</article></body></html>`;
    expect(html.length).toBeGreaterThan(2 * MB);
    const first = await shapeBody("acme", html, "tool=fetch&maxTokens=1200", "text/html");
    expect(first.meta.format).toBe("html");
    const pages = await follow("acme", { handle: first.meta.handle, lines: { from: 1 } }, 400);
    const found = pages.flatMap((p) =>
      [...p.text.matchAll(/para-(\d{5})/g)].map((m) => Number(m[1])),
    );
    expect(found).toEqual(range(0, paragraphs - 1));
  }, 180_000);
});

describe("edge Worker: 100,000 records", () => {
  it("are shaped, kept, and paged by cursor to the end: every record once, errors first", async () => {
    const count = 100_000;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: i,
      level: i % 499 === 7 ? "error" : "info",
      msg: `request ${i} served`,
    }));
    const errorIds = rows.filter((r) => r.level === "error").map((r) => r.id);
    const first = await shapeBody(
      "acme",
      JSON.stringify(rows),
      "tool=api&maxTokens=2000",
      "application/json",
    );
    expect(first.meta.records.handle).toBe(first.meta.handle);
    const ids = (dataOf(first.text) as Array<{ id: number }>).map((r) => r.id);
    const pages = await follow("acme", first.meta.next.args, 400);
    for (const p of pages) ids.push(...(dataOf(p.text) as Array<{ id: number }>).map((r) => r.id));
    expect(sorted(ids)).toEqual(range(0, count - 1));
    expect(ids.slice(0, errorIds.length)).toEqual(errorIds);
  }, 300_000);
});

describe("edge Worker: what is kept, and for whom", () => {
  it("a result that fit whole has no handle and writes nothing", async () => {
    const kv = env.RESULTS_KV as { list(o: { prefix: string }): Promise<{ keys: unknown[] }> };
    const before = (await kv.list({ prefix: "airlock/t:globex/" })).keys.length;
    const whole = await shapeBody("globex", "ERROR disk full on /var\n", "tool=df");
    expect(whole.meta.truncated).toBe(false);
    expect(whole.meta.handle).toBeUndefined();
    expect(whole.meta.next).toBeUndefined();
    expect((await kv.list({ prefix: "airlock/t:globex/" })).keys.length).toBe(before);
  });

  it("a tenant reads its own handle; the same content shaped by another tenant is its own entry", async () => {
    const log = numberedLog(200_000, { seed: 3 });
    const acme = await shapeBody("acme", log.text, "maxTokens=300");
    const globex = await shapeBody("globex", log.text, "maxTokens=300");
    // Same content, same handle; two entries, one per tenant.
    expect(globex.meta.handle).toBe(acme.meta.handle);
    const args = JSON.stringify({ handle: acme.meta.handle, lines: { from: 10, to: 12 } });
    for (const tenant of ["acme", "globex"] as const) {
      const res = await call("/read", { method: "POST", tenant, body: args });
      expect(shownLines(res.body.text)).toEqual([10, 11, 12]);
    }
  });

  it("the raw artifact: only a token allowed raw reads it, of its own tenant, byte for byte", async () => {
    const body = "raw tool output\npassword=hunter2-not-real\n".repeat(100);
    const shaped = await shapeBody("acme", body, "tool=sh&maxTokens=100");
    expect(shaped.raw.id).toMatch(/^raw_[0-9a-f]{32}$/);
    // The model's text has the secret redacted and names no raw id.
    expect(shaped.text).not.toContain("hunter2");
    expect(shaped.text).not.toContain(shaped.raw.id);
    const path = `/raw/${shaped.raw.id}`;
    expect((await call(path, { tenant: "acme" })).status).toBe(403);
    expect((await call(path, { tenant: "globex" })).status).toBe(403);
    const ok = await SELF.fetch(`${ORIGIN}${path}`, { headers: bearer("acmePerson") });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("application/octet-stream");
    expect(new TextDecoder().decode(await ok.arrayBuffer())).toBe(body);
    // read_result never reaches it.
    const read = await call("/read", {
      method: "POST",
      tenant: "acmePerson",
      body: JSON.stringify({ handle: shaped.raw.id }),
    });
    expect(read.body.status).toBe("error");
    expect(read.body.text).not.toContain("hunter2");
  });
});

describe("edge Worker: POST /read bodies it refuses", () => {
  const cases: Array<{ title: string; init: RequestInit; path?: string; status: number }> = [
    { title: "a body that is not JSON", init: { method: "POST", body: "{handle:" }, status: 400 },
    { title: "an empty body", init: { method: "POST" }, status: 400 },
    {
      title: "a body over 64 KiB",
      init: { method: "POST", body: JSON.stringify({ handle: "x".repeat(70_000) }) },
      status: 413,
    },
    {
      title: "maxTokens out of range",
      path: "/read?maxTokens=5",
      init: { method: "POST", body: "{}" },
      status: 400,
    },
    { title: "GET on /read", init: { method: "GET" }, status: 405 },
  ];
  for (const c of cases) {
    it(`${c.title}: ${c.status}`, async () => {
      const res = await call(c.path ?? "/read", { ...c.init, tenant: "acme" });
      expect(res.status).toBe(c.status);
      expect(typeof res.body.error.code).toBe("string");
      expect(res.body.error.message).not.toMatch(/\n|\.ts:\d+|\.js:\d+/);
    });
  }

  it("wrong arguments are a read_result error page for the model, not an HTTP error", async () => {
    const res = await call("/read", {
      method: "POST",
      tenant: "acme",
      body: JSON.stringify({ handle: "res_000000000000000000000000", lines: { from: -1 } }),
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("error");
    expect(res.body.text.length).toBeGreaterThan(0);
  });
});
