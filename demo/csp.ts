/**
 * The demo's Content-Security-Policies: one string per page, sent as a header by the dev server
 * and `vite preview`, and written into the built page as a `<meta http-equiv>` for static hosting.
 *
 * - Scripts, styles, the worker and fetches come from the page's own origin only; nothing inline,
 *   no `eval`, no `data:` or `blob:` anywhere (the preview renders images off, so `img-src` needs
 *   only the favicon).
 * - Trusted Types are enforced, with named policies and no default policy:
 *   `airlock-preview` (the library's `toTrustedPreview`, the only place HTML is assigned; the
 *   library's DOMPurify pass parses through it too), and `airlock-playground` (turns the
 *   worker's own URL into a `TrustedScriptURL`, since `new Worker(url)` is a Trusted Types sink).
 */
export const PLAYGROUND_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types airlock-preview airlock-playground",
].join("; ");

/**
 * The agent page's policy (demo/agent): the playground's, without a worker, and with
 * `connect-src` opened to one model provider's origin when one is chosen, and to nothing else.
 * A policy is fixed when the page loads, so the provider is chosen in the page's URL
 * (`/agent/?provider=https://api.openai.com/v1`) and the server that serves the page writes
 * the policy for it; a static host, which cannot, serves the one origin chosen at build time.
 *
 * @example
 * agentCsp("https://api.openai.com"); // "…; connect-src 'self' https://api.openai.com; …"
 */
export function agentCsp(providerOrigin?: string): string {
  const origin = providerOrigin === undefined ? undefined : originOf(providerOrigin);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    origin === undefined ? "connect-src 'self'" : `connect-src 'self' ${origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types airlock-preview",
  ].join("; ");
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The origin of a provider's base URL, when it may be opened: `https:` anywhere, `http:` only
 * on this machine (a local model server, or the demo's mock endpoint); no credentials in the
 * URL. Anything else is `undefined`, and the page stays on the scripted model.
 *
 * @example
 * originOf("https://api.openai.com/v1"); // "https://api.openai.com"
 * originOf("http://evil.example/v1"); // undefined
 */
export function originOf(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.username !== "" || url.password !== "") return undefined;
  if (url.protocol === "https:") return url.origin;
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return url.origin;
  return undefined;
}
