/** Prose about what was done to a structured result's records, shared by every page. */
import type { RecordFacts } from "../pipeline/facts.js";
import { count as n } from "./describe.js";

export const PLAIN_PATH = /^[\w$@-]+(?:\[\*\])?(?:\.[\w$@-]+(?:\[\*\])?)*$/;

/** A cleaned name as prose shows it: JSON-quoted unless a plain path, so it cannot start a line. */
export function quoted(name: string): string {
  return PLAIN_PATH.test(name) ? name : JSON.stringify(name);
}

export function topEntries(
  map: ReadonlyMap<string, number> | Readonly<Record<string, number>>,
  k: number,
): string {
  const entries = map instanceof Map ? [...map.entries()] : Object.entries(map);
  return entries
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, c]) => `${quoted(name)} ${n(c)}`)
    .join(", ");
}

/** Prose about what was done to the records, shared by the first page and later pages. */
export function cleaningNotes(
  f: Pick<RecordFacts, "projection" | "contractDropped" | "shortened" | "blobs">,
  secrets: number,
  invisible: number,
  clean: (text: string, max?: number) => string,
): string[] {
  const notes: string[] = [];
  if (f.projection.dropped > 0) {
    // Only names that read as plain field paths are named: any other key is tool text that
    // could say anything (the model can still ask read_result for fields by path).
    const plain = new Map<string, number>();
    for (const [name, c] of f.projection.fields) {
      const safe = clean(name, 80);
      if (PLAIN_PATH.test(safe)) plain.set(safe, (plain.get(safe) ?? 0) + c);
    }
    const top = topEntries(plain, 4);
    notes.push(
      `${n(f.projection.dropped)} fields left out by the tool's field list${top ? ` (${top})` : ""}`,
    );
  }
  if (f.contractDropped > 0)
    notes.push(`${n(f.contractDropped)} fields not in the tool's schema dropped`);
  if (secrets > 0) notes.push(`${n(secrets)} secrets redacted`);
  if (f.blobs.count > 0)
    notes.push(
      `${n(f.blobs.count)} base64/data-URI values replaced by {blob, mime, bytes, sha256}`,
    );
  if (f.shortened.strings > 0)
    notes.push(`${n(f.shortened.strings)} long strings shortened in place`);
  if (invisible > 0) notes.push(`${n(invisible)} invisible characters removed`);
  return notes;
}
