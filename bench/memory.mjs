/**
 * Memory of shape() against its budget, and on the inputs that used to blow it up, next to a
 * baseline run in the same process (a plain TextDecoder pass over the same stream):
 *   per budget token   peak heap growth while shaping a 64 MiB log stream, for maxTokens from
 *                      1,000 to 256,000: bytes per budget token, and the growth ratio per 4x
 *   binary, 1-byte     a 1 MiB binary stream in 1-byte chunks (1,048,576 reads): peak growth
 *   text, 1-byte       a 1 MiB text stream in 1-byte chunks: MB/s against the decode pass
 * Peak is the growth of heapUsed + arrayBuffers during the run, sampled every 16th read
 * (garbage included, so it is an upper bound); run with --expose-gc for a clean start.
 *
 *   npm run bench:memory
 */
import { shape } from "../dist/index.js";
import { logStream, makeChunks } from "./logs.mjs";

const MiB = 1024 ** 2;
const chunks = makeChunks();
const gc = globalThis.gc ?? (() => undefined);

async function peakOf(run) {
  gc();
  const base = process.memoryUsage();
  const start = base.heapUsed + base.arrayBuffers;
  let peak = 0;
  let reads = 0;
  const sample = () => {
    if (reads++ % 16 !== 0) return;
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - start);
  };
  const t0 = performance.now();
  const out = await run(sample);
  return { peak, seconds: (performance.now() - t0) / 1000, out };
}

/** A stream of `bytes` in chunks of `size`, calling `onPull` before each. */
function sliced(bytes, size, onPull) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      onPull();
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

async function decode(stream) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let chars = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return chars;
    chars += decoder.decode(value, { stream: true }).length;
  }
}

const mb = (n) => `${(n / MiB).toFixed(1)} MiB`;
console.log(`node ${process.version}; peak = growth of heapUsed + arrayBuffers during the run\n`);

// 1. Per budget token.
const total = 64 * MiB;
// Warm up first: the tokenizer's rank table and compiled code would otherwise count as the
// first budget's memory.
await shape(logStream(chunks, 8 * MiB), { maxTokens: 1000, untrusted: false });
const floor = await peakOf((sample) => decode(logStream(chunks, total, total / 2, sample)));
console.log(`per budget token: a ${mb(total)} log stream`);
console.log(`  decode pass (baseline)        peak ${mb(floor.peak).padStart(10)}`);
let previous;
let previousTokens;
const peaks = [];
for (const maxTokens of [1_000, 4_000, 16_000, 64_000, 256_000]) {
  const r = await peakOf((sample) =>
    shape(logStream(chunks, total, total / 2, sample), { maxTokens, untrusted: false }),
  );
  // The marginal cost: extra peak per extra budget token since the last budget.
  const slope =
    previous === undefined
      ? ""
      : `${((r.peak - previous) / (maxTokens - previousTokens)).toFixed(0)} bytes per added budget token, ×${(r.peak / previous).toFixed(2)} for 4× the budget`;
  console.log(
    `  maxTokens ${String(maxTokens).padStart(7)}  peak ${mb(r.peak).padStart(10)}  ` +
      `${String(r.out.meta.tokens).padStart(6)} tokens shown  ${slope}`,
  );
  peaks.push([maxTokens, r.peak]);
  previous = r.peak;
  previousTokens = maxTokens;
}
const [t0, p0] = peaks[0];
const [t1, p1] = peaks[peaks.length - 1];
console.log(
  `  overall: ${mb(p0)} fixed, then ${((p1 - p0) / (t1 - t0)).toFixed(0)} bytes per budget token ` +
    `(${t0.toLocaleString("en")} to ${t1.toLocaleString("en")})`,
);

// 2. Binary and text in 1-byte chunks.
const binary = new Uint8Array(MiB);
for (let i = 0; i < binary.length; i++) binary[i] = (i * 2654435761) >>> 24;
const text = new TextEncoder().encode(
  Array.from({ length: 20_000 }, (_, i) => `line ${i} of a tool's output, nothing special\n`)
    .join("")
    .slice(0, MiB),
);
console.log("\n1-byte chunks");
const textFloor = await peakOf((sample) => decode(sliced(text, 1, sample)));
const bin = await peakOf((sample) =>
  shape(sliced(binary, 1, sample), { maxTokens: 2000, untrusted: false }),
);
console.log(
  `  binary 1 MiB   peak ${mb(bin.peak).padStart(10)}  ${bin.seconds.toFixed(2)} s  ` +
    `status ${bin.out.status}, kind ${bin.out.meta.kind}`,
);
const txt = await peakOf((sample) =>
  shape(sliced(text, 1, sample), { maxTokens: 2000, untrusted: false }),
);
const rate = (s) => (text.length / MiB / s).toFixed(2);
console.log(
  `  text 1 MiB     peak ${mb(txt.peak).padStart(10)}  ${rate(txt.seconds)} MB/s against ` +
    `${rate(textFloor.seconds)} MB/s for the decode pass (×${(textFloor.seconds / txt.seconds).toFixed(2)})`,
);
