/**
 * Making a value smaller for display without cutting it mid-value: strings shortened in their
 * middle with an in-value marker, containers cut to a number of items with a marker saying how
 * many more, and, last, a record's outline.
 */
import { type JsonValue, setKey } from "../decode/json.js";
import { type ShortenStats, shorten } from "../keep/shorten.js";
import { itemsMarker, keysNote, NESTING_MARKER, OUTLINE_KEY } from "../pipeline/markers.js";

export { type ShortenStats, shorten };

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
    if (depth > 64) return NESTING_MARKER;
    if (Array.isArray(v)) {
      const out = v.slice(0, maxItems).map((x) => limit(x, depth + 1));
      if (v.length > maxItems) {
        items += v.length - maxItems;
        out.push(itemsMarker(v.length - maxItems));
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
      out["[airlock]"] = keysNote(keys.length - maxItems);
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
    if (step === ladder.length) return JSON.stringify({ [OUTLINE_KEY]: describe(value) });
    return undefined;
  };
}
