/**
 * The redact stage: the one place where units are cleaned before anything keeps them. Text is
 * filtered as it is decoded, before it is split into lines, so a secret split between chunks is
 * whole when it is matched and nothing unredacted is ever kept, skipped over or cut; records are
 * cleaned value by value (invisible characters, blobs, secrets). The stage also lends the run its
 * cleaner for tool-supplied strings that are not units (titles, names, ids, status text), so
 * `meta` and markers pass the same cleaning as the text.
 */
import { stripAnsi } from "../decode/normalize.js";
import type { RunFacts } from "../pipeline/facts.js";
import { type RecordSink, through, type UnitStream } from "../pipeline/flow.js";
import type { Stage } from "../pipeline/run.js";
import { cutText } from "../pipeline/text.js";
import type { CleanStats } from "./clean.js";
import { stripInvisible } from "./invisible.js";
import { engineOf, type Redactor } from "./redact.js";
import { createTextFilter } from "./stream.js";

export interface RedactStageOptions {
  /** The compiled redactor; absent when redaction is off. */
  readonly redactor: Redactor | undefined;
  readonly invisible: boolean;
  /** Blobs up to this many decoded bytes get a SHA-256 in their placeholder. */
  readonly hashLimit: number;
  /** (rule, value) pairs kept for keyed fingerprints (0 without a fingerprint key). */
  readonly keepValues: number;
}

/** Cleans a string the tool supplied that is not a unit; `max` caps its length (code units). */
export type Cleaner = (text: string, max?: number) => string;

export interface RedactStage extends Stage<UnitStream, UnitStream> {
  /** The one cleaner for tool-supplied strings: escapes, invisible characters, secrets, a cap. */
  readonly clean: Cleaner;
}

/**
 * @example
 * const redact = createRedactStage({ redactor: createRedactor(), invisible: true, hashLimit: 1 << 24, keepValues: 0 });
 * redact.clean("Bearer ghp_…"); // "Bearer [REDACTED:github_token]"
 */
export function createRedactStage(o: RedactStageOptions): RedactStage {
  const engine = o.redactor ? engineOf(o.redactor) : undefined;
  const clean: Cleaner = (text, max = Number.POSITIVE_INFINITY) => {
    let out = typeof text === "string" ? text : String(text);
    if (o.invisible) out = stripInvisible(stripAnsi(out)).text;
    if (o.redactor) out = o.redactor(out).text;
    return cutText(out, max, "…");
  };
  return {
    name: "redact",
    clean,
    run(stream, ctx) {
      if (o.redactor === undefined && !o.invisible) return stream;
      const facts = ctx.facts;
      return through(stream, (inner) => ({
        lines(section) {
          const target = inner.lines(section);
          const filter = createTextFilter({
            ...(engine ? { engine } : {}),
            invisible: o.invisible,
            keepValues: o.keepValues,
            stats: facts,
          });
          // The target's other members (the store's tap) pass through: it sees the filtered text.
          return { ...target, filter };
        },
        records: () => cleaned(inner.records(), o, facts),
      }));
    },
  };
}

function cleaned(next: RecordSink, o: RedactStageOptions, facts: RunFacts): RecordSink {
  const stats = statsOf(facts);
  const options = {
    redactor: o.redactor,
    invisible: o.invisible,
    hashLimit: o.hashLimit,
    keepValues: o.keepValues,
  };
  // Records are cleaned one at a time (each is awaited before the next), so one slot serves.
  const made: { text?: string | undefined } = {};
  // The record cleaner loads with the first structured result: it stays out of the core.
  const loading = import("./clean.js");
  let cleanRecord: typeof import("./clean.js")["cleanRecord"] | undefined;
  return {
    record(value, index, role) {
      if (cleanRecord === undefined) {
        return loading.then((m) => {
          cleanRecord = m.cleanRecord;
          return this.record(value, index, role);
        });
      }
      const out = cleanRecord(value, options, stats, role === "record" ? made : undefined);
      if (out instanceof Promise) {
        return out.then((c) =>
          next.record(c, index, role, role === "record" ? made.text : undefined),
        );
      }
      return next.record(out, index, role, role === "record" ? made.text : undefined);
    },
    end: (count) => next.end?.(count),
  };
}

/** Cleaning's counts, written straight into the run's facts. */
function statsOf(facts: RunFacts): CleanStats {
  const blobs = () => facts.records?.blobs ?? { count: 0, bytes: 0 };
  return {
    invisible: facts.invisible,
    redactions: facts.redactions,
    values: facts.values,
    get blobs() {
      return blobs().count;
    },
    set blobs(n: number) {
      blobs().count = n;
    },
    get blobBytes() {
      return blobs().bytes;
    },
    set blobBytes(n: number) {
      blobs().bytes = n;
    },
  };
}
