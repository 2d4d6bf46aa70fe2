/**
 * Rounds: the parallel results of one turn under one budget (`shapeRound`), next to what a host
 * does without it, measured in the same process:
 *   1. the share of maxRoundTokens a round uses on mixed sizes, next to a per-call budget of the
 *      whole round (over budget) and an equal split (budget left unused);
 *   2. a round of 8 calls timed next to 8 separate shape() calls at an equal split;
 *   3. the peak memory of a round of three 200 MB streams, next to one 200 MB stream alone.
 *
 *   npm run bench:rounds            (builds first)
 *   node --expose-gc bench/rounds.mjs [MB per stream, default 200]
 */
import { shape, shapeRound } from "../dist/index.js";
import { logStream, makeChunks } from "./logs.mjs";

const chunks = makeChunks();
const streamMiB = Number(process.argv[2] ?? 200);

/** A log of about `bytes` bytes as text (the same lines as the streams). */
function logText(bytes) {
  const decoder = new TextDecoder();
  let text = "";
  for (let i = 0; text.length < bytes; i++) text += decoder.decode(chunks[i % chunks.length]);
  const cut = text.lastIndexOf("\n", bytes);
  return text.slice(0, cut > 0 ? cut : bytes);
}
const records = (n) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      level: i % 41 === 7 ? "error" : "info",
      title: `issue ${i + 1}: parser fails on nested input`,
      labels: ["bug", i % 3 ? "p2" : "p1"],
    })),
  );

const total = (results) => results.reduce((n, r) => n + r.meta.tokens, 0);
const pct = (n, of) => `${((100 * n) / of).toFixed(1)}%`;

// 1. Share used.
const mixes = [
  {
    name: "2 MB + 45 KB + 200 B",
    max: 6000,
    inputs: [logText(2 << 20), logText(45 << 10), logText(200)],
  },
  {
    name: "8 calls, 300 B to 1 MB, text and records",
    max: 8000,
    inputs: [
      logText(1 << 20),
      records(3000),
      logText(120 << 10),
      "ok",
      records(40),
      logText(9 << 10),
      logText(300),
      records(600),
    ],
  },
  {
    name: "20 calls under 2,000 tokens",
    max: 2000,
    inputs: Array.from({ length: 20 }, (_, i) =>
      i % 4 === 0 ? `done ${i}` : logText(20_000 + i * 7_000),
    ),
  },
];
console.log(
  `node ${process.version}\n\n1. share of maxRoundTokens used (tokens of the texts together)`,
);
await shape("warm up", { maxTokens: 100 });
for (const mix of mixes) {
  const n = mix.inputs.length;
  const round = total(
    await shapeRound(
      mix.inputs.map((input) => ({ input })),
      { maxRoundTokens: mix.max },
    ),
  );
  const perCall = total(await Promise.all(mix.inputs.map((i) => shape(i, { maxTokens: mix.max }))));
  const equal = total(
    await Promise.all(mix.inputs.map((i) => shape(i, { maxTokens: Math.floor(mix.max / n) }))),
  );
  console.log(
    `  ${mix.name.padEnd(42)} max ${String(mix.max).padStart(5)}:  shapeRound ${String(round).padStart(5)} (${pct(round, mix.max)})` +
      `   per-call budget ${String(perCall).padStart(6)} (${pct(perCall, mix.max)})   equal split ${String(equal).padStart(5)} (${pct(equal, mix.max)})`,
  );
}

// 2. Time: a round of 8 against 8 separate shape() calls at an equal split.
const eight = mixes[1];
async function median(run, times = 7) {
  const ms = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await run();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b)[times >> 1];
}
const share = Math.floor(eight.max / eight.inputs.length);
const separate = await median(() =>
  Promise.all(eight.inputs.map((i) => shape(i, { maxTokens: share }))),
);
const together = await median(() =>
  shapeRound(
    eight.inputs.map((input) => ({ input })),
    { maxRoundTokens: eight.max },
  ),
);
console.log(
  `\n2. time, median of 7: 8 separate shape() calls at ${share} tokens each ${separate.toFixed(0)} ms;` +
    ` one shapeRound of the same 8 at ${eight.max} ${together.toFixed(0)} ms (${(together / separate).toFixed(2)}×)`,
);

// 3. Peak memory: three streams at once, against one alone. `peak` counts garbage too (what
// a GC has not yet collected); `live` is sampled right after a full GC every 32 pulls (about
// 32 MiB read), which is what the run holds.
async function peakOf(run) {
  globalThis.gc?.();
  const base = process.memoryUsage();
  const start = base.heapUsed + base.arrayBuffers;
  let peak = 0;
  let live = 0;
  let pulls = 0;
  const sample = () => {
    pulls++;
    if (pulls % 32 === 0 && globalThis.gc) {
      globalThis.gc();
      const m = process.memoryUsage();
      live = Math.max(live, m.heapUsed + m.arrayBuffers - start);
    } else if (pulls % 16 === 0) {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - start);
    }
  };
  const t0 = performance.now();
  await run(sample);
  return { peak: Math.max(peak, live), live, seconds: (performance.now() - t0) / 1000 };
}
const bytes = streamMiB * 1024 ** 2;
const one = await peakOf((sample) =>
  shape(logStream(chunks, bytes, bytes / 2, sample), { maxTokens: 2000 }),
);
const three = await peakOf((sample) =>
  shapeRound(
    [0, 1, 2].map(() => ({ input: logStream(chunks, bytes, bytes / 2, sample) })),
    { maxRoundTokens: 6000 },
  ),
);
const mib = (n) => (n / 1024 ** 2).toFixed(1);
console.log(
  `\n3. memory, heapUsed + arrayBuffers growth (peak with garbage / live after a GC):` +
    `\n  one ${streamMiB} MiB stream at 2,000 tokens      ${mib(one.peak)} / ${mib(one.live)} MiB in ${one.seconds.toFixed(1)} s` +
    `\n  a round of three at 6,000 tokens      ${mib(three.peak)} / ${mib(three.live)} MiB in ${three.seconds.toFixed(1)} s` +
    ` (live ${(three.live / one.live).toFixed(2)}× one, for ${mib(3 * bytes)} MiB read)`,
);
