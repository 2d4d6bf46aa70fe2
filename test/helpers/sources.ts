/** Test inputs built in memory, so the same suites run in Node, Chromium and workerd. */

const encoder = new TextEncoder();

/** A stream that hands out the given chunks one by one and records whether it was cancelled. */
export function chunkedStream(chunks: readonly (Uint8Array | string)[]): {
  stream: ReadableStream<Uint8Array>;
  pulled: () => number;
  cancelled: () => boolean;
} {
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= chunks.length) {
        controller.close();
        return;
      }
      const chunk = chunks[i++] as Uint8Array | string;
      controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => i, cancelled: () => cancelled };
}

/** Splits bytes into pieces of `size` bytes (so code points and lines straddle chunk edges). */
export function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.byteLength; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** A realistic, repetitive service log of `lines` lines, with line `n` as `${prefix} ${n}`. */
export function serviceLog(
  lines: number,
  overrides: ReadonlyMap<number, string> = new Map(),
): string {
  const out: string[] = [];
  for (let n = 1; n <= lines; n++) {
    const override = overrides.get(n);
    if (override !== undefined) {
      out.push(override);
      continue;
    }
    const s = String(n % 60).padStart(2, "0");
    out.push(
      `2026-11-30T10:${String(Math.floor(n / 60) % 60).padStart(2, "0")}:${s}.${n % 1000}Z INFO http GET /api/items/${n} 200 ${n % 97}ms`,
    );
  }
  return out.join("\n");
}

/** An endless-feeling stream of `total` bytes of log lines, generated lazily chunk by chunk. */
export function generatedLogStream(
  totalBytes: number,
  options: {
    errorAtByte?: number;
    errorLine?: string;
    chunkBytes?: number;
    onPull?: () => void;
  } = {},
): ReadableStream<Uint8Array> {
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  // One reusable chunk of lines; lines differ by number, so repeats never fold across it.
  let text = "";
  for (let n = 0; text.length < chunkBytes - 200; n++) {
    text += `2026-11-30T10:00:${String(n % 60).padStart(2, "0")}Z INFO worker-${n % 8} processed job ${n} in ${n % 113}ms\n`;
  }
  const chunk = encoder.encode(text);
  const errorChunk = encoder.encode(
    `${text.slice(0, text.length >> 1)}${options.errorLine ?? "FATAL: disk quota exceeded on /var/lib/data"}\n${text.slice(text.length >> 1)}`,
  );
  let sent = 0;
  let errorSent = options.errorAtByte === undefined;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      options.onPull?.();
      if (sent >= totalBytes) {
        controller.close();
        return;
      }
      let piece = chunk;
      if (
        !errorSent &&
        options.errorAtByte !== undefined &&
        sent + chunk.byteLength > options.errorAtByte
      ) {
        piece = errorChunk;
        errorSent = true;
      }
      const remaining = totalBytes - sent;
      const out = piece.byteLength > remaining ? piece.subarray(0, remaining) : piece;
      sent += out.byteLength;
      controller.enqueue(out);
    },
  });
}

export function bytesOf(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Independent count of tokens for assertions: the same encoding as the default, loaded here. */
export async function o200kCount(text: string): Promise<number> {
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  return countTokens(text, { disallowedSpecial: new Set() });
}

/** Inner lines of a fenced text (without the opening and closing fence lines). */
export function body(text: string): string[] {
  const lines = text.split("\n");
  return lines.slice(1, -1);
}

/** Parses every `[airlock: omitted … lines a-b]` marker (grammar 2: the total is in the summary). */
export function gaps(text: string): Array<{ section: string; from: number; to: number }> {
  const out: Array<{ section: string; from: number; to: number }> = [];
  const re = /^\[airlock: omitted (?:(stdout|stderr) )?lines? (\d+)(?:-(\d+))?\]$/gm;
  for (const m of text.matchAll(re)) {
    out.push({ section: m[1] ?? "text", from: Number(m[2]), to: Number(m[3] ?? m[2]) });
  }
  return out;
}

/** The text as a stream of its UTF-8 bytes cut at the given offsets (each taken modulo its length). */
export function streamCutAt(text: string, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const bytes = bytesOf(text);
  const points = [...new Set(cuts.map((c) => c % Math.max(1, bytes.byteLength)))].sort(
    (a, b) => a - b,
  );
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const p of points) {
    if (p > at) chunks.push(bytes.subarray(at, p));
    at = Math.max(at, p);
  }
  chunks.push(bytes.subarray(at));
  return chunkedStream(chunks).stream;
}
