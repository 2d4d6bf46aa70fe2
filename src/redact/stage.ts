/**
 * The redact stage: the one place where units are cleaned. Text is filtered as it is decoded,
 * before it is split into lines, so a secret split between chunks is whole when it is matched.
 * When a store reads the text, the filter redacts all of it; otherwise it only cleans invisible
 * characters and redacts what a skipped line could leak (private keys, lines the decoder cuts),
 * and the lines the keeper holds are redacted once the input ended (`revealer`): the cost follows
 * what can be shown, not the input. Records are cleaned value by value (invisible characters,
 * blobs, secrets). The stage also lends the run its
 * cleaner for tool-supplied strings that are not units (titles, names, ids, status text), so
 * `meta` and markers pass the same cleaning as the text.
 */
import { stripAnsi } from "../decode/normalize.js";
import type { RunFacts } from "../pipeline/facts.js";
import { type RecordSink, through, type UnitStream } from "../pipeline/flow.js";
import type { Stage } from "../pipeline/run.js";
import { cutText } from "../pipeline/text.js";
import { capturing } from "./capture.js";
import type { CleanOptions, CleanStats } from "./clean.js";
import { stripInvisible } from "./invisible.js";
import { type LoadedRedactor, type RedactorLoader, redactorLoader } from "./load.js";
import { createEchoReveal, createReveal, type Reveal } from "./reveal.js";
import { scrubErrorText, scrubMessage } from "./scrub.js";
import { createTextFilter } from "./stream.js";

export interface RedactStageOptions {
  /** The redactor, loaded on first use; absent when redaction is off. */
  readonly redactor: RedactorLoader | undefined;
  readonly invisible: boolean;
  /** Blobs up to this many decoded bytes get a SHA-256 in their placeholder. */
  readonly hashLimit: number;
  /** (rule, value) pairs kept for keyed fingerprints (0 without a fingerprint key). */
  readonly keepValues: number;
  /** The text is the tool's error (`toolError`): the last pass scrubs it as error messages are. */
  readonly toolError?: boolean;
  /** The line decoder's cap: longer lines are cut in the middle, so they are redacted whole first. */
  readonly lineCap?: number;
}

/** Cleans a string the tool supplied that is not a unit; `max` caps its length (code units). */
export type Cleaner = (text: string, max?: number) => string;

export interface RedactStage extends Stage<UnitStream, UnitStream> {
  /** Loads the rule set (once): a run awaits it before any stage may clean a string. */
  ready(): Promise<void>;
  /** The one cleaner for tool-supplied strings: escapes, invisible characters, secrets, a cap. */
  readonly clean: Cleaner;
  /**
   * A failed source's message, made safe to report: one line without stack frames, paths, hosts
   * or secrets, whatever the options say (the host's own rules apply on top), at most 400 chars.
   */
  readonly describe: (message: string) => string;
  /**
   * Secrets out of a text (the presenter's last pass), and for a tool's error its stack frames,
   * paths and hosts; absent when redaction is off and the text is no error.
   */
  readonly redact: ((text: string) => string) | undefined;
  /**
   * The redaction of held lines for a run whose text was not redacted as it passed (no store
   * read it); for one whose text was, the echoes of the secrets found; undefined when there is
   * nothing to do, or redaction is off. The keep stage calls it once the input ended; it counts
   * into the run's facts.
   */
  revealer(facts: RunFacts): Reveal | undefined;
}

/**
 * @example
 * const redact = createRedactStage({ redactor: redactorLoader({}), invisible: true, hashLimit: 1 << 24, keepValues: 0 });
 * await redact.ready();
 * redact.clean("Bearer ghp_…"); // "Bearer [REDACTED:github_token]"
 */
export function createRedactStage(o: RedactStageOptions): RedactStage {
  const loader = o.redactor;
  /** The redactor, which a run has loaded before anything asks for it. */
  const loaded = (): LoadedRedactor | undefined => {
    if (loader === undefined) return undefined;
    const l = loader.loaded;
    if (l === undefined) throw new Error("airlock: the redactor was used before it loaded");
    return l;
  };
  // Failure messages lose their secrets even when redaction is off: the default rules then.
  const scrubber = loader ?? redactorLoader({});
  const scrub = (text: string) => scrubber.loaded?.redactor(text).text ?? "";
  const clean: Cleaner = (text, max = Number.POSITIVE_INFINITY) => {
    let out = typeof text === "string" ? text : String(text);
    if (o.invisible) out = stripInvisible(stripAnsi(out)).text;
    const l = loaded();
    if (l) out = l.redactor(out).text;
    return cutText(out, max, "…");
  };
  return {
    name: "redact",
    clean,
    redact: lastPass(loader && ((text) => (loaded() as LoadedRedactor).redactor(text).text), o),
    describe: (message) => clean(scrubMessage(message, scrub) || "the source failed", 400),
    async ready() {
      await scrubber.load();
    },
    revealer(facts) {
      const engine = loaded()?.engine;
      if (engine === undefined) return undefined;
      // Every line was redacted as it passed: what is left is the echoes of what was found.
      if (facts.redactionScope !== "shown") {
        return facts.echoes !== undefined && facts.echoes.size > 0
          ? createEchoReveal(facts)
          : undefined;
      }
      return createReveal(engine, facts, o.keepValues);
    },
    async run(stream, ctx) {
      if (loader === undefined && !o.invisible) return stream;
      const l = await loader?.load();
      const engine = l?.engine;
      const facts = ctx.facts;
      const options: CleanOptions = {
        redactor: l?.redactor,
        invisible: o.invisible,
        hashLimit: o.hashLimit,
        keepValues: o.keepValues,
      };
      return through(stream, (inner) => ({
        lines(section) {
          const target = inner.lines(section);
          // A store keeps the text as the filter gives it: then all of it is redacted here.
          const full = target.tap !== undefined;
          const filter = createTextFilter({
            ...(engine ? { engine } : {}),
            invisible: o.invisible,
            keepValues: o.keepValues,
            stats: facts,
            full,
            ...(o.lineCap !== undefined ? { lineCap: o.lineCap } : {}),
          });
          if (engine === undefined) return { ...target, filter };
          if (full) {
            facts.redactionScope = "read";
            return { ...target, filter };
          }
          facts.redactionScope ??= "shown";
          // The target's other members (the store's tap) pass through: it sees the filtered text.
          const anchored = (line: string) => engine.anchored(line);
          return { ...target, sink: capturing(target.sink, anchored), filter };
        },
        records: () => cleaned(inner.records(), options, facts),
      }));
    },
  };
}

/**
 * A tool's error is scrubbed as error messages are, between two redaction passes (so no rewrite
 * can hide a secret from the rules).
 */
function lastPass(
  redact: ((text: string) => string) | undefined,
  o: RedactStageOptions,
): ((text: string) => string) | undefined {
  if (!o.toolError) return redact;
  return (text) => (redact ? redact(scrubErrorText(redact(text))) : scrubErrorText(text));
}

function cleaned(next: RecordSink, options: CleanOptions, facts: RunFacts): RecordSink {
  const stats = statsOf(facts);
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
