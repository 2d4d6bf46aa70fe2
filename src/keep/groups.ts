/**
 * The evidence reservoir of the line keeper: groups of evidence lines with their context, held
 * within a character budget. What goes first when it is full follows what an agent needs: later
 * lines of a template already held go before the first line of any template, and may use only
 * `limit` characters; first lines may use twice that, then the context around them is trimmed;
 * only then do first lines go, the least severe first. Within one
 * kind and severity the first group (often the root cause) stays while later ones roll like a
 * ring, so the first and the latest survive.
 */
import type { Severity, Unit } from "../pipeline/unit.js";

/** A piece of evidence: the lines that matched and the context around them. */
export interface Group {
  readonly units: Unit[];
  severity: Severity;
  /** Order of creation. */
  readonly seq: number;
  chars: number;
  /** Characters of the lines after the first evidence line (its trace or diagnostic). */
  traceChars: number;
  /** Holds the first line of a template: evicted only after every group that does not. */
  exemplar: boolean;
  /** Its context and later lines of templates were let go to make room. */
  trimmed: boolean;
}

/** Evidence groups held at once; eviction scans them, so this also bounds its cost per line. */
const MAX_GROUPS = 512;

export interface Reservoir {
  readonly groups: Group[];
  add(group: Group): void;
  /** `chars` more characters were added to `group` (a line attached to it). */
  grew(group: Group, chars: number): void;
  /**
   * Frees room until the groups fit their budget. `open`, the group still being built, is never
   * trimmed and never evicts a group more severe than itself; if only such groups are left it
   * gives way instead (returns true: the caller must close it).
   */
  evict(open: Group | undefined): boolean;
  readonly chars: number;
}

/**
 * @example
 * const reservoir = createReservoir(4000, blockOf);
 * reservoir.add(group);
 * reservoir.evict(undefined);
 */
export function createReservoir(
  limit: number,
  blockOf: (group: Group) => readonly Unit[] = () => [],
): Reservoir {
  const groups: Group[] = [];
  let chars = 0;

  /**
   * The group to let go among the exemplar groups or the others: the least severe, the second
   * oldest among equals. A later line of a template goes whatever its severity; a first line only
   * for a group being built that is at least as severe.
   */
  function victimOf(open: Group | undefined, exemplars: boolean): number {
    const ceiling = open && exemplars ? open.severity : 3;
    let victim = -1;
    let first = -1;
    let lowest = 4;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i] as Group;
      if (g === open || g.severity > ceiling || g.exemplar !== exemplars) continue;
      if (g.severity < lowest) {
        lowest = g.severity;
        first = i;
        victim = i;
      } else if (g.severity === lowest && victim === first) {
        victim = i;
      }
    }
    return victim;
  }

  /**
   * Lets go of all but the failure's block (`blockOf`: its headline and what explains it) and the
   * first lines of templates in the largest untrimmed exemplar group of the lowest severity: its
   * context, and the later lines of templates held already. The largest frees the most and
   * leaves the short failure blocks whole.
   */
  function trimOne(open: Group | undefined): boolean {
    let pick: Group | undefined;
    for (const g of groups) {
      if (g === open || !g.exemplar || g.trimmed) continue;
      if (
        pick === undefined ||
        g.severity < pick.severity ||
        (g.severity === pick.severity && g.chars > pick.chars)
      )
        pick = g;
    }
    if (pick === undefined) return false;
    pick.trimmed = true;
    const before = pick.chars;
    const block = new Set(blockOf(pick));
    const core = pick.units.filter(
      (u) => block.has(u) || (u.severity > 0 && (u.occurrence ?? 1) === 1),
    );
    pick.units.length = 0;
    pick.units.push(...core.slice(0, 64));
    pick.chars = 0;
    for (const u of pick.units) pick.chars += u.text.length + 1;
    chars -= before - pick.chars;
    return true;
  }

  function giveWay(open: Group): boolean {
    const at = groups.indexOf(open);
    if (at !== -1) remove(at);
    return at !== -1;
  }

  function remove(i: number): void {
    const [gone] = groups.splice(i, 1);
    chars -= (gone as Group).chars;
  }

  return {
    groups,
    get chars() {
      return chars;
    },
    add(group) {
      groups.push(group);
      chars += group.chars;
    },
    grew(_group, added) {
      chars += added;
    },
    evict(open) {
      while ((chars > limit || groups.length > MAX_GROUPS) && groups.length > 0) {
        let victim = victimOf(open, false);
        if (victim === -1) {
          // Only first lines of templates are left: a later line being built gives way to them.
          if (open && !open.exemplar) return giveWay(open);
          if (chars <= limit * 2 && groups.length <= MAX_GROUPS) return false;
          if (chars > limit * 2 && trimOne(open)) continue;
          victim = victimOf(open, true);
        }
        if (victim === -1) return open ? giveWay(open) : false;
        remove(victim);
      }
      return false;
    },
  };
}
