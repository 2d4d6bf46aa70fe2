/**
 * The records policy of the keeper. Records are shown in view order, so that cursors can page:
 * evidence first (the first record of every event template before a second of any; fatal, then
 * error, then warning; then by the sort, then by position), then the others by the tool's sort or
 * in input order. Of an unsorted stream it also keeps the
 * tail, as the lines policy does for a log: the last records are often where it ended. Memory is
 * O(budget): each lane holds a few budgets' worth of characters, whatever the input.
 */
import type { Unit } from "../pipeline/unit.js";
import { compareSortValues, type Sort } from "./sort.js";

export interface ViewLimits {
  /** Characters each lane (evidence, the others) holds at most. */
  readonly chars: number;
  readonly sort: Sort | undefined;
  /** Evidence records come first. When false, severity does not order the view. */
  readonly errorsFirst: boolean;
}

/** What the records keeper held when the input ended. */
export interface KeptView {
  /** Evidence records held, in view order. */
  readonly evidence: readonly Unit[];
  /** The first of the other records held, in view order (the top of the sort, or the head). */
  readonly head: readonly Unit[];
  /** The last of the other records, in input order (unsorted streams only). */
  readonly tail: readonly Unit[];
  /** Records offered. */
  readonly total: number;
  /** Records of any evidence severity, and of an error or worse. */
  readonly evidenceTotal: number;
  readonly errorsTotal: number;
  /** True when every record offered is held. */
  readonly complete: boolean;
  /**
   * Evidence records were let go: what is held of the view is not a prefix past the evidence,
   * so no other record may be shown after it (a cursor would skip the dropped ones for good).
   */
  readonly evidenceDropped: boolean;
}

export interface ViewKeeper {
  add(unit: Unit): void;
  /** `standOuts`: held records that stood out (severity 1), moved into the evidence. */
  finish(standOuts?: readonly Unit[]): KeptView;
}

/**
 * Orders records as the view shows them. When evidence comes first: the first record of every
 * evidence template (fatal, then error, then warning), then the later evidence records, then the
 * others; within each by the sort when given, then by input position.
 *
 * @example
 * units.sort(viewComparator(compileSort("updated_at desc"), true));
 */
export function viewComparator(
  sort: Sort | undefined,
  errorsFirst: boolean,
): (a: Unit, b: Unit) => number {
  // Records of several arrays take turns (the first of each, then the second of each, …), as
  // stdout and stderr share a budget; one array's records keep their input order.
  const bySort = (a: Unit, b: Unit) =>
    (sort === undefined ? 0 : compareSortValues(sort, a.key ?? [], b.key ?? [])) ||
    (a.rank ?? a.index) - (b.rank ?? b.index) ||
    (a.section ?? 0) - (b.section ?? 0) ||
    a.index - b.index;
  if (!errorsFirst) return bySort;
  // The first record of every evidence template, then the later ones, then the rest.
  const lane = (u: Unit) => (u.severity === 0 ? 2 : (u.occurrence ?? 1) > 1 ? 1 : 0);
  return (a, b) => lane(a) - lane(b) || b.severity - a.severity || bySort(a, b);
}

/**
 * A set of the best units under `chars` characters: a binary heap with the worst on top, so a
 * better unit pushes the worst out. Holds at least one.
 */
class Best {
  private readonly heap: Unit[] = [];
  private chars = 0;
  /** Units offered and not held. */
  dropped = 0;
  constructor(
    private readonly limit: number,
    private readonly compare: (a: Unit, b: Unit) => number,
    /** Told of each unit let go. */
    private readonly onDrop?: (unit: Unit) => void,
  ) {}

  add(unit: Unit): void {
    this.push(unit);
    while (this.chars > this.limit && this.heap.length > 1) this.pop();
  }

  sorted(): Unit[] {
    return [...this.heap].sort(this.compare);
  }

  /** Lets go of the units `gone` says, keeping the rest a heap. */
  remove(gone: (unit: Unit) => boolean): void {
    const kept = this.heap.filter((u) => !gone(u));
    this.heap.length = 0;
    this.chars = 0;
    for (const u of kept) this.push(u);
  }

  private push(unit: Unit): void {
    const h = this.heap;
    h.push(unit);
    this.chars += unit.text.length;
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(h[i] as Unit, h[parent] as Unit) <= 0) break;
      [h[i], h[parent]] = [h[parent] as Unit, h[i] as Unit];
      i = parent;
    }
  }

  private pop(): void {
    this.dropped++;
    const h = this.heap;
    const top = h[0] as Unit;
    this.onDrop?.(top);
    const last = h.pop() as Unit;
    this.chars -= top.text.length;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.compare(h[l] as Unit, h[worst] as Unit) > 0) worst = l;
      if (r < h.length && this.compare(h[r] as Unit, h[worst] as Unit) > 0) worst = r;
      if (worst === i) return;
      [h[i], h[worst]] = [h[worst] as Unit, h[i] as Unit];
      i = worst;
    }
  }
}

/**
 * A unit that does not keep its source alive. A record's strings are slices of the text it was
 * parsed from, which is a slice of a decoded chunk of a megabyte; V8 keeps the whole chunk alive
 * for as long as a slice of it lives, so a held record would pin a megabyte each. Its display
 * text is a fresh string (it was stringified): parsing it again gives a value of fresh strings.
 */
export function detach(unit: Unit): Unit {
  if (unit.value === undefined || unit.value === null || typeof unit.value !== "object") {
    return typeof unit.value === "string"
      ? { ...unit, value: JSON.parse(unit.text) as string }
      : unit;
  }
  return { ...unit, value: JSON.parse(unit.text) };
}

/** Share of the others' characters the head of an unsorted stream takes; the tail gets the rest. */
const HEAD_SHARE = 0.6;

/**
 * The others of an unsorted input with several record arrays, which take turns in the view (the
 * first of each array, then the second of each, …). What is held of each array is a prefix of
 * it: once one of its records is let go, its later ones are too. So the held records, in turn
 * order, up to the first array whose next record is not held, are a prefix of the view, and a
 * cursor after them misses and repeats nothing.
 */
class Turns {
  private readonly best: Best;
  /** Per array, the first rank not held (when one was let go). */
  private readonly closedAt = new Map<number, number>();
  constructor(limit: number, compare: (a: Unit, b: Unit) => number) {
    this.best = new Best(limit, compare, (u) => this.close(u.section ?? 0, u.rank ?? u.index));
  }

  get dropped(): number {
    return this.best.dropped;
  }

  /** Array `section` holds nothing from `rank` on. */
  close(section: number, rank: number): void {
    const at = this.closedAt.get(section);
    if (at === undefined || rank < at) this.closedAt.set(section, rank);
  }

  add(unit: Unit): void {
    const s = unit.section ?? 0;
    if (this.closedAt.has(s)) {
      this.best.dropped++;
      return;
    }
    this.best.add(unit);
  }

  remove(gone: (unit: Unit) => boolean): void {
    this.best.remove(gone);
  }

  held(): Unit[] {
    return this.best.sorted();
  }

  /** The held records in turn order, cut where an array's next record is missing. */
  prefix(): Unit[] {
    let cut: { rank: number; section: number } | undefined;
    for (const [section, rank] of this.closedAt) {
      if (cut === undefined || rank < cut.rank || (rank === cut.rank && section < cut.section))
        cut = { rank, section };
    }
    const held = this.best.sorted();
    if (cut === undefined) return held;
    const c = cut;
    return held.filter((u) => {
      const rank = u.rank ?? u.index;
      return rank < c.rank || (rank === c.rank && (u.section ?? 0) < c.section);
    });
  }
}

/**
 * @example
 * const keeper = createViewKeeper({ chars: 32_000, sort: undefined, errorsFirst: true });
 * keeper.add(unit);
 * keeper.finish().evidence; // the evidence records, worst first
 */
export function createViewKeeper(limits: ViewLimits): ViewKeeper {
  const compare = viewComparator(limits.sort, limits.errorsFirst);
  const evidence = new Best(limits.chars, compare);
  const sorted = limits.sort !== undefined ? new Best(limits.chars, compare) : undefined;
  // Unsorted: the head in input order (a later record never beats a held one), and a tail ring.
  const head: Unit[] = [];
  let headChars = 0;
  const headLimit = Math.floor(limits.chars * HEAD_SHARE);
  const tailLimit = limits.chars - headLimit;
  // A ring of the last others: slots before `tailStart` are let go (undefined) at once, so an
  // evicted record is garbage right away, not when the array is next compacted.
  let tail: Array<Unit | undefined> = [];
  let tailStart = 0;
  let tailChars = 0;
  let droppedOthers = 0;
  /** The rank of the first record the tail ring took (what a drop from it lost first). */
  let firstTailRank: number | undefined;
  /** Several record arrays, unsorted: their others take turns (set at the second array). */
  let turns: Turns | undefined;
  let total = 0;
  let evidenceTotal = 0;
  let errorsTotal = 0;

  function addOther(unit: Unit): void {
    if (sorted) {
      sorted.add(detach(unit));
      return;
    }
    if (turns === undefined && (unit.section ?? 0) > 0) turns = toTurns();
    if (turns) {
      turns.add(detach(unit));
      return;
    }
    if (tailStart === tail.length && headChars + unit.text.length <= headLimit) {
      head.push(detach(unit));
      headChars += unit.text.length;
      return;
    }
    firstTailRank ??= unit.rank ?? unit.index;
    tail.push(unit);
    tailChars += unit.text.length;
    while (tailChars > tailLimit && tail.length - tailStart > 1) {
      tailChars -= (tail[tailStart] as Unit).text.length;
      tail[tailStart] = undefined;
      tailStart++;
      droppedOthers++;
    }
    // Compact the ring now and then so the array does not grow with the input.
    if (tailStart > 64 && tailStart * 2 > tail.length) {
      tail = tail.slice(tailStart);
      tailStart = 0;
    }
  }

  /**
   * A second array began: what the first holds moves into the turns. The head is its prefix; the
   * tail ring continues it only when the ring let nothing go (else the first array is closed
   * where the ring began).
   */
  function toTurns(): Turns {
    const t = new Turns(limits.chars, compare);
    for (const u of head) t.add(u);
    if (droppedOthers === 0) for (const u of tail.slice(tailStart) as Unit[]) t.add(detach(u));
    else t.close(0, firstTailRank ?? 1);
    head.length = 0;
    tail = [];
    tailStart = 0;
    return t;
  }

  return {
    add(unit) {
      total++;
      if (unit.severity > 0) evidenceTotal++;
      if (unit.severity >= 2) errorsTotal++;
      if (unit.severity > 0 && limits.errorsFirst) evidence.add(detach(unit));
      else addOther(unit);
    },
    finish(standOuts = []) {
      if (standOuts.length > 0) {
        const moved = new Set(standOuts.map((u) => u.index));
        const gone = (u: Unit | undefined) => u !== undefined && moved.has(u.index);
        evidenceTotal += standOuts.length;
        if (limits.errorsFirst) {
          // They were others until now: out of the head and tail, into the evidence.
          sorted?.remove(gone);
          turns?.remove(gone);
          const keptHead = head.filter((u) => !gone(u));
          head.length = 0;
          head.push(...keptHead);
          tail = tail.filter((u, i) => i < tailStart || !gone(u));
          for (const unit of standOuts) {
            unit.severity = 1;
            evidence.add(unit);
          }
        } else {
          // Severity does not order this view: they stay where they are, marked.
          for (const u of [
            ...head,
            ...tail,
            ...(sorted ? sorted.sorted() : []),
            ...(turns ? turns.held() : []),
          ])
            if (gone(u)) (u as Unit).severity = 1;
        }
      }
      const evidenceDropped = evidence.dropped > 0;
      const others = sorted ? sorted.sorted() : turns ? turns.prefix() : head;
      const rest = sorted || turns ? [] : (tail.slice(tailStart) as Unit[]).map(detach);
      const dropped =
        evidence.dropped + (sorted ? sorted.dropped : droppedOthers + (turns?.dropped ?? 0));
      return {
        evidence: evidence.sorted(),
        head: evidenceDropped ? [] : others,
        // The tail is the end of the view whatever was dropped before it: a cursor stops short of it.
        tail: rest,
        total,
        evidenceTotal,
        errorsTotal,
        complete: dropped === 0,
        evidenceDropped,
      };
    },
  };
}
