/**
 * Turns any text source into a byte stream that reports its progress and notes, as the bytes pass
 * on their way to `shape()`, how many lines there were and where the error-looking ones were.
 * One pass: the input is read once, by the library, and observed on the way.
 */
import type { SectionName } from "agent-airlock";
import type { SectionScan } from "./protocol.ts";

const ERROR_LINE = /\b(?:error|fatal|fail(?:ed|ure)?|panic|exception|traceback)\b/i;
/** Error positions listed per section; beyond this they are only counted. */
const MAX_ERROR_LINES = 5000;
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
 * Wraps `source` so that reading it counts bytes (`onBytes` gets each chunk's size), lines and
 * error lines into the returned `scan`.
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
  const scan: SectionScan = { name, bytes: 0, lines: 0, errorLines: [], moreErrors: 0 };
  const decoder = new TextDecoder();
  let partial = "";
  let kept: string | undefined = "";
  const look = (line: string) => {
    scan.lines++;
    if (!ERROR_LINE.test(line)) return;
    if (scan.errorLines.length < MAX_ERROR_LINES) scan.errorLines.push(scan.lines);
    else scan.moreErrors++;
  };
  const take = (text: string) => {
    if (kept !== undefined) kept = kept.length + text.length <= keepChars ? kept + text : undefined;
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) look(line);
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
        if (partial !== "") look(partial);
        partial = "";
      },
    }),
  );
  return { stream, scan, total, text: () => kept };
}
