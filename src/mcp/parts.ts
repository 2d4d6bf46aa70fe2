/**
 * The parts of one `CallToolResult`, each read the way its type asks: text and embedded
 * resources through the normal pipeline (a resource by its `mimeType`, JSON text as records, a
 * blob decoded as it streams), images and audio kept whole within the image budget or named by a
 * placeholder (type, bytes, SHA-256, never their data), resource links kept and named. A part
 * for the user alone (`annotations.audience` without `"assistant"`) is left as it is.
 */
import {
  base64Bytes,
  forTheModel,
  linkLine,
  type McpContent,
  type McpEmbeddedResource,
  type McpMediaContent,
  type McpResourceLink,
  mimeOf,
} from "../adapters/content.js";
import { unfence } from "../fence/fence.js";
import type { ShapeInput } from "../options/compile.js";
import { binaryMarker, noteMarker, toolErrorMarker } from "../pipeline/markers.js";
import type { CompiledShaper, Prepared } from "../shape.js";
import { base64Chunks, digestBase64 } from "./base64.js";
import type { PartRead } from "./snapshot.js";

/** Why a part is not shown as it came. */
export type Why =
  | "maxImageBytes"
  | "images"
  | "audio"
  | "maxTokens"
  | "unknown type"
  /** A getter threw, or a field the part needs is missing (a resource with no resource). */
  | "unreadable";

/** Airlock's own line in place of a part, with what it says of the part. */
export interface Fixed {
  readonly out: McpContent;
  readonly text: string;
  readonly mime?: string;
  readonly bytes?: number;
  readonly sha256?: string;
  readonly why?: Why;
}

/** Every item names its part's type as airlock may write it (`typeName`: never a tool's sentence). */
export type Item = { readonly type: string } & (
  | {
      readonly kind: "user";
      readonly index: number;
      readonly part: McpContent;
      /** The part as the tool sent it: a part for the user alone is left as it came. */
      readonly raw: object;
    }
  /** A part past what any budget could show (one `MIN_MAX_TOKENS` share each): never read. */
  | { readonly kind: "left"; readonly index: number }
  | {
      readonly kind: "shaped";
      readonly index: number;
      readonly part: McpContent;
      readonly shaper: CompiledShaper;
      readonly prepared: Prepared;
      readonly wrap: (text: string) => McpContent;
      /** Airlock's records view of `structuredContent`, not a part the tool sent. */
      readonly view?: true;
    }
  | {
      readonly kind: "media";
      readonly index: number;
      readonly part: McpMediaContent;
      readonly bytes: number;
    }
  | ({ readonly kind: "fixed"; readonly index: number } & Fixed)
);

export interface PartsOptions {
  /** The compiled shaper for a part of this media type (the result's own, without one). */
  readonly shaperFor: (contentType: string | undefined) => CompiledShaper;
  readonly maxImageBytes: number;
  readonly images: boolean;
  readonly audio: boolean;
  readonly hashLimit: number;
  /** The run's cleaner for tool strings (names, addresses) that are not shaped as text. */
  readonly clean: (text: string, max?: number) => string;
  /** Parts with text (shaped, or named by a line) read at most; the rest are left out unread. */
  readonly maxCostly: number;
  /** The result is the tool's error (`isError`): its parts are shaped as one. */
  readonly isError: boolean;
}

/**
 * A part that is exactly one airlock fence (a shaping server's output) is shaped by its body:
 * fenced once, by this side, never a fence inside a fence. Its body is still tool text: it is
 * redacted, cleaned, cut to this side's budget and fenced again like any other.
 */
function unwrapped(text: string, isError: boolean): string {
  const body = unfence(text);
  if (body === undefined) return text;
  // The server's own first line of an error result: this side writes it again.
  const first = `${toolErrorMarker()}\n`;
  return isError && body.startsWith(first) ? body.slice(first.length) : body;
}

function withAnnotations<T extends McpContent>(out: T, from: McpContent): T {
  return from.annotations !== undefined ? { ...out, annotations: from.annotations } : out;
}

async function placeholder(part: McpMediaContent, why: Why, o: PartsOptions): Promise<Fixed> {
  const mime = mimeOf(part.mimeType);
  const digest = await digestBase64(part.data, o.hashLimit);
  const text = digest.valid
    ? binaryMarker(mime, digest.bytes, true, digest.sha256)
    : noteMarker(`binary content not shown: ${mime}; its data is not base64`);
  return {
    out: withAnnotations({ type: "text", text }, part),
    text,
    mime,
    bytes: digest.bytes,
    ...(digest.sha256 ? { sha256: digest.sha256 } : {}),
    why,
  };
}

/**
 * A link is kept as a `resource_link` (its strings cleaned and bounded); the model reads it as
 * `linkLine` writes it: airlock's marker, and the tool's name and address in a fence.
 */
function link(part: McpResourceLink, o: PartsOptions): Fixed {
  const cleaned: McpResourceLink = {
    type: "resource_link",
    uri: o.clean(part.uri, 2000),
    name: o.clean(part.name, 200),
    ...(typeof part.title === "string" ? { title: o.clean(part.title, 200) } : {}),
    ...(typeof part.description === "string"
      ? { description: o.clean(part.description, 500) }
      : {}),
    ...(part.mimeType !== undefined ? { mimeType: mimeOf(part.mimeType) } : {}),
    ...(typeof part.size === "number" && Number.isFinite(part.size) ? { size: part.size } : {}),
  };
  return { out: withAnnotations(cleaned, part), text: linkLine(cleaned) };
}

/** The line in place of a part that could not be read: where it was and why, no tool text. */
function unreadableLine(index: number, type: string, why: string): string {
  const of = type === "unknown" ? "" : ` (${type})`;
  return noteMarker(`content part ${index}${of} could not be read: ${why}`);
}

/** The line in place of a part of a type airlock does not know: its name only when it is safe. */
function unknownLine(type: string): string {
  return noteMarker(
    type === "unknown"
      ? "a content part of an unknown type not shown"
      : `a content part of type "${type}" not shown`,
  );
}

function fixedLine(index: number, type: string, text: string, why: Why): Item {
  return { kind: "fixed", index, type, out: { type: "text", text }, text, why };
}

/**
 * Reads every part: pipeline parts are prepared (read, kept and stored, before any budget is
 * spent), the others decided. Parts come as `readResult` read them: plain values, or named as
 * unreadable or of an unknown type.
 *
 * @example
 * const items = await readParts(readResult(result).parts, options);
 */
export async function readParts(parts: readonly PartRead[], o: PartsOptions): Promise<Item[]> {
  const items: Item[] = [];
  let imageBytes = o.maxImageBytes;
  let costly = 0;
  for (const read of parts) {
    const index = read.index;
    if (read.kind !== "part") {
      if (++costly > o.maxCostly) items.push({ kind: "left", index, type: read.type });
      else if (read.kind === "unknown")
        items.push(fixedLine(index, read.type, unknownLine(read.type), "unknown type"));
      else
        items.push(
          fixedLine(index, read.type, unreadableLine(index, read.type, read.why), "unreadable"),
        );
      continue;
    }
    const part = read.part;
    const type = part.type;
    if (!forTheModel(part)) {
      items.push({ kind: "user", index, type, part, raw: read.raw });
      continue;
    }
    const media = (part.type === "image" || part.type === "audio") && part;
    const whole =
      media &&
      (media.type === "image" ? o.images : o.audio) &&
      base64Bytes(media.data) <= imageBytes;
    if (!whole && ++costly > o.maxCostly) {
      items.push({ kind: "left", index, type });
      continue;
    }
    const shaped = (
      input: ShapeInput,
      contentType: string | undefined,
      wrap: (text: string) => McpContent,
    ) => {
      const shaper = o.shaperFor(contentType);
      return shaper
        .prepare(input)
        .then((prepared): Item => ({ kind: "shaped", index, type, part, shaper, prepared, wrap }));
    };
    switch (part.type) {
      case "text":
        items.push(
          await shaped(unwrapped(part.text, o.isError), undefined, (text) =>
            withAnnotations({ type: "text", text }, part),
          ),
        );
        break;
      case "resource":
        items.push(await resource(part, shaped, o));
        break;
      case "resource_link":
        items.push({ kind: "fixed", index, type, ...link(part, o) });
        break;
      default: {
        const allowed = part.type === "image" ? o.images : o.audio;
        const bytes = base64Bytes(part.data);
        if (allowed && bytes <= imageBytes) {
          imageBytes -= bytes;
          items.push({ kind: "media", index, type, part, bytes });
        } else {
          const why: Why = allowed ? "maxImageBytes" : part.type === "image" ? "images" : "audio";
          items.push({ kind: "fixed", index, type, ...(await placeholder(part, why, o)) });
        }
      }
    }
  }
  return items;
}

function resource(
  part: McpEmbeddedResource,
  shaped: (
    input: ShapeInput,
    contentType: string | undefined,
    wrap: (text: string) => McpContent,
  ) => Promise<Item>,
  o: PartsOptions,
): Promise<Item> {
  const r = part.resource as { uri: string; mimeType?: unknown; text?: unknown; blob?: unknown };
  const uri = o.clean(r.uri, 2000);
  // The shaped text is airlock's (fenced, markers): plain text, whatever the resource was.
  const wrap = (text: string): McpContent =>
    withAnnotations({ type: "resource", resource: { uri, mimeType: "text/plain", text } }, part);
  const mime = r.mimeType !== undefined ? mimeOf(r.mimeType) : undefined;
  if (typeof r.text === "string") return shaped(unwrapped(r.text, o.isError), mime, wrap);
  // Without a type the bytes say what they are (the pipeline sniffs them).
  return shaped(base64Chunks(String(r.blob)), mime, wrap);
}
