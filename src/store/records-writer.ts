/**
 * Collects a structured result's records for the store, with the view the first page showed
 * (so a page later costs O(page), not a sort of every record), and derives the handle from the
 * content: records are hashed in blocks of about 1 MiB of JSON, and the handle is a hash of the
 * block hashes and the view settings, so the same result always gets the same handle.
 */
import type { JsonValue } from "../decode/json.js";
import { sha256Hex } from "../intake/digest.js";
import { recordClassifier } from "../keep/record-evidence.js";
import { compareSortValues, compileSort, sortValues } from "../keep/sort.js";
import type { Severity } from "../pipeline/unit.js";
import type { StoredInfo, StoredRecords } from "./store.js";

export interface RecordsWriter {
  /**
   * One record as keep saw it: its value, its compact JSON, and (when keep classified it) its
   * severity and sort values; missing ones are worked out here.
   */
  add(
    record: JsonValue,
    text: string,
    severity?: Severity,
    key?: readonly (JsonValue | undefined)[],
    occurrence?: number,
    /** The record's array, when the input has several (0-based). */
    section?: number,
  ): void;
  /** Records (0-based, in `add` order) that stood out: evidence, each the first of its kind. */
  standOuts(at: readonly number[]): void;
  /** The stored result, or undefined when it grew past `maxChars` (nothing is kept then). */
  finish(info: StoredInfo): Promise<StoredRecords | undefined>;
}

/**
 * @example
 * const writer = createRecordsWriter(32 << 20, { errorsFirst: true });
 * writer.add({ id: 1 }, '{"id":1}');
 * const stored = await writer.finish({ format: "json", errorsFirst: true });
 */
export function createRecordsWriter(
  maxChars: number,
  view: { readonly sort?: string; readonly errorsFirst: boolean },
): RecordsWriter {
  const sort = view.sort ? compileSort(view.sort) : undefined;
  let records: JsonValue[] | undefined = [];
  // Per record: its severity, and whether it is a later sighting of its template (the view puts
  // the first of every evidence template before the later ones, as keep/view.ts does).
  let severities = new Uint8Array(1024);
  let later = new Uint8Array(1024);
  const keys: Array<readonly (JsonValue | undefined)[]> = [];
  // Per record, when the input has several arrays: its array, and its rank within it.
  let sections: Uint16Array | undefined;
  let ranks: Uint32Array | undefined;
  const counts: number[] = [];
  let classify: ((record: JsonValue) => Severity) | undefined;
  let chars = 0;
  let block: string[] = [];
  let blockChars = 0;
  const digests: Array<Promise<string>> = [];
  const flush = () => {
    if (block.length === 0) return;
    digests.push(sha256Hex(block.join("\n")));
    block = [];
    blockChars = 0;
  };
  return {
    add(record, text, severity, key, occurrence, section = 0) {
      if (records === undefined) return;
      chars += text.length;
      if (chars > maxChars) {
        records = undefined;
        block = [];
        keys.length = 0;
        return;
      }
      const at = records.length;
      records.push(record);
      if (at === severities.length) {
        severities = doubled(severities);
        later = doubled(later);
      }
      const rank = (counts[section] ?? 0) + 1;
      counts[section] = rank;
      if (section > 0 && sections === undefined) {
        // A second array: every record so far was the first array's, ranked by position.
        sections = new Uint16Array(severities.length);
        ranks = Uint32Array.from({ length: severities.length }, (_, i) => i + 1);
      }
      if (sections !== undefined && ranks !== undefined) {
        if (at >= sections.length) {
          sections = grown(sections, severities.length);
          ranks = grown(ranks, severities.length);
        }
        sections[at] = Math.min(section, 0xffff);
        ranks[at] = rank;
      }
      later[at] = (occurrence ?? 1) > 1 ? 1 : 0;
      if (severity === undefined) classify ??= recordClassifier();
      severities[at] = severity ?? (classify as (r: JsonValue) => Severity)(record);
      if (sort) keys.push(key ?? sortValues(sort, record));
      block.push(text);
      blockChars += text.length;
      if (blockChars >= 1 << 20) flush();
    },
    standOuts(at) {
      if (records === undefined) return;
      for (const i of at) {
        if (i < 0 || i >= records.length || severities[i] !== 0) continue;
        severities[i] = 1;
        later[i] = 0;
      }
    },
    async finish(given) {
      if (records === undefined) return undefined;
      flush();
      // Each array's count as stored (records refused on the way are not).
      const info: StoredInfo =
        given.paths !== undefined && given.paths.length > 1
          ? {
              ...given,
              paths: given.paths.map((p, s) => ({ path: p.path, count: counts[s] ?? 0 })),
            }
          : { ...given, paths: undefined };
      if (info.paths === undefined) delete (info as { paths?: unknown }).paths;
      const parts = await Promise.all(digests);
      const settings = JSON.stringify([
        info.format,
        info.envelope ?? "",
        ...(info.paths ? [info.paths.map((p) => p.path)] : []),
        info.sort ?? "",
        info.projection ?? "",
        info.errorsFirst,
      ]);
      const digest = await sha256Hex(
        `airlock-result\u0000${settings}\u0000${records.length}\u0000${parts.join(",")}`,
      );
      const n = records.length;
      let errors = 0;
      let evidence = 0;
      for (let i = 0; i < n; i++) {
        const s = severities[i] as number;
        if (s >= 1) evidence++;
        if (s >= 2) errors++;
      }
      const place =
        sections !== undefined && ranks !== undefined
          ? { sections: sections as Uint16Array, ranks: ranks as Uint32Array }
          : undefined;
      const order = viewOrder(n, severities, later, view.errorsFirst, sort, keys, place);
      return {
        handle: `res_${digest.slice(0, 24)}`,
        records,
        chars,
        info,
        ...(order ? { view: order } : {}),
        errors,
        evidence,
      };
    },
  };
}

/**
 * The view's order of record indices, as `keep/view.ts` orders records when evidence comes first:
 * the first record of every evidence template (fatal, then error, then warning), then the later
 * evidence records, then the rest; within each by the sort, then by position. Undefined when it
 * is input order. Without a sort it is a counting sort (linear); with one, a comparison sort.
 */
function viewOrder(
  n: number,
  severities: Uint8Array,
  later: Uint8Array,
  errorsFirst: boolean,
  sort: ReturnType<typeof compileSort> | undefined,
  keys: ReadonlyArray<readonly (JsonValue | undefined)[]>,
  /** Several arrays: they take turns, by each record's rank in its own (keep/view.ts). */
  place?: { readonly sections: Uint16Array; readonly ranks: Uint32Array },
): number[] | undefined {
  const lane = (i: number) => ((severities[i] as number) === 0 ? 2 : (later[i] as number));
  const turns = (a: number, b: number) =>
    place === undefined
      ? a - b
      : (place.ranks[a] as number) - (place.ranks[b] as number) ||
        (place.sections[a] as number) - (place.sections[b] as number) ||
        a - b;
  if (sort === undefined && place === undefined) {
    if (!errorsFirst) return undefined;
    const order: number[] = [];
    for (let l = 0; l <= 1; l++)
      for (let s = 3; s >= 1; s--)
        for (let i = 0; i < n; i++) if (severities[i] === s && later[i] === l) order.push(i);
    if (order.length === 0) return undefined;
    for (let i = 0; i < n; i++) if (severities[i] === 0) order.push(i);
    return order;
  }
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort(
    (a, b) =>
      (errorsFirst
        ? lane(a) - lane(b) || (severities[b] as number) - (severities[a] as number)
        : 0) ||
      (sort === undefined ? 0 : compareSortValues(sort, keys[a] ?? [], keys[b] ?? [])) ||
      turns(a, b),
  );
  return order;
}

/** A typed array grown to `length`, its values kept. */
function grown<T extends Uint16Array | Uint32Array>(array: T, length: number): T {
  const out = new (array.constructor as new (n: number) => T)(length);
  out.set(array);
  return out;
}

/** `bytes` in an array twice as long. */
function doubled(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const grown = new Uint8Array(bytes.length * 2);
  grown.set(bytes);
  return grown;
}
