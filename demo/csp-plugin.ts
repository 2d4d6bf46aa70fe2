/**
 * Serves each page of the demo under its Content-Security-Policy, as a header and as the
 * page's first `<meta http-equiv>` (the same string), in `npm run demo`, `vite preview` and the
 * static build:
 *
 * - the playground (and every other response): `PLAYGROUND_CSP`;
 * - the agent page (`/agent/`): `agentCsp(origin)`, where the origin is the one the page's URL
 *   names in `?provider=`, written per request by the server (a policy is fixed when the page
 *   loads, so choosing a provider is a reload). A static build cannot write it per request: its
 *   page carries the origin of `AIRLOCK_AGENT_PROVIDER` at build time, or none, and the page
 *   says so when its URL names another.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Connect, Plugin } from "vite";
import { agentCsp, originOf, PLAYGROUND_CSP } from "./csp.ts";

/** The agent page's document: `/agent/` or `/agent/index.html`, with any query. */
const AGENT_PAGE = /^\/agent\/(?:index\.html)?(?:\?|$)/;
const META = /<meta http-equiv="Content-Security-Policy" content="[^"]*">/;

/** The provider origin a request's URL names, when it is one the agent page may open. */
function requested(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const provider = new URL(url, "http://demo.invalid").searchParams.get("provider");
  return provider === null ? undefined : originOf(provider);
}

function metaOf(policy: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
}

/** `/agent` without its slash would load the page's relative assets from `/`. */
const toSlash: Connect.NextHandleFunction = (req, res, next) => {
  const url = req.url ?? "/";
  if (url === "/agent" || url.startsWith("/agent?")) {
    res.statusCode = 302;
    res.setHeader("Location", `/agent/${url.slice("/agent".length)}`);
    res.end();
    return;
  }
  next();
};

/**
 * @example
 * plugins: [pageCsp(process.env.AIRLOCK_AGENT_PROVIDER)]
 */
export function pageCsp(buildProvider: string | undefined): Plugin {
  const built = buildProvider === undefined ? undefined : originOf(buildProvider);
  if (buildProvider !== undefined && built === undefined) {
    throw new Error(
      `AIRLOCK_AGENT_PROVIDER must be an https: URL (or http: on localhost): ${buildProvider}`,
    );
  }
  let outDir = "";
  return {
    name: "airlock-demo:csp",
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    transformIndexHtml(_html, ctx) {
      const agent = /\/agent\/(?:index\.html)?$/.test(ctx.path);
      // In the dev server `originalUrl` is the request's; in a build there is none.
      const origin = ctx.originalUrl === undefined ? built : requested(ctx.originalUrl);
      return [
        {
          tag: "meta",
          attrs: {
            "http-equiv": "Content-Security-Policy",
            content: agent ? agentCsp(origin) : PLAYGROUND_CSP,
          },
          injectTo: "head-prepend",
        },
      ];
    },
    configureServer(server) {
      server.middlewares.use(toSlash);
      server.middlewares.use((req, res, next) => {
        const url = req.url ?? "/";
        res.setHeader(
          "Content-Security-Policy",
          AGENT_PAGE.test(url) ? agentCsp(requested(url)) : PLAYGROUND_CSP,
        );
        next();
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use(toSlash);
      server.middlewares.use((req, res, next) => {
        const url = req.url ?? "/";
        if (!AGENT_PAGE.test(url) || (req.method !== "GET" && req.method !== "HEAD")) {
          res.setHeader("Content-Security-Policy", PLAYGROUND_CSP);
          next();
          return;
        }
        // The built page, with the policy this request's URL asks for in its meta and header.
        const policy = agentCsp(requested(url));
        readFile(resolve(outDir, "agent/index.html"), "utf8").then(
          (html) => {
            res.statusCode = 200;
            res.setHeader("Content-Security-Policy", policy);
            res.setHeader("Content-Type", "text/html; charset=utf-8");
            res.setHeader("Cache-Control", "no-cache");
            res.end(req.method === "HEAD" ? undefined : html.replace(META, metaOf(policy)));
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}
