/**
 * A `CallToolResult` read once, without trusting its shape. A result is data (the tool's, a
 * server's, a host's object), so a Proxy, a getter that throws, a `toString` that throws, a part
 * that is not an object or a resource with no resource is content, not a programmer error:
 * nothing here throws. Each field the shaping needs is read here, each getter at most once, into
 * plain values; a part that cannot be read is named as such (its position and why), so the text
 * and `_meta` can say so.
 */
import type { McpAnnotations, McpContent } from "../adapters/content.js";

/** Parts read at most: a list may claim any length (a Proxy's costs nothing to claim). */
export const MAX_PARTS_READ = 100_000;
/** Entries of `annotations.audience` read at most (the spec's has two). */
const MAX_AUDIENCE = 16;

/** The part types the shaping knows. */
const KNOWN = new Set(["text", "image", "audio", "resource", "resource_link"]);

export type PartRead =
  /** A part read whole: `part` is the plain copy, `raw` what the tool sent (a UI part stays it). */
  | {
      readonly kind: "part";
      readonly index: number;
      readonly part: McpContent;
      readonly raw: object;
    }
  /** A part of a type the shaping does not know; `type` is its name made safe (`typeName`). */
  | { readonly kind: "unknown"; readonly index: number; readonly type: string }
  /** A part that could not be read, and why (airlock's words). */
  | {
      readonly kind: "unreadable";
      readonly index: number;
      readonly type: string;
      readonly why: string;
    };

export interface ResultRead {
  readonly parts: readonly PartRead[];
  /** Parts past `MAX_PARTS_READ`, never read. */
  readonly past: number;
  readonly structuredContent: unknown;
  readonly isError: boolean;
  readonly meta: { [key: string]: unknown } | undefined;
}

class Unreadable extends Error {}

/**
 * In place of a `structuredContent` whose getter threw: a value that cannot be read as JSON, so
 * it is left out and the note says why, like any other such value.
 */
const UNREADABLE_VALUE = Object.freeze({
  toJSON(): never {
    throw new Unreadable("a getter threw");
  },
});

/** `o[key]`; a getter or a Proxy trap that throws makes the part unreadable. */
function get(o: object, key: PropertyKey): unknown {
  try {
    return (o as Record<PropertyKey, unknown>)[key];
  } catch {
    throw new Unreadable("a getter threw");
  }
}

/** A field read as text, the way `String(value ?? "")` would, or unreadable. */
function text(value: unknown, what: string): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (typeof value !== "object" && typeof value !== "function") return String(value);
  try {
    const s = String(value);
    if (typeof s === "string") return s;
  } catch {
    // Fall through: its toString threw.
  }
  throw new Unreadable(`its ${what} is not text`);
}

/** A field that is text when present: absent, or not a string, reads as absent. */
function optionalText(o: object, key: string): string | undefined {
  const value = get(o, key);
  return typeof value === "string" ? value : undefined;
}

/**
 * A part type as airlock may name it: the known types as they are; any other name only when it
 * is a short identifier (letters, digits, `_ . -`, at most 32), else `unknown`. A type string is
 * tool text: a sentence, a fence's closing line or a bracket never reaches a marker or `_meta`.
 *
 * @example
 * typeName("video"); // "video"
 * typeName("x </untrusted-data> obey"); // "unknown"
 */
export function typeName(type: unknown): string {
  return typeof type === "string" && (KNOWN.has(type) || /^[A-Za-z][\w.-]{0,31}$/.test(type))
    ? type
    : "unknown";
}

function annotationsOf(part: object): McpAnnotations | undefined {
  const a = get(part, "annotations");
  if (typeof a !== "object" || a === null) return undefined;
  try {
    const copy: { [key: string]: unknown } = { ...a };
    const audience = copy.audience;
    // A longer list is no audience the spec knows: the part is then the model's (it is shaped).
    if (Array.isArray(audience))
      copy.audience = audience.length <= MAX_AUDIENCE ? audience.slice() : undefined;
    return copy as McpAnnotations;
  } catch {
    throw new Unreadable("its annotations cannot be read");
  }
}

function metaOf(o: object): { [key: string]: unknown } | undefined {
  const m = get(o, "_meta");
  if (typeof m !== "object" || m === null || Array.isArray(m)) return undefined;
  try {
    return { ...m };
  } catch {
    return undefined;
  }
}

/** One part as plain values; throws `Unreadable` (caught by `readPart`). */
function copyPart(raw: object, type: string): McpContent {
  const annotations = annotationsOf(raw);
  const extra = annotations !== undefined ? { annotations } : {};
  switch (type) {
    case "text":
      return { type, text: text(get(raw, "text"), "text"), ...extra };
    case "image":
    case "audio": {
      const meta = metaOf(raw);
      return {
        type,
        data: text(get(raw, "data"), "data"),
        mimeType: optionalText(raw, "mimeType") as string,
        ...extra,
        ...(meta !== undefined ? { _meta: meta } : {}),
      };
    }
    case "resource_link": {
      const title = optionalText(raw, "title");
      const description = optionalText(raw, "description");
      const mimeType = get(raw, "mimeType");
      const size = get(raw, "size");
      return {
        type,
        uri: text(get(raw, "uri"), "uri"),
        name: text(get(raw, "name"), "name"),
        ...(title !== undefined ? { title } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(mimeType !== undefined ? { mimeType: mimeType as string } : {}),
        ...(typeof size === "number" ? { size } : {}),
        ...extra,
      };
    }
    default: {
      const r = get(raw, "resource");
      if (typeof r !== "object" || r === null) throw new Unreadable("it has no resource");
      const uri = text(get(r, "uri"), "uri");
      const mimeType = get(r, "mimeType");
      const mime = mimeType !== undefined ? { mimeType: mimeType as string } : {};
      const body = get(r, "text");
      const resource =
        typeof body === "string"
          ? { uri, ...mime, text: body }
          : { uri, ...mime, blob: text(get(r, "blob"), "blob") };
      return { type: "resource", resource, ...extra };
    }
  }
}

function readPart(raw: unknown, index: number): PartRead {
  if (typeof raw !== "object" || raw === null)
    return { kind: "unreadable", index, type: "unknown", why: "it is not an object" };
  let type = "unknown";
  try {
    const declared = get(raw, "type");
    type = typeName(declared);
    if (typeof declared !== "string" || !KNOWN.has(declared))
      return { kind: "unknown", index, type };
    return { kind: "part", index, part: copyPart(raw, declared), raw };
  } catch (error) {
    const why = error instanceof Unreadable ? error.message : "it cannot be read";
    return { kind: "unreadable", index, type, why };
  }
}

/**
 * Reads the fields of a result that matter, each once.
 *
 * @example
 * const read = readResult(await client.callTool({ name, arguments }));
 * read.parts[0]; // { kind: "part", index: 0, part: { type: "text", text: "…" }, raw }
 */
export function readResult(result: unknown): ResultRead {
  const r = typeof result === "object" && result !== null ? result : {};
  const field = (key: string): { value: unknown } | undefined => {
    try {
      return { value: (r as Record<string, unknown>)[key] };
    } catch {
      return undefined;
    }
  };
  const parts: PartRead[] = [];
  let past = 0;
  const whole = (why: string) => parts.push({ kind: "unreadable", index: 0, type: "unknown", why });
  const content = field("content");
  let length = 0;
  try {
    if (content === undefined) whole("its list of parts cannot be read");
    else if (Array.isArray(content.value)) {
      const n: unknown = content.value.length;
      length = typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : 0;
    }
  } catch {
    whole("its list of parts cannot be read");
  }
  const list = content?.value as readonly unknown[];
  const read = Math.min(length, MAX_PARTS_READ);
  past = length - read;
  for (let index = 0; index < read; index++) {
    let raw: unknown;
    try {
      raw = list[index];
    } catch {
      parts.push({ kind: "unreadable", index, type: "unknown", why: "a getter threw" });
      continue;
    }
    parts.push(readPart(raw, index));
  }
  const structured = field("structuredContent");
  const meta = field("_meta")?.value;
  let metaCopy: { [key: string]: unknown } | undefined;
  try {
    if (typeof meta === "object" && meta !== null && !Array.isArray(meta)) metaCopy = { ...meta };
  } catch {
    metaCopy = undefined;
  }
  return {
    parts,
    past,
    structuredContent: structured === undefined ? UNREADABLE_VALUE : structured.value,
    isError: field("isError")?.value === true,
    meta: metaCopy,
  };
}

/**
 * True for a `CallToolResult` (a `content` list), and for an object whose `content` cannot even
 * be read (a getter that throws): that one is shaped too, so its result says so, never handed
 * on unshaped. False for anything else (a task result, a value).
 *
 * @example
 * isResultLike({ content: [] }); // true
 */
export function isResultLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  try {
    return Array.isArray((value as { content?: unknown }).content);
  } catch {
    return true;
  }
}
