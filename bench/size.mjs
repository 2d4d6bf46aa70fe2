// Bundle sizes, as a host's bundler would see them: each public entry bundled, minified and
// code-split with esbuild (tokenizer ranks left external: they load lazily by design), then
// gzip-compressed. For each entry: the chunk loaded up front (its static graph), the chunks
// loaded on demand, and which heavy packages sit in the static graph. For `{ shape }`: what is
// up front by folder, and what each first use loads on top (the first result, redaction's rule
// set, records, a store, HTML). The built package (dist/, when built) is measured the same way,
// since that is what a host's bundler reads. The playground's production build (demo/dist, when
// built) is measured as it is.
//
//   npm run bench:size
//   npm run bench:size -- --baseline DIR   # also `{ shape }` of an earlier tree, in the same run
//                                          # (DIR/src/index.ts; its packages must resolve)
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
import { join, relative, resolve } from "node:path";
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
function namesEntry(dir, names, from = join(root, "src/index.ts")) {
  const file = join(dir, "names.ts");
  writeFileSync(file, `export { ${names.join(", ")} } from ${JSON.stringify(from)};\n`);
  return file;
}

/**
 * What each first use loads on top of what is up front, in this order, by the modules its
 * dynamic imports load (paths relative to the tree measured). A chunk counts once, for the first
 * use that loads it.
 */
const FIRST_USES = [
  ["first result (the pipeline)", ["src/shape-pipeline.ts"]],
  // (compile.ts: where trees before redact/on-demand.ts loaded the rule set.)
  ["redaction on (the rule set)", ["src/redact/on-demand.ts", "src/redact/compile.ts"]],
  [
    "records (JSON, NDJSON)",
    [
      "src/decode/records.ts",
      "src/decode/value.ts",
      "src/keep/records.ts",
      "src/render/records.ts",
      "src/fit/envelope.ts",
    ],
  ],
  ["CSV (papaparse)", ["src/decode/csv.ts"]],
  ["a contract (JSON Schema)", ["src/contract/contract.ts"]],
  ["a store (its writers)", ["src/store/writers.ts"]],
  ["an HTML page", ["src/html/page.ts"]],
];

async function measure(name, entry, { names, peers = [], from, base = root } = {}) {
  const outdir = mkdtempSync(join(tmpdir(), "airlock-size-"));
  try {
    const input = names ? namesEntry(outdir, names, from) : join(root, entry);
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
    // Up front by folder (minified bytes of each input in the static chunks).
    const folders = new Map();
    for (const o of staticChunks)
      for (const [input, { bytesInOutput }] of Object.entries(outputs[o].inputs)) {
        const rel = relative(base, resolve(process.cwd(), input)).split(/[\\/]/);
        const folder = rel[0] === "node_modules" ? rel[1] : rel.slice(0, 2).join("/");
        if (bytesInOutput > 0) folders.set(folder, (folders.get(folder) ?? 0) + bytesInOutput);
      }
    // Each first use: the chunks its dynamic imports load, transitively, not counted yet.
    const counted = new Set(staticChunks);
    const closure = (o, into) => {
      if (into.has(o) || counted.has(o)) return;
      into.add(o);
      for (const imp of outputs[o].imports)
        if (imp.kind === "import-statement" && outputs[imp.path]) closure(imp.path, into);
    };
    const uses = [];
    for (const [use, modules] of FIRST_USES) {
      const chunks = new Set();
      for (const [o, meta] of Object.entries(outputs)) {
        const ep = meta.entryPoint && relative(base, resolve(process.cwd(), meta.entryPoint));
        // A built tree (dist/) has the modules of src/ as .js files at its root.
        const known = (m) => ep === m || ep === m.replace(/^src\//, "").replace(/\.ts$/, ".js");
        if (ep && modules.some(known)) closure(o, chunks);
      }
      let bytes = 0;
      for (const o of chunks) {
        counted.add(o);
        bytes += gz(readFileSync(join(process.cwd(), o)));
      }
      uses.push([use, bytes]);
    }
    let rest = 0;
    for (const o of Object.keys(outputs))
      if (o.endsWith(".js") && !counted.has(o)) rest += gz(readFileSync(join(process.cwd(), o)));
    uses.push(["everything else on demand", rest]);
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
      folders: [...folders].sort((a, b) => b[1] - a[1]),
      uses,
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
async function measureRolldown(names, from) {
  const { rolldown } = await import("rolldown");
  const dir = mkdtempSync(join(tmpdir(), "airlock-size-"));
  try {
    const bundle = await rolldown({
      input: namesEntry(dir, names, from),
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
    let lazyGz = 0;
    let rules = false;
    for (const [n, c] of chunks) {
      if (!seen.has(n)) {
        lazyGz += gz(Buffer.from(c.code));
        continue;
      }
      upFront += Buffer.byteLength(c.code);
      upFrontGz += gz(Buffer.from(c.code));
      if (Object.keys(c.modules).some((m) => /[\\/]redact[\\/]rules[\\/]/.test(m))) rules = true;
    }
    return { upFront, upFrontGz, lazyGz, rules };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const baselineAt = args.indexOf("--baseline");
const baseline = baselineAt >= 0 ? resolve(args[baselineAt + 1] ?? ".") : undefined;
const distIndex = join(root, "dist/index.js");

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
const extra = [];
if (existsSync(distIndex))
  extra.push(
    await measure("{ shape } from dist/", undefined, {
      names: ["shape"],
      from: distIndex,
      base: join(root, "dist"),
    }),
  );
if (baseline)
  extra.push(
    await measure("{ shape } baseline", undefined, {
      names: ["shape"],
      from: join(baseline, "src/index.ts"),
      base: baseline,
    }),
  );
if (baseline && existsSync(join(baseline, "dist/index.js")))
  extra.push(
    await measure("{ shape } baseline dist/", undefined, {
      names: ["shape"],
      from: join(baseline, "dist/index.js"),
      base: join(baseline, "dist"),
    }),
  );
const row = (r) =>
  `${r.name.padEnd(31)} ${kb(r.upFront).padStart(14)}  ${kb(r.upFrontGz).padStart(19)}  ${kb(r.lazyGz).padStart(20)}  ${r.inStatic.join(", ") || "none"}${r.peers.length ? ` (peer, external: ${r.peers.join(", ")})` : ""}`;
console.log(
  "entry                           up front (min)  up front (min+gzip)  on demand (min+gzip)  heavy packages in the static graph",
);
for (const r of [...rows, ...extra]) console.log(row(r));
const rolledRows = [["{ shape } (rolldown)", await measureRolldown(["shape"])]];
if (existsSync(distIndex))
  rolledRows.push(["{ shape } from dist/ (rolldown)", await measureRolldown(["shape"], distIndex)]);
if (baseline)
  rolledRows.push([
    "{ shape } baseline (rolldown)",
    await measureRolldown(["shape"], join(baseline, "src/index.ts")),
  ]);
for (const [name, r] of rolledRows)
  console.log(
    `${name.padEnd(31)} ${kb(r.upFront).padStart(14)}  ${kb(r.upFrontGz).padStart(19)}  ${kb(r.lazyGz).padStart(20)}  rule set up front: ${r.rules ? "yes" : "no"}`,
  );
if (!existsSync(distIndex)) console.log("dist/: not built (npm run build), not measured");

const core = rows[0];
console.log(
  `\n{ shape } up front by folder (min): ${core.folders.map(([f, b]) => `${f} ${kb(b)}`).join(", ")}`,
);
for (const r of [core, ...extra]) {
  console.log(
    `\n${r.name}: loaded on first use, on top of the ${kb(r.upFrontGz)} up front (min+gzip)`,
  );
  let total = 0;
  for (const [use, bytes] of r.uses) {
    total += bytes;
    console.log(`  ${use.padEnd(30)} ${kb(bytes).padStart(9)}`);
  }
  console.log(`  ${"on demand in all".padEnd(30)} ${kb(total).padStart(9)}`);
}
console.log(
  `\ncore aim (import { shape }): ${AIM_CORE_KB} KB min+gzip up front: ${core.upFrontGz / 1024 <= AIM_CORE_KB ? "met" : "NOT met"} (${kb(core.upFrontGz)}); forbidden in its static graph (DOMPurify, marked, htmlparser2, tokenizer ranks): ${
    core.inStatic
      .filter((p) => ["dompurify", "marked", "htmlparser2", "gpt-tokenizer"].includes(p))
      .join(", ") || "none"
  }`,
);
console.log(
  `frameworks in the core's graph (static or lazy): ${core.frameworks.join(", ") || "none"}; in the preview's: ${rows[2].frameworks.join(", ") || "none"}`,
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

// The first result's token count loads its encoding's rank table (src/fit/encodings/all.ts):
// the first result of a page downloads it whatever the result's size, so it is measured too.
console.log("\ntokenizer ranks, loaded by the first result that counts tokens (min / min+gzip)");
for (const encoding of ["o200k_base", "cl100k_base"]) {
  const out = await build({
    stdin: { contents: `export * from "gpt-tokenizer/encoding/${encoding}";`, resolveDir: root },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
  });
  const bytes = out.outputFiles[0].contents;
  console.log(
    `  ${encoding.padEnd(30)} ${kb(bytes.byteLength).padStart(10)}  ${kb(gz(bytes)).padStart(10)}`,
  );
}
