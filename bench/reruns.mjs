/**
 * Re-runs (issue 28): a failing build shaped on its own, and shaped as a re-run of the passing
 * build of the same job, in one session under one `key`. The pairs are made from the failed CI
 * builds of ../shared/bench/ci-logs: the "passing" build is the failing log without its
 * hand-labelled failure chunk, with the noise two runs of one job really differ by (numbers
 * changed in one line in seven: times, durations, ids; one line in eighty only in the failing
 * run and one in eighty only in the passing one; a success line in place of the last lines).
 * The measure is the chunk's lines that carry words (12 characters or more, ANSI and \r
 * removed, whitespace collapsed) found in the text, at 1,000 tokens; and how many builds keep
 * at least half of their first 12 (the data's rule).
 * Head+tail is the peer: the same budget's first and last lines.
 *
 *   npm run bench:reruns
 *   node bench/reruns.mjs [ci-logs dir] [budget, default 1000] [noise, default 1]
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createSession } from "../dist/index.js";
import { logStream, makeChunks } from "./logs.mjs";

const dir =
  process.argv[2] ?? fileURLToPath(new URL("../../shared/bench/ci-logs/", import.meta.url));
const BUDGET = Number(process.argv[3] ?? 1000);
/** The noise of a re-run, as a multiple of the default (lines changed, lines in one run only). */
const NOISE = Number(process.argv[4] ?? 1);

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is removed
const ANSI = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const plain = (s) => s.replace(ANSI, "").replace(/\r/g, "");
const squash = (s) => s.replace(/\s+/g, " ").trim();

/** A small seeded generator: the same pairs on every run. */
function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** The passing build of a failing log: its chunk's lines removed, and the noise of a re-run. */
function passingOf(log, chunkLines, seed) {
  const rand = random(seed);
  const chunk = new Set(chunkLines);
  // A chunk line may be part of a log line (the data joins some lines): such a line goes too.
  const inChunk = (l) => chunk.has(l) || chunkLines.some((c) => l.includes(c));
  const lines = log.split("\n");
  const out = [];
  for (const line of lines.slice(0, Math.max(0, lines.length - 3))) {
    if (inChunk(squash(plain(line)))) continue;
    const r = rand();
    if (r < 0.0125 * NOISE) continue; // only in the failing run
    if (r < 0.025 * NOISE)
      out.push(`Downloading dependency ${Math.floor(rand() * 1e6).toString(36)}`);
    out.push(r < 0.15 * NOISE ? line.replace(/\d/g, () => String(Math.floor(rand() * 10))) : line);
  }
  out.push("All checks passed.", "Done. Your build exited with 0.");
  return out.join("\n");
}

function headTail(lines, budget) {
  const out = [];
  let used = 0;
  let lo = 0;
  let hi = lines.length - 1;
  while (lo <= hi) {
    const line = lo <= lines.length - 1 - hi ? lines[lo++] : lines[hi--];
    used += countTokens(line) + 1;
    if (used > budget) break;
    out.push(line);
  }
  return out.join("\n");
}

const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, "utf8"));
const totals = { lines: 0, own: 0, rerun: 0, peer: 0 };
// The same over the builds whose chunk fits in 80% of the budget (a chunk of 13,000 tokens
// cannot be kept whole at 1,000, however it is ranked).
const fits = { lines: 0, own: 0, rerun: 0, peer: 0 };
// Each build's share of its chunk lines kept, summed: the mean weighs every build the same.
const shares = { own: 0, rerun: 0, peer: 0 };
const builds = { own: 0, rerun: 0, peer: 0 };
let count = 0;
let over = 0;
let ms = 0;
let msAlone = 0;
for (const [i, { name }] of manifest.entries()) {
  const log = readFileSync(`${dir}/${name}.log`, "utf8");
  const wanted = plain(readFileSync(`${dir}/${name}.chunk.txt`, "utf8"))
    .split("\n")
    .map(squash)
    .filter((l) => l.length >= 12);
  if (wanted.length === 0) continue;
  count++;
  const passing = passingOf(log, wanted, i + 1);
  const options = { maxRunTokens: 32_000, maxTokens: 4_000, tool: "build" };
  // Alone: the same session call without a key (a store, so a handle, as in the re-run).
  const t0 = performance.now();
  const own = await createSession(options).shape(
    { stdout: log, exitCode: 1 },
    { callId: "run_2", maxTokens: BUDGET },
  );
  msAlone += performance.now() - t0;
  const session = createSession(options);
  await session.shape({ stdout: passing, exitCode: 0 }, { callId: "run_1", key: "npm test" });
  const t = performance.now();
  const rerun = await session.shape(
    { stdout: log, exitCode: 1 },
    { callId: "run_2", key: "npm test", maxTokens: BUDGET },
  );
  ms += performance.now() - t;
  if (countTokens(rerun.text) > BUDGET) over++;
  const peer = headTail(log.split("\n"), BUDGET);
  const found = (text) => {
    const shown = squash(plain(text));
    return wanted.filter((l) => shown.includes(l)).length;
  };
  const first12 = wanted.slice(0, 12);
  const kept = (text) => {
    const shown = squash(plain(text));
    return first12.filter((l) => shown.includes(l)).length * 2 >= first12.length;
  };
  totals.lines += wanted.length;
  const fitting = countTokens(wanted.join("\n")) <= BUDGET * 0.8;
  if (fitting) fits.lines += wanted.length;
  for (const [k, text] of [
    ["own", own.text],
    ["rerun", rerun.text],
    ["peer", peer],
  ]) {
    totals[k] += found(text);
    shares[k] += found(text) / wanted.length;
    if (fitting) fits[k] += found(text);
    if (kept(text)) builds[k]++;
  }
}
const pct = (n, d) => `${((100 * n) / d).toFixed(1)}%`;
console.log(`re-runs of ${count} failing builds (${dir}), at ${BUDGET} tokens, noise ${NOISE}`);
console.log(`  chunk lines kept: ${totals.lines} lines`);
console.log(`    shaped alone        ${pct(totals.own, totals.lines)}`);
console.log(`    shaped as a re-run  ${pct(totals.rerun, totals.lines)}`);
console.log(`    head+tail           ${pct(totals.peer, totals.lines)}`);
console.log(`  chunk lines kept, of the chunks that fit in 80% of the budget: ${fits.lines} lines`);
console.log(`    shaped alone        ${pct(fits.own, fits.lines)}`);
console.log(`    shaped as a re-run  ${pct(fits.rerun, fits.lines)}`);
console.log(`    head+tail           ${pct(fits.peer, fits.lines)}`);
console.log("  mean share of a build's chunk lines kept:");
console.log(`    shaped alone        ${pct(shares.own, count)}`);
console.log(`    shaped as a re-run  ${pct(shares.rerun, count)}`);
console.log(`    head+tail           ${pct(shares.peer, count)}`);
console.log("  builds whose chunk is kept (the data's rule):");
console.log(`    shaped alone        ${pct(builds.own, count)}`);
console.log(`    shaped as a re-run  ${pct(builds.rerun, count)}`);
console.log(`    head+tail           ${pct(builds.peer, count)}`);
console.log(`  re-runs over the budget: ${over}`);
console.log(
  `  shape, mean: alone ${(msAlone / count).toFixed(1)} ms, re-run ${(ms / count).toFixed(1)} ms (${(ms / msAlone).toFixed(2)}x)`,
);
if (!existsSync(dir)) console.log(`no ${dir}`);

// A big log, keyed: what keying every line costs, and what a re-run of it costs, next to the
// same session call without a key (same process; generated lines of bench/logs.mjs).
const MB = Number(process.env.RERUN_MB ?? 100);
const chunks = makeChunks();
const big = async (session, callId, key) => {
  const t = performance.now();
  const shaped = await session.shape(
    { stdout: logStream(chunks, MB << 20), exitCode: 1 },
    { callId, maxTokens: BUDGET, ...(key ? { key } : {}) },
  );
  return { ms: performance.now() - t, shaped };
};
const plainRun = await big(createSession({ maxRunTokens: 32_000 }), "a");
const keyed = createSession({ maxRunTokens: 32_000 });
const firstRun = await big(keyed, "a", "tail");
const again = await big(keyed, "b", "tail");
const rate = (r) =>
  `${(MB / (r.ms / 1000)).toFixed(0)} MiB/s (${(plainRun.ms / r.ms).toFixed(2)}x)`;
console.log(`\n${MB} MiB generated log, at ${BUDGET} tokens:`);
console.log(`  no key            ${rate(plainRun)}`);
console.log(`  keyed, first run  ${rate(firstRun)}`);
console.log(`  keyed, re-run     ${rate(again)}  ${again.shaped.text.split("\n")[2]}`);
