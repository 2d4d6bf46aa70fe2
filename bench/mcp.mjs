/**
 * MCP results: `shapeCallToolResult` on the big parts (a 5 MB log, a 3 MB image, a 2 MB
 * resource, 10,000 rows as JSON text and as structuredContent), next to the glue a host writes
 * without it, measured in the same process:
 *   1. what the model reads: tokens of the model-visible text against maxTokens, and bytes of the
 *      result, next to shape() of each text part with the whole budget (the image passed on as
 *      it came, structuredContent untouched);
 *   2. time: the whole result, next to shape() of the text parts one after another;
 *   3. a round trip through the real SDK (McpServer, Client, InMemoryTransport), shaped on the
 *      server, next to the same server unshaped.
 *
 *   npm run bench:mcp            (builds first)
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { z } from "zod";
import { shape, toOpenAIChat } from "../dist/index.js";
import { shapeCallToolResult, wrapServer } from "../dist/mcp.js";

const MAX_TOKENS = 4000;
const MAX_STRUCTURED = 2000;

function log(bytes, name) {
  const lines = [];
  for (let i = 0, size = 0; size < bytes; i++) {
    const line =
      i === 30_000
        ? `2026-03-01T10:00:00Z ERROR ${name}: connection refused after 3 retries`
        : `2026-03-01T10:00:${String(i % 60).padStart(2, "0")}Z INFO ${name} request ${i} served in ${i % 97} ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}
const png = Buffer.alloc(3 * 1024 * 1024);
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
for (let i = 8; i < png.length; i++) png[i] = (i * 2654435761) >>> 24;
const rows = Array.from({ length: 10_000 }, (_, i) => ({
  id: i + 1,
  name: `customer ${i + 1}`,
  tags: ["eu"],
}));
const result = {
  content: [
    { type: "text", text: log(5 << 20, "api") },
    { type: "image", data: png.toString("base64"), mimeType: "image/png" },
    {
      type: "resource",
      resource: {
        uri: "file:///var/log/worker.log",
        mimeType: "text/plain",
        text: log(2 << 20, "worker"),
      },
    },
    { type: "text", text: JSON.stringify({ rows }) },
  ],
  structuredContent: { rows },
};

const tokens = (text) => countTokens(text, { disallowedSpecial: new Set() });
const modelTokens = (r) =>
  r.content
    .filter((p) => p.type !== "image" && p.type !== "audio")
    .reduce((n, p) => n + tokens(toOpenAIChat({ content: [p] }, { toolCallId: "t" }).content), 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = async (f, runs = 3) => {
  let best = Number.POSITIVE_INFINITY;
  let out;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    out = await f();
    best = Math.min(best, performance.now() - t);
  }
  return { ms: best, out };
};

// The glue: each text part shaped alone with the whole budget, the rest passed on.
async function glue() {
  const content = [];
  for (const part of result.content) {
    if (part.type === "text")
      content.push({
        type: "text",
        text: (await shape(part.text, { maxTokens: MAX_TOKENS })).text,
      });
    else if (part.type === "resource")
      content.push({
        type: "text",
        text: (await shape(part.resource.text, { maxTokens: MAX_TOKENS })).text,
      });
    else content.push(part);
  }
  return { content, structuredContent: result.structuredContent };
}

const ours = await ms(() =>
  shapeCallToolResult(result, { maxTokens: MAX_TOKENS, maxStructuredTokens: MAX_STRUCTURED }),
);
const theirs = await ms(glue);
console.log(
  `1. what the model reads (maxTokens ${MAX_TOKENS}, maxStructuredTokens ${MAX_STRUCTURED})`,
);
for (const [name, r] of [
  ["shapeCallToolResult", ours.out],
  ["shape() per part", theirs.out],
]) {
  const text = modelTokens(r);
  const structured = r.structuredContent ? tokens(JSON.stringify(r.structuredContent)) : 0;
  console.log(
    `   ${name.padEnd(20)} text ${String(text).padStart(6)} tokens (${((100 * text) / MAX_TOKENS).toFixed(0)}% of maxTokens), structuredContent ${String(structured).padStart(7)} tokens, result ${kb(JSON.stringify(r).length).padStart(10)}`,
  );
}
console.log(
  `2. time: shapeCallToolResult ${ours.ms.toFixed(0)} ms, shape() per part ${theirs.ms.toFixed(0)} ms (ratio ${(ours.ms / theirs.ms).toFixed(2)})`,
);

async function roundTrip(shaped) {
  const base = new McpServer({ name: "bench", version: "1.0.0" });
  const server = shaped
    ? wrapServer(base, { maxTokens: MAX_TOKENS, maxStructuredTokens: MAX_STRUCTURED })
    : base;
  server.registerTool(
    "report",
    {
      outputSchema: {
        rows: z.array(z.object({ id: z.number(), name: z.string(), tags: z.array(z.string()) })),
      },
    },
    async () => result,
  );
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(b);
  await client.listTools();
  const t = await ms(() => client.callTool({ name: "report", arguments: {} }));
  await client.close();
  return t;
}
const shapedTrip = await roundTrip(true);
const plainTrip = await roundTrip(false);
console.log(
  `3. SDK round trip: shaped on the server ${shapedTrip.ms.toFixed(0)} ms (${kb(JSON.stringify(shapedTrip.out).length)} sent), unshaped ${plainTrip.ms.toFixed(0)} ms (${kb(JSON.stringify(plainTrip.out).length)} sent), ratio ${(shapedTrip.ms / plainTrip.ms).toFixed(2)}`,
);
