/**
 * The first line of each severe message, held apart from the evidence groups (whose reservoir
 * rolls over the middle of a long log): the lines the fit may show for messages, cheapest first.
 * Held within `room` characters; when a line does not fit, the longest held ones go first, since
 * the fit shows the cheapest first and a long line would be the last to fit a budget. A template
 * keeps at most PER_TEMPLATE messages here: more are an enumeration (a line per test name, per
 * block number), whose count one line and a marker say, and they must not push out the messages
 * of other templates. Memory is O(room).
 */
import type { Unit } from "../pipeline/unit.js";

/** Messages of one template held at once. */
const PER_TEMPLATE = 8;

export interface MessageHold {
  /** Offers the first line of a message; held unless it is longer than the room. */
  offer(unit: Unit): void;
  /** The lines held, in no particular order. */
  readonly units: readonly Unit[];
}

/**
 * @example
 * const hold = createMessageHold(4000);
 * hold.offer(unit); // unit.symptom set, unit.template its template's id
 */
export function createMessageHold(room: number): MessageHold {
  // A max-heap by length: the longest line is at 0.
  const heap: Unit[] = [];
  const ofTemplate = new Map<number | undefined, number>();
  let held = 0;
  const size = (u: Unit) => u.text.length + 1;
  const longer = (i: number, j: number) => size(heap[i] as Unit) > size(heap[j] as Unit);

  function swap(i: number, j: number): void {
    const t = heap[i] as Unit;
    heap[i] = heap[j] as Unit;
    heap[j] = t;
  }

  function up(at: number): void {
    for (let i = at; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (!longer(i, parent)) return;
      swap(i, parent);
      i = parent;
    }
  }

  function down(at: number): void {
    for (let i = at; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && longer(l, top)) top = l;
      if (r < heap.length && longer(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  }

  function dropLongest(): void {
    const gone = heap[0] as Unit;
    const last = heap.pop() as Unit;
    if (heap.length > 0) {
      heap[0] = last;
      down(0);
    }
    held -= size(gone);
    const n = (ofTemplate.get(gone.template) ?? 1) - 1;
    if (n > 0) ofTemplate.set(gone.template, n);
    else ofTemplate.delete(gone.template);
  }

  return {
    offer(unit) {
      if (size(unit) > room) return;
      const n = ofTemplate.get(unit.template) ?? 0;
      if (n >= PER_TEMPLATE) return;
      ofTemplate.set(unit.template, n + 1);
      heap.push(unit);
      up(heap.length - 1);
      held += size(unit);
      while (held > room) dropLongest();
    },
    units: heap,
  };
}
