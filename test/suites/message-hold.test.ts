/**
 * The keeper's hold of each severe message's first line: within its room, the longest let go
 * first (the fit shows the cheapest first), and at most eight messages of one template (an
 * enumeration must not push out other templates' messages). Checked against a brute-force
 * reading of what was offered, with a negative control: the policy it replaced (earliest stay)
 * breaks the property this one keeps.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMessageHold } from "../../src/keep/message-hold.js";
import type { Unit } from "../../src/pipeline/unit.js";

const unit = (index: number, length: number, template: number): Unit => ({
  index,
  text: "x".repeat(length),
  repeat: 1,
  severity: 2,
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

/** No line let go for room is shorter than a line held (ties aside). */
function keepsShortest(offers: readonly Unit[], held: readonly Unit[]): boolean {
  const kept = new Set(held);
  const longestHeld = Math.max(0, ...held.map((u) => u.text.length));
  const perTemplate = new Map<number | undefined, number>();
  for (const u of held) perTemplate.set(u.template, (perTemplate.get(u.template) ?? 0) + 1);
  return offers.every(
    (u) =>
      kept.has(u) ||
      u.text.length >= longestHeld ||
      // Refused for its template's cap, not for room.
      (perTemplate.get(u.template) ?? 0) >= 8,
  );
}

describe("message hold", () => {
  const offers = fc.array(
    fc.record({
      length: fc.integer({ min: 1, max: 300 }),
      template: fc.integer({ min: 0, max: 5 }),
    }),
    { maxLength: 200 },
  );

  it("holds the shortest lines within its room, eight of a template at most", () => {
    fc.assert(
      fc.property(offers, fc.integer({ min: 50, max: 3000 }), (list, room) => {
        const hold = createMessageHold(room);
        const units = list.map((o, i) => unit(i + 1, o.length, o.template));
        for (const u of units) hold.offer(u);
        const held = hold.units;
        expect(chars(held)).toBeLessThanOrEqual(room);
        const per = new Map<number | undefined, number>();
        for (const u of held) per.set(u.template, (per.get(u.template) ?? 0) + 1);
        for (const n of per.values()) expect(n).toBeLessThanOrEqual(8);
        expect(keepsShortest(units, held)).toBe(true);
        // Nothing is held twice, and only what was offered.
        expect(new Set(held).size).toBe(held.length);
        for (const u of held) expect(units).toContain(u);
      }),
      { numRuns: 300, seed: 26 },
    );
  });

  it("negative control: the earliest-stay policy holds long early lines over short later ones", () => {
    const found = fc
      .sample(fc.tuple(offers, fc.integer({ min: 50, max: 3000 })), {
        numRuns: 300,
        seed: 26,
      })
      .some(([list, room]) => {
        const units = list.map((o, i) => unit(i + 1, o.length, o.template));
        return !keepsShortest(units, earliestStay(units, room));
      });
    expect(found).toBe(true);
  });

  it("an enumeration of one template leaves room for the others", () => {
    const hold = createMessageHold(10_000);
    for (let i = 1; i <= 100; i++) hold.offer(unit(i, 40, 7));
    hold.offer(unit(101, 200, 9));
    expect(hold.units.filter((u) => u.template === 7)).toHaveLength(8);
    expect(hold.units.some((u) => u.index === 101)).toBe(true);
    // A room the enumeration alone would fill: the other template's longer line is still held
    // (without the cap it would be the longest held, the first to go).
    const tight = createMessageHold(400);
    for (let i = 1; i <= 100; i++) tight.offer(unit(i, 30, 7));
    tight.offer(unit(101, 60, 9));
    expect(tight.units.some((u) => u.index === 101)).toBe(true);
  });
});
