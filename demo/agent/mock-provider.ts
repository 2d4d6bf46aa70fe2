/**
 * An OpenAI-compatible endpoint for the agent page's real-model path, served by the demo's own
 * server (`npm run demo`, `vite preview`): `POST /v1/chat/completions` answers with the scripted
 * investigation (script.ts), read from the messages the request carries, as a real model reads
 * them, as JSON or as a stream of server-sent events. So the page's provider path
 * (`@ai-sdk/openai`, a key, a cross-origin fetch its CSP must allow) runs end to end with no
 * key and no network: open `/agent/?provider=http://localhost:5173/v1`.
 *
 * It checks that a key was sent and never keeps or prints it. It keeps the bodies of the last
 * requests (`api.requests`), so a test can read exactly what reached the "provider".
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Connect, Plugin } from "vite";
import { type Move, nextMove, type SeenCall, type Transcript } from "./script.ts";

export const MOCK_PROVIDER = "airlock-agent:mock-provider";
/** Request bodies larger than this are refused (a run's messages are a few hundred KB). */
const MAX_BODY = 8 << 20;
const KEPT_REQUESTS = 64;

export interface MockProviderApi {
  /** The JSON bodies of the last requests, oldest first. */
  readonly requests: unknown[];
}

interface ChatMessage {
  readonly role?: string;
  readonly content?: unknown;
  readonly tool_call_id?: string;
  readonly tool_calls?: ReadonlyArray<{
    readonly id?: string;
    readonly function?: { readonly name?: string; readonly arguments?: string };
  }>;
}

/** A message's content as text: a string, or the text of its parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof part?.text === "string" ? (part.text as string) : ""))
    .join("");
}

/** What the model has read, from an OpenAI Chat Completions request's messages. */
export function transcriptOfChat(messages: readonly ChatMessage[]): Transcript {
  const calls: SeenCall[] = [];
  const results = new Map<string, string>();
  let question = "";
  for (const m of messages) {
    if (m.role === "user" && question === "") question = contentText(m.content);
    if (m.role === "assistant") {
      for (const c of m.tool_calls ?? []) {
        let args: unknown = {};
        try {
          args = JSON.parse(c.function?.arguments ?? "{}");
        } catch {}
        calls.push({ id: c.id ?? "", name: c.function?.name ?? "", args });
      }
    }
    if (m.role === "tool" && typeof m.tool_call_id === "string")
      results.set(m.tool_call_id, contentText(m.content));
  }
  return {
    question,
    calls: calls.map((c) => {
      const result = results.get(c.id);
      return result === undefined ? c : { ...c, result };
    }),
  };
}

/** An origin the mock answers across origins: this machine's only. */
function loopbackOrigin(origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  try {
    const url = new URL(origin);
    return url.protocol === "http:" &&
      ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) &&
      url.origin === origin
      ? origin
      : undefined;
  } catch {
    return undefined;
  }
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_BODY) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify(body));
}

/** The move as Chat Completions answers it: one message, or the chunks of its stream. */
function completion(move: Move, calls: number, model: string) {
  const id = `chatcmpl-mock-${calls + 1}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCall =
    move.kind === "call"
      ? {
          id: `call_${calls + 1}`,
          type: "function" as const,
          function: { name: move.name, arguments: JSON.stringify(move.args) },
        }
      : undefined;
  const text = move.kind === "call" ? move.say : move.text;
  const finish = toolCall ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const message = {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: text,
          ...(toolCall ? { tool_calls: [toolCall] } : {}),
        },
        finish_reason: finish,
      },
    ],
    usage,
  };
  const chunk = (choice: object | undefined, extra: object = {}) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: choice === undefined ? [] : [{ index: 0, finish_reason: null, ...choice }],
    ...extra,
  });
  const chunks = [
    chunk({ delta: { role: "assistant", content: "" } }),
    ...(text.match(/(?:\S+\s*){1,4}|\s+/g) ?? []).map((words) =>
      chunk({ delta: { content: words } }),
    ),
    ...(toolCall ? [chunk({ delta: { tool_calls: [{ index: 0, ...toolCall }] } })] : []),
    chunk({ delta: {}, finish_reason: finish }),
    chunk(undefined, { usage }),
  ];
  return { message, chunks };
}

/**
 * The mock endpoint as a Vite plugin, for the dev server and `vite preview`.
 *
 * @example
 * export default defineConfig({ plugins: [mockProvider()] });
 */
export function mockProvider(): Plugin & { api: MockProviderApi } {
  const api: MockProviderApi = { requests: [] };
  const handle: Connect.NextHandleFunction = (req, res, next) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/v1/chat/completions") return next();
    const origin = loopbackOrigin(req.headers.origin);
    if (origin !== undefined) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
    }
    if (req.method === "OPTIONS") {
      const asked = String(req.headers["access-control-request-headers"] ?? "");
      res.statusCode = 204;
      res.setHeader("Access-Control-Allow-Methods", "POST");
      if (/^[\w\s,-]*$/.test(asked)) res.setHeader("Access-Control-Allow-Headers", asked);
      res.setHeader("Access-Control-Max-Age", "600");
      res.end();
      return;
    }
    if (req.method !== "POST") return send(res, 405, { error: { message: "use POST" } });
    // The key is checked for presence only, and never kept or printed.
    if (!/^Bearer \S+/.test(String(req.headers.authorization ?? ""))) {
      return send(res, 401, {
        error: { message: "no API key was sent", type: "invalid_request_error" },
      });
    }
    readBody(req).then(
      (text) => {
        if (text === undefined) return send(res, 413, { error: { message: "body too large" } });
        let body: { model?: unknown; messages?: unknown; stream?: unknown };
        try {
          body = JSON.parse(text);
        } catch {
          return send(res, 400, { error: { message: "the body is not JSON" } });
        }
        if (!Array.isArray(body.messages))
          return send(res, 400, { error: { message: "messages must be a list" } });
        api.requests.push(body);
        if (api.requests.length > KEPT_REQUESTS) api.requests.shift();
        const transcript = transcriptOfChat(body.messages as ChatMessage[]);
        const { message, chunks } = completion(
          nextMove(transcript),
          transcript.calls.length,
          typeof body.model === "string" ? body.model : "mock",
        );
        if (body.stream !== true) return send(res, 200, message);
        res.statusCode = 200;
        res.setHeader("Content-Type", "text/event-stream");
        res.setHeader("Cache-Control", "no-cache");
        for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        res.end("data: [DONE]\n\n");
      },
      (error: unknown) => next(error),
    );
  };
  return {
    name: MOCK_PROVIDER,
    api,
    configureServer(server) {
      server.middlewares.use(handle);
    },
    configurePreviewServer(server) {
      server.middlewares.use(handle);
    },
  };
}
