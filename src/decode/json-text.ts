/** Small readings of raw JSON text for the record splitter (`json-array.ts`). */
import { MAX_KEY_CHARS } from "./record-rule.js";

/** Raw characters of a key read at most: `MAX_KEY_CHARS` characters written as `\uXXXX` each. */
export const RAW_KEY_CHARS = MAX_KEY_CHARS * 6 + 2;

/** A key as the parsed value holds it: its escapes decoded; null when it names no path. */
export function keyOf(raw: string): string | null {
  if (raw.length > RAW_KEY_CHARS) return null;
  let key = raw;
  if (raw.includes("\\")) {
    try {
      key = JSON.parse(`"${raw}"`) as string;
    } catch {
      return null;
    }
  }
  return key.length > MAX_KEY_CHARS ? null : key;
}

/** Compact JSON characters of an element's text (its whitespace outside strings left out). */
export function compactLength(text: string): number {
  try {
    return JSON.stringify(JSON.parse(text)).length;
  } catch {
    return text.length;
  }
}
