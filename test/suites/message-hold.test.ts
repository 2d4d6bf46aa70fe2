/**
 * The keeper's hold of each severe message's first line: within its room, the least severe let
 * go first, then the lines of a template holding more than eight (an enumeration must not push
 * out other templates' messages), then the longest (the fit shows the cheapest first). Checked
 * against a brute-force reading of what was offered, with a negative control: the policy it
 * replaced (earliest stay) breaks the property this one keeps.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMessageHold } from "../../src/keep/message-hold.js";
import type { Unit } from "../../src/pipeline/unit.js";

const unit = (index: number, length: number, template: number, severity: 1 | 2 | 3 = 2): Unit => ({
  index,
  text: "x".repeat(length),
  repeat: 1,
  severity,
  omittedChars: 0,
  template,
  occurrence: 1,
  fresh: false,
  symptom: index,
});

const chars = (units: readonly Unit[]) => units.reduce((n, u) => n + u.text.length + 1, 0);

/** The policy before: the earliest stay, a line that does not fit what is left is refused. */
function earliestStay(offers: readonly Unit[], room: number): Unit[] {
  const held: Unit[] = [];
  let left = room;
  for (const u of offers) {
    if (u.text.length < left) {
      held.push(u);
      left -= u.text.length + 1;
    }
  }
  return held;
}

/** No line let go is shorter than a line held (ties aside). */
function keepsShortest(offers: readonly Unit[], held: readonly Unit[]): boolean {
  const kept = new Set(held);
  const longestHeld = Math.max(0, ...held.map((u) => u.text.length));
  return offers.every((u) => kept.has(u) || u.text.length >= longestHeld);
}

describe("message hold", () => {
  // One severity, a template each: only the room decides.
  const offers = fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 200 });
  const unitsOf = (lengths: readonly number[]) => lengths.map((n, i) => unit(i + 1, n, i));

  it("holds the shortest lines within its room", () => {
    fc.assert(
      fc.property(offers, fc.integer({ min: 50, max: 3000 }), (lengths, room) => {
        const hold = createMessageHold(room);
        const units = unitsOf(lengths);
        for (const u of units) hold.offer(u);
        const held = hold.units;
        expect(chars(held)).toBeLessThanOrEqual(room);
        expect(keepsShortest(units, held)).toBe(true);
        // Nothing is held twice, and only what was offered; what fits is all held.
        expect(new Set(held).size).toBe(held.length);
        for (const u of held) expect(units).toContain(u);
        if (chars(units) <= room) expect(held).toHaveLength(units.length);
      }),
      { numRuns: 300, seed: 26 },
    );
  });

  it("negative control: the earliest-stay policy holds long early lines over short later ones", () => {
    const found = fc
      .sample(fc.tuple(offers, fc.integer({ min: 50, max: 3000 })), { numRuns: 300, seed: 26 })
      .some(([lengths, room]) => {
        const units = unitsOf(lengths);
        return !keepsShortest(units, earliestStay(units, room));
      });
    expect(found).toBe(true);
  });

  it("a flood of short warnings does not push out a long error", () => {
    const hold = createMessageHold(400);
    hold.offer(unit(1, 200, 1, 2));
    for (let i = 2; i <= 100; i++) hold.offer(unit(i, 20, i, 1));
    expect(hold.units.some((u) => u.index === 1)).toBe(true);
    expect(chars(hold.units)).toBeLessThanOrEqual(400);
    // Control: among lines of one severity the long one is the first to go.
    const same = createMessageHold(400);
    same.offer(unit(1, 200, 1, 1));
    for (let i = 2; i <= 100; i++) same.offer(unit(i, 20, i, 1));
    expect(same.units.some((u) => u.index === 1)).toBe(false);
  });

  it("an enumeration of one template goes before other templates' lines when the room is short", () => {
    // With room, every line is held, the enumeration's too.
    const roomy = createMessageHold(10_000);
    for (let i = 1; i <= 100; i++) roomy.offer(unit(i, 40, 7));
    roomy.offer(unit(101, 200, 9));
    expect(roomy.units).toHaveLength(101);
    // Short of room: the other template's longer line stays, the enumeration gives way (without
    // that rule, as the longest held line, it would be the first to go).
    const tight = createMessageHold(400);
    for (let i = 1; i <= 100; i++) tight.offer(unit(i, 30, 7));
    tight.offer(unit(101, 60, 9));
    expect(tight.units.some((u) => u.index === 101)).toBe(true);
    expect(chars(tight.units)).toBeLessThanOrEqual(400);
  });
});
