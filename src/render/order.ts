/**
 * The order of a records view's shown records: which candidates come first, and how a prefix of
 * them splits into the view's lanes. Its own module, apart from the records renderer, because
 * telemetry reads it for every records result and the renderer loads only on first use.
 */
import type { KeptView } from "../keep/view.js";
import type { Unit } from "../pipeline/unit.js";

/** Share of the room after the evidence that the head takes; the tail gets the rest. */
const HEAD_SHARE = 0.6;

/**
 * The candidates in priority order: evidence in view order, then the head and the tail
 * interleaved by their shares of characters, so any prefix of the order is a prefix of the
 * evidence, or all of it with a prefix of the head and a suffix of the tail.
 */
export function candidatesOf(view: KeptView): Unit[] {
  const order: Unit[] = [...view.evidence];
  if (view.evidenceDropped) {
    for (let i = view.tail.length - 1; i >= 0; i--) order.push(view.tail[i] as Unit);
    return order;
  }
  let h = 0;
  let t = view.tail.length - 1;
  let headChars = 0;
  let tailChars = 0;
  while (h < view.head.length || t >= 0) {
    const takeHead =
      t < 0 || (h < view.head.length && headChars * (1 - HEAD_SHARE) <= tailChars * HEAD_SHARE);
    const unit = (takeHead ? view.head[h++] : view.tail[t--]) as Unit;
    if (takeHead) headChars += unit.text.length;
    else tailChars += unit.text.length;
    order.push(unit);
  }
  return order;
}

/** How the first `k` candidates split into the lanes of the view. */
export function lanes(view: KeptView, k: number) {
  const evidence = Math.min(k, view.evidence.length);
  let head = 0;
  let tail = 0;
  if (k > evidence) {
    const order = candidatesOf(view).slice(evidence, k);
    const tails = new Set(view.tail);
    for (const u of order) if (tails.has(u)) tail++;
    head = order.length - tail;
  }
  return { evidence, head, tail };
}

/** The shown records in the order the data lists them: evidence, head, then the tail in order. */
export function shownInOrder(view: KeptView, k: number): Unit[] {
  const l = lanes(view, k);
  return [
    ...view.evidence.slice(0, l.evidence),
    ...view.head.slice(0, l.head),
    ...view.tail.slice(view.tail.length - l.tail),
  ];
}
