import { Marked } from "marked";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shape } from "../../../src/index.js";
import { renderPreview, toTrustedPreview } from "../../../src/preview/index.js";
import { CANARY, type XssVector, xssVectors } from "../../fixtures/xss.js";
import { PREVIEW_ELEMENTS } from "../../helpers/preview.js";

/**
 * The preview's XSS suite, in real Chromium. Every vector in `test/fixtures/xss.ts` is rendered
 * by `renderPreview` in both of its modes (markdown, and preformatted with images asked for, so
 * an image is a failure there), each on the browser path (`sanitize: "auto"`, DOMPurify as a
 * second pass) and on the path Workers and Node take (`sanitize: "none"`), inserted into its own
 * iframe whose document
 * enforces
 *
 *   default-src 'none'; script-src 'self'; style-src 'self'; require-trusted-types-for 'script'
 *
 * through a `<meta http-equiv>` (a meta policy applies to the document that holds it and fires
 * `securitypolicyviolation` there; only report-uri, frame-ancestors and sandbox are ignored in
 * meta, none of which is used here), and then checked two ways:
 *
 * - what happened: no canary call (alert, confirm, prompt, print, open and `__xss`, replaced on
 *   the frame, on this test's window and on `top`), no uncaught error, no CSP or Trusted Types
 *   violation, no navigation away from about:srcdoc;
 * - what is there: a walk of the frame's DOM finds only the preview's elements (HTML namespace),
 *   only its attributes, only `airlock-` classes, no `on*` or `style` attribute, no javascript:,
 *   vbscript: or data: URL anywhere a URL goes, links that resolve to http(s) or mailto and
 *   carry `rel="noopener noreferrer"`, and images only when asked for, https and no-referrer.
 *
 * The CSP is a second wall, so a canary can only fire if both fail; the DOM walk is what catches
 * a renderer bug that the CSP would have hidden. Negative controls (raw passthrough, marked's
 * default renderer, and a `<pre>` that does not escape) must be caught, so the suite is known to
 * be able to fail.
 *
 * Insertion: `require-trusted-types-for 'script'` blocks (and reports) a string assigned to
 * `innerHTML`, so the harness writes through a Trusted Types policy created in the frame's realm,
 * named `airlock-preview` like the library's and passing its input through unchanged: the frame
 * sees exactly the string `renderPreview` returned. The policy is allowed because the CSP has no
 * `trusted-types` directive restricting policy names. One test inserts through the library's own
 * `toTrustedPreview` instead (see there).
 */

const STRICT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; require-trusted-types-for 'script'";

/** Attributes the preview may emit: no ids or names (DOM clobbering), no styles, no handlers. */
const PREVIEW_ATTRIBUTES = new Set([
  "class",
  "href",
  "rel",
  "title",
  "alt",
  "src",
  "referrerpolicy",
  "start",
  "align",
]);

/** Attributes that hold a URL somewhere in HTML, SVG or MathML. */
const URL_ATTRIBUTES = new Set([
  "href",
  "xlink:href",
  "src",
  "srcset",
  "action",
  "formaction",
  "data",
  "poster",
  "background",
  "cite",
  "ping",
  "codebase",
  "longdesc",
  "lowsrc",
  "dynsrc",
  "manifest",
  "icon",
  "values",
  "to",
  "from",
  "by",
]);

const SCRIPT_URL = /^(?:javascript|vbscript|data):/;
/** Invisible characters that could hide inside a scheme without changing how it reads. */
const INVISIBLE = new Set([
  0xad, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x2060, 0xfeff,
]);

/**
 * A URL attribute's value without what the URL parser drops or ignores around and inside a scheme
 * (C0 controls, spaces, tabs, newlines) and without invisible look-alikes, lower-cased.
 */
function bareUrl(value: string): string {
  let out = "";
  for (const ch of value) {
    const c = ch.codePointAt(0) as number;
    if (c <= 0x20 || (c >= 0x7f && c <= 0xa0) || INVISIBLE.has(c)) continue;
    out += ch;
  }
  return out.toLowerCase();
}

const XHTML = "http://www.w3.org/1999/xhtml";
const DIALOGS = ["alert", "confirm", "prompt", "print", "open"] as const;

/** Frames checked at once: each vector gets a fresh document, so they cannot disturb each other. */
const PARALLEL = 12;
/** How long a frame is watched after insertion, for error and load handlers to fire. */
const SETTLE_MS = 80;

type Renderer = (input: string) => string;

interface PolicyLike {
  createHTML(input: string): unknown;
}
interface TrustedTypesLike {
  createPolicy(name: string, rules: { createHTML(input: string): string }): PolicyLike;
}
type FrameWindow = Window & { trustedTypes?: TrustedTypesLike } & Record<string, unknown>;

interface InspectOptions {
  /** The CSP in the frame's meta element; `undefined` for none (harness self-check only). */
  readonly csp?: string;
  /** Whether `img` is an expected element (and https image loads an expected violation). */
  readonly images?: boolean;
  /** What to assign to `innerHTML`; default: a pass-through policy in the frame's realm. */
  readonly insert?: (html: string, frame: FrameWindow) => unknown;
}

/** Every problem is `channel: detail`, so a failure says how it was seen. */
type Problem = string;

// Calls to the canaries outside the frames (this window and top), which a payload can reach as
// `parent.__xss()` or `top.alert()`. Frames run in parallel, so these are not per vector.
const outsideCalls: string[] = [];
const restoreOutside: (() => void)[] = [];

function recorder(log: string[], name: string): (...args: unknown[]) => undefined {
  return (...args) => {
    log.push(`${name}(${args.map(String).join(", ")})`);
    return undefined;
  };
}

function installCanaries(target: Window, log: string[]): () => void {
  const host = target as unknown as Record<string, unknown>;
  const saved = [...DIALOGS, CANARY].map((name) => [name, host[name]] as const);
  for (const name of [...DIALOGS, CANARY]) host[name] = recorder(log, name);
  return () => {
    for (const [name, value] of saved) host[name] = value;
  };
}

beforeAll(() => {
  restoreOutside.push(installCanaries(window, outsideCalls));
  try {
    if (window.top && window.top !== window) {
      restoreOutside.push(installCanaries(window.top, outsideCalls));
    }
  } catch {
    // A cross-origin top cannot be reached by the payloads either.
  }
});

afterAll(() => {
  for (const restore of restoreOutside.splice(0)) restore();
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * An image's load or error handler fires once the image is complete, which a loaded machine may
 * take longer than `SETTLE_MS` to reach: waits for every image of the frame, for 2 s at most.
 */
async function imagesDone(doc: Document): Promise<void> {
  const deadline = performance.now() + 2000;
  while (performance.now() < deadline && [...doc.images].some((img) => !img.complete)) {
    await sleep(10);
  }
}

function insertThroughFramePolicy(html: string, win: FrameWindow): unknown {
  const tt = win.trustedTypes;
  if (tt === undefined) throw new Error("harness: the frame has no trustedTypes");
  return tt.createPolicy("airlock-preview", { createHTML: (input) => input }).createHTML(html);
}

/**
 * Renders nothing itself: puts `html` into a fresh frame under `options.csp`, waits for handlers
 * to fire, and returns what went wrong.
 */
async function inspect(html: string, options: InspectOptions = {}): Promise<Problem[]> {
  const problems: Problem[] = [];
  const frame = document.createElement("iframe");
  frame.style.cssText = "width:320px;height:200px;border:0";
  const meta =
    options.csp === undefined
      ? ""
      : `<meta http-equiv="Content-Security-Policy" content="${options.csp}">`;
  frame.srcdoc = `<!doctype html><html><head>${meta}</head><body></body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  document.body.append(frame);
  try {
    await loaded;
    const win = frame.contentWindow as FrameWindow | null;
    const doc = frame.contentDocument;
    if (win === null || doc === null) throw new Error("harness: the frame has no document");

    const calls: string[] = [];
    installCanaries(win, calls);
    const violations: string[] = [];
    doc.addEventListener("securitypolicyviolation", (e) => {
      const imageAllowed =
        options.images === true &&
        e.effectiveDirective === "img-src" &&
        e.blockedURI.startsWith("https:");
      if (!imageAllowed) {
        violations.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} ${e.sample}`);
      }
    });
    const errors: string[] = [];
    win.addEventListener("error", (e) => errors.push(e.message));

    try {
      doc.body.innerHTML = (options.insert ?? insertThroughFramePolicy)(html, win) as string;
    } catch (error) {
      problems.push(`insert: ${String(error)}`);
    }
    await Promise.race([new Promise((r) => win.requestAnimationFrame(r)), sleep(200)]);
    if (options.images !== true) await imagesDone(doc);
    await sleep(SETTLE_MS);

    for (const call of calls) problems.push(`canary: ${call}`);
    for (const violation of violations) problems.push(`violation: ${violation}`);
    for (const error of errors) problems.push(`error: ${error}`);
    problems.push(...navigation(win));
    problems.push(...audit(doc, options.images === true));
  } finally {
    frame.remove();
  }
  return problems;
}

/** A meta refresh, a base or a form may have sent the frame elsewhere, maybe cross-origin. */
function navigation(win: Window): Problem[] {
  try {
    const at = win.location.href;
    return at === "about:srcdoc" ? [] : [`navigation: the frame is at ${at.slice(0, 80)}`];
  } catch {
    return ["navigation: the frame is at another origin"];
  }
}

/** Walks the frame's DOM (shadow roots included) for anything the preview must not contain. */
function audit(doc: Document, images: boolean): Problem[] {
  const problems: Problem[] = [];
  const head = doc.head;
  if (head.children.length > 1) problems.push(`element: ${head.children.length - 1} added to head`);
  if (doc.body.attributes.length > 0) problems.push("attribute: added to body");

  const visit = (root: ParentNode): void => {
    for (const el of root.querySelectorAll("*")) {
      const tag = el.namespaceURI === XHTML ? el.localName : `${el.namespaceURI}:${el.localName}`;
      const expected = PREVIEW_ELEMENTS.has(tag) && (tag !== "img" || images);
      if (!expected) problems.push(`element: <${tag}>`);
      for (const attr of el.attributes) problems.push(...auditAttribute(tag, attr));
      if (tag === "a" && el.hasAttribute("href"))
        problems.push(...auditLink(el as HTMLAnchorElement));
      if (tag === "img") problems.push(...auditImage(el as HTMLImageElement));
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(doc.body);
  return problems;
}

function auditAttribute(tag: string, attr: Attr): Problem[] {
  const problems: Problem[] = [];
  const name = attr.name.toLowerCase();
  if (name.startsWith("on")) problems.push(`handler: ${name} on <${tag}>`);
  else if (name === "style") problems.push(`style: style="${attr.value}" on <${tag}>`);
  else if (!PREVIEW_ATTRIBUTES.has(name)) problems.push(`attribute: ${name} on <${tag}>`);
  // Styling is by the preview's own classes: a class from the input could pick up the host
  // page's CSS (an overlay, a fake button) without any style attribute.
  if (name === "class") {
    const foreign = attr.value.split(/\s+/).filter((c) => c !== "" && !c.startsWith("airlock-"));
    if (foreign.length > 0) problems.push(`class: "${foreign.join(" ")}" on <${tag}>`);
  }
  if (URL_ATTRIBUTES.has(name) || URL_ATTRIBUTES.has(attr.localName)) {
    // The DOM holds the value after entity decoding; what the URL parser would still ignore
    // (controls, whitespace) and case are taken out here.
    const value = bareUrl(attr.value);
    const urls = name === "srcset" ? value.split(",") : [value];
    if (urls.some((url) => SCRIPT_URL.test(url))) {
      problems.push(`url: ${name}="${attr.value.slice(0, 80)}" on <${tag}>`);
    }
  }
  return problems;
}

function auditLink(a: HTMLAnchorElement): Problem[] {
  const problems: Problem[] = [];
  // The resolved URL: what a click would open, after the parser did everything it does.
  if (!["http:", "https:", "mailto:"].includes(a.protocol)) {
    problems.push(`url: link to ${a.protocol} (${a.href.slice(0, 80)})`);
  }
  const rel = new Set(a.rel.toLowerCase().split(/\s+/));
  if (!rel.has("noopener") || !rel.has("noreferrer")) {
    problems.push(`rel: link to ${a.href.slice(0, 60)} has rel="${a.rel}"`);
  }
  return problems;
}

function auditImage(img: HTMLImageElement): Problem[] {
  const problems: Problem[] = [];
  const src = img.getAttribute("src") ?? "";
  let protocol = "";
  try {
    protocol = new URL(src).protocol;
  } catch {
    protocol = "(relative or invalid)";
  }
  if (protocol !== "https:") problems.push(`image: src ${protocol} (${src.slice(0, 60)})`);
  if (img.referrerPolicy !== "no-referrer") {
    problems.push(`image: referrerpolicy="${img.referrerPolicy}"`);
  }
  return problems;
}

interface Outcome {
  readonly vector: XssVector;
  readonly problems: readonly Problem[];
}

/** Renders every vector and inspects it, `PARALLEL` frames at a time. */
async function runAll(
  render: Renderer,
  options: InspectOptions = {},
  list: readonly XssVector[] = xssVectors,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < list.length) {
      const vector = list[next++] as XssVector;
      let problems: Problem[];
      try {
        problems = await inspect(render(vector.input), options);
      } catch (error) {
        problems = [`render: ${String(error)}`];
      }
      outcomes.push({ vector, problems });
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return outcomes;
}

/** `title → problems` for every vector that had any: the assertion message names the vector. */
function failures(outcomes: readonly Outcome[]): Record<string, readonly Problem[]> {
  const failed: Record<string, readonly Problem[]> = {};
  for (const { vector, problems } of outcomes) {
    if (problems.length > 0) failed[vector.title] = problems.slice(0, 5);
  }
  return failed;
}

function channels(outcomes: readonly Outcome[]): Set<string> {
  return new Set(outcomes.flatMap((o) => o.problems.map((p) => p.slice(0, p.indexOf(":")))));
}

const LONG = 120_000;

describe("preview XSS in Chromium under a strict CSP", () => {
  it("has a few hundred vectors with unique titles", () => {
    expect(xssVectors.length).toBeGreaterThanOrEqual(300);
    expect(new Set(xssVectors.map((v) => v.title)).size).toBe(xssVectors.length);
  });

  it("sees script run, violations and unsafe markup (harness self-check)", async () => {
    const payload = "<img src=x onerror=alert(1)>";
    // Without a CSP the payload runs, and the canary sees it.
    const unguarded = await inspect(payload, {});
    expect(unguarded).toContain("canary: alert(1)");
    expect(unguarded).toContain("handler: onerror on <img>");
    // Under the strict CSP it cannot run: the violation and the markup are what is seen.
    const strict = await inspect(payload, { csp: STRICT_CSP });
    expect(strict.some((p) => p.startsWith("canary:"))).toBe(false);
    expect(strict.some((p) => p.startsWith("violation: script-src"))).toBe(true);
    // A string where the CSP wants TrustedHTML is refused and reported.
    const plain = await inspect("<p>x</p>", { csp: STRICT_CSP, insert: (html) => html });
    expect(plain.some((p) => p.startsWith("insert: TypeError"))).toBe(true);
    expect(plain.some((p) => p.includes("require-trusted-types-for"))).toBe(true);
    // Calls that escape the frame, to this window or top, are recorded too.
    await inspect("<img src=x onerror=parent.__xss(2)>", {});
    expect(outsideCalls.splice(0)).toContain("__xss(2)");
    // And a clean preview is clean.
    expect(
      await inspect(
        '<p class="airlock-x">ok <a href="https://example.com/" rel="noopener noreferrer">x</a></p>',
        { csp: STRICT_CSP },
      ),
    ).toEqual([]);
  });

  it.each([
    ["markdown", "browser path (sanitize auto)", "auto"],
    ["markdown", "no-DOM path (sanitize none)", "none"],
    ["preformatted", "browser path (sanitize auto)", "auto"],
    ["preformatted", "no-DOM path (sanitize none)", "none"],
  ] as const)(
    "%s, %s: nothing runs, nothing is reported, nothing unsafe is in the DOM",
    async (mode, _, sanitize) => {
      // Preformatted output has no images whatever is asked: with images on, an img is a failure.
      const images = mode === "preformatted";
      const outcomes = await runAll((s) => renderPreview(s, { sanitize, mode, images }), {
        csp: STRICT_CSP,
      });
      expect(outcomes).toHaveLength(xssVectors.length);
      expect(failures(outcomes)).toEqual({});
      expect(outsideCalls).toEqual([]);
    },
    LONG,
  );

  it("auto mode gives every vector exactly the output of one of the two modes tested above", () => {
    const mismatched = xssVectors.filter((v) => {
      const auto = renderPreview(v.input, { sanitize: "none" });
      const mode = /airlock-preview airlock-(preformatted|markdown)"/.exec(auto)?.[1] as
        | "preformatted"
        | "markdown"
        | undefined;
      return mode === undefined || auto !== renderPreview(v.input, { sanitize: "none", mode });
    });
    expect(mismatched.map((v) => v.title)).toEqual([]);
  });

  it.each([
    ["browser path (sanitize auto)", "auto"],
    ["no-DOM path (sanitize none)", "none"],
  ] as const)(
    "markdown, %s, with images on: only https images with no-referrer, nothing else",
    async (_, sanitize) => {
      const outcomes = await runAll(
        (s) => renderPreview(s, { sanitize, images: true, mode: "markdown" }),
        {
          csp: STRICT_CSP,
          images: true,
        },
      );
      expect(failures(outcomes)).toEqual({});
      expect(outsideCalls).toEqual([]);
      // The option did something: the plain https image came through as an image.
      const https = xssVectors.find((v) => v.title === "markdown: image over https") as XssVector;
      expect(renderPreview(https.input, { sanitize, images: true, mode: "markdown" })).toContain(
        "<img ",
      );
    },
    LONG,
  );

  it(
    "inserted with toTrustedPreview: the page's Trusted Types enforcement accepts it",
    async () => {
      // The library's policy lives in this test's realm; Chromium accepts a TrustedHTML from a
      // same-origin realm at the frame's sink, so this is the host page's own code path.
      const sample = xssVectors.filter((_, i) => i % 7 === 0);
      const outcomes = await runAll(
        renderPreview,
        {
          csp: STRICT_CSP,
          insert: (html) => toTrustedPreview(html),
        },
        sample,
      );
      expect(failures(outcomes)).toEqual({});
      const trusted = toTrustedPreview("<p>x</p>");
      expect(Object.prototype.toString.call(trusted)).toBe("[object TrustedHTML]");
      expect(String(trusted)).toBe("<p>x</p>");
    },
    LONG,
  );

  it(
    "shaped results (fenced by shape()) render safely on both paths",
    async () => {
      const sample = xssVectors
        .filter((v) => v.category !== "overlong")
        .filter((_, i) => i % 5 === 0);
      const shaped = await Promise.all(
        sample.map((v) => shape(v.input, { tool: '"><img src=x onerror=alert(1)>' })),
      );
      expect(shaped.every((s) => /^<untrusted-data[ >]/.test(s.text))).toBe(true);
      const byInput = new Map(sample.map((v, i) => [v.input, shaped[i]]));
      const found: Record<string, Record<string, readonly Problem[]>> = {};
      for (const mode of ["auto", "markdown", "preformatted"] as const) {
        for (const sanitize of ["auto", "none"] as const) {
          const outcomes = await runAll(
            (input) => renderPreview(byInput.get(input) ?? input, { sanitize, mode }),
            { csp: STRICT_CSP },
            sample,
          );
          found[`${mode} ${sanitize}`] = failures(outcomes);
        }
      }
      expect(Object.values(found)).toEqual(Array(6).fill({}));
      expect(outsideCalls).toEqual([]);
    },
    LONG,
  );

  it("shows raw HTML as text rather than dropping it", () => {
    const source = "<script>alert(1)</script> and <img src=x onerror=alert(2)>";
    for (const mode of ["markdown", "preformatted"] as const) {
      for (const sanitize of ["auto", "none"] as const) {
        // A DOMParser document is inert: nothing in it loads or runs.
        const html = renderPreview(source, { sanitize, mode });
        const text = new DOMParser().parseFromString(html, "text/html").body.textContent;
        expect(text).toContain("<script>alert(1)</script>");
        expect(text).toContain("<img src=x onerror=alert(2)>");
      }
    }
  });

  it(
    "negative control: a preformatted renderer that does not escape is caught",
    async () => {
      const sample = xssVectors.filter((_, i) => i % 3 === 0);
      const outcomes = await runAll(
        (s) => `<div class="airlock-preview"><pre class="airlock-pre">${s}</pre></div>`,
        { csp: STRICT_CSP },
        sample,
      );
      const failed = failures(outcomes);
      console.info(
        `[preview-xss] unescaped <pre>: ${Object.keys(failed).length}/${outcomes.length} vectors caught`,
      );
      for (const channel of ["element", "handler", "url", "violation"]) {
        expect(channels(outcomes), channel).toContain(channel);
      }
      expect(Object.keys(failed).length).toBeGreaterThan(outcomes.length / 2);
      outsideCalls.splice(0);
    },
    LONG,
  );

  it(
    "negative control: raw passthrough is caught, on every channel",
    async () => {
      const outcomes = await runAll((s) => s, { csp: STRICT_CSP });
      const failed = failures(outcomes);
      const caught = Object.keys(failed).length;
      console.info(`[preview-xss] raw passthrough: ${caught}/${outcomes.length} vectors caught`);
      for (const channel of ["element", "handler", "style", "url", "violation", "attribute"]) {
        expect(channels(outcomes), channel).toContain(channel);
      }
      for (const title of [
        "event-handler: img onerror",
        "script: plain script element",
        "url: a href, hex entities",
        "mutation: svg style with an img (parsed as an element in SVG)",
        "css: plain colour style",
        "embedding: base href to another site",
        "clobbering: img name=getElementById",
        "fence: fenced img onerror",
      ]) {
        expect(failed[title], title).toBeDefined();
      }
      // Nearly every vector that is not plain markdown is unsafe as raw HTML.
      expect(caught).toBeGreaterThan(outcomes.length / 2);
      outsideCalls.splice(0);
    },
    LONG,
  );

  it(
    "negative control: marked's default renderer is caught",
    async () => {
      const marked = new Marked();
      const outcomes = await runAll((s) => marked.parse(s, { async: false }) as string, {
        csp: STRICT_CSP,
      });
      const failed = failures(outcomes);
      console.info(
        `[preview-xss] marked default: ${Object.keys(failed).length}/${outcomes.length} vectors caught`,
      );
      for (const title of [
        "markdown: link destination, javascript:",
        "markdown: link destination, named entity colon",
        "markdown: reference link to javascript:",
        "markdown: autolink javascript:",
        "markdown: image destination javascript:",
        "markdown: plain https link (must get rel)",
        "event-handler: img onerror",
      ]) {
        expect(failed[title], title).toBeDefined();
      }
      expect(channels(outcomes)).toContain("url");
      expect(channels(outcomes)).toContain("rel");
      outsideCalls.splice(0);
    },
    LONG,
  );
});
