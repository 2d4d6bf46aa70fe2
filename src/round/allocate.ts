/**
 * The one allocator for results that share a budget (the parallel results of a round, the parts
 * of one MCP result): water-filling, which is max-min fair. Every result whose need is under the
 * water level gets exactly its need; the rest get the level. No result gets more than it needs,
 * the shares add up to at most the total, and the shares depend on the needs alone, never on
 * their order.
 */
import { AirlockError } from "../errors/airlock-error.js";

export interface AllocateOptions {
  /**
   * The least share a result may get: every result gets at least `min(need, min)`. Water-filling
   * already gives that whenever the total allows it; when it does not, `allocate` throws
   * `options/invalid` instead of handing out shares too small to use. Default 0.
   */
  readonly min?: number;
}

function wholeNumber(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new AirlockError(
      "options/invalid",
      `allocate: ${name} must be a whole number >= 0 (got ${String(value)})`,
    );
  }
  return value;
}

/**
 * Shares `total` tokens among results that need `needs[i]` each, max-min fairly, in whole
 * tokens. When the level falls between two whole numbers, the spare tokens go to the results
 * with the largest needs, a whole group of equal needs at a time (so equal needs always get equal
 * shares, whatever their order): at most one token less than the level's share per capped
 * result is left unused.
 *
 * @example
 * allocate([52, 5783, 5352], 6000); // [52, 2974, 2974]
 * allocate([100, 200], 1000);       // [100, 200]: every need fits
 */
export function allocate(
  needs: readonly number[],
  total: number,
  options: AllocateOptions = {},
): number[] {
  wholeNumber("total", total);
  const min = wholeNumber("min", options.min ?? 0);
  let sum = 0;
  let floor = 0;
  for (const [i, need] of needs.entries()) {
    sum += wholeNumber(`needs[${i}]`, need);
    floor += Math.min(need, min);
  }
  if (floor > total) {
    throw new AirlockError(
      "options/invalid",
      `allocate: ${total} tokens cannot give ${needs.length} results ${min} tokens each (${floor} needed)`,
    );
  }
  if (sum <= total) return [...needs];
  // Ascending needs: each, in turn, either fits under an equal split of what is left, or every
  // one from it on is capped at the level.
  const order = needs.map((need, i) => ({ need, i })).sort((a, b) => a.need - b.need);
  const shares = new Array<number>(needs.length).fill(0);
  let left = total;
  let k = 0;
  for (; k < order.length; k++) {
    const { need, i } = order[k] as { need: number; i: number };
    if (need * (order.length - k) > left) break;
    shares[i] = need;
    left -= need;
  }
  const capped = order.slice(k);
  const level = Math.floor(left / capped.length);
  let spare = left - level * capped.length;
  for (const { i } of capped) shares[i] = level;
  // Spare tokens to the largest needs, a group of equal needs at a time: a capped need is above
  // the level, so one more never exceeds it.
  for (let end = capped.length; end > 0 && spare > 0; ) {
    const need = (capped[end - 1] as { need: number }).need;
    let start = end - 1;
    while (start > 0 && (capped[start - 1] as { need: number }).need === need) start--;
    if (end - start <= spare) {
      for (let j = start; j < end; j++) shares[(capped[j] as { i: number }).i] = level + 1;
      spare -= end - start;
    }
    end = start;
  }
  return shares;
}
