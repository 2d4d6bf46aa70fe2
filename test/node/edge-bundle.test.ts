/**
 * The edge entries inline one encoding each (or none), so a Worker bundle holds one rank table.
 * Each entry is built as `npm run build` builds it (vite.edge.config.ts), bundled as a Worker's
 * bundler does (esbuild, every dynamic import inlined), and run in a bare workerd with no
 * compatibility flags. The core entry bundled the same way holds both tables: the negative
 * control that shows the check can fail.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build as esbuild, type Metafile } from "esbuild";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { Miniflare } from "miniflare";
import { build, type Rolldown } from "vite";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "airlock-edge-bundle-"));
const running: Miniflare[] = [];
afterAll(async () => {
  for (const mf of running) await mf.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** The edge entry as `vite build -c vite.edge.config.ts --mode <mode>` writes it. */
async function edgeModule(mode: "o200k_base" | "cl100k_base" | "none"): Promise<string> {
  const result = await build({
    configFile: join(root, "vite.edge.config.ts"),
    mode,
    root,
    logLevel: "silent",
    build: { write: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((o) => o.output).filter((c) => c.type === "chunk");
  // One module, no chunks: a Worker's bundler must not meet a split build's chunk cycles.
  expect(chunks).toHaveLength(1);
  return (chunks[0] as Rolldown.OutputChunk).code;
}

const WORKER = `
  import * as lib from "./entry.js";
  export default {
    async fetch(request) {
      const ask = new URL(request.url).searchParams;
      const tokenizer = ask.get("tokenizer") ?? undefined;
      const counter = ask.get("counter") === "quarters" ? { name: "quarters", count: (t) => Math.ceil(t.length / 4) } : undefined;
      try {
        const shaped = await lib.shape(await request.text(), { maxTokens: 200, tool: "edge", tokenizer: counter ?? tokenizer });
        return Response.json({ text: shaped.text, tokens: shaped.meta.tokens, process: typeof globalThis.process });
      } catch (error) {
        return Response.json({ code: error.code, message: error.message });
      }
    },
  };
`;

/** Bundles a worker over `entry` the way Wrangler does (esbuild, dynamic imports inlined). */
async function workerBundle(name: string, entryCode: string) {
  const dir = mkdtempSync(join(work, `${name}-`));
  writeFileSync(join(dir, "entry.js"), entryCode);
  writeFileSync(join(dir, "worker.js"), WORKER);
  const result = await esbuild({
    entryPoints: [join(dir, "worker.js")],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    target: "es2022",
    nodePaths: [join(root, "node_modules")],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = (result.outputFiles[0] as { text: string }).text;
  return { code, tables: rankTables(result.metafile) };
}

function rankTables(metafile: Metafile): string[] {
  return Object.keys(metafile.inputs)
    .map((input) => /gpt-tokenizer\/esm\/bpeRanks\/(\w+)\.js$/.exec(input)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
}

async function run(code: string, query: string, body: string) {
  const mf = new Miniflare({
    compatibilityDate: "2026-04-01",
    compatibilityFlags: [],
    modules: true,
    script: code,
  });
  running.push(mf);
  const res = await mf.dispatchFetch(`http://localhost/?${query}`, { method: "POST", body });
  return (await res.json()) as {
    text?: string;
    tokens?: number;
    process?: string;
    code?: string;
    message?: string;
  };
}

const LOG = Array.from({ length: 3000 }, (_, i) =>
  i === 1500 ? "ERROR payment 1500 failed" : `INFO request ${i} ok`,
).join("\n");

describe("edge entries: one rank table per Worker bundle", () => {
  it("edge/o200k_base inlines o200k_base only, counts with it in bare workerd, refuses cl100k_base", async () => {
    const entry = await edgeModule("o200k_base");
    expect(entry).toContain('import("gpt-tokenizer/encoding/o200k_base")');
    expect(entry).not.toContain("gpt-tokenizer/encoding/cl100k_base");
    const bundle = await workerBundle("o200k", entry);
    expect(bundle.tables).toEqual(["o200k_base"]);

    const shaped = await run(bundle.code, "", LOG);
    expect(shaped.process).toBe("undefined");
    expect(shaped.text).toContain("ERROR payment 1500 failed");
    // Counted by o200k_base itself: the same count gpt-tokenizer gives here in Node.
    expect(shaped.tokens).toBe(countTokens(shaped.text as string));
    expect(shaped.tokens).toBeLessThanOrEqual(200);

    const refused = await run(bundle.code, "tokenizer=cl100k_base", LOG);
    expect(refused.code).toBe("options/invalid");
    expect(refused.message).toContain("agent-airlock/edge/cl100k_base");
  }, 120_000);

  it("edge/cl100k_base inlines cl100k_base only and makes it the default", async () => {
    const entry = await edgeModule("cl100k_base");
    expect(entry).not.toContain("gpt-tokenizer/encoding/o200k_base");
    const bundle = await workerBundle("cl100k", entry);
    expect(bundle.tables).toEqual(["cl100k_base"]);
    const shaped = await run(bundle.code, "", LOG);
    expect(shaped.text).toContain("ERROR payment 1500 failed");
    expect(shaped.tokens).toBeLessThanOrEqual(200);
    const refused = await run(bundle.code, "tokenizer=o200k_base", LOG);
    expect(refused.code).toBe("options/invalid");
  }, 120_000);

  it("edge (no encoding) holds no rank table: a host counter works, a built-in name is refused", async () => {
    const entry = await edgeModule("none");
    expect(entry).not.toContain("gpt-tokenizer/encoding/");
    const bundle = await workerBundle("none", entry);
    expect(bundle.tables).toEqual([]);
    const counted = await run(bundle.code, "counter=quarters", LOG);
    expect(counted.message).toBeUndefined();
    expect(counted.text).toContain("ERROR payment 1500 failed");
    expect(counted.tokens).toBe(Math.ceil((counted.text as string).length / 4));
    const refused = await run(bundle.code, "", LOG);
    expect(refused.code).toBe("options/invalid");
    expect(refused.message).toMatch(/no built-in encoding.*tokenizer: \{ name, count\(text\) \}/);
  }, 120_000);

  it("negative control: the core entry bundled for a Worker holds both rank tables", async () => {
    const bundle = await workerBundle(
      "core",
      `export * from ${JSON.stringify(join(root, "src/index.ts"))};`,
    );
    expect(bundle.tables).toEqual(["cl100k_base", "o200k_base"]);
  }, 120_000);
});
