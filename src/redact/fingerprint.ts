import { AirlockError } from "../errors/airlock-error.js";
import type { Finding, RedactOptions } from "./redact.js";

/**
 * A Web Crypto key, as `crypto.subtle.importKey` returns it, described by its shape: the
 * published types then compile with neither the DOM lib nor Node's types (`CryptoKey` is a DOM
 * name; Node's types call it `webcrypto.CryptoKey`), and a key from either fits.
 */
export interface WebCryptoKey {
  readonly algorithm: { readonly name: string };
  readonly extractable: boolean;
  readonly type: string;
  readonly usages: readonly string[];
}

/** A key for keyed fingerprints: raw bytes, a string (UTF-8), or an HMAC `CryptoKey`. */
export type FingerprintKey = string | Uint8Array | WebCryptoKey;

/** A finding with an HMAC-SHA-256 of the secret: equal secrets give equal fingerprints. */
export interface FingerprintedFinding extends Finding {
  /** 32 hex characters (128 bits) of HMAC-SHA-256(key, secret). */
  readonly fingerprint: string;
}

/** Imports `key` once for HMAC-SHA-256 signing. */
export async function importFingerprintKey(key: FingerprintKey): Promise<WebCryptoKey> {
  if (typeof key !== "string" && !(key instanceof Uint8Array)) return key;
  const raw = typeof key === "string" ? new TextEncoder().encode(key) : key;
  if (raw.byteLength < 16) {
    throw new AirlockError("options/invalid", "redact: an HMAC key needs at least 16 bytes");
  }
  return crypto.subtle.importKey(
    "raw",
    raw as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

/** HMAC-SHA-256 of `value` under `key`, as 32 hex characters. */
export async function fingerprintOf(key: WebCryptoKey, value: string): Promise<string> {
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key as CryptoKey, new TextEncoder().encode(value)),
  );
  let hex = "";
  for (const b of mac.subarray(0, 16)) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/**
 * Like `redact`, with a keyed fingerprint on each finding, so an operator can tell that two
 * results held the same secret (or that a leaked value was this one) without storing any secret.
 *
 * @example
 * const { findings } = await redactWithFingerprints(log, { key: env.AIRLOCK_HMAC_KEY });
 * findings[0].fingerprint; // "9f1c…" (same secret, same key: same fingerprint)
 */
export async function redactWithFingerprints(
  text: string,
  options: RedactOptions & { readonly key: FingerprintKey },
): Promise<{ text: string; findings: FingerprintedFinding[] }> {
  const key = await importFingerprintKey(options.key);
  const { compileRedactor } = await import("./compile.js");
  const { redactor } = compileRedactor(options);
  const { text: out, findings } = redactor(text);
  const fingerprinted = await Promise.all(
    findings.map(async (f) => ({
      ...f,
      fingerprint: await fingerprintOf(key, text.slice(f.start, f.end)),
    })),
  );
  return { text: out, findings: fingerprinted };
}
