/**
 * How a page too big to hold is let go piece by piece: what it has completed is detached from
 * its tree, under copies of the elements still open around it, and the elements whose content
 * began in one piece are told apart in the next (a table shows its header once, a list goes on
 * numbering).
 */
import type { HtmlElement } from "./tree.js";

/**
 * What a page too big to hold has completed so far, detached from its tree: the complete
 * content in document order under copies of the elements still open around it (so a list item
 * is still rendered in its list, a console line in its `pre`).
 */
export interface TakenPiece {
  readonly root: HtmlElement;
  /**
   * For an element whose content began in an earlier piece (a table whose header is there, a
   * list whose first items are), how many list items that piece already showed; else undefined.
   */
  readonly continued: (el: HtmlElement) => number | undefined;
  /** The piece ends inside a run of text that goes on in the next (cut after a space). */
  readonly open: boolean;
}

/** Text of the open element held back to end on a word (or line) at most: past it, it is cut. */
const PARTIAL_MAX = 64 * 1024;

/**
 * Detaches what is complete under `current`: every child of an open element but the open one,
 * and of the text still growing, what ends on a word (in `pre`, on a line); everything once the
 * page has `ended`. `begun` records, per element, that a piece held some of its content and how
 * many list items; `depth` and `held` are what stays (open elements, characters of text).
 *
 * @example
 * const { piece } = takeComplete(current, begun, false);
 * renderText([piece.root], { …, continued: piece.continued }, removed);
 */
export function takeComplete(
  current: HtmlElement,
  begun: WeakMap<HtmlElement, number>,
  ended: boolean,
): { piece: TakenPiece; depth: number; held: number } {
  const path: HtmlElement[] = [];
  for (let e: HtmlElement | undefined = current; e !== undefined; e = e.parent) path.push(e);
  path.reverse();
  /** Copies of begun elements, with the items shown before this piece. */
  const before = new Map<HtmlElement, number>();
  const copies: HtmlElement[] = [];
  const filled: boolean[] = [];
  let held = 0;
  let inPre = false;
  let open = false;
  for (let i = 0; i < path.length; i++) {
    const e = path[i] as HtmlElement;
    inPre ||= e.tag === "pre";
    const kids = e.children;
    let done = kids.length;
    const last = kids[done - 1];
    if (!ended && last !== undefined) {
      if (last === path[i + 1]) done--;
      else if (typeof last === "string") {
        const cut = completeUpTo(last, inPre);
        // The text still growing goes on in the next piece, on the same line (outside `pre`).
        if (!inPre && cut > 0 && cut < last.length) open = true;
        if (cut < last.length) {
          kids[done - 1] = last.slice(cut);
          held += last.length - cut;
          if (cut > 0) kids.splice(done - 1, 0, last.slice(0, cut));
          else done--;
        }
      }
    }
    const taken = kids.splice(0, done);
    const copy: HtmlElement = {
      tag: e.tag,
      parent: copies[i - 1],
      children: taken,
      attrs: e.attrs,
    };
    copies[i - 1]?.children.push(copy);
    copies.push(copy);
    filled.push(taken.length > 0);
    const shown = begun.get(e);
    if (shown !== undefined) before.set(copy, shown);
  }
  // An element is begun once a piece held some of its content (its own or a descendant's).
  let below = false;
  for (let i = path.length - 1; i >= 0; i--) {
    below ||= filled[i] as boolean;
    const e = path[i] as HtmlElement;
    if (!below) continue;
    let items = begun.get(e) ?? 0;
    // The item still open goes on in the next piece, under the same number: it is counted there.
    const open = copies[i + 1];
    for (const c of (copies[i] as HtmlElement).children) {
      if (typeof c !== "string" && c.tag === "li" && c !== open) items++;
    }
    begun.set(e, items);
  }
  // A begun element closed since is taken whole, as itself: what it showed is in `begun`.
  const continued = (el: HtmlElement) => (before.has(el) ? before.get(el) : begun.get(el));
  return { piece: { root: copies[0] as HtmlElement, continued, open }, depth: path.length, held };
}

/**
 * How much of the text an open element is still receiving is complete: up to its last space
 * (in `pre`, its last line break), so a piece never ends inside a word or a line; all of it
 * once the rest is too long to hold.
 */
function completeUpTo(text: string, pre: boolean): number {
  const at = pre ? text.lastIndexOf("\n") : Math.max(text.lastIndexOf(" "), text.lastIndexOf("\n"));
  const cut = at + 1;
  return text.length - cut > PARTIAL_MAX ? text.length : cut;
}
