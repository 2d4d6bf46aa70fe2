/**
 * The template table's bounded map: it starts small and grows to its bound, every entry and its
 * lanes moving with it; at the bound it forgets (overwrites) instead of growing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HashSlots } from "../../src/keep/signature.js";

describe("HashSlots", () => {
  it("starts small, grows while half full, and keeps every entry and its lanes", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { maxLength: 900 }),
        (keys) => {
          const map = new HashSlots<number>(4096, 2);
          expect(map.capacity).toBe(16);
          keys.forEach((k, i) => {
            const at = map.set(k, i);
            (map.lanes[0] as Uint16Array)[at] = i & 0xffff;
            (map.lanes[1] as Uint16Array)[at] = 7;
          });
          for (const [i, k] of keys.entries()) {
            const at = map.find(k);
            expect(at).toBeGreaterThanOrEqual(0);
            expect(map.valueAt(at)).toBe(i);
            expect((map.lanes[0] as Uint16Array)[at]).toBe(i & 0xffff);
            expect((map.lanes[1] as Uint16Array)[at]).toBe(7);
          }
          expect(map.capacity).toBeLessThanOrEqual(4096);
          // Under half full at every size it reached.
          expect(keys.length * 2).toBeLessThanOrEqual(Math.max(16, map.capacity));
        },
      ),
      { numRuns: 60, seed: 3 },
    );
  });

  it("at its bound it stops growing and forgets (negative control: the bound is real)", () => {
    const map = new HashSlots<number>(256);
    for (let k = 1; k <= 5000; k++) map.set(Math.imul(k, 2654435761) || 1, k);
    expect(map.capacity).toBe(256);
    let found = 0;
    for (let k = 1; k <= 5000; k++) if (map.find(Math.imul(k, 2654435761) || 1) !== -1) found++;
    expect(found).toBeLessThanOrEqual(256);
    expect(found).toBeGreaterThan(100);
  });
});
