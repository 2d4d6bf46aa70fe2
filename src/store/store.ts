/**
 * Where a full result waits for the model to ask for more: records, or the text of a log,
 * command output or page. It is stored already cleaned (redacted, projected), under a handle
 * derived from its content, and read back by `read_result`: records page by page through opaque
 * cursors, text by line ranges, greps and its evidence. The form is documented in
 * docs/read-back.md for stores of other kinds (IndexedDB, Workers KV, R2).
 */
import type { JsonValue } from "../decode/json.js";
import type { SectionName } from "../pipeline/unit.js";

/**
 * A result as stored: its records (the default, `kind` absent), or the manifest of a text result
 * whose text sits in parts under their own keys (`putPart` / `getPart`).
 */
export type StoredResult = StoredRecords | StoredText;

/** A structured result: its records in input order and what the view over them needs. */
export interface StoredRecords {
  readonly handle: string;
  readonly kind?: "records";
  /** Records, cleaned and projected, in input order. */
  readonly records: readonly JsonValue[];
  /** Approximate size: characters of the records' compact JSON. */
  readonly chars: number;
  readonly info: StoredInfo;
  /**
   * The view the first page showed, kept at put time so a page costs O(page): record indices
   * (0-based) in view order (evidence first, then the sort or input order). Absent: input order.
   */
  readonly view?: readonly number[];
  /** Records of an error severity or worse, and of any evidence severity (warnings included). */
  readonly errors?: number;
  readonly evidence?: number;
}

/**
 * A text result (a log, command output, a web page's text, after redaction): a manifest of
 * parts, each about 1 MiB of text under its content key (`part_<sha256 prefix>`), written part
 * by part while the text streamed.
 */
export interface StoredText {
  readonly handle: string;
  readonly kind: "text";
  /** Characters of text in all parts. */
  readonly chars: number;
  readonly info: StoredInfo;
  /** Every part, section by section in the order of `sections`, each in text order. */
  readonly parts: readonly StoredPart[];
  /** Lines in all sections. */
  readonly lines: number;
  /** The text sections (command output has stdout and stderr); each owns `parts` entries of `parts`. */
  readonly sections: readonly StoredSection[];
}

export interface StoredPart {
  /** The key the part's text is stored under (`part_` and 32 hex digits of its SHA-256). */
  readonly key: string;
  /** Line breaks (`\n`) in the part: the line numbers of the parts before it add up from these. */
  readonly lines: number;
  readonly chars: number;
}

export interface StoredSection {
  readonly name: SectionName;
  /** Lines of the section, numbered from 1 as the first page's markers number them. */
  readonly lines: number;
  readonly chars: number;
  /** How many consecutive entries of `parts` are this section's. */
  readonly parts: number;
}

export interface StoredInfo {
  readonly tool?: string;
  /** `json`, `ndjson`, `csv`, `tsv` for records; `text`, `markdown`, `html`, `binary` for text. */
  readonly format: string;
  /** Text: `command` for command output. */
  readonly kind?: string;
  readonly envelope?: string;
  /**
   * The record arrays, when there are several (`{ succeeded: […], failed: […] }`): each path and
   * how many of the stored records (which are in input order) are its.
   */
  readonly paths?: ReadonlyArray<{ readonly path: string; readonly count: number }>;
  /** The sort the first page used (`"updated_at desc"`); pages keep it. */
  readonly sort?: string;
  /** The projection applied before storing. */
  readonly projection?: string;
  /** Whether error records come first in the view. */
  readonly errorsFirst: boolean;
  /**
   * Text: the line decoder's cap when it was stored (a longer line was counted by its head and
   * tail), so `read_result` keys a line as the first page's summary did.
   */
  readonly lineCap?: number;
}

/** What a store's calls may return: the value, or a promise of it (IndexedDB, KV, R2). */
type Maybe<T> = T | Promise<T>;

/**
 * Storage for full results. Implementations may be synchronous or asynchronous (IndexedDB,
 * Workers KV, R2); `get` of an unknown or expired handle returns undefined. A store without
 * `putPart` and `getPart` keeps records only: text results then get no handle.
 */
export interface ResultStore {
  /** Keeps a result; `false` says it was not kept (too large), and no handle is given out. */
  put(result: StoredResult): Maybe<boolean | undefined>;
  get(handle: string): Maybe<StoredResult | undefined>;
  /**
   * Keeps one part of a text result under its content key, before its manifest is `put`. The
   * same key always holds the same text, so a part already kept may be kept once. `false`: not
   * kept (the result is then not stored).
   */
  putPart?(key: string, text: string): Maybe<boolean | undefined>;
  /** The text of a part, or undefined when it is gone. */
  getPart?(key: string): Maybe<string | undefined>;
}

/** Where a page starts in a stored result's view, and the view's settings. */
export interface Cursor {
  readonly handle: string;
  /** Records of the view already shown (the next page starts here). */
  readonly offset: number;
  /**
   * Where the pages stop: the first page may also have shown the view's last records (the tail
   * of an unsorted stream), which the pages do not show again. Absent: the end of the view.
   */
  readonly end?: number;
  /** The filter and fields the pages were asked for, kept so every page sees the same view. */
  readonly where?: Where;
  readonly fields?: string | readonly string[];
}

/** Filter on fields: a value means equality; an object names one or more comparisons. */
export type Where = Readonly<Record<string, JsonValue | WhereTest>>;
export interface WhereTest {
  readonly eq?: JsonValue;
  readonly ne?: JsonValue;
  readonly gt?: number | string;
  readonly gte?: number | string;
  readonly lt?: number | string;
  readonly lte?: number | string;
  readonly in?: readonly JsonValue[];
  /** Substring of a string value, case-insensitive. */
  readonly contains?: string;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * An opaque cursor: the handle, the position in the view, and the view's filter and fields. It
 * points into a stored snapshot that never changes, so it stays valid as long as the result is
 * stored, and it names its handle, so it cannot reach another result's records. Short, because
 * the model copies it: `cur_<handle>_<offset>`, plus the view when a filter or fields were asked.
 *
 * @example
 * decodeCursor(encodeCursor({ handle: "res_…", offset: 20 })); // { handle: "res_…", offset: 20 }
 */
export function encodeCursor(cursor: Cursor): string {
  const handle = cursor.handle.startsWith("res_") ? cursor.handle.slice(4) : cursor.handle;
  const end = cursor.end !== undefined ? `-${cursor.end.toString(36)}` : "";
  const base = `cur_${handle}_${cursor.offset.toString(36)}${end}`;
  if (cursor.where === undefined && cursor.fields === undefined) return base;
  return `${base}_${toBase64Url(JSON.stringify([cursor.where ?? null, cursor.fields ?? null]))}`;
}

/** Reads a cursor back; undefined for anything that is not one of ours. */
export function decodeCursor(text: string): Cursor | undefined {
  if (typeof text !== "string" || text.length > 8192) return undefined;
  const m =
    /^cur_([0-9a-f]{24})_([0-9a-z]{1,11})(?:-([0-9a-z]{1,11}))?(?:_([A-Za-z0-9_-]+))?$/.exec(text);
  if (m === null) return undefined;
  const offset = Number.parseInt(m[2] as string, 36);
  if (!Number.isSafeInteger(offset) || offset < 0) return undefined;
  const end = m[3] === undefined ? undefined : Number.parseInt(m[3], 36);
  if (end !== undefined && (!Number.isSafeInteger(end) || end < offset)) return undefined;
  const handle = `res_${m[1]}`;
  const base = { handle, offset, ...(end !== undefined ? { end } : {}) };
  if (m[4] === undefined) return base;
  const json = fromBase64Url(m[4]);
  if (json === undefined) return undefined;
  let view: unknown;
  try {
    view = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(view) || view.length !== 2) return undefined;
  const [where, fields] = view as [unknown, unknown];
  return {
    ...base,
    ...(where !== null && typeof where === "object" && !Array.isArray(where)
      ? { where: where as Where }
      : {}),
    ...(typeof fields === "string" || Array.isArray(fields)
      ? { fields: fields as string | string[] }
      : {}),
  };
}
