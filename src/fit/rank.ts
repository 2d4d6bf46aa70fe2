import type { Group, Kept, Unit } from "../keep/keeper.js";

/** A queue of units of one kind (evidence, head or tail of one section) with its budget share. */
interface Lane {
  readonly units: readonly Unit[];
  readonly share: number;
  next: number;
  used: number;
}

/**
 * Orders evidence groups: higher severity first; within a severity the first and the last come
 * before the middle ones (the root cause and the final failure), alternating inwards.
 */
function groupOrder(groups: readonly Group[]): Group[] {
  const bySeverity = new Map<number, Group[]>();
  for (const g of groups) {
    const list = bySeverity.get(g.severity) ?? [];
    list.push(g);
    bySeverity.set(g.severity, list);
  }
  const ordered: Group[] = [];
  for (const severity of [...bySeverity.keys()].sort((a, b) => b - a)) {
    const list = bySeverity.get(severity) as Group[];
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      ordered.push(list[lo++] as Group);
      if (lo <= hi) ordered.push(list[hi--] as Group);
    }
  }
  return ordered;
}

/**
 * Evidence lines in the order they should be given budget: every matching line of every group
 * first (by group order), then their neighbours one step away, then two, and so on.
 */
function evidenceUnits(groups: readonly Group[]): Unit[] {
  const entries: Array<{ unit: Unit; distance: number; rank: number }> = [];
  groupOrder(groups).forEach((group, rank) => {
    const cores: number[] = [];
    group.units.forEach((u, i) => {
      if (u.severity > 0) cores.push(i);
    });
    group.units.forEach((unit, i) => {
      let distance = Number.POSITIVE_INFINITY;
      for (const c of cores) distance = Math.min(distance, Math.abs(c - i));
      entries.push({ unit, distance, rank });
    });
  });
  entries.sort((a, b) => a.distance - b.distance || a.rank - b.rank || a.unit.index - b.unit.index);
  return entries.map((e) => e.unit);
}

export interface RankSection {
  readonly kept: Kept;
  /** Relative share of the budget for this section (stderr gets more than stdout). */
  readonly weight: number;
}

/**
 * Ranks every held unit by value, for a budget to be filled in this order. Lanes (evidence, head,
 * tail per section) are interleaved by token share: the lane furthest below its share goes next,
 * and a lane that runs dry leaves its share to the others.
 */
export function rank(sections: readonly RankSection[], tokensOf: (unit: Unit) => number): Unit[] {
  const lanes: Lane[] = [];
  for (const { kept, weight } of sections) {
    const hasEvidence = kept.groups.length > 0;
    const tail = [...kept.tail].reverse();
    if (hasEvidence)
      lanes.push({ units: evidenceUnits(kept.groups), share: weight * 0.5, next: 0, used: 0 });
    lanes.push({ units: kept.head, share: weight * (hasEvidence ? 0.2 : 0.4), next: 0, used: 0 });
    lanes.push({ units: tail, share: weight * (hasEvidence ? 0.3 : 0.6), next: 0, used: 0 });
  }
  const order: Unit[] = [];
  const taken = new Set<Unit>();
  for (;;) {
    let best: Lane | undefined;
    for (const lane of lanes) {
      while (lane.next < lane.units.length && taken.has(lane.units[lane.next] as Unit)) lane.next++;
      if (lane.next >= lane.units.length) continue;
      if (best === undefined || lane.used / lane.share < best.used / best.share) best = lane;
    }
    if (best === undefined) return order;
    const unit = best.units[best.next++] as Unit;
    taken.add(unit);
    order.push(unit);
    best.used += tokensOf(unit);
  }
}
