import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { shape } from "airlock";
import { build } from "vite";
import { beforeAll, describe, expect, it } from "vitest";
import { noNodeBuiltins } from "../../vite.config.ts";
import { generatedLogStream } from "../helpers/sources.js";

const GB = 1024 * 1024 * 1024;
const root = fileURLToPath(new URL("../../", import.meta.url));
// Inside node_modules so the bundle's bare import of gpt-tokenizer resolves.
const outDir = `${root}node_modules/.cache/airlock-memory-test`;

/** The child: shapes a generated 1 GB log and prints what it kept, under a small heap cap. */
const child = `
import { shape } from "./index.js";
const encoder = new TextEncoder();
let text = "";
for (let n = 0; text.length < (1 << 20) - 200; n++) {
  text += "2026-11-30T10:00:" + String(n % 60).padStart(2, "0") + "Z INFO worker-" + (n % 8) + " processed job " + n + "\\n";
}
const chunk = encoder.encode(text);
const fatal = encoder.encode("FATAL: disk quota exceeded on /var/lib/data\\n");
const total = ${GB};
let sent = 0;
let planted = false;
const stream = new ReadableStream({
  pull(c) {
    if (sent >= total) return c.close();
    if (!planted && sent >= total / 2) { planted = true; sent += fatal.byteLength; return c.enqueue(fatal); }
    sent += chunk.byteLength;
    c.enqueue(chunk);
  },
});
const shaped = await shape(stream, { maxTokens: 1000, maxBytes: 2 * total, untrusted: false });
console.log(JSON.stringify({ sent, bytes: shaped.meta.bytes, lines: shaped.meta.lines, tokens: shaped.meta.tokens,
  fatal: shaped.text.includes("FATAL: disk quota exceeded"), heap: process.memoryUsage().heapUsed }));
`;

describe("memory is O(budget), not O(input)", () => {
  beforeAll(async () => {
    mkdirSync(outDir, { recursive: true });
    await build({
      configFile: false,
      root,
      logLevel: "silent",
      plugins: [noNodeBuiltins()],
      build: {
        outDir,
        emptyOutDir: true,
        target: "es2022",
        minify: false,
        lib: { entry: `${root}src/index.ts`, formats: ["es"], fileName: "index" },
        rolldownOptions: { external: [/^gpt-tokenizer(?:\/.*)?$/] },
      },
    });
    writeFileSync(`${outDir}/child.mjs`, child);
  }, 120_000);

  it("shapes a 1 GB stream in a process whose heap cannot exceed 64 MiB", () => {
    // If shape() held the input, or anything growing with it, V8 would abort with
    // "heap out of memory" long before the end of the stream.
    const run = spawnSync(process.execPath, ["--max-old-space-size=64", `${outDir}/child.mjs`], {
      encoding: "utf8",
      timeout: 280_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.sent).toBeGreaterThanOrEqual(GB);
    expect(result.bytes).toBe(result.sent);
    expect(result.lines).toBeGreaterThan(10_000_000);
    expect(result.fatal).toBe(true);
    expect(result.tokens).toBeLessThanOrEqual(1000);
  }, 300_000);

  it("negative control: the same cap does stop a program that holds its input", () => {
    const hoard = `const parts = []; for (let i = 0; i < 64; i++) parts.push(new Array(1 << 20).fill(i)); console.log(parts.length);`;
    const run = spawnSync(process.execPath, ["--max-old-space-size=64", "-e", hoard], {
      encoding: "utf8",
    });
    expect(run.status).not.toBe(0);
  });

  it("the default byte cap stops a larger stream at 256 MiB", async () => {
    const shaped = await shape(generatedLogStream(GB), { maxTokens: 500, untrusted: false });
    expect(shaped.meta.bytes).toBe(256 * 1024 * 1024);
    expect(shaped.meta.sections[0]?.capped).toBe(true);
    expect(shaped.text).toContain(
      "[airlock: read stopped at maxBytes (268435456); the rest was not read]",
    );
  }, 300_000);
});
