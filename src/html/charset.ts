/**
 * Which encoding an HTML document is in: a byte-order mark first, then the charset of the
 * declared content type, then a `<meta charset>` or `<meta http-equiv="Content-Type">` in the
 * first bytes, else UTF-8. The label must be one the runtime's `TextDecoder` knows; an unknown
 * label falls back to UTF-8 rather than failing.
 */

/** Bytes in which a `<meta>` charset declaration is looked for (the HTML standard says 1024). */
export const PRESCAN_BYTES = 4096;

function supported(label: string): string | undefined {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    return undefined;
  }
}

/**
 * @example
 * detectCharset(bytes, "text/html; charset=ISO-8859-1"); // "windows-1252" (the WHATWG name)
 */
export function detectCharset(head: Uint8Array, contentType?: string): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf-8";
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  const declared = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (declared !== undefined) {
    const known = supported(declared);
    if (known !== undefined) return known;
  }
  // ASCII-compatible prescan: the meta tags are ASCII in every encoding a page may declare.
  let text = "";
  const n = Math.min(head.byteLength, PRESCAN_BYTES);
  for (let i = 0; i < n; i++) text += String.fromCharCode(head[i] as number);
  const meta =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(text)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(text)?.[1];
  if (meta !== undefined) {
    const known = supported(meta);
    // A page that says UTF-16 in a meta tag is read as UTF-8 (the standard's rule: the bytes
    // that spelled the tag were ASCII).
    if (known !== undefined && !known.startsWith("utf-16")) return known;
  }
  return "utf-8";
}
