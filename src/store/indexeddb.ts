/**
 * A `ResultStore` in the browser's IndexedDB, so a result outlives the page (and the memory of a
 * tab): two object stores, `results` by handle and `parts` by part key, each entry
 * `{ expires, value }`, scoped by tenant like the edge stores. An index on `expires` lets each
 * store instance sweep what has expired, a bounded number of entries at a time.
 */
import { createScope, PART_GRACE_MS, type ScopeOptions } from "./scope.js";
import type { ResultStore, StoredResult } from "./store.js";

/**
 * The part of an `IDBDatabase` the store uses, typed here so the package's types need no DOM
 * lib (a Node host type-checks them too); a browser's `IDBDatabase` is one.
 */
export interface IdbDatabaseLike {
  readonly objectStoreNames: { contains(name: string): boolean };
  transaction(stores: string | string[], mode?: "readonly" | "readwrite"): unknown;
  createObjectStore(name: string): unknown;
}

/** The part of an `IDBFactory` (`globalThis.indexedDB`) the store uses. */
export interface IdbFactoryLike {
  open(name: string, version?: number): unknown;
}

export interface IndexedDbStoreOptions extends ScopeOptions {
  /**
   * The database: one the host opened (it must have the object stores
   * `createIndexedDbStores` makes, in its `onupgradeneeded`), or a name to open (and create).
   * Default: the name `airlock-results`.
   */
  readonly database?: IdbDatabaseLike | Promise<IdbDatabaseLike> | string;
  /** Largest value kept, in characters (records' JSON, or a part). Default 64 Mi. */
  readonly maxChars?: number;
  /** The IndexedDB factory. Default `globalThis.indexedDB`. */
  readonly factory?: IdbFactoryLike;
}

export interface IndexedDbResultStore extends Required<ResultStore> {
  /** Deletes up to `limit` expired entries now (the store does this itself, a little per put). */
  sweep(limit?: number): Promise<number>;
  readonly tenant: string;
}

const RESULTS = "results";
const PARTS = "parts";
const EXPIRES = "expires";
const VERSION = 1;

interface Entry {
  readonly expires: number;
  readonly value: StoredResult | string;
}

/**
 * Creates the object stores the IndexedDB store needs, for a host that opens the database
 * itself: call it from `onupgradeneeded`.
 *
 * @example
 * open.onupgradeneeded = () => createIndexedDbStores(open.result);
 */
export function createIndexedDbStores(database: IdbDatabaseLike): void {
  const db = database as IDBDatabase;
  for (const name of [RESULTS, PARTS]) {
    if (db.objectStoreNames.contains(name)) continue;
    db.createObjectStore(name).createIndex(EXPIRES, EXPIRES);
  }
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(factory: IdbFactoryLike, name: string): Promise<IDBDatabase> {
  const req = (factory as IDBFactory).open(name, VERSION);
  req.onupgradeneeded = () => createIndexedDbStores(req.result);
  return request(req);
}

/**
 * @example
 * const store = createIndexedDbStore({ tenant: user.id, ttlMs: 24 * 3600_000 });
 * const shaped = await shape(await fetch(url), { maxTokens: 2000, store });
 */
export function createIndexedDbStore(options: IndexedDbStoreOptions = {}): IndexedDbResultStore {
  const scope = createScope(options, 1 << 16);
  const maxChars = options.maxChars ?? 64 << 20;
  const given = options.database ?? "airlock-results";
  let db: Promise<IDBDatabase> | undefined;
  const database = () => {
    db ??=
      typeof given === "string"
        ? open(options.factory ?? globalThis.indexedDB, given)
        : Promise.resolve(given as IDBDatabase | Promise<IDBDatabase>);
    db.catch(() => {
      db = undefined;
    });
    return db;
  };

  async function write(store: string, key: string, value: StoredResult | string, lifeMs: number) {
    const tx = (await database()).transaction(store, "readwrite");
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
    tx.objectStore(store).put({ expires: scope.now() + lifeMs, value } satisfies Entry, key);
    await done;
  }

  async function read(store: string, key: string): Promise<Entry["value"] | undefined> {
    const tx = (await database()).transaction(store, "readonly");
    const entry = (await request(tx.objectStore(store).get(key))) as Entry | undefined;
    if (entry === undefined || typeof entry.expires !== "number") return undefined;
    if (entry.expires <= scope.now()) {
      void sweep(64).catch(() => {});
      return undefined;
    }
    return entry.value;
  }

  async function sweep(limit = 256): Promise<number> {
    const tx = (await database()).transaction([RESULTS, PARTS], "readwrite");
    let deleted = 0;
    for (const name of [RESULTS, PARTS]) {
      const index = tx.objectStore(name).index(EXPIRES);
      const range = IDBKeyRange.upperBound(scope.now());
      const keys = await request(index.getAllKeys(range, Math.max(0, limit - deleted)));
      for (const key of keys) tx.objectStore(name).delete(key);
      deleted += keys.length;
    }
    return deleted;
  }

  let puts = 0;
  const attempt = async (fn: () => Promise<void>) => {
    try {
      await fn();
      // Every 32 writes, a bounded sweep of what has expired.
      if (++puts % 32 === 1) void sweep(64).catch(() => {});
      return true;
    } catch {
      return false;
    }
  };

  return {
    tenant: scope.tenant,
    put(result) {
      const key = scope.key("r", result.handle);
      if (key === undefined || (result.kind !== "text" && result.chars > maxChars))
        return Promise.resolve(false);
      return attempt(() => write(RESULTS, key, result, scope.ttlMs));
    },
    async get(handle) {
      const key = scope.key("r", handle);
      if (key === undefined) return undefined;
      const value = await read(RESULTS, key);
      return typeof value === "object" && value !== null && value.handle === handle
        ? value
        : undefined;
    },
    putPart(name, text) {
      const key = scope.key("p", name);
      if (key === undefined || typeof text !== "string" || text.length > maxChars)
        return Promise.resolve(false);
      return attempt(() => write(PARTS, key, text, scope.ttlMs + PART_GRACE_MS));
    },
    async getPart(name) {
      const key = scope.key("p", name);
      if (key === undefined) return undefined;
      const value = await read(PARTS, key);
      return typeof value === "string" ? value : undefined;
    },
    sweep,
  };
}
