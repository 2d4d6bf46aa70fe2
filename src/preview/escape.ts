/**
 * Escaping and the characters the preview makes visible, shared by its two renderers. Every
 * piece of tool output reaches the page through one of these: it is never markup.
 */

const ENTITY = /&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/y;

/**
 * Escapes markdown text for an element's content or a quoted attribute; entity references are
 * kept (in markdown, `&amp;` means `&`).
 *
 * @example escapeText('a < b & "c" &amp; d'); // 'a &lt; b &amp; &quot;c&quot; &amp; d'
 */
export function escapeText(text: string): string {
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

/**
 * Escapes everything, entities included: for code and preformatted output, shown exactly.
 *
 * @example escapeAll("&amp; <b>"); // "&amp;amp; &lt;b&gt;"
 */
export function escapeAll(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * Characters that change what is seen without being seen (bidi controls, zero-width and tag
 * characters, fillers): the preview shows them by code point, as an element of their own.
 */
export const INVISIBLE =
  /\u034F|[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/gu;

/**
 * An invisible character's badge: `U+202E`.
 *
 * @example invisibleBadge("202E"); // '<span class="airlock-invisible">U+202E</span>'
 */
export function invisibleBadge(code: string): string {
  return `<span class="airlock-invisible">U+${escapeAll(code)}</span>`;
}

/** The code point of `c` as four or five upper-case hex digits. */
export function codePoint(c: string): string {
  return (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0");
}

/** The redaction a `[REDACTED:rule]` placeholder stands for. */
export const REDACTED = /\[REDACTED:([a-z0-9_.-]{1,64})\]/;

/**
 * A redaction badge: `redacted: github_token`.
 *
 * @example redactedBadge("jwt"); // '<span class="airlock-redacted">redacted: jwt</span>'
 */
export function redactedBadge(rule: string): string {
  return `<span class="airlock-redacted">redacted: ${escapeAll(rule)}</span>`;
}

/** A marker line as shape() writes it: `[airlock: omitted lines 13-3985]`. */
export const MARKER_LINE = /^\[airlock: [^\n]*\]$/;
