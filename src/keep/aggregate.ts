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
 * elements under `[*]`). The prose written from them is in `describe.ts`.
 */
import type { JsonValue } from "../decode/json.js";
import { AirlockError } from "../errors/airlock-error.js";
import type {
  Aggregates,
  FieldAggregate,
  TopValue,
  ValueKind,
  ValueSummary,
} from "../pipeline/aggregates.js";

export type { Aggregates, FieldAggregate, TopValue, ValueKind, ValueSummary };

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
 * Feed records with `add`; `result()` may be called at any time and does not end the stream.
 * @example const agg: Aggregator = createAggregator(); agg.add({ state: "open" }); agg.records; // 1
 */
export interface Aggregator {
  add(record: JsonValue): void;
  readonly records: number;
  result(): Aggregates;
}

export const KINDS: readonly ValueKind[] = [
  "string",
  "number",
  "boolean",
  "object",
  "array",
  "null",
];
export const [STRING, NUMBER, BOOLEAN, OBJECT, ARRAY, NULL] = [0, 1, 2, 3, 4, 5];
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

export function checkLimit(name: string, value: unknown, min: number, max: number): number {
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
