/**
 * The README and the docs/ pages say what the code does: their examples are checked against real
 * output, their defaults tables against the compiled defaults, their imports against the
 * package's exports, and the README links every docs page.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as openaiProvider from "@ai-sdk/openai";
import * as sdkClient from "@modelcontextprotocol/sdk/client/index.js";
import * as sdkStdio from "@modelcontextprotocol/sdk/client/stdio.js";
import * as sdkServer from "@modelcontextprotocol/sdk/server/mcp.js";
import * as sdkCfWorker from "@modelcontextprotocol/sdk/validation/cfworker";
import * as agentsCore from "@openai/agents-core";
import * as core from "agent-airlock";
import { describeError, encodeBase64, redact, shape, toMcpError } from "agent-airlock";
import * as aiSdk from "agent-airlock/ai-sdk";
import * as edge from "agent-airlock/edge/o200k_base";
import * as langchain from "agent-airlock/langchain";
import * as mcp from "agent-airlock/mcp";
import * as openaiAgents from "agent-airlock/openai-agents";
import * as preview from "agent-airlock/preview";
import { renderPreview } from "agent-airlock/preview";
import * as ai from "ai";
import * as langchainPackage from "langchain";
import { describe, expect, it } from "vitest";
import * as zod from "zod";
import { samples } from "../../demo/samples.ts";
import { DEFAULT_STRUCTURED_LIMITS } from "../../src/decode/limits.js";
import { compileOptions } from "../../src/options/compile.js";
import { CALL_OPTIONS, SHAPE_OPTIONS } from "../../src/options/known.js";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(fileURLToPath(new URL(path, root)), "utf8");
const readme = read("README.md");
const docNames = readdirSync(fileURLToPath(new URL("docs/", root))).filter((f) =>
  f.endsWith(".md"),
);
const docs = Object.fromEntries(docNames.map((f) => [f, read(`docs/${f}`)])) as Record<
  string,
  string
>;
const doc = (name: string): string => {
  const text = docs[name];
  if (text === undefined) throw new Error(`docs/${name} is missing`);
  return text;
};
const pages: [string, string][] = [
  ["README.md", readme],
  ...docNames.map((f) => [`docs/${f}`, doc(f)] as [string, string]),
];

/** A JSON string literal from a page, as the code would see it. */
const str = (literal: string | undefined): string => JSON.parse(literal ?? "null") as string;
const STRING = String.raw`("(?:[^"\\\n]|\\.)*")`;

/** A table row's cells (`| a | b |`), escaped pipes kept inside their cell. */
function row(page: string, option: string): string[] | undefined {
  return page
    .split("\n")
    .find((l) => l.startsWith(`| \`${option}\``))
    ?.split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim());
}

describe("README", () => {
  it("shows exactly what shape() returns for its example", async () => {
    const block =
      /<!-- example-output -->\n```text\n([\s\S]*?)\n```\n<!-- \/example-output -->/.exec(readme);
    expect(block).not.toBeNull();
    const build = samples.find((s) => s.id === "build");
    const shaped = await shape(build?.make() as never, { tool: "bash", maxTokens: 600 });
    expect(block?.[1]).toBe(shaped.text);
    expect(readme).toContain(`shaped.meta.tokens; // ${shaped.meta.tokens}: at most 600`);
    const cut = shaped.meta.cuts[0];
    expect(
      cut?.kind === "lines" &&
        readme.includes(`from: ${cut.from}, to: ${cut.to}, count: ${cut.count}`),
    ).toBe(true);
  });

  it("shows the two set-up commands, and the test command is the one npm runs", () => {
    const commands = readme.match(
      /^npm install && npm run demo\b.*$|^npm install && npm test\b.*$/gm,
    );
    expect(commands).toHaveLength(2);
    const manifest = JSON.parse(read("package.json")) as { scripts: Record<string, string> };
    expect(manifest.scripts.demo).toBeDefined();
    expect(manifest.scripts.pretest).toMatch(/provision-chromium/);
  });

  it("links every docs page, one line each, and the pages link back only inside the package", () => {
    for (const name of docNames) {
      const lines = readme.split("\n").filter((l) => l.includes(`(docs/${name})`));
      expect(lines.length, name).toBeGreaterThanOrEqual(1);
      expect(
        readme.split("\n").some((l) => l.startsWith(`- [`) && l.includes(`](docs/${name})`)),
        name,
      ).toBe(true);
    }
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("docs/options.md has a row for every option shape() and a call take", () => {
    const options = doc("options.md");
    const missing = [...Object.keys(SHAPE_OPTIONS), ...Object.keys(CALL_OPTIONS)].filter(
      (name) => row(options, name) === undefined,
    );
    expect(missing).toEqual([]);
    // Negative control: a name that is no option has no row.
    expect(row(options, "maxToken")).toBeUndefined();
  });

  it("states the defaults the code has, in its table and in docs/options.md", () => {
    const { DEFAULT_MAX_TOKENS, DEFAULT_MAX_BYTES, DEFAULT_HASH_LIMIT, MIN_MAX_TOKENS } = core;
    const compiled = compileOptions({});
    for (const [name, page] of [
      ["README.md", readme],
      ["docs/options.md", doc("options.md")],
    ] as const) {
      expect(row(page, "maxTokens")?.slice(1, 3), name).toEqual([
        `integer ≥ ${MIN_MAX_TOKENS}`,
        `\`${DEFAULT_MAX_TOKENS}\``,
      ]);
      expect(row(page, "maxBytes")?.[2], name).toBe(`\`${DEFAULT_MAX_BYTES}\` (256 MiB)`);
      expect(row(page, "redact")?.[2], name).toBe(`\`${compiled.redactor !== undefined}\``);
      expect(row(page, "invisible")?.[2], name).toBe(`\`${compiled.invisible}\``);
      expect(row(page, "untrusted")?.[2], name).toBe(`\`${compiled.untrusted}\``);
      expect(row(page, "spotlight")?.[2], name).toBe(`\`"${compiled.spotlight}"\``);
      expect(row(page, "datamark")?.[2], name).toBe(`\`"${compiled.datamark}"\``);
      expect(row(page, "tokenizer")?.[2], name).toBe(`\`"${compiled.tokenizer}"\``);
    }
    const options = doc("options.md");
    expect(row(options, "hashLimit")?.[2]).toBe(`\`${DEFAULT_HASH_LIMIT}\` (16 MiB)`);
    expect(row(options, "format")?.[2]).toBe(`\`"${compiled.format}"\``);
    expect(row(options, "errorsFirst")?.[2]).toBe(`\`${compiled.errorsFirst}\``);
    expect(row(options, "envelope")?.[2]).toBe(`\`"${compiled.envelope}"\``);
    expect(row(options, "storeMaxChars")?.[2]).toBe(`\`${compiled.storeMaxChars}\` (32 Mi)`);
    expect(compileOptions({ maxTokens: 100_000 }).maxStringChars).toBe(2000);
    expect(compileOptions({ maxTokens: 128 }).maxStringChars).toBe(200);
    expect(row(options, "maxStringChars")?.[2]).toBe("`maxTokens / 2`, 200–2000");
    // The parser limits, written out in the limits row.
    const limits = row(options, "limits")?.[3] ?? "";
    const mi = (n: number) =>
      n % (1 << 20) === 0 ? `${n / (1 << 20)} Mi` : n.toLocaleString("en");
    for (const [key, value] of Object.entries(DEFAULT_STRUCTURED_LIMITS)) {
      expect(limits, key).toContain(`\`${key}\` ${mi(value)}`);
    }
  });
});

describe("docs pages", () => {
  it("import only what the package exports, by its name", () => {
    const entries: Record<string, Record<string, unknown>> = {
      "agent-airlock": core,
      "agent-airlock/preview": preview,
      "agent-airlock/edge/o200k_base": edge,
      "agent-airlock/mcp": mcp,
      // The MCP SDK and zod, as docs/mcp.md uses them: the names must be theirs too.
      "@modelcontextprotocol/sdk/client/index.js": sdkClient,
      "@modelcontextprotocol/sdk/client/stdio.js": sdkStdio,
      "@modelcontextprotocol/sdk/server/mcp.js": sdkServer,
      "@modelcontextprotocol/sdk/validation/cfworker": sdkCfWorker,
      zod,
      "agent-airlock/ai-sdk": aiSdk,
      "agent-airlock/langchain": langchain,
      "agent-airlock/openai-agents": openaiAgents,
      // The frameworks the pages show, at the pinned versions (`@openai/agents` re-exports
      // `@openai/agents-core`, which is what is installed here).
      ai,
      // The provider docs/agent-app.md uses for a real model in the browser.
      "@ai-sdk/openai": openaiProvider,
      langchain: langchainPackage,
      "@openai/agents": agentsCore,
    };
    const problems: string[] = [];
    for (const [name, page] of pages) {
      for (const [, block] of page.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)) {
        for (const [, names, from] of (block ?? "").matchAll(
          /import\s*\{([^}]*)\}\s*from\s*"([^"]+)"/g,
        )) {
          if (from?.startsWith("node:")) continue;
          const entry = entries[from ?? ""];
          if (entry === undefined) {
            problems.push(`${name}: import from "${from}"`);
            continue;
          }
          for (const raw of (names ?? "").split(",")) {
            const id = raw.trim();
            if (id === "" || id.startsWith("type ")) continue;
            if (!(id in entry)) problems.push(`${name}: ${id} is not exported by ${from}`);
          }
        }
        for (const [, from] of (block ?? "").matchAll(/^import\s+"([^"]+)"/gm)) {
          if (from !== "agent-airlock/preview.css") problems.push(`${name}: import "${from}"`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(pages.filter(([, page]) => /from "airlock(?:\/[^"]*)?"/.test(page))).toEqual([]);
  });

  it("formats.md: meta.format and meta.kind for each kind of input, as its table says", async () => {
    const table = new Map(
      doc("formats.md")
        .split("\n")
        .filter((l) => l.startsWith('| `"'))
        .map((l) => {
          const cells = l.split("|").map((c) => c.trim());
          return [cells[1]?.slice(2, -2), cells[3]?.slice(1, -1)] as const;
        }),
    );
    const inputs: Record<string, () => Promise<core.Shaped>> = {
      text: () => shape("2026-01-01 INFO up"),
      markdown: () => shape("# Notes\n\nx", { contentType: "text/markdown" }),
      html: () => shape("<!doctype html><html><body><p>hello there</p></body></html>"),
      command: () => shape({ stdout: "ok", exitCode: 0 }),
      json: () => shape([{ id: 1 }]),
      ndjson: () => shape('{"id":1}\n{"id":2}\n', { contentType: "application/x-ndjson" }),
      csv: () => shape("a,b\n1,2\n", { contentType: "text/csv" }),
      tsv: () => shape("a\tb\n1\t2\n", { contentType: "text/tab-separated-values" }),
      binary: () => shape(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])),
    };
    expect([...table.keys()].sort()).toEqual(Object.keys(inputs).sort());
    for (const [format, make] of Object.entries(inputs)) {
      const shaped = await make();
      expect([shaped.meta.format, shaped.meta.kind], format).toEqual([format, table.get(format)]);
    }
  });

  it("mcp.md: the content block is what shapeCallToolResult returns for its input", async () => {
    const page = doc("mcp.md");
    const input = /<!-- mcp-input -->\n```json\n([\s\S]*?)```/.exec(page);
    const call = /`shapeCallToolResult\(result, (\{[^`]*\})\)` gives this/.exec(page);
    const output = /<!-- mcp-output -->\n```json\n([\s\S]*?)```/.exec(page);
    expect(input && call && output).not.toBeNull();
    // The options as the page writes them, read as JSON (keys quoted).
    const options = JSON.parse((call?.[1] ?? "{}").replace(/(\w+):/g, '"$1":'));
    const shaped = await mcp.shapeCallToolResult(JSON.parse(input?.[1] as string), options);
    expect(shaped.content).toEqual(JSON.parse(output?.[1] as string));
    expect(shaped.isError).toBe(true);
    expect(page).toContain(`_meta["${mcp.MCP_META_KEY}"]`);
  });

  it("mcp.md: its options table names every MCP option, with the compiled defaults", () => {
    const page = doc("mcp.md");
    for (const name of [
      "maxStructuredTokens",
      "outputSchema",
      "maxImageBytes",
      "images",
      "audio",
      "tools",
    ]) {
      expect(row(page, name), name).toBeDefined();
    }
    expect(row(page, "maxImageBytes")?.[2]).toBe(`\`${mcp.DEFAULT_MAX_IMAGE_BYTES}\``);
  });

  it("preview.md: the preview block is what renderPreview returns for its input", () => {
    const page = doc("preview.md");
    const input = new RegExp(
      String.raw`<!-- preview-input -->\n\`\`\`ts\nrenderPreview\(\n\s*${STRING},\n\s*\{ sanitize: "none" \},\n\);`,
    ).exec(page);
    const output =
      /<!-- preview-output -->\n```html\n([\s\S]*?)```\n<!-- \/preview-output -->/.exec(page);
    expect(input).not.toBeNull();
    expect(output?.[1]).toBe(renderPreview(str(input?.[1]), { sanitize: "none" }));
  });

  it("spotlighting.md: datamark and base64 examples", () => {
    const page = doc("spotlighting.md");
    const marked = new RegExp(String.raw`datamark\(${STRING}\);\n// ${STRING}`).exec(page);
    expect(marked).not.toBeNull();
    expect(core.datamark(str(marked?.[1]))).toBe(str(marked?.[2]));
    const base64 = new RegExp(String.raw`encodeBase64\(${STRING}\); // ${STRING}`).exec(page);
    expect(base64).not.toBeNull();
    expect(encodeBase64(str(base64?.[1]))).toBe(str(base64?.[2]));
  });

  it("redaction.md: the redact() example", () => {
    const example = new RegExp(String.raw`redact\(${STRING}\)\.text;\n// ${STRING}`).exec(
      doc("redaction.md"),
    );
    expect(example).not.toBeNull();
    expect(redact(str(example?.[1])).text).toBe(str(example?.[2]));
  });

  it("errors.md: the describeError and toMcpError examples", () => {
    const page = doc("errors.md");
    const thrown =
      /describeError\(err\); \/\/ err: (.+), code "(\w+)"\n\/\/ \{ code: "([^"]+)", retryable: (\w+), kind: "(\w+)",\n\/\/\s+message: "([^"]+)" \}/.exec(
        page,
      );
    expect(thrown).not.toBeNull();
    const err = Object.assign(new Error(thrown?.[1]), { code: thrown?.[2] });
    expect(describeError(err)).toEqual({
      code: thrown?.[3],
      retryable: thrown?.[4] === "true",
      kind: thrown?.[5],
      message: thrown?.[6],
    });
    const mcp = new RegExp(
      String.raw`toMcpError\(describeError\(new Error\(${STRING}\), \{ kind: "protocol" \}\)\);\n// \{ code: (-\d+), message: ${STRING},\n//\s+data: \{ code: "([^"]+)", retryable: (\w+) \} \}`,
    ).exec(page);
    expect(mcp).not.toBeNull();
    expect(toMcpError(describeError(new Error(str(mcp?.[1])), { kind: "protocol" }))).toEqual({
      code: Number(mcp?.[2]),
      message: str(mcp?.[3]),
      data: { code: mcp?.[4], retryable: mcp?.[5] === "true" },
    });
  });
});

describe("playground samples", () => {
  it("each shapes within its budget, with the status its title promises", async () => {
    const expected: Record<string, string> = {
      log: "partial",
      build: "error",
      progress: "ok",
      injection: "ok",
      binary: "partial",
    };
    for (const sample of samples) {
      const shaped = await shape(sample.make(), { tool: sample.tool, maxTokens: 600 });
      expect(shaped.status, sample.id).toBe(expected[sample.id]);
      expect(shaped.meta.tokens, sample.id).toBeLessThanOrEqual(600);
    }
    const progress = await shape(samples.find((s) => s.id === "progress")?.make() as never, {
      untrusted: false,
    });
    expect(progress.text).toBe(
      "Resolving packages\nDownloading #################### 100%\nwarning: package is deprecated, use v2\n[airlock: previous line repeated 4999 more times]\ndone in 14.2s",
    );
  });
});
