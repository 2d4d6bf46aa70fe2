/**
 * `/mcp`: a streamable-HTTP MCP proxy in front of the upstream MCP server of the Worker's
 * configuration (`UPSTREAM_MCP_URL`, or a service binding `UPSTREAM_MCP`). Messages go upstream
 * as they came (with the upstream's own token, never the caller's); on the way back, every
 * `tools/call` result is shaped with the MCP entry for the caller's budget, its full text kept
 * for the caller's tenant, and `tools/list` gains `read_result`, which the proxy answers itself
 * from the stored results. Answers come back as the upstream sent them: one JSON body, or an
 * event stream re-emitted event by event.
 *
 * GET (a stream the server opens on its own) is 405, as the transport allows: nothing the
 * upstream would send there is a tool result this proxy could shape.
 */
import {
  createCallToolResultShaper,
  createPendingStore,
  createResultReader,
  edgePreset,
  MCP_META_KEY,
  type McpShapedFacts,
  READ_RESULT_TOOL,
  type ResultStore,
} from "agent-airlock/edge/o200k_base";
import type { Caller } from "../auth.js";
import { type Env, intVar } from "../env.js";
import { json, problem, readJson } from "../http.js";
import { shapeParams } from "../params.js";
import { resultStore } from "../stores.js";
import { sseMessages } from "./sse.js";

/** JSON-RPC messages from an MCP client are small; tool arguments included. */
const MAX_REQUEST_BYTES = 1 << 20;
/** Headers of the transport that go upstream and back. */
const UP = ["accept", "mcp-session-id", "mcp-protocol-version", "last-event-id"];
const DOWN = ["mcp-session-id", "mcp-protocol-version"];

type Message = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown } & Record<
  string,
  unknown
>;

export async function mcpRoute(request: Request, env: Env, caller: Caller): Promise<Response> {
  const upstream = upstreamOf(env);
  if (upstream === undefined)
    return problem(503, "upstream/unavailable", "this Worker has no upstream MCP server");
  if (request.method === "GET")
    return problem(405, "route/method", "this proxy opens no stream of its own: POST messages", {
      allow: "POST, DELETE",
    });
  if (request.method === "DELETE") return forward(upstream, env, request, undefined);
  if (request.method !== "POST")
    return problem(405, "route/method", "use POST (or DELETE to end a session)", {
      allow: "POST, DELETE",
    });
  const params = shapeParams(request, intVar(env.AIRLOCK_MAX_TOKENS, 32_000, 16));
  if (typeof params === "string") return problem(400, "params/invalid", params);
  const body = await readJson(request, MAX_REQUEST_BYTES);
  if (body instanceof Response) return body;
  const messages = Array.isArray(body.value) ? body.value : [body.value];
  if (messages.length === 0 || !messages.every(isMessage))
    return problem(400, "body/malformed", "the body must be a JSON-RPC 2.0 message");
  const store = resultStore(env, caller.tenant);

  // read_result is ours: answered here, from this tenant's stored results.
  const [only] = messages;
  if (messages.length === 1 && only && isCall(only) && toolName(only) === "read_result") {
    if (store === undefined)
      return json(200, rpcError(only.id, -32602, "read_result: this proxy keeps no results"));
    const read = createResultReader({ ...edgePreset, maxTokens: params.maxTokens, store });
    const page = await read(argumentsOf(only));
    return json(200, {
      jsonrpc: "2.0",
      id: only.id,
      result: {
        content: [{ type: "text", text: page.text }],
        ...(page.status === "error" ? { isError: true } : {}),
      },
    });
  }

  const calls = new Map<unknown, string>();
  const lists = new Set<unknown>();
  for (const m of messages) {
    if (isCall(m)) calls.set(m.id, toolName(m) ?? "tool");
    else if (m.method === "tools/list" && m.id !== undefined) lists.add(m.id);
  }
  const answer = async (m: Message): Promise<Message> => {
    if (!("id" in m) || !m.result || typeof m.result !== "object") return m;
    const name = calls.get(m.id);
    if (name !== undefined) return shapeResult(m, name, params.maxTokens, store);
    if (lists.has(m.id) && store !== undefined) return withReadResult(m);
    return m;
  };
  return forward(upstream, env, request, { text: JSON.stringify(body.value), answer });
}

/** The upstream to call: a service binding, or the URL (fetched as any subrequest). */
function upstreamOf(env: Env): ((init: Request) => Promise<Response>) | undefined {
  const url = env.UPSTREAM_MCP_URL;
  if (env.UPSTREAM_MCP) {
    const binding = env.UPSTREAM_MCP;
    return (r) => binding.fetch(r);
  }
  if (typeof url !== "string" || !/^https?:\/\//.test(url)) return undefined;
  return (r) => fetch(r);
}

async function forward(
  upstream: (r: Request) => Promise<Response>,
  env: Env,
  request: Request,
  post: { text: string; answer: (m: Message) => Promise<Message> } | undefined,
): Promise<Response> {
  const headers = new Headers();
  for (const name of UP) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (!headers.has("accept")) headers.set("accept", "application/json, text/event-stream");
  if (post) headers.set("content-type", "application/json");
  if (env.UPSTREAM_MCP_TOKEN) headers.set("authorization", `Bearer ${env.UPSTREAM_MCP_TOKEN}`);
  let res: Response;
  try {
    res = await upstream(
      new Request(env.UPSTREAM_MCP_URL || "https://upstream.invalid/mcp", {
        method: request.method,
        headers,
        ...(post ? { body: post.text } : {}),
      }),
    );
  } catch {
    return problem(502, "upstream/unavailable", "the upstream MCP server could not be reached");
  }
  const out = new Headers();
  for (const name of DOWN) {
    const value = res.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  const type = res.headers.get("content-type") ?? "";
  if (post === undefined || res.body === null || res.status === 202)
    return new Response(res.body, { status: res.status, headers: out });
  if (/^application\/json\b/i.test(type)) {
    let value: unknown;
    try {
      value = await res.json();
    } catch {
      return problem(
        502,
        "upstream/unavailable",
        "the upstream MCP server answered with broken JSON",
      );
    }
    const shaped = Array.isArray(value)
      ? await Promise.all(value.map((m) => (isObject(m) ? post.answer(m) : m)))
      : isObject(value)
        ? await post.answer(value)
        : value;
    out.set("content-type", "application/json");
    return new Response(JSON.stringify(shaped), { status: res.status, headers: out });
  }
  if (/^text\/event-stream\b/i.test(type)) {
    out.set("content-type", "text/event-stream");
    out.set("cache-control", "no-store");
    return new Response(sseMessages(res.body, post.answer, edgePreset.maxBytes), {
      status: res.status,
      headers: out,
    });
  }
  // An error page or anything else: 502 with its status, not its body (which may say anything);
  // never its own 401, which a client would read as ours.
  return problem(
    502,
    "upstream/unavailable",
    `the upstream MCP server answered ${res.status} ${type ? `(${type.slice(0, 64)})` : ""}`.trim(),
  );
}

async function shapeResult(
  m: Message,
  tool: string,
  maxTokens: number,
  store: ResultStore | undefined,
): Promise<Message> {
  const pending = store ? createPendingStore(store) : undefined;
  const shapeCall = createCallToolResultShaper({
    ...edgePreset,
    maxTokens,
    tool,
    ...(pending ? { store: pending.store } : {}),
  });
  try {
    const result = await shapeCall(m.result as never);
    const facts = (result._meta as Record<string, unknown> | undefined)?.[MCP_META_KEY] as
      | McpShapedFacts
      | undefined;
    if (pending && facts?.truncated && (await pending.commit())) return { ...m, result };
    pending?.discard();
    // Not kept (it fit whole, or the store refused it): no handle that names nothing.
    return { ...m, result: withoutHandles(result, facts) };
  } catch {
    // A result the MCP entry cannot read is not passed on unshaped.
    return rpcError(m.id, -32603, `airlock: the result of ${tool} could not be shaped`);
  }
}

function withoutHandles(
  result: Awaited<ReturnType<ReturnType<typeof createCallToolResultShaper>>>,
  facts: McpShapedFacts | undefined,
) {
  if (facts === undefined || (facts.handle === undefined && !facts.listed.some((f) => f.handle)))
    return result;
  const { handle: _handle, ...rest } = facts;
  const listed = rest.listed.map(({ handle: _h, cursor: _c, ...f }) => f);
  return { ...result, _meta: { ...result._meta, [MCP_META_KEY]: { ...rest, listed } } };
}

function withReadResult(m: Message): Message {
  const result = m.result as { tools?: unknown };
  if (!Array.isArray(result.tools)) return m;
  if (result.tools.some((t) => isObject(t) && t.name === READ_RESULT_TOOL.name)) return m;
  const tool = {
    name: READ_RESULT_TOOL.name,
    description: READ_RESULT_TOOL.description,
    inputSchema: READ_RESULT_TOOL.inputSchema,
  };
  return { ...m, result: { ...result, tools: [...result.tools, tool] } };
}

function rpcError(id: unknown, code: number, message: string): Message {
  return { jsonrpc: "2.0", id: id ?? null, error: { code, message } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isMessage(v: unknown): v is Message {
  return isObject(v) && v.jsonrpc === "2.0";
}

function isCall(m: Message): boolean {
  return m.method === "tools/call" && m.id !== undefined;
}

function toolName(m: Message): string | undefined {
  const name = isObject(m.params) ? m.params.name : undefined;
  return typeof name === "string" ? name.slice(0, 64) : undefined;
}

function argumentsOf(m: Message): unknown {
  return isObject(m.params) ? m.params.arguments : undefined;
}
