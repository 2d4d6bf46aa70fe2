/**
 * Upstream MCP sessions bound to the tenant that opened them. Every caller reaches the upstream
 * with the one `UPSTREAM_MCP_TOKEN`, so the upstream cannot tell tenants apart: the proxy does.
 * The `mcp-session-id` the client gets is the upstream's id with a tag, an HMAC-SHA-256 of the
 * tenant and the id:
 *
 *   <tag>.<upstream id>      tag: 22 base64url characters (128 bits of the HMAC)
 *
 * A session id comes back upstream only when its tag is the caller's tenant's: another
 * tenant's id, an untagged upstream id or a forged one reads as a session that does not exist
 * (404, what the transport answers for an unknown session). Nothing is stored, so the binding
 * holds in every isolate and location at once, with no write per session.
 *
 * The key is derived (HKDF-SHA-256) from `AIRLOCK_TOKENS`, the secret every deployment of the
 * Worker has: changing the token map ends every session (a client starts a new one after the
 * 404).
 */
import { equalInConstantTime } from "./auth.js";

/** Upstream session ids: visible ASCII (the transport's rule), bounded. */
const UPSTREAM_ID = /^[\x21-\x7e]{1,256}$/;
const TAG = /^[A-Za-z0-9_-]{22}$/;

let cached: { secret: string; key: Promise<CryptoKey> } | undefined;

function keyOf(secret: string): Promise<CryptoKey> {
  if (cached?.secret !== secret) {
    const encoder = new TextEncoder();
    const key = crypto.subtle
      .importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          {
            name: "HKDF",
            hash: "SHA-256",
            salt: encoder.encode("agent-airlock/mcp-session"),
            info: encoder.encode("v1"),
          },
          base,
          { name: "HMAC", hash: "SHA-256", length: 256 },
          false,
          ["sign"],
        ),
      );
    cached = { secret, key };
  }
  return cached.key;
}

async function tagOf(secret: string, tenant: string, id: string): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign(
    "HMAC",
    await keyOf(secret),
    new TextEncoder().encode(`${tenant}\n${id}`),
  );
  return new Uint8Array(mac).subarray(0, 16);
}

/** The session id the client gets for the upstream's, or undefined for one not to pass on. */
export async function bindSession(
  secret: string,
  tenant: string,
  upstreamId: string,
): Promise<string | undefined> {
  if (!UPSTREAM_ID.test(upstreamId)) return undefined;
  return `${base64url(await tagOf(secret, tenant, upstreamId))}.${upstreamId}`;
}

/** The upstream's session id, when the client's is bound to this tenant; else undefined. */
export async function openSession(
  secret: string,
  tenant: string,
  clientId: string,
): Promise<string | undefined> {
  const dot = clientId.indexOf(".");
  if (dot < 0) return undefined;
  const tag = clientId.slice(0, dot);
  const upstreamId = clientId.slice(dot + 1);
  if (!TAG.test(tag) || !UPSTREAM_ID.test(upstreamId)) return undefined;
  const expected = base64url(await tagOf(secret, tenant, upstreamId));
  const encoder = new TextEncoder();
  return equalInConstantTime(encoder.encode(tag), encoder.encode(expected))
    ? upstreamId
    : undefined;
}

function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
