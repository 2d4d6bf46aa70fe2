// `npm run worker`: the edge Worker on http://127.0.0.1:8787 under `wrangler dev` (local
// workerd, KV and R2 simulated on disk under .wrangler/). Builds the package first (the Worker
// imports agent-airlock/edge/o200k_base as a user's Worker would), makes a bearer token for
// this run (or takes AIRLOCK_DEV_TOKEN), writes its SHA-256 into .dev.vars with a fresh
// raw-artifact key, and prints the token. Ctrl-C stops wrangler.
//
//   npm run worker
//   curl -H "Authorization: Bearer $TOKEN" --data-binary @build.log 'http://127.0.0.1:8787/shape?tool=bash&maxTokens=800'
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const root = fileURLToPath(new URL("../../", import.meta.url));
const port = process.env.PORT ?? "8787";

const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
if (built.status !== 0) process.exit(built.status ?? 1);

const token = process.env.AIRLOCK_DEV_TOKEN ?? randomBytes(24).toString("base64url");
const hash = createHash("sha256").update(token).digest("hex");
const tokens = JSON.stringify({ [hash]: { tenant: "dev", raw: true } });
const rawKey = randomBytes(32).toString("base64");
writeFileSync(
  `${here}.dev.vars`,
  // Single quotes: dotenv keeps what is inside them as it is (the JSON's own quotes included).
  `AIRLOCK_TOKENS='${tokens}'\nAIRLOCK_RAW_KEY='${rawKey}'\n`,
);
console.log(
  `\nairlock edge Worker on http://127.0.0.1:${port}\n  token (tenant "dev"): ${token}\n`,
);

const wrangler = spawn(
  "npx",
  ["wrangler", "dev", "--config", `${here}wrangler.jsonc`, "--ip", "127.0.0.1", "--port", port],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  },
);
wrangler.on("exit", (code) => process.exit(code ?? 0));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => wrangler.kill(signal));
