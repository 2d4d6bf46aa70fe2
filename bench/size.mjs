// Bundle sizes, as a host's bundler would see them: each public entry bundled, minified and
// code-split with esbuild (tokenizer ranks left external: they load lazily by design), then
// gzip-compressed. For each entry: the chunk loaded up front (its static graph), the chunks
// loaded on demand, and which heavy packages sit in the static graph. The playground's
// production build (demo/dist, when built) is measured as it is.
//
//   npm run bench:size
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const HEAVY = [
  "dompurify",
  "marked",
  "htmlparser2",
  "papaparse",
  "@cfworker/json-schema",
  "gpt-tokenizer",
];
const AIM_CORE_KB = 30;
// The agent frameworks: optional peers of their own entries, never in the core's graph. The
// core is bundled with them resolvable, so an import of one would show; a framework entry is
// bundled with its framework external (the host's bundle has it anyway).
const FRAMEWORKS = ["ai", "@langchain/core", "@openai/agents-core"];

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (buf) => gzipSync(buf, { level: 9 }).byteLength;

/**
 * An entry that imports only some names of the package, as an app that calls `shape()` does:
 * the bundler keeps only what those names reach (the package declares no side effects).
 */
function namesEntry(dir, names) {
  const file = join(dir, "names.ts");
  writeFileSync(
    file,
    `export { ${names.join(", ")} } from ${JSON.stringify(join(root, "src/index.ts"))};\n`,
  );
  return file;
}

async function measure(name, entry, { names, peers = [] } = {}) {
  const outdir = mkdtempSync(join(tmpdir(), "airlock-size-"));
  try {
    const input = names ? namesEntry(outdir, names) : join(root, entry);
    const result = await build({
      entryPoints: { [name]: input },
      bundle: true,
      minify: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      outdir: join(outdir, "out"),
      metafile: true,
      write: true,
      logLevel: "silent",
      // Rank tables are a dynamic import each, loaded only for the encoding in use.
      external: ["gpt-tokenizer/*", ...peers.flatMap((p) => [p, `${p}/*`])],
    });
    const outputs = result.metafile.outputs;
    // Dynamic imports are entry points of their own in the metafile: take the one asked for.
    const entryOut = Object.keys(outputs).find((o) =>
      names ? outputs[o].entryPoint?.endsWith("names.ts") : outputs[o].entryPoint === entry,
    );
    // The static graph: the entry chunk and the chunks it imports statically, transitively.
    const staticChunks = new Set();
    const visit = (o) => {
      if (staticChunks.has(o)) return;
      staticChunks.add(o);
      for (const imp of outputs[o].imports)
        if (imp.kind === "import-statement" && outputs[imp.path]) visit(imp.path);
    };
    visit(entryOut);
    let upFront = 0;
    let upFrontGz = 0;
    let lazy = 0;
    let lazyGz = 0;
    const inStatic = new Set();
    for (const [o, meta] of Object.entries(outputs)) {
      if (!o.endsWith(".js")) continue;
      // Output paths in the metafile are relative to the working directory.
      const buf = readFileSync(join(process.cwd(), o));
      if (staticChunks.has(o)) {
        upFront += buf.byteLength;
        upFrontGz += gz(buf);
        for (const input of Object.keys(meta.inputs)) {
          for (const pkg of [...HEAVY, ...FRAMEWORKS])
            if (input.includes(`node_modules/${pkg}/`)) inStatic.add(pkg);
        }
      } else {
        lazy += buf.byteLength;
        lazyGz += gz(buf);
      }
    }
    // Every input of every chunk, lazy ones included: a framework must be in none of the core's.
    const everywhere = new Set();
    for (const meta of Object.values(outputs)) {
      for (const input of Object.keys(meta.inputs ?? {})) {
        for (const pkg of FRAMEWORKS)
          if (input.includes(`node_modules/${pkg}/`)) everywhere.add(pkg);
      }
    }
    return {
      name,
      upFront,
      upFrontGz,
      lazy,
      lazyGz,
      inStatic: [...inStatic],
      frameworks: [...everywhere],
      peers,
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

function dirSize(dir) {
  let raw = 0;
  let zipped = 0;
  for (const f of readdirSync(dir, { recursive: true })) {
    const p = join(dir, String(f));
    if (!statSync(p).isFile() || !/\.(js|css|html)$/.test(p)) continue;
    const buf = readFileSync(p);
    raw += buf.byteLength;
    zipped += gz(buf);
  }
  return { raw, zipped };
}

/**
 * The same `{ shape }` entry through Rolldown (Vite 8's bundler, which code-splits per name
 * rather than per file): the up-front chunks and whether the rule set is among them.
 */
async function measureRolldown(names) {
  const { rolldown } = await import("rolldown");
  const dir = mkdtempSync(join(tmpdir(), "airlock-size-"));
  try {
    const bundle = await rolldown({
      input: namesEntry(dir, names),
      external: [/^gpt-tokenizer\//],
      platform: "browser",
      logLevel: "silent",
    });
    const { output } = await bundle.generate({ format: "esm", minify: true });
    const chunks = new Map(output.filter((o) => o.type === "chunk").map((o) => [o.fileName, o]));
    const seen = new Set();
    const visit = (n) => {
      if (seen.has(n)) return;
      seen.add(n);
      for (const i of chunks.get(n).imports) visit(i);
    };
    visit([...chunks.values()].find((c) => c.isEntry).fileName);
    let upFront = 0;
    let upFrontGz = 0;
    let rules = false;
    for (const n of seen) {
      const c = chunks.get(n);
      upFront += Buffer.byteLength(c.code);
      upFrontGz += gz(Buffer.from(c.code));
      if (Object.keys(c.modules).some((m) => m.includes("src/redact/rules/"))) rules = true;
    }
    return { upFront, upFrontGz, rules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows = [
  await measure("{ shape } (esbuild)", undefined, { names: ["shape"] }),
  await measure("agent-airlock", "src/index.ts"),
  await measure("agent-airlock/preview", "src/preview/index.ts"),
  await measure("agent-airlock/mcp", "src/mcp/index.ts"),
  await measure("agent-airlock/ai-sdk", "src/frameworks/ai-sdk.ts", { peers: ["ai"] }),
  await measure("agent-airlock/langchain", "src/frameworks/langchain.ts", {
    peers: ["@langchain/core"],
  }),
  await measure("agent-airlock/openai-agents", "src/frameworks/openai-agents.ts", {
    peers: ["@openai/agents-core"],
  }),
];
console.log(
  "entry                       up front (min)  up front (min+gzip)  on demand (min+gzip)  heavy packages in the static graph",
);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(27)} ${kb(r.upFront).padStart(14)}  ${kb(r.upFrontGz).padStart(19)}  ${kb(r.lazyGz).padStart(20)}  ${r.inStatic.join(", ") || "none"}${r.peers.length ? ` (peer, external: ${r.peers.join(", ")})` : ""}`,
  );
}
const rolled = await measureRolldown(["shape"]);
console.log(
  `${"{ shape } (rolldown)".padEnd(22)} ${kb(rolled.upFront).padStart(14)}  ${kb(rolled.upFrontGz).padStart(19)}  ${"".padStart(20)}  rule set up front: ${rolled.rules ? "yes" : "no"}`,
);
const core = rows[0];
console.log(
  `\ncore aim (import { shape }): ${AIM_CORE_KB} KB min+gzip up front: ${core.upFrontGz / 1024 <= AIM_CORE_KB ? "met" : "NOT met"} (${kb(core.upFrontGz)}); forbidden in its static graph (DOMPurify, marked, htmlparser2, tokenizer ranks): ${
    core.inStatic
      .filter((p) => ["dompurify", "marked", "htmlparser2", "gpt-tokenizer"].includes(p))
      .join(", ") || "none"
  }`,
);
console.log(
  `frameworks in the core's graph (static or lazy): ${core.frameworks.join(", ") || "none"}; in the preview's: ${rows[1].frameworks.join(", ") || "none"}`,
);
const demo = join(root, "demo/dist");
if (existsSync(demo)) {
  const d = dirSize(demo);
  console.log(
    `playground (demo/dist): ${kb(d.raw)} (${kb(d.zipped)} gzip), tokenizer ranks included as lazy chunks`,
  );
} else {
  console.log("playground: demo/dist not built (npm run demo:build)");
}
