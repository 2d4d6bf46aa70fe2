import { createHash, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { LEAKED, UPSTREAM_TOKEN, upstream } from "./test/edge/upstream.ts";
import { CHROMIUM_LAUNCH } from "./test/helpers/chromium.ts";

/**
 * One test suite, three runtimes:
 *   - node:     plain Vitest in Node.js
 *   - chromium: Vitest browser mode, real Debian Chromium driven by Playwright
 *   - workerd:  real workerd via @cloudflare/vitest-pool-workers (Miniflare)
 *
 * File conventions:
 *   test/suites/**\/*.test.ts        shared; runs in all three projects
 *   test/runtimes/*.test.ts          shared runtime checks; runs in all three projects
 *   test/runtimes/chromium/**\/*.test.ts  chromium only
 *   test/runtimes/workerd/**\/*.test.ts   workerd only
 *   test/node/**\/*.test.ts          node only (fs fixtures, huge streams, ...)
 *   test/runtimes/node/**\/*.test.ts node only infrastructure checks (e.g. plain workerd)
 *
 * Every project `provide`s `runtime`, so a test can `inject("runtime")` to know
 * where it is supposed to be running (see test/runtimes/runtime-identity.test.ts).
 */

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

const WORKERD_COMPATIBILITY_DATE = "2026-04-01";

const shared = ["test/suites/**/*.test.ts", "test/runtimes/*.test.ts"];

/**
 * Bearer tokens for the edge Worker's tests, made for this run: the Worker's secret holds only
 * their SHA-256, as a deployed Worker's does. Tenants "acme" and "globex"; "acme-person" may
 * read raw artifacts.
 */
const edgeTokens = {
  acme: randomBytes(24).toString("base64url"),
  globex: randomBytes(24).toString("base64url"),
  acmePerson: randomBytes(24).toString("base64url"),
};
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const edgeSecrets = {
  AIRLOCK_TOKENS: JSON.stringify({
    [sha256(edgeTokens.acme)]: "acme",
    [sha256(edgeTokens.globex)]: "globex",
    [sha256(edgeTokens.acmePerson)]: { tenant: "acme", raw: true },
  }),
  AIRLOCK_RAW_KEY: randomBytes(32).toString("base64"),
  UPSTREAM_MCP_TOKEN: UPSTREAM_TOKEN,
};

export default defineConfig({
  // Pre-bundled up front, so the browser project does not reload midway when a suite first
  // imports them.
  optimizeDeps: { include: ["papaparse", "@cfworker/json-schema", "fast-check"] },
  resolve: {
    // Lets tests/demo import the library by its package name without a build.
    alias: [
      { find: /^agent-airlock$/, replacement: src("index.ts") },
      { find: /^agent-airlock\/preview$/, replacement: src("preview/index.ts") },
      { find: /^agent-airlock\/mcp$/, replacement: src("mcp/index.ts") },
      { find: /^agent-airlock\/ai-sdk$/, replacement: src("frameworks/ai-sdk.ts") },
      { find: /^agent-airlock\/langchain$/, replacement: src("frameworks/langchain.ts") },
      {
        find: /^agent-airlock\/openai-agents$/,
        replacement: src("frameworks/openai-agents.ts"),
      },
      { find: /^agent-airlock\/preview\.css$/, replacement: src("preview/preview.css") },
      // The edge entries are the core with one encoding swapped in at build time
      // (vite.edge.config.ts); from source, each is the whole library.
      { find: /^agent-airlock\/edge$/, replacement: src("edge/index.ts") },
      { find: /^agent-airlock\/edge\/(o200k_base|cl100k_base)$/, replacement: src("edge/$1.ts") },
    ],
  },
  test: {
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          include: [...shared, "test/node/**/*.test.ts", "test/runtimes/node/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          provide: { runtime: "node" },
        },
      },
      {
        extends: true,
        test: {
          name: "chromium",
          include: [...shared, "test/runtimes/chromium/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          provide: { runtime: "chromium" },
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: CHROMIUM_LAUNCH,
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
      {
        extends: true,
        plugins: [
          cloudflareTest({
            miniflare: {
              compatibilityDate: WORKERD_COMPATIBILITY_DATE,
              // No compatibility flags on purpose: the library must not need
              // nodejs_compat. (The pool itself force-enables nodejs_compat_v2
              // for its own test harness; see README/report.)
              compatibilityFlags: [],
            },
          }),
        ],
        test: {
          name: "workerd",
          include: [...shared, "test/runtimes/workerd/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          provide: { runtime: "workerd" },
        },
      },
      {
        // The edge Worker (demo/worker) in real workerd, with its KV and R2 bindings from
        // Miniflare (wrangler.jsonc) and secrets made for this run.
        extends: true,
        plugins: [
          cloudflareTest({
            main: "./demo/worker/src/index.ts",
            wrangler: { configPath: "./demo/worker/wrangler.jsonc" },
            miniflare: {
              compatibilityDate: WORKERD_COMPATIBILITY_DATE,
              compatibilityFlags: [],
              bindings: edgeSecrets,
              // /mcp's upstream: a real MCP SDK server, run here in Node (test/edge/upstream.ts).
              serviceBindings: { UPSTREAM_MCP: upstream },
            },
          }),
        ],
        test: {
          name: "edge",
          include: ["test/edge/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          provide: { runtime: "workerd", edgeTokens, upstreamLeak: LEAKED },
        },
      },
    ],
  },
});

declare module "vitest" {
  export interface ProvidedContext {
    runtime: "node" | "chromium" | "workerd";
    /** Bearer tokens of the edge Worker's tests, by tenant (the `edge` project only). */
    edgeTokens: { acme: string; globex: string; acmePerson: string };
    /** The token the edge tests' upstream MCP server puts in a result, made for this run. */
    upstreamLeak: string;
  }
}
