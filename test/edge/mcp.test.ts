/**
 * `/mcp` in front of a real MCP SDK server (test/edge/upstream.ts, the Worker's UPSTREAM_MCP
 * binding): messages go through as a streamable-HTTP client sends them, `tools/list` gains
 * `read_result`, every `tools/call` result comes back shaped (within the budget, redacted,
 * errors kept), and `read_result` through the proxy pages a cut result to the end, for its own
 * tenant only. What a page shows is checked against the log the upstream made.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { range, shownLines } from "../helpers/read-back.js";
import { bearer, type Json, ORIGIN, type Tenant } from "./helpers.js";

const ACCEPT = "application/json, text/event-stream";
let id = 0;

/** The JSON-RPC messages of a reply: one JSON body, or the data of each event. */
function messagesOf(type: string, text: string): Json[] {
  if (type.startsWith("application/json")) {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [value];
  }
  expect(type).toMatch(/^text\/event-stream/);
  const out: Json[] = [];
  for (const event of text.split(/\n\n/)) {
    const data = event
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).trimStart());
    if (data.length > 0) out.push(JSON.parse(data.join("\n")));
  }
  return out;
}

async function rpc(
  method: string,
  params: unknown,
  options: { tenant?: Tenant; maxTokens?: number } = {},
): Promise<{ status: number; type: string; message: Json }> {
  const res = await SELF.fetch(
    `${ORIGIN}/mcp${options.maxTokens ? `?maxTokens=${options.maxTokens}` : ""}`,
    {
      method: "POST",
      headers: {
        ...bearer(options.tenant ?? "acme"),
        accept: ACCEPT,
        "content-type": "application/json",
        "mcp-protocol-version": "2025-06-18",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    },
  );
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(200);
  const [message] = messagesOf(type, text);
  expect(message.id).toBe(id);
  return { status: res.status, type, message };
}

const call = (name: string, args: unknown, options?: { tenant?: Tenant; maxTokens?: number }) =>
  rpc("tools/call", { name, arguments: args }, options);

const textOf = (result: Json): string =>
  result.content
    .filter((c: Json) => c.type === "text")
    .map((c: Json) => c.text)
    .join("\n");

describe("edge Worker: /mcp in front of an MCP SDK server", () => {
  it("initializes through the proxy, and tools/list has the upstream's tools and read_result", async () => {
    const init = await rpc("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "edge-test", version: "1.0.0" },
    });
    expect(init.message.result.serverInfo.name).toBe("upstream");
    const list = await rpc("tools/list", {});
    expect(list.type).toMatch(/^application\/json/);
    const names = list.message.result.tools.map((t: Json) => t.name);
    expect(names).toEqual(["build_log", "hello", "leak", "fails", "read_result"]);
    const read = list.message.result.tools.at(-1);
    expect(read.inputSchema.required).toEqual(["handle"]);
  });

  it("a small result comes back whole, fenced as untrusted", async () => {
    const { type, message } = await call("hello", {});
    expect(type).toMatch(/^text\/event-stream/);
    const text = textOf(message.result);
    expect(text).toContain("hello from upstream");
    expect(text).toContain("<untrusted-data");
    const facts = message.result._meta["dev.airlock/shaped"];
    expect(facts.truncated).toBe(false);
    // Not kept: no handle that would name nothing.
    expect(facts.handle).toBeUndefined();
    expect(facts.listed[0].handle).toBeUndefined();
  });

  it("a token in a result is redacted; a tool error stays an error", async () => {
    const leak = await call("leak", {});
    const text = textOf(leak.message.result);
    expect(text).toContain("The deploy finished with status ready.");
    expect(text).not.toContain(inject("upstreamLeak"));
    const fails = await call("fails", {});
    expect(fails.message.result.isError).toBe(true);
    expect(textOf(fails.message.result)).toContain("refused the connection");
  });

  it("a 2 MB log is cut to the budget, kept, and read_result through the proxy pages it to the end", async () => {
    const { message } = await call("build_log", { kb: 2000 }, { maxTokens: 1500 });
    const facts = message.result._meta["dev.airlock/shaped"];
    expect(facts.truncated).toBe(true);
    expect(facts.tokens.after).toBeLessThanOrEqual(1500);
    const handle = facts.handle;
    expect(handle).toMatch(/^res_[0-9a-f]{24}$/);
    expect(textOf(message.result)).toContain(handle);

    const seen: number[] = [];
    let args: Json = { handle, lines: { from: 1 }, pageSize: 1000 };
    let last = "";
    for (let pages = 0; args !== undefined; pages++) {
      expect(pages).toBeLessThan(100);
      const page = await call("read_result", args, { maxTokens: 32_000 });
      expect(page.message.result.isError).toBeUndefined();
      last = textOf(page.message.result);
      seen.push(...shownLines(last));
      const next = /call read_result (\{.*?\})(?: |\])/.exec(last)?.[1];
      args = next ? JSON.parse(next) : undefined;
    }
    const total = Math.max(...seen);
    expect(seen).toEqual(range(1, total));
    expect(last).toContain("that is the last line");
    expect(total).toBeGreaterThan(40_000);

    // Another tenant's read_result finds nothing under that handle.
    const other = await call(
      "read_result",
      { handle, lines: { from: 1, to: 5 } },
      {
        tenant: "globex",
      },
    );
    expect(other.message.result.isError).toBe(true);
    expect(shownLines(textOf(other.message.result))).toEqual([]);
  }, 180_000);

  it("GET is 405, a body that is not JSON-RPC is 400, and the caller's token never goes upstream", async () => {
    const get = await SELF.fetch(`${ORIGIN}/mcp`, {
      headers: { ...bearer("acme"), accept: ACCEPT },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, DELETE");
    await get.arrayBuffer();
    for (const body of ["{nope", '{"id":1,"method":"tools/list"}', "[]"]) {
      const res = await SELF.fetch(`${ORIGIN}/mcp`, {
        method: "POST",
        headers: { ...bearer("acme"), "content-type": "application/json", accept: ACCEPT },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as Json).error.code).toBe("body/malformed");
    }
    // The upstream answers only its own token (test/edge/upstream.ts): every call above passed.
  });
});
