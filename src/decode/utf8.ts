import { completeLength, sequenceLength } from "../pipeline/text.js";

export { completeLength, sequenceLength };

/**
 * A UTF-8 decoder for chunked input that never splits a code point and never calls
 * `TextDecoder` in stream mode: V8 returns stream-mode results as two-byte strings, which makes
 * every later scan of an ASCII log about four times slower. Complete sequences are decoded
 * chunk by chunk; an incomplete one at a chunk's end is held (at most three bytes) and joined
 * with the start of the next chunk. Invalid bytes become U+FFFD exactly as in stream mode.
 */
export function createUtf8Decoder(
  onText: (text: string) => void,
  options: { readonly fatal?: boolean } = {},
): {
  write(bytes: Uint8Array): void;
  end(): void;
} {
  // With `fatal`, an invalid sequence throws a TypeError instead of becoming U+FFFD (JSON is
  // refused rather than repaired).
  const decoder = new TextDecoder("utf-8", { fatal: options.fatal === true });
  let held = new Uint8Array(0);

  return {
    write(input: Uint8Array) {
      let bytes = input;
      if (held.byteLength > 0) {
        const need = sequenceLength(held[0] as number) - held.byteLength;
        let k = 0;
        while (k < need && k < bytes.byteLength && ((bytes[k] as number) & 0xc0) === 0x80) k++;
        const joined = new Uint8Array(held.byteLength + k);
        joined.set(held);
        joined.set(bytes.subarray(0, k), held.byteLength);
        bytes = bytes.subarray(k);
        if (k < need && bytes.byteLength === 0) {
          held = joined; // still incomplete and the chunk is used up: wait for more
          return;
        }
        held = new Uint8Array(0);
        onText(decoder.decode(joined));
      }
      const complete = completeLength(bytes);
      if (complete < bytes.byteLength) held = bytes.slice(complete);
      if (complete > 0) onText(decoder.decode(bytes.subarray(0, complete)));
    },
    end() {
      if (held.byteLength > 0) onText(decoder.decode(held));
      held = new Uint8Array(0);
    },
  };
}
