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
import Papa from "papaparse";
import { shape } from "../dist/index.js";
import { logStream, makeChunks } from "./logs.mjs";
import { LABEL_WORDS } from "./varied-logs.mjs";

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
