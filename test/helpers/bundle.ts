/**
 * The library bundled as a host's bundler would (esbuild, code split, ESM for Node), for tests
 * that run it in a fresh child process: the pipeline stays a lazy chunk, so a child's first call
 * loads it as a host's first call does.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Bundles the given entries (names to paths under `src/`) into a fresh folder and returns it,
 * with a way to remove it.
 *
 * @example
 * const bundle = await bundleLibrary({ index: "index.ts" });
 * await import(join(bundle.dir, "index.js"));
 */
export async function bundleLibrary(
  entries: Readonly<Record<string, string>>,
  prefix: string,
): Promise<{ readonly dir: string; remove(): void }> {
  // Inside the repository, so the bundle's bare imports (gpt-tokenizer's ranks) resolve.
  const dir = mkdtempSync(join(root, `node_modules/.cache-${prefix}-`));
  await build({
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, path]) => [name, join(root, "src", path)]),
    ),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    outdir: dir,
    external: ["gpt-tokenizer/*"],
    logLevel: "silent",
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
