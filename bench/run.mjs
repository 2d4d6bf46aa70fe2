/**
 * Throughput and memory of shape() on generated log streams, next to baselines run in the same
 * process (these machines are noisy, so only ratios measured together mean much):
 *   decode      a plain TextDecoder pass over the same stream (the floor any reader pays)
 *   head+tail   the position-only peer: split lines, keep the first and last 40
 *   floor       what a line not shown must pass at least: split lines, the keeper's severity
 *               gate on each, the redactor's keyword scan over each chunk (issue 26's floor)
 *   shape       airlock's shape(), maxTokens 2000, redaction on, no store (what is shown is
 *               redacted, not every line read)
 *   shape, store the same with a store: every line is redacted, for the store
 * Prints MB/s, the ratio to decode, peak memory growth, and whether the fatal error planted in
 * the middle of the log survived. Then redact() alone over a 100 MB log, in MB/s.
 *
 * AIRLOCK_BASELINE=<path to another build's index.js> adds that build's shape() to each size,
 * run in the same process (e.g. main built side by side), for before/after figures.
 *
 *   npm run bench                 (builds, then runs 200 MB and 1 GB)
 *   node --expose-gc bench/run.mjs 100MB
 */
import { pathToFileURL } from "node:url";
import { createMemoryStore, redact, shape } from "../dist/index.js";
import { anchorScanner } from "../dist/keep/evidence.js";
import { TRIGGER } from "../dist/redact/stream.js";
import { FATAL, logStream, makeChunks } from "./logs.mjs";

const baseline = process.env.AIRLOCK_BASELINE
  ? await import(pathToFileURL(process.env.AIRLOCK_BASELINE).href)
  : undefined;

const sizes = (process.argv[2] ?? "200MB,1GB").split(",").map((s) => {
  const m = /^(\d+)(MB|GB)$/i.exec(s.trim());
  if (!m) throw new Error(`bench: size "${s}" is not like 100MB or 1GB`);
  return Number(m[1]) * (m[2].toUpperCase() === "GB" ? 1024 ** 3 : 1024 ** 2);
});
const chunks = makeChunks();

async function measure(name, run) {
  globalThis.gc?.();
  const base = process.memoryUsage();
  const start = base.heapUsed + base.arrayBuffers;
  let peak = 0;
  let pulls = 0;
  const sample = () => {
    // Every 16th chunk: memoryUsage() itself costs about a millisecond.
    if (pulls++ % 16 !== 0) return;
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - start);
  };
  const t0 = performance.now();
  const kept = await run(sample);
  const seconds = (performance.now() - t0) / 1000;
  globalThis.gc?.();
  const after = process.memoryUsage();
  const retained = after.heapUsed + after.arrayBuffers - start;
  return { name, seconds, peak, retained, kept };
}

async function decodePass(total, sample) {
  const reader = logStream(chunks, total, total / 2, sample).getReader();
  const decoder = new TextDecoder();
  let chars = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chars += decoder.decode(value, { stream: true }).length;
  }
  return chars > 0 ? null : null;
}

async function headTail(total, sample, keep = 40) {
  // The usual peer: read everything, keep lines by position only.
  const reader = logStream(chunks, total, total / 2, sample).getReader();
  const decoder = new TextDecoder();
  const head = [];
  const tail = [];
  let carry = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const parts = (carry + decoder.decode(value, { stream: true })).split("\n");
    carry = parts.pop() ?? "";
    for (const l of parts) {
      if (head.length < keep) head.push(l);
      else {
        tail.push(l);
        if (tail.length > keep) tail.shift();
      }
    }
  }
  return [...head, ...tail].join("\n").includes(FATAL);
}

/**
 * The floor of a skip path (issue 26): decode; count lines with indexOf; find the lines that may
 * be evidence as the decoder does, with the keeper's anchor regex run over the whole chunk (a
 * line with an anchor is passed to the next one at once); test the chunk with the redaction
 * stage's trigger (`TRIGGER`): what a line not shown must pass at least, nothing kept or counted.
 */
async function floorPass(total, sample) {
  const reader = logStream(chunks, total, total / 2, sample).getReader();
  const decoder = new TextDecoder();
  const anchors = anchorScanner(decoder.decode(chunks[0]).slice(0, 1 << 16));
  let lines = 0;
  let severe = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    if (TRIGGER.test(text)) severe--;
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
    anchors.lastIndex = 0;
    for (let m = anchors.exec(text); m !== null; m = anchors.exec(text)) {
      severe++;
      const end = text.indexOf("\n", m.index);
      if (end === -1) break;
      anchors.lastIndex = end + 1;
    }
  }
  return lines + severe > 0 ? null : null;
}

async function shapePass(total, sample, extra = {}, run = shape) {
  const shaped = await run(logStream(chunks, total, total / 2, sample), {
    maxTokens: 2000,
    maxBytes: 4 * 1024 ** 3,
    untrusted: false,
    ...extra,
  });
  return shaped.text.includes(FATAL);
}

const mb = (bytes) => (bytes / 1024 ** 2).toFixed(1);
console.log(
  `node ${process.version}; peak = growth of heapUsed + arrayBuffers during the run (garbage included),` +
    " retained = what is still held after a full GC",
);
for (const total of sizes) {
  await shapePass(16 * 1024 ** 2); // warm up the JIT and load the tokenizer
  if (baseline) await shapePass(16 * 1024 ** 2, undefined, {}, baseline.shape);
  const decode = await measure("decode", (sample) => decodePass(total, sample));
  const peer = await measure("head+tail", (sample) => headTail(total, sample));
  const floor = await measure("floor", (sample) => floorPass(total, sample));
  const ours = await measure("shape", (sample) => shapePass(total, sample));
  const before = baseline
    ? await measure("shape, baseline", (sample) => shapePass(total, sample, {}, baseline.shape))
    : undefined;
  // The store's cost: with a store every line is redacted (it keeps the redacted text).
  const stored = await measure("shape, store", (sample) =>
    shapePass(total, sample, { store: createMemoryStore() }),
  );
  // The same without the redact stage (no secret rules, no invisible-character pass): its cost.
  const bare = await measure("shape, no redact", (sample) =>
    shapePass(total, sample, { redact: false, invisible: false }),
  );
  // The decode pass again, last: the machines are shared, so the floor is taken twice.
  const decode2 = await measure("decode", (sample) => decodePass(total, sample));
  if (decode2.seconds < decode.seconds) decode.seconds = decode2.seconds;
  console.log(`\n${mb(total)} MiB of log (${chunks[0].byteLength} B chunks, ~120 B lines)`);
  for (const r of [decode, peer, floor, ours, ...(before ? [before] : []), stored, bare]) {
    const rate = total / 1024 ** 2 / r.seconds;
    const ratio = decode.seconds / r.seconds;
    const kept = r.kept === null ? "" : `  planted FATAL kept: ${r.kept ? "yes" : "no"}`;
    console.log(
      `  ${r.name.padEnd(17)} ${rate.toFixed(0).padStart(6)} MiB/s  ${(ratio * 100).toFixed(0).padStart(3)}% of decode` +
        `  peak ${mb(r.peak).padStart(6)} MiB  retained ${mb(r.retained).padStart(5)} MiB${kept}`,
    );
  }
}

// redact() alone over a 100 MB log (the same generated lines, one string per 1 MiB chunk), next
// to a TextDecoder pass over the same bytes.
{
  const texts = chunks.map((c) => new TextDecoder().decode(c));
  const rounds = Math.ceil((100 * 1024 ** 2) / chunks[0].byteLength);
  redact(texts[0]);
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) new TextDecoder().decode(chunks[i % chunks.length]);
  const t1 = performance.now();
  for (let i = 0; i < rounds; i++) redact(texts[i % texts.length]);
  const t2 = performance.now();
  const bytes = rounds * chunks[0].byteLength;
  const rate = (ms) => (bytes / 1024 ** 2 / (ms / 1000)).toFixed(0);
  console.log(
    `\nredact() alone over ${mb(bytes)} MiB of log: ${rate(t2 - t1)} MiB/s (decode ${rate(t1 - t0)} MiB/s)`,
  );
}
