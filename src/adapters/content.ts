/**
 * MCP content as the adapters read it: the parts of a `CallToolResult` (the SDK's types, written
 * out so the core needs no SDK), which of them the model may see, and the one line each part
 * that cannot travel in a provider's message is written as. A part whose `annotations.audience`
 * leaves out `"assistant"` is for the person watching (a UI), never for the model.
 */
import { inert, inertFence } from "../fence/fence.js";
import { binaryMarker, resourceLinkMarker } from "../pipeline/markers.js";

export interface McpAnnotations {
  readonly audience?: Array<"user" | "assistant">;
  readonly priority?: number;
  readonly lastModified?: string;
}

type Meta = { readonly [key: string]: unknown };

interface Part {
  readonly annotations?: McpAnnotations;
  readonly _meta?: Meta;
}

export interface McpTextContent extends Part {
  readonly type: "text";
  readonly text: string;
}

/** An image or audio clip: base64 `data` of type `mimeType`. */
export interface McpMediaContent extends Part {
  readonly type: "image" | "audio";
  readonly data: string;
  readonly mimeType: string;
}

export interface McpResourceLink extends Part {
  readonly type: "resource_link";
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

export interface McpEmbeddedResource extends Part {
  readonly type: "resource";
  readonly resource:
    | {
        readonly uri: string;
        readonly mimeType?: string;
        readonly text: string;
        readonly _meta?: Meta;
      }
    | {
        readonly uri: string;
        readonly mimeType?: string;
        readonly blob: string;
        readonly _meta?: Meta;
      };
}

export type McpContent = McpTextContent | McpMediaContent | McpResourceLink | McpEmbeddedResource;

/** An MCP `CallToolResult`, as the SDK parses it. */
export interface McpCallToolResult {
  [key: string]: unknown;
  content: McpContent[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: { [key: string]: unknown };
}

/**
 * True when the model may see the part: it has no audience, or its audience names the assistant.
 *
 * @example
 * forTheModel({ type: "text", text: "shown in the UI", annotations: { audience: ["user"] } }); // false
 */
export function forTheModel(part: McpContent): boolean {
  const audience: unknown = part?.annotations?.audience;
  return !Array.isArray(audience) || audience.includes("assistant");
}

/** True for a `CallToolResult` (a `content` list), false for a shaped result. */
export function isCallToolResult(value: unknown): value is McpCallToolResult {
  return (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

/**
 * Bytes that base64 text stands for (ASCII whitespace ignored, as `atob` ignores it), without
 * decoding it.
 *
 * @example
 * base64Bytes("aGVsbG8="); // 5
 */
export function base64Bytes(data: string): number {
  let length = data.length;
  if (/\s/.test(data)) length = data.replace(/[\t\n\f\r ]+/g, "").length;
  let pad = 0;
  if (length > 0 && data.trimEnd().endsWith("==")) pad = 2;
  else if (length > 0 && data.trimEnd().endsWith("=")) pad = 1;
  return Math.max(0, Math.floor((length * 3) / 4) - pad);
}

/** A media type as the tool declared it, reduced to what a media type may hold. */
export function mimeOf(value: unknown, fallback = "application/octet-stream"): string {
  if (typeof value !== "string") return fallback;
  const m = /^\s*([A-Za-z0-9][\w.+-]{0,63}\/[A-Za-z0-9][\w.+-]{0,63})/.exec(value);
  return m ? (m[1] as string).toLowerCase() : fallback;
}

/**
 * The line a provider's message gets in place of a part it cannot carry (audio, an image where
 * only text travels, a blob resource): what it was and its size, never its data.
 *
 * @example
 * mediaLine({ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }); // "[airlock: binary content not shown: audio/wav, 4 bytes]"
 */
export function mediaLine(part: McpMediaContent | McpEmbeddedResource): string {
  if (part.type === "resource") {
    const r = part.resource as { mimeType?: string; blob?: string };
    return binaryMarker(mimeOf(r.mimeType), base64Bytes(String(r.blob ?? "")), true);
  }
  return binaryMarker(mimeOf(part.mimeType), base64Bytes(String(part.data ?? "")), true);
}

/** Characters of a link's name and of its address written at most. */
const LINK_NAME_CHARS = 120;
const LINK_URI_CHARS = 400;

/**
 * A link's address as one word that cannot hold a fence: white space, quotes, `<`, `>` and the
 * look-alikes of `<` percent-encoded, and an "untrusted" in it spelt with its first letter
 * percent-encoded (`%75ntrusted`: the same address to a URI parser).
 */
function linkAddress(uri: string): string {
  return uri
    .slice(0, LINK_URI_CHARS)
    .replace(/\s+/g, "%20")
    .replace(/["<>\u2039\u2329\u227A\u27E8\u3008\uFE64\uFF1C]/g, (c) => encodeURIComponent(c))
    .replace(
      /untrusted/gi,
      (w) => `%${(w.charCodeAt(0) as number).toString(16).toUpperCase()}${w.slice(1)}`,
    );
}

/**
 * A resource link as text: airlock's marker (with the media type), then the link's name and
 * address in a fence. Both are the tool's strings, so they never stand in airlock's own words:
 * each is one line and bounded, and made so that it cannot close the fence (`inert`), which
 * then needs no boundary (the same text every time, no hash).
 *
 * @example
 * linkLine({ type: "resource_link", uri: "file:///logs/app.log", name: "app.log", mimeType: "text/plain" });
 * // '[airlock: resource link (text/plain)]\n<untrusted-data>\n"app.log" file:///logs/app.log\n</untrusted-data>'
 */
export function linkLine(part: McpResourceLink): string {
  const mime = part.mimeType !== undefined ? mimeOf(part.mimeType) : undefined;
  const name = inert(String(part.title ?? part.name ?? ""))
    .replace(/[\s\u2028\u2029]+/g, " ")
    .slice(0, LINK_NAME_CHARS)
    .trim()
    .replace(/"/g, "'");
  return `${resourceLinkMarker(mime)}\n${inertFence(`"${name}" ${linkAddress(String(part.uri ?? ""))}`)}`;
}

/** What the model reads of a part in a text-only message. */
export function textOf(part: McpContent): string {
  switch (part.type) {
    case "text":
      return String(part.text);
    case "resource_link":
      return linkLine(part);
    case "resource":
      return "text" in part.resource ? String(part.resource.text) : mediaLine(part);
    default:
      return mediaLine(part);
  }
}
