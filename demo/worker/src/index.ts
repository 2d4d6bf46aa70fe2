/**
 * airlock at the edge: a Cloudflare Worker that shapes tool results for agents, keeps what did
 * not fit in KV and R2 behind handles, and answers `read_result` calls on them.
 *
 *   POST /shape   body: a tool output (any content type); query or headers: tool, maxTokens
 *   POST /read    body: read_result arguments as JSON
 *   /mcp          streamable-HTTP MCP proxy in front of UPSTREAM_MCP_URL
 *   GET  /raw/:id a raw artifact, for tokens allowed to read them
 *
 * Every route needs `Authorization: Bearer <token>` (see auth.ts). docs/edge.md has the
 * configuration and deployment.
 */
import { authenticate } from "./auth.js";
import type { Env } from "./env.js";
import { problem } from "./http.js";
import { mcpRoute } from "./routes/mcp.js";
import { rawRoute } from "./routes/raw.js";
import { readRoute } from "./routes/read.js";
import { sessionRoute } from "./routes/session.js";
import { shapeRoute } from "./routes/shape.js";

export { SessionObject } from "./routes/session.js";

const CHALLENGE = { "www-authenticate": 'Bearer realm="airlock"' };

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      return await route(request, env);
    } catch (error) {
      // The caller learns that it failed, not how: no stack, no message of ours or of a binding.
      console.error("airlock worker:", error);
      return problem(500, "internal", "the request failed inside the Worker");
    }
  },
};

async function route(request: Request, env: Env): Promise<Response> {
  const { pathname } = new URL(request.url);
  const verdict = await authenticate(request, env.AIRLOCK_TOKENS);
  if (!verdict.ok) {
    if (verdict.reason === "misconfigured")
      return problem(500, "auth/misconfigured", "the Worker's token map is missing or invalid");
    return verdict.reason === "missing"
      ? problem(401, "auth/missing", "an Authorization: Bearer token is required", CHALLENGE)
      : problem(401, "auth/invalid", "the bearer token is not valid", CHALLENGE);
  }
  const caller = verdict.caller;
  if (pathname === "/shape") {
    if (request.method !== "POST") return methodNotAllowed("POST");
    return shapeRoute(request, env, caller);
  }
  if (pathname === "/read") {
    if (request.method !== "POST") return methodNotAllowed("POST");
    return readRoute(request, env, caller);
  }
  if (pathname === "/mcp") return mcpRoute(request, env, caller);
  const session = /^\/session\/([^/]{1,64})\/([a-z]{1,16})$/.exec(pathname);
  if (session)
    return sessionRoute(request, env, caller, session[1] as string, session[2] as string);
  const raw = /^\/raw\/([^/]{1,64})$/.exec(pathname);
  if (raw) {
    if (request.method !== "GET") return methodNotAllowed("GET");
    return rawRoute(raw[1] as string, env, caller);
  }
  return problem(
    404,
    "route/not-found",
    "no such route: POST /shape, POST /read, /mcp, GET /raw/:id, POST /session/:id/shape, GET /session/:id/view",
  );
}

function methodNotAllowed(allow: string): Response {
  return problem(405, "route/method", `this route takes ${allow}`, { allow });
}
