/**
 * `GET /raw/:id`: a raw artifact, as the tool returned it (unredacted), for a token whose map
 * entry allows it (`"raw": true`: a person's, never an agent's). Decrypted with the Worker's
 * key as it streams out; the id is the `raw.id` of a `POST /shape` answer, of the same tenant.
 */
import type { Caller } from "../auth.js";
import type { Env } from "../env.js";
import { problem } from "../http.js";
import { rawStore } from "../stores.js";

export async function rawRoute(id: string, env: Env, caller: Caller): Promise<Response> {
  if (!caller.raw) return problem(403, "auth/forbidden", "this token may not read raw artifacts");
  const raw = await rawStore(env, caller.tenant);
  if (raw === undefined)
    return problem(503, "store/unavailable", "this Worker keeps no raw artifacts");
  const opened = await raw.store.open(id, raw.key);
  if (opened === undefined)
    return problem(404, "route/not-found", "no such raw artifact (it expired or never existed)");
  return new Response(opened.stream, {
    headers: {
      // Served as a download, never rendered: it is untrusted, unredacted content.
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${id}"`,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      "x-airlock-content-type": (opened.contentType ?? "")
        .replace(/[^\x20-\x7e]/g, "")
        .slice(0, 256),
      "content-length": String(opened.bytes),
    },
  });
}
