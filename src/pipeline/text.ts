/** Text helpers every stage shares: slicing that never splits a surrogate pair, UTF-8 sizes. */

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * `text.slice(from, to)`, with both ends moved inwards off the middle of a surrogate pair.
 *
 * @example
 * safeSlice("a😀b", 0, 2); // "a"
 */
export function safeSlice(text: string, from: number, to: number): string {
  let a = Math.max(0, from);
  let b = Math.min(text.length, to);
  if (a > 0 && a < text.length && isLow(text.charCodeAt(a)) && isHigh(text.charCodeAt(a - 1)))
    a += 1;
  if (b > 0 && b < text.length && isLow(text.charCodeAt(b)) && isHigh(text.charCodeAt(b - 1)))
    b -= 1;
  return a >= b ? "" : text.slice(a, b);
}

/**
 * The first `max` code units of `text` (fewer by one rather than half a pair), with `ellipsis`
 * appended when anything was cut.
 *
 * @example
 * cutText("abcdef", 3, "…"); // "abc…"
 */
export function cutText(text: string, max: number, ellipsis = ""): string {
  if (text.length <= max) return text;
  return `${safeSlice(text, 0, max)}${ellipsis}`;
}

/** The first character that is not ASCII (every surrogate is above U+007F). */
const NOT_ASCII = /[\u0080-\uffff]/;

/**
 * UTF-8 bytes of a string, without encoding it (a lone surrogate counts as U+FFFD: 3 bytes).
 * An ASCII prefix is measured by a native scan, not a character loop.
 *
 * @example
 * utf8Length("é"); // 2
 */
export function utf8Length(text: string): number {
  const first = text.search(NOT_ASCII);
  if (first === -1) return text.length;
  let n = first;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (isHigh(c) && isLow(text.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Bytes a UTF-8 sequence has, from its lead byte (1 for ASCII and for bytes that cannot lead). */
export function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

/** Length of `bytes` without a UTF-8 sequence cut off at its end. */
export function completeLength(bytes: Uint8Array): number {
  const n = bytes.byteLength;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back] as number;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    return sequenceLength(b) > back ? n - back : n;
  }
  return n;
}

/**
 * A copy of `text` that does not keep its source alive. Lines are slices of 1 MiB decoded
 * chunks, and V8 keeps the whole chunk alive for as long as a slice of it lives: a string held
 * past the run (a kept line, a summary's time) would otherwise pin a megabyte each.
 *
 * @example
 * const line = detach(chunk.slice(at, end)); // chunk may now be collected
 */
export function detach(text: string): string {
  return text.length === 0 ? text : ` ${text}`.slice(1);
}
