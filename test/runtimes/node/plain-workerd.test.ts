import { fileURLToPath } from "node:url";
import { Miniflare } from "miniflare";
import { build, type Rolldown } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import { noNodeBuiltins } from "../../../vite.config.ts";

/**
 * The "workerd" Vitest project runs under @cloudflare/vitest-pool-workers, which
 * force-enables `nodejs_compat_v2` for its own harness (so `process`/`Buffer`/`node:*`
 * exist there). This node-only test proves the library itself needs no Node
 * compatibility: it bundles src/index.ts (gpt-tokenizer included, lazy chunks kept
 * as separate modules) and loads it in a bare workerd with NO compatibility flags.
 */

const root = fileURLToPath(new URL("../../../", import.meta.url));
const entry = `${root}src/index.ts`;

let mf: Miniflare | undefined;
afterAll(async () => {
  await mf?.dispose();
});

describe("library in plain workerd (no nodejs_compat)", () => {
  it("bundles, loads and shapes without Node.js compatibility flags", async () => {
    const result = await build({
      configFile: false,
      root,
      logLevel: "silent",
      plugins: [noNodeBuiltins()],
      build: {
        write: false,
        target: "es2022",
        minify: false,
        lib: { entry, formats: ["es"], fileName: "index" },
      },
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
    const chunks = outputs.flatMap((o) => o.output).filter((c) => c.type === "chunk");
    expect(chunks.some((c) => c.fileName === "index.js")).toBe(true);

    const worker = `
      import * as lib from "./index.js";
      export default {
        async fetch() {
          // Exercise the whole pipeline, tokenizer chunk included, with no Node compatibility.
          const lines = [];
          for (let i = 1; i <= 20000; i++) lines.push(i === 10000 ? "ERROR payment failed" : "INFO ok " + i);
          const shaped = await lib.shape(lines.join(String.fromCharCode(10)), { maxTokens: 300, tool: "plain" });
          return Response.json({
            exports: Object.keys(lib).sort(),
            process: typeof globalThis.process,
            buffer: typeof globalThis.Buffer,
            status: shaped.status,
            tokens: shaped.meta.tokens,
            keptError: shaped.text.includes("ERROR payment failed"),
            fenced: /^<untrusted-data[ >]/.test(shaped.text) && shaped.text.endsWith("</untrusted-data>"),
          });
        },
      };
    `;
    mf = new Miniflare({
      compatibilityDate: "2026-04-01",
      compatibilityFlags: [],
      modulesRoot: "/",
      modules: [
        { type: "ESModule", path: "/worker.js", contents: worker },
        ...chunks.map((c) => ({
          type: "ESModule" as const,
          path: `/${c.fileName}`,
          contents: c.code,
        })),
      ],
    });
    const res = await mf.dispatchFetch("http://localhost/");
    const body = (await res.json()) as {
      exports: string[];
      process: string;
      buffer: string;
      status: string;
      tokens: number;
      keptError: boolean;
      fenced: boolean;
    };
    expect(res.status).toBe(200);
    // Sanity: this workerd really has no Node compat globals.
    expect(body.process).toBe("undefined");
    expect(body.buffer).toBe("undefined");
    expect(body.exports).toContain("shape");
    expect(body.status).toBe("partial");
    expect(body.tokens).toBeLessThanOrEqual(300);
    expect(body.keptError).toBe(true);
    expect(body.fenced).toBe(true);
  });
});
