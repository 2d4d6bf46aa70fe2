/**
 * The records sink of keep: a display copy of each record, classified and keyed, offered to the
 * view keeper, tapped whole to the store and counted into the aggregates. Loaded with the first
 * structured result.
 */

import { pathSeverity } from "../decode/record-rule.js";
import { sectionOf } from "../pipeline/facts.js";
import type { RecordSink } from "../pipeline/flow.js";
import type { RunContext } from "../pipeline/run.js";
import type { Severity, Unit } from "../pipeline/unit.js";
import { createAggregator } from "./aggregate.js";
import { createRecordEvents } from "./record-events.js";
import { recordClassifier } from "./record-evidence.js";
import { shorten } from "./shorten.js";
import { sortValues } from "./sort.js";
import type { KeepOptions } from "./stage.js";
import { createViewKeeper, detach, type KeptView } from "./view.js";

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
  const events = createRecordEvents<{ readonly unit: Unit; readonly at: number }>();
  let seen = 0;
  const tap = o.tap?.();
  const facts = ctx.facts.records;
  /** Records handed on so far, per array: each record's rank in its own. */
  const ranks: number[] = [];
  /** What each array's name says of its records (`failed`: errors). */
  const hints: Severity[] = [];
  const sink: RecordSink = {
    record(value, index, role, json) {
      if (role !== "record") {
        if (facts) facts.document = value;
        return;
      }
      const text = json ?? JSON.stringify(value);
      seen++;
      aggregator.add(value);
      const section = facts && facts.paths.length > 0 ? sectionOf(facts.paths, index) : 0;
      const named = facts?.paths[section]?.path;
      if (named !== undefined && hints[section] === undefined) hints[section] = pathSeverity(named);
      const severity = Math.max(classify(value), hints[section] ?? 0) as Severity;
      const key = sortValues(limits.sort, value);
      const shortened = facts?.shortened;
      const display =
        text.length > limits.maxStringChars
          ? shorten(value, limits.maxStringChars, shortened)
          : value;
      const rank = (ranks[section] ?? 0) + 1;
      ranks[section] = rank;
      let unit: Unit = {
        index,
        text: display === value ? text : JSON.stringify(display),
        repeat: 1,
        // Severity orders the view only when evidence comes first (the view's comparator says).
        severity,
        omittedChars: 0,
        value: display,
        key,
        section,
        rank,
      };
      const at = seen - 1;
      const occurrence = events.see(value, severity, index, () => ({ unit: detach(unit), at }));
      tap?.record(value, text, severity, key, occurrence, section);
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
      tap?.standOuts?.(standOuts.map((s) => s.at));
      return keeper.finish(standOuts.map((s) => s.unit));
    },
  };
}
