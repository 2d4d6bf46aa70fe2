/**
 * Per-field aggregates of a tool result's records, for when the rows do not fit the budget: the
 * model gets "1,412 records; state: open 1,210, closed 202; updated_at 2026-01-02 – 2026-11-29"
 * instead of the first 40 rows. Records stream past one at a time; memory is bounded by the
 * limits (fields × tracked values), never by the number of records.
 *
 * Paths: top-level keys (`state`), nested keys joined with dots (`user.login`), array elements as
 * `[*]` (`tags[*]`, `labels[*].name`). A key holding a dot is written as-is, so `{"a.b": 1}` and
 * `{"a": {"b": 1}}` both read `a.b` (as two fields). Each `.key` and each `[*]` is one step;
 * `maxDepth` bounds the steps. A record that is not an object aggregates under `""` (and its
 * elements under `[*]`).
 *
 * (Groundwork for structured results, issue 4: not yet used by `shape()`.)
 */
import type { JsonValue } from "../decode/json.js";
import { AirlockError } from "../errors.js";

/**
 * What one aggregator holds at most.
 * @example const limits: Partial<AggregateLimits> = { maxFields: 32, topK: 3 };
 */
export interface AggregateLimits {
  /** Fields tracked, in first-seen order; later new fields are ignored. Default 64. */
  readonly maxFields: number;
  /** Path steps (`.key` or `[*]`) below a record. Default 3, at most 64. */
  readonly maxDepth: number;
  /** Distinct values counted exactly, per field and type; beyond, "1,000+". Default 1,000. */
  readonly maxDistinct: number;
  /** Most frequent values reported per field and type. Default 5. */
  readonly topK: number;
  /** Space-Saving counters per field and type: exact counts while the values fit. Default 64. */
  readonly trackedValues: number;
  /** Longer strings are measured but not tracked as values. Default 120. */
  readonly maxValueChars: number;
}

/**
 * A frequent value; `exact: false` means `count` is an upper bound (Space-Saving overestimates).
 * @example const top: TopValue<string> = { value: "open", count: 1210, exact: true };
 */
export interface TopValue<V> {
  readonly value: V;
  readonly count: number;
  readonly exact: boolean;
}

/**
 * The JSON type of a value, as counted in `FieldAggregate.types`.
 * @example const kind: ValueKind = "string";
 */
export type ValueKind = "string" | "number" | "boolean" | "object" | "array" | "null";

/**
 * What one path held across the records.
 * @example const f: FieldAggregate = { path: "state", present: 3, nulls: 0, types: { string: 3 } };
 */
export interface FieldAggregate {
  readonly path: string;
  /** Records (array elements, for `[*]` paths) where the field occurs, null included. */
  readonly present: number;
  readonly nulls: number;
  readonly types: Readonly<Partial<Record<ValueKind, number>>>;
  /** `mean` is a running mean; `distinct` is `maxDistinct` when `distinctCapped`. */
  readonly number?: Readonly<{ min: number; max: number; mean: number; integer: boolean }> &
    ValueSummary<number>;
  readonly boolean?: { readonly true: number; readonly false: number };
  /** `distinct` and `top` count the strings up to `maxValueChars`; `long` counts the others. */
  readonly string?: Readonly<{ minLength: number; maxLength: number; long: number }> &
    ValueSummary<string>;
  /**
   * ISO-8601 dates and date-times (no zone means UTC), `from`/`to` as written. `recent` counts
   * the values on the 30 UTC calendar days that end with `to`'s day.
   */
  readonly time?: Readonly<{ from: string; to: string; count: number; recent: number }>;
}

/**
 * Distinct and most frequent values of one type in one field.
 * @example const v: ValueSummary<number> = { count: 2, distinct: 1, distinctCapped: false, top: [{ value: 200, count: 2, exact: true }] };
 */
export type ValueSummary<V> = Readonly<{
  count: number;
  distinct: number;
  distinctCapped: boolean;
  top: ReadonlyArray<TopValue<V>>;
}>;

/**
 * All fields, in first-seen order; `fieldsCapped` when fields past `maxFields` were ignored.
 * @example const none: Aggregates = { records: 0, fields: [], fieldsCapped: false };
 */
export interface Aggregates {
  readonly records: number;
  readonly fields: readonly FieldAggregate[];
  readonly fieldsCapped: boolean;
}

/**
 * Feed records with `add`; `result()` may be called at any time and does not end the stream.
 * @example const agg: Aggregator = createAggregator(); agg.add({ state: "open" }); agg.records; // 1
 */
export interface Aggregator {
  add(record: JsonValue): void;
  readonly records: number;
  result(): Aggregates;
}

const KINDS: readonly ValueKind[] = ["string", "number", "boolean", "object", "array", "null"];
const [STRING, NUMBER, BOOLEAN, OBJECT, ARRAY, NULL] = [0, 1, 2, 3, 4, 5];
const DAY_MS = 86_400_000;
const RECENT_DAYS = 30;

/**
 * Distinct values (a Set, exact up to maxDistinct) and frequent values by Space-Saving (Metwally
 * et al., 2005): a full table gives its smallest counter to the new value, which inherits that
 * count as its possible error.
 */
class ValueCounter<V extends string | number> {
  private seen: Set<V> | undefined = new Set();
  private readonly slot = new Map<V, number>();
  private readonly values: V[] = [];
  private readonly counts: number[] = [];
  private readonly errors: number[] = [];
  private adds = 0;
  /** Counting stopped: no value is frequent enough to be a top value. */
  private frozen = false;

  constructor(
    private readonly maxDistinct: number,
    private readonly tracked: number,
  ) {}

  add(value: V): void {
    this.adds++;
    if (this.seen !== undefined && !this.seen.has(value)) {
      // Past the cap the Set says nothing more: it is dropped, not kept growing.
      if (this.seen.size < this.maxDistinct) this.seen.add(value);
      else this.seen = undefined;
    } else if (this.seen === undefined && (this.adds & 1023) === 0 && !this.frozen) {
      // Ids, timestamps, free text: past the distinct cap with no value holding even 1% of
      // them, there are no top values to tell, and replacing counters costs a scan a value.
      // (A counter's guaranteed count is its count less what it took over.)
      let most = 0;
      for (let j = 0; j < this.counts.length; j++) {
        const sure = (this.counts[j] as number) - (this.errors[j] as number);
        if (sure > most) most = sure;
      }
      if (most * 100 < this.adds) this.frozen = true;
    }
    if (this.frozen) return;
    const at = this.slot.get(value);
    if (at !== undefined) {
      this.counts[at]++;
    } else if (this.values.length < this.tracked) {
      this.slot.set(value, this.values.length);
      this.values.push(value);
      this.counts.push(1);
      this.errors.push(0);
    } else {
      const m = this.smallest();
      this.slot.delete(this.values[m]);
      this.slot.set(value, m);
      this.values[m] = value;
      this.errors[m] = this.counts[m];
      this.counts[m]++;
    }
  }

  private smallest(): number {
    // Plain locals: this runs for every new value once the counters are full.
    const counts = this.counts;
    let m = 0;
    let least = counts[0] as number;
    if (least === 1) return 0;
    for (let j = 1; j < counts.length; j++) {
      const c = counts[j] as number;
      if (c < least) {
        m = j;
        least = c;
        if (c === 1) break;
      }
    }
    return m;
  }

  summary(count: number, topK: number): ValueSummary<V> {
    const { counts, errors } = this;
    const order = this.values.map((_, i) => i);
    order.sort((a, b) => counts[b] - counts[a] || errors[a] - errors[b] || a - b);
    return {
      count,
      distinct: this.seen?.size ?? this.maxDistinct,
      distinctCapped: this.seen === undefined,
      // A counter that never took over another's slot has counted every occurrence of its value.
      // Once counting stopped (no frequent value), there is no top to tell.
      top: (this.frozen ? [] : order.slice(0, topK)).map((i) => ({
        value: this.values[i],
        count: counts[i],
        exact: errors[i] === 0,
      })),
    };
  }
}

class TimeRange {
  count = 0;
  from = "";
  fromMs = Number.POSITIVE_INFINITY;
  to = "";
  toMs = Number.NEGATIVE_INFINITY;
  // Per-day counts for the 30 days that end with the latest day seen, in a ring: `recent` is
  // known whenever the stream stops, without holding the values.
  private lastDay = Number.NEGATIVE_INFINITY;
  private readonly days = new Float64Array(RECENT_DAYS);

  add(text: string, ms: number): void {
    this.count++;
    if (ms < this.fromMs) [this.fromMs, this.from] = [ms, text];
    if (ms > this.toMs) [this.toMs, this.to] = [ms, text];
    const day = Math.floor(ms / DAY_MS);
    if (day > this.lastDay) {
      // The window moves on: the slots of the days it leaves become the days it enters.
      if (day - this.lastDay >= RECENT_DAYS) this.days.fill(0);
      else for (let d = this.lastDay + 1; d <= day; d++) this.days[ring(d)] = 0;
      this.lastDay = day;
    }
    if (this.lastDay - day < RECENT_DAYS) this.days[ring(day)]++;
  }

  get recent(): number {
    return this.days.reduce((sum, n) => sum + n, 0);
  }
}

const ring = (day: number) => ((day % RECENT_DAYS) + RECENT_DAYS) % RECENT_DAYS;

// A date, or a date-time with optional seconds, fraction and zone. Not Date.parse: V8 reads
// 2026-02-30 as March 2, and a zoneless date-time in the host's time zone.
const ISO_TIME =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(\.\d{1,9})?)?(Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Epoch milliseconds of a strict ISO-8601 date or date-time, or NaN. */
function parseTime(text: string): number {
  // Most strings fail here, before the regex.
  if (text.length < 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return NaN;
  const m = ISO_TIME.exec(text);
  if (m === null) return NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > MONTH_DAYS[mo - 1] || (mo === 2 && d === 29 && !leap)) return NaN;
  const zone = m[8] ?? "Z";
  const sign = zone[0] === "-" ? -1 : 1;
  const offset = zone === "Z" ? 0 : sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const ms = Number(`${m[7] ?? ".0"}00`.slice(1, 4)); // milliseconds, as digits: no rounding
  // Date.UTC reads years 0–99 as 1900–1999; 400 Gregorian years are exactly 146,097 days.
  return Date.UTC(y + 400, mo - 1, d, h, mi, s, ms) - 146_097 * DAY_MS - offset * 60_000;
}

class Field {
  readonly kinds = [0, 0, 0, 0, 0, 0];
  registered = false;
  present = 0;
  readonly children = new Map<string, Field>();
  items: Field | undefined;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  mean = 0;
  integer = true;
  trues = 0;
  minLength = Number.POSITIVE_INFINITY;
  maxLength = 0;
  long = 0;
  readonly time = new TimeRange();
  readonly numbers: ValueCounter<number>;
  readonly strings: ValueCounter<string>;
  constructor(
    readonly path: string,
    limits: { maxDistinct: number; tracked: number },
  ) {
    this.numbers = new ValueCounter(limits.maxDistinct, limits.tracked);
    this.strings = new ValueCounter(limits.maxDistinct, limits.tracked);
  }
}

function checkLimit(name: string, value: unknown, min: number, max: number): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max) {
    return value;
  }
  const got = typeof value === "number" ? value : typeof value;
  throw new AirlockError(
    "options/invalid",
    `${name} must be an integer from ${min} to ${max} (got ${got})`,
  );
}

/**
 * Streams records into bounded per-field aggregates: counts, numeric ranges and running means,
 * distinct and most frequent values, time ranges.
 * @example
 * const agg = createAggregator({ maxFields: 32 });
 * for (const issue of issues) agg.add(issue);
 * describeAggregates(agg.result()); // "1,412 records, 31 fields\nstate: open 1,210, closed 202…"
 */
export function createAggregator(limits: Partial<AggregateLimits> = {}): Aggregator {
  const limit = (name: keyof AggregateLimits, fallback: number, min: number, max: number) =>
    checkLimit(`aggregate: ${name}`, limits[name] ?? fallback, min, max);
  const tracked = limit("trackedValues", 64, 1, 1e5);
  const [maxFields, maxDepth, maxDistinct] = [
    limit("maxFields", 64, 1, 1e5),
    limit("maxDepth", 3, 1, 64),
    limit("maxDistinct", 1000, 1, 1e7),
  ];
  const [topK, maxValueChars] = [limit("topK", 5, 1, tracked), limit("maxValueChars", 120, 0, 1e6)];

  const counters = { maxDistinct, tracked };
  const root = new Field("", counters);
  const fields: Field[] = [];
  let fieldsCapped = false;
  let records = 0;

  function register(field: Field): boolean {
    field.registered = fields.length < maxFields;
    if (field.registered) fields.push(field);
    else fieldsCapped = true;
    return field.registered;
  }

  function addKeys(parent: Field, object: { [key: string]: JsonValue }, depth: number): void {
    // for…in rather than Object.keys: no array per object per record.
    for (const key in object) {
      let child = parent.children.get(key);
      if (child === undefined) {
        child = new Field(parent.path === "" ? key : `${parent.path}.${key}`, counters);
        if (!register(child)) continue;
        parent.children.set(key, child);
      }
      add(child, object[key] as JsonValue, depth + 1);
    }
  }

  function addItems(parent: Field, array: JsonValue[], depth: number): void {
    // Objects in an array lead to their keys (`labels[*].name`); the `[*]` path is a field of
    // its own only once it holds something else (`tags[*]`).
    parent.items ??= new Field(`${parent.path}[*]`, counters);
    const items = parent.items;
    for (let i = 0; i < array.length; i++) {
      const element = array[i] as JsonValue;
      if (element !== null && typeof element === "object" && !Array.isArray(element)) {
        if (depth < maxDepth) addKeys(items, element, depth);
      } else if (items.registered || register(items)) {
        add(items, element, depth);
      }
    }
  }

  function add(field: Field, value: JsonValue, depth: number): void {
    if (typeof value === "string") {
      field.kinds[STRING]++;
      const n = value.length;
      if (n < field.minLength) field.minLength = n;
      if (n > field.maxLength) field.maxLength = n;
      if (n > maxValueChars) field.long++;
      else field.strings.add(value);
      const ms = n > 40 ? NaN : parseTime(value);
      if (!Number.isNaN(ms)) field.time.add(value, ms);
    } else if (typeof value === "number") {
      if (Number.isNaN(value)) return; // not JSON
      const count = ++field.kinds[NUMBER];
      if (value < field.min) field.min = value;
      if (value > field.max) field.max = value;
      field.mean += (value - field.mean) / count;
      if (field.integer && !Number.isInteger(value)) field.integer = false;
      field.numbers.add(value);
    } else if (typeof value === "boolean") {
      field.kinds[BOOLEAN]++;
      if (value) field.trues++;
    } else if (value === null) {
      field.kinds[NULL]++;
    } else if (Array.isArray(value)) {
      field.kinds[ARRAY]++;
      if (depth < maxDepth) addItems(field, value, depth + 1);
    } else if (typeof value === "object") {
      field.kinds[OBJECT]++;
      if (depth < maxDepth) addKeys(field, value, depth);
    } else {
      return; // undefined, a function: not JSON
    }
    field.present++;
  }

  function summarise(f: Field): FieldAggregate {
    const types: Partial<Record<ValueKind, number>> = {};
    KINDS.forEach((kind, i) => {
      if (f.kinds[i] > 0) types[kind] = f.kinds[i];
    });
    const [strings, numbers, booleans] = [f.kinds[STRING], f.kinds[NUMBER], f.kinds[BOOLEAN]];
    const { min, max, mean, integer, minLength, maxLength, long, time } = f;
    return {
      path: f.path,
      present: f.present,
      nulls: f.kinds[NULL],
      types,
      ...(numbers > 0 && {
        number: { min, max, mean, integer, ...f.numbers.summary(numbers, topK) },
      }),
      ...(booleans > 0 && { boolean: { true: f.trues, false: booleans - f.trues } }),
      ...(strings > 0 && {
        string: { minLength, maxLength, long, ...f.strings.summary(strings - long, topK) },
      }),
      ...(time.count > 0 && {
        time: { from: time.from, to: time.to, count: time.count, recent: time.recent },
      }),
    };
  }

  return {
    add(record: JsonValue): void {
      records++;
      if (record !== null && typeof record === "object" && !Array.isArray(record)) {
        addKeys(root, record, 0);
      } else if (root.registered || register(root)) {
        add(root, record, 0);
      }
    },
    get records() {
      return records;
    },
    result: () => ({ records, fields: fields.map(summarise), fieldsCapped }),
  };
}

/** 1412 → "1,412" (locale-free: the same text in every runtime). */
function count(n: number): string {
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
