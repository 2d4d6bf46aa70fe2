import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { noNodeBuiltins } from "./vite.config.ts";

/**
 * The edge entries: the whole library as one module for a Cloudflare Worker, once per
 * tokenizer. Workers cannot load chunks, so a Worker bundler inlines every dynamic import it
 * can reach; the core entry's two lazily loaded rank tables would both end up in the Worker.
 * Each build here swaps `src/fit/encodings/all.ts` for a variant that knows one encoding (or
 * none), so only that table's import is left, and writes one file with no chunks:
 *
 *   vite build -c vite.edge.config.ts --mode o200k_base   -> dist/edge/o200k_base.js
 *   vite build -c vite.edge.config.ts --mode cl100k_base  -> dist/edge/cl100k_base.js
 *   vite build -c vite.edge.config.ts --mode none         -> dist/edge/index.js
 *
 * (`npm run build` runs all three.) The rank tables stay an import of gpt-tokenizer, which the
 * Worker's bundler inlines from the host's node_modules.
 */
const VARIANTS = { o200k_base: "o200k_base", cl100k_base: "cl100k_base", none: "index" } as const;

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

function encodings(variant: string): Plugin {
  const all = here("./src/fit/encodings/all.ts");
  const replacement = here(`./src/fit/encodings/${variant}.ts`);
  let swapped = false;
  return {
    name: "airlock:edge-encodings",
    enforce: "pre",
    async resolveId(id, importer, options) {
      const resolved = await this.resolve(id, importer, { ...options, skipSelf: true });
      if (resolved?.id !== all) return null;
      swapped = true;
      return replacement;
    },
    buildEnd() {
      // A moved or renamed module must not silently give a Worker both tables again.
      if (!swapped) this.error(`edge build: ${all} was never imported, nothing was swapped`);
    },
  };
}

export default defineConfig(({ mode }) => {
  if (!Object.hasOwn(VARIANTS, mode)) {
    throw new Error(`vite.edge.config.ts: --mode must be one of ${Object.keys(VARIANTS)}`);
  }
  const variant = mode as keyof typeof VARIANTS;
  const name = VARIANTS[variant];
  return {
    plugins: [noNodeBuiltins(), encodings(variant)],
    build: {
      target: "es2022",
      outDir: "dist/edge",
      // The core build writes dist/ first; the three edge builds share dist/edge/.
      emptyOutDir: false,
      sourcemap: false,
      minify: false,
      lib: {
        entry: { [name]: here(`./src/edge/${name}.ts`) },
        formats: ["es"],
        fileName: (_format: string, entry: string) => `${entry}.js`,
      },
      rolldownOptions: {
        external: [/^gpt-tokenizer(?:\/.*)?$/],
        // One file: a Worker inlines chunks anyway, and one module keeps its bundler from
        // meeting the chunk cycles a split build has.
        output: { codeSplitting: false },
      },
    },
  };
});
