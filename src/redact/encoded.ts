/**
 * Values that are encoded before they are stored or sent (Kubernetes Secret data, SMTP SASL
 * blobs): decoded so that what they hold can be judged. A certificate or a public key stays; a
 * secret inside redacts the encoded value.
 */

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Strict standard base64 (padding optional) to bytes, or undefined when it is not base64. */
export function decodeBase64(value: string): Uint8Array | undefined {
  if (value.length < 4 || !BASE64.test(value)) return undefined;
  const body = value.replace(/=+$/, "");
  if (body.length % 4 === 1) return undefined;
  const padded = body + "=".repeat((4 - (body.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as text, when they are UTF-8 without control characters; undefined for binary. */
export function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return undefined;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Control characters other than tab, line feed and carriage return: binary.
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return undefined;
  }
  return text;
}

/** Certificates, public keys and other material that is public by design. */
const PUBLIC_MATERIAL =
  /^\s*(?:-----BEGIN (?:CERTIFICATE|TRUSTED CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|X509 CRL|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST|PGP PUBLIC KEY BLOCK|SSH2 PUBLIC KEY)-----|(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) AAAA)/;

/** True for a certificate, a public key, or an SSH public key line. */
export function isPublicMaterial(text: string): boolean {
  return PUBLIC_MATERIAL.test(text);
}
