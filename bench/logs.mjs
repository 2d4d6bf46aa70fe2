/**
 * Generated service logs for benchmarks: realistic line shapes (timestamp, level, service,
 * request, latency), about 120 bytes a line, with one fatal error planted at a chosen byte.
 * Eight distinct 1 MiB chunks are built once and cycled, so generation costs almost nothing.
 */
const encoder = new TextEncoder();
const services = ["api", "auth", "billing", "search", "worker", "gateway"];
const paths = [
  "/v1/items",
  "/v1/users/me",
  "/v1/orders",
  "/healthz",
  "/v1/search?q=shoes",
  "/v1/cart",
];

function line(n, seed) {
  const s = (n * 7919 + seed * 104729) >>> 0;
  const level = s % 997 === 0 ? "WARN " : s % 5 === 0 ? "DEBUG" : "INFO ";
  const svc = services[s % services.length];
  const path = paths[(s >>> 3) % paths.length];
  const ms = (s % 4000) / 10;
  const t = `2026-11-30T10:${String((n >>> 12) % 60).padStart(2, "0")}:${String((n >>> 6) % 60).padStart(2, "0")}.${String(n % 1000).padStart(3, "0")}Z`;
  return `${t} ${level} ${svc}-${s % 7} req=${((s * 2654435761) >>> 0).toString(16)} GET ${path} status=200 dur=${ms}ms bytes=${s % 65536}\n`;
}

export function makeChunks(count = 8, size = 1 << 20) {
  const chunks = [];
  let n = 0;
  for (let c = 0; c < count; c++) {
    let text = "";
    while (text.length < size - 200) text += line(n++, c);
    chunks.push(encoder.encode(text));
  }
  return chunks;
}

export const FATAL =
  "2026-11-30T10:31:07.001Z FATAL billing-2 ledger write failed: disk quota exceeded on /var/lib/ledger (errno=122)";

/**
 * A ReadableStream of `total` bytes of log, with FATAL planted after `errorAt` bytes. `onPull`
 * runs before each chunk: the benchmark samples memory there, since a stream read in a tight
 * loop of microtasks never lets a timer fire.
 */
export function logStream(chunks, total, errorAt = total / 2, onPull = () => {}) {
  let sent = 0;
  let i = 0;
  let planted = false;
  const fatal = encoder.encode(`${FATAL}\n`);
  return new ReadableStream({
    pull(controller) {
      onPull();
      if (sent >= total) {
        controller.close();
        return;
      }
      if (!planted && sent >= errorAt) {
        planted = true;
        controller.enqueue(fatal);
        sent += fatal.byteLength;
        return;
      }
      const chunk = chunks[i++ % chunks.length];
      const piece = chunk.byteLength > total - sent ? chunk.subarray(0, total - sent) : chunk;
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
  });
}
