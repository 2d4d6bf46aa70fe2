/**
 * The display copy of a record: each string longer than the cap cut in its middle with an
 * in-value marker. It bounds what the keeper holds; the store keeps the record whole.
 */
import { type JsonValue, setKey } from "../decode/json.js";
import { valueCutMarker } from "../pipeline/markers.js";

type JsonObject = { [key: string]: JsonValue };
type Container = JsonValue[] | JsonObject;

function put(container: Container, key: string | number, value: JsonValue): void {
  if (Array.isArray(container)) container[key as number] = value;
  else setKey(container, key as string, value);
}

/** Strings shortened for display, and the characters they lost. */
export interface ShortenStats {
  strings: number;
  chars: number;
}

/**
 * A copy of `value` for display, each string (and object key) longer than `maxChars` cut in its
 * middle with an in-value marker (never inside a surrogate pair or a redaction marker). The stored record is
 * untouched.
 *
 * @example
 * shorten({ body: "x".repeat(5000) }, 200).body; // "xxx…[airlock: 4800 chars omitted from this value]…xxx"
 */
export function shorten(value: JsonValue, maxChars: number, stats?: ShortenStats): JsonValue {
  if (typeof value === "string") return shortenString(value, maxChars, stats);
  if (value === null || typeof value !== "object") return value;
  const root: JsonValue[] = [value];
  const work: Array<[Container, Container]> = [[root, [null]]];
  const out = work[0]?.[1] as JsonValue[];
  while (work.length > 0) {
    const [source, target] = work.pop() as [Container, Container];
    const keys = Array.isArray(source) ? source.map((_, i) => i) : Object.keys(source);
    for (const k of keys) {
      const v = (source as Record<string | number, JsonValue>)[k] as JsonValue;
      let copy: JsonValue;
      if (typeof v === "string") copy = shortenString(v, maxChars, stats);
      else if (v === null || typeof v !== "object") copy = v;
      else {
        copy = Array.isArray(v) ? [] : {};
        work.push([v, copy]);
      }
      // A key is cut as a value is (a key of 100,000 letters cost the tokenizer seconds).
      const key =
        typeof k === "string" && k.length > maxChars ? shortenString(k, maxChars, stats) : k;
      put(target, key, copy);
    }
  }
  return out[0] as JsonValue;
}

function shortenString(text: string, maxChars: number, stats?: ShortenStats): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(8, maxChars - 48);
  let head = Math.ceil(keep * 0.7);
  let tail = keep - head;
  // Never split a surrogate pair or a redaction marker.
  if (/[\uD800-\uDBFF]/.test(text.charAt(head - 1))) head--;
  if (/[\uDC00-\uDFFF]/.test(text.charAt(text.length - tail))) tail--;
  const open = text.lastIndexOf("[REDACTED:", head);
  if (open !== -1 && text.indexOf("]", open) >= head) head = open;
  const closeAt = text.indexOf("]", text.length - tail);
  const markerStart = text.lastIndexOf("[REDACTED:", text.length - tail);
  if (
    markerStart !== -1 &&
    closeAt !== -1 &&
    markerStart < text.length - tail &&
    closeAt >= text.length - tail
  ) {
    tail = text.length - closeAt - 1;
  }
  const omitted = text.length - head - tail;
  if (stats) {
    stats.strings++;
    stats.chars += omitted;
  }
  return `${text.slice(0, head)}…${valueCutMarker(omitted)}…${tail > 0 ? text.slice(text.length - tail) : ""}`;
}
