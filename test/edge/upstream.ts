/**
 * The upstream MCP server of the edge Worker's `/mcp` tests: a real SDK server
 * (`McpServer` over the SDK's web-standard streamable-HTTP transport, stateless), run in Node by
 * Miniflare as the Worker's `UPSTREAM_MCP` service binding. `tools/list` is answered as JSON and
 * everything else as an event stream, so the proxy's two ways back are both taken.
 *
 * Tools: `build_log` (a numbered log of about `kb` KB, every 997th line an error), `hello`
 * (one short line), `leak` (a line with a token made at run time, for redaction), `fails` (a
 * tool error). The bearer token the upstream wants is made per run, and it checks it.
 */
import { randomBytes } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type Request as MiniflareRequest, Response as MiniflareResponse } from "miniflare";
import { z } from "zod";

export const UPSTREAM_TOKEN = randomBytes(24).toString("base64url");
/** A GitHub-style token made for this run: never a real one. */
export const LEAKED = `ghp_${randomBytes(27).toString("base64url").replace(/[-_]/g, "x").slice(0, 36)}`;

/** Line n starts `L<n> `; every 997th is an error. */
export function upstreamLog(kb: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let n = 1; size < kb * 1000; n++) {
    const line =
      n % 997 === 0
        ? `L${n} ERROR deploy step ${n} failed: connection reset`
        : `L${n} INFO deploy step ${n} ok in ${(n * 7919) % 1000}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

function server(): McpServer {
  const mcp = new McpServer({ name: "upstream", version: "1.0.0" });
  mcp.registerTool(
    "build_log",
    { description: "A build log", inputSchema: { kb: z.number().int().min(1).max(20_000) } },
    async ({ kb }) => ({ content: [{ type: "text", text: upstreamLog(kb) }] }),
  );
  mcp.registerTool("hello", { description: "One line" }, async () => ({
    content: [{ type: "text", text: "hello from upstream" }],
  }));
  mcp.registerTool("leak", { description: "A line with a token" }, async () => ({
    content: [
      {
        type: "text",
        text: `export GITHUB_TOKEN=${LEAKED}\n\nThe deploy finished with status ready.`,
      },
    ],
  }));
  mcp.registerTool("fails", { description: "Always fails" }, async () => ({
    content: [{ type: "text", text: "ERROR: the deploy target refused the connection" }],
    isError: true,
  }));
  return mcp;
}

/** Miniflare's service-binding handler. */
export async function upstream(request: MiniflareRequest): Promise<MiniflareResponse> {
  if (request.headers.get("authorization") !== `Bearer ${UPSTREAM_TOKEN}`)
    return new MiniflareResponse("unauthorized", { status: 401 });
  const text = request.method === "POST" ? await request.text() : "";
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const json = (parsed as { method?: string } | undefined)?.method === "tools/list";
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: json,
    keepAliveMs: 0,
  });
  const mcp = server();
  await mcp.connect(transport);
  const res = await transport.handleRequest(
    new Request(request.url, {
      method: request.method,
      headers: [...request.headers],
      ...(text ? { body: text } : {}),
    }),
    parsed !== undefined ? { parsedBody: parsed } : {},
  );
  const body = await res.text();
  await mcp.close();
  return new MiniflareResponse(body, { status: res.status, headers: [...res.headers] });
}
