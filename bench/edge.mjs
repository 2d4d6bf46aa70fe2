/**
 * The edge Worker (demo/worker) as Cloudflare would run it, measured in the same process:
 *   1. its bundle as `wrangler deploy` builds it (raw and gzip, minified as wrangler.jsonc says
 *      and not), next to the same Worker importing the core entry (both rank tables inlined);
 *   2. CPU per POST /shape in local workerd (Miniflare, the bundle from 1, KV and R2 bindings),
 *      cold (the first request of a fresh isolate: the tokenizer loads then) and warm, for
 *      10 KB, 1 MB and 20 MB logs, next to a request the Worker refuses at once (401).
 *
 * CPU is read from the kernel: the workerd process's threads' run time (/proc/<pid>/task/*
 * /schedstat, nanoseconds) before and after each request, with one request in flight at a
 * time. It counts what workerd spends on the request, receiving the body included; Workers
 * bill the isolate's thread only, so these figures are an upper bound of what Cloudflare
 * reports. (workerd's own trace events give 0 ms locally, and `performance.now()` does not
 * advance during synchronous work there.) Linux only.
 *
 *   npm run bench:edge                 (builds first)
 *   node bench/edge.mjs [warm runs, default 5]
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import { makeChunks } from "./logs.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const config = join(root, "demo/worker/wrangler.jsonc");
const warmRuns = Number(process.argv[2] ?? 5);
const AIM_GZIP = 1.3 * 1000 * 1000;

const scratch = mkdtempSync(join(tmpdir(), "airlock-bench-edge-"));
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
};
const wrangler = join(root, "node_modules/.bin/wrangler");
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;

/** `wrangler deploy --dry-run` into a fresh directory: the script it would upload. */
function bundle(name, args, cwd = root) {
  const outdir = join(scratch, name);
  execFileSync(wrangler, ["deploy", "--dry-run", "--outdir", outdir, ...args], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const file = readdirSync(outdir).find((f) => f.endsWith(".js"));
  const code = readFileSync(join(outdir, file));
  return { path: join(outdir, file), raw: code.byteLength, gzip: gzipSync(code).byteLength };
}

// 1. Bundles.
const edge = bundle("edge", ["--config", config]);
const edgeLoose = bundle("edge-unminified", ["--config", config, "--minify=false"]);
// The same routes over the core entry, as a Worker that imports "agent-airlock" would be.
const core = (() => {
  const dir = join(scratch, "core-worker");
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  symlinkSync(root, join(dir, "node_modules/agent-airlock"));
  writeFileSync(
    join(dir, "worker.js"),
    `import { shape } from "agent-airlock";\nexport default { async fetch(r) { return Response.json(await shape(r.body)); } };\n`,
  );
  return bundle(
    "core",
    ["worker.js", "--name", "core", "--compatibility-date", "2026-04-01", "--minify"],
    dir,
  );
})();

console.log("Worker bundle (wrangler deploy --dry-run)        raw        gzip");
const row = (name, b) =>
  console.log(`${name.padEnd(46)} ${mb(b.raw).padStart(9)}  ${mb(b.gzip).padStart(9)}`);
row("demo/worker, edge/o200k_base, minified", edge);
row("demo/worker, edge/o200k_base, not minified", edgeLoose);
row("baseline: a Worker on the core entry, minified", core);
console.log(
  `edge / core: ${(edge.gzip / core.gzip).toFixed(2)}x gzip; aim ${mb(AIM_GZIP)} gzip with one tokenizer: ${edge.gzip <= AIM_GZIP ? "met" : "NOT met"}\n`,
);

// 2. CPU per request.
const token = randomBytes(24).toString("base64url");
const bindings = {
  AIRLOCK_TOKENS: JSON.stringify({ [createHash("sha256").update(token).digest("hex")]: "bench" }),
  AIRLOCK_RAW_KEY: randomBytes(32).toString("base64"),
  AIRLOCK_MAX_TOKENS: "32000",
  AIRLOCK_TTL_SECONDS: "1800",
  UPSTREAM_MCP_URL: "",
};

function workerdPids() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const ppid = Number(stat.slice(close + 2).split(" ")[1]);
      if (comm === "workerd" && ppid === process.pid) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** Nanoseconds every thread of the process has run. */
function cpuNs(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // thread ended
    }
  }
  return total;
}

async function instance() {
  const before = new Set(workerdPids());
  const mf = new Miniflare({
    modules: true,
    script: readFileSync(edge.path, "utf8"),
    compatibilityDate: "2026-04-01",
    compatibilityFlags: [],
    kvNamespaces: ["RESULTS_KV"],
    r2Buckets: ["RESULTS_R2", "RAW_R2"],
    bindings,
  });
  await mf.ready;
  const pid = workerdPids().find((p) => !before.has(p));
  if (pid === undefined) throw new Error("bench/edge: could not find the workerd process");
  return { mf, pid };
}

async function timed(mf, pid, path, body, auth = true) {
  const start = cpuNs(pid);
  const res = await mf.dispatchFetch(`http://airlock.bench${path}`, {
    method: "POST",
    body,
    headers: auth ? { authorization: `Bearer ${token}`, "content-type": "text/plain" } : {},
  });
  const reply = await res.text();
  const ms = (cpuNs(pid) - start) / 1e6;
  return { ms, status: res.status, reply };
}

const chunks = makeChunks();
function log(bytes) {
  const out = new Uint8Array(bytes);
  for (let at = 0, i = 0; at < bytes; i++) {
    const chunk = chunks[i % chunks.length];
    const n = Math.min(chunk.byteLength, bytes - at);
    out.set(chunk.subarray(0, n), at);
    at += n;
  }
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const sizes = [
  ["10 KB", 10_000],
  ["1 MB", 1_000_000],
  ["20 MB", 20_000_000],
];

console.log(`CPU per POST /shape in local workerd (maxTokens 4000; warm: median of ${warmRuns})`);
console.log("input      cold       warm      warm per MB   status");
const baseline = await instance();
await timed(baseline.mf, baseline.pid, "/shape", "x", false);
const refused = [];
for (let i = 0; i < warmRuns; i++)
  refused.push((await timed(baseline.mf, baseline.pid, "/shape", "x", false)).ms);
await baseline.mf.dispose();
for (const [name, bytes] of sizes) {
  const body = log(bytes);
  const { mf, pid } = await instance();
  const cold = await timed(mf, pid, "/shape?tool=bench", body);
  const warm = [];
  let status = cold.status;
  for (let i = 0; i < warmRuns; i++) {
    const r = await timed(mf, pid, "/shape?tool=bench", body);
    warm.push(r.ms);
    status = r.status === 200 ? JSON.parse(r.reply).status : `HTTP ${r.status}`;
  }
  await mf.dispose();
  const w = median(warm);
  console.log(
    `${name.padEnd(8)} ${`${cold.ms.toFixed(0)} ms`.padStart(8)} ${`${w.toFixed(1)} ms`.padStart(10)} ${`${(w / (bytes / 1e6)).toFixed(1)} ms`.padStart(13)}   ${status}`,
  );
}
console.log(
  `baseline: a request refused at once (401), warm: ${median(refused).toFixed(2)} ms; ` +
    "cold includes loading o200k_base's ranks on the first request",
);
rmSync(scratch, { recursive: true, force: true });
