import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/**
 * Vite's browser-targeted build would silently replace `node:*` imports with an
 * empty "__vite-browser-external" stub. The library must be runtime-neutral
 * (Node, browsers, workerd without nodejs_compat), so make that a hard error.
 */
export function noNodeBuiltins(): Plugin {
  return {
    name: "airlock:no-node-builtins",
    enforce: "pre",
    resolveId(id, importer) {
      if (id.startsWith("node:") || nodeBuiltins.has(id)) {
        this.error(
          `Node.js builtin "${id}" imported by ${importer ?? "?"}; src/ must stay runtime-neutral.`,
        );
      }
      return null;
    },
  };
}

// Library build: ESM only, one file per entry (dist/index.js, dist/preview.js, dist/mcp.js,
// dist/ai-sdk.js, …).
// Type declarations are emitted separately by `tsc -p tsconfig.build.json`.
export default defineConfig({
  plugins: [noNodeBuiltins()],
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    // No source maps: the package ships dist only, and maps would point at sources it leaves out.
    sourcemap: false,
    minify: false,
    lib: {
      entry: {
        index: fileURLToPath(new URL("./src/index.ts", import.meta.url)),
        preview: fileURLToPath(new URL("./src/preview/index.ts", import.meta.url)),
        mcp: fileURLToPath(new URL("./src/mcp/index.ts", import.meta.url)),
        // One entry per agent framework; each framework is a peer dependency, left external.
        "ai-sdk": fileURLToPath(new URL("./src/frameworks/ai-sdk.ts", import.meta.url)),
        langchain: fileURLToPath(new URL("./src/frameworks/langchain.ts", import.meta.url)),
        "openai-agents": fileURLToPath(
          new URL("./src/frameworks/openai-agents.ts", import.meta.url),
        ),
      },
      formats: ["es"],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      // Keep gpt-tokenizer (and its subpaths) external so its lazy
      // `await import("gpt-tokenizer/...")` stays a runtime import of the dependency.
      external: [
        /^gpt-tokenizer(?:\/.*)?$/,
        /^ai$/,
        /^@langchain\/core\//,
        /^@openai\/agents-core$/,
      ],
    },
  },
});
