/**
 * Bearer tokens. The secret binding `AIRLOCK_TOKENS` holds a JSON map from the SHA-256 (hex)
 * of each token to the tenant it acts for: the Worker never holds a token itself, only its
 * hash. A presented token is hashed and compared with every entry in constant time (each
 * comparison reads all 32 bytes, every entry is compared), so neither the time nor the order of
 * the map says which entry, or how much of one, matched.
 *
 *   { "<sha256 hex>": "acme", "<sha256 hex>": { "tenant": "acme", "raw": true } }
 *
 * `raw: true` lets a token download raw artifacts (`GET /raw/<id>`): a person's token, never
 * one an agent holds.
 */

export interface Caller {
  readonly tenant: string;
  /** May read raw artifacts. */
  readonly raw: boolean;
}

interface Entry {
  readonly digest: Uint8Array;
  readonly caller: Caller;
}

/** Tenants name key prefixes: short, and nothing that could read as a path. */
const TENANT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** RFC 6750 b64token, with a length bound. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{16,512}=*) *$/i;

/** The map's entries, or undefined when the secret is missing or is not such a map. */
export function parseTokens(secret: string | undefined): Entry[] | undefined {
  if (typeof secret !== "string" || secret.length === 0 || secret.length > 1 << 20)
    return undefined;
  let map: unknown;
  try {
    map = JSON.parse(secret);
  } catch {
    return undefined;
  }
  if (map === null || typeof map !== "object" || Array.isArray(map)) return undefined;
  const entries: Entry[] = [];
  for (const [hash, value] of Object.entries(map)) {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const caller =
      typeof value === "string"
        ? { tenant: value, raw: false }
        : value !== null && typeof value === "object" && typeof value.tenant === "string"
          ? { tenant: value.tenant as string, raw: value.raw === true }
          : undefined;
    if (caller === undefined || !TENANT.test(caller.tenant)) return undefined;
    entries.push({ digest: fromHex(hash), caller });
  }
  return entries;
}

/** The result of checking a request's token. */
export type Verdict =
  | { readonly ok: true; readonly caller: Caller }
  | { readonly ok: false; readonly reason: "missing" | "invalid" | "misconfigured" };

/**
 * @example
 * const verdict = await authenticate(request, env.AIRLOCK_TOKENS);
 * if (!verdict.ok) return unauthorized(verdict.reason);
 */
export async function authenticate(request: Request, secret: string | undefined): Promise<Verdict> {
  const entries = parseTokens(secret);
  if (entries === undefined) return { ok: false, reason: "misconfigured" };
  const header = request.headers.get("authorization");
  if (header === null) return { ok: false, reason: "missing" };
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) return { ok: false, reason: "invalid" };
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)),
  );
  let found: Caller | undefined;
  for (const entry of entries) {
    // Every entry is compared in full; the match is remembered, the loop goes on.
    if (equalInConstantTime(digest, entry.digest)) found = entry.caller;
  }
  return found === undefined ? { ok: false, reason: "invalid" } : { ok: true, caller: found };
}

/** Compares two digests of the same length by every byte, with no early exit. */
export function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
