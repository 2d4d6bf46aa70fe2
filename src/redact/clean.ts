/**
 * Values of a structured result on their way in: an already-parsed JavaScript value read as JSON
 * under the same limits as parsed text, and every record cleaned before anything keeps it
 * (invisible characters out, base64 blobs and data URIs replaced by placeholders, secrets
 * redacted inside the value that holds them) and shortened for display.
 */
import { type JsonValue, setKey } from "../decode/json.js";
import { stripAnsi } from "../decode/normalize.js";
import { sha256Hex } from "../intake/digest.js";
import { sniff } from "../intake/sniff.js";
import type { InvisibleCounts } from "./invisible.js";
import { stripInvisible } from "./invisible.js";
import type { Redactor } from "./redact.js";

type JsonObject = { [key: string]: JsonValue };
type Container = JsonValue[] | JsonObject;

/** What cleaning removed or replaced, summed over records. */
export interface CleanStats {
  readonly invisible: InvisibleCounts;
  /** Secrets replaced, by rule. */
  readonly redactions: Record<string, number>;
  /** (rule, value) pairs kept for keyed fingerprints, up to `keepValues`. */
  readonly values?: Array<readonly [string, string]>;
  /** Base64 blobs and data URIs replaced by placeholders, and their decoded bytes. */
  blobs: number;
  blobBytes: number;
}

export function createCleanStats(): CleanStats {
  return {
    invisible: { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 },
    redactions: {},
    blobs: 0,
    blobBytes: 0,
  };
}

export interface CleanOptions {
  readonly redactor: Redactor | undefined;
  readonly invisible: boolean;
  /** Blobs up to this many decoded bytes get a SHA-256 in their placeholder. */
  readonly hashLimit: number;
  /** (rule, value) pairs to keep in `stats.values` for fingerprints. Default 0. */
  readonly keepValues?: number;
}

// Anything but printable ASCII, tab and line breaks: the full pass (which also NFC-normalises)
// runs only on strings that hold such a character.
const MAYBE_INVISIBLE = /[^\t\n\r\x20-\x7e]/;
/** Characters JSON writes as escapes (the redactor then sees `\n`, not a line break). */
const JSON_ESCAPED = /[^\x20-\uffff]|["\\]/;
/** A data URI's media type is shown only when it is a plain one: it is tool text. */
const PLAIN_MIME = /^(?:image|audio|video|text|application|font|model)\/[a-z0-9.+-]{1,64}$/;
const DATA_URI =
  /^data:([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)?((?:;[a-z0-9-]+=[^;,]*)*)(;base64)?,/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** Shorter strings are left to the string cap: a placeholder only pays for itself on a blob. */
export const BLOB_MIN_CHARS = 512;

/** A blob's placeholder: what it was, how big, and its hash; never its content. */
export interface BlobPlaceholder {
  readonly blob: "base64" | "data-uri";
  readonly mime: string;
  readonly bytes: number;
  readonly sha256?: string;
}

function blobOf(
  text: string,
): { kind: BlobPlaceholder["blob"]; mime?: string; base64: string | undefined } | undefined {
  if (text.startsWith("data:") || text.startsWith("DATA:")) {
    const m = DATA_URI.exec(text.slice(0, 512));
    if (m === null) return undefined;
    const body = text.slice(m[0].length);
    const declared = m[1]?.toLowerCase();
    return {
      kind: "data-uri",
      ...(declared !== undefined && PLAIN_MIME.test(declared) ? { mime: declared } : {}),
      base64: m[3] ? body : undefined,
    };
  }
  if (text.length < BLOB_MIN_CHARS) return undefined;
  const compact = text.includes("\n") ? text.replace(/\r?\n/g, "") : text;
  // Words, hex digests and paths are not blobs: base64 of real bytes mixes cases and digits.
  if (!/[A-Z]/.test(compact) || !/[a-z]/.test(compact) || !/[0-9]/.test(compact)) return undefined;
  if (BASE64.test(compact)) return { kind: "base64", base64: compact };
  if (BASE64URL.test(compact)) {
    return {
      kind: "base64",
      base64: compact.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, ""),
    };
  }
  return undefined;
}

function decodeBase64(text: string): Uint8Array | undefined {
  try {
    const padded = text.length % 4 === 0 ? text : text + "=".repeat(4 - (text.length % 4));
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

async function placeholder(text: string, hashLimit: number): Promise<BlobPlaceholder | undefined> {
  const blob = blobOf(text);
  if (blob === undefined) return undefined;
  if (blob.base64 === undefined) {
    // A data URI in percent-encoding: its length is what there is to say.
    const bytes = text.length - text.indexOf(",") - 1;
    return { blob: blob.kind, mime: blob.mime ?? "text/plain", bytes };
  }
  const bytes = decodeBase64(blob.base64);
  if (bytes === undefined) return undefined;
  const sniffed = sniff(bytes.subarray(0, 4096));
  const mime = blob.mime ?? (sniffed.kind === "binary" ? sniffed.mime : "text/plain");
  const sha256 = bytes.byteLength <= hashLimit ? await sha256Hex(bytes) : undefined;
  return { blob: blob.kind, mime, bytes: bytes.byteLength, ...(sha256 ? { sha256 } : {}) };
}

/**
 * Cleans one record in place (it is the shaper's own parsed copy): keys and strings lose
 * invisible characters, blobs become placeholders, then secrets are redacted. Redaction reads
 * the record as compact JSON, so a rule sees a key next to its value (`"password":"…"`); each
 * finding is then applied inside the string that holds it, or replaces that whole string when
 * the finding reaches past it, so the record stays valid JSON.
 *
 * @example
 * const stats = createCleanStats();
 * await cleanRecord({ token: "ghp_…" }, { redactor, invisible: true, hashLimit: 1 << 24 }, stats);
 */
export function cleanRecord(
  record: JsonValue,
  options: CleanOptions,
  stats: CleanStats,
  /** Receives the cleaned record's compact JSON when it was made on the way (saves a pass). */
  out?: { text?: string | undefined },
): JsonValue | Promise<JsonValue> {
  if (out) out.text = undefined;
  // Numbers, booleans and null carry nothing to clean.
  if (record === null || typeof record === "number" || typeof record === "boolean") return record;
  const holder: JsonValue[] = [record];
  const pending: Array<Promise<void>> = [];
  // Iterative walk over containers; `holder` makes the root one more slot to clean.
  const work: Container[] = [holder];
  while (work.length > 0) {
    const container = work.pop() as Container;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) visit(container, i, container[i] as JsonValue);
      continue;
    }
    let renamed = false;
    for (const key of Object.keys(container)) {
      if (options.invisible && MAYBE_INVISIBLE.test(key)) {
        const cleaned = stripInvisible(stripAnsi(key));
        if (cleaned.text !== key) {
          renamed = true;
          count(cleaned.removed);
        }
      }
      visit(container, key, container[key] as JsonValue);
    }
    if (renamed) rebuild(container, (key) => clean(stripAnsi(key)));
  }
  const done = (): JsonValue => {
    const cleaned = holder[0] as JsonValue;
    if (options.redactor === undefined) return cleaned;
    return redactRecord(cleaned, options.redactor, stats, options.keepValues ?? 0, out);
  };
  // Only a blob's hash makes cleaning wait.
  return pending.length === 0 ? done() : Promise.all(pending).then(done);

  function clean(text: string): string {
    const cleaned = stripInvisible(text);
    return cleaned.text;
  }

  function count(removed: InvisibleCounts): void {
    for (const k of Object.keys(removed) as Array<keyof InvisibleCounts>)
      stats.invisible[k] += removed[k];
  }

  function visit(container: Container, key: string | number, value: JsonValue): void {
    if (typeof value === "string") {
      let text = value;
      // Colour codes go as whole sequences first, so none is left glued to a token.
      if (options.invisible && (text.includes("\x1b") || text.includes("\x9b")))
        text = stripAnsi(text);
      if (options.invisible && MAYBE_INVISIBLE.test(text)) {
        const cleaned = stripInvisible(text);
        count(cleaned.removed);
        text = cleaned.text;
      }
      if (
        text.length >= 16 &&
        (text.length >= BLOB_MIN_CHARS || text.startsWith("data:") || text.startsWith("DATA:"))
      ) {
        pending.push(
          placeholder(text, options.hashLimit).then((p) => {
            if (p === undefined) return;
            stats.blobs++;
            stats.blobBytes += p.bytes;
            put(container, key, { ...p });
          }),
        );
      }
      // In compact JSON a line break or tab is written as an escape (`\n`), which glues the
      // next word to an `n`: such strings are also redacted as they are.
      if (options.redactor !== undefined && JSON_ESCAPED.test(text)) {
        const own = options.redactor(text);
        for (const f of own.findings) {
          stats.redactions[f.rule] = (stats.redactions[f.rule] ?? 0) + 1;
          if (stats.values && stats.values.length < (options.keepValues ?? 0))
            stats.values.push([f.rule, text.slice(f.start, f.end)]);
        }
        text = own.text;
      }
      if (text !== value) put(container, key, text);
    } else if (value !== null && typeof value === "object") {
      work.push(value);
    }
  }
}

function put(container: Container, key: string | number, value: JsonValue): void {
  if (Array.isArray(container)) container[key as number] = value;
  else setKey(container, key as string, value);
}

/** Renames keys of `target` in place, keeping their order; a clash gets a numbered suffix. */
function rebuild(target: JsonObject, rename: (key: string) => string): void {
  const entries = Object.keys(target).map((k) => [k, target[k] as JsonValue] as const);
  for (const [k] of entries) delete target[k];
  for (const [k, v] of entries) {
    let name = rename(k) || "_";
    for (let n = 2; Object.hasOwn(target, name); n++) name = `${rename(k) || "_"}_${n}`;
    setKey(target, name, v);
  }
}

/** A string in the compact JSON text of a record: a key or a value, and where it sits. */
interface Leaf {
  readonly start: number;
  readonly end: number;
  readonly container: Container;
  readonly key: string | number;
  readonly isKey: boolean;
}

/** Compact JSON identical to `JSON.stringify(value)`, with the span of every string in it. */
function serialise(value: JsonValue): { text: string; leaves: Leaf[] } {
  const parts: string[] = [];
  const leaves: Leaf[] = [];
  let length = 0;
  const emit = (s: string) => {
    parts.push(s);
    length += s.length;
  };
  type Step =
    | string
    | {
        readonly value: JsonValue;
        readonly container: Container | null;
        readonly key: string | number;
      }
    | { readonly name: string; readonly container: JsonObject };
  const steps: Step[] = [{ value, container: null, key: 0 }];
  while (steps.length > 0) {
    const step = steps.pop() as Step;
    if (typeof step === "string") {
      emit(step);
      continue;
    }
    if ("name" in step) {
      const s = JSON.stringify(step.name);
      leaves.push({
        start: length,
        end: length + s.length,
        container: step.container,
        key: step.name,
        isKey: true,
      });
      emit(`${s}:`);
      continue;
    }
    const v = step.value;
    if (typeof v === "string") {
      const s = JSON.stringify(v);
      if (step.container) {
        leaves.push({
          start: length,
          end: length + s.length,
          container: step.container,
          key: step.key,
          isKey: false,
        });
      }
      emit(s);
    } else if (v === null || typeof v !== "object") {
      emit(JSON.stringify(v));
    } else if (Array.isArray(v)) {
      emit("[");
      steps.push("]");
      for (let i = v.length - 1; i >= 0; i--) {
        steps.push({ value: v[i] as JsonValue, container: v, key: i });
        if (i > 0) steps.push(",");
      }
    } else {
      emit("{");
      steps.push("}");
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i] as string;
        steps.push({ value: v[k] as JsonValue, container: v, key: k });
        steps.push({ name: k, container: v });
        if (i > 0) steps.push(",");
      }
    }
  }
  return { text: parts.join(""), leaves };
}

/**
 * Redacts a record through its compact JSON text (fast path: one `JSON.stringify` and one
 * redactor pass when nothing is found). Each string a finding touches is redacted on its own; if
 * that finds nothing (the finding needed the key beside it, or spans two strings), the whole
 * string is replaced by the marker. Keys are renamed the same way.
 */
function redactRecord(
  record: JsonValue,
  redactor: Redactor,
  stats: CleanStats,
  keep: number,
  out?: { text?: string | undefined },
): JsonValue {
  const text = JSON.stringify(record);
  const found = redactor(text).findings;
  if (found.length === 0) {
    if (out) out.text = text;
    return record;
  }
  for (const f of found) {
    stats.redactions[f.rule] = (stats.redactions[f.rule] ?? 0) + 1;
    if (stats.values && stats.values.length < keep)
      stats.values.push([f.rule, text.slice(f.start, f.end)]);
  }
  if (typeof record === "string") return redactor(record).text || `[REDACTED:${found[0]?.rule}]`;
  const { leaves } = serialise(record);
  // The rule of the finding that touches each leaf (first one wins).
  const touched = new Map<Leaf, string>();
  let from = 0;
  for (const f of [...found].sort((a, b) => a.start - b.start)) {
    while (from < leaves.length && (leaves[from] as Leaf).end <= f.start) from++;
    for (let i = from; i < leaves.length && (leaves[i] as Leaf).start < f.end; i++) {
      const leaf = leaves[i] as Leaf;
      if (!touched.has(leaf)) touched.set(leaf, f.rule);
    }
  }
  const renames = new Map<JsonObject, Map<string, string>>();
  for (const [leaf, rule] of touched) {
    const current = leaf.isKey
      ? (leaf.key as string)
      : ((leaf.container as Record<string | number, JsonValue>)[leaf.key] as string);
    const own = redactor(current);
    const replaced = own.findings.length > 0 ? own.text : `[REDACTED:${rule}]`;
    if (!leaf.isKey) put(leaf.container, leaf.key, replaced);
    else if (replaced !== current) {
      const object = leaf.container as JsonObject;
      const map = renames.get(object) ?? new Map<string, string>();
      map.set(current, replaced);
      renames.set(object, map);
    }
  }
  for (const [object, map] of renames) rebuild(object, (k) => map.get(k) ?? k);
  return record;
}
