/**
 * The demo (playground and agent app) built for production into a cache folder of its own and
 * served by `vite preview` on 127.0.0.1, under the CSP its config sets: what the Chromium tests
 * of the demo drive.
 */
import { fileURLToPath } from "node:url";
import { build, type PreviewServer, preview } from "vite";

const root = fileURLToPath(new URL("../../", import.meta.url));
export const demo = `${root}demo`;
export const configFile = `${demo}/vite.config.ts`;

/**
 * Builds the demo into `outDir` (outside demo/dist, so a test never overwrites what `npm run
 * demo:build` made) and serves it on a free port of 127.0.0.1.
 *
 * @example
 * const server = await serveDemo(`${root}node_modules/.cache/airlock-playground`);
 */
export async function serveDemo(outDir: string): Promise<PreviewServer> {
  await build({ configFile, root: demo, logLevel: "silent", build: { outDir, emptyOutDir: true } });
  return preview({
    configFile,
    root: demo,
    logLevel: "silent",
    build: { outDir },
    preview: { host: "127.0.0.1", port: 0, strictPort: false, open: false },
  });
}

/** Runs in the page before its scripts (`page.addInitScript`): records CSP violations. */
export function recordViolations(): void {
  const w = window as unknown as { __violations: string[] };
  w.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    w.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
  });
}
