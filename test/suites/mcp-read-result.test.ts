/**
 * `read_result` through a real MCP server: registered in one call with the zod form of its
 * schema, and a 100,000-row result paged to the end by a client that does what a model does
 * (reads the next call from the text, and makes it).
 */
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { createMemoryStore, createResultReader, type McpCallToolResult } from "agent-airlock";
import {
  MCP_META_KEY,
  registerReadResult,
  shapeCallToolResult,
  wrapServer,
} from "agent-airlock/mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { link, newClient, newServer, tokens } from "../helpers/mcp.js";

const textOf = (r: McpCallToolResult) =>
  r.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");

/** The next call a page names, as a model reads it from the text. */
function nextCall(text: string): Record<string, unknown> | undefined {
  const m = /call read_result with (\{[^\n]*\})/.exec(text);
  return m ? (JSON.parse(m[1] as string) as Record<string, unknown>) : undefined;
}

/** The records of an envelope's data, one JSON object a line. */
function records(text: string): Array<{ id: number }> {
  return text
    .split("\n")
    .filter((l) => /^\{"id":\d+/.test(l))
    .map((l) => JSON.parse(l.replace(/,$/, "")) as { id: number });
}

describe("read_result on an McpServer", () => {
  it("registers in one call, and pages a 100,000-row result to the end", async () => {
    const count = 100_000;
    const rows = Array.from({ length: count }, (_, i) => ({ id: i, v: i % 7 }));
    const store = createMemoryStore({ maxChars: 64 << 20 });
    const server = wrapServer(newServer(), { store, maxTokens: 1500 });
    server.registerTool("rows", {}, async () => ({
      content: [{ type: "text", text: JSON.stringify(rows) }],
    }));
    registerReadResult(server, { store, z, maxTokens: 12_000 });
    const client = await link(server, newClient());
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === "read_result");
    expect(listed?.inputSchema.properties).toHaveProperty("cursor");

    const first = (await client.callTool({ name: "rows", arguments: {} })) as McpCallToolResult;
    expect(tokens(textOf(first))).toBeLessThanOrEqual(1500);
    const handle = (first._meta?.[MCP_META_KEY] as { handle?: string } | undefined)?.handle;
    expect(handle).toMatch(/^res_/);
    const seen = records(textOf(first)).map((r) => r.id);
    let args = nextCall(textOf(first));
    let pages = 0;
    while (args !== undefined) {
      const page = (await client.callTool({
        name: "read_result",
        arguments: args,
      })) as McpCallToolResult;
      expect(() => CallToolResultSchema.parse(page)).not.toThrow();
      expect(page.isError).toBeUndefined();
      expect(tokens(textOf(page))).toBeLessThanOrEqual(12_000);
      seen.push(...records(textOf(page)).map((r) => r.id));
      args = nextCall(textOf(page));
      expect(++pages).toBeLessThan(500);
    }
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
    expect(Math.min(...seen.slice(0, 1000))).toBe(0);
    expect([...seen].sort((a, b) => a - b).at(-1)).toBe(count - 1);
  }, 300_000);

  it("structuredContent with no valid smaller value: the text says why, _meta carries the handle, read_result reads it whole", async () => {
    const store = createMemoryStore({ maxChars: 16 << 20 });
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i }));
    const out = await shapeCallToolResult(
      { content: [], structuredContent: { rows } },
      {
        store,
        maxStructuredTokens: 100,
        outputSchema: z.object({ rows: z.array(z.object({ id: z.number() })).min(500) }),
      },
    );
    expect(() => CallToolResultSchema.parse(out)).not.toThrow();
    expect(out.structuredContent).toBeUndefined();
    const f = out._meta?.[MCP_META_KEY] as {
      handle?: string;
      structured?: { handle?: string; omitted?: string };
    };
    expect(f.structured?.omitted).toMatch(/fewest items/);
    const handle = f.structured?.handle;
    expect(handle).toMatch(/^res_/);
    expect(f.handle).toBe(handle);
    expect(textOf(out)).toContain(
      `structuredContent left out: ${f.structured?.omitted}; the whole value: read_result with handle ${handle}`,
    );
    // The handle reads the value the tool gave, all 1,000 rows, page by page.
    const read = createResultReader({ store, maxTokens: 20_000 });
    const seen: number[] = [];
    let args: Record<string, unknown> | undefined = { handle };
    for (let pages = 0; args !== undefined && pages < 100; pages++) {
      const page = await read(args);
      expect(page.status).not.toBe("error");
      seen.push(...records(page.text).map((r) => r.id));
      args = nextCall(page.text);
    }
    expect(seen).toEqual(rows.map((r) => r.id));
  }, 60_000);

  it("a wrong argument is a result the model can read, from the SDK's own validation or ours", async () => {
    const store = createMemoryStore();
    const server = newServer();
    registerReadResult(server, { store, z });
    const client = await link(server, newClient());
    const bad = (await client.callTool({
      name: "read_result",
      arguments: { handle: 5 },
    })) as McpCallToolResult;
    expect(bad.isError).toBe(true);
    const gone = (await client.callTool({
      name: "read_result",
      arguments: { handle: "res_000000000000000000000000" },
    })) as McpCallToolResult;
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).not.toMatch(/\n\s+at /);
  });

  it("refuses a z that is not zod", () => {
    expect(() =>
      registerReadResult(newServer(), { store: createMemoryStore(), z: {} as never }),
    ).toThrow(/zod/);
  });
});
