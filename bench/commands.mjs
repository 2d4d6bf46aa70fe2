/**
 * Live commands: the README's agent loop on a real `cargo`-like child (4,000 lines of stdout,
 * an error on stderr, exit 2), timed from the child's own exit to shape()'s result.
 *
 *   1. warm (a shaper that has shaped before, in this process): `fromProcess(child)` and the
 *      raw pipes `{ stdout, stderr, exitCode }`, next to shaping the same output as buffered
 *      strings once it has all been read (the baseline: airlock's own work on that text);
 *   2. the first call of a fresh process, next to that process's floor: loading the pipeline
 *      and the tokenizer's ranks and counting once, which every first call pays.
 *
 *   npm run bench:commands            (builds first)
 *   node bench/commands.mjs [runs, default 15]
 */
import { execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createShaper, fromProcess } from "../dist/index.js";

const runs = Number(process.argv[2] ?? 15);
const here = fileURLToPath(import.meta.url);
const CARGO =
  'i=1; while [ $i -le 4000 ]; do echo "   Compiling crate_$i v0.1.$i (/work/crates/crate_$i)"; i=$((i+1)); done; ' +
  "printf 'error[E0308]: mismatched types\\n  --> src/main.rs:14:9\\n' >&2; exit 2";

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const ms = (x) => `${x.toFixed(1)} ms`;

/** One run of the loop: spawn, hand over, await; times from the child's exit. */
async function loop(shaper, how) {
  const child = spawn("sh", ["-c", CARGO]);
  let exited = 0;
  child.on("exit", () => {
    exited = performance.now();
  });
  let input;
  if (how === "fromProcess") input = fromProcess(child);
  else {
    const exitCode = new Promise((done) => child.on("close", done));
    input = { stdout: child.stdout, stderr: child.stderr, exitCode };
  }
  const shaped = await shaper(input);
  const done = performance.now();
  if (!shaped.text.includes("error[E0308]: mismatched types")) throw new Error("error line lost");
  return done - exited;
}

/** The same output, read to the end first, shaped as strings: the work airlock does on it. */
async function buffered(shaper) {
  const { stdout, stderr } = await promisify(execFile)("sh", ["-c", CARGO]).catch((e) => e);
  const t = performance.now();
  await shaper({ stdout, stderr, exitCode: 2 });
  return performance.now() - t;
}

/**
 * In a fresh process: the first call; the floor (pipeline and ranks loaded, one count); or the
 * tokenizer alone (its ranks loaded, one count).
 */
async function child(mode) {
  if (mode === "ranks") {
    const t = performance.now();
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    countTokens("x");
    return performance.now() - t;
  }
  if (mode === "floor") {
    const t = performance.now();
    const shaper = createShaper({ tool: "bash", maxTokens: 600 });
    await shaper("x");
    return performance.now() - t;
  }
  return loop(createShaper({ tool: "bash", maxTokens: 600 }), "fromProcess");
}

if (process.argv[2] === "--child") {
  process.stdout.write(`${await child(process.argv[3])}\n`);
} else {
  const shaper = createShaper({ tool: "bash", maxTokens: 600 });
  await shaper("warm up");
  const warm = { fromProcess: [], raw: [], buffered: [] };
  for (let i = 0; i < runs; i++) {
    warm.fromProcess.push(await loop(shaper, "fromProcess"));
    warm.raw.push(await loop(shaper, "raw"));
    warm.buffered.push(await buffered(shaper));
  }
  const first = { call: [], floor: [], ranks: [] };
  const fresh = async (mode) =>
    Number((await promisify(execFile)(process.execPath, [here, "--child", mode])).stdout);
  for (let i = 0; i < Math.max(5, Math.ceil(runs / 3)); i++) {
    first.call.push(await fresh("first"));
    first.floor.push(await fresh("floor"));
    first.ranks.push(await fresh("ranks"));
  }
  const base = median(warm.buffered);
  console.log(`cargo-like build: 4000 lines of stdout, an error on stderr, exit 2 (${runs} runs)`);
  console.log("\nwarm, from the child's exit to shape()'s result (median):");
  console.log(
    `  fromProcess(child)                 ${ms(median(warm.fromProcess))}  (${(median(warm.fromProcess) / base).toFixed(2)}x the buffered baseline)`,
  );
  console.log(
    `  { stdout, stderr, exitCode }       ${ms(median(warm.raw))}  (${(median(warm.raw) / base).toFixed(2)}x)`,
  );
  console.log(`  baseline: the same text, buffered  ${ms(base)}`);
  const floor = median(first.floor);
  const ranks = median(first.ranks);
  console.log("\nfirst call of a fresh process (median):");
  console.log(
    `  fromProcess(child), from the exit  ${ms(median(first.call))}  (floor + ${ms(median(first.call) - floor)})`,
  );
  console.log(`  floor: pipeline and ranks loaded   ${ms(floor)}`);
  console.log(
    `  the tokenizer alone (o200k_base)   ${ms(ranks)}  (first call: tokenizer + ${ms(median(first.call) - ranks)})`,
  );
}
