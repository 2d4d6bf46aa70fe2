/**
 * The TypeScript examples of the docs type-check as a host would write them: each section's
 * `ts` blocks (a later block goes on from the one before) against the package's own types and
 * the real SDKs, strict, with the few names a snippet leaves to the host (`messages`, `ui`, a
 * model's `call`) declared. A negative control shows the check can fail: the SDK's own client,
 * unwrapped, does not give `toAnthropic` a result it can take.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../helpers/bundle.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(root, "node_modules/.cache-docs-types-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a snippet leaves to the host. */
const HOST = `declare const ui: { show(value: unknown): void };
declare const messages: Array<{ role: string; content: unknown }>;
declare const block: { id: string };
declare const call: { id: string; input: unknown };
declare const tools: unknown[];
declare const db: { query(sql: string): Promise<Array<{ id: number }>> };
declare const rowSchema: import("agent-airlock").Schema;
declare const info: { name: string; version: string };
`;

/** The `ts` blocks of a page, joined by section (`## …`). */
function sections(page: string): Array<{ title: string; code: string }> {
  const text = readFileSync(join(root, "docs", page), "utf8");
  const out: Array<{ title: string; code: string }> = [];
  for (const part of text.split(/^## /m).slice(1)) {
    const title = part.slice(0, part.indexOf("\n"));
    const blocks = [...part.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1] as string);
    if (blocks.length > 0) out.push({ title, code: blocks.join("\n") });
  }
  return out;
}

/** tsc's errors for one file, type-checked with the package's sources behind its names. */
async function check(name: string, code: string): Promise<string[]> {
  const imports = code.match(/^import [\s\S]*?;$/gm) ?? [];
  const body = code.replace(/^import [\s\S]*?;$/gm, "");
  writeFileSync(join(dir, `${name}.ts`), `${imports.join("\n")}\n${HOST}\n${body}\nexport {};\n`);
  const src = (p: string) => [join(root, "src", p)];
  writeFileSync(
    join(dir, `tsconfig.${name}.json`),
    JSON.stringify({
      extends: join(root, "tsconfig.base.json"),
      compilerOptions: {
        lib: ["ES2022", "DOM", "DOM.Iterable"],
        types: ["node"],
        typeRoots: [join(root, "node_modules/@types")],
        noUnusedLocals: false,
        paths: {
          "agent-airlock": src("index.ts"),
          "agent-airlock/mcp": src("mcp/index.ts"),
          "agent-airlock/preview": src("preview/index.ts"),
          "agent-airlock/ai-sdk": src("frameworks/ai-sdk.ts"),
          "agent-airlock/langchain": src("frameworks/langchain.ts"),
          "agent-airlock/openai-agents": src("frameworks/openai-agents.ts"),
          "agent-airlock/edge/*": src("edge/*.ts"),
        },
      },
      files: [join(dir, `${name}.ts`), join(root, "src/vendor/papaparse.d.ts")],
    }),
  );
  try {
    await run(join(root, "node_modules/.bin/tsc"), ["-p", join(dir, `tsconfig.${name}.json`)], {
      cwd: root,
    });
    return [];
  } catch (error) {
    const out = (error as { stdout?: string }).stdout ?? String(error);
    return out.split("\n").filter((l) => /error TS/.test(l));
  }
}

describe("docs examples type-check", () => {
  for (const { title, code } of sections("mcp.md")) {
    it(`mcp.md: ${title}`, async () => {
      expect(await check(`mcp-${title.replace(/\W+/g, "-")}`, code)).toEqual([]);
    }, 120_000);
  }

  it("a wrapped client's callTool types as a result with the SDK's extra arguments too", async () => {
    const code = `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { toAnthropic } from "agent-airlock";
import { wrapClient } from "agent-airlock/mcp";
const client = wrapClient(new Client({ name: "agent", version: "1.0.0" }));
toAnthropic(await client.callTool({ name: "a", arguments: {} }), { toolUseId: block.id });
toAnthropic(await client.callTool({ name: "b" }, undefined, { timeout: 5000 }), { toolUseId: "t" });
toAnthropic(await client.callTool({ name: "c" }, CallToolResultSchema), { toolUseId: "t" });`;
    expect(await check("extra-arguments", code)).toEqual([]);
  }, 120_000);

  it("negative control: the SDK's own client result is not an adapter input without the wrapper", async () => {
    const code = `import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { toAnthropic } from "agent-airlock";
const client = new Client({ name: "agent", version: "1.0.0" });
const result = await client.callTool({ name: "search", arguments: {} });
toAnthropic(result, { toolUseId: block.id });`;
    expect((await check("negative", code)).join("\n")).toMatch(/error TS2345/);
  }, 120_000);
});
