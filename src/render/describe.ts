/**
 * Structured values as prose for the model: per-field aggregates as short lines, most
 * informative first ("state: open 1,210, closed 202"), and a keys-and-types outline of a deep
 * value. Everything is bounded in characters; tool text (values, keys) is quoted when it could
 * read as part of the envelope.
 */
import type { JsonValue } from "../decode/json.js";
import {
  type Aggregates,
  ARRAY,
  BOOLEAN,
  checkLimit,
  type FieldAggregate,
  KINDS,
  NULL,
  NUMBER,
  OBJECT,
  STRING,
  type ValueKind,
  type ValueSummary,
} from "../keep/aggregate.js";

/**
 * The one number format of prose (not markers, which use plain integers): 1412 → "1,412",
 * locale-free, so the same text in every runtime.
 *
 * @example
 * count(1412); // "1,412"
 */
export function count(n: number): string {
  const digits = String(Math.round(Math.abs(n)));
  let out = n < 0 ? "-" : "";
  for (let i = 0; i < digits.length; i++) {
    out += (i > 0 && (digits.length - i) % 3 === 0 ? "," : "") + digits[i];
  }
  return out;
}

function num(x: number): string {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e15) return String(x);
  return Number.isInteger(x) || Math.abs(x) >= 1000 ? count(x) : String(Number(x.toPrecision(3)));
}

function percent(part: number, whole: number): string {
  const p = Math.round((100 * part) / whole);
  return p === 0 && part > 0 ? "<1%" : p === 100 && part < whole ? ">99%" : `${p}%`;
}

/** Cuts `text` to `max` characters ending in "…", never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 1) return "";
  let end = max - 1;
  if (end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
  return `${text.slice(0, end)}…`;
}

// Shown bare when nothing in it could be read as the list around it; quoted otherwise.
const BARE = /^[\w@/+-][\w.@/+-]{0,39}$/;
// Long values keep both ends: URLs and paths that share a prefix differ at the end.
const show = (v: string | number) =>
  typeof v === "number"
    ? num(v)
    : BARE.test(v)
      ? v
      : JSON.stringify(v.length <= 40 ? v : `${cut(v, 23).slice(0, -1)}…${v.slice(-16)}`);

function topText(values: ValueSummary<string | number>): string {
  const { top, distinct, distinctCapped } = values;
  const shown = top.map((t) => `${show(t.value)} ${t.exact ? "" : "~"}${count(t.count)}`);
  if (distinct <= top.length) return shown.join(", ");
  return `${shown.join(", ")} (${count(distinct)}${distinctCapped ? "+" : ""} distinct)`;
}

/** A field path as written in the prose: bare when plain, JSON-quoted otherwise (a key is tool text). */
const PLAIN_PATH = /^[\w$@-]+(?:\[\*\])?(?:\.[\w$@-]+(?:\[\*\])?)*$/;
function pathText(path: string): string {
  if (path === "") return "(record)";
  return PLAIN_PATH.test(path) ? path : JSON.stringify(cut(path, 80));
}

/** One field's line and how soon an agent acts on it (0 first), or undefined: nothing to say. */
function describeField(f: FieldAggregate, of: number | undefined) {
  const parts: string[] = [];
  let tier = 3;
  const say = (rank: number, text: string) => {
    tier = Math.min(tier, rank);
    parts.push(text);
  };
  const kinds = KINDS.filter((k) => k !== "null" && (f.types[k] ?? 0) > 0);
  if (kinds.length > 1) parts.push(kinds.map((k) => `${k} ${count(f.types[k] ?? 0)}`).join(", "));
  const { string: s, number: n, boolean: b, time } = f;
  const strings = f.types.string ?? 0;
  if (time && time.count * 2 >= strings) {
    const some = time.count < strings ? `, ${count(time.count)} of ${count(strings)}` : "";
    const recent = percent(time.recent, time.count);
    const tail = time.recent < time.count ? ` (${recent} in the last 30 days of that range)` : "";
    say(
      0,
      time.from === time.to ? `always ${time.from}` : `${time.from} – ${time.to}${tail}${some}`,
    );
  } else if (s) {
    const { minLength: lo, maxLength: hi, distinct, top } = s;
    const lengths = lo === hi ? `${count(lo)} chars` : `${count(lo)}–${count(hi)} chars`;
    const first = top[0];
    if (s.long * 2 >= strings) say(2, `text, ${lengths}`);
    else if (distinct === 1 && !s.distinctCapped) say(2, `always ${show(first.value)}`);
    else if (!s.distinctCapped && distinct <= 20 && distinct < s.count) say(0, topText(s));
    else if (first?.exact && first.count > 1 && first.count * 10 >= s.count * 3) {
      say(1, `top ${topText(s)}`);
    } else say(2, `${count(distinct)}${s.distinctCapped ? "+" : ""} distinct strings, ${lengths}`);
  }
  if (n) {
    const range = `${num(n.min)}–${num(n.max)}`;
    const capped = n.distinctCapped ? "+" : "";
    if (n.min === n.max) say(2, `always ${num(n.min)}`);
    else if (n.integer && !capped && n.distinct <= 10 && n.distinct * 2 <= n.count) {
      say(1, topText(n));
    } else if (n.integer && (capped || n.distinct * 10 >= n.count * 9)) {
      say(2, `${count(n.distinct)}${capped} distinct numbers ${range}`); // ids: a range says it
    } else say(1, `${range}, mean ${num(n.mean)}`);
  }
  if (b) {
    const [most, least] = b.true >= b.false ? ["true", "false"] : ["false", "true"];
    const [many, few] = [Math.max(b.true, b.false), Math.min(b.true, b.false)];
    say(
      few === 0 ? 2 : 0,
      few === 0 ? `always ${most}` : `${most} ${count(many)}, ${least} ${count(few)}`,
    );
  }
  // Nulls and gaps make a line of their own (a nullable object) but do not promote one.
  const missing = of !== undefined && f.present < of ? of - f.present : 0;
  if (f.nulls === f.present) say(2, "always null");
  else if (f.nulls > 0) say(tier === 3 ? 1 : tier, `null ${count(f.nulls)}`);
  if (missing > 0) say(tier === 3 ? 1 : tier, `missing ${count(missing)}`);
  if (tier === 3) return undefined; // an object or array always there: its fields speak
  return { tier, text: cut(`${pathText(f.path)}: ${parts.join("; ")}`, 240) };
}

/**
 * Prose for the model: a header, then a line per field, those an agent acts on first
 * (categories, time ranges, flags), then numeric ranges, then ids and free text; fields with
 * nothing to say (an object always present) are left out, and "… N more fields" counts those with
 * something to say that did not fit. Within `maxChars` (default 1,200) and `fields` lines.
 * @example
 * describeAggregates(agg.result(), { maxChars: 400 });
 * // "3 records, 2 fields\nstate: open 2, closed 1\nupdated_at: 2026-01-02 – 2026-11-29"
 */
export function describeAggregates(
  a: Aggregates,
  options: { maxChars?: number; fields?: number } = {},
): string {
  const maxChars = options.maxChars ?? 1200;
  const maxLines = options.fields ?? Number.POSITIVE_INFINITY;
  const byPath = new Map(a.fields.map((f) => [f.path, f]));
  const lines = a.fields
    .map((f, index) => {
      // "missing" needs the parent's count: the records for a top-level key, the objects for a
      // nested one. Under `[*]`, or when a dotted key has no parent field, it is left out.
      const dot = f.path.lastIndexOf(".");
      const parent = dot < 0 ? undefined : byPath.get(f.path.slice(0, dot));
      const of = dot < 0 ? a.records : parent?.types.object;
      const known = of !== undefined && f.present <= of && !f.path.includes("[*]") && f.path !== "";
      return { index, line: describeField(f, known ? of : undefined) };
    })
    .flatMap(({ index, line }) => (line ? [{ index, ...line }] : []))
    .sort((x, y) => x.tier - y.tier || x.index - y.index);
  const capped = a.fieldsCapped ? "+" : "";
  let out = `${count(a.records)} records, ${count(a.fields.length)}${capped} fields`;
  let shown = 0;
  for (const { text } of lines) {
    const rest = lines.length - shown - 1;
    const tail = rest > 0 ? `\n… ${count(rest)} more fields`.length : 0;
    if (shown >= maxLines || out.length + 1 + text.length + tail > maxChars) break;
    out += `\n${text}`;
    shown++;
  }
  if (shown < lines.length) out += `\n… ${count(lines.length - shown)} more fields`;
  return cut(out, maxChars);
}

class Shape {
  kinds = 0; // a bit per KINDS entry
  deep = 0; // the kinds met at the depth cap with something inside, left closed
  objects = 0;
  readonly keys = new Map<string, { seen: number; shape: Shape }>();
  readonly extraKeys = new Set<string>();
  items: Shape | undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Keys-and-types outline of a value; an array is outlined by merging its first 20 elements,
 * keys missing from some of them marked `?`. Depth (default 6, at most 64) and width (default 40
 * keys per object, then `…+N keys`) are capped, so 1,000 levels of nesting cost 6; the text
 * stays within `maxChars` (default 2,000).
 * @example
 * outline({ id: 1, user: { login: "octo" }, labels: [{ name: "bug" }], body: null });
 * // "{id: number, user: {login: string}, labels: [{name: string}], body: null}"
 */
export function outline(
  value: JsonValue,
  options: { maxDepth?: number; maxKeys?: number; maxChars?: number } = {},
): string {
  const maxDepth = checkLimit("outline: maxDepth", options.maxDepth ?? 6, 0, 64);
  const maxKeys = checkLimit("outline: maxKeys", options.maxKeys ?? 40, 0, 1e5);
  const maxChars = options.maxChars ?? 2000;

  function merge(shape: Shape, v: JsonValue, depth: number): void {
    const kind =
      v === null ? NULL : Array.isArray(v) ? ARRAY : KINDS.indexOf(typeof v as ValueKind);
    if (kind < 0) return; // not JSON
    shape.kinds |= 1 << kind;
    if (Array.isArray(v)) {
      if (depth >= maxDepth && v.length > 0) shape.deep |= 1 << ARRAY;
      if (depth >= maxDepth || v.length === 0) return;
      shape.items ??= new Shape();
      for (let i = 0; i < Math.min(v.length, 20); i++) merge(shape.items, v[i], depth + 1);
    } else if (kind === OBJECT && v !== null && typeof v === "object") {
      shape.objects++;
      for (const key in v) {
        if (depth >= maxDepth) {
          shape.deep |= 1 << OBJECT;
          return;
        }
        let entry = shape.keys.get(key);
        if (entry === undefined && shape.keys.size >= maxKeys) {
          shape.extraKeys.add(key);
          continue;
        }
        if (entry === undefined) {
          entry = { seen: 0, shape: new Shape() };
          shape.keys.set(key, entry);
        }
        entry.seen++;
        merge(entry.shape, v[key] as JsonValue, depth + 1);
      }
    }
  }

  // Stops adding keys once past maxChars: a wide, deep value is never rendered in full.
  function render(shape: Shape): string {
    const parts: string[] = [];
    if (shape.kinds & (1 << OBJECT)) {
      let text = shape.deep & (1 << OBJECT) ? "{…" : "{";
      for (const [key, entry] of shape.keys) {
        if (text.length > maxChars) break;
        const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
        const optional = entry.seen < shape.objects ? "?" : "";
        text += `${text.length > 1 ? ", " : ""}${name}${optional}: ${render(entry.shape)}`;
      }
      const extra = shape.extraKeys.size;
      if (extra > 0) text += `${text.length > 1 ? ", " : ""}…+${count(extra)} keys`;
      parts.push(`${text}}`);
    }
    if (shape.kinds & (1 << ARRAY)) {
      parts.push(
        shape.items ? `[${render(shape.items)}]` : shape.deep & (1 << ARRAY) ? "[…]" : "[]",
      );
    }
    for (const kind of [STRING, NUMBER, BOOLEAN, NULL]) {
      if (shape.kinds & (1 << kind)) parts.push(KINDS[kind]);
    }
    return parts.join("|");
  }

  const shape = new Shape();
  merge(shape, value, 0);
  return cut(render(shape), maxChars);
}
