// An MCP server over stdio for test/node/mcp-stdio.test.ts, run as a child process. It shapes
// with the library bundled by the test (the bundle's directory in AIRLOCK_BUNDLE), and serves
// the big parts of the issue: a 5 MB log, a 3 MB image, 100,000 rows, a tool error.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const dir = process.env.AIRLOCK_BUNDLE;
const core = await import(new URL("index.js", `file://${dir}/`).href);
const mcp = await import(new URL("mcp.js", `file://${dir}/`).href);

const store = core.createMemoryStore({ maxChars: 64 << 20 });
const server = mcp.wrapServer(new McpServer({ name: "stdio-fixture", version: "1.0.0" }), {
  store,
  maxTokens: 2000,
  maxStructuredTokens: 1000,
});

const lines = [];
for (let i = 0, size = 0; size < 5 * 1024 * 1024; i++) {
  const line =
    i === 40_000
      ? "2026-03-01T10:00:00Z ERROR disk /dev/sdb1 is full"
      : `2026-03-01T10:00:00Z INFO request ${i} served`;
  lines.push(line);
  size += line.length + 1;
}
const log = lines.join("\n");
server.registerTool("log", {}, async () => ({ content: [{ type: "text", text: log }] }));

const png = new Uint8Array(3 * 1024 * 1024);
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
for (let i = 8; i < png.length; i++) png[i] = (i * 2654435761) >>> 24;
const image = Buffer.from(png).toString("base64");
server.registerTool("screenshot", {}, async () => ({
  content: [{ type: "image", data: image, mimeType: "image/png" }],
}));

const rows = Array.from({ length: 100_000 }, (_, i) => ({ id: i }));
server.registerTool(
  "rows",
  { outputSchema: { rows: z.array(z.object({ id: z.number() })) } },
  async () => ({
    content: [{ type: "text", text: JSON.stringify(rows) }],
    structuredContent: { rows },
  }),
);
server.registerTool("fail", {}, async () => {
  throw Object.assign(new Error("EACCES: permission denied, open '/home/deploy/.ssh/id_rsa'"), {
    code: "EACCES",
  });
});
mcp.registerReadResult(server, { store, z, maxTokens: 12_000 });

await server.connect(new StdioServerTransport());
