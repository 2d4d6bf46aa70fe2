/**
 * What `import { shape } from "agent-airlock"` carries up front, as a host's bundler sees it:
 * the sources bundled by esbuild (minified, code-split, ESM, browser), and the static graph of
 * the entry chunk read from the metafile. The parts that load on first use (the pipeline, the
 * rule set, the records path, the store writers, HTML) must not be in it. A structural check, not
 * a size figure (bench/size.mjs prints those).
 *
 * Also checked over every public entry: no module loaded by a dynamic import is in an entry's
 * static graph as well (Rolldown's INEFFECTIVE_DYNAMIC_IMPORT: such a module cannot be split
 * out, so its dynamic import saves nothing).
 *
 * Negative controls: a planted static re-export of a lazy module, in a module of the core,
 * puts it in the static graph and is reported; a planted static import of the rule set's lazy
 * door makes that split ineffective and is reported.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "airlock-graph-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Modules (and packages) that load on first use, never with the package. */
const LAZY: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: "the pipeline", pattern: /^src\/shape-pipeline\.ts$/ },
  { what: "the stages", pattern: /^src\/(?:intake\/route|decode\/stage|keep\/keeper)\.ts$/ },
  { what: "the rule set", pattern: /^src\/redact\/(?:compile|engine|rule-set|rules\/.*)\.ts$/ },
  {
    what: "the records path",
    pattern:
      /^src\/(?:decode\/(?:records|json-records|ndjson|csv|value)|keep\/(?:records|view|aggregate|record-events)|render\/(?:records|describe|document)|fit\/envelope|contract\/contract)\.ts$/,
  },
  {
    what: "the store writers",
    pattern: /^src\/store\/(?:writers|records-writer|text-writer)\.ts$/,
  },
  { what: "HTML", pattern: /^(?:src\/html\/page\.ts|node_modules\/htmlparser2\/)/ },
];

/** The entries of the exports map, as sources. */
const ENTRIES = [
  "src/index.ts",
  "src/preview/index.ts",
  "src/mcp/index.ts",
  "src/frameworks/ai-sdk.ts",
  "src/frameworks/langchain.ts",
  "src/frameworks/openai-agents.ts",
];

interface Plant {
  /** A source file, relative to the repository. */
  readonly file: string;
  /** A line appended to it. */
  readonly line: string;
}

/** A plugin that appends a line to one source file as esbuild loads it. */
function planting(plant: Plant | undefined): Plugin[] {
  if (!plant) return [];
  const target = join(root, plant.file);
  return [
    {
      name: "plant",
      setup(b) {
        b.onLoad({ filter: /\.ts$/ }, async (args) => {
          if (args.path !== target) return undefined;
          const { readFile } = await import("node:fs/promises");
          return { contents: `${await readFile(target, "utf8")}\n${plant.line}\n`, loader: "ts" };
        });
      },
    },
  ];
}

/** The inputs of the chunks `{ shape }` loads up front, relative to the repository. */
async function upFront(plant?: Plant): Promise<Set<string>> {
  const dir = mkdtempSync(join(scratch, "shape-"));
  const entry = join(dir, "names.ts");
  writeFileSync(entry, `export { shape } from ${JSON.stringify(join(root, "src/index.ts"))};\n`);
  const result = await build({
    entryPoints: { names: entry },
    bundle: true,
    minify: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir: join(dir, "out"),
    metafile: true,
    write: false,
    logLevel: "silent",
    external: ["gpt-tokenizer/*"],
    plugins: planting(plant),
  });
  const outputs = result.metafile.outputs;
  const first = Object.keys(outputs).find((o) => outputs[o]?.entryPoint?.endsWith("names.ts"));
  expect(first).toBeDefined();
  const chunks = new Set<string>();
  const visit = (o: string) => {
    if (chunks.has(o)) return;
    chunks.add(o);
    for (const i of outputs[o]?.imports ?? [])
      if (i.kind === "import-statement" && outputs[i.path]) visit(i.path);
  };
  visit(first as string);
  const inputs = new Set<string>();
  for (const o of chunks)
    for (const input of Object.keys(outputs[o]?.inputs ?? {}))
      inputs.add(relative(root, join(process.cwd(), input)));
  return inputs;
}

/** Which lazy parts are in the static graph: "what: module" lines. */
function lazyUpFront(inputs: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const input of inputs)
    for (const { what, pattern } of LAZY) if (pattern.test(input)) found.push(`${what}: ${input}`);
  return found.sort();
}

/**
 * Every public entry's static graph, unbundled (all of it, used or not): the modules that are
 * imported dynamically somewhere and also sit in an entry's static graph. Such a dynamic import
 * is ineffective: the module is in the entry's chunk anyway (Rolldown's
 * INEFFECTIVE_DYNAMIC_IMPORT). A module imported statically only by modules that are themselves
 * loaded on demand is fine: it loads with them.
 */
async function ineffectiveSplits(plant?: Plant): Promise<string[]> {
  const result = await build({
    entryPoints: ENTRIES.map((e) => join(root, e)),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    outdir: join(scratch, "all"),
    metafile: true,
    write: false,
    logLevel: "silent",
    packages: "external",
    plugins: planting(plant),
  });
  const inputs: Metafile["inputs"] = result.metafile.inputs;
  const dynamic = new Set<string>();
  for (const meta of Object.values(inputs))
    for (const i of meta.imports)
      if (!i.external && i.kind === "dynamic-import") dynamic.add(i.path);
  const reached = new Set<string>();
  const visit = (m: string) => {
    if (reached.has(m)) return;
    reached.add(m);
    for (const i of inputs[m]?.imports ?? [])
      if (!i.external && i.kind === "import-statement") visit(i.path);
  };
  for (const e of ENTRIES) visit(e);
  return [...dynamic].filter((m) => reached.has(m)).sort();
}

describe("import { shape }: what loads up front", () => {
  it("carries none of the parts that load on first use, and options are checked up front", async () => {
    const inputs = await upFront();
    expect(inputs.has("src/shape.ts")).toBe(true);
    expect(inputs.has("src/options/compile.ts")).toBe(true);
    expect(lazyUpFront(inputs)).toEqual([]);
  });

  it("negative control: a planted static re-export of the records renderer is reported", async () => {
    const plant = {
      file: "src/shape.ts",
      line: 'export { renderRecords } from "./render/records.js";',
    };
    expect(lazyUpFront(await upFront(plant))).toContain("the records path: src/render/records.ts");
    const writers = {
      file: "src/options/compile.ts",
      line: 'export * from "../store/writers.js";',
    };
    expect(lazyUpFront(await upFront(writers))).toContain(
      "the store writers: src/store/writers.ts",
    );
  });

  it("no module loaded on demand is also in an entry's static graph (each split is effective)", async () => {
    expect(await ineffectiveSplits()).toEqual([]);
  });

  it("negative control: a planted static import of the rule set's lazy door is reported", async () => {
    const plant = { file: "src/redact/redact.ts", line: 'export * from "./on-demand.js";' };
    expect(await ineffectiveSplits(plant)).toEqual(["src/redact/on-demand.ts"]);
  });
});
