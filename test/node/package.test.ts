/**
 * The package as users get it: built, packed with `npm pack`, installed from the tarball into a
 * scratch consumer in a temporary directory (its dependencies from the npm registry, preferring
 * the local cache), then
 *
 * - every entry of the exports map imported (or, for the stylesheet, resolved and read) in Node;
 * - a consumer type-checked with the repository's TypeScript under `moduleResolution` `bundler`
 *   and `node16`, each with the DOM lib (no `@types/node`) and with `@types/node` (no DOM lib),
 *   `skipLibCheck: false`, so every published `.d.ts` is checked;
 * - the tarball's file list: no source maps, no sources, the LICENSE and the docs the README
 *   links to, and every relative link of the README and the docs pointing at a file it contains.
 *
 * Negative controls: a deliberate type error fails under every configuration, `CryptoKey` (a
 * DOM name) fails without the DOM lib and `Buffer` (a Node name) fails without `@types/node`, so
 * the configurations are what they claim and the check can fail.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { setupOrFail } from "../helpers/setup.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const tsc = join(root, "node_modules/.bin/tsc");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  version: string;
  license: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
};

/** The optional peers, one per framework entry, installed in the consumer at the pinned versions. */
const FRAMEWORKS = ["ai", "@langchain/core", "@openai/agents-core"] as const;

let scratch: string;
let consumer: string;
let packed: string[];
let tarball: string;

/** Runs a command; on failure the error carries its output, so the test says what went wrong. */
async function sh(cmd: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(cmd, args, { cwd, maxBuffer: 64 << 20, env: cleanEnv() });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(" ")} failed:\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** The environment without what an outer `npm test` sets for its own package. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith("npm_")) env[k] = v;
  }
  return env;
}

describe("the packed package in a scratch consumer", () => {
  setupOrFail(async () => {
    scratch = mkdtempSync(join(tmpdir(), "airlock-pack-"));
    consumer = join(scratch, "consumer");
    await sh("npm", ["run", "build"], root);
    const out = await sh(
      "npm",
      ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch],
      root,
    );
    const [info] = JSON.parse(out) as [{ filename: string; files: { path: string }[] }];
    packed = info.files.map((f) => f.path);
    tarball = join(scratch, info.filename);
    mkdirSync(consumer);
    writeFileSync(
      join(consumer, "package.json"),
      JSON.stringify({ name: "consumer", private: true, type: "module" }),
    );
    await sh(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        join(scratch, info.filename),
        `@types/node@${manifest.devDependencies["@types/node"]}`,
        // The frameworks are optional peers of their entries: a host that imports one has it.
        ...FRAMEWORKS.map((name) => `${name}@${manifest.devDependencies[name]}`),
      ],
      consumer,
    );
  }, 300_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("ships dist, docs, README and LICENSE: no sources, no tests, no source maps", () => {
    expect(manifest.name).toBe("agent-airlock");
    expect(packed).toContain("LICENSE");
    expect(packed).toContain("README.md");
    expect(packed).toContain("package.json");
    expect(packed).toContain("dist/index.js");
    expect(packed).toContain("dist/index.d.ts");
    expect(packed).toContain("dist/preview.js");
    expect(packed).toContain("dist/preview.css");
    expect(packed).toContain("dist/mcp.js");
    expect(packed).toContain("dist/mcp/index.d.ts");
    expect(packed.some((p) => p.startsWith("docs/") && p.endsWith(".md"))).toBe(true);
    const unexpected = packed.filter(
      (p) =>
        !/^(?:LICENSE|README\.md|package\.json)$/.test(p) &&
        !p.startsWith("dist/") &&
        !p.startsWith("docs/"),
    );
    expect(unexpected).toEqual([]);
    expect(packed.filter((p) => p.endsWith(".map"))).toEqual([]);
    const installed = (p: string) => readFileSync(join(consumer, "node_modules", manifest.name, p));
    expect(installed("LICENSE").toString()).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} the airlock authors/,
    );
    expect(manifest.license).toBe("MIT");
    // No build output points at a map that is not there.
    for (const p of packed.filter((f) => f.endsWith(".js"))) {
      expect(installed(p).toString(), p).not.toContain("sourceMappingURL");
    }
  });

  it("has a relative link in the README and docs only to files in the package", () => {
    const broken: string[] = [];
    const docs = packed.filter((p) => p === "README.md" || /^docs\/.*\.md$/.test(p));
    expect(docs.length).toBeGreaterThan(1);
    for (const doc of docs) {
      const text = readFileSync(join(consumer, "node_modules", manifest.name, doc), "utf8")
        // Code is not a link: fenced blocks and code spans out.
        .replace(/^```[\s\S]*?^```/gm, "")
        .replace(/`[^`\n]*`/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (target === undefined || /^(?:https?:|mailto:)/.test(target)) continue;
        const [path = "", anchor] = target.split("#");
        const file = path === "" ? doc : normalize(join(dirname(doc), path));
        if (!packed.includes(file)) {
          broken.push(`${doc}: ${target} (no ${file} in the package)`);
          continue;
        }
        if (anchor !== undefined && file.endsWith(".md")) {
          const body = readFileSync(join(consumer, "node_modules", manifest.name, file), "utf8");
          if (!headingSlugs(body).has(anchor))
            broken.push(`${doc}: ${target} (no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("imports every entry of the exports map in Node", async () => {
    const entries = Object.keys(manifest.exports).map((k) => k.replace(/^\./, manifest.name));
    expect(entries).toEqual(
      expect.arrayContaining([
        manifest.name,
        `${manifest.name}/preview`,
        `${manifest.name}/preview.css`,
        `${manifest.name}/mcp`,
        `${manifest.name}/package.json`,
      ]),
    );
    writeFileSync(
      join(consumer, "entries.mjs"),
      `import { readFileSync } from "node:fs";
const out = {};
for (const entry of ${JSON.stringify(entries)}) {
  const url = import.meta.resolve(entry);
  if (entry.endsWith(".css") || entry.endsWith(".json")) {
    out[entry] = { url, bytes: readFileSync(new URL(url)).byteLength };
  } else {
    out[entry] = { url, exports: Object.keys(await import(entry)).sort() };
  }
}
const { shape } = await import(${JSON.stringify(manifest.name)});
const { renderPreview } = await import(${JSON.stringify(`${manifest.name}/preview`)});
const shaped = await shape("started\\nERROR disk full\\ndone", { tool: "bash", maxTokens: 200 });
out.shaped = { status: shaped.status, format: shaped.meta.format, preview: renderPreview(shaped) };
console.log(JSON.stringify(out));
`,
    );
    const out = JSON.parse(await sh("node", ["entries.mjs"], consumer)) as Record<
      string,
      { url: string; exports?: string[]; bytes?: number; status?: string; preview?: string }
    >;
    const inPackage = `/node_modules/${manifest.name}/`;
    for (const entry of entries) expect(out[entry]?.url, entry).toContain(inPackage);
    expect(out[manifest.name]?.exports).toEqual(
      expect.arrayContaining(["shape", "createShaper", "redact", "htmlToText", "toMcp"]),
    );
    expect(out[`${manifest.name}/preview`]?.exports).toEqual(
      expect.arrayContaining(["renderPreview", "toTrustedPreview"]),
    );
    expect(out[`${manifest.name}/preview.css`]?.bytes).toBeGreaterThan(500);
    // The MCP entry loads without the MCP SDK installed: it is an optional peer, never imported.
    expect(out[`${manifest.name}/mcp`]?.exports).toEqual(
      expect.arrayContaining([
        "shapeCallToolResult",
        "wrapClient",
        "wrapServer",
        "registerReadResult",
      ]),
    );
    for (const framework of ["ai-sdk", "langchain", "openai-agents"]) {
      expect(out[`${manifest.name}/${framework}`]?.exports, framework).toEqual(
        expect.arrayContaining(["readResultTool", "withAirlock"]),
      );
    }
    expect(out.shaped?.status).toBe("ok");
    expect(out.shaped?.preview).toContain('<pre class="airlock-pre">');
  }, 60_000);

  it("require()s every entry from a CommonJS consumer, where Node can require an ES module", async () => {
    const entries = Object.entries(manifest.exports)
      .filter(([, c]) => typeof c === "object" && c !== null && "require" in c)
      .map(([k]) => k.replace(/^\./, manifest.name));
    expect(entries).toEqual(expect.arrayContaining([manifest.name, `${manifest.name}/mcp`]));
    // `npm init -y` writes "type": "commonjs": the consumer's own files are CommonJS.
    writeFileSync(
      join(consumer, "entries.cjs"),
      `const out = {};
for (const entry of ${JSON.stringify(entries)}) out[entry] = Object.keys(require(entry)).length;
const { shape, fromProcess } = require(${JSON.stringify(manifest.name)});
shape("started\\nERROR disk full\\ndone", { maxTokens: 200 }).then((shaped) => {
  out.shaped = { status: shaped.status, kept: shaped.text.includes("ERROR disk full") };
  out.fromProcess = typeof fromProcess;
  console.log(JSON.stringify(out));
});
`,
    );
    const out = JSON.parse(await sh("node", ["entries.cjs"], consumer)) as Record<string, unknown>;
    for (const entry of entries) expect(out[entry], entry).toBeGreaterThan(0);
    expect(out.shaped).toEqual({ status: "ok", kept: true });
    expect(out.fromProcess).toBe("function");
    // Where Node cannot require an ES module, one line says what to do instead.
    const refused = await run(
      "node",
      ["--no-experimental-require-module", "-e", `require(${JSON.stringify(manifest.name)})`],
      { cwd: consumer },
    ).then(
      () => "",
      (error: { stderr: string }) => error.stderr,
    );
    expect(refused).toMatch(
      /Error: agent-airlock is ESM only and require\(\) cannot load it here \(Node v[\d.]+\): use import\("agent-airlock"\)/,
    );
  }, 60_000);

  it("its optional peers are open above: a host's newer major never blocks the install", () => {
    const peers = (manifest as unknown as { peerDependencies: Record<string, string> })
      .peerDependencies;
    for (const [name, range] of Object.entries(peers)) {
      expect(range, name).toMatch(/^>=\d+\.\d+\.\d+$/);
    }
  });

  // The newest `ai` (7, which needs Node 22) and the oldest the range allows, each installed
  // next to the tarball in a project of its own, and the wrapper run there in the SDK's own loop.
  const AI = [
    { ai: "7", node: "22" },
    { ai: "6.0.0", node: "20" },
  ] as const;
  it.each(AI)(
    "installs next to ai@$ai and its wrapper runs the SDK's loop there (Node $node)",
    async ({ ai, node }) => {
      const project = join(scratch, `ai-${ai}`);
      mkdirSync(project);
      writeFileSync(
        join(project, "package.json"),
        JSON.stringify({ name: `ai-${ai}`, private: true, type: "module" }),
      );
      await sh(
        "npm",
        ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball, `ai@${ai}`],
        project,
      );
      const script = join(root, "test/helpers/peer-consumer.mjs");
      let runner = process.execPath;
      if (!process.version.startsWith(`v${node}.`)) {
        // A Node of that major from the npm registry (the `node` package ships the binary).
        const tools = join(scratch, `node-${node}`);
        mkdirSync(tools, { recursive: true });
        writeFileSync(
          join(tools, "package.json"),
          JSON.stringify({ name: "tools", private: true }),
        );
        await sh("npm", ["install", "--no-audit", "--no-fund", `node@${node}`], tools);
        runner = join(tools, "node_modules/.bin/node");
      }
      const out = JSON.parse(await sh(runner, [script], project)) as {
        node: string;
        seen: Array<{ type: string; value: string } | null>;
      };
      expect(out.node.startsWith(`v${node}.`)).toBe(true);
      const installed = JSON.parse(
        readFileSync(join(project, "node_modules/ai/package.json"), "utf8"),
      ) as { version: string };
      expect(installed.version.startsWith(ai)).toBe(true);
      const [first, page] = out.seen;
      expect(first?.type).toBe("text");
      expect(first?.value.startsWith("<untrusted-data")).toBe(true);
      expect(first?.value).toContain("FATAL worker 7 out of memory");
      expect(page?.value).toContain("FATAL worker 7 out of memory");
    },
    300_000,
  );

  const configs = [
    { resolution: "bundler", module: "ESNext", env: "dom" },
    { resolution: "bundler", module: "ESNext", env: "node" },
    { resolution: "node16", module: "Node16", env: "dom" },
    { resolution: "node16", module: "Node16", env: "node" },
  ] as const;

  it.each(configs)(
    "type-checks under moduleResolution $resolution with the $env types, skipLibCheck false",
    async ({ resolution, module, env }) => {
      writeFileSync(join(consumer, "consumer.ts"), CONSUMER);
      writeFileSync(join(consumer, "bad.ts"), BAD);
      writeFileSync(join(consumer, "dom-only.ts"), "export type K = CryptoKey;\n");
      writeFileSync(join(consumer, "node-only.ts"), "export type B = Buffer;\n");
      const project = (name: string, files: string[]) => {
        const file = join(consumer, `tsconfig.${name}.json`);
        writeFileSync(
          file,
          JSON.stringify({
            compilerOptions: {
              target: "ES2022",
              module,
              moduleResolution: resolution,
              lib: env === "dom" ? ["ES2022", "DOM", "DOM.Iterable"] : ["ES2022"],
              types: env === "dom" ? [] : ["node"],
              strict: true,
              skipLibCheck: false,
              noEmit: true,
            },
            files,
          }),
        );
        return file;
      };
      const check = async (name: string, files: string[]) => {
        try {
          await run(tsc, ["-p", project(name, files)], { cwd: consumer });
          return "";
        } catch (error) {
          return (error as { stdout: string }).stdout || String(error);
        }
      };
      expect(await check("consumer", ["consumer.ts"])).toBe("");
      writeFileSync(join(consumer, "frameworks.ts"), FRAMEWORKS_CONSUMER);
      // The frameworks' own declarations need more than some of these environments give (Node
      // types, ESNext.Disposable, @types/json-schema): theirs to keep, not ours. Every error in
      // the host's code and in this package's declarations counts.
      const ours = (await check("frameworks", ["frameworks.ts"]))
        .split("\n")
        .filter((l) => /error TS/.test(l))
        .filter(
          (l) => !l.startsWith("node_modules/") || l.startsWith(`node_modules/${manifest.name}/`),
        );
      expect(ours).toEqual([]);
      if (resolution === "bundler" && env === "node") {
        // Negative control, once: an error in the host's code gets through the filter.
        const wrong = `${FRAMEWORKS_CONSUMER}const wrong: number = aiSdk.withAirlock(search);\n`;
        writeFileSync(join(consumer, "frameworks-bad.ts"), wrong);
        expect(await check("frameworks-bad", ["frameworks-bad.ts"])).toMatch(
          /frameworks-bad\.ts\(\d+,\d+\): error TS2322/,
        );
      }
      if (env === "node") {
        // A Node host's own child process, as fromProcess and the raw loop take it.
        writeFileSync(join(consumer, "child.ts"), NODE_CONSUMER);
        const errors = (await check("child", ["child.ts"]))
          .split("\n")
          .filter((l) => /error TS/.test(l));
        expect(errors).toEqual([]);
      }
      // Negative controls: the checker runs, and the environment is what this case says.
      expect(await check("bad", ["bad.ts"])).toMatch(/bad\.ts\(\d+,\d+\): error TS2322/);
      const other = env === "dom" ? "node-only" : "dom-only";
      expect(await check(other, [`${other}.ts`])).toMatch(
        /error TS(?:2304|2580|2591): Cannot find name/,
      );
    },
    120_000,
  );
});

/** A Node host: its ChildProcess through fromProcess, and its pipes through the raw loop. */
const NODE_CONSUMER = `import { spawn } from "node:child_process";
import { type CapturedCommand, fromProcess, shape } from "agent-airlock";

const child = spawn("cargo", ["build"]);
const output: CapturedCommand = fromProcess(child);
await shape(output, { tool: "bash" });
const other = spawn("ls");
const exitCode = new Promise<number | null>((done) => other.on("close", done));
await shape({ stdout: other.stdout, stderr: other.stderr, exitCode });
`;

/** Uses every entry and the public types a consumer is likely to name. */
/** A host of each framework entry, typed against the framework's own types. */
const FRAMEWORKS_CONSUMER = `import { tool as aiTool, jsonSchema, type ToolSet } from "ai";
import { tool as lcTool } from "@langchain/core/tools";
import { Agent, tool as agentsTool } from "@openai/agents-core";
import { createMemoryStore } from "agent-airlock";
import * as aiSdk from "agent-airlock/ai-sdk";
import * as langchain from "agent-airlock/langchain";
import * as agents from "agent-airlock/openai-agents";

const store = createMemoryStore();
const search = aiTool({
  description: "search",
  inputSchema: jsonSchema<{ q: string }>({ type: "object", properties: { q: { type: "string" } } }),
  execute: async ({ q }) => \`found \${q}\`,
});
const tools: ToolSet = {
  ...aiSdk.withAirlock({ search }, { maxTokens: 600, maxRoundTokens: 1200, store }),
  read_result: aiSdk.readResultTool({ store }),
};
const one: aiSdk.AirlockTool<typeof search> = aiSdk.withAirlock(search);
const out: aiSdk.AirlockOutput | undefined = undefined;
void tools; void one; void out;

const lc = lcTool(async () => "ok", { name: "lookup", description: "lookup", schema: { type: "object", properties: {} } });
const lcTools = [...langchain.withAirlock([lc], { maxTokens: 600 }), langchain.readResultTool({ store })];
void lcTools;

const fn = agentsTool({ name: "f", description: "f", parameters: { type: "object", properties: {}, required: [], additionalProperties: false }, strict: true, execute: async () => "ok" });
new Agent({ name: "a", tools: [agents.withAirlock(fn), agents.readResultTool({ store })] });
`;

const CONSUMER = `import {
  createShaper,
  fromProcess,
  createMemoryStore,
  createResultReader,
  describeError,
  type FingerprintKey,
  htmlToText,
  READ_RESULT_TOOL,
  redact,
  redactWithFingerprints,
  type Shaped,
  type ShapeInput,
  type ShapeOptions,
  shape,
  shapeError,
  toAnthropic,
  toMcp,
  toOpenAIChat,
  toOpenAIResponses,
} from "agent-airlock";
import {
  forModel,
  MCP_META_KEY,
  type McpShapeOptions,
  shapeCallToolResult,
} from "agent-airlock/mcp";
import { type PreviewOptions, renderPreview, toTrustedPreview } from "agent-airlock/preview";
import "agent-airlock/preview.css";

const options: ShapeOptions = { tool: "bash", maxTokens: 600, redact: { pii: true } };
const shapeBash = createShaper(options);
const input: ShapeInput = { stdout: "ok", stderr: "", exitCode: Promise.resolve(0) };
const shaped: Shaped = await shapeBash(input);
const page = await shape(new Response("<p>hi</p>", { headers: { "content-type": "text/html" } }));
const bytes = await shape(new Uint8Array([1, 2, 3]));
const stream = await shape(new Blob(["x"]).stream());
await shape(new Request("https://example.test/", { method: "POST", body: "x" }));
await shapeBash("a log", { maxTokens: 2000, tool: "tail", timeoutMs: 5000 });
await shape(fromProcess({ stdout: "ok", exitCode: 0 }));
const format: string | undefined = shaped.meta.format;
const key: FingerprintKey = "0123456789abcdef0123";
await redactWithFingerprints("x", { key });
redact("x").findings.length;
(await htmlToText("<p>x</p>")).text.length;
describeError(new Error("x")).code;
await shapeError(new Error("x"), { tool: "sql" });
const store = createMemoryStore({ maxChars: 1 << 20 });
const reader = createResultReader({ store, maxTokens: 600 });
READ_RESULT_TOOL.name;
void reader;
toOpenAIChat(shaped, { toolCallId: "a" });
toOpenAIResponses(shaped, { callId: "b" });
toAnthropic(page, { toolUseId: "c" });
toMcp(bytes);
const mcpOptions: McpShapeOptions = { maxTokens: 500, maxImageBytes: 0, images: false };
const mcpResult = await shapeCallToolResult({ content: [{ type: "text", text: "x" }] }, mcpOptions);
forModel(mcpResult).content.length;
toAnthropic(mcpResult, { toolUseId: "d" });
MCP_META_KEY.length;
const previewOptions: PreviewOptions = { mode: "preformatted", images: false };
const html: string = renderPreview(stream, previewOptions);
toTrustedPreview(html);
export { format };
`;

const BAD = `import { shape } from "agent-airlock";
const n: number = (await shape("x")).text;
export { n };
`;

/** GitHub's heading anchors: lower case, punctuation out, spaces to hyphens, repeats numbered. */
function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (m === null) continue;
    const base = (m[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    let slug = base;
    for (let n = 1; slugs.has(slug); n++) slug = `${base}-${n}`;
    slugs.add(slug);
  }
  return slugs;
}
