/**
 * The keep stage: the one budgeted selector. It drives the decoded stream into its sinks (a line
 * keeper per text section, a records keeper for records) and hands on what they held. Memory is
 * O(budget) whatever the input: a 1 GB log and a 1 KB log cost the same.
 */
import type { RecordSink, Sinks, UnitStream } from "../pipeline/flow.js";
import type { RunContext, Stage } from "../pipeline/run.js";
import type { JsonValue, SectionName, Unit } from "../pipeline/unit.js";
import { createAggregator } from "./aggregate.js";
import { createKeeper, type KeeperLimits, type Kept } from "./keeper.js";
import { createRecordEvents } from "./record-events.js";
import { recordClassifier } from "./record-evidence.js";
import { shorten } from "./shorten.js";
import { sortValues } from "./sort.js";
import { createViewKeeper, detach, type KeptView, type ViewLimits } from "./view.js";

/** Something that sees every record after redaction, whole (the store writer): wired by the host. */
export interface RecordTap {
  record(value: JsonValue, text: string): void;
}

export interface KeepOptions {
  readonly lines: KeeperLimits;
  readonly records: ViewLimits & {
    /** Strings longer than this are shortened in the display copy the keeper holds. */
    readonly maxStringChars: number;
  };
  /** A fresh tap for each structured result (the store writer), when the host keeps results. */
  readonly tap?: () => RecordTap;
}

/** What keep held: each text section's lines, or the records' view. */
export interface KeptInput {
  readonly sections: ReadonlyArray<{ readonly name: SectionName; readonly kept: Kept }>;
  readonly view?: KeptView;
  readonly tap?: RecordTap;
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
      let records: ReturnType<typeof recordsSink> | undefined;
      const sinks: Sinks = {
        lines(name) {
          const keeper = createKeeper(o.lines);
          sections.push({ name, keeper });
          return { sink: keeper };
        },
        records() {
          records ??= recordsSink(o, ctx);
          return records.sink;
        },
      };
      await stream.pump(sinks);
      const kept = sections.map(({ name, keeper }) => ({ name, kept: keeper.finish() }));
      for (const { name, kept: k } of kept) {
        const facts = ctx.facts.sections.find((s) => s.name === name);
        if (facts) facts.lines = k.lines;
      }
      return {
        sections: kept,
        ...(records
          ? { view: records.finish(), ...(records.tap ? { tap: records.tap } : {}) }
          : {}),
      };
    },
  };
}

/** The records sink: a display copy of each record, classified and keyed, offered to the view. */
function recordsSink(o: KeepOptions, ctx: RunContext) {
  const limits = o.records;
  const keeper = createViewKeeper(limits);
  const classify = recordClassifier();
  const aggregator = createAggregator();
  const events = createRecordEvents<Unit>();
  let seen = 0;
  const tap = o.tap?.();
  const facts = ctx.facts.records;
  const sink: RecordSink = {
    record(value, index, role, json) {
      if (role !== "record") {
        if (facts) facts.document = value;
        return;
      }
      const text = json ?? JSON.stringify(value);
      seen++;
      tap?.record(value, text);
      aggregator.add(value);
      const severity = classify(value);
      const shortened = facts?.shortened;
      const display =
        text.length > limits.maxStringChars
          ? shorten(value, limits.maxStringChars, shortened)
          : value;
      let unit: Unit = {
        index,
        text: display === value ? text : JSON.stringify(display),
        repeat: 1,
        // Severity orders the view only when evidence comes first (the view's comparator says).
        severity,
        omittedChars: 0,
        value: display,
        key: sortValues(limits.sort, value),
      };
      const occurrence = events.see(value, severity, index, () => detach(unit));
      unit = { ...unit, occurrence };
      keeper.add(unit);
      if (facts && severity > 0) facts.evidence++;
      if (facts && severity >= 2) facts.errors++;
    },
  };
  return {
    sink,
    tap,
    finish(): KeptView {
      if (facts) facts.aggregates = aggregator.result();
      const standOuts = events.finish(seen);
      if (facts) facts.evidence += standOuts.length;
      return keeper.finish(standOuts);
    },
  };
}
