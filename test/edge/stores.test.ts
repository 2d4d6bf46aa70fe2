/**
 * The edge stores against real Workers KV and R2 (Miniflare's bindings from
 * demo/worker/wrangler.jsonc): what they write, where, for how long, and for whom. Expiry is
 * checked twice: with a clock the test moves (the expiry the stores keep with each value), and
 * in what the service itself was told (KV's `expiration`, seen through `list`).
 */

import { env } from "cloudflare:test";
import {
  AirlockError,
  createCombinedStore,
  createKvStore,
  createPendingStore,
  createR2Store,
  createResultReader,
  createSealedStore,
  importSealKey,
  type KvNamespaceLike,
  type R2BucketLike,
  SERVICE_LIMITS,
  type StoredRecords,
  shape,
} from "agent-airlock/edge/o200k_base";
import { describe, expect, it } from "vitest";

interface KvList {
  get(key: string): Promise<string | null>;
  list(options: { prefix: string }): Promise<{
    keys: Array<{ name: string; expiration?: number; metadata?: unknown }>;
  }>;
}
interface R2List {
  list(options: { prefix: string }): Promise<{ objects: Array<{ key: string }> }>;
}

const kv = env.RESULTS_KV as KvNamespaceLike & KvList;
const r2 = env.RESULTS_R2 as R2BucketLike & R2List;
const raw = env.RAW_R2 as R2BucketLike & R2List;

/** A clock the test moves. */
function clock(start = Date.now()) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A unique prefix per test, so tests never see each other's keys. */
let n = 0;
const prefix = () => `t${Date.now().toString(36)}${n++}/`;

function records(handle: string, count: number): StoredRecords {
  const rows = Array.from({ length: count }, (_, i) => ({ id: i }));
  return {
    handle,
    records: rows,
    chars: JSON.stringify(rows).length,
    info: { format: "json", errorsFirst: true },
  };
}

const H1 = "res_0123456789abcdef01234567";

describe("KV store", () => {
  it("keeps a result and a part under tenant-scoped keys, and reads them back", async () => {
    const p = prefix();
    const store = createKvStore({ namespace: kv, tenant: "acme", prefix: p });
    expect(await store.put(records(H1, 3))).toBe(true);
    expect(await store.putPart("part_00ff", "line one\nline two")).toBe(true);
    expect((await store.get(H1))?.handle).toBe(H1);
    expect(await store.getPart("part_00ff")).toBe("line one\nline two");
    const keys = (await kv.list({ prefix: p })).keys.map((k) => k.name).sort();
    expect(keys).toEqual([`${p}t:acme/p/part_00ff`, `${p}t:acme/r/${H1}`]);
  });

  it("tenant isolation: the same handle in another tenant's store names nothing", async () => {
    const p = prefix();
    const acme = createKvStore({ namespace: kv, tenant: "acme", prefix: p });
    const globex = createKvStore({ namespace: kv, tenant: "globex", prefix: p });
    const single = createKvStore({ namespace: kv, prefix: p });
    await acme.put(records(H1, 2));
    await acme.putPart("part_aa", "secret text of acme");
    expect(await globex.get(H1)).toBeUndefined();
    expect(await globex.getPart("part_aa")).toBeUndefined();
    expect(await single.get(H1)).toBeUndefined();
    // Names that would climb out of the tenant's prefix are not names.
    for (const name of [`../t:acme/r/${H1}`, `t:acme/r/${H1}`, "", "x".repeat(129)]) {
      expect(await globex.get(name)).toBeUndefined();
      expect(await globex.putPart(name, "x")).toBe(false);
    }
    // Control: acme reads its own.
    expect((await acme.get(H1))?.handle).toBe(H1);
  });

  it("TTL: KV is told to expire the keys (at least its 60 s minimum), and a read past the TTL finds nothing", async () => {
    const p = prefix();
    const time = clock();
    const store = createKvStore({ namespace: kv, tenant: "acme", prefix: p, ttlMs: 1000, ...time });
    const before = Math.floor(Date.now() / 1000);
    await store.put(records(H1, 1));
    await store.putPart("part_01", "text");
    for (const key of (await kv.list({ prefix: p })).keys) {
      // KV's shortest expirationTtl is 60 s: 1 s was raised to it (the part outlives by 60 s more).
      expect(key.expiration).toBeGreaterThanOrEqual(before + SERVICE_LIMITS.kvMinTtlSeconds);
      expect(key.expiration).toBeLessThanOrEqual(before + 2 * SERVICE_LIMITS.kvMinTtlSeconds + 5);
    }
    time.advance(999);
    expect((await store.get(H1))?.handle).toBe(H1);
    time.advance(2);
    // KV still holds it (60 s), but its time is up: nothing is read.
    expect(await kv.get(`${p}t:acme/r/${H1}`)).not.toBeNull();
    expect(await store.get(H1)).toBeUndefined();
    // Parts outlive their manifest by a minute (they are written before it).
    expect(await store.getPart("part_01")).toBe("text");
    time.advance(60_000);
    expect(await store.getPart("part_01")).toBeUndefined();
  });

  it("a TTL of 30 minutes is KV's expirationTtl of 1800 s", async () => {
    const p = prefix();
    const store = createKvStore({ namespace: kv, tenant: "acme", prefix: p, ttlMs: 1_800_000 });
    const before = Math.floor(Date.now() / 1000);
    await store.put(records(H1, 1));
    const [key] = (await kv.list({ prefix: p })).keys;
    expect(key?.expiration).toBeGreaterThanOrEqual(before + 1800);
    expect(key?.expiration).toBeLessThanOrEqual(before + 1805);
  });

  it("a value over KV's 25 MiB (in UTF-8 bytes) is refused before KV is called", async () => {
    const p = prefix();
    const calls: string[] = [];
    const counting: KvNamespaceLike = {
      getWithMetadata: (key, type) => kv.getWithMetadata(key, type),
      put: (key, value, options) => {
        calls.push(key);
        return kv.put(key, value, options);
      },
    };
    const store = createKvStore({ namespace: counting, tenant: "acme", prefix: p });
    // 9 Mi characters of 3-byte UTF-8: 27 MiB, over the limit though its length is not.
    const wide = "€".repeat(9 << 20);
    expect(await store.putPart("part_wide", wide)).toBe(false);
    expect(calls).toEqual([]);
    // Control: 8 Mi of them (24 MiB) is written.
    expect(await store.putPart("part_fits", "€".repeat(8 << 20))).toBe(true);
    expect(calls).toEqual([`${p}t:acme/p/part_fits`]);
    expect((await store.getPart("part_fits"))?.length).toBe(8 << 20);
  }, 60_000);

  it("keys stay within KV's 512 bytes with the longest prefix, tenant and name allowed", async () => {
    const p = `${prefix()}${"p".repeat(100)}/`.slice(0, 128);
    const store = createKvStore({ namespace: kv, prefix: p, tenant: "a".repeat(64) });
    const longest = `part_${"f".repeat(123)}`;
    expect(await store.putPart(longest, "x")).toBe(true);
    expect(await store.getPart(longest)).toBe("x");
    const [key] = (await kv.list({ prefix: p })).keys;
    expect(new TextEncoder().encode(key?.name).byteLength).toBeLessThanOrEqual(
      SERVICE_LIMITS.kvKeyBytes,
    );
    // One character more is not a name; a longer prefix or a tenant that is not one is refused.
    expect(await store.putPart(`${longest}f`, "x")).toBe(false);
    expect(() => createKvStore({ namespace: kv, prefix: "p".repeat(129) })).toThrow(/prefix/);
    for (const tenant of ["a/b", "a".repeat(65), "../x", " acme"]) {
      expect(() => createKvStore({ namespace: kv, tenant })).toThrow(AirlockError);
    }
  });
});

describe("R2 store", () => {
  it("keeps results and parts, and a read past the TTL finds nothing and deletes the object", async () => {
    const p = prefix();
    const time = clock();
    const store = createR2Store({ bucket: r2, tenant: "acme", prefix: p, ttlMs: 5000, ...time });
    await store.put(records(H1, 1000));
    await store.putPart("part_02", "a part");
    expect((await store.get(H1))?.handle).toBe(H1);
    expect(await store.getPart("part_02")).toBe("a part");
    const other = createR2Store({ bucket: r2, tenant: "globex", prefix: p, ...time });
    expect(await other.get(H1)).toBeUndefined();
    time.advance(5001);
    expect(await store.get(H1)).toBeUndefined();
    // Deleted in the background: wait for it.
    for (let i = 0; i < 50 && (await r2.head(`${p}t:acme/r/${H1}`)) !== null; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(await r2.head(`${p}t:acme/r/${H1}`)).toBeNull();
    expect(await store.getPart("part_02")).toBe("a part");
  });

  it("an object without our expiry (written by something else) is not read", async () => {
    const p = prefix();
    await r2.put(`${p}-/r/${H1}`, JSON.stringify(records(H1, 1)));
    expect(await createR2Store({ bucket: r2, prefix: p }).get(H1)).toBeUndefined();
  });
});

describe("combined store", () => {
  it("small values in KV, large ones in R2; reads find both", async () => {
    const p = prefix();
    const store = createCombinedStore({
      small: createKvStore({ namespace: kv, tenant: "acme", prefix: p }),
      large: createR2Store({ bucket: r2, tenant: "acme", prefix: p }),
      smallChars: 1000,
    });
    const H2 = "res_fedcba9876543210fedcba98";
    await store.put(records(H1, 3));
    await store.put(records(H2, 5000));
    await store.putPart("part_small", "short");
    await store.putPart("part_large", "x".repeat(5000));
    expect((await kv.list({ prefix: p })).keys.map((k) => k.name).sort()).toEqual([
      `${p}t:acme/p/part_small`,
      `${p}t:acme/r/${H1}`,
    ]);
    expect((await r2.list({ prefix: p })).objects.map((o) => o.key).sort()).toEqual([
      `${p}t:acme/p/part_large`,
      `${p}t:acme/r/${H2}`,
    ]);
    expect((await store.get(H2))?.handle).toBe(H2);
    expect(await store.getPart("part_large")).toHaveLength(5000);
  });
});

describe("pending store", () => {
  it("a result that fit whole is not written; one that was cut is written when committed", async () => {
    const p = prefix();
    const inner = createKvStore({ namespace: kv, tenant: "acme", prefix: p });
    const small = createPendingStore(inner);
    const whole = await shape("ERROR one line\n", { maxTokens: 500, store: small.store });
    expect(whole.meta.truncated).toBe(false);
    small.discard();
    expect((await kv.list({ prefix: p })).keys).toEqual([]);

    const cut = createPendingStore(inner);
    const log = Array.from({ length: 5000 }, (_, i) => `L${i + 1} INFO row ${i}`).join("\n");
    const shaped = await shape(log, { maxTokens: 300, store: cut.store });
    expect(shaped.meta.truncated).toBe(true);
    expect(await cut.commit()).toBe(true);
    const read = createResultReader({ maxTokens: 2000, store: inner });
    const page = await read({ handle: shaped.meta.handle, lines: { from: 4990, to: 5000 } });
    // A range of the result: partial, and the lines are there.
    expect(page.status).toBe("partial");
    expect(page.text).toContain("L5000 INFO row 4999");
  });
});

describe("sealed raw artifacts", () => {
  const secretLine = (i: number) => `line ${i} token=${"k".repeat(8)}${i.toString(16)}\n`;
  const bodyOf = (lines: number) => Array.from({ length: lines }, (_, i) => secretLine(i)).join("");

  it("seals in chunks that hold no plaintext, and opens with the key, byte for byte", async () => {
    const p = prefix();
    const key = await importSealKey(crypto.getRandomValues(new Uint8Array(32)));
    const store = createSealedStore({ bucket: raw, tenant: "acme", prefix: p, chunkBytes: 4096 });
    const text = bodyOf(2000);
    const ref = await store.seal(new Blob([text]).stream(), key, { contentType: "text/plain" });
    expect(ref?.id).toMatch(/^raw_[0-9a-f]{32}$/);
    expect(ref?.bytes).toBe(text.length);
    const objects = (await raw.list({ prefix: p })).objects;
    expect(objects.length).toBe(Math.ceil(text.length / 4096) + 1);
    for (const o of objects) {
      const stored = await (await raw.get(o.key))?.text();
      expect(stored).not.toContain("token=");
    }
    const opened = await store.open(ref?.id as string, key);
    expect(opened?.contentType).toBe("text/plain");
    expect(await new Response(opened?.stream).text()).toBe(text);
  });

  it("another key does not open it; another tenant does not find it; read_result cannot reach it", async () => {
    const p = prefix();
    const key = await importSealKey(crypto.getRandomValues(new Uint8Array(32)));
    const wrong = await importSealKey(crypto.getRandomValues(new Uint8Array(32)));
    const acme = createSealedStore({ bucket: raw, tenant: "acme", prefix: p });
    const ref = await acme.seal("the raw artifact", key);
    const id = ref?.id as string;
    await expect(acme.open(id, wrong)).rejects.toMatchObject({ code: "store/wrong-key" });
    const globex = createSealedStore({ bucket: raw, tenant: "globex", prefix: p });
    expect(await globex.open(id, key)).toBeUndefined();
    // The result stores of the same bucket and prefix see no handle in it.
    const results = createR2Store({ bucket: raw, tenant: "acme", prefix: p });
    const read = createResultReader({ maxTokens: 500, store: results });
    for (const handle of [id, `res_${id.slice(4, 28)}`]) {
      const page = await read({ handle });
      expect(page.status).toBe("error");
      expect(page.text).not.toContain("the raw artifact");
    }
    // Control: the right key opens it.
    expect(await new Response((await acme.open(id, key))?.stream).text()).toBe("the raw artifact");
  });

  it("a chunk moved to another position does not open; a seal over maxBytes keeps nothing", async () => {
    const p = prefix();
    const key = await importSealKey(crypto.getRandomValues(new Uint8Array(32)));
    const store = createSealedStore({ bucket: raw, tenant: "acme", prefix: p, chunkBytes: 1024 });
    const ref = await store.seal("a".repeat(1024) + "b".repeat(1024), key);
    const id = ref?.id as string;
    const k0 = `${p}t:acme/s/${id}_0`;
    const k1 = `${p}t:acme/s/${id}_1`;
    const c0 = await (await raw.get(k0))?.arrayBuffer();
    const c1 = await (await raw.get(k1))?.arrayBuffer();
    await raw.put(k0, c1 as ArrayBuffer);
    await raw.put(k1, c0 as ArrayBuffer);
    const opened = await store.open(id, key);
    await expect(new Response(opened?.stream).text()).rejects.toThrow(/does not open/);

    const q = prefix();
    const small = createSealedStore({
      bucket: raw,
      tenant: "acme",
      prefix: q,
      maxBytes: 2000,
      chunkBytes: 1024,
    });
    expect(await small.seal("x".repeat(2001), key)).toBeUndefined();
    expect((await raw.list({ prefix: q })).objects).toEqual([]);
    // Control: at the limit it is kept.
    expect((await small.seal("x".repeat(2000), key))?.bytes).toBe(2000);
  });

  it("a sealed artifact past its TTL is not opened", async () => {
    const p = prefix();
    const time = clock();
    const key = await importSealKey(crypto.getRandomValues(new Uint8Array(32)));
    const store = createSealedStore({
      bucket: raw,
      tenant: "acme",
      prefix: p,
      ttlMs: 1000,
      ...time,
    });
    const ref = await store.seal("short-lived", key);
    time.advance(1001);
    expect(await store.open(ref?.id as string, key)).toBeUndefined();
  });
});
