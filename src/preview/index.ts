/**
 * `agent-airlock/preview`: a tool result as HTML that is safe to insert into a page, for the
 * person watching the agent. Safe by construction, so it holds where no DOM exists (Workers,
 * Node): tool output is never markup, every tag is one this module or marked's renderer built,
 * links carry only http(s) and mailto with `rel="noopener noreferrer nofollow ugc"`, images are
 * off unless asked for (https only), and there are no style attributes, event handlers or script
 * URLs: styling is by class name, with the stylesheet `agent-airlock/preview.css`. In a browser,
 * DOMPurify runs over the result as a second pass. What airlock did is visible: the fence and
 * status as a header, omission markers and redactions as their own elements, invisible
 * characters shown by code point.
 *
 * Two renderers: logs, command output, records and CSV are shown preformatted, like the tool's
 * own output (one `<pre>`, line breaks kept, nothing interpreted); web pages and markdown are
 * rendered as markdown. `meta.format` decides, and the `mode` option overrides it.
 */
import DOMPurify from "dompurify";
import { AirlockError } from "../errors/airlock-error.js";
import { openFence } from "../fence/fence.js";
import type { Shaped } from "../pipeline/shaped.js";
import { escapeAll } from "./escape.js";
import { renderMarkdown } from "./markdown.js";
import { chooseMode, type PreviewMode } from "./mode.js";
import { renderPreformatted } from "./preformatted.js";

export type { PreviewMode };

export interface PreviewOptions {
  /**
   * `auto` (default): markdown for web pages and markdown (`meta.format` "html" or "markdown"),
   * preformatted for logs, command output, records, CSV and binary placeholders; a plain text
   * (a string, or `meta.format` "text") is preformatted unless it clearly is markdown
   * (headings and paragraphs of prose, no log-like line). `preformatted` or `markdown` choose
   * one renderer for any input.
   */
  readonly mode?: PreviewMode;
  /**
   * Show images (`https:` only, with `referrerpolicy="no-referrer"`), in markdown. Default
   * false: their alt text. Preformatted output has no images.
   */
  readonly images?: boolean;
  /**
   * `auto` (default): in a browser with a DOM, DOMPurify (strict) runs over the output as a
   * second pass; `none`: the renderer's own output only (what Workers and Node get anyway).
   */
  readonly sanitize?: "auto" | "none";
}

/** Elements the preview may contain; DOMPurify's pass allows these and nothing else. */
export const PREVIEW_TAGS: readonly string[] = [
  "div",
  "span",
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "pre",
  "code",
  "blockquote",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "em",
  "strong",
  "del",
  "a",
  "br",
  "hr",
  "img",
];
const PREVIEW_ATTRS = [
  "class",
  "href",
  "rel",
  "title",
  "alt",
  "src",
  "referrerpolicy",
  "start",
  "align",
];

const MODES: ReadonlySet<string> = new Set(["auto", "preformatted", "markdown"]);

/**
 * Renders a shaped result (or any text) as safe HTML for a UI: preformatted for logs, command
 * output and records, markdown for pages and markdown (`mode` overrides the choice).
 *
 * @example
 * container.innerHTML = renderPreview(shaped); // or toTrustedPreview(renderPreview(shaped))
 */
export function renderPreview(input: Shaped | string, options: PreviewOptions = {}): string {
  const mode = options.mode ?? "auto";
  if (!MODES.has(mode)) {
    throw new AirlockError(
      "options/invalid",
      'preview: mode must be "auto", "preformatted" or "markdown"',
    );
  }
  const shaped = typeof input === "string" ? undefined : input;
  let text = typeof input === "string" ? input : input.text;
  if (typeof text !== "string") text = String(text);
  // The fence becomes a header (tool and status); its lines are not content.
  let tool: string | undefined;
  const opened = openFence(text);
  if (opened !== undefined) {
    // The compact fence names no source: the result's own meta does.
    tool = opened.tool ?? shaped?.meta.tool ?? "tool";
    text = opened.body;
  }
  let chosen = chooseMode(shaped, text, mode);
  let body: string;
  try {
    body = chosen === "markdown" ? renderMarkdown(text, options) : renderPreformatted(text);
  } catch {
    // Markdown the renderer cannot read (nesting past its stack, say) is shown as it came.
    chosen = "preformatted";
    body = renderPreformatted(text);
  }
  const header =
    tool !== undefined || shaped !== undefined
      ? `<div class="airlock-header">${tool !== undefined ? `<span class="airlock-tool">${escapeAll(tool)}</span>` : ""}${
          shaped
            ? `<span class="airlock-status airlock-status-${statusClass(shaped.status)}">${statusClass(shaped.status)}</span>`
            : ""
        }${tool !== undefined ? '<span class="airlock-fence">untrusted data</span>' : ""}</div>\n`
      : "";
  const html = `<div class="airlock-preview airlock-${chosen}">\n${header}<div class="airlock-body">\n${body}</div>\n</div>\n`;
  return (options.sanitize ?? "auto") === "auto" ? secondPass(html) : html;
}

function statusClass(status: string): string {
  return status === "ok" || status === "partial" || status === "empty" || status === "error"
    ? status
    : "unknown";
}

/** DOMPurify over the output where there is a real DOM; without one it would pass input through. */
function secondPass(html: string): string {
  if (typeof window === "undefined" || typeof document === "undefined" || !DOMPurify.isSupported)
    return html;
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...PREVIEW_TAGS],
    ALLOWED_ATTR: PREVIEW_ATTRS,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    // These hold words, not URLs (DOMPurify would test them against the URI pattern); the
    // first pass writes them itself, with fixed values.
    ADD_URI_SAFE_ATTR: ["rel", "referrerpolicy", "start", "align"],
    // DOMPurify parses through a Trusted Types policy: ours, so pages allow one policy name.
    ...(previewPolicy() ? { TRUSTED_TYPES_POLICY: previewPolicy() as never } : {}),
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
  });
}

interface TrustedTypesLike {
  createPolicy(
    name: string,
    rules: { createHTML(input: string): string; createScriptURL(input: string): string },
  ): PreviewPolicy;
}
interface PreviewPolicy {
  createHTML(input: string): unknown;
  createScriptURL(input: string): unknown;
}

const policies = new WeakMap<object, PreviewPolicy>();

/**
 * The one Trusted Types policy of the preview, `airlock-preview`, created once per realm: it
 * turns the preview's own HTML into `TrustedHTML` (for the page's sink, and for DOMPurify's
 * second pass, so a page can allow just this policy name) and creates no script URLs.
 */
function previewPolicy(): PreviewPolicy | undefined {
  const tt = (globalThis as { trustedTypes?: TrustedTypesLike }).trustedTypes;
  if (tt === undefined) return undefined;
  let policy = policies.get(tt);
  if (policy === undefined) {
    policy = tt.createPolicy("airlock-preview", {
      createHTML: (input) => input,
      createScriptURL: () => {
        throw new TypeError("airlock-preview creates no script URLs");
      },
    });
    policies.set(tt, policy);
  }
  return policy;
}

/**
 * The preview as `TrustedHTML` through the `airlock-preview` policy, for pages that enforce
 * Trusted Types (`require-trusted-types-for 'script'; trusted-types airlock-preview`); the
 * string where the runtime has no Trusted Types. Pass it only what `renderPreview` returned.
 *
 * @example
 * container.innerHTML = toTrustedPreview(renderPreview(shaped)) as string;
 */
export function toTrustedPreview(html: string): unknown {
  const policy = previewPolicy();
  return policy === undefined ? html : policy.createHTML(html);
}
