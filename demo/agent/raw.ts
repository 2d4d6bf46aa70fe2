/**
 * The raw results the model did not read: what each tool returned before airlock shaped it,
 * kept in the page's memory for the person (the tool-call card's "raw result" view). A tool's
 * output can be 50 MB, so only its first RAW_SHOWN bytes are kept, cut at a line end (a secret
 * is never cut in two, which would hide it from the masking), and counted in full. The view
 * shows them with their secrets masked by `redact()`, unless the person reveals them.
 */
import { redact } from "agent-airlock";

/** Bytes of a raw result kept for the view. */
export const RAW_SHOWN = 64 * 1024;

export interface RawResult {
  /** The start of what the tool returned, as text, at most RAW_SHOWN bytes, whole lines. */
  readonly text: string;
  /** Bytes the tool returned in all. */
  readonly bytes: number;
  /** Whether `text` is all of it. */
  readonly whole: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The start of `bytes` as text: whole lines, within RAW_SHOWN. */
function startOf(bytes: Uint8Array, total: number): RawResult {
  if (total <= RAW_SHOWN) return { text: decoder.decode(bytes), bytes: total, whole: true };
  const text = decoder.decode(bytes.subarray(0, RAW_SHOWN));
  const end = text.lastIndexOf("\n");
  return { text: end > 0 ? text.slice(0, end + 1) : "", bytes: total, whole: false };
}

/** A raw result from text the tool returned whole. */
export function rawOf(text: string): RawResult {
  const bytes = encoder.encode(text);
  return startOf(bytes, bytes.byteLength);
}

/**
 * The stream as the tool returned it, with its start kept for the raw view (`onDone` gets it
 * when the stream ends). It also gives the page a turn every MiB, as a read from the network
 * would: a 50 MB log generated in the page would otherwise hold it until the last byte.
 */
export function tapStream(
  stream: ReadableStream<Uint8Array>,
  onDone: (raw: RawResult) => void,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  const start = new Uint8Array(RAW_SHOWN + 1);
  let kept = 0;
  let total = 0;
  let sinceTurn = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        onDone(startOf(start.subarray(0, kept), total));
        controller.close();
        return;
      }
      if (kept < start.length) {
        const take = value.subarray(0, start.length - kept);
        start.set(take, kept);
        kept += take.byteLength;
      }
      total += value.byteLength;
      sinceTurn += value.byteLength;
      controller.enqueue(value);
      if (sinceTurn >= 1 << 20) {
        sinceTurn = 0;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** The raw text with every secret `redact()` finds replaced by its `[REDACTED:rule]` mark. */
export function masked(raw: RawResult): string {
  return redact(raw.text).text;
}
