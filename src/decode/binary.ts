/**
 * Binary content is never decoded: it is described (type, size, SHA-256). Bytes are held in one
 * growing buffer only up to `hashLimit`; past it the read stops, since the size is all that is
 * left to learn (and a source that knows its size tells it without being read).
 */
import type { CappedReader } from "../intake/budget.js";
import { sha256Hex } from "../intake/digest.js";
import type { BinaryInfo } from "../pipeline/shaped.js";

/**
 * @example
 * const info = await readBinary(reader, "image/png", 16 << 20); // { mime, bytes, complete, sha256 }
 */
export async function readBinary(
  reader: CappedReader,
  mime: string,
  hashLimit: number,
): Promise<BinaryInfo> {
  let buffer = new Uint8Array(0);
  let length = 0;
  while (length <= hashLimit) {
    const chunk = await reader.read(Math.max(1, hashLimit + 1 - length));
    if (chunk === undefined) break;
    if (length + chunk.byteLength > buffer.byteLength) {
      const grown = new Uint8Array(
        Math.min(
          Math.max(buffer.byteLength * 2, length + chunk.byteLength, 4096),
          hashLimit + chunk.byteLength,
        ),
      );
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(chunk, length);
    length += chunk.byteLength;
  }
  const exhausted = reader.ended;
  if (!exhausted) reader.stop();
  const sha256 = exhausted ? await sha256Hex(buffer.subarray(0, length)) : undefined;
  const known = reader.size !== undefined;
  return {
    mime,
    bytes: exhausted ? reader.bytes : known ? (reader.size as number) : reader.bytes,
    complete: exhausted || known,
    ...(sha256 ? { sha256 } : {}),
  };
}
