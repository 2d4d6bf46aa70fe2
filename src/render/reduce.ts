/**
 * Making a value smaller for display without cutting it mid-value: strings shortened in their
 * middle with an in-value marker, containers cut to a number of items with a marker saying how
 * many more, and, last, a record's outline.
 */
import { type JsonValue, setKey } from "../decode/json.js";

type JsonObject = { [key: string]: JsonValue };
type Container = JsonValue[] | JsonObject;

function put(container: Container, key: string | number, value: JsonValue): void {
  if (Array.isArray(container)) container[key as number] = value;
  else setKey(container, key as string, value);
}

/** Markers a shortened string carries inside it. */
export function valueCutMarker(chars: number): string {
  return `[airlock: ${chars.toLocaleString("en-US")} chars omitted from this value]`;
}

/** Strings shortened for display, and the characters they lost. */
export interface ShortenStats {
  strings: number;
  chars: number;
}

/**
 * A copy of `value` for display, each string longer than `maxChars` cut in its middle with an
 * in-value marker (never inside a surrogate pair or a redaction marker). The stored record is
 * untouched.
 *
 * @example
 * shorten({ body: "x".repeat(5000) }, 200).body; // "xxx…[airlock: 4,800 chars omitted from this value]…xxx"
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
      put(target, k, copy);
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

/**
 * A copy with strings over `maxChars` shortened and containers cut to `maxItems` entries (markers
 * say how many), as compact JSON.
 *
 * @example
 * reduceValue({ list: [1, 2, 3] }, 100, 2).text; // {"list":[1,2,"[airlock: 1 more items omitted]"]}
 */
export function reduceValue(
  value: JsonValue,
  maxChars: number,
  maxItems: number,
): { text: string; items: number; strings: number } {
  const stats: ShortenStats = { strings: 0, chars: 0 };
  let items = 0;
  const limit = (v: JsonValue, depth: number): JsonValue => {
    if (v === null || typeof v !== "object") return v;
    if (depth > 64) return "[airlock: nesting omitted]";
    if (Array.isArray(v)) {
      const out = v.slice(0, maxItems).map((x) => limit(x, depth + 1));
      if (v.length > maxItems) {
        items += v.length - maxItems;
        out.push(`[airlock: ${count(v.length - maxItems)} more items omitted]`);
      }
      return out;
    }
    const keys = Object.keys(v);
    const out: { [k: string]: JsonValue } = {};
    for (const k of keys.slice(0, maxItems)) {
      setKey(out, k, limit(v[k] as JsonValue, depth + 1));
    }
    if (keys.length > maxItems) {
      items += keys.length - maxItems;
      out["[airlock]"] = `${count(keys.length - maxItems)} more keys omitted`;
    }
    return out;
  };
  const short = shorten(limit(value, 0), maxChars, stats);
  return {
    text: JSON.stringify(short),
    items,
    strings: stats.strings,
  };
}

const count = (x: number) => x.toLocaleString("en-US");

/**
 * Smaller and smaller forms of one record, as JSON text, for when it does not fit whole: shorter
 * strings, fewer items, and last its outline (keys and types) under a marker key.
 *
 * @example
 * shrinkSteps(record)(0); // the record with strings of at most 200 characters
 */
export function shrinkSteps(
  value: JsonValue,
  describe: (v: JsonValue) => string,
): (step: number) => string | undefined {
  const ladder: ReadonlyArray<readonly [number, number]> = [
    [200, 20],
    [80, 8],
    [40, 3],
    [24, 1],
  ];
  return (step) => {
    const rung = ladder[step];
    if (rung !== undefined) return reduceValue(value, rung[0], rung[1]).text;
    if (step === ladder.length)
      return JSON.stringify({ "[airlock: record too large, outline]": describe(value) });
    return undefined;
  };
}
