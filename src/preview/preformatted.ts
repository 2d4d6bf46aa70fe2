/**
 * The preformatted renderer of the preview, for logs, command output, records and CSV: the text
 * as it is, in one `<pre>` (line breaks kept, nothing read as markdown or markup), with airlock's
 * marks as inline elements inside it: marker lines, the in-line markers of a shortened line,
 * redaction badges and invisible characters by code point.
 */
import {
  codePoint,
  escapeAll,
  INVISIBLE,
  invisibleBadge,
  MARKER_LINE,
  REDACTED,
  redactedBadge,
} from "./escape.js";

/** What airlock writes inside a line, and what it makes visible: each one an element. */
const INLINE = new RegExp(
  `\\[airlock: (\\d+ chars (?:omitted from this line|folded))\\]|${REDACTED.source}|(${INVISIBLE.source})`,
  "gu",
);

/**
 * The body of a preformatted preview: one `<pre>`, a line of output a line of the block.
 *
 * @example renderPreformatted("a\n[airlock: omitted lines 2-9]\nb");
 * // '<pre class="airlock-pre">a\n<span class="airlock-marker">omitted lines 2-9</span>\nb</pre>\n'
 */
export function renderPreformatted(text: string): string {
  const lines = text.split("\n");
  let body = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (i > 0) body += "\n";
    body += MARKER_LINE.test(line)
      ? `<span class="airlock-marker">${escapeAll(line.slice(10, -1))}</span>`
      : renderLine(line);
  }
  // The HTML parser drops a line feed right after `<pre>`, and a serializer (DOMPurify's pass)
  // does not put it back: an empty element in front keeps a first blank line a line.
  const lead = body.startsWith("\n") ? '<span class="airlock-line"></span>' : "";
  return `<pre class="airlock-pre">${lead}${body}</pre>\n`;
}

function renderLine(line: string): string {
  let out = "";
  let at = 0;
  for (const m of line.matchAll(INLINE)) {
    out += escapeAll(line.slice(at, m.index));
    if (m[1] !== undefined) out += `<span class="airlock-marker">${escapeAll(m[1])}</span>`;
    else if (m[2] !== undefined) out += redactedBadge(m[2]);
    else out += invisibleBadge(codePoint(m[3] as string));
    at = m.index + m[0].length;
  }
  return out + escapeAll(line.slice(at));
}
