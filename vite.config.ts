import { readFileSync } from "node:fs";
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

/** The package's own dependencies: the host installs them, so the build imports them as they are. */
const dependencies = Object.keys(
  (
    JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
      dependencies: Record<string, string>;
    }
  ).dependencies,
);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

// Library build: ESM only, an entry per export (dist/index.js, dist/preview.js, dist/mcp.js,
// dist/ai-sdk.js, …) and one file per source module beside them. Modules are kept apart, not
// merged into shared chunks, so the host's bundler sees the graph the sources have: what loads
// on first use (the pipeline, the rule set, the records path, the store writers, HTML) stays
// behind its dynamic import. Merged chunks put the rule set in the chunk `shape` comes from, and
// a host's `import { shape }` then carried it up front (docs/bundling.md).
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
      output: { preserveModules: true, preserveModulesRoot: "src" },
      // Dependencies stay imports of the dependency (gpt-tokenizer's lazy
      // `await import("gpt-tokenizer/...")` included); the host's bundler resolves them.
      external: [
        ...dependencies.map((d) => new RegExp(`^${escapeRegExp(d)}(?:/.*)?$`)),
        /^ai$/,
        /^@langchain\/core\//,
        /^@openai\/agents-core$/,
      ],
    },
  },
});
