/**
 * The IndexedDB store in real Chromium: results and parts kept under tenant-scoped keys, read
 * back by read_result after the store (and the database connection) is made again, as after a
 * reload; expiry by the store's clock, and the sweep that deletes what expired.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  createIndexedDbStore,
  createIndexedDbStores,
  createResultReader,
  type StoredRecords,
  shape,
} from "../../../src/index.js";
import { numberedLog, range, shownLines } from "../../helpers/read-back.js";

const NAME = `airlock-test-${crypto.getRandomValues(new Uint32Array(1))[0]}`;
const H1 = "res_0123456789abcdef01234567";

afterAll(async () => {
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(NAME);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
});

function rows(handle: string, count: number): StoredRecords {
  const records = Array.from({ length: count }, (_, i) => ({ id: i }));
  return {
    handle,
    records,
    chars: JSON.stringify(records).length,
    info: { format: "json", errorsFirst: true },
  };
}

/** Every key in one object store of the database. */
async function keysOf(store: "results" | "parts"): Promise<string[]> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(NAME);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
    const req = db.transaction(store).objectStore(store).getAllKeys();
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  db.close();
  return keys.map(String).sort();
}

describe("IndexedDB store (Chromium)", () => {
  it("keeps a cut log whole, and a new store over the same database reads it to the end", async () => {
    const log = numberedLog(3 << 20);
    const store = createIndexedDbStore({ database: NAME, tenant: "acme" });
    const first = await shape(log.text, { maxTokens: 1000, store });
    expect(first.status).toBe("partial");
    const handle = first.meta.handle as string;
    expect(first.text).toContain(handle);
    expect((await keysOf("results")).filter((k) => k.includes(handle))).toEqual([
      `airlock/t:acme/r/${handle}`,
    ]);
    expect((await keysOf("parts")).length).toBeGreaterThanOrEqual(3);

    // As after a reload: a new store, a new connection.
    const again = createIndexedDbStore({ database: NAME, tenant: "acme" });
    const read = createResultReader({
      maxTokens: 40_000,
      store: again,
      tokenizer: { name: "chars/4", count: (t) => Math.ceil(t.length / 4) },
    });
    const seen: number[] = [];
    let next: unknown = { handle, lines: { from: 1 }, pageSize: 1000 };
    for (let i = 0; next !== undefined; i++) {
      expect(i).toBeLessThan(200);
      const page = await read(next);
      expect(page.status).not.toBe("error");
      seen.push(...shownLines(page.text));
      next = page.meta.next?.args;
    }
    expect(seen).toEqual(range(1, log.lines));
  }, 120_000);

  it("tenant isolation: another tenant's store over the same database finds nothing", async () => {
    const acme = createIndexedDbStore({ database: NAME, tenant: "acme" });
    const globex = createIndexedDbStore({ database: NAME, tenant: "globex" });
    expect(await acme.put(rows(H1, 3))).toBe(true);
    expect(await acme.putPart("part_abc", "acme's text")).toBe(true);
    expect(await globex.get(H1)).toBeUndefined();
    expect(await globex.getPart("part_abc")).toBeUndefined();
    const read = createResultReader({ maxTokens: 500, store: globex });
    expect((await read({ handle: H1 })).status).toBe("error");
    // Control: acme reads it.
    expect((await acme.get(H1))?.handle).toBe(H1);
    expect(await acme.getPart("part_abc")).toBe("acme's text");
  });

  it("TTL: past it nothing is read, and the sweep deletes the expired entries", async () => {
    let t = Date.now();
    const store = createIndexedDbStore({
      database: NAME,
      tenant: "ttl",
      ttlMs: 1000,
      now: () => t,
    });
    const H2 = "res_fedcba9876543210fedcba98";
    await store.put(rows(H2, 2));
    await store.putPart("part_ttl", "short-lived");
    t += 999;
    expect((await store.get(H2))?.handle).toBe(H2);
    t += 2;
    expect(await store.get(H2)).toBeUndefined();
    // Parts outlive their manifest by a minute.
    expect(await store.getPart("part_ttl")).toBe("short-lived");
    t += 60_000;
    expect(await store.getPart("part_ttl")).toBeUndefined();
    await store.sweep(1000);
    const left = [...(await keysOf("results")), ...(await keysOf("parts"))];
    expect(left.filter((k) => k.includes("t:ttl/"))).toEqual([]);
    // Control: the sweep left the other tenants' entries (not expired).
    expect(left.some((k) => k.includes("t:acme/"))).toBe(true);
  });

  it("a database the host opened itself, with the object stores made in onupgradeneeded", async () => {
    const name = `${NAME}-host`;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name, 3);
      req.onupgradeneeded = () => createIndexedDbStores(req.result);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const store = createIndexedDbStore({ database: db });
    expect(await store.put(rows(H1, 1))).toBe(true);
    expect((await store.get(H1))?.handle).toBe(H1);
    // A value over maxChars is not kept.
    const small = createIndexedDbStore({ database: db, maxChars: 10 });
    expect(await small.putPart("part_big", "x".repeat(11))).toBe(false);
    db.close();
    indexedDB.deleteDatabase(name);
  });
});
