/**
 * The rule-based summary (issue 29): on the five public logs of ../shared/bench/logs, whose
 * structured CSVs give each line's template and time, every severe template (its level, or a
 * failure word in its template, as bench/real-logs.mjs decides) counts as named when
 * `meta.summary.symptoms` has one whose first line is the template's first line, with its exact
 * count and the true times of its first and last line. Then the time the summary adds: shape()
 * of a 100 MiB generated log by this build and by another (AIRLOCK_BASELINE=<index.js>), in the
 * same process, alternating.
 *
 *   npm run bench:summary
 *   AIRLOCK_BASELINE=/path/to/other/dist/index.js node bench/summary.mjs
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import Papa from "papaparse";
import { shape } from "../dist/index.js";
import { logStream, makeChunks } from "./logs.mjs";
import { LABEL_WORDS, variedLogs } from "./varied-logs.mjs";

const dir = process.argv[2] ?? fileURLToPath(new URL("../../shared/bench/logs/", import.meta.url));
const BUDGET = 2000;
const SEVERE_LEVELS = new Set(["error", "err", "warning", "warn", "fatal", "alert", "crit"]);
const SEVERE_LEVELS_ALL = new Set([...SEVERE_LEVELS, "e", "w", "f", "a", "critical", "emerg"]);

/** Each log's time, as its CSV columns give it and its lines write it. */
const TIME_OF = {
  Apache: (r) => r.Time,
  Linux: (r) => `${r.Month} ${String(r.Date).padStart(2, " ")} ${r.Time}`,
  Mac: (r) => `${r.Month} ${String(r.Date).padStart(2, " ")} ${r.Time}`,
  Spark: (r) => `${r.Date} ${r.Time}`,
  Windows: (r) => `${r.Date} ${r.Time}`,
};

let named = 0;
let severe = 0;
let countsRight = 0;
let timesRight = 0;
console.log(`summary on the public logs (${dir}), at ${BUDGET} tokens`);
console.log("  log        severe templates  named (count and first/last time exact)");
for (const [name, timeOf] of Object.entries(TIME_OF)) {
  if (!existsSync(`${dir}/${name}.log`)) continue;
  const text = readFileSync(`${dir}/${name}.log`, "utf8").replace(/\r?\n$/, "");
  const rows = Papa.parse(readFileSync(`${dir}/${name}.structured.csv`, "utf8"), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const templates = new Map();
  for (const row of rows) {
    const t = templates.get(row.EventId) ?? { rows: [], severe: false };
    t.rows.push(row);
    const level = (row.Level ?? "").trim().toLowerCase();
    const words = row.EventTemplate.toLowerCase();
    if (SEVERE_LEVELS_ALL.has(level) || LABEL_WORDS.some((w) => words.includes(w))) t.severe = true;
    templates.set(row.EventId, t);
  }
  const shaped = await shape(text, { maxTokens: BUDGET });
  const symptoms = shaped.meta.summary?.symptoms ?? [];
  const byFirst = new Map(symptoms.map((s) => [s.first.line, s]));
  let logSevere = 0;
  let logNamed = 0;
  for (const t of templates.values()) {
    if (!t.severe) continue;
    logSevere++;
    const first = t.rows[0];
    const last = t.rows[t.rows.length - 1];
    const s = byFirst.get(Number(first.LineId));
    if (s === undefined) continue;
    const countOk = s.count === t.rows.length;
    const timeOk = s.first.time === timeOf(first) && s.last.time === timeOf(last);
    if (countOk) countsRight++;
    if (timeOk) timesRight++;
    if (countOk && timeOk && s.last.line === Number(last.LineId)) logNamed++;
  }
  severe += logSevere;
  named += logNamed;
  console.log(
    `  ${name.padEnd(10)} ${String(logSevere).padStart(16)}  ${String(logNamed).padStart(5)} (${((100 * logNamed) / Math.max(1, logSevere)).toFixed(0)}%)   symptoms listed ${symptoms.length}`,
  );
}
const pct = (n) => `${((100 * n) / Math.max(1, severe)).toFixed(1)}%`;
console.log(
  `  all        ${String(severe).padStart(16)}  ${String(named).padStart(5)} (${pct(named)}); count exact ${pct(countsRight)}, times exact ${pct(timesRight)}`,
);

// Generated logs of eight other layouts: each severe template named with its exact count and
// its true first and last line (their times are the generator's, not checked here).
{
  let sev = 0;
  let ok = 0;
  console.log("\ngenerated logs of other layouts (bench/varied-logs.mjs), at 2000 tokens");
  for (const log of variedLogs({ lines: 4000 })) {
    const shaped = await shape(log.text, { maxTokens: BUDGET });
    const byFirst = new Map((shaped.meta.summary?.symptoms ?? []).map((x) => [x.first.line, x]));
    // A line's first and last place (one text may be written more than once).
    const at = new Map();
    const lastAt = new Map();
    log.lines.forEach((l, i) => {
      if (!at.has(l)) at.set(l, i + 1);
      lastAt.set(l, i + 1);
    });
    let logSevere = 0;
    let logOk = 0;
    for (const t of log.templates) {
      if (!t.severe) continue;
      logSevere++;
      const s = byFirst.get(at.get(t.lines[0]));
      if (s?.count === t.lines.length && s.last.line === lastAt.get(t.lines.at(-1))) logOk++;
    }
    sev += logSevere;
    ok += logOk;
    console.log(
      `  ${log.name.padEnd(10)} ${String(logSevere).padStart(3)} severe  ${logOk} named exactly`,
    );
  }
  console.log(
    `  all        ${String(sev).padStart(3)} severe  ${ok} (${((100 * ok) / sev).toFixed(1)}%)`,
  );
}

// What the summary costs in the text: its lines (a severe message not shown, named) at each
// budget, and how many severe messages the text gives, as a line or by name.
console.log("\nthe summary in the text, on the public logs");
console.log("  log        budget  messages  as lines  by name  summary tokens (share)");
for (const name of Object.keys(TIME_OF)) {
  if (!existsSync(`${dir}/${name}.log`)) continue;
  const text = readFileSync(`${dir}/${name}.log`, "utf8").replace(/\r?\n$/, "");
  for (const budget of [2000, 4000]) {
    const shaped = await shape(text, { maxTokens: budget });
    const symptoms = shaped.meta.summary?.symptoms ?? [];
    const named = shaped.text.split("\n").filter((l) => / lines? not shown, /.test(l));
    const tokens = named.reduce((n, l) => n + countTokens(`${l}\n`), 0);
    const asLines = symptoms.filter((x) => x.shown > 0).length;
    console.log(
      `  ${name.padEnd(10)} ${String(budget).padStart(6)}  ${String(symptoms.length + (shaped.meta.summary?.more ?? 0)).padStart(8)}  ${String(asLines).padStart(8)}  ${String(named.length).padStart(7)}  ${String(tokens).padStart(6)} (${((100 * tokens) / (shaped.meta.tokens ?? budget)).toFixed(1)}%)`,
    );
  }
}

// The time the summary adds, next to another build in the same process.
const MB = Number(process.env.SUMMARY_MB ?? 100);
const chunks = makeChunks();
const builds = [["this build", shape]];
if (process.env.AIRLOCK_BASELINE) {
  const other = await import(pathToFileURL(process.env.AIRLOCK_BASELINE).href);
  builds.push(["baseline", other.shape]);
}
const best = new Map();
for (let round = 0; round < 3; round++) {
  for (const [label, run] of builds) {
    const t = performance.now();
    await run(logStream(chunks, MB << 20), { maxTokens: BUDGET });
    const ms = performance.now() - t;
    best.set(label, Math.min(best.get(label) ?? Number.POSITIVE_INFINITY, ms));
  }
}
console.log(`\nshape() of ${MB} MiB generated log, best of 3:`);
const base = best.get("baseline");
for (const [label, ms] of best) {
  const ratio = base === undefined ? "" : ` (${(ms / base).toFixed(2)}x the baseline)`;
  console.log(`  ${label.padEnd(12)} ${ms.toFixed(0)} ms${ratio}`);
}
