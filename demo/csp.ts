/**
 * The playground's Content-Security-Policy: one string, sent as a header by the dev server and
 * `vite preview`, and written into the built page as a `<meta http-equiv>` for static hosting.
 *
 * - Scripts, styles, the worker and fetches come from the page's own origin only; nothing inline,
 *   no `eval`, no `data:` or `blob:` anywhere (the preview renders images off, so `img-src` needs
 *   only the favicon).
 * - Trusted Types are enforced, with two named policies and no default policy:
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
