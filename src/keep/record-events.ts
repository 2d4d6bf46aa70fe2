/**
 * Event templates of records, mined in input order from each record's event text (its fields,
 * its text fields' words): which sighting of its template each record is, and at the end which
 * records stand out (the first of a template seen at most twice in a repetitive stream). The
 * decision depends only on the records in order, never on memory or display sizes, so the keeper
 * and `read_result` (which pages the stored records in the same view order) always agree.
 */
import type { JsonValue, Severity } from "../pipeline/unit.js";
import { eventText } from "./record-evidence.js";
import { createTemplateTable, TEMPLATE_CAP, type Template } from "./templates.js";

/** Stand-out candidates held at once (first records of templates seen once or twice so far). */
const CANDIDATES = 256;

export interface RecordEvents<P> {
  /**
   * Mines one record: which sighting of its template it is (1: the first). `payload` makes what
   * is held of it while it may stand out.
   */
  see(value: JsonValue, severity: Severity, index: number, payload: () => P): number;
  /** The payloads of the records that stand out of `total` records. */
  finish(total: number): P[];
  readonly templates: number;
}

/**
 * @example
 * const events = createRecordEvents<number>();
 * events.see({ msg: "In stock" }, 0, 1, 1); // 1
 */
export function createRecordEvents<P>(): RecordEvents<P> {
  const candidates = new Map<Template, P>();
  const table = createTemplateTable({
    cap: TEMPLATE_CAP,
    onCommon: (t) => candidates.delete(t),
  });
  return {
    see(value, severity, index, payload) {
      const t = table.mine(eventText(value), severity, index);
      if (severity === 0 && t.runs === 1) {
        candidates.set(t, payload());
        if (candidates.size > CANDIDATES)
          candidates.delete(candidates.keys().next().value as Template);
      }
      return t.runs;
    },
    finish(total) {
      // As for lines: only a repetitive stream has stand-outs, and only templates it seldom shows.
      if (table.created * 20 > total) return [];
      const out: P[] = [];
      for (const [t, payload] of candidates)
        if (t.runs <= 2 && t.count * 100 <= total) out.push(payload);
      return out;
    },
    get templates() {
      return table.created;
    },
  };
}
