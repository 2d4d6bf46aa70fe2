/**
 * A `ResultStore` on R2: a result's JSON and each text part as objects under tenant-scoped
 * keys. R2 has no per-object expiry, so the expiry time goes in the object's custom metadata:
 * a read past it returns nothing and deletes the object; a bucket lifecycle rule on the prefix
 * (docs/edge.md) removes what is never read again. Strongly consistent, no value size limit
 * that a Worker can reach: the store for large results. Takes the bucket binding the Worker
 * already has; no Cloudflare SDK.
 */
import { SERVICE_LIMITS } from "./limits.js";
import {
  createScope,
  createWriteMemo,
  PART_GRACE_MS,
  parseStored,
  type ScopeOptions,
} from "./scope.js";
import type { ResultStore, StoredResult } from "./store.js";

/** An object as R2 returns it (`head` gives the metadata, `get` the body too). */
export interface R2ObjectLike {
  readonly customMetadata?: Record<string, string>;
}
export interface R2ObjectBodyLike extends R2ObjectLike {
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The part of an R2 bucket binding the stores call. */
export interface R2BucketLike {
  head(key: string): Promise<R2ObjectLike | null>;
  get(key: string): Promise<R2ObjectBodyLike | null>;
  put(
    key: string,
    value: string | ArrayBuffer | ArrayBufferView,
    options?: {
      customMetadata?: Record<string, string>;
      httpMetadata?: { contentType?: string };
    },
  ): Promise<unknown>;
  delete(keys: string | string[]): Promise<void>;
}

export interface R2StoreOptions extends ScopeOptions {
  readonly bucket: R2BucketLike;
  /** Largest value written, in characters. Default 64 Mi (well beyond any edge preset). */
  readonly maxValueChars?: number;
}

export interface R2ResultStore extends Required<ResultStore> {
  readonly tenant: string;
}

/** The expiry an object carries, or undefined when it has none we wrote. */
export function expiresOf(object: R2ObjectLike | null): number | undefined {
  const value = object?.customMetadata?.expires;
  if (value === undefined || !/^\d{1,16}$/.test(value)) return undefined;
  return Number(value);
}

/**
 * @example
 * const store = createR2Store({ bucket: env.RESULTS_R2, tenant: caller.tenant });
 * const shaped = await shape(request.body, { ...edgePreset, store });
 */
export function createR2Store(options: R2StoreOptions): R2ResultStore {
  const bucket = options.bucket;
  const scope = createScope(options, SERVICE_LIMITS.r2KeyBytes);
  const maxChars = options.maxValueChars ?? 64 << 20;
  const memo = createWriteMemo(scope.now);

  async function write(key: string, value: string, lifeMs: number, type: string) {
    if (value.length > maxChars) return false;
    try {
      await bucket.put(key, value, {
        customMetadata: { expires: String(scope.now() + lifeMs) },
        httpMetadata: { contentType: type },
      });
      return true;
    } catch {
      return false;
    }
  }

  async function read(key: string): Promise<string | undefined> {
    const object = await bucket.get(key);
    if (object === null) return undefined;
    const expires = expiresOf(object);
    if (expires === undefined || expires <= scope.now()) {
      // Past its time: gone for every reader from now on.
      bucket.delete(key).catch(() => {});
      await object.arrayBuffer().catch(() => undefined);
      return undefined;
    }
    return object.text();
  }

  return {
    tenant: scope.tenant,
    async put(result: StoredResult) {
      const key = scope.key("r", result.handle);
      return (
        key !== undefined &&
        write(key, JSON.stringify(result), scope.ttlMs, "application/json; charset=utf-8")
      );
    },
    async get(handle) {
      const key = scope.key("r", handle);
      return key === undefined ? undefined : parseStored<StoredResult>(await read(key), handle);
    },
    putPart(name, text) {
      const key = scope.key("p", name);
      if (key === undefined || typeof text !== "string") return Promise.resolve(false);
      const life = scope.ttlMs + PART_GRACE_MS;
      return memo.once(
        key,
        async () => {
          // Content-keyed: a part already there that outlives a manifest written now is kept
          // as it is (one metadata read instead of a write).
          const held = expiresOf(await bucket.head(key).catch(() => null));
          if (held !== undefined && held >= scope.now() + scope.ttlMs) return true;
          return write(key, text, life, "text/plain; charset=utf-8");
        },
        (at) => scope.now() - at < PART_GRACE_MS / 2,
      );
    },
    async getPart(name) {
      const key = scope.key("p", name);
      return key === undefined ? undefined : read(key);
    },
  };
}
