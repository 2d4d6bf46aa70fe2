/**
 * `/mcp`: a streamable-HTTP MCP proxy in front of the upstream MCP server of the Worker's
 * configuration (`UPSTREAM_MCP_URL`, or a service binding `UPSTREAM_MCP`). Messages go upstream
 * as they came (with the upstream's own token, never the caller's), except `read_result` calls,
 * which the proxy answers itself from the caller's stored results, alone or in a batch.
 *
 * On the way back every message is matched before it is passed on (see `Exchange`): an answer
 * must answer a request this POST forwarded, by its id and the id's type (`2` and `"2"` are two
 * ids), once. Each `tools/call` result is shaped with the MCP entry for the caller's budget, its
 * full text kept for the caller's tenant; `tools/list` gains `read_result`; an error is passed
 * on redacted and bounded. An answer the proxy cannot match is dropped, and each request left
 * without an answer gets a JSON-RPC error of the proxy's for its own id. Answers come back as
 * the upstream sent them: one JSON body (read within the edge byte cap), or an event stream
 * re-emitted event by event (each event within the same cap).
 *
 * Sessions are bound to the tenant that opened them (session.ts): another tenant's
 * `mcp-session-id` is a session that does not exist, 404.
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
  MIN_READ_TOKENS,
  READ_RESULT_TOOL,
  type ResultStore,
  redact,
} from "agent-airlock/edge/o200k_base";
import type { Caller } from "../auth.js";
import { type Env, intVar } from "../env.js";
import { countBody, json, problem, readJson } from "../http.js";
import { shapeParams } from "../params.js";
import { bindSession, openSession } from "../session.js";
import { resultStore } from "../stores.js";
import { sseMessages } from "./sse.js";

/** JSON-RPC messages from an MCP client are small; tool arguments included. */
const MAX_REQUEST_BYTES = 1 << 20;
/** An upstream answer, one JSON body or one event: the edge byte cap, as for `/shape`. */
const MAX_ANSWER_BYTES = edgePreset.maxBytes;
/** An upstream error's message, and its `data` as JSON, once redacted. */
const MAX_ERROR_MESSAGE_CHARS = 1000;
const MAX_ERROR_DATA_CHARS = 2000;
/** How much of a longer error text is redacted before the cut. */
const REDACT_WINDOW_CHARS = 64 * 1024;
/** Headers of the transport that go upstream and back (`mcp-session-id` apart: bound). */
const UP = ["accept", "mcp-protocol-version", "last-event-id"];
const DOWN = ["mcp-protocol-version"];

type Id = string | number;
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
  if (request.method !== "POST" && request.method !== "DELETE")
    return problem(405, "route/method", "use POST (or DELETE to end a session)", {
      allow: "POST, DELETE",
    });
  // A session is the tenant's that opened it; any other id is a session that does not exist.
  const secret = env.AIRLOCK_TOKENS ?? "";
  const presented = request.headers.get("mcp-session-id");
  const session =
    presented === null ? undefined : await openSession(secret, caller.tenant, presented);
  if (presented !== null && session === undefined)
    return problem(404, "session/not-found", "no such MCP session: initialize a new one");
  const link: Link = {
    upstream,
    env,
    request,
    session,
    bind: (id) => bindSession(secret, caller.tenant, id),
  };
  // What DELETE gets back passes as any answer does: with no request to answer, only an error.
  if (request.method === "DELETE")
    return forward(link, { batch: false, local: [], exchange: new Exchange([], 0, undefined) });

  const params = shapeParams(request, intVar(env.AIRLOCK_MAX_TOKENS, 32_000, 16));
  if (typeof params === "string") return problem(400, "params/invalid", params);
  const body = await readJson(request, MAX_REQUEST_BYTES);
  if (body instanceof Response) return body;
  const batch = Array.isArray(body.value);
  const messages = batch ? (body.value as unknown[]) : [body.value];
  if (messages.length === 0 || !messages.every(isMessage))
    return problem(400, "body/malformed", "the body must be a JSON-RPC 2.0 message");
  const ids = new Set<string>();
  for (const m of messages) {
    if (!isRequest(m)) continue;
    const key = idKey(m.id);
    if (key === undefined)
      return problem(400, "body/malformed", "a request's id must be a string or a number");
    if (ids.has(key))
      return problem(400, "body/malformed", "the requests of a batch must have distinct ids");
    ids.add(key);
  }
  const store = resultStore(env, caller.tenant);

  // read_result is ours: answered here, from this tenant's stored results, in a batch too.
  const local: Message[] = [];
  const onward: Message[] = [];
  for (const m of messages) {
    if (isRequest(m) && m.method === "tools/call" && toolName(m) === READ_RESULT_TOOL.name)
      local.push(await readResult(m, params.maxTokens, store));
    else onward.push(m);
  }
  if (onward.length === 0) return json(200, batch ? local : local[0]);

  const exchange = new Exchange(onward, params.maxTokens, store);
  const text = JSON.stringify(batch ? onward : onward[0]);
  return forward(link, { text, batch, local, exchange });
}

async function readResult(
  m: Message,
  maxTokens: number,
  store: ResultStore | undefined,
): Promise<Message> {
  const id = m.id as Id;
  if (store === undefined) return rpcError(id, -32602, "read_result: this proxy keeps no results");
  // A page needs room for a line and the call that reads on (the library refuses less).
  if (maxTokens < MIN_READ_TOKENS)
    return rpcError(id, -32602, `read_result: maxTokens must be at least ${MIN_READ_TOKENS}`);
  const read = createResultReader({ ...edgePreset, maxTokens, store });
  const page = await read(argumentsOf(m));
  return {
    jsonrpc: "2.0",
    id,
    result: {
      content: [{ type: "text", text: page.text }],
      ...(page.status === "error" ? { isError: true } : {}),
    },
  };
}

/**
 * The requests one POST forwarded, and how each of their answers comes back. An answer (a
 * message with `result` or `error`, or with no `method`) is passed on only as the answer of a
 * request forwarded here and not answered yet, found by its id's JSON-RPC identity: the same
 * type and value. It is then rebuilt (`jsonrpc`, the request's own id, `result` or `error`,
 * nothing else): a `tools/call` result shaped, a `tools/list` result with `read_result`, an
 * error redacted and bounded. Any other answer (an id never forwarded, of another type, one
 * already answered) is dropped; an error with no id (JSON-RPC's null, for a request the server
 * could not read) is passed on redacted and bounded, as every error is. What the server sends
 * of its own (notifications, its requests to the client) passes as it came.
 */
class Exchange {
  private readonly pending = new Map<string, { id: Id; method: string; tool: string }>();

  constructor(
    forwarded: readonly Message[],
    private readonly maxTokens: number,
    private readonly store: ResultStore | undefined,
  ) {
    for (const m of forwarded) {
      if (!isRequest(m)) continue;
      const id = m.id as Id;
      this.pending.set(idKey(id) as string, {
        id,
        method: m.method as string,
        tool: toolName(m) ?? "tool",
      });
    }
  }

  /** The message to pass on in place of one the upstream sent, or undefined to drop it. */
  async answer(value: unknown): Promise<Message | undefined> {
    if (!isMessage(value)) return undefined;
    const isAnswer = "result" in value || "error" in value || !("method" in value);
    if (!isAnswer) return typeof value.method === "string" ? value : undefined;
    const key = idKey(value.id);
    const request = key === undefined ? undefined : this.pending.get(key);
    if (key === undefined || request === undefined) {
      const idless = value.id === undefined || value.id === null;
      if (idless && "error" in value && !("result" in value))
        return upstreamError(null, value.error);
      return undefined;
    }
    // Claimed before anything is awaited: a second answer to the same id is dropped.
    this.pending.delete(key);
    const { id } = request;
    if ("error" in value && !("result" in value)) return upstreamError(id, value.error);
    if (!("result" in value) || "error" in value)
      return rpcError(id, -32603, "airlock: the upstream's answer to this request is malformed");
    if (request.method === "tools/call")
      return shapeResult(id, value.result, request.tool, this.maxTokens, this.store);
    const result =
      request.method === "tools/list" && this.store !== undefined
        ? withReadResult(value.result)
        : value.result;
    return { jsonrpc: "2.0", id, result };
  }

  /** A JSON-RPC error for each request still without an answer, which it then has. */
  unanswered(message: string): Message[] {
    const errors = [...this.pending.values()].map((r) => rpcError(r.id, -32603, message));
    this.pending.clear();
    return errors;
  }
}

const NO_ANSWER = "airlock: the upstream sent no answer the proxy could match to this request";
const TOO_LARGE = `airlock: the upstream's answer is larger than the proxy's cap of ${MAX_ANSWER_BYTES} bytes`;
const BROKE_OFF = "airlock: the upstream's event stream broke off before it answered this request";

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

interface Link {
  readonly upstream: (r: Request) => Promise<Response>;
  readonly env: Env;
  readonly request: Request;
  /** The upstream's session id, once the caller's was found to be its tenant's. */
  readonly session: string | undefined;
  readonly bind: (upstreamId: string) => Promise<string | undefined>;
}

interface Post {
  /** The messages to send (none for a DELETE). */
  readonly text?: string;
  /** The client sent a batch. */
  readonly batch: boolean;
  /** The proxy's own answers (read_result), sent first. */
  readonly local: readonly Message[];
  readonly exchange: Exchange;
}

async function forward(link: Link, post: Post): Promise<Response> {
  const { env, request } = link;
  const headers = new Headers();
  for (const name of UP) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (link.session !== undefined) headers.set("mcp-session-id", link.session);
  if (!headers.has("accept")) headers.set("accept", "application/json, text/event-stream");
  if (post.text !== undefined) headers.set("content-type", "application/json");
  if (env.UPSTREAM_MCP_TOKEN) headers.set("authorization", `Bearer ${env.UPSTREAM_MCP_TOKEN}`);
  let res: Response;
  try {
    res = await link.upstream(
      new Request(env.UPSTREAM_MCP_URL || "https://upstream.invalid/mcp", {
        method: request.method,
        headers,
        ...(post.text !== undefined ? { body: post.text } : {}),
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
  const upstreamSession = res.headers.get("mcp-session-id");
  const bound = upstreamSession === null ? undefined : await link.bind(upstreamSession);
  if (bound !== undefined) out.set("mcp-session-id", bound);
  const type = res.headers.get("content-type") ?? "";
  const { exchange } = post;
  /** The proxy's answers, the upstream's, and errors for what went unanswered, as one body. */
  const reply = (status: number, answers: Message[], unanswered: string): Response => {
    const all = [...post.local, ...answers, ...exchange.unanswered(unanswered)];
    if (all.length === 0)
      return new Response(null, { status: post.text === undefined ? status : 202, headers: out });
    out.set("content-type", "application/json");
    const value = post.batch || all.length > 1 ? all : all[0];
    return new Response(JSON.stringify(value), { status, headers: out });
  };
  if (res.body === null || res.status === 202) {
    await res.body?.cancel().catch(() => {});
    // Nothing to read: the proxy's own answers, or errors for requests the upstream left.
    return reply(res.status === 202 && post.text !== undefined ? 200 : res.status, [], NO_ANSWER);
  }
  if (/^application\/json\b/i.test(type)) {
    const read = await readAnswer(res);
    if (read === "too-large") return reply(200, [], TOO_LARGE);
    if (read === "broken")
      return problem(
        502,
        "upstream/unavailable",
        "the upstream MCP server answered with broken JSON",
      );
    const values = Array.isArray(read.value) ? read.value : [read.value];
    const answers = await Promise.all(values.map((v) => exchange.answer(v)));
    return reply(
      res.status,
      answers.filter((m): m is Message => m !== undefined),
      NO_ANSWER,
    );
  }
  if (post.text === undefined) {
    // A DELETE: its status, and no body that is not an error (above).
    await res.body.cancel().catch(() => {});
    return new Response(null, { status: res.status, headers: out });
  }
  if (/^text\/event-stream\b/i.test(type)) {
    out.set("content-type", "text/event-stream");
    out.set("cache-control", "no-store");
    const stream = sseMessages(
      res.body,
      {
        async data(text) {
          // A priming event's empty data (an id to resume from) passes as it is.
          if (text === "") return "";
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch {
            return undefined;
          }
          if (!Array.isArray(value)) {
            const m = await exchange.answer(value);
            return m === undefined ? undefined : JSON.stringify(m);
          }
          const kept = (await Promise.all(value.map((v) => exchange.answer(v)))).filter(
            (m) => m !== undefined,
          );
          return kept.length === 0 ? undefined : JSON.stringify(kept);
        },
        end(cause) {
          const message =
            cause === "too-large" ? TOO_LARGE : cause === "failed" ? BROKE_OFF : NO_ANSWER;
          return exchange.unanswered(message).map((m) => JSON.stringify(m));
        },
      },
      MAX_ANSWER_BYTES,
      post.local.map((m) => JSON.stringify(m)),
    );
    return new Response(stream, { status: res.status, headers: out });
  }
  await res.body.cancel().catch(() => {});
  // An error page or anything else: 502 with its status, not its body (which may say anything);
  // never its own 401, which a client would read as ours.
  return problem(
    502,
    "upstream/unavailable",
    `the upstream MCP server answered ${res.status} ${type ? `(${type.slice(0, 64)})` : ""}`.trim(),
  );
}

/**
 * A JSON answer, read as it arrives within the byte cap (a declared length over it is not
 * read at all): its value, "too-large", or "broken" (not JSON, or the body failed).
 */
async function readAnswer(res: Response): Promise<{ value: unknown } | "too-large" | "broken"> {
  const body = res.body as ReadableStream<Uint8Array>;
  const declared = res.headers.get("content-length");
  if (declared !== null && /^\d{1,16}$/.test(declared) && Number(declared) > MAX_ANSWER_BYTES) {
    await body.cancel().catch(() => {});
    return "too-large";
  }
  const counted = countBody(body, MAX_ANSWER_BYTES);
  let text: string;
  try {
    text = await new Response(counted.stream).text();
  } catch {
    return counted.exceeded() ? "too-large" : "broken";
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return "broken";
  }
}

async function shapeResult(
  id: Id,
  value: unknown,
  tool: string,
  maxTokens: number,
  store: ResultStore | undefined,
): Promise<Message> {
  // A result the MCP entry cannot read is not passed on unshaped.
  const failed = rpcError(id, -32603, `airlock: the result of ${tool} could not be shaped`);
  if (!isObject(value)) return failed;
  const pending = store ? createPendingStore(store) : undefined;
  const shapeCall = createCallToolResultShaper({
    ...edgePreset,
    maxTokens,
    tool,
    ...(pending ? { store: pending.store } : {}),
  });
  try {
    const result = await shapeCall(value as never);
    const facts = (result._meta as Record<string, unknown> | undefined)?.[MCP_META_KEY] as
      | McpShapedFacts
      | undefined;
    if (pending && facts?.truncated && (await pending.commit()))
      return { jsonrpc: "2.0", id, result };
    pending?.discard();
    // Not kept (it fit whole, or the store refused it): no handle that names nothing.
    return { jsonrpc: "2.0", id, result: withoutHandles(result, facts) };
  } catch {
    pending?.discard();
    return failed;
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

function withReadResult(value: unknown): unknown {
  if (!isObject(value) || !Array.isArray(value.tools)) return value;
  if (value.tools.some((t) => isObject(t) && t.name === READ_RESULT_TOOL.name)) return value;
  const tool = {
    name: READ_RESULT_TOOL.name,
    description: READ_RESULT_TOOL.description,
    inputSchema: READ_RESULT_TOOL.inputSchema,
  };
  return { ...value, tools: [...value.tools, tool] };
}

/**
 * An upstream error as it is passed on: an integer code (else -32603), the message and `data`
 * redacted (`redact()`) and cut with a declared cut, nothing else of it.
 */
function upstreamError(id: Id | null, error: unknown): Message {
  const e = isObject(error) ? error : {};
  const code = typeof e.code === "number" && Number.isSafeInteger(e.code) ? e.code : -32603;
  const message =
    typeof e.message === "string"
      ? bounded(e.message, MAX_ERROR_MESSAGE_CHARS)
      : "the upstream MCP server reported an error";
  const data = e.data === undefined ? undefined : boundedData(e.data);
  return { jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

/**
 * Text redacted, then at most `max` characters: a longer text is cut there and says so, with
 * its length. Only its first 64 KiB are read (what could start a token at that edge is left
 * out before redacting).
 */
function bounded(text: string, max: number): string {
  let window = text;
  if (text.length > REDACT_WINDOW_CHARS) {
    let end = REDACT_WINDOW_CHARS;
    while (end > 0 && !/\s/.test(text[end - 1] as string)) end--;
    window = text.slice(0, end);
  }
  const redacted = redact(window).text;
  if (redacted.length <= max && window.length === text.length) return redacted;
  let cut = redacted.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut} [airlock: cut to ${max} of ${text.length} characters]`;
}

/** An error's `data`: its JSON redacted, as JSON again when it fits; else a bounded string. */
function boundedData(data: unknown): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  if (text.length > MAX_ERROR_DATA_CHARS) return bounded(text, MAX_ERROR_DATA_CHARS);
  const redacted = redact(text).text;
  try {
    return JSON.parse(redacted);
  } catch {
    return redacted;
  }
}

function rpcError(id: Id | null, code: number, message: string): Message {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** An id by its JSON-RPC identity: its type and its value; undefined for one that is neither. */
function idKey(id: unknown): string | undefined {
  if (typeof id === "string") return `s${id}`;
  if (typeof id === "number" && Number.isFinite(id)) return `n${id}`;
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isMessage(v: unknown): v is Message {
  return isObject(v) && v.jsonrpc === "2.0";
}

/** A request of the client's (a method and an id), which the upstream must answer. */
function isRequest(m: Message): boolean {
  return typeof m.method === "string" && "id" in m;
}

function toolName(m: Message): string | undefined {
  const name = isObject(m.params) ? m.params.name : undefined;
  return typeof name === "string" ? name.slice(0, 64) : undefined;
}

function argumentsOf(m: Message): unknown {
  return isObject(m.params) ? m.params.arguments : undefined;
}
