/**
 * The limits of the services the edge stores write to, as Cloudflare documents them
 * (developers.cloudflare.com: kv/platform/limits, r2/platform/limits, workers/platform/limits).
 * The stores check them before they call the service, so a result too large for a value gets
 * no handle instead of a failed write.
 */
export const SERVICE_LIMITS = Object.freeze({
  /** Workers KV: largest value, in bytes (25 MiB). */
  kvValueBytes: 25 * 1024 * 1024,
  /** Workers KV: longest key, in bytes. */
  kvKeyBytes: 512,
  /** Workers KV: the shortest `expirationTtl`, in seconds. */
  kvMinTtlSeconds: 60,
  /** Workers KV: metadata per key, in bytes. */
  kvMetadataBytes: 1024,
  /** R2: longest object key, in bytes. */
  r2KeyBytes: 1024,
  /** R2: custom metadata per object, in bytes. */
  r2MetadataBytes: 8192,
  /** Workers: memory of one isolate, in bytes (128 MB), shared by the requests it serves. */
  workerMemoryBytes: 128 * 1000 * 1000,
  /** Workers: calls to bindings and subrequests one invocation may make. */
  workerOperations: 1000,
});
