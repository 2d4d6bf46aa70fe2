/**
 * What a result costs in time: 300 B, 1 KB, 10 KB and 100 KB of log lines that fit the budget,
 * and the same cut to 500 tokens, each next to a `countTokens` pass over the same text, warm (the
 * median of many calls in one process, after 400 ms of calls that let V8 optimise) and cold
 * (the first call of a fresh process, which loads the pipeline and the tokenizer); and a round
 * of 20 small results. Given the path of another build's `dist/index.js`, its warm figures are
 * measured in the same run, in a column of their own (machines are noisy: compare within a run).
 *
 * Last, "bound" results and the round again, each build alone in a fresh process (the builds
 * alternating, five processes each, the median of their medians): in one process V8 optimises
 * code that every mode and both builds run less, and which build is loaded first moves a small
 * call's time by 10-15%.
 *
 * Run: npm run bench:latency [-- /path/to/other/dist/index.js]
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("../dist/index.js", import.meta.url));
const otherPath = process.argv[2];
if (process.env.LATENCY_SOLO !== undefined) {
  // One build alone: "bound" results and the round, warm, then a countTokens pass.
  const solo = await import(process.env.LATENCY_SOLO);
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  const shaper = solo.createShaper({ tool: "bash", maxTokens: 1_000_000, tokenCount: "bound" });
  const round = Array.from({ length: 20 }, (_, i) => ({ input: logOf(200 + i * 40) }));
  const runs = [
    ["ok", () => shaper("ok")],
    ...[300, 1024, 10 * 1024].map((b) => [
      String(b),
      (
        (t) => () =>
          shaper(t)
      )(logOf(b)),
    ]),
    ["round", () => solo.shapeRound(round, { maxRoundTokens: 8000, tokenCount: "bound" })],
    ...[300, 1024, 10 * 1024].map((b) => [
      `count ${b}`,
      (
        (t) => () =>
          countTokens(t)
      )(logOf(b)),
    ]),
  ];
  const out = {};
  for (const [name, run] of runs) {
    for (const end = performance.now() + 500; performance.now() < end; ) await run();
    const times = [];
    for (const end = performance.now() + 1000; performance.now() < end; ) {
      const at = performance.now();
      await run();
      times.push(performance.now() - at);
    }
    out[name] = times.sort((a, b) => a - b)[times.length >> 1];
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}
if (process.env.LATENCY_CHILD !== undefined) {
  const bytes = Number(process.env.LATENCY_CHILD);
  const at = performance.now();
  const first = await import(here);
  const text = logOf(bytes);
  await first.shape(text, { tool: "bash" });
  const shaped = performance.now() - at;
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  const c0 = performance.now();
  countTokens(text);
  console.log(
    `first shape() ${shaped.toFixed(1)} ms (import included), a countTokens pass after it ${(performance.now() - c0).toFixed(2)} ms`,
  );
  process.exit(0);
}
const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
const lib = await import(here);
const other = otherPath ? await import(otherPath) : undefined;

function logOf(bytes) {
  const out = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `2026-11-30T10:00:${String(i % 60).padStart(2, "0")}.${String(i % 1000).padStart(3, "0")}Z INFO api-${i % 7} GET /v1/items/${i} status=200 dur=${(i * 37) % 900}ms`;
    out.push(line);
    size += line.length + 1;
  }
  return out.join("\n").slice(0, bytes);
}

/** Calls before timing: V8 optimises a small call's code only after some thousands of them. */
const WARM_MS = 400;
/** Rounds the calls are split into, the runs taking turns: a noisy moment hits them all. */
const ROUNDS = 10;

/** The median call of each run, the runs measured in turns after each is warm. */
async function medians(runs, calls) {
  for (const run of runs) {
    const warm = performance.now();
    for (let i = 0; i < 20 || performance.now() - warm < WARM_MS; i++) await run();
  }
  const times = runs.map(() => []);
  const each = Math.max(2, Math.ceil(calls / ROUNDS));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, run] of runs.entries()) {
      for (let i = 0; i < each; i++) {
        const at = performance.now();
        await run();
        times[k].push(performance.now() - at);
      }
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[t.length >> 1]);
}

const ms = (n) => `${n.toFixed(3)} ms`.padStart(11);
const SIZES = [300, 1024, 10 * 1024, 100 * 1024];
const callsFor = (bytes) => (bytes >= 100 * 1024 ? 20 : bytes >= 10 * 1024 ? 80 : 300);

console.log("warm, the median call (o200k_base)");
console.log(
  `  ${"result".padEnd(22)} ${"shape()".padStart(11)} ${"countTokens".padStart(11)}  ratio${other ? "   other build  ratio" : ""}`,
);
for (const bytes of SIZES) {
  const text = logOf(bytes);
  for (const maxTokens of [1_000_000, 500]) {
    const shaper = lib.createShaper({ tool: "bash", maxTokens });
    const o = other?.createShaper({ tool: "bash", maxTokens });
    const [t, c, ot] = await medians(
      [() => shaper(text), () => countTokens(text), ...(o ? [() => o(text)] : [])],
      callsFor(bytes),
    );
    const cell = o ? `  ${ms(ot)}  ${(ot / c).toFixed(1).padStart(5)}×` : "";
    const what = `${bytes >= 1024 ? `${bytes / 1024} KB` : `${bytes} B`} ${maxTokens === 500 ? "at 500 tokens" : "that fits"}`;
    console.log(
      `  ${what.padEnd(22)} ${ms(t)} ${ms(c)}  ${(t / c).toFixed(1).padStart(4)}×${cell}`,
    );
  }
}

console.log(
  '\nwarm, tokenCount: "bound" (a result whose bytes prove it fits is not counted: no tokenizer)',
);
for (const bytes of SIZES.slice(0, 3)) {
  const text = logOf(bytes);
  const bound = { tool: "bash", maxTokens: 1_000_000, tokenCount: "bound" };
  const shaper = lib.createShaper(bound);
  const o = other?.createShaper(bound);
  const [t, c, ot] = await medians(
    [() => shaper(text), () => countTokens(text), ...(o ? [() => o(text)] : [])],
    callsFor(bytes),
  );
  const cell = o ? `  ${ms(ot)}  ${(ot / c).toFixed(1).padStart(5)}×` : "";
  const what = `${bytes >= 1024 ? `${bytes / 1024} KB` : `${bytes} B`} that fits`;
  console.log(`  ${what.padEnd(22)} ${ms(t)} ${ms(c)}  ${(t / c).toFixed(1).padStart(4)}×${cell}`);
}

const round = Array.from({ length: 20 }, (_, i) => ({ input: logOf(200 + i * 40) }));
const roundOf =
  (l, extra = {}) =>
  () =>
    l.shapeRound(round, { maxRoundTokens: 8000, ...extra });
const [r, rb, ro, rob] = await medians(
  [
    roundOf(lib),
    roundOf(lib, { tokenCount: "bound" }),
    ...(other ? [roundOf(other), roundOf(other, { tokenCount: "bound" })] : []),
  ],
  60,
);
console.log(
  `\na round of 20 small results (200 B to 1 KB each): ${ms(r).trim()}, with tokenCount "bound" ${ms(rb).trim()}${other ? `; other build: ${ms(ro).trim()}, "bound" ${ms(rob).trim()}` : ""}`,
);

if (process.env.LATENCY_CHILD === undefined) {
  console.log("\ncold: the first call of a fresh process (loads the pipeline and the tokenizer)");
  for (const bytes of [1024, 100 * 1024]) {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
      env: { ...process.env, LATENCY_CHILD: String(bytes) },
      encoding: "utf8",
    });
    console.log(`  ${`${bytes / 1024} KB`.padEnd(8)} ${out.trim()}`);
  }
}

if (process.env.LATENCY_CHILD === undefined) {
  const PROCESSES = 5;
  const builds = [["this build", here], ...(otherPath ? [["other build", otherPath]] : [])];
  const seen = builds.map(() => []);
  for (let k = 0; k < PROCESSES; k++) {
    for (const [i, [, path]] of builds.entries()) {
      const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url)], {
        env: { ...process.env, LATENCY_SOLO: path },
        encoding: "utf8",
      });
      seen[i].push(JSON.parse(out));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const of = (i, key) => median(seen[i].map((r) => r[key]));
  console.log(
    `\n"bound" alone, each build in ${PROCESSES} fresh processes of its own (median of medians)`,
  );
  console.log(
    `  ${"result".padEnd(22)} ${"shape()".padStart(11)} ${"countTokens".padStart(11)}  ratio${otherPath ? "   other build  ratio" : ""}`,
  );
  for (const [key, what] of [
    ["ok", '"ok"'],
    ["300", "300 B that fits"],
    ["1024", "1 KB that fits"],
    ["10240", "10 KB that fits"],
  ]) {
    const c = key === "ok" ? undefined : of(0, `count ${key}`);
    const cell = (i) => {
      const t = of(i, key);
      return `${ms(t)} ${c === undefined ? "".padStart(11) : ms(c)}  ${c === undefined ? "     " : `${(t / c).toFixed(1).padStart(4)}×`}`;
    };
    const other = otherPath
      ? `  ${ms(of(1, key))}  ${c === undefined ? "      " : `${(of(1, key) / c).toFixed(1).padStart(5)}×`}`
      : "";
    console.log(`  ${what.padEnd(22)} ${cell(0)}${other}`);
  }
  console.log(
    `  ${"a round of 20".padEnd(22)} ${ms(of(0, "round"))}${otherPath ? `${"".padStart(21)}${ms(of(1, "round"))}` : ""}`,
  );
}
