import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { mockProvider } from "./agent/mock-provider.ts";
import { pageCsp } from "./csp-plugin.ts";

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));
const page = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// `npm run demo` -> `vite demo`: the playground at `/` and the agent at `/agent/`, importing the
// library by its package names, aliased to the TypeScript source (no build needed). `npm run
// demo:build` -> demo/dist, which works from any static host (relative base, no inline script or
// style, CSP in a meta tag).
//
// The dev server is served under the same strict CSP as the build (csp-plugin.ts). That works
// because the pages have nothing inline: CSS comes in through <link> (never `import "./x.css"`
// from JS, which the dev client would inject as inline <style>), and Vite's client is an external
// module script. Its HMR websocket is same-origin (CSP3 `'self'` covers ws:). What the strict
// policy does break in dev is Vite's error overlay (it assigns innerHTML and inline styles): a
// compile error then shows in the console instead of over the page.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [pageCsp(process.env.AIRLOCK_AGENT_PROVIDER || undefined), mockProvider()],
  resolve: {
    alias: [
      { find: /^agent-airlock$/, replacement: src("index.ts") },
      { find: /^agent-airlock\/preview$/, replacement: src("preview/index.ts") },
      { find: /^agent-airlock\/preview\.css$/, replacement: src("preview/preview.css") },
      { find: /^agent-airlock\/ai-sdk$/, replacement: src("frameworks/ai-sdk.ts") },
    ],
  },
  // Pre-bundled at start, so the dev server never reloads the agent page midway when it first
  // loads the provider's code (a reload would lose the key typed into it).
  optimizeDeps: { include: ["ai", "zod", "@ai-sdk/openai"] },
  server: {
    host: "127.0.0.1",
    port: 5173,
    strictPort: false,
    fs: { allow: [fileURLToPath(new URL("..", import.meta.url))] },
  },
  preview: {
    host: "127.0.0.1",
  },
  worker: { format: "es" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Never inline assets as data: URLs (the CSP allows none).
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: { playground: page("index.html"), agent: page("agent/index.html") },
    },
  },
});
