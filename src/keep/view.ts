/**
 * The record keeper: the structured counterpart of the line keeper. Records stream past; it
 * holds the first page's candidates only (the top of the view order within a character budget),
 * so memory is O(budget) whatever the input. Error records and the others are held apart, each
 * up to the budget, because the view shows every error record before any other.
 */
import type { JsonValue } from "../decode/json.js";
import { compareSortValues, type Sort } from "./order.js";

/** A record as the keeper holds it: a display copy, its compact JSON, and where it came from. */
export interface KeptRecord {
  /** 0-based position in the input. */
  readonly index: number;
  readonly value: JsonValue;
  readonly text: string;
  readonly error: boolean;
  /** 0 not an error, 1 error, 2 critical, 3 fatal: worse errors come first among the errors. */
  readonly severity: number;
  /** The sort key's values, read from the full record (not the shortened copy). */
  readonly key: readonly (JsonValue | undefined)[];
}

export interface RecordKeeper {
  add(record: KeptRecord): void;
  /** The held records in view order (errors first, then by sort or input order). */
  finish(): KeptRecord[];
  readonly errors: number;
}

/**
 * Orders records: by severity (fatal, critical, error; among error records only, since others
 * are all 0), then by the sort (when given), then by input position.
 */
export function viewComparator(sort: Sort | undefined): (a: KeptRecord, b: KeptRecord) => number {
  if (sort === undefined) return (a, b) => b.severity - a.severity || a.index - b.index;
  return (a, b) =>
    b.severity - a.severity || compareSortValues(sort, a.key, b.key) || a.index - b.index;
}

/**
 * A set of the best records under `chars` characters: a binary heap with the worst on top, so a
 * better record pushes the worst out. Holds at least one record.
 */
class BestRecords {
  private readonly heap: KeptRecord[] = [];
  private chars = 0;
  /** Records offered and not held: once any is, what follows in the view is not a prefix. */
  dropped = 0;
  constructor(
    private readonly limit: number,
    /** Negative when `a` comes first in the view. */
    private readonly compare: (a: KeptRecord, b: KeptRecord) => number,
    private readonly ordered: boolean,
  ) {}

  add(record: KeptRecord): void {
    // In input order with no sort, a later record never beats a held one: once full, stop.
    if (this.ordered && this.chars >= this.limit && this.heap.length > 0) {
      this.dropped++;
      return;
    }
    this.push(record);
    while (this.chars > this.limit && this.heap.length > 1) this.pop();
  }

  sorted(): KeptRecord[] {
    return [...this.heap].sort(this.compare);
  }

  private push(record: KeptRecord): void {
    const h = this.heap;
    h.push(record);
    this.chars += record.text.length;
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(h[i] as KeptRecord, h[parent] as KeptRecord) <= 0) break;
      [h[i], h[parent]] = [h[parent] as KeptRecord, h[i] as KeptRecord];
      i = parent;
    }
  }

  private pop(): void {
    this.dropped++;
    const h = this.heap;
    const top = h[0] as KeptRecord;
    const last = h.pop() as KeptRecord;
    this.chars -= top.text.length;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.compare(h[l] as KeptRecord, h[worst] as KeptRecord) > 0) worst = l;
      if (r < h.length && this.compare(h[r] as KeptRecord, h[worst] as KeptRecord) > 0) worst = r;
      if (worst === i) return;
      [h[i], h[worst]] = [h[worst] as KeptRecord, h[i] as KeptRecord];
      i = worst;
    }
  }
}

/**
 * @example
 * const keeper = createRecordKeeper({ chars: 32_000, sort: compileSort("updated_at desc"), errorsFirst: true });
 */
export function createRecordKeeper(limits: {
  readonly chars: number;
  readonly sort: Sort | undefined;
  readonly errorsFirst: boolean;
}): RecordKeeper {
  const compare = viewComparator(limits.sort);
  const ordered = limits.sort === undefined;
  // Errors are ranked by severity even without a sort: a later fatal outranks an earlier error.
  const errors = new BestRecords(limits.chars, compare, false);
  const others = new BestRecords(limits.chars, compare, ordered);
  let errorCount = 0;
  return {
    add(record) {
      if (record.error) errorCount++;
      if (record.error && limits.errorsFirst) errors.add(record);
      else others.add(record);
    },
    finish() {
      // The held records must be a prefix of the view: when error records were let go, none of
      // the others may follow them (a cursor would skip the dropped errors for good).
      if (errors.dropped > 0) return errors.sorted();
      return [...errors.sorted(), ...others.sorted()];
    },
    get errors() {
      return errorCount;
    },
  };
}
