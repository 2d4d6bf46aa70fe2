/** Per-field aggregates of a structured result, as `meta.records.aggregates` reports them. */

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
