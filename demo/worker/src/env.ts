import type { KvNamespaceLike, R2BucketLike } from "agent-airlock/edge/o200k_base";

/**
 * The Worker's configuration: bindings and variables from wrangler.jsonc, secrets from
 * `wrangler secret put` (or .dev.vars locally). Bindings are typed by the few methods the
 * stores call, so the Worker needs no Cloudflare types package.
 */

export interface Env {
  /** Secret: JSON map from the SHA-256 (hex) of each bearer token to its tenant (see auth.ts). */
  readonly AIRLOCK_TOKENS?: string;
  /** Largest budget a request may ask for (`maxTokens`). Default 32000. */
  readonly AIRLOCK_MAX_TOKENS?: string;
  /** How long stored results live, in seconds (at least 60, KV's minimum). Default 1800. */
  readonly AIRLOCK_TTL_SECONDS?: string;
  /** Small results and the manifests of large ones. */
  readonly RESULTS_KV?: KvNamespaceLike;
  /** Large results: parts of long texts, big record sets. */
  readonly RESULTS_R2?: R2BucketLike;
  /** Raw artifacts, sealed (with AIRLOCK_RAW_KEY); both or neither. */
  readonly RAW_R2?: R2BucketLike;
  /** Secret: 32 random bytes, base64, the AES-256-GCM key raw artifacts are sealed with. */
  readonly AIRLOCK_RAW_KEY?: string;
  /** The upstream MCP server `/mcp` stands in front of (streamable HTTP). Empty: no `/mcp`. */
  readonly UPSTREAM_MCP_URL?: string;
  /** Secret: the upstream's own bearer token, if it wants one (the caller's never goes there). */
  readonly UPSTREAM_MCP_TOKEN?: string;
  /** Sessions (`/session/:id/…`): the Durable Object namespace of `SessionObject`. */
  readonly SESSIONS?: {
    idFromName(name: string): unknown;
    get(id: unknown): { fetch(request: Request): Promise<Response> };
  };
  /** A conversation's `maxRunTokens` when its first result does not say. Default 32000. */
  readonly AIRLOCK_MAX_RUN_TOKENS?: string;
  /** The upstream as a service binding (another Worker), used instead of fetching the URL. */
  readonly UPSTREAM_MCP?: { fetch(request: Request): Promise<Response> };
}

/** A positive integer variable, or the fallback when it is absent or not one. */
export function intVar(value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined || !/^\d{1,12}$/.test(value.trim())) return fallback;
  return Math.max(min, Number(value.trim()));
}
