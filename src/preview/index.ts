/**
 * `airlock/preview`: a tool result as HTML that is safe to insert into a page, for the person
 * watching the agent. Safe by construction, so it holds where no DOM exists (Workers, Node):
 * tool output is never markup (every `<` is escaped before the markdown is read), every tag is
 * one this module or marked's renderer built, links carry only http(s) and mailto with
 * `rel="noopener noreferrer nofollow ugc"`, images are off unless asked for (https only), and
 * there are no style attributes, event handlers or script URLs: styling is by class name, with
 * the stylesheet `airlock/preview.css`. In a browser, DOMPurify runs over the result as a second
 * pass. What airlock did is visible: the fence and status as a header, omission markers and
 * redactions as their own elements, invisible characters shown by code point.
 */
import DOMPurify from "dompurify";
import { Marked, type Tokens } from "marked";
import type { Shaped } from "../pipeline/shaped.js";

export interface PreviewOptions {
  /** Show images (`https:` only, with `referrerpolicy="no-referrer"`). Default false: their alt text. */
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

const ENTITY = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;

/** Escapes text for an element's content or a quoted attribute; entity references are kept. */
function escapeText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "<") out += "&lt;";
    else if (c === ">") out += "&gt;";
    else if (c === '"') out += "&quot;";
    else if (c === "'") out += "&#39;";
    else if (c === "&") {
      ENTITY.lastIndex = i;
      out += ENTITY.test(text) ? "&" : "&amp;";
    } else out += c;
  }
  return out;
}

/** Escapes everything, entities included (for code, shown exactly). */
function escapeAll(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The source's own `<`, escaped before the markdown was read, given back (for code). */
function unescapeSource(text: string): string {
  return text.replace(/&lt;/g, "<");
}

/** A URL the preview may link to: http, https or mailto, after decoding what marked kept. */
function safeHref(raw: string, schemes: RegExp): string | undefined {
  const href = unescapeSource(raw)
    .replace(/&amp;/g, "&")
    .replace(/[\t\n\r]/g, "")
    .replace(/^[^\x21-\uffff]+|[^\x21-\uffff]+$/g, "");
  if (!schemes.test(href)) return undefined;
  try {
    return new URL(href).href;
  } catch {
    return undefined;
  }
}

const LINK_SCHEMES = /^(?:https?:\/\/|mailto:)/i;
const IMAGE_SCHEMES = /^https:\/\//i;

// Characters that change what is seen without being seen: shown by code point.
const INVISIBLE =
  /\u034F|[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;
const INVISIBLE_MARK = /^\u27E6U\+([0-9A-F]{4,5})\u27E7/;
const MARKER_LINE = /^\[airlock: [^\n]*\]$/;
const REDACTED = /^\[REDACTED:([a-z0-9_.-]{1,64})\]/;

function createMarked(options: PreviewOptions): Marked {
  return new Marked({
    gfm: true,
    breaks: false,
    async: false,
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag) {
        // Cannot happen (no `<` reaches marked), and if it did: text, never markup.
        return escapeAll(unescapeSource(text));
      },
      text(token: Tokens.Text | Tokens.Escape) {
        if ("tokens" in token && token.tokens) return this.parser.parseInline(token.tokens);
        return escapeText(token.text);
      },
      code({ text }: Tokens.Code) {
        return `<pre class="airlock-code"><code>${escapeAll(unescapeSource(text))}</code></pre>\n`;
      },
      codespan({ text }: Tokens.Codespan) {
        return `<code>${escapeAll(unescapeSource(text))}</code>`;
      },
      checkbox({ checked }: Tokens.Checkbox) {
        return checked ? "[x] " : "[ ] ";
      },
      heading({ tokens, depth }: Tokens.Heading) {
        const level = Math.min(6, Math.max(1, depth));
        return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
      },
      link({ href, tokens, autolink }: Tokens.Link) {
        const label = this.parser.parseInline(tokens);
        // A bare URL that ran into markup (`…x.js"></script>`) is text, not a link: the `<`
        // that would have ended it was escaped before marked read it.
        if (autolink && (href.includes("&lt;") || href.includes('"'))) return label;
        const url = safeHref(href, LINK_SCHEMES);
        if (url === undefined) return label;
        return `<a href="${escapeAll(url)}" rel="noopener noreferrer nofollow ugc">${label}</a>`;
      },
      image({ href, text }: Tokens.Image) {
        const alt = escapeText(text);
        const url = options.images ? safeHref(href, IMAGE_SCHEMES) : undefined;
        if (url === undefined) return `<span class="airlock-image">[image: ${alt}]</span>`;
        return `<img src="${escapeAll(url)}" alt="${alt}" referrerpolicy="no-referrer">`;
      },
    },
    extensions: [
      {
        // A marker line (`[airlock: lines 121–49,880 omitted]`) is its own element.
        name: "airlockMarker",
        level: "block",
        start: (src: string) => src.match(/^\[airlock: /m)?.index,
        tokenizer(src: string) {
          const line = /^[^\n]*(?:\n|$)/.exec(src)?.[0] ?? "";
          if (!MARKER_LINE.test(line.trim())) return undefined;
          return { type: "airlockMarker", raw: line, text: line.trim().slice(10, -1) };
        },
        renderer(token: Tokens.Generic) {
          return `<div class="airlock-marker">${escapeText(String(token.text))}</div>\n`;
        },
      },
      {
        name: "airlockRedacted",
        level: "inline",
        start: (src: string) => src.indexOf("[REDACTED:"),
        tokenizer(src: string) {
          const m = REDACTED.exec(src);
          if (m === null) return undefined;
          return { type: "airlockRedacted", raw: m[0], rule: m[1] };
        },
        renderer(token: Tokens.Generic) {
          return `<span class="airlock-redacted">redacted: ${escapeText(String(token.rule))}</span>`;
        },
      },
      {
        name: "airlockInvisible",
        level: "inline",
        start: (src: string) => src.indexOf("\u27E6U+"),
        tokenizer(src: string) {
          const m = INVISIBLE_MARK.exec(src);
          if (m === null) return undefined;
          return { type: "airlockInvisible", raw: m[0], code: m[1] };
        },
        renderer(token: Tokens.Generic) {
          return `<span class="airlock-invisible">U+${escapeText(String(token.code))}</span>`;
        },
      },
    ],
  });
}

const FENCE_OPEN =
  /^<untrusted-data source="tool:([A-Za-z0-9_.:/@-]{1,64})" boundary="([0-9a-f]{16})">$/;

/**
 * Renders a shaped result (or any text) as safe HTML for a UI.
 *
 * @example
 * container.innerHTML = renderPreview(shaped); // or toTrustedPreview(renderPreview(shaped))
 */
export function renderPreview(input: Shaped | string, options: PreviewOptions = {}): string {
  const shaped = typeof input === "string" ? undefined : input;
  let text = typeof input === "string" ? input : input.text;
  if (typeof text !== "string") text = String(text);
  // The fence becomes a header (tool and status); its lines are not content.
  let tool: string | undefined;
  const lines = text.split("\n");
  const open = FENCE_OPEN.exec(lines[0] ?? "");
  if (
    open &&
    lines.length >= 2 &&
    lines[lines.length - 1] === `</untrusted-data boundary="${open[2]}">`
  ) {
    tool = open[1];
    text = lines.slice(1, -1).join("\n");
  }
  const source = text
    .replace(/</g, "&lt;")
    .replace(
      INVISIBLE,
      (c) =>
        `\u27E6U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}\u27E7`,
    );
  const body = createMarked(options).parse(source, { async: false }) as string;
  const header =
    tool !== undefined || shaped !== undefined
      ? `<div class="airlock-header">${tool !== undefined ? `<span class="airlock-tool">${escapeAll(tool)}</span>` : ""}${
          shaped
            ? `<span class="airlock-status airlock-status-${statusClass(shaped.status)}">${statusClass(shaped.status)}</span>`
            : ""
        }${tool !== undefined ? '<span class="airlock-fence">untrusted data</span>' : ""}</div>\n`
      : "";
  const html = `<div class="airlock-preview">\n${header}<div class="airlock-body">\n${body}</div>\n</div>\n`;
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
