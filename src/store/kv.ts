/**
 * A `ResultStore` on Workers KV: a result's JSON under its handle, each text part under its
 * key, scoped by tenant, with KV's own expiry (`expirationTtl`) and the expiry time in the
 * key's metadata, so a read never returns what has outlived its TTL even before KV deletes it.
 * Takes the KV namespace binding the Worker already has; no Cloudflare SDK.
 *
 * KV is eventually consistent: a result written in one location may take up to 60 s to be read
 * in another. A read_result call usually lands where the shape call did; R2
 * (`createR2Store`) is strongly consistent when that matters.
 */

import { SERVICE_LIMITS } from "./limits.js";
import {
  createScope,
  createWriteMemo,
  PART_GRACE_MS,
  parseStored,
  type ScopeOptions,
  utf8BytesUpTo,
} from "./scope.js";
import type { ResultStore, StoredResult } from "./store.js";

/** The part of a KV namespace binding this store calls. */
export interface KvNamespaceLike {
  getWithMetadata(
    key: string,
    type: "text",
  ): Promise<{ readonly value: string | null; readonly metadata: unknown }>;
  put(
    key: string,
    value: string,
    options?: { expirationTtl?: number; metadata?: unknown },
  ): Promise<unknown>;
}

export interface KvStoreOptions extends ScopeOptions {
  readonly namespace: KvNamespaceLike;
  /** Largest value written, in UTF-8 bytes. Default (and most) 25 MiB, KV's limit. */
  readonly maxValueBytes?: number;
}

export interface KvResultStore extends Required<ResultStore> {
  readonly tenant: string;
}

interface Meta {
  readonly expires: number;
}

/**
 * @example
 * const store = createKvStore({ namespace: env.RESULTS_KV, tenant: caller.tenant, ttlMs: 30 * 60_000 });
 * const shaped = await shape(request.body, { ...edgePreset, store });
 */
export function createKvStore(options: KvStoreOptions): KvResultStore {
  const kv = options.namespace;
  const scope = createScope(options, SERVICE_LIMITS.kvKeyBytes);
  const maxBytes = Math.min(
    options.maxValueBytes ?? SERVICE_LIMITS.kvValueBytes,
    SERVICE_LIMITS.kvValueBytes,
  );
  const memo = createWriteMemo(scope.now);

  async function write(key: string, value: string, lifeMs: number): Promise<boolean> {
    if (utf8BytesUpTo(value, maxBytes) > maxBytes) return false;
    const expires = scope.now() + lifeMs;
    const ttl = Math.max(SERVICE_LIMITS.kvMinTtlSeconds, Math.ceil(lifeMs / 1000));
    try {
      await kv.put(key, value, { expirationTtl: ttl, metadata: { expires } satisfies Meta });
      return true;
    } catch {
      // KV takes one write per second to a key: when the same content was just written (the
      // same result shaped twice at once), what is there already is what we meant to write.
      const held = await read(key).catch(() => undefined);
      // Written at most a minute before ours: a part still outlives a manifest written now.
      return held !== undefined && held.expires >= expires - PART_GRACE_MS;
    }
  }

  async function read(key: string): Promise<{ value: string; expires: number } | undefined> {
    const { value, metadata } = await kv.getWithMetadata(key, "text");
    const expires = (metadata as Meta | null)?.expires;
    if (value === null || typeof expires !== "number" || expires <= scope.now()) return undefined;
    return { value, expires };
  }

  return {
    tenant: scope.tenant,
    async put(result: StoredResult) {
      const key = scope.key("r", result.handle);
      return key !== undefined && write(key, JSON.stringify(result), scope.ttlMs);
    },
    async get(handle) {
      const key = scope.key("r", handle);
      if (key === undefined) return undefined;
      return parseStored<StoredResult>((await read(key))?.value, handle);
    },
    putPart(name, text) {
      const key = scope.key("p", name);
      if (key === undefined || typeof text !== "string") return Promise.resolve(false);
      return memo.once(
        key,
        () => write(key, text, scope.ttlMs + PART_GRACE_MS),
        (at) => scope.now() - at < PART_GRACE_MS / 2,
      );
    },
    async getPart(name) {
      const key = scope.key("p", name);
      return key === undefined ? undefined : (await read(key))?.value;
    },
  };
}
