/**
 * The in-memory `ResultStore`: results and the parts of text results in one LRU by characters,
 * with a time to live. A part lives as long as a stored result names it (parts are content
 * keyed, so two results may share one); a part not yet named by a result (its result is still
 * streaming in) is pending, and is the first to go when room is needed.
 */
import type { ResultStore, StoredResult } from "./store.js";

export interface MemoryStoreOptions {
  /** Characters held in total (records' JSON and text parts); least recently used go first. Default 64 Mi. */
  readonly maxChars?: number;
  /** How long a result lives, in milliseconds. Default 30 minutes. */
  readonly ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

export interface MemoryResultStore extends Required<ResultStore> {
  /** Results held. */
  readonly size: number;
  /** Characters held: records' JSON and text parts. */
  readonly chars: number;
  delete(handle: string): boolean;
  clear(): void;
}

interface Entry {
  readonly result: StoredResult;
  readonly expires: number;
  /** Characters this entry holds itself (a text manifest holds none: its parts are counted). */
  readonly chars: number;
}

interface Part {
  readonly text: string;
  /** Results that name it; 0 while pending. */
  refs: number;
  expires: number;
}

/**
 * An in-memory store: LRU by characters, with a time to live. One per host (or per user
 * session); nothing is shared between instances.
 *
 * @example
 * const store = createMemoryStore({ maxChars: 32 << 20, ttlMs: 10 * 60_000 });
 * const shaped = await shape(rows, { maxTokens: 2000, store });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryResultStore {
  const maxChars = options.maxChars ?? 64 << 20;
  const ttl = options.ttlMs ?? 30 * 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const parts = new Map<string, Part>();
  let chars = 0;

  const keysOf = (result: StoredResult): string[] =>
    result.kind === "text" ? [...new Set(result.parts.map((p) => p.key))] : [];

  function dropPart(key: string): void {
    const part = parts.get(key);
    if (part === undefined) return;
    parts.delete(key);
    chars -= part.text.length;
  }

  function remove(handle: string): boolean {
    const entry = entries.get(handle);
    if (entry === undefined) return false;
    entries.delete(handle);
    chars -= entry.chars;
    for (const key of keysOf(entry.result)) {
      const part = parts.get(key);
      if (part && --part.refs <= 0) dropPart(key);
    }
    return true;
  }

  /** Makes room: expired pending parts, then the oldest results, then the oldest pending parts. */
  function evict(keep?: string): void {
    if (chars <= maxChars) return;
    const t = now();
    for (const [key, part] of parts) {
      if (part.refs === 0 && part.expires <= t && key !== keep) dropPart(key);
    }
    for (const handle of entries.keys()) {
      if (chars <= maxChars) return;
      if (handle !== keep) remove(handle);
    }
    for (const [key, part] of parts) {
      if (chars <= maxChars) return;
      if (part.refs === 0 && key !== keep) dropPart(key);
    }
  }

  return {
    put(result) {
      const own = result.kind === "text" ? 0 : result.chars;
      // A result larger than the whole store is not kept (the shaped output says so).
      if (own > maxChars) {
        remove(result.handle);
        return false;
      }
      const keys = keysOf(result);
      // Every part must still be here: one evicted while the text streamed loses the result.
      if (keys.some((key) => !parts.has(key))) return false;
      // Named by the new entry before the old one (the same result, stored again) lets go.
      for (const key of keys) (parts.get(key) as Part).refs++;
      remove(result.handle);
      entries.set(result.handle, { result, expires: now() + ttl, chars: own });
      chars += own;
      evict(result.handle);
      return entries.has(result.handle);
    },
    get(handle) {
      const entry = entries.get(handle);
      if (entry === undefined) return undefined;
      if (entry.expires <= now()) {
        remove(handle);
        return undefined;
      }
      // Most recently used goes last.
      entries.delete(handle);
      entries.set(handle, entry);
      return entry.result;
    },
    putPart(key, text) {
      if (typeof text !== "string" || text.length > maxChars) return false;
      const held = parts.get(key);
      if (held !== undefined) {
        held.expires = now() + ttl;
        return true;
      }
      parts.set(key, { text, refs: 0, expires: now() + ttl });
      chars += text.length;
      evict(key);
      return parts.has(key);
    },
    getPart(key) {
      return parts.get(key)?.text;
    },
    delete: remove,
    clear() {
      entries.clear();
      parts.clear();
      chars = 0;
    },
    get size() {
      return entries.size;
    },
    get chars() {
      return chars;
    },
  };
}
