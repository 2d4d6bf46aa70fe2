/**
 * The raw artifact: what a tool returned, byte for byte, before any shaping or redaction, kept
 * for the host's own users (a person who must see the whole build log), never for the model. It
 * is sealed with AES-GCM under a key the host provides (`crypto.subtle`), in chunks of 1 MiB as
 * it streams in, and opened only by a call that presents that key: `read_result` has no way to
 * it (it reads the result store, and its handles are not sealed ids).
 *
 * Layout under the tenant's prefix: `s/raw_<id>_<n>` for each chunk (12-byte IV, then the
 * ciphertext), and `s/raw_<id>` last, the head: the chunk count, byte count and content type,
 * sealed too. Every chunk's additional data names the tenant, the id and its position, so a
 * chunk moved to another artifact, position or tenant fails to open; the head is written last,
 * so an artifact cut short by a failure is never found.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { SERVICE_LIMITS } from "./limits.js";
import { expiresOf, type R2BucketLike } from "./r2.js";
import { createScope, type ScopeOptions } from "./scope.js";

/**
 * The host's key as `crypto.subtle` gives it (`importSealKey`). Named through `crypto` rather
 * than the DOM's `CryptoKey`, so the package's types need no DOM lib under Node's types.
 */
export type SealKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export interface SealedStoreOptions extends ScopeOptions {
  /** Where the sealed chunks go: an R2 bucket binding (best kept apart from the results). */
  readonly bucket: R2BucketLike;
  /** Largest artifact, in bytes: a larger one is not kept (`seal` returns undefined). Default 256 MiB. */
  readonly maxBytes?: number;
  /** Bytes of plaintext per chunk. Default 1 MiB. */
  readonly chunkBytes?: number;
}

/** What `seal` kept. */
export interface SealedRef {
  /** `raw_` and 32 hex digits, random: it says nothing about the content. */
  readonly id: string;
  readonly bytes: number;
  readonly contentType?: string;
}

export interface OpenedArtifact {
  readonly bytes: number;
  readonly contentType?: string;
  /** The plaintext, chunk by chunk; it errors if a chunk is missing or was altered. */
  readonly stream: ReadableStream<Uint8Array>;
}

export interface SealedStore {
  /** Seals an artifact; undefined when it is larger than `maxBytes` or the bucket failed. */
  seal(
    source: ReadableStream<Uint8Array> | Uint8Array | string,
    key: SealKey,
    options?: { readonly contentType?: string },
  ): Promise<SealedRef | undefined>;
  /**
   * Opens an artifact of this tenant: undefined when there is none by that id (or it expired);
   * throws `store/wrong-key` when the key is not the one it was sealed with.
   */
  open(id: string, key: SealKey): Promise<OpenedArtifact | undefined>;
  delete(id: string): Promise<void>;
}

/**
 * The host's key, as 32 raw bytes or their base64: an AES-256-GCM key that cannot be exported.
 *
 * @example
 * const key = await importSealKey(env.AIRLOCK_RAW_KEY); // 32 random bytes, base64
 */
export async function importSealKey(raw: Uint8Array | string): Promise<SealKey> {
  let bytes: Uint8Array;
  if (typeof raw === "string") {
    try {
      bytes = Uint8Array.from(atob(raw.trim()), (c) => c.charCodeAt(0));
    } catch {
      throw new AirlockError("options/invalid", "importSealKey: the key is not base64");
    }
  } else bytes = raw;
  if (bytes.byteLength !== 32)
    throw new AirlockError("options/invalid", "importSealKey: the key must be 32 bytes (AES-256)");
  return crypto.subtle.importKey("raw", bytes as Uint8Array<ArrayBuffer>, "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
}

const ID = /^raw_[0-9a-f]{32}$/;
const encoder = new TextEncoder();

/**
 * @example
 * const raw = createSealedStore({ bucket: env.RAW_R2, tenant: caller.tenant });
 * const ref = await raw.seal(bodyCopy, key, { contentType: "text/plain" });
 * const opened = await raw.open(ref.id, key); // only where the host holds the key
 */
export function createSealedStore(options: SealedStoreOptions): SealedStore {
  const bucket = options.bucket;
  const scope = createScope(options, SERVICE_LIMITS.r2KeyBytes);
  const maxBytes = options.maxBytes ?? 256 << 20;
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  if (!Number.isSafeInteger(chunkBytes) || chunkBytes < 1024)
    throw new AirlockError(
      "options/invalid",
      "createSealedStore: chunkBytes must be at least 1024",
    );
  const tenant = scope.tenant;
  const aad = (id: string, part: string) =>
    encoder.encode(`airlock-sealed/1\u0000${tenant}\u0000${id}\u0000${part}`);
  const chunkKey = (id: string, n: number) => scope.key("s", `${id}_${n}`) as string;
  const headKey = (id: string) => scope.key("s", id) as string;

  async function encrypt(key: SealKey, data: Uint8Array, additional: Uint8Array) {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: additional as Uint8Array<ArrayBuffer> },
      key,
      data as Uint8Array<ArrayBuffer>,
    );
    const out = new Uint8Array(12 + sealed.byteLength);
    out.set(iv);
    out.set(new Uint8Array(sealed), 12);
    return out;
  }

  async function decrypt(key: SealKey, data: ArrayBuffer, additional: Uint8Array) {
    if (data.byteLength < 28) throw new Error("too short");
    return new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: new Uint8Array(data, 0, 12),
          additionalData: additional as Uint8Array<ArrayBuffer>,
        },
        key,
        new Uint8Array(data, 12),
      ),
    );
  }

  async function remove(id: string, chunks: number) {
    const keys = [headKey(id)];
    for (let n = 0; n < chunks; n++) keys.push(chunkKey(id, n));
    // R2 deletes up to 1000 keys per call.
    for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
  }

  return {
    async seal(source, key, sealOptions = {}) {
      const id = `raw_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
      const expires = String(scope.now() + scope.ttlMs);
      const reader = (
        typeof source === "string" || source instanceof Uint8Array
          ? new Blob([source as BlobPart]).stream()
          : source
      ).getReader();
      let chunks = 0;
      let bytes = 0;
      let buffer = new Uint8Array(chunkBytes);
      let filled = 0;
      const flush = async () => {
        const sealed = await encrypt(
          key,
          buffer.subarray(0, filled),
          aad(id, `chunk\u0000${chunks}`),
        );
        await bucket.put(chunkKey(id, chunks), sealed, { customMetadata: { expires } });
        chunks++;
        filled = 0;
        buffer = new Uint8Array(chunkBytes);
      };
      try {
        for (;;) {
          const step = await reader.read();
          if (step.done) break;
          let view = step.value;
          bytes += view.byteLength;
          if (bytes > maxBytes) {
            await reader.cancel().catch(() => {});
            await remove(id, chunks).catch(() => {});
            return undefined;
          }
          while (view.byteLength > 0) {
            const n = Math.min(view.byteLength, chunkBytes - filled);
            buffer.set(view.subarray(0, n), filled);
            filled += n;
            view = view.subarray(n);
            if (filled === chunkBytes) await flush();
          }
        }
        if (filled > 0) await flush();
        const contentType = sealOptions.contentType;
        const head = encoder.encode(
          JSON.stringify({ chunks, bytes, contentType: contentType ?? null }),
        );
        await bucket.put(headKey(id), await encrypt(key, head, aad(id, "head")), {
          customMetadata: { expires, chunks: String(chunks) },
        });
        return { id, bytes, ...(contentType !== undefined ? { contentType } : {}) };
      } catch {
        reader.cancel().catch(() => {});
        await remove(id, chunks).catch(() => {});
        return undefined;
      }
    },

    async open(id, key) {
      if (typeof id !== "string" || !ID.test(id)) return undefined;
      const object = await bucket.get(headKey(id));
      if (object === null) return undefined;
      const expires = expiresOf(object);
      if (expires === undefined || expires <= scope.now()) return undefined;
      let head: { chunks: number; bytes: number; contentType: string | null };
      try {
        head = JSON.parse(
          new TextDecoder().decode(await decrypt(key, await object.arrayBuffer(), aad(id, "head"))),
        );
      } catch (cause) {
        throw new AirlockError("store/wrong-key", "sealed: this key does not open the artifact", {
          cause,
        });
      }
      let n = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (n >= head.chunks) return controller.close();
          const chunk = await bucket.get(chunkKey(id, n));
          if (chunk === null)
            return controller.error(new Error(`sealed: chunk ${n} of ${id} is gone`));
          try {
            controller.enqueue(
              await decrypt(key, await chunk.arrayBuffer(), aad(id, `chunk\u0000${n}`)),
            );
          } catch {
            controller.error(new Error(`sealed: chunk ${n} of ${id} does not open`));
          }
          n++;
        },
      });
      return {
        bytes: head.bytes,
        ...(head.contentType !== null ? { contentType: head.contentType } : {}),
        stream,
      };
    },

    async delete(id) {
      if (typeof id !== "string" || !ID.test(id)) return;
      const object = await bucket.head(headKey(id));
      const chunks = Number(object?.customMetadata?.chunks ?? 0);
      await remove(id, Number.isSafeInteger(chunks) ? chunks : 0);
    },
  };
}
