/**
 * How much of the evidence in real logs survives the cut: airlock's shape() next to a head+tail
 * cut of the same budget, run together, on the real system logs in ../shared/bench/logs (each
 * line with its event template in NAME.structured.csv) and on varied logs generated here.
 *
 * The labels are fixed here, not taken from airlock:
 *   severe  a template whose lines' level field is an error, warning, fatal or alert level, or
 *           whose template text holds one of SEVERE_WORDS;
 *   rare    a template that occurs at most twice;
 *   kept    one whole original line of the template appears as a line of the text.
 * When a log's severe templates cannot all fit one line each, the best possible share (the
 * cheapest line of each, by its own tokens alone, with no fence or marker, until the budget is
 * spent) is printed beside.
 *
 * Then the failed CI builds of ../shared/bench/ci-logs, each shaped as a failed command's output:
 * a build counts as kept when its hand-labelled failure chunk survives, by the data's own rule
 * (its README: ANSI and \r removed, whitespace collapsed, at least half of the chunk's first 12
 * lines of 12 characters or more appear in the text), next to a head+tail cut of the same budget.
 *
 *   npm run bench:logs                    (builds, then runs)
 *   node bench/real-logs.mjs [dir] [ci-dir]
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import Papa from "papaparse";
import { shape } from "../dist/index.js";
import { LABEL_WORDS, variedLogs } from "./varied-logs.mjs";

const BUDGETS = [2000, 4000];
const SEVERE_WORDS = LABEL_WORDS;
const SEVERE_LEVELS = new Set([
  "error",
  "err",
  "e",
  "warning",
  "warn",
  "w",
  "fatal",
  "f",
  "alert",
  "a",
  "crit",
  "critical",
  "emerg",
  "emergency",
  "severe",
]);
// The best possible is counted from line costs alone, no fence and no markers (issue 26), so it
// does not move as airlock's own words get cheaper: a bound no cut can pass.
// What a head+tail cut of the same budget leaves for a fence, a summary and its one gap marker.
const HEAD_TAIL_FRAME = 80;

const dir = process.argv[2] ?? fileURLToPath(new URL("../../shared/bench/logs/", import.meta.url));
const ciDir =
  process.argv[3] ?? fileURLToPath(new URL("../../shared/bench/ci-logs/", import.meta.url));

/** A labelled log: its lines, and for each template its lines, count and severity. */
function readLog(name) {
  const lines = readFileSync(`${dir}/${name}.log`, "utf8")
    .replace(/\r?\n$/, "")
    .split(/\r?\n/);
  const rows = Papa.parse(readFileSync(`${dir}/${name}.structured.csv`, "utf8"), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const templates = new Map();
  for (const row of rows) {
    const line = lines[Number(row.LineId) - 1];
    if (line === undefined) continue;
    const t = templates.get(row.EventId) ?? { lines: [], severe: false, text: row.EventTemplate };
    t.lines.push(line);
    const level = (row.Level ?? "").trim().toLowerCase();
    const words = row.EventTemplate.toLowerCase();
    if (SEVERE_LEVELS.has(level) || SEVERE_WORDS.some((w) => words.includes(w))) t.severe = true;
    templates.set(row.EventId, t);
  }
  return { name, text: lines.join("\n"), lines, templates: [...templates.values()] };
}

/** A head+tail cut: the first and the last lines, alternately, until the budget is spent. */
function headTail(lines, budget) {
  const head = [];
  const tail = [];
  let used = HEAD_TAIL_FRAME;
  for (let i = 0, j = lines.length - 1; i <= j; ) {
    const take = head.length <= tail.length ? lines[i] : lines[j];
    const cost = countTokens(`${take}\n`);
    if (used + cost > budget) break;
    used += cost;
    if (head.length <= tail.length) head.push(lines[i++]);
    else tail.unshift(lines[j--]);
  }
  return [...head, "[omitted]", ...tail].join("\n");
}

/**
 * The lines of a text as the input had them: in a numbered layout (the summary says "by
 * number") each shown line starts with its number and a tab, which is airlock's, not the line's.
 */
function shownLines(text) {
  const lines = text.split("\n");
  if (!/^\[airlock: shown \d+ of \d+ lines by number/m.test(text)) return lines;
  return lines.map((l) => l.replace(/^\d+\t/, ""));
}

/** Templates of `list` with a whole line in `text`. */
function keptShare(list, text) {
  const shown = new Set(shownLines(text));
  const kept = list.filter((t) => t.lines.some((l) => shown.has(l))).length;
  return { kept, of: list.length };
}

/** The most severe templates that fit one line each: the cheapest line of each, cheapest first. */
function bestPossible(severe, budget) {
  const costs = severe.map((t) => Math.min(...t.lines.map((l) => countTokens(`${l}\n`))));
  const all = costs.reduce((a, b) => a + b, 0);
  let used = 0;
  let fit = 0;
  for (const c of costs.sort((a, b) => a - b)) {
    if (used + c > budget) break;
    used += c;
    fit++;
  }
  return { fit, fitsAll: all <= budget };
}

const pct = (k) => (k.of === 0 ? "   -" : `${((100 * k.kept) / k.of).toFixed(0).padStart(3)}%`);

async function measure(logs, title) {
  console.log(`\n${title}`);
  console.log("  log          budget   severe: airlock head+tail  best |  rare: airlock head+tail");
  const pooled = new Map();
  for (const log of logs) {
    const severe = log.templates.filter((t) => t.severe);
    const rare = log.templates.filter((t) => t.lines.length <= 2);
    for (const budget of BUDGETS) {
      const shaped = await shape(log.text, { maxTokens: budget, tool: "logs" });
      const peer = headTail(log.lines, budget);
      const row = {
        severe: keptShare(severe, shaped.text),
        severePeer: keptShare(severe, peer),
        rare: keptShare(rare, shaped.text),
        rarePeer: keptShare(rare, peer),
        best: bestPossible(severe, budget),
      };
      const p = pooled.get(budget) ?? {
        severe: [0, 0],
        severePeer: 0,
        rare: [0, 0],
        rarePeer: 0,
        best: 0,
      };
      p.severe[0] += row.severe.kept;
      p.severe[1] += row.severe.of;
      p.severePeer += row.severePeer.kept;
      p.rare[0] += row.rare.kept;
      p.rare[1] += row.rare.of;
      p.rarePeer += row.rarePeer.kept;
      p.best += row.best.fitsAll ? severe.length : row.best.fit;
      pooled.set(budget, p);
      const best = row.best.fitsAll
        ? "  all"
        : `${pct({ kept: row.best.fit, of: severe.length })}*`;
      console.log(
        `  ${log.name.padEnd(12)} ${String(budget).padStart(6)}   ${String(severe.length).padStart(4)}  ${pct(row.severe)}    ${pct(row.severePeer)}   ${best} | ${String(rare.length).padStart(4)}  ${pct(row.rare)}    ${pct(row.rarePeer)}` +
          `   (${shaped.meta.tokens} tokens)`,
      );
    }
  }
  for (const [budget, p] of pooled) {
    const s = { kept: p.severe[0], of: p.severe[1] };
    const r = { kept: p.rare[0], of: p.rare[1] };
    console.log(
      `  ${"pooled".padEnd(12)} ${String(budget).padStart(6)}   ${String(s.of).padStart(4)}  ${pct(s)}    ${pct({ kept: p.severePeer, of: s.of })}  ${pct({ kept: p.best, of: s.of })} | ${String(r.of).padStart(4)}  ${pct(r)}    ${pct({ kept: p.rarePeer, of: r.of })}`,
    );
  }
  console.log(
    "  * a log whose severe templates cannot all fit one line each: the best possible share",
  );
}

const names = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith(".structured.csv"))
      .map((f) => f.replace(/\.structured\.csv$/, ""))
      .filter((n) => existsSync(`${dir}/${n}.log`))
      .sort()
  : [];
if (names.length === 0) console.log(`no NAME.log + NAME.structured.csv in ${dir}`);
else await measure(names.map(readLog), `real logs in ${dir}`);
await measure(variedLogs(), "generated logs (bench/varied-logs.mjs)");

// ANSI escapes (CSI and OSC) and carriage returns, removed from both sides before matching.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is removed
const ANSI = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const plain = (s) => s.replace(ANSI, "").replace(/\r/g, "");
const squash = (s) => s.replace(/\s+/g, " ").trim();

/** The data's rule: at least half of the chunk's first 12 lines of 12 characters or more shown. */
function chunkKept(chunk, text) {
  const lines = plain(chunk)
    .split("\n")
    .map(squash)
    .filter((l) => l.length >= 12)
    .slice(0, 12);
  if (lines.length === 0) return true;
  const shown = squash(plain(text));
  return lines.filter((l) => shown.includes(l)).length * 2 >= lines.length;
}

async function measureBuilds() {
  const manifest = JSON.parse(readFileSync(`${ciDir}/manifest.json`, "utf8"));
  console.log(`\nfailed CI builds in ${ciDir} (shaped as a failed command's stdout)`);
  console.log("  budget   builds  chunk kept: airlock  head+tail");
  for (const budget of BUDGETS) {
    let kept = 0;
    let peer = 0;
    for (const { name } of manifest) {
      const log = readFileSync(`${ciDir}/${name}.log`, "utf8");
      const chunk = readFileSync(`${ciDir}/${name}.chunk.txt`, "utf8");
      const shaped = await shape(
        { stdout: log, exitCode: 1 },
        { maxTokens: budget, tool: "build" },
      );
      if (chunkKept(chunk, shaped.text)) kept++;
      if (chunkKept(chunk, headTail(log.replace(/\r?\n$/, "").split(/\r?\n/), budget))) peer++;
    }
    const share = (k) => `${((100 * k) / manifest.length).toFixed(0).padStart(3)}%`;
    console.log(
      `  ${String(budget).padStart(6)}   ${String(manifest.length).padStart(6)}  ${share(kept).padStart(18)}  ${share(peer).padStart(9)}`,
    );
  }
}

if (existsSync(`${ciDir}/manifest.json`)) await measureBuilds();
else console.log(`\nno manifest.json in ${ciDir}`);
