/**
 * The summary's own count of what went wrong (issue 29). Every severe line reaches the keeper,
 * so each can be counted exactly, by its message (`pipeline/message.ts`: the line past its
 * header, its varying words made `<*>`). Two lines with one message are one symptom, whichever
 * host or process wrote them; the template table groups more loosely, for ranking, and is not
 * used here. Only counts, positions and times are kept, and each message's first line (cut at
 * a word): what the summary shows of it is made in `meta`, from that line once redacted, so a
 * secret is never cut into pieces the redaction would not know. The table is bounded: past
 * MAX_SYMPTOMS messages, new ones are only counted.
 */
import { messageKey, messageOf } from "../pipeline/message.js";
import { LineKeys } from "../pipeline/rerun.js";
import { detach } from "../pipeline/text.js";
import type { Severity } from "../pipeline/unit.js";

/** Messages the table holds at most. */
export const MAX_SYMPTOMS = 1024;
/** Characters of a message's first line held (cut back to a space). */
const MAX_LINE = 480;

export interface SymptomEntry {
  /** The message's key (`messageKey`: `lineKey` of its masked text). */
  readonly key: number;
  severity: Severity;
  /** Lines of it, each repeat counted. */
  count: number;
  readonly first: number;
  last: number;
  readonly firstTime: string | undefined;
  lastTime: string | undefined;
  /**
   * Its first line, whole words only, at most MAX_LINE characters, not yet redacted by rule
   * (the keep stage redacts in it the echoes of secrets found in held lines; `meta` and the text
   * redact the rest).
   */
  line: string;
  /** The mildest severity of its lines (a message logged as a warning and as an error). */
  least: Severity;
}

export interface SymptomTable {
  /**
   * Counts a severe line at `position` (`repeats`: the same text as the line before); the key
   * of its message, for the unit that holds it.
   */
  add(line: string, severity: Severity, position: number, repeats: boolean): number;
  readonly entries: ReadonlyMap<number, SymptomEntry>;
  /** Messages that came after the table was full (at least, past 65,536 of them). */
  readonly more: number;
  /** `more` is a floor: past 65,536 of them, new messages were not told apart. */
  readonly moreAtLeast: boolean;
}

/** Strings the table keeps past the run are copies (`detach`), not slices of a decoded chunk. */
const own = (text: string | undefined) => (text === undefined ? text : detach(text));

/** The line cut back to its last whole word within MAX_LINE (a word longer than that goes). */
function held(line: string): string {
  if (line.length <= MAX_LINE) return detach(line);
  const space = line.lastIndexOf(" ", MAX_LINE);
  return space > 0 ? detach(line.slice(0, space)) : "";
}

/**
 * @example
 * const table = createSymptomTable();
 * table.add("Jun 14 15:16:01 combo sshd[19939]: authentication failure; rhost=218.188.2.4", 2, 1, false);
 * [...table.entries.values()][0]?.count; // 1
 */
export function createSymptomTable(): SymptomTable {
  const entries = new Map<number, SymptomEntry>();
  const overflow = new LineKeys();
  // The entry the line before was counted in, and where: a repeat of it counts there.
  let last: SymptomEntry | undefined;
  let lastAt = 0;
  return {
    entries,
    get more() {
      return overflow.size;
    },
    get moreAtLeast() {
      return overflow.full;
    },
    add(line, severity, position, repeats) {
      if (repeats && last !== undefined && lastAt === position - 1) {
        last.count++;
        last.last = position;
        lastAt = position;
        return last.key;
      }
      const { at, time } = messageOf(line);
      const key = messageKey(line, at);
      const entry = entries.get(key);
      lastAt = position;
      if (entry !== undefined) {
        entry.count++;
        entry.last = position;
        entry.lastTime = own(time);
        if (severity > entry.severity) entry.severity = severity;
        if (severity < entry.least) entry.least = severity;
        last = entry;
        return key;
      }
      if (entries.size >= MAX_SYMPTOMS) {
        overflow.add(key);
        last = undefined;
        return key;
      }
      last = {
        key,
        severity,
        least: severity,
        count: 1,
        first: position,
        last: position,
        firstTime: own(time),
        lastTime: own(time),
        line: held(line),
      };
      entries.set(key, last);
      return key;
    },
  };
}
