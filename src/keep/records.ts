/**
 * The records sink of keep: a display copy of each record, classified and keyed, offered to the
 * view keeper, tapped whole to the store and counted into the aggregates. Loaded with the first
 * structured result.
 */
import type { RecordSink } from "../pipeline/flow.js";
import type { RunContext } from "../pipeline/run.js";
import type { Unit } from "../pipeline/unit.js";
import { createAggregator } from "./aggregate.js";
import { recordClassifier } from "./evidence.js";
import { shorten } from "./shorten.js";
import { sortValues } from "./sort.js";
import type { KeepOptions } from "./stage.js";
import { createViewKeeper, type KeptView } from "./view.js";

/** The records sink: a display copy of each record, classified and keyed, offered to the view. */
/**
 * @example
 * const records = recordsSink(options, ctx);
 * await records.sink.record(value, 1, "record");
 */
export function recordsSink(o: KeepOptions, ctx: RunContext) {
  const limits = o.records;
  const keeper = createViewKeeper(limits);
  const classify = recordClassifier();
  const aggregator = createAggregator();
  const tap = o.tap?.();
  const facts = ctx.facts.records;
  const sink: RecordSink = {
    record(value, index, role, json) {
      if (role !== "record") {
        if (facts) facts.document = value;
        return;
      }
      const text = json ?? JSON.stringify(value);
      aggregator.add(value);
      const severity = classify(value);
      const key = sortValues(limits.sort, value);
      tap?.record(value, text, severity, key);
      const shortened = facts?.shortened;
      const display =
        text.length > limits.maxStringChars
          ? shorten(value, limits.maxStringChars, shortened)
          : value;
      const unit: Unit = {
        index,
        text: display === value ? text : JSON.stringify(display),
        repeat: 1,
        // Severity orders the view only when evidence comes first (the view's comparator says).
        severity,
        omittedChars: 0,
        value: display,
        key,
      };
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
      return keeper.finish();
    },
  };
}
