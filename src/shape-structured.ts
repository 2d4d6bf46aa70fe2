/**
 * Structured shaping: records in, one envelope out. Each record is checked against the tool's
 * contract, projected to the fields the tool declared, cleaned (invisible characters, blobs,
 * secrets), stored for `read_result`, aggregated, and offered to the record keeper; the fit then
 * shows as many records as the budget holds, errors first, and says exactly what it left out.
 */

import type { ContractViolation } from "./contract/contract.js";
import { createProjectionStats, projectDocument, projectRecord } from "./contract/project.js";
import { fromJs } from "./decode/from-js.js";
import type { JsonValue } from "./decode/json.js";
import { type IntakeResult, readStructured, type StructuredFormat } from "./decode/structured.js";
import type { ByteSource } from "./intake/source.js";
import { createAggregator } from "./keep/aggregate.js";
import { severityOf, sortValues } from "./keep/order.js";
import { createRecordKeeper } from "./keep/view.js";
import type { CompiledOptions, StreamSource } from "./options/compile.js";
import type { Shaped } from "./pipeline/shaped.js";
import { cleanRecord, createCleanStats } from "./redact/clean.js";
import { cleanName, type Facts, render, type StructuredRun } from "./render/records.js";
import { type ShortenStats, shorten } from "./render/reduce.js";
import { createStoreWriter, type StoredResult } from "./store/store.js";

/** Ids worth listing in a metadata-only result: the usual id fields, first found. */
const ID_FIELDS = ["id", "number", "uuid", "key", "name", "_id", "sha"];
const MAX_IDS = 20;

/** Ids look like ids: numbers, or one short token (never prose a tool could write instructions in). */
const ID_TOKEN = /^[A-Za-z0-9_.:#/-]{1,64}$/;

function idOf(record: JsonValue): string | undefined {
  if (record === null || typeof record !== "object" || Array.isArray(record)) return undefined;
  for (const f of ID_FIELDS) {
    const v = record[f];
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
    if (typeof v === "string" && ID_TOKEN.test(v)) return v;
  }
  return undefined;
}

/**
 * Shapes a structured input: a source in a known format, or an already-parsed value.
 *
 * @example
 * await shapeStructured({ value: rows }, run);
 */
export async function shapeStructured(
  input:
    | {
        readonly source: StreamSource | ByteSource;
        readonly format: StructuredFormat;
        readonly sniffed?: boolean;
      }
    | { readonly value: unknown },
  run: StructuredRun,
): Promise<Shaped> {
  const o = run.options;
  const keeper = createRecordKeeper({
    chars: o.capacity,
    sort: o.sort,
    errorsFirst: o.errorsFirst,
  });
  const aggregator = createAggregator();
  const writer = o.store ? createStoreWriter(o.storeMaxChars) : undefined;
  const contract = run.contract;
  const contractStats = { dropped: 0, fields: new Map<string, number>() };
  const projectionStats = createProjectionStats();
  const clean = createCleanStats();
  const shortened: ShortenStats = { strings: 0, chars: 0 };
  const cleanOptions = { redactor: o.redactor, invisible: o.invisible, hashLimit: o.hashLimit };
  let violation: ContractViolation | undefined;
  const ids: Array<{ index: number; id: string }> = [];

  /**
   * A spec that names where the records are (`items[*].{…}` for records under `items`) applies
   * to each record; a spec that names another array (`labels[*].name`) is a path inside each
   * record.
   */
  function project(raw: JsonValue, envelope: string | undefined): JsonValue {
    const p = o.projection;
    if (p === undefined) return raw;
    const at = p.recordPath;
    const here =
      at === undefined ||
      (at.length === 0 ? envelope === undefined : at.length === 1 && at[0] === envelope);
    return here ? projectRecord(raw, p, projectionStats) : projectDocument(raw, p, projectionStats);
  }

  /** The rest of a record's way once its contract is checked; async only for blob hashes. */
  // Records are cleaned one at a time (each is awaited before the next), so one slot serves.
  const made: { text?: string | undefined } = {};
  function keep(
    value: JsonValue,
    index: number,
    envelope: string | undefined,
  ): void | Promise<void> {
    const cleaned = cleanRecord(project(value, envelope), cleanOptions, clean, made);
    if (cleaned instanceof Promise) return cleaned.then((c) => offer(c, index, made.text));
    offer(cleaned, index, made.text);
  }

  function offer(cleaned: JsonValue, index: number, json: string | undefined): void {
    const text = json ?? JSON.stringify(cleaned);
    const severity = severityOf(cleaned);
    writer?.add(cleaned, text);
    aggregator.add(cleaned);
    const display =
      text.length > o.maxStringChars ? shorten(cleaned, o.maxStringChars, shortened) : cleaned;
    keeper.add({
      index,
      value: display,
      text: display === cleaned ? text : JSON.stringify(display),
      error: severity > 0,
      // Severity orders error records only when they come first (else the view ignores it).
      severity: o.errorsFirst ? severity : 0,
      key: sortValues(o.sort, cleaned),
    });
  }

  const sink = {
    record(raw: JsonValue, index: number, envelope?: string): void | Promise<void> {
      if (ids.length < MAX_IDS) {
        const id = idOf(raw);
        if (id !== undefined) ids.push({ index, id });
      }
      if (violation !== undefined) return;
      if (contract === undefined) return keep(raw, index, envelope);
      return contract.record(raw, index, contractStats).then((checked) => {
        if (!checked.ok) violation = checked.violation;
        else return keep(checked.value, index, envelope);
      });
    },
  };

  let intake: IntakeResult;
  if ("value" in input) {
    intake = await fromValue(input.value, o, sink);
  } else {
    intake = await readStructured(
      input.source,
      input.format,
      { maxBytes: o.maxBytes, limits: o.limits, lenientLines: input.sniffed === true },
      sink,
    );
  }
  if (violation === undefined && contract && intake.records && !intake.error) {
    violation = contract.end(intake.count);
  }

  // A single document (or an envelope's other members): checked, projected and cleaned whole.
  // Envelope members answer to the same contract and field list as a document: a field list
  // that names only the records leaves them out.
  let document: JsonValue | undefined;
  if (intake.document !== undefined && violation === undefined) {
    let doc = intake.document;
    if (contract && (!intake.records || o.contract?.document !== undefined)) {
      const checked = await contract.document(doc, contractStats);
      if (!checked.ok) violation = checked.violation;
      else doc = checked.value;
      // A single object is also the one record the tenant and host checks are about.
      const inv = o.contract?.invariants;
      if (
        !intake.records &&
        violation === undefined &&
        (inv?.tenant !== undefined || inv?.check !== undefined)
      ) {
        const again = await contract.record(doc, 0, contractStats);
        if (!again.ok) violation = again.violation;
        else doc = again.value;
      }
    }
    if (violation === undefined) {
      if (o.projection) {
        doc = projectDocument(
          doc,
          o.projection,
          intake.records ? createProjectionStats() : projectionStats,
        );
      }
      document = await cleanRecord(doc, cleanOptions, clean);
    }
  }

  const kept = keeper.finish();
  let stored =
    writer && intake.records && !intake.error && violation === undefined
      ? await writer.finish({
          ...(o.tool !== undefined ? { tool: o.tool } : {}),
          format: intake.format,
          ...(intake.envelope !== undefined ? { envelope: intake.envelope } : {}),
          ...(o.sort ? { sort: o.sort.text } : {}),
          ...(o.projection ? { projection: o.projection.spec } : {}),
          errorsFirst: o.errorsFirst,
        })
      : undefined;
  if (stored && o.store) {
    // A store that refuses or fails (a quota, a network error) costs the handle, not the result.
    const kept = await Promise.resolve()
      .then(() => o.store?.put(stored as StoredResult))
      .catch(() => false);
    if (kept === false) stored = undefined;
  }

  const facts: Facts = {
    intake,
    kept,
    errors: keeper.errors,
    aggregates: intake.records ? aggregator.result() : undefined,
    document,
    violation,
    // The record that broke the contract is not vouched for by listing its id.
    ids: ids.filter((e) => e.index !== violation?.index).map((e) => e.id),
    stored,
    projectionDropped: projectionStats.dropped,
    projectionFields: cleanNames(projectionStats.fields, o),
    contractDropped: contractStats.dropped,
    shortened,
    clean,
  };
  return render(facts, run);
}

/** Dropped-field paths are tool keys: cleaned before they are shown or reported. */
function cleanNames(fields: ReadonlyMap<string, number>, o: CompiledOptions): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, count] of fields) {
    const clean = cleanName(name, o);
    out.set(clean, (out.get(clean) ?? 0) + count);
  }
  return out;
}

/** An already-parsed value: an array is records, anything else is one document. */
async function fromValue(
  value: unknown,
  o: CompiledOptions,
  sink: { record(value: JsonValue, index: number, envelope?: string): void | Promise<void> },
): Promise<IntakeResult> {
  const base = {
    format: "json" as const,
    bytes: 0,
    capped: false,
    refused: {} as Record<string, number>,
  };
  if (Array.isArray(value)) {
    if (value.length > o.limits.maxArrayLength) {
      return {
        ...base,
        records: true,
        count: 0,
        error: {
          code: "json/array-too-long",
          message: `json: array longer than ${o.limits.maxArrayLength} elements`,
        },
      };
    }
    let count = 0;
    for (const element of value) {
      const read = fromJs(element, o.limits);
      if (!read.ok) {
        base.refused[read.code] = (base.refused[read.code] ?? 0) + 1;
        continue;
      }
      const pending = sink.record(read.value, count++);
      if (pending !== undefined) await pending;
    }
    return { ...base, records: true, count };
  }
  const read = fromJs(value, o.limits);
  if (!read.ok)
    return { ...base, records: false, count: 0, error: { code: read.code, message: read.message } };
  return { ...base, records: false, count: 0, document: read.value };
}

export type { StructuredRun, SummarizeInput, Summarizer } from "./render/records.js";
