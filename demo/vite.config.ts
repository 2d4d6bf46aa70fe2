import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { PLAYGROUND_CSP } from "./csp.ts";

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

/**
 * Writes the CSP into the page as its first element, so the policy holds on static hosting
 * too (where no header can be set). Headers and meta carry the same string.
 */
function cspMeta(): Plugin {
  return {
    name: "airlock-playground:csp-meta",
    transformIndexHtml: () => [
      {
        tag: "meta",
        attrs: { "http-equiv": "Content-Security-Policy", content: PLAYGROUND_CSP },
        injectTo: "head-prepend",
      },
    ],
  };
}

// `npm run demo` -> `vite demo`: the playground, importing the library by its package names,
// aliased to the TypeScript source (no build needed). `npm run demo:build` -> demo/dist, which
// works from any static host (relative base, no inline script or style, CSP in a meta tag).
//
// The dev server is served under the same strict CSP as the build. That works because the page
// has nothing inline: CSS comes in through <link> (never `import "./x.css"` from JS, which the
// dev client would inject as inline <style>), and Vite's client is an external module script.
// Its HMR websocket is same-origin (CSP3 `'self'` covers ws:). What the strict policy does break
// in dev is Vite's error overlay (it assigns innerHTML and inline styles): a compile error then
// shows in the console instead of over the page.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [cspMeta()],
  resolve: {
    alias: [
      { find: /^agent-airlock$/, replacement: src("index.ts") },
      { find: /^agent-airlock\/preview$/, replacement: src("preview/index.ts") },
      { find: /^agent-airlock\/preview\.css$/, replacement: src("preview/preview.css") },
    ],
  },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: false,
    headers: { "Content-Security-Policy": PLAYGROUND_CSP },
    fs: { allow: [fileURLToPath(new URL("..", import.meta.url))] },
  },
  preview: {
    host: "127.0.0.1",
    headers: { "Content-Security-Policy": PLAYGROUND_CSP },
  },
  worker: { format: "es" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Never inline assets as data: URLs (the CSP allows none).
    assetsInlineLimit: 0,
  },
});
