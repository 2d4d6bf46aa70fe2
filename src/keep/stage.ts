/**
 * The keep stage: the one budgeted selector. It drives the decoded stream into its sinks (a line
 * keeper per text section, a records keeper for records) and hands on what they held. Memory is
 * O(budget) whatever the input: a 1 GB log and a 1 KB log cost the same.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { RunFacts } from "../pipeline/facts.js";
import type { RecordSink, Sinks, UnitStream } from "../pipeline/flow.js";
import { isRerunInput } from "../pipeline/rerun.js";
import type { RunContext, Stage } from "../pipeline/run.js";
import {
  bySection,
  type JsonValue,
  type SectionName,
  type Severity,
  type Unit,
} from "../pipeline/unit.js";
import type { Reveal } from "../redact/reveal.js";
import { createKeeper, type KeeperLimits, type Kept, type Template } from "./keeper.js";
import { WILD } from "./signature.js";
import type { KeptView, ViewLimits } from "./view.js";

/** Something that sees every record after redaction, whole (the store writer): wired by the host. */
export interface RecordTap {
  /**
   * `severity` and `key` are the record's as keep classified and keyed it; `occurrence` is which
   * sighting of its template it is (1: the first), so the stored view orders as keep's does.
   */
  record(
    value: JsonValue,
    text: string,
    severity?: Severity,
    key?: readonly (JsonValue | undefined)[],
    occurrence?: number,
    /** The record's array, when the input has several (0-based). */
    section?: number,
  ): void;
  /** The records (0-based, in tap order) that stood out once the input ended: evidence too. */
  standOuts?(at: readonly number[]): void;
}

/** Something that sees every text section's filtered text (the store's text writer). */
export interface TextTap {
  section(name: SectionName): (text: string) => void;
}

export interface KeepOptions {
  readonly lines: KeeperLimits;
  readonly records: ViewLimits & {
    /** Strings longer than this are shortened in the display copy the keeper holds. */
    readonly maxStringChars: number;
  };
  /** A fresh tap for each structured result (the store writer), when the host keeps results. */
  readonly tap?: () => RecordTap;
  /** A fresh tap for each text result (the store's text writer), when the host keeps text. */
  readonly textTap?: () => TextTap;
  /**
   * The redaction of held lines, for a run whose text was not redacted as it passed (the redact
   * stage's `revealer`): every held line goes through it once, before anything renders it.
   */
  readonly revealer?: (facts: RunFacts) => Reveal | undefined;
}

/** What keep held: each text section's lines, or the records' view. */
export interface KeptInput {
  readonly sections: ReadonlyArray<{ readonly name: SectionName; readonly kept: Kept }>;
  readonly view?: KeptView;
  readonly tap?: RecordTap;
  readonly textTap?: TextTap;
}

/**
 * @example
 * const keep = createKeep({ lines: limits, records: { chars: 32_000, sort: undefined, errorsFirst: true, maxStringChars: 2000 } });
 * const kept = await keep.run(stream, ctx);
 */
export function createKeep(o: KeepOptions): Stage<UnitStream, KeptInput> {
  return {
    name: "keep",
    async run(stream, ctx) {
      const sections: Array<{ name: SectionName; keeper: ReturnType<typeof createKeeper> }> = [];
      // A re-run's keys, taken once for every section (the result keeps no hold on them after).
      const rerun = ctx.rerun?.take();
      if (rerun !== undefined && !isRerunInput(rerun))
        throw new AirlockError("options/invalid", "prepare: rerun must be a session's");
      let records: Deferred | undefined;
      let textTap: TextTap | undefined;
      const sinks: Sinks = {
        lines(name) {
          const keeper = createKeeper(o.lines, rerun);
          sections.push({ name, keeper });
          textTap ??= o.textTap?.();
          const tap = textTap?.section(name);
          return tap ? { sink: keeper, tap } : { sink: keeper };
        },
        records() {
          records ??= deferred(o, ctx);
          return records.sink;
        },
      };
      await stream.pump(sinks);
      const held = records ? await records.ready : undefined;
      const kept = sections
        .sort(bySection)
        .map(({ name, keeper }) => ({ name, kept: keeper.finish() }));
      const reveal = o.revealer?.(ctx.facts);
      if (reveal !== undefined) {
        revealAll(
          kept.map((k) => k.kept),
          reveal,
        );
        // Every line was held: every line was redacted.
        if (kept.every((k) => k.kept.complete)) ctx.facts.redactionScope = "read";
      }
      for (const { name, kept: k } of kept) {
        const facts = ctx.facts.sections.find((s) => s.name === name);
        if (facts) facts.lines = k.lines;
      }
      return {
        sections: kept,
        ...(held ? { view: held.finish(), ...(held.tap ? { tap: held.tap } : {}) } : {}),
        ...(textTap ? { textTap } : {}),
      };
    },
  };
}

/**
 * Redacts each held line once (a line may be in the tail and in an evidence group): the held
 * lines of a section in line order, in runs of lines that follow each other in the input, each
 * run with the lines before its first and after its last.
 */
function revealAll(sections: readonly Kept[], reveal: Reveal): void {
  const done: Array<[Unit, Kept]> = [];
  sections.forEach((kept, section) => {
    const units = new Set<Unit>();
    for (const list of [
      kept.head,
      kept.tail,
      kept.rare,
      kept.messages,
      ...kept.groups.map((g) => g.units),
    ]) {
      for (const u of list) units.add(u);
    }
    const ordered = [...units].sort((a, b) => a.index - b.index);
    for (let i = 0; i < ordered.length; ) {
      let j = i + 1;
      while (j < ordered.length) {
        const prev = ordered[j - 1] as Unit;
        if ((ordered[j] as Unit).index !== prev.index + prev.repeat) break;
        j++;
      }
      const run = ordered.slice(i, j);
      const raw = run.map((u) => u.text);
      const first = run[0] as Unit;
      const last = run[run.length - 1] as Unit;
      reveal(run, first.before, last.after, section);
      run.forEach((u, k) => {
        delete u.before;
        delete u.after;
        if (u.text !== raw[k] && u.template !== undefined)
          forget(kept.templates.get(u.template), u.text);
        done.push([u, kept]);
      });
      i = j;
    }
  });
  // Then the echoes of what was found, in every held line of every section.
  for (const [u, kept] of done) {
    const raw = u.text;
    reveal.echoes(u);
    if (u.text !== raw && u.template !== undefined) forget(kept.templates.get(u.template), u.text);
  }
  // And in the first line of every severe message (the summary names a message by it, shown or
  // not): a password echoed on an error line is a secret there too.
  for (const kept of sections) {
    for (const entry of kept.symptoms?.entries.values() ?? []) {
      const unit: Unit = {
        index: entry.first,
        text: entry.line,
        repeat: 1,
        severity: entry.severity,
        omittedChars: 0,
      };
      reveal.echoes(unit);
      entry.line = unit.text;
    }
  }
}

/**
 * A template mined from a line before it was redacted may list it in `meta.evidence` (its lines
 * cut): the tokens of the line that redaction took out become wildcards there too.
 */
function forget(t: Template | undefined, shown: string): void {
  if (t === undefined) return;
  const tokens = t.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token !== WILD && !shown.includes(token)) tokens[i] = WILD;
  }
}

type Loaded = ReturnType<typeof import("./records.js")["recordsSink"]>;

interface Deferred {
  readonly sink: RecordSink;
  readonly ready: Promise<Loaded>;
}

/** The records sink, loaded on first use (it stays out of the core); calls wait for it once. */
function deferred(o: KeepOptions, ctx: RunContext): Deferred {
  const ready = import("./records.js").then((m) => m.recordsSink(o, ctx));
  let loaded: Loaded | undefined;
  void ready.then((l) => {
    loaded = l;
  });
  return {
    ready,
    sink: {
      record(value, index, role, json) {
        if (loaded) return loaded.sink.record(value, index, role, json);
        return ready.then((l) => l.sink.record(value, index, role, json));
      },
      end(count) {
        return ready.then((l) => l.sink.end?.(count));
      },
    },
  };
}
