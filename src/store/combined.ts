/**
 * Two stores as one, picked by size: values up to `smallChars` go to the small store (Workers
 * KV: read fast, from a cache near the reader), larger ones to the large store (R2: no size
 * limit a Worker reaches, cheap to keep). A 20 MB log writes its 1 MiB parts to R2 and its
 * manifest to KV; a small result stays in KV whole. Reads try the small store first.
 */
import type { ResultStore, StoredResult } from "./store.js";

export interface CombinedStoreOptions {
  readonly small: ResultStore;
  readonly large: ResultStore;
  /**
   * Values of at most this many characters go to `small` (a result: its records' characters;
   * a text manifest is always small). Default 256 Ki.
   */
  readonly smallChars?: number;
}

/**
 * @example
 * const store = createCombinedStore({
 *   small: createKvStore({ namespace: env.RESULTS_KV, tenant }),
 *   large: createR2Store({ bucket: env.RESULTS_R2, tenant }),
 * });
 */
export function createCombinedStore(options: CombinedStoreOptions): Required<ResultStore> {
  const { small, large } = options;
  const smallChars = options.smallChars ?? 256 << 10;
  if (!Number.isSafeInteger(smallChars) || smallChars < 0)
    throw new TypeError("createCombinedStore: smallChars must be a non-negative integer");
  const parts = (store: ResultStore, what: string) => {
    if (typeof store.putPart !== "function" || typeof store.getPart !== "function")
      throw new TypeError(
        `createCombinedStore: the ${what} store must keep parts (putPart, getPart)`,
      );
    return store as Required<ResultStore>;
  };
  const s = parts(small, "small");
  const l = parts(large, "large");
  // A manifest's own size is its parts list: small whatever the text's size.
  const sizeOf = (result: StoredResult) => (result.kind === "text" ? 0 : result.chars);
  return {
    async put(result) {
      if (sizeOf(result) <= smallChars && (await s.put(result)) !== false) return true;
      return (await l.put(result)) !== false;
    },
    async get(handle) {
      return (await s.get(handle)) ?? (await l.get(handle)) ?? undefined;
    },
    async putPart(key, text) {
      if (text.length <= smallChars && (await s.putPart(key, text)) !== false) return true;
      return (await l.putPart(key, text)) !== false;
    },
    async getPart(key) {
      return (await s.getPart(key)) ?? (await l.getPart(key)) ?? undefined;
    },
  };
}
