/**
 * Base64 data of MCP parts (images, audio, blob resources), decoded a window at a time: a blob
 * resource streams into the pipeline, so its byte cap applies as it is read; an image that is
 * not kept is hashed for its placeholder. Only Web APIs (`atob`, `crypto.subtle`).
 */

/** Base64 characters decoded at a time: a multiple of 4, about 48 KiB of bytes. */
const WINDOW = 64 * 1024;
const WHITESPACE = /[\t\n\f\r ]+/g;

function bytesOf(binary: string): Uint8Array {
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Something in a window that is not base64: the bytes before it, and where it is. */
class InvalidBase64 extends Error {
  constructor(
    readonly before: Uint8Array,
    at: number,
  ) {
    super(`invalid base64 near character ${at}`);
  }
}

function decodeWindow(text: string, at: number): Uint8Array {
  try {
    return bytesOf(atob(text));
  } catch {
    // The whole groups before the first character that is not base64 are still data.
    const bad = text.search(/[^A-Za-z0-9+/=]|=[^=]/);
    const whole = Math.max(0, bad - (bad % 4));
    let before: Uint8Array = new Uint8Array(0);
    try {
      before = bytesOf(atob(text.slice(0, whole)));
    } catch {
      // Padding in the middle: nothing of this window is kept.
    }
    throw new InvalidBase64(before, at + Math.max(0, bad));
  }
}

/**
 * The bytes that base64 text stands for, a window at a time. Whitespace is skipped, as `atob`
 * skips it; anything else that is not base64 ends the stream with an error (the pipeline reports
 * a read that failed there, and shows what came before).
 *
 * @example
 * for await (const chunk of base64Chunks(part.data)) hash.update(chunk);
 */
export async function* base64Chunks(data: string): AsyncGenerator<Uint8Array> {
  let carry = "";
  try {
    for (let at = 0; at < data.length; at += WINDOW) {
      const piece = carry + data.slice(at, at + WINDOW).replace(WHITESPACE, "");
      const whole = piece.length - (piece.length % 4);
      carry = piece.slice(whole);
      if (whole > 0) yield decodeWindow(piece.slice(0, whole), at);
    }
    if (carry !== "") yield decodeWindow(carry, data.length);
  } catch (error) {
    if (!(error instanceof InvalidBase64)) throw error;
    if (error.before.byteLength > 0) yield error.before;
    throw new Error(error.message);
  }
}

export interface Digest {
  readonly bytes: number;
  /** Hex SHA-256 of the decoded bytes, when they were no more than the hash limit. */
  readonly sha256?: string;
  /** False when the data is not base64 (the bytes are those before the first bad window). */
  readonly valid: boolean;
}

/**
 * The size and SHA-256 of base64 data, for the placeholder of a part that is not shown.
 *
 * @example
 * const { bytes, sha256 } = await digestBase64(image.data, 16 << 20);
 */
export async function digestBase64(data: string, hashLimit: number): Promise<Digest> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let valid = true;
  try {
    for await (const chunk of base64Chunks(data)) {
      bytes += chunk.byteLength;
      if (bytes <= hashLimit) chunks.push(chunk);
      else chunks.length = 0;
    }
  } catch {
    valid = false;
  }
  if (!valid || bytes > hashLimit) return { bytes, valid };
  const all = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return { bytes, sha256: hex, valid };
}
