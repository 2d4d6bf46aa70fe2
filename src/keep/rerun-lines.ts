/**
 * The keeper's side of a re-run (`pipeline/rerun.ts`): every line of a keyed run leaves its key
 * for the next run of its command, and in a re-run each line is read against the earlier run's
 * keys. A line the earlier run had is ordinary whatever it says, unless that run failed (then
 * what it printed may still be why this one fails); a run of lines new since it is evidence.
 */
import { lineKey, type RerunCounts, type RerunInput } from "../pipeline/rerun.js";
import type { Severity } from "../pipeline/unit.js";

export interface RerunLines {
  /** True in a re-run (there are earlier keys to read against), false on a first run. */
  readonly against: boolean;
  /**
   * The severity a line that reached the keeper has in the re-run. `repeats`: it repeats the
   * line before; `position`: its line number.
   */
  line(text: string, given: Severity, repeats: boolean, position: number): Severity;
  /**
   * A quiet line the decoder offers (`text[start, end)` at `position`): true when it is new
   * since the earlier run and must be handed over. `skipped` says it is not, after all.
   */
  isNew(text: string, start: number, end: number, position: number): boolean;
  /** The line offered at `position` was skipped: it counts, as before (or on a first run). */
  skipped(position: number): void;
  /** Lines were skipped unseen: a run of new lines is broken there. */
  broken(): void;
  counts(): RerunCounts | undefined;
}

/** New lines made evidence at least; past them, only while new lines are at most 1 in NEW_SHARE. */
const PROMOTE_FIRST = 256;
const NEW_SHARE = 4;

/**
 * @example
 * const lens = createRerunLines({ keys: new LineKeys(), counts: new LineKeys() });
 * lens.line("ERROR boom", 2, false, 1); // 2: a first run changes nothing
 */

export function createRerunLines(rerun: RerunInput): RerunLines {
  const { keys, counts } = rerun;
  const before = rerun.before !== undefined && rerun.before.size > 0 ? rerun.before : undefined;
  const keepOld = rerun.failedBefore === true;
  let asBefore = 0;
  let fresh = 0;
  let lastKey = 0;
  let lastNew = false;
  // The key isNew() took of the line at this position, for line() or skipped() to reuse.
  let keyedAt = 0;
  let keyed = 0;
  // The skipped line last counted: the decoder may build it after all (to fold a repeat).
  let countedAt = 0;
  let countedHad = false;

  /**
   * A line that says something is wrong has its counts as in the earlier run (a count that
   * changed, `Failures: 0` then `Failures: 2`, is news); any other line: true.
   */
  function sameCounts(text: string, severity: Severity): boolean {
    if (severity === 0) return true;
    const key = lineKey(text, 0, text.length, true);
    counts.add(key);
    return rerun.countsBefore === undefined || rerun.countsBefore.has(key);
  }

  /** Records the key, and says whether the earlier run had the line (counted either way). */
  function known(key: number, counted: boolean): boolean {
    keys.add(key);
    if (before === undefined) return false;
    const had = counted && before.has(key);
    if (had) asBefore++;
    else fresh++;
    return had;
  }

  return {
    against: before !== undefined,
    line(text, given, repeats, position) {
      const key = repeats ? lastKey : keyedAt === position ? keyed : lineKey(text);
      lastKey = key;
      const had = countedAt === position ? countedHad : known(key, sameCounts(text, given));
      if (before === undefined) return given;
      // A new line is evidence from the second of a run of them: one new line among old ones
      // is more often a re-run's noise (a download, a reordered test) than its failure.
      const wasNew = lastNew;
      lastNew = !had;
      if (had) return keepOld ? given : 0;
      // Past a few hundred new lines, when most of the run is new, the run is not the one before
      // run again: its new lines say what they say, and are not all evidence.
      const promote = fresh <= PROMOTE_FIRST || fresh * NEW_SHARE <= position;
      return given === 0 && wasNew && promote ? 1 : given;
    },
    isNew(text, start, end, position) {
      keyedAt = position;
      keyed = lineKey(text, start, end);
      return before !== undefined && !before.has(keyed);
    },
    skipped(position) {
      if (keyedAt !== position) return;
      countedAt = position;
      countedHad = known(keyed, true);
    },
    broken() {
      lastNew = false;
    },
    counts: () => (before !== undefined ? { asBefore, fresh } : undefined),
  };
}
