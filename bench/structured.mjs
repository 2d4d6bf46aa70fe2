/**
 * Structured results: shape() on a GitHub-search-like API response, a 100,000-row SQL result (as
 * JSON and as CSV) and a streamed JSON array of ~500 MiB, next to the position-only peer run in
 * the same process: head+tail, the first and last N characters of the serialised input, with N
 * fitted by the same tokenizer to the same 4,000-token budget (the fitting is timed too).
 * Inputs come from a seeded PRNG, with planted evidence:
 *   1  three open issues labelled "regression", in the middle of the array (relevance order) and
 *      the three most recently updated, so `sort: "updated_at desc"` is what can find them
 *   2  the 0.2% error rows (status 500), each with a unique message
 *   3  one record with level "fatal" and a unique message, halfway through the stream
 * Prints tokens before and after, time, MiB/s, peak memory growth (heapUsed + arrayBuffers,
 * garbage included), records shown and omitted, how much planted evidence the text holds, and
 * whether the JSON under `data:` parses.
 *
 * Case 4 is the same SQL rows under a domain key (`{ "payments": [...], "total": … }`) and under
 * Elasticsearch's `hits.hits`, where only arrays under the nine envelope keys used to be records.
 *
 *   npm run bench:structured
 *   node --expose-gc bench/structured.mjs --size=50     (MiB streamed in case 3; default 500)
 *   AIRLOCK_BASELINE=<another build's index.js> ...     (adds that build's shape() to every case)
 */

import { pathToFileURL } from "node:url";
import { GCProfiler } from "node:v8";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { shape } from "../dist/index.js";

const baseline = process.env.AIRLOCK_BASELINE
  ? await import(pathToFileURL(process.env.AIRLOCK_BASELINE).href)
  : undefined;

const BUDGET = 4000;
const sizeArg = process.argv.find((a) => a.startsWith("--size="))?.slice(7) ?? "500";
const streamMiB = Number(sizeArg);
if (!(streamMiB >= 1)) throw new Error(`bench: --size=${sizeArg} is not a number of MiB >= 1`);

const plain = { disallowedSpecial: new Set() };
const tokens = (text) => countTokens(text, plain);
const encoder = new TextEncoder();
const byteLength = (text) => encoder.encode(text).byteLength;
const iso = (ms) => new Date(ms).toISOString();
const DAY = 86_400_000;

/** mulberry32: small, fast and seeded, so every run shapes the same bytes. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// ---------------------------------------------------------------------------------------------
// Inputs

const WORDS = `the request returns cache token retry handler stream parser config timeout build user
  session page query index worker client server release flag migration schema field value response
  header body default option after when with without upgrade install render list`.split(/\s+/);
const LABELS =
  "bug,enhancement,documentation,question,good first issue,help wanted,wontfix,ci".split(",");
const PLANTED_ISSUES = [
  "Regression: list view renders blank after the 4.2.0 upgrade",
  "Regression: webhook retries double-charge since 4.2.1",
  "Regression: CSV export drops rows past 65535",
];
const REACTIONS = "total_count +1 -1 laugh hooray confused heart rocket eyes".split(" ");
// Fields every item carries with the same value (a real response has them too).
const UNSET = { locked: false, assignee: null, assignees: [], milestone: null, type: null };
const UNSET_TOO = { active_lock_reason: null, closed_by: null, performed_via_github_app: null };

/** A `/search/issues` response: 1,412 items of ~40 fields, the planted three at 470, 706, 941. */
function githubSearch(rand) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const sentences = () =>
    Array.from({ length: 3 + rand() * 4 }, () => `${words(8 + rand() * 10)}.`);
  const repo = "https://api.github.com/repos/acme/widgets";
  const start = Date.parse("2024-01-01T00:00:00Z");
  const label = (name) => ({
    id: 4_000_000 + LABELS.indexOf(name),
    node_id: `LA_kwDO${(4_000_000 + LABELS.indexOf(name)).toString(36)}`,
    url: `${repo}/labels/${encodeURIComponent(name)}`,
    name,
    color: name === "regression" ? "b60205" : "0e8a16",
    default: name === "bug",
    description: name === "regression" ? "Worked in a previous release" : `${name} issues`,
  });
  const items = [];
  for (let i = 0; i < 1412; i++) {
    const p = [470, 706, 941].indexOf(i); // a planted issue, or -1
    const number = 30_000 - i * 13;
    const issue = `${repo}/issues/${number}`;
    const created = start + Math.floor(rand() * 300 * DAY);
    // The planted issues are the most recently updated; the others end by day 330.
    const updated = p === -1 ? created + rand() * 30 * DAY : start + (400 + p / 24) * DAY;
    const closed = p === -1 && rand() < 0.6;
    const login = `${pick(["ana", "bo", "chen", "dara", "eli", "fatima"])}${Math.floor(rand() * 1000)}`;
    const uid = 100_000 + Math.floor(rand() * 9_000_000);
    const user = `https://api.github.com/users/${login}`;
    const pull = p === -1 && rand() < 0.25 ? `https://github.com/acme/widgets/pull/${number}` : "";
    items.push({
      url: issue,
      repository_url: repo,
      ...Object.fromEntries(
        ["labels", "comments", "events"].map((k) => [`${k}_url`, `${issue}/${k}`]),
      ),
      html_url: `https://github.com/acme/widgets/issues/${number}`,
      id: 2_000_000_000 + i * 977,
      node_id: `I_kwDOAbc${(2_000_000_000 + i * 977).toString(36)}`,
      number,
      title: p === -1 ? words(4 + rand() * 6) : PLANTED_ISSUES[p],
      user: {
        login,
        id: uid,
        node_id: `MDQ6VXNlcj${uid.toString(36)}`,
        avatar_url: `https://avatars.githubusercontent.com/u/${uid}?v=4`,
        url: user,
        html_url: `https://github.com/${login}`,
        ...Object.fromEntries(["followers", "repos"].map((k) => [`${k}_url`, `${user}/${k}`])),
        type: "User",
        site_admin: false,
      },
      labels: (p === -1 ? LABELS.filter(() => rand() < 0.15) : ["regression", "bug"]).map(label),
      state: closed ? "closed" : "open",
      ...UNSET,
      comments: Math.floor(rand() * 40),
      created_at: iso(created),
      updated_at: iso(updated),
      closed_at: closed ? iso(updated) : null,
      author_association: pick(["NONE", "CONTRIBUTOR", "MEMBER"]),
      sub_issues_summary: { total: 0, completed: 0, percent_completed: 0 },
      ...(pull && {
        draft: false,
        pull_request: {
          url: `${repo}/pulls/${number}`,
          html_url: pull,
          diff_url: `${pull}.diff`,
          patch_url: `${pull}.patch`,
          merged_at: closed ? iso(updated) : null,
        },
      }),
      body: Array.from({ length: 2 + rand() * 3 }, () => sentences().join(" ")).join("\n\n"),
      reactions: { url: `${issue}/reactions`, ...Object.fromEntries(REACTIONS.map((k) => [k, 0])) },
      timeline_url: `${issue}/timeline`,
      ...UNSET_TOO,
      state_reason: closed ? "completed" : null,
      score: 1,
    });
  }
  return { total_count: 1412, incomplete_results: false, items };
}

const SERVICES = ["api", "auth", "billing", "search", "worker", "gateway"];
const MESSAGES =
  `request served,cache hit,cache miss; loaded from origin,token refreshed,session resumed,
slow query logged,retrying after 429,not found`.split(/,\n?/);

/** One row of a log table; errors (0.2%) carry a unique message, so each is findable. */
function sqlRow(id, rand) {
  const r = rand();
  const service = SERVICES[Math.floor(rand() * SERVICES.length)];
  const error = r < 0.002;
  const trace = `${id.toString(16)}${Math.floor(rand() * 2 ** 32).toString(16)}`;
  return {
    id,
    created_at: iso(Date.parse("2026-11-30T00:00:00Z") + id * 250),
    level: error ? "error" : r < 0.05 ? "warn" : r < 0.15 ? "debug" : "info",
    service,
    latency_ms: Math.round(rand() * 4000) / 10,
    status: error ? 500 : r < 0.03 ? 404 : 200,
    message: error ? `upstream timeout calling ${service}-db (trace ${trace})` : MESSAGES[id % 8],
  };
}

// No generated cell holds a comma, quote or newline, so a plain join is valid CSV.
const toCsv = (rows) =>
  [Object.keys(rows[0]), ...rows.map(Object.values)].map((cells) => cells.join(",")).join("\n");

const FATAL = {
  ...sqlRow(-1, prng(5)),
  level: "fatal",
  status: 500,
  message:
    "ledger write failed: disk quota exceeded on /var/lib/ledger (errno=122, planted 7c1e9d)",
};

/** Eight ~1 MiB blocks of `,{record}`, cycled by the stream so generation costs almost nothing. */
function makeBlocks(rand, count = 8) {
  const blocks = [];
  for (let b = 0, id = 1; b < count; b++) {
    const rows = [];
    for (let chars = 0; chars < (1 << 20) - 400; chars += rows.at(-1).length)
      rows.push(`,${JSON.stringify(sqlRow(id++, rand))}`);
    const errors = rows.filter((row) => row.includes('"level":"error"')).length;
    const text = rows.join("");
    blocks.push({ bytes: encoder.encode(text), records: rows.length, errors, text: b ? "" : text });
  }
  return blocks;
}

/** A JSON array of `count` blocks in 64 KiB pieces, with FATAL planted in the middle. */
function* jsonPieces(blocks, count, onPull) {
  yield encoder.encode(`[${JSON.stringify(sqlRow(0, prng(9)))}`);
  for (let b = 0; b < count; b++) {
    if (b === count >> 1) yield encoder.encode(`,${JSON.stringify(FATAL)}`);
    const { bytes } = blocks[b % blocks.length];
    for (let at = 0; at < bytes.byteLength; at += 65536) {
      onPull();
      yield bytes.subarray(at, at + 65536);
    }
  }
  yield encoder.encode("]");
}
const jsonStream = (...args) => ReadableStream.from(jsonPieces(...args));

// ---------------------------------------------------------------------------------------------
// Runs

/**
 * Time and peak memory growth of one run: a 20 ms sampler, a sample every 16th stream pull, and
 * the heap in use before each GC (v8's GCProfiler). The last two are needed because a run made of
 * microtasks only (shape() of a string; a stream read in a tight loop) never lets a timer fire.
 */
async function measure(run) {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peak = 0;
  let pulls = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
  };
  const timer = setInterval(sample, 20);
  const gcs = new GCProfiler();
  gcs.start();
  const t0 = performance.now();
  const result = await run(() => pulls++ % 16 === 0 && sample());
  const ms = performance.now() - t0;
  sample();
  clearInterval(timer);
  for (const gc of gcs.stop().statistics) {
    peak = Math.max(peak, gc.beforeGC.heapStatistics.usedHeapSize - base.heapUsed);
  }
  return { ...result, ms, peak };
}

async function airlock(input, options, shaper = shape) {
  const { text, status, meta } = await shaper(input, { maxTokens: BUDGET, ...options });
  return { text, status, tokens: meta.tokens, records: meta.records };
}

/** The runs of a case, with the baseline build's beside airlock's when one is given. */
function withBaseline(runs) {
  if (!baseline) return runs;
  const out = [];
  for (const run of runs) {
    out.push(run);
    const [name, kind, fn] = run;
    if (name.startsWith("airlock"))
      out.push([`baseline${name.slice(7)}`, kind, (onPull) => fn(onPull, baseline.shape)]);
  }
  return out;
}

const HEAD_CAP = 64 * 1024;

/** The peer: first and last n characters around a cut marker, n shrunk until the budget holds. */
function fitHeadTail(head, tail, total) {
  const cut = (n) =>
    `${head.slice(0, n)}\n… [${total - 2 * n} characters cut] …\n${tail.slice(-n)}`;
  let n = Math.min(head.length, tail.length);
  let count = tokens(cut(n));
  while (count > BUDGET) {
    n = Math.floor((n * (BUDGET - 8)) / count);
    count = tokens(cut(n));
  }
  return { text: cut(n), tokens: count };
}

const headTail = (text) => fitHeadTail(text.slice(0, HEAD_CAP), text.slice(-HEAD_CAP), text.length);

async function headTailStream(stream) {
  const decoder = new TextDecoder();
  let head = "";
  let tail = "";
  let total = 0;
  for await (const bytes of stream) {
    const text = decoder.decode(bytes, { stream: true });
    total += text.length;
    if (head.length < HEAD_CAP) head += text.slice(0, HEAD_CAP - head.length);
    tail += text;
    if (tail.length > 2 * HEAD_CAP) tail = tail.slice(-HEAD_CAP);
  }
  return fitHeadTail(head, tail, total);
}

/** Whether the JSON under `data:` parses (airlock), or the whole cut parses (head+tail). */
function parses(text, kind) {
  if (kind === "csv") {
    // The peer's CSV "parses" when every line is a whole row of the header's width.
    const lines = text.split("\n").filter((l) => !l.startsWith("… ["));
    return lines.every((l) => l.split(",").length === lines[0].split(",").length);
  }
  const data = /\ndata: ([\s\S]*?)\n(?:omitted:|next:|<\/untrusted-data)/.exec(text)?.[1];
  try {
    JSON.parse(kind === "airlock" ? data : text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const mb = (bytes) => (bytes / 1024 ** 2).toFixed(1);
const n = (x) => x.toLocaleString("en-US");
const yes = (ok) => (ok ? "yes" : "no");

async function runCase(title, facts, runs) {
  const done = [];
  for (const [name, kind, run] of withBaseline(runs)) {
    const r = await measure(run);
    const found = facts.needles.filter((needle) => r.text.includes(needle)).length;
    done.push({ ...r, name, found, parses: parses(r.text, kind) });
  }
  const { bytes, records, errors, needles } = facts;
  const before = `${n(facts.tokens)} tokens before ${facts.extrapolated ? "(extrapolated from a 1 MiB sample)" : "(exact)"}`;
  console.log(`\n${title}\n  ${n(bytes)} B (${mb(bytes)} MiB), ${n(records)} records, ${before}`);
  console.log(
    "  run                    tokens  time ms    MiB/s  peak MiB  shown / omitted  evidence  data parses",
  );
  for (const r of done) {
    const shown = r.records ? `${n(r.records.shown)} / ${n(r.records.omitted)}` : "-";
    const rate = (bytes / 1024 ** 2 / (r.ms / 1000)).toFixed(1);
    console.log(
      `  ${r.name.padEnd(20)} ${n(r.tokens).padStart(8)} ${r.ms.toFixed(0).padStart(8)} ${rate.padStart(8)}` +
        ` ${mb(r.peak).padStart(9)}  ${shown.padEnd(15)} ${`${r.found}/${needles.length}`.padStart(9)}  ${yes(r.parses)}`,
    );
  }
  const peer = done[0];
  for (const r of done.slice(1)) {
    const m = r.records ?? { total: 0, errors: 0, errorsShown: 0, refused: {} };
    const check = tokens(r.text) === r.tokens ? "" : `  <- text counts ${n(tokens(r.text))} tokens`;
    const wrong =
      m.total !== records || m.errors !== errors ? `  <- expected ${n(records)}, ${n(errors)}` : "";
    console.log(
      `  ${r.name}: status ${r.status}, meta.records.total ${n(m.total)}, errors ${n(m.errors)}` +
        ` (${n(m.errorsShown)} shown), refused ${JSON.stringify(m.refused)}${wrong}${check}`,
    );
    console.log(
      `  ratio ${r.name} / head+tail time: ${(r.ms / peer.ms).toFixed(1)}x; evidence kept: airlock` +
        ` ${yes(r.found)} (${r.found}/${needles.length}) vs head+tail ${yes(peer.found)} (${peer.found}/${needles.length})`,
    );
    const base = done.find((d) => d.name === `baseline${r.name.slice(7)}`);
    if (base && r.name.startsWith("airlock"))
      console.log(
        `  ratio ${r.name} / baseline time: ${(r.ms / base.ms).toFixed(2)}x; evidence ${r.found}/${needles.length} vs baseline ${base.found}/${needles.length}`,
      );
  }
}

console.log(
  `node ${process.version}; tokens are o200k_base; budget ${n(BUDGET)}; peak = most growth of heapUsed +` +
    " arrayBuffers seen in the run (garbage included); evidence = planted records whose text is in the output",
);
// Warm up the JIT and load the tokenizer on both sides.
const warm = JSON.stringify(Array.from({ length: 2000 }, (_, i) => sqlRow(i, prng(4))));
await shape(warm, { contentType: "application/json" });
headTail(warm);

{
  const json = JSON.stringify(githubSearch(prng(1)));
  const type = { contentType: "application/json" };
  const fields = "items[*].{number,title,state,labels[*].name,updated_at}";
  const facts = { bytes: byteLength(json), records: 1412, errors: 0, needles: PLANTED_ISSUES };
  facts.tokens = tokens(json);
  await runCase("1. GitHub search response: 1,412 issues of ~40 fields (JSON string)", facts, [
    ["head+tail", "json", async () => headTail(json)],
    ["airlock", "airlock", (_, s) => airlock(json, type, s)],
    [
      "airlock fields+sort",
      "airlock",
      (_, s) => airlock(json, { ...type, fields, sort: "updated_at desc" }, s),
    ],
  ]);
}

{
  const rand = prng(2);
  const rows = Array.from({ length: 100_000 }, (_, i) => sqlRow(i + 1, rand));
  const needles = rows.filter((r) => r.level === "error").map((r) => r.message);
  const inputs = [
    ["JSON array string", JSON.stringify(rows), "application/json", "json"],
    ["CSV text", toCsv(rows), "text/csv", "csv"],
  ];
  rows.length = 0;
  for (const [name, text, contentType, kind] of inputs) {
    const facts = { bytes: byteLength(text), records: 100_000, errors: needles.length, needles };
    facts.tokens = tokens(text);
    await runCase(
      `2. SQL result: 100,000 rows, ${needles.length} errors (${name}, ${contentType})`,
      facts,
      [
        ["head+tail", kind, async () => headTail(text)],
        ["airlock", "airlock", (_, s) => airlock(text, { contentType }, s)],
      ],
    );
  }
}

{
  const blocks = makeBlocks(prng(3));
  const count = Math.max(2, Math.round(streamMiB));
  const facts = { bytes: 1, records: 2, errors: 1, needles: [FATAL.message], extrapolated: true };
  facts.bytes = byteLength(`[${JSON.stringify(sqlRow(0, prng(9)))},${JSON.stringify(FATAL)}]`);
  for (let b = 0; b < count; b++) {
    facts.bytes += blocks[b % blocks.length].bytes.byteLength;
    facts.records += blocks[b % blocks.length].records;
    facts.errors += blocks[b % blocks.length].errors;
  }
  facts.tokens = Math.round((tokens(blocks[0].text) / blocks[0].bytes.byteLength) * facts.bytes);
  blocks[0].text = "";
  const options = { contentType: "application/json", maxBytes: 600 * 2 ** 20 };
  await runCase(
    `3. Streamed JSON array: ${count} x ~1 MiB blocks in 64 KiB pieces (ReadableStream)`,
    facts,
    [
      ["head+tail", "json", (onPull) => headTailStream(jsonStream(blocks, count, onPull))],
      ["airlock", "airlock", (onPull, s) => airlock(jsonStream(blocks, count, onPull), options, s)],
    ],
  );
}

{
  const rand = prng(2);
  const rows = Array.from({ length: 100_000 }, (_, i) => sqlRow(i + 1, rand));
  const needles = rows.filter((r) => r.level === "error").map((r) => r.message);
  const nested = {
    took: 12,
    timed_out: false,
    hits: {
      total: { value: rows.length, relation: "eq" },
      max_score: 1,
      hits: rows.map((r) => ({ _index: "logs", _id: String(r.id), _source: r })),
    },
  };
  const inputs = [
    ['{ "payments": [...], "total" }', JSON.stringify({ payments: rows, total: rows.length })],
    ["Elasticsearch hits.hits", JSON.stringify(nested)],
  ];
  rows.length = 0;
  for (const [name, text] of inputs) {
    const facts = { bytes: byteLength(text), records: 100_000, errors: needles.length, needles };
    facts.tokens = tokens(text);
    await runCase(`4. The same 100,000 rows under ${name} (JSON string)`, facts, [
      ["head+tail", "json", async () => headTail(text)],
      ["airlock", "airlock", (_, s) => airlock(text, { contentType: "application/json" }, s)],
    ]);
  }
}
