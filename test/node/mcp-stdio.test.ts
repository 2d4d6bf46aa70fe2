/**
 * `agent-airlock/mcp` over stdio with a child process: the library bundled as a host would
 * bundle it (esbuild, both entries, code split), a server that shapes before it answers in the
 * child, and a wrapped SDK client here. What crosses the pipe is a JSON-RPC message each way, so
 * this is the transport the in-memory suites cannot show.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { McpCallToolResult } from "agent-airlock";
import { MCP_META_KEY, wrapClient } from "agent-airlock/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleLibrary, root } from "../helpers/bundle.js";
import { modelTokens, tokens } from "../helpers/mcp.js";

let bundle: Awaited<ReturnType<typeof bundleLibrary>> | undefined;
let client: Client;

const textOf = (r: McpCallToolResult) =>
  r.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");

beforeAll(async () => {
  bundle = await bundleLibrary({ index: "index.ts", mcp: "mcp/index.ts" }, "mcp-stdio");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, "test/helpers/mcp-stdio-server.mjs")],
    env: { AIRLOCK_BUNDLE: bundle.dir, PATH: process.env.PATH ?? "" },
    cwd: root,
    stderr: "pipe",
  });
  client = wrapClient(new Client({ name: "stdio-test", version: "1.0.0" }), {
    maxTokens: 3000,
    tools: { read_result: false },
  });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  bundle?.remove();
});

describe("MCP over stdio, a shaping server in a child process", () => {
  it("a 5 MB log: the server's budget holds across the pipe, the client's on top", async () => {
    const out = (await client.callTool({ name: "log", arguments: {} })) as McpCallToolResult;
    expect(() => CallToolResultSchema.parse(out)).not.toThrow();
    expect(modelTokens(out)).toBeLessThanOrEqual(3000);
    expect(textOf(out)).toContain("ERROR disk /dev/sdb1 is full");
    expect(JSON.stringify(out).length).toBeLessThan(64 * 1024);
  }, 60_000);

  it("a 3 MB image is named, never sent as base64", async () => {
    const out = (await client.callTool({ name: "screenshot", arguments: {} })) as McpCallToolResult;
    expect(out.content).toHaveLength(1);
    // The server's placeholder is tool text to the client: shaped (fenced) again, never trusted.
    expect(textOf(out)).toMatch(
      /\n\[airlock: binary content not shown: image\/png, 3145728 bytes, sha256 [0-9a-f]{64}\]\n/,
    );
    expect(JSON.stringify(out).length).toBeLessThan(2000);
  }, 60_000);

  it("a tool error: isError, and nothing of the path or the key file", async () => {
    const out = (await client.callTool({ name: "fail", arguments: {} })) as McpCallToolResult;
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("tool/permission-denied");
    expect(textOf(out)).not.toContain("/home/deploy");
    expect(textOf(out)).not.toContain("id_rsa");
  }, 60_000);

  it("100,000 rows: structuredContent within its budget and valid for the SDK, paged by read_result", async () => {
    await client.listTools();
    const out = (await client.callTool({ name: "rows", arguments: {} })) as McpCallToolResult;
    expect(tokens(JSON.stringify(out.structuredContent))).toBeLessThanOrEqual(1000);
    const first = textOf(out);
    const m = /call read_result with (\{[^\n]*\})/.exec(first);
    expect(m).not.toBeNull();
    let args: Record<string, unknown> | undefined = JSON.parse(m?.[1] as string);
    let seen = (first.match(/^\{"id":\d+\}/gm) ?? []).length;
    let pages = 0;
    while (args !== undefined && pages < 200) {
      const page = (await client.callTool({
        name: "read_result",
        arguments: args,
      })) as McpCallToolResult;
      const text = textOf(page);
      seen += (text.match(/^\{"id":\d+\}/gm) ?? []).length;
      const next = /call read_result with (\{[^\n]*\})/.exec(text);
      args = next ? JSON.parse(next[1] as string) : undefined;
      pages++;
    }
    expect(seen).toBe(100_000);
    // What the server sent fits the client's budget whole (the SDK client validated its
    // structuredContent against the listed schema on the way in), but the server cut it: the
    // client's facts say so, and name the server's own.
    const audit = out._meta?.[MCP_META_KEY] as
      | { status?: string; truncated?: boolean; server?: { truncated?: boolean } }
      | undefined;
    expect(audit?.status).toBe("partial");
    expect(audit?.truncated).toBe(true);
    expect(audit?.server?.truncated).toBe(true);
  }, 180_000);
});
