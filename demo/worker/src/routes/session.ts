/**
 * A session per conversation (docs/session.md), for its tenant, in a Durable Object:
 *
 *   POST /session/:id/shape?callId=…[&key=…][&tool=…][&maxTokens=…][&maxRunTokens=…]   body: a tool output
 *   GET  /session/:id/view
 *
 * The object is named by the tenant and the id together, so one tenant's conversation is never
 * another's, whatever id it picks; the tenant reaches the object only from this route, after
 * the bearer token was checked. The session's state (`toJSON()`) is written to the object's
 * storage after every change and read back when the object starts again (an eviction, a
 * deploy); its results live in the tenant's KV/R2 store, by handle, for `POST /read`.
 * `maxRunTokens` is fixed by the conversation's first result (default AIRLOCK_MAX_RUN_TOKENS,
 * else 32000).
 */
import {
  AirlockError,
  createSession,
  edgePreset,
  MIN_MAX_TOKENS,
  type Session,
  type SessionState,
} from "agent-airlock/edge/o200k_base";
import type { Caller } from "../auth.js";
import { type Env, intVar } from "../env.js";
import { countBody, declaredLength, decodedBody, json, problem, tooLarge } from "../http.js";
import { shapeParams } from "../params.js";
import { resultStore, ttlMsOf } from "../stores.js";

const ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const TENANT_HEADER = "x-airlock-tenant";
/** The session's state in the object's storage. */
const KEY = "session";

/** The few methods of a Durable Object's storage the session uses. */
interface Storage {
  get<T>(key: string): Promise<T | undefined>;
  put(key: string, value: unknown): Promise<void>;
  deleteAll(): Promise<void>;
  setAlarm(at: number): Promise<void>;
}

interface Saved {
  readonly maxRunTokens: number;
  readonly state: SessionState;
}

/**
 * `/session/:id/shape` and `/session/:id/view`, forwarded to the conversation's object.
 *
 * @example
 * await sessionRoute(request, env, caller, "conv_1", "shape");
 */
export async function sessionRoute(
  request: Request,
  env: Env,
  caller: Caller,
  id: string,
  action: string,
): Promise<Response> {
  if (!ID.test(id))
    return problem(
      400,
      "params/invalid",
      "the session id must be 1 to 64 letters, digits or _ . : -",
    );
  const want = action === "shape" ? "POST" : action === "view" ? "GET" : undefined;
  if (want === undefined)
    return problem(
      404,
      "route/not-found",
      "a session takes POST /session/:id/shape and GET /session/:id/view",
    );
  if (request.method !== want)
    return problem(405, "route/method", `this route takes ${want}`, { allow: want });
  const declared = declaredLength(request);
  if (declared !== undefined && declared > edgePreset.maxBytes)
    return tooLarge(edgePreset.maxBytes);
  const sessions = env.SESSIONS;
  if (sessions === undefined)
    return problem(501, "session/unavailable", "this Worker has no SESSIONS binding");
  // The tenant is part of the object's name: the same id of two tenants is two objects.
  const stub = sessions.get(sessions.idFromName(`${caller.tenant}\n${id}`));
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.delete("authorization");
  headers.set(TENANT_HEADER, caller.tenant);
  return stub.fetch(
    new Request(`https://session/${action}${url.search}`, {
      method: request.method,
      headers,
      ...(want === "POST" ? { body: request.body } : {}),
    }),
  );
}

/**
 * The Durable Object that holds one conversation's session. Requests reach it only through
 * `sessionRoute`, which says whose it is.
 */
export class SessionObject {
  private session: Session | undefined;
  private maxRunTokens = 0;
  private readonly storage: Storage;

  constructor(
    state: { readonly storage: Storage },
    private readonly env: Env,
  ) {
    this.storage = state.storage;
  }

  async fetch(request: Request): Promise<Response> {
    const tenant = request.headers.get(TENANT_HEADER);
    if (tenant === null)
      return problem(403, "session/direct", "a session is reached through its route");
    const url = new URL(request.url);
    try {
      if (url.pathname === "/view") {
        const session = await this.open(tenant, undefined, false);
        if (session === undefined) return json(200, { view: [], stats: undefined });
        const view = session.view();
        await this.save(session);
        return json(200, { view, stats: session.stats() });
      }
      return await this.shape(request, url, tenant);
    } catch (error) {
      if (request.body) await drain(request.body);
      if (error instanceof AirlockError && error.code === "options/invalid")
        return problem(400, "params/invalid", error.message);
      throw error;
    }
  }

  private async shape(request: Request, url: URL, tenant: string): Promise<Response> {
    const refused = this.refusal(request, url);
    if (refused !== undefined) {
      if (request.body) await drain(request.body);
      return refused;
    }
    const callId = url.searchParams.get("callId") as string;
    const key = url.searchParams.get("key");
    const ceiling = url.searchParams.get("maxRunTokens");
    const params = shapeParams(
      request,
      intVar(this.env.AIRLOCK_MAX_TOKENS, 32_000, MIN_MAX_TOKENS),
    ) as Exclude<ReturnType<typeof shapeParams>, string>;
    const session = (await this.open(
      tenant,
      ceiling === null ? undefined : Number(ceiling),
      true,
    )) as Session;
    const decoded = decodedBody(request) as ReadableStream<Uint8Array>;
    const limit = edgePreset.maxBytes;
    const body = countBody(decoded, limit);
    let shaped: Awaited<ReturnType<Session["shape"]>>;
    try {
      shaped = await session.shape(body.stream, {
        callId,
        // A re-run of the conversation's latest result under this key (docs/session.md).
        ...(key !== null ? { key } : {}),
        maxTokens: params.maxTokens,
        ...(params.tool !== undefined ? { tool: params.tool } : {}),
        ...(params.contentType !== undefined ? { contentType: params.contentType } : {}),
      });
    } catch (error) {
      // Refused before the body was read (a repeated call id).
      await drain(body.stream);
      throw error;
    }
    if (body.exceeded() || body.failed()) {
      // Not recorded: the session goes back to its state before this call (in storage), and the
      // call id is free for a retry.
      this.session = undefined;
      return body.exceeded()
        ? tooLarge(limit)
        : problem(400, "body/malformed", "the body could not be read to its end");
    }
    await this.save(session);
    // What the model reads of every result, this one included, is GET /session/:id/view.
    return json(200, {
      text: shaped.text,
      status: shaped.status,
      meta: shaped.meta,
      stats: session.stats(),
    });
  }

  /** What is wrong with a shape request's parameters, as its answer; undefined when nothing is. */
  private refusal(request: Request, url: URL): Response | undefined {
    const callId = url.searchParams.get("callId");
    if (callId === null || !ID.test(callId))
      return problem(400, "params/invalid", "callId must be 1 to 64 letters, digits or _ . : -");
    const ceiling = url.searchParams.get("maxRunTokens");
    const most = this.mostRunTokens();
    if (ceiling !== null && (!/^\d{1,9}$/.test(ceiling) || Number(ceiling) > most))
      return problem(400, "params/invalid", `maxRunTokens must be a whole number up to ${most}`);
    const params = shapeParams(
      request,
      intVar(this.env.AIRLOCK_MAX_TOKENS, 32_000, MIN_MAX_TOKENS),
    );
    if (typeof params === "string") return problem(400, "params/invalid", params);
    const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
    if (!["identity", "", "gzip", "deflate"].includes(encoding))
      return problem(415, "body/unsupported", "content-encoding must be gzip, deflate or identity");
    return undefined;
  }

  /** The session, from memory or from storage; made by the first result (`create`). */
  private async open(
    tenant: string,
    ceiling: number | undefined,
    create: boolean,
  ): Promise<Session | undefined> {
    if (this.session !== undefined) return this.session;
    const saved = await this.storage.get<Saved>(KEY);
    if (saved === undefined && !create) return undefined;
    const maxRunTokens = saved?.maxRunTokens ?? ceiling ?? this.mostRunTokens();
    const store = resultStore(this.env, tenant);
    const session = createSession({
      ...edgePreset,
      maxRunTokens,
      ...(store ? { store } : {}),
      ...(saved ? { restore: saved.state } : {}),
    });
    this.maxRunTokens = maxRunTokens;
    this.session = session;
    return session;
  }

  /** The largest ceiling a conversation may ask for, and the default: its state stays small. */
  private mostRunTokens(): number {
    return intVar(this.env.AIRLOCK_MAX_RUN_TOKENS, 32_000, 256);
  }

  /** Past the stores' TTL with no request, the conversation is let go, as its results are. */
  async alarm(): Promise<void> {
    this.session = undefined;
    await this.storage.deleteAll();
  }

  private async save(session: Session): Promise<void> {
    await this.storage.setAlarm(Date.now() + ttlMsOf(this.env));
    return this.storage.put(KEY, {
      maxRunTokens: this.maxRunTokens,
      state: session.toJSON(),
    } satisfies Saved);
  }
}

/**
 * Reads a body to its end, up to the byte cap (then it is cancelled): a body left unread would
 * still be sent by the Worker in front after this object answered.
 */
async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  let bytes = 0;
  try {
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      bytes += r.value.byteLength;
      if (bytes > edgePreset.maxBytes) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // a body that breaks off, or one already being read, is as good as read
  }
}
