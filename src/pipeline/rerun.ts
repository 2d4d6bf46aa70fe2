/**
 * A re-run: a result shaped against an earlier result of the same command (a session's `key`).
 * Each line of a keyed result leaves a key in a bounded set; the next run of that command reads
 * each of its lines' keys against it, and a line whose key the earlier run had is "as before".
 * A key is a 32-bit hash of the line with every word that holds a digit (a time, a duration, an
 * id, a version) and every run of spaces made one mark, so two runs of a job that differ only
 * in their numbers give the same keys. A line that says something is wrong has a second key, with
 * its counts in it (a number next to a word such as `failed` or `errors`), so a count that
 * changed (`Failures: 0` then `Failures: 2`) is not as before.
 */

/** Distinct keys a set holds at most: past it, the rest of the run's lines are not keyed. */
export const MAX_LINE_KEYS = 1 << 16;
/** Slots of the open-addressing table: twice the keys, so probes stay short. */
const SLOTS = MAX_LINE_KEYS * 2;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** What a word with a digit hashes as. */
const NUMBER_MARK = 0x23;

function isWordChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46
  );
}

/** Words a count of a run's outcome stands next to: `1 failed`, `Failures: 2`, `3 errors`. */
const TALLIES = new Set([
  "fail",
  "failed",
  "failure",
  "failures",
  "failing",
  "error",
  "errors",
  "broken",
  "passed",
  "passing",
  "pass",
  "skipped",
  "pending",
  "warning",
  "warnings",
  "tests",
]);

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** What may stand between a count and its word: a space, `:` `=` `,`. */
const isGlue = (c: number) => c === 32 || c === 58 || c === 61 || c === 44;

/** The word just before `at` (past at most two glue characters), lower-cased. */
function wordBefore(text: string, at: number, start: number): string {
  let i = at;
  for (let g = 0; g < 2 && i > start && isGlue(text.charCodeAt(i - 1)); g++) i--;
  const to = i;
  while (i > start && isLetter(text.charCodeAt(i - 1))) i--;
  return text.slice(i, to).toLowerCase();
}

function wordAfter(text: string, at: number, end: number): string {
  let i = at;
  for (let g = 0; g < 2 && i < end && isGlue(text.charCodeAt(i)); g++) i++;
  const from = i;
  while (i < end && isLetter(text.charCodeAt(i))) i++;
  return text.slice(from, i).toLowerCase();
}

/** A count of a run's outcome: a number of at most 6 digits next to a word such as `failed`. */
function isCount(text: string, from: number, to: number, start: number, end: number): boolean {
  if (to - from > 6) return false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return TALLIES.has(wordBefore(text, from, start)) || TALLIES.has(wordAfter(text, to, end));
}

/**
 * The key of `text[start, end)`: never 0 (0 marks an empty slot). With `counts`, the counts
 * of a run's outcome are part of it.
 *
 * @example
 * lineKey("took 12ms at 10:31:07", 0, 21) === lineKey("took 9ms at 10:32:44", 0, 20); // true
 * lineKey("Failures: 0") === lineKey("Failures: 2"); // true
 * lineKey("Failures: 0", 0, 11, true) === lineKey("Failures: 2", 0, 11, true); // false
 */
export function lineKey(text: string, start = 0, end = text.length, counts = false): number {
  let h = FNV_OFFSET;
  let i = start;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
      h = Math.imul(h ^ 32, FNV_PRIME);
      continue;
    }
    if (!isWordChar(c)) {
      h = Math.imul(h ^ c, FNV_PRIME);
      i++;
      continue;
    }
    // One pass over the word: hashed as it goes, and taken back to one mark if it has a digit.
    const from = i;
    const at = h;
    let digit = false;
    for (; i < end; i++) {
      const d = text.charCodeAt(i);
      if (d >= 48 && d <= 57) digit = true;
      else if (!isWordChar(d)) break;
      h = Math.imul(h ^ d, FNV_PRIME);
    }
    if (digit && !(counts && isCount(text, from, i, start, end)))
      h = Math.imul(at ^ NUMBER_MARK, FNV_PRIME);
  }
  return h >>> 0 || 1;
}

/** Slots a set starts with (64 bytes: a small result pays for a small set); it doubles as it fills, up to SLOTS. */
const FIRST_SLOTS = 16;

/** A bounded set of line keys: 64 bytes to start with, 512 KiB at most (MAX_LINE_KEYS keys). */
export class LineKeys {
  #slots = new Uint32Array(FIRST_SLOTS);
  #size = 0;
  /** True once a key was refused for the cap: lines past it were not keyed. */
  full = false;

  get size(): number {
    return this.#size;
  }

  add(key: number): void {
    if (this.#place(this.#slots, key) !== true) return;
    this.#size++;
    // Half full: twice the slots, so probes stay short.
    if (this.#size * 2 >= this.#slots.length && this.#slots.length < SLOTS) this.#grow();
  }

  has(key: number): boolean {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let at = key & mask; ; at = (at + 1) & mask) {
      const held = slots[at] as number;
      if (held === key) return true;
      if (held === 0) return false;
    }
  }

  /** Puts `key` in `slots`: true when it was new there, false when it was held or refused. */
  #place(slots: Uint32Array, key: number): boolean {
    const mask = slots.length - 1;
    for (let at = key & mask; ; at = (at + 1) & mask) {
      const held = slots[at] as number;
      if (held === key) return false;
      if (held !== 0) continue;
      if (this.#size >= MAX_LINE_KEYS) {
        this.full = true;
        return false;
      }
      slots[at] = key;
      return true;
    }
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Uint32Array(old.length * 2);
    const mask = slots.length - 1;
    for (const key of old) {
      if (key === 0) continue;
      let at = key & mask;
      while (slots[at] !== 0) at = (at + 1) & mask;
      slots[at] = key;
    }
    this.#slots = slots;
  }
}

/** What a run is read against, and where its own lines' keys go. */
export interface RerunInput {
  /** The keys of the earlier run's lines; none: this is the first run of its command. */
  readonly before?: LineKeys;
  /** The keys with counts of the lines that say something is wrong: the earlier run's, and this run's. */
  readonly countsBefore?: LineKeys;
  /** Where this run's keys go, for the next run of its command. */
  readonly keys: LineKeys;
  readonly counts: LineKeys;
  /**
   * The earlier run failed (a command's exit code, the tool's error): what it printed may still
   * be why this one fails, so a line as before keeps its evidence.
   */
  readonly failedBefore?: boolean;
}

/** A session's re-run of a command, as a run carries it (`RunContext.rerun`). */
export interface Rerun {
  /** The earlier run as airlock's lines name it: its call id (safe) and its handle. */
  readonly label?: string;
  readonly handle?: string;
  /**
   * The keys, once: keep takes them as it starts, so a result held afterwards (a session keeps
   * its keep for a re-fit) does not hold the keys of every run before it.
   */
  take(): RerunInput | undefined;
}

/**
 * @example
 * const rerun = createRerun({ keys: new LineKeys(), counts: new LineKeys() }, "call_3", handle);
 */
export function createRerun(input: RerunInput, label?: string, handle?: string): Rerun {
  let held: RerunInput | undefined = input;
  return {
    ...(label !== undefined ? { label } : {}),
    ...(handle !== undefined ? { handle } : {}),
    take() {
      const taken = held;
      held = undefined;
      return taken;
    },
  };
}

/** A `take()`n input that is a session's, or undefined (a host's own object is refused). */
export function isRerunInput(value: unknown): value is RerunInput {
  const v = value as Partial<RerunInput> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    v.keys instanceof LineKeys &&
    v.counts instanceof LineKeys &&
    (v.before === undefined || v.before instanceof LineKeys) &&
    (v.countsBefore === undefined || v.countsBefore instanceof LineKeys)
  );
}

/** Lines of a re-run's section: as in the earlier run, and new since it. */
export interface RerunCounts {
  readonly asBefore: number;
  readonly fresh: number;
}
