/**
 * Where a full structured result waits for the model to ask for more. The result is stored
 * already cleaned (redacted, projected), under a handle derived from its content, and read back
 * by `read_result` page by page through opaque cursors.
 */
import type { JsonValue } from "../decode/json.js";
import { sha256Hex } from "../intake/digest.js";

/** A result as stored: its records in input order and what the view over them needs. */
export interface StoredResult {
  readonly handle: string;
  /** Records, cleaned and projected, in input order. */
  readonly records: readonly JsonValue[];
  /** Approximate size: characters of the records' compact JSON. */
  readonly chars: number;
  readonly info: StoredInfo;
}

export interface StoredInfo {
  readonly tool?: string;
  readonly format: string;
  readonly envelope?: string;
  /** The sort the first page used (`"updated_at desc"`); pages keep it. */
  readonly sort?: string;
  /** The projection applied before storing. */
  readonly projection?: string;
  /** Whether error records come first in the view. */
  readonly errorsFirst: boolean;
}

/**
 * Storage for full results. Implementations may be synchronous or asynchronous (IndexedDB,
 * Workers KV); `get` of an unknown or expired handle returns undefined.
 */
export interface ResultStore {
  /** Keeps a result; `false` says it was not kept (too large), and no handle is given out. */
  put(result: StoredResult): boolean | undefined | Promise<boolean | undefined>;
  get(handle: string): StoredResult | undefined | Promise<StoredResult | undefined>;
}

export interface MemoryStoreOptions {
  /** Characters held in total; least recently used results are evicted first. Default 64 Mi. */
  readonly maxChars?: number;
  /** How long a result lives, in milliseconds. Default 30 minutes. */
  readonly ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

export interface MemoryResultStore extends ResultStore {
  readonly size: number;
  readonly chars: number;
  delete(handle: string): boolean;
  clear(): void;
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
  const entries = new Map<string, { result: StoredResult; expires: number }>();
  let chars = 0;

  function remove(handle: string): boolean {
    const entry = entries.get(handle);
    if (entry === undefined) return false;
    entries.delete(handle);
    chars -= entry.result.chars;
    return true;
  }

  return {
    put(result) {
      remove(result.handle);
      // A result larger than the whole store is not kept (the shaped output says so).
      if (result.chars > maxChars) return false;
      entries.set(result.handle, { result, expires: now() + ttl });
      chars += result.chars;
      for (const handle of entries.keys()) {
        if (chars <= maxChars) break;
        remove(handle);
      }
      return true;
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
    delete: remove,
    clear() {
      entries.clear();
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

/**
 * Collects records for the store and derives the handle from their content: records are hashed
 * in blocks of about 1 MiB of JSON, and the handle is a hash of the block hashes and the view
 * settings, so the same result always gets the same handle.
 */
export function createStoreWriter(maxChars: number): {
  add(record: JsonValue, text: string): void;
  /** The stored result, or undefined when it grew past `maxChars` (nothing is kept then). */
  finish(info: StoredInfo): Promise<StoredResult | undefined>;
} {
  let records: JsonValue[] | undefined = [];
  let chars = 0;
  let block: string[] = [];
  let blockChars = 0;
  const digests: Array<Promise<string>> = [];
  const flush = () => {
    if (block.length === 0) return;
    digests.push(sha256Hex(block.join("\n")));
    block = [];
    blockChars = 0;
  };
  return {
    add(record, text) {
      if (records === undefined) return;
      chars += text.length;
      if (chars > maxChars) {
        records = undefined;
        block = [];
        return;
      }
      records.push(record);
      block.push(text);
      blockChars += text.length;
      if (blockChars >= 1 << 20) flush();
    },
    async finish(info) {
      if (records === undefined) return undefined;
      flush();
      const parts = await Promise.all(digests);
      const settings = JSON.stringify([
        info.format,
        info.envelope ?? "",
        info.sort ?? "",
        info.projection ?? "",
        info.errorsFirst,
      ]);
      const digest = await sha256Hex(
        `airlock-result\u0000${settings}\u0000${records.length}\u0000${parts.join(",")}`,
      );
      return { handle: `res_${digest.slice(0, 24)}`, records, chars, info };
    },
  };
}

/** Where a page starts in a stored result's view, and the view's settings. */
export interface Cursor {
  readonly handle: string;
  /** Records of the view already shown (the next page starts here). */
  readonly offset: number;
  /**
   * Where the pages stop: the first page may also have shown the view's last records (the tail
   * of an unsorted stream), which the pages do not show again. Absent: the end of the view.
   */
  readonly end?: number;
  /** The filter and fields the pages were asked for, kept so every page sees the same view. */
  readonly where?: Where;
  readonly fields?: string | readonly string[];
}

/** Filter on fields: a value means equality; an object names one or more comparisons. */
export type Where = Readonly<Record<string, JsonValue | WhereTest>>;
export interface WhereTest {
  readonly eq?: JsonValue;
  readonly ne?: JsonValue;
  readonly gt?: number | string;
  readonly gte?: number | string;
  readonly lt?: number | string;
  readonly lte?: number | string;
  readonly in?: readonly JsonValue[];
  /** Substring of a string value, case-insensitive. */
  readonly contains?: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * An opaque cursor: the handle, the position in the view, and the view's filter and fields. It
 * points into a stored snapshot that never changes, so it stays valid as long as the result is
 * stored, and it names its handle, so it cannot reach another result's records. Short, because
 * the model copies it: `cur_<handle>_<offset>`, plus the view when a filter or fields were asked.
 *
 * @example
 * decodeCursor(encodeCursor({ handle: "res_…", offset: 20 })); // { handle: "res_…", offset: 20 }
 */
export function encodeCursor(cursor: Cursor): string {
  const handle = cursor.handle.startsWith("res_") ? cursor.handle.slice(4) : cursor.handle;
  const end = cursor.end !== undefined ? `-${cursor.end.toString(36)}` : "";
  const base = `cur_${handle}_${cursor.offset.toString(36)}${end}`;
  if (cursor.where === undefined && cursor.fields === undefined) return base;
  return `${base}_${toBase64Url(JSON.stringify([cursor.where ?? null, cursor.fields ?? null]))}`;
}

/** Reads a cursor back; undefined for anything that is not one of ours. */
export function decodeCursor(text: string): Cursor | undefined {
  if (typeof text !== "string" || text.length > 8192) return undefined;
  const m =
    /^cur_([0-9a-f]{24})_([0-9a-z]{1,11})(?:-([0-9a-z]{1,11}))?(?:_([A-Za-z0-9_-]+))?$/.exec(text);
  if (m === null) return undefined;
  const offset = Number.parseInt(m[2] as string, 36);
  if (!Number.isSafeInteger(offset) || offset < 0) return undefined;
  const end = m[3] === undefined ? undefined : Number.parseInt(m[3], 36);
  if (end !== undefined && (!Number.isSafeInteger(end) || end < offset)) return undefined;
  const handle = `res_${m[1]}`;
  const base = { handle, offset, ...(end !== undefined ? { end } : {}) };
  if (m[4] === undefined) return base;
  const json = fromBase64Url(m[4]);
  if (json === undefined) return undefined;
  let view: unknown;
  try {
    view = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(view) || view.length !== 2) return undefined;
  const [where, fields] = view as [unknown, unknown];
  return {
    ...base,
    ...(where !== null && typeof where === "object" && !Array.isArray(where)
      ? { where: where as Where }
      : {}),
    ...(typeof fields === "string" || Array.isArray(fields)
      ? { fields: fields as string | string[] }
      : {}),
  };
}
