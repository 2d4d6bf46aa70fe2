/**
 * The first line of each severe message, held apart from the evidence groups (whose reservoir
 * rolls over the middle of a long log): the lines the fit may show for messages. Held within
 * `room` characters; when a line does not fit, one of the least severe goes: the longest of a
 * template that holds more than PER_TEMPLATE messages (an enumeration, a line per test name or
 * block number, whose count one line and a marker say, must not push out the messages of other
 * templates), else the longest (the fit shows the cheapest first: a long line is the last to fit
 * a budget).
 * The hold is offered the first line of each message the symptom table keeps (at most
 * MAX_SYMPTOMS, 1,024, a section), so a scan for the one to let go stays cheap. Memory is O(room).
 */
import type { Unit } from "../pipeline/unit.js";

/** Messages of one template held before its own go first when the room is short. */
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
  const held: Unit[] = [];
  const ofTemplate = new Map<number | undefined, number>();
  let chars = 0;
  const size = (u: Unit) => u.text.length + 1;

  /**
   * The one to let go: of the least severe, the longest of a crowded template, else the longest
   * (as the evidence groups go, the least severe first: a flood of short warnings must not push
   * out an error's line).
   */
  function victim(): number {
    let at = 0;
    let rank = -1;
    for (let i = 0; i < held.length; i++) {
      const u = held[i] as Unit;
      const crowded = (ofTemplate.get(u.template) ?? 0) > PER_TEMPLATE ? 1 : 0;
      // Severity first, then crowding, then length: one number that orders them.
      const r = (4 - u.severity) * 2 ** 40 + crowded * 2 ** 39 + size(u);
      if (r > rank) {
        rank = r;
        at = i;
      }
    }
    return at;
  }

  return {
    offer(unit) {
      if (size(unit) > room) return;
      held.push(unit);
      chars += size(unit);
      ofTemplate.set(unit.template, (ofTemplate.get(unit.template) ?? 0) + 1);
      while (chars > room) {
        const at = victim();
        const gone = held[at] as Unit;
        held[at] = held[held.length - 1] as Unit;
        held.pop();
        chars -= size(gone);
        const n = (ofTemplate.get(gone.template) ?? 1) - 1;
        if (n > 0) ofTemplate.set(gone.template, n);
        else ofTemplate.delete(gone.template);
      }
    },
    units: held,
  };
}
