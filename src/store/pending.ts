/**
 * A store that writes only what turns out to be cut. The store stage keeps a result while it
 * streams, before the fit knows whether the text will hold all of it; a host that pays per write
 * (Workers KV) would store every small result that fit whole. This store holds writes in
 * memory up to `holdChars`, and the host commits them once it knows the result was cut (or
 * discards them). A result larger than that is certain to be cut at any budget the host allows,
 * so its writes go straight through as it streams, and memory stays bounded.
 */
import type { ResultStore, StoredResult } from "./store.js";

export interface PendingStoreOptions {
  /**
   * Characters held back before writes go straight through. Default 256 Ki: about 64k tokens,
   * past what any budget the host allows would show whole.
   */
  readonly holdChars?: number;
}

export interface PendingStore {
  /** The store to shape with: it holds writes until `commit`. */
  readonly store: Required<ResultStore>;
  /** Writes what is held; false when the inner store refused or failed any of it. */
  commit(): Promise<boolean>;
  /** Forgets what is held (the result fit whole). What went through stays, and expires. */
  discard(): void;
  /** Whether writes already went straight through (the result was large). */
  readonly through: boolean;
}

/**
 * @example
 * const pending = createPendingStore(createKvStore({ namespace: env.RESULTS_KV, tenant }));
 * const shaped = await shape(body, { ...edgePreset, store: pending.store });
 * if (shaped.meta.truncated) await pending.commit(); else pending.discard();
 */
export function createPendingStore(
  inner: ResultStore,
  options: PendingStoreOptions = {},
): PendingStore {
  if (typeof inner.putPart !== "function" || typeof inner.getPart !== "function")
    throw new TypeError("createPendingStore: the store must keep parts (putPart, getPart)");
  const holdChars = options.holdChars ?? 256 << 10;
  const parts = new Map<string, string>();
  const results = new Map<string, StoredResult>();
  let held = 0;
  let through = false;
  const writes: Array<Promise<boolean>> = [];
  const ok = (kept: unknown) => kept !== false;

  async function flush(): Promise<boolean> {
    through = true;
    const all = [...parts].map(([key, text]) =>
      Promise.resolve(inner.putPart?.(key, text)).then(ok),
    );
    parts.clear();
    // Manifests after their parts, as the store stage writes them.
    const partsKept = (await Promise.all(all)).every(Boolean);
    const manifests = await Promise.all(
      [...results.values()].map((r) => Promise.resolve(inner.put(r)).then(ok)),
    );
    results.clear();
    held = 0;
    return partsKept && manifests.every(Boolean);
  }

  const sizeOf = (result: StoredResult) => (result.kind === "text" ? 0 : result.chars);

  const store: Required<ResultStore> = {
    async put(result) {
      if (!through && held + sizeOf(result) <= holdChars) {
        results.set(result.handle, result);
        held += sizeOf(result);
        return true;
      }
      if (!through) writes.push(flush());
      // A part held back that the inner store refused leaves this result incomplete.
      const earlier = (await Promise.all(writes)).every(Boolean);
      return earlier && ok(await inner.put(result));
    },
    async get(handle) {
      return results.get(handle) ?? (await inner.get(handle)) ?? undefined;
    },
    async putPart(key, text) {
      if (!through && held + text.length <= holdChars) {
        if (!parts.has(key)) held += text.length;
        parts.set(key, text);
        return true;
      }
      if (!through) writes.push(flush());
      return ok(await inner.putPart?.(key, text));
    },
    async getPart(key) {
      return parts.get(key) ?? (await inner.getPart?.(key)) ?? undefined;
    },
  };

  return {
    store,
    async commit() {
      const earlier = (await Promise.all(writes)).every(Boolean);
      return (await flush()) && earlier;
    },
    discard() {
      parts.clear();
      results.clear();
      held = 0;
    },
    get through() {
      return through;
    },
  };
}
