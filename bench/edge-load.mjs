/**
 * A loopback load test of the edge Worker: `wrangler dev` on 127.0.0.1 (local workerd, KV and
 * R2 simulated under a scratch directory), started here in its own process group and stopped by
 * that group when done. Bounded in requests and in time. The mix: small results (10 KB logs,
 * each different), 5 MB logs (cut, kept in KV and R2, their raw body sealed) and `POST /read`
 * pages of the kept results. It prints requests/s, p50 and p99 latency per kind, the error
 * count, and workerd's resident memory after each tenth of the run (flat memory: the second
 * half no higher than a margin over the middle), next to the baseline of requests the Worker
 * refuses at once (401) in the same run.
 *
 *   npm run bench:edge-load                     (builds first)
 *   node bench/edge-load.mjs [requests, default 300] [seconds, default 120] [concurrency, default 4]
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const maxRequests = Number(process.argv[2] ?? 300);
const maxSeconds = Number(process.argv[3] ?? 120);
const concurrency = Number(process.argv[4] ?? 4);
const HOST = "127.0.0.1";

const scratch = mkdtempSync(join(tmpdir(), "airlock-edge-load-"));
const token = randomBytes(24).toString("base64url");
const envFile = join(scratch, "load.env");
// Single quotes: dotenv keeps what is inside them as it is (the JSON's own quotes included).
const tokens = JSON.stringify({ [createHash("sha256").update(token).digest("hex")]: "load" });
writeFileSync(
  envFile,
  `AIRLOCK_TOKENS='${tokens}'\nAIRLOCK_RAW_KEY='${randomBytes(32).toString("base64")}'\n`,
);

/** A port nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const inspector = await freePort();
const origin = `http://${HOST}:${port}`;

// Its own session and process group (setsid), so stopping it stops workerd too, and nothing else.
const child = spawn(
  "setsid",
  [
    join(root, "node_modules/.bin/wrangler"),
    "dev",
    "--config",
    join(root, "demo/worker/wrangler.jsonc"),
    "--ip",
    HOST,
    "--port",
    String(port),
    "--inspector-port",
    String(inspector),
    "--env-file",
    envFile,
    "--persist-to",
    join(scratch, "state"),
    "--show-interactive-dev-session=false",
    "--log-level",
    "warn",
  ],
  {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      CI: "1",
    },
  },
);
let output = "";
child.stdout.on("data", (d) => (output += d));
child.stderr.on("data", (d) => (output += d));

let stopped = false;
function stop() {
  if (stopped) return;
  stopped = true;
  try {
    // setsid made the child the leader of its own group: -pid is that group, no one else's.
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}
process.on("exit", () => {
  stop();
  rmSync(scratch, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));

/** Processes of the wrangler group named workerd. */
function workerdPids() {
  const pids = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const pgrp = Number(stat.slice(close + 2).split(" ")[2]);
      if (comm === "workerd" && pgrp === child.pid) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** Resident memory of workerd, in MB. */
function rssMb() {
  let kb = 0;
  for (const pid of workerdPids()) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

// Ready when /shape answers (401 without a token); at most 90 s.
const readyBy = Date.now() + 90_000;
for (;;) {
  if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
  if (Date.now() > readyBy) {
    stop();
    throw new Error(`wrangler dev did not answer within 90 s:\n${output}`);
  }
  try {
    const res = await fetch(`${origin}/shape`, { method: "POST", body: "x" });
    await res.arrayBuffer();
    if (res.status === 401) break;
    stop();
    throw new Error(`wrangler dev answered ${res.status} without a token, not 401`);
  } catch (error) {
    if (stopped) throw error;
    // not up yet
  }
  await new Promise((r) => setTimeout(r, 250));
}

const auth = { authorization: `Bearer ${token}` };

/** A log of `bytes` bytes, different for each `seed` (so each small result is its own). */
function logOf(bytes, seed) {
  const lines = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const line =
      n % 997 === 0
        ? `L${n} ERROR job ${seed} step ${n} failed: upstream timeout`
        : `L${n} INFO job ${seed} step ${n} ok in ${(n * 7919 + seed) % 1000}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

const big = logOf(5 * 1000 * 1000, 1);
const handles = [];

const kinds = {
  small: { n: 0, ms: [], errors: 0 },
  large: { n: 0, ms: [], errors: 0 },
  read: { n: 0, ms: [], errors: 0 },
  refused: { n: 0, ms: [], errors: 0 },
};

async function one(i) {
  // Of every 20: 14 small, 2 large (5 MB), 3 reads of a kept result, 1 refused.
  const slot = i % 20;
  const kind = slot < 14 ? "small" : slot < 16 ? "large" : slot < 19 ? "read" : "refused";
  const k = kinds[kind];
  let init;
  let path = "/shape?tool=load&maxTokens=2000";
  if (kind === "small") init = { body: logOf(10_000, 1000 + i), headers: auth };
  else if (kind === "large") init = { body: big, headers: auth };
  else if (kind === "refused") init = { body: "x", headers: {} };
  else {
    path = "/read?maxTokens=8000";
    const handle = handles[i % Math.max(1, handles.length)] ?? "res_000000000000000000000000";
    init = {
      body: JSON.stringify({ handle, lines: { from: 1 + ((i * 37) % 5000) }, pageSize: 200 }),
      headers: { ...auth, "content-type": "application/json" },
    };
  }
  const start = performance.now();
  try {
    const res = await fetch(`${origin}${path}`, { method: "POST", ...init });
    const text = await res.text();
    const ms = performance.now() - start;
    const expected = kind === "refused" ? 401 : 200;
    let ok = res.status === expected;
    if (ok && kind !== "refused") {
      const body = JSON.parse(text);
      ok = body.status !== "error";
      if (kind === "large" && body.meta.handle && handles.length < 16)
        handles.push(body.meta.handle);
    }
    k.n++;
    k.ms.push(ms);
    if (!ok) {
      k.errors++;
      if (k.errors <= 3) console.error(`${kind}: HTTP ${res.status} ${text.slice(0, 300)}`);
    }
  } catch (error) {
    k.n++;
    k.errors++;
    if (k.errors <= 3) console.error(`${kind}: ${error}`);
  }
}

// Warm the isolate (first request loads the tokenizer), and keep one large result for reads.
await one(14);
for (const k of Object.values(kinds)) Object.assign(k, { n: 0, ms: [], errors: 0 });

// Resident memory at the start and after each tenth of the requests.
const memory = [rssMb()];
const started = performance.now();
const deadline = Date.now() + maxSeconds * 1000;
let next = 0;
async function lane() {
  while (next < maxRequests && Date.now() < deadline) {
    const i = next++;
    if (i > 0 && i % Math.max(1, Math.floor(maxRequests / 10)) === 0) memory.push(rssMb());
    await one(i);
  }
}
await Promise.all(Array.from({ length: concurrency }, lane));
const seconds = (performance.now() - started) / 1000;
memory.push(rssMb());
stop();
// Wait for the group to be gone (workerd included); SIGKILL to the same group after 10 s.
const exited = new Promise((resolve) => child.once("exit", resolve));
const gone = await Promise.race([
  exited.then(() => true),
  new Promise((r) => setTimeout(() => r(false), 10_000)),
]);
if (!gone) {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // gone meanwhile
  }
}
for (let i = 0; i < 40 && workerdPids().length > 0; i++)
  await new Promise((r) => setTimeout(r, 250));

const pct = (xs, p) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const total = Object.values(kinds).reduce((a, k) => a + k.n, 0);
const errors = Object.values(kinds).reduce((a, k) => a + k.errors, 0);
console.log(
  `POST /shape and /read against wrangler dev on ${HOST} (${concurrency} in flight, bounded by ${maxRequests} requests and ${maxSeconds} s)`,
);
console.log("kind                      requests   p50 ms   p99 ms   errors");
const rows = {
  small: "shape, 10 KB log",
  large: "shape, 5 MB log (kept)",
  read: "read_result page",
  refused: "baseline: refused (401)",
};
for (const [name, label] of Object.entries(rows)) {
  const k = kinds[name];
  console.log(
    `${label.padEnd(25)} ${String(k.n).padStart(8)} ${pct(k.ms, 50).toFixed(1).padStart(8)} ${pct(k.ms, 99).toFixed(1).padStart(8)} ${String(k.errors).padStart(8)}`,
  );
}
const all = Object.values(kinds).flatMap((k) => k.ms);
console.log(
  `all: ${total} requests in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(1)} requests/s; p50 ${pct(all, 50).toFixed(1)} ms, p99 ${pct(all, 99).toFixed(1)} ms; errors ${errors}`,
);
const half = memory[Math.floor(memory.length / 2)];
const last = memory.at(-1);
console.log(
  `workerd resident memory by tenths of the run (MB): ${memory.map((m) => m.toFixed(0)).join(" ")}; last / middle ${(last / Math.max(1, half)).toFixed(2)}x`,
);
process.exitCode = errors === 0 ? 0 : 1;
