/**
 * Turns any text source into a byte stream that reports its progress and notes, as the bytes pass
 * on their way to `shape()`, how many lines there were. One pass: the input is read once, by the
 * library, and observed on the way. Where the evidence lies is the library's to say (`meta.evidence`).
 */
import type { SectionName } from "agent-airlock";
import type { SectionScan } from "./protocol.ts";

/** Strings and byte arrays are fed in slices of this size, so progress moves. */
const SLICE = 1024 * 1024;

export type TextSource = string | Uint8Array | Blob | ReadableStream<Uint8Array>;

function toStream(source: Exclude<TextSource, string>): ReadableStream<Uint8Array> {
  if (source instanceof ReadableStream) return source;
  if (source instanceof Blob) return source.stream();
  const bytes = source;
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.byteLength) controller.close();
      else {
        controller.enqueue(bytes.subarray(at, at + SLICE));
        at += SLICE;
      }
    },
  });
}

export interface Observed {
  readonly stream: ReadableStream<Uint8Array>;
  readonly scan: SectionScan;
  /** Bytes the source will yield, when known before reading. */
  readonly total: number | undefined;
  /** The decoded text, while it is no longer than `keepChars` (for an exact token count). */
  text(): string | undefined;
}

/**
 * Wraps `source` so that reading it counts bytes (`onBytes` gets each chunk's size) and lines into
 * the returned `scan`.
 */
export function observe(
  source: TextSource,
  name: SectionName,
  onBytes: (bytes: number) => void,
  keepChars = 0,
): Observed {
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  const total =
    bytes instanceof Uint8Array ? bytes.byteLength : bytes instanceof Blob ? bytes.size : undefined;
  const scan: SectionScan = { name, bytes: 0, lines: 0 };
  const decoder = new TextDecoder();
  // Whether an unfinished line is pending (its text is not needed, only that it is there).
  let partial = false;
  let kept: string | undefined = "";
  const take = (text: string) => {
    if (kept !== undefined) kept = kept.length + text.length <= keepChars ? kept + text : undefined;
    // Lines are counted at each newline; the last, unfinished one waits for the next chunk.
    let at = text.indexOf("\n");
    if (at === -1) {
      partial ||= text.length > 0;
      return;
    }
    for (; at !== -1; at = text.indexOf("\n", at + 1)) scan.lines++;
    partial = !text.endsWith("\n");
  };
  const stream = toStream(bytes).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        scan.bytes += chunk.byteLength;
        onBytes(chunk.byteLength);
        take(decoder.decode(chunk, { stream: true }));
        controller.enqueue(chunk);
      },
      flush() {
        take(decoder.decode());
        if (partial) scan.lines++;
        partial = false;
      },
    }),
  );
  return { stream, scan, total, text: () => kept };
}
