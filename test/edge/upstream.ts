/**
 * The upstream MCP server of the edge Worker's `/mcp` tests: a real SDK server
 * (`McpServer` over the SDK's web-standard streamable-HTTP transport, stateless), run in Node by
 * Miniflare as the Worker's `UPSTREAM_MCP` service binding. `tools/list` is answered as JSON and
 * everything else as an event stream, so the proxy's two ways back are both taken.
 *
 * Tools: `build_log` (a numbered log of about `kb` KB, every 997th line an error), `hello`
 * (one short line), `leak` (a line with a token made at run time, for redaction), `fails` (a
 * tool error). The bearer token the upstream wants is made per run, and it checks it.
 *
 * Two more ways of answering, for test/edge/mcp-hostile.test.ts, that leave the above as it is:
 *   - a `tools/call` of `hostile` (not in tools/list) is answered by hand, not by the SDK, as a
 *     hostile or broken server would: `hostile(id, args)` below says how for each `kind`;
 *   - an `initialize` from a client named `sessions` opens a stateful SDK session (its own
 *     `mcp-session-id`, tools `remember` and `recall`), which later requests name by that id.
 * Every request body the upstream receives is remembered (the last 200), for `kind: "seen"`.
 */
import { randomBytes, randomUUID } from "node:crypto";
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
  seen.push(text.slice(0, 100_000));
  if (seen.length > 200) seen.shift();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const call = parsed as { id?: unknown; method?: string; params?: Json } | undefined;
  if (call?.method === "tools/call" && call.params?.name === "hostile")
    return hostile(call.id, call.params.arguments ?? {});
  if (
    request.headers.get("mcp-session-id") !== null ||
    (call?.method === "initialize" && call.params?.clientInfo?.name === "sessions")
  )
    return stateful(request, text, parsed);
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

// biome-ignore lint/suspicious/noExplicitAny: the hostile server reads its arguments loosely
type Json = any;

/** The bodies the upstream received, newest last. */
const seen: string[] = [];

/** Lines of a log with the run's token in each: what must never reach a client unshaped. */
export function leakyLog(lines: number): string {
  const out: string[] = [];
  for (let n = 1; n <= lines; n++) out.push(`L${n} step ${n} token=${LEAKED} ok`);
  return out.join("\n");
}

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

/**
 * A `tools/call` of `hostile`, answered by hand. `via` is "json" (one body) or "sse" (an event
 * stream; the default). Kinds:
 *   string-id    the answer carries the id as the other type ("2" for 2, 2 for "2"), the result
 *                a leaky log
 *   other-id     the answer carries another id
 *   twice        a small answer, then a second, leaky one to the same id
 *   method-result  the leaky answer also has a `method`
 *   batch-event  (sse) one event holding an array: a leaky answer under the string id, the real
 *                small one
 *   not-object   the result is a string with the token
 *   both         a leaky result and an error in one answer
 *   no-jsonrpc   the leaky answer has no `jsonrpc`
 *   error        an error of about 200 KB full of tokens, with `data` of the same
 *   error-small  a short error naming the token, `data: { token }`
 *   error-null   an error with a null id naming the token, and no answer
 *   crlf-blank   (sse) a notification event, then the answer, events ended by LF then CRLF
 *   line-ends    (sse) a BOM, a comment, a priming event, and events whose lines end in CR,
 *                CRLF and LF, one of them split across CR|LF chunks; then the answer
 *   not-json     (sse) an event whose data is not JSON (the token), and no answer
 *   unfinished   (sse) the answer's event with no blank line after it
 *   big          a build log of `mb` MB (the token at its end): a JSON body, or one SSE event
 *                in chunks of `chunkKb` KB; `stream: true` sends the JSON body unsized
 *   seen         answers whether any body the upstream received before this one held the
 *                pieces of `needle` joined (in pieces, so that no body asking holds it)
 */
function hostile(id: unknown, args: Json): MiniflareResponse {
  const answer = (result: unknown, as: unknown = id) => ({ jsonrpc: "2.0", id: as, result });
  const leaky = text(leakyLog(2000));
  const small = text("the real answer");
  const sse = args.via !== "json";
  let messages: unknown[];
  switch (args.kind) {
    case "string-id":
      messages = [answer(leaky, typeof id === "number" ? String(id) : Number(id))];
      break;
    case "other-id":
      messages = [answer(leaky, typeof id === "number" ? id + 1000 : `${id}x`)];
      break;
    case "twice":
      messages = [answer(small), answer(leaky)];
      break;
    case "method-result":
      messages = [{ ...answer(leaky), method: "notifications/message" }];
      break;
    case "batch-event":
      return events([JSON.stringify([answer(leaky, String(id)), answer(small)])]);
    case "not-object":
      messages = [answer(`raw ${LEAKED}`)];
      break;
    case "both":
      messages = [{ ...answer(leaky), error: { code: -32000, message: "both" } }];
      break;
    case "no-jsonrpc":
      messages = [{ id, result: leaky }];
      break;
    case "error": {
      const message = leakyLog(4000);
      messages = [
        { jsonrpc: "2.0", id, error: { code: -32000, message, data: { token: LEAKED, message } } },
      ];
      break;
    }
    case "error-small":
      messages = [
        {
          jsonrpc: "2.0",
          id,
          error: { code: -32000, message: `refused: token=${LEAKED}`, data: { token: LEAKED } },
        },
      ];
      break;
    case "error-null":
      messages = [
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: `bad: token=${LEAKED}` } },
      ];
      break;
    case "crlf-blank": {
      const note = {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "hi" },
      };
      return raw(
        `event: message\ndata: ${JSON.stringify(note)}\n\r\nevent: message\ndata: ${JSON.stringify(answer(small))}\n\r\n`,
      );
    }
    case "line-ends": {
      const note = {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "info", data: "hi" },
      };
      const n = JSON.stringify(note);
      return raw([
        "\uFEFF: a comment\r\n\r\n",
        "id: 1\rretry: 100\rdata: \r\r",
        `event: message\r\ndata: ${n}\r`,
        "\n\r",
        `\nevent: message\ndata: ${n}\n\n`,
        `event: message\rdata: ${JSON.stringify(answer(small))}\r\r`,
      ]);
    }
    case "not-json":
      return raw(`event: message\ndata: raw ${LEAKED}\n\n`);
    case "unfinished":
      return raw(`event: message\ndata: ${JSON.stringify(answer(leaky))}\n`);
    case "big": {
      const body = JSON.stringify(answer(text(`${upstreamLog(args.mb * 1000)}\ntoken=${LEAKED}`)));
      if (!sse) return args.stream ? chunked(body, 64, "application/json") : json(body);
      const event = `event: message\ndata: ${body}\n\n`;
      return chunked(event, args.chunkKb ?? 64, "text/event-stream");
    }
    case "seen":
      messages = [
        answer(
          text(
            `seen: ${seen.slice(0, -1).some((b) => b.includes(args.needle.join(""))) ? "yes" : "no"}`,
          ),
        ),
      ];
      break;
    default:
      messages = [{ jsonrpc: "2.0", id, error: { code: -32602, message: "no such kind" } }];
  }
  if (!sse) return json(JSON.stringify(messages.length === 1 ? messages[0] : messages));
  return events(messages.map((m) => JSON.stringify(m)));
}

function json(body: string): MiniflareResponse {
  return new MiniflareResponse(body, { headers: { "content-type": "application/json" } });
}

function events(data: string[]): MiniflareResponse {
  return raw(data.map((d) => `event: message\ndata: ${d}\n\n`).join(""));
}

/** An event stream as given: one string, or one chunk each. */
function raw(body: string | string[]): MiniflareResponse {
  if (typeof body === "string") body = [body];
  const encoder = new TextEncoder();
  const chunks = body.map((c) => encoder.encode(c));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
  return new MiniflareResponse(stream as never, {
    headers: { "content-type": "text/event-stream" },
  });
}

/** A body sent in chunks of `kb` KB, with no length declared. */
function chunked(body: string, kb: number, type: string): MiniflareResponse {
  const bytes = new TextEncoder().encode(body);
  const size = Math.max(1, Math.round(kb * 1024));
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
  return new MiniflareResponse(stream as never, { headers: { "content-type": type } });
}

/** The stateful sessions, by the id the upstream gave them. */
const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

function sessionServer(): McpServer {
  const mcp = new McpServer({ name: "upstream-sessions", version: "1.0.0" });
  let note = "nothing yet";
  mcp.registerTool(
    "remember",
    { description: "Keeps a note in this session", inputSchema: { note: z.string() } },
    async (args) => {
      note = args.note;
      return text("kept");
    },
  );
  mcp.registerTool("recall", { description: "This session's note" }, async () => text(note));
  return mcp;
}

async function stateful(
  request: MiniflareRequest,
  body: string,
  parsed: unknown,
): Promise<MiniflareResponse> {
  const id = request.headers.get("mcp-session-id");
  let transport = id === null ? undefined : sessions.get(id);
  if (id !== null && transport === undefined)
    return new MiniflareResponse(
      JSON.stringify({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32001, message: "Session not found" },
      }),
      { status: 404, headers: { "content-type": "application/json" } },
    );
  if (transport === undefined) {
    const opened: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (sid) => {
          sessions.set(sid, opened);
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid);
        },
      });
    await sessionServer().connect(opened);
    transport = opened;
  }
  const res = await transport.handleRequest(
    new Request(request.url, {
      method: request.method,
      headers: [...request.headers],
      ...(body ? { body } : {}),
    }),
    parsed !== undefined ? { parsedBody: parsed } : {},
  );
  return new MiniflareResponse(await res.text(), { status: res.status, headers: [...res.headers] });
}
