/**
 * The contract stage: each record checked against the tool's contract (schemas and invariants)
 * as the tool returned it, then projected to the fields the tool declared. A broken contract stops
 * the records there: the result says only ids and counts, never the data. Lines pass untouched.
 */
import type { RecordFacts } from "../pipeline/facts.js";
import { type RecordSink, through, type UnitStream } from "../pipeline/flow.js";
import type { RunContext, Stage } from "../pipeline/run.js";
import type { JsonValue } from "../pipeline/unit.js";
import type { CompiledContract, ContractOptions, ContractStats } from "./contract.js";
import {
  createProjectionStats,
  type Projection,
  projectDocument,
  projectRecord,
} from "./project.js";

export interface ContractStageOptions {
  readonly contract: ContractOptions | undefined;
  readonly projection: Projection | undefined;
}

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
 * @example
 * const contract = createContractStage({ contract: { schema }, projection: compileProjection("items[*].{id,title}") });
 */
export function createContractStage(o: ContractStageOptions): Stage<UnitStream, UnitStream> {
  let compiled: Promise<CompiledContract> | undefined;
  // The validator loads with the first structured result that needs it, then stays compiled.
  const load = () => {
    const spec = o.contract;
    if (spec === undefined) return undefined;
    compiled ??= import("./contract.js").then((m) => m.compileContract(spec));
    return compiled;
  };
  return {
    name: "contract",
    run(stream, ctx) {
      if (o.contract === undefined && o.projection === undefined) return stream;
      return through(stream, (inner) => ({
        lines: inner.lines,
        records: () => checked(inner.records(), o, load(), ctx),
      }));
    },
  };
}

function checked(
  next: RecordSink,
  o: ContractStageOptions,
  loading: Promise<CompiledContract> | undefined,
  ctx: RunContext,
): RecordSink {
  const stats: ContractStats = { dropped: 0, fields: new Map<string, number>() };
  const projectionStats = createProjectionStats();
  let misplaced = false;
  const facts = (): RecordFacts | undefined => ctx.facts.records;
  let broken = false;
  const violate = (v: { code: string; message: string; index?: number }) => {
    broken = true;
    const f = facts();
    if (f) f.violation = { code: v.code as never, message: v.message, index: v.index ?? -1 };
  };

  /**
   * A spec that names where the records are (`items[*].{…}` for records under `items`) applies to
   * each record; a spec that names another array (`labels[*].name`) is a path inside each record.
   */
  const project = (raw: JsonValue): JsonValue => {
    const p = o.projection;
    if (p === undefined) return raw;
    const f = facts();
    const at = p.recordPath;
    // The spec's array is where these records are: the first array, or any of several.
    const here =
      at === undefined ||
      (at.length === 0
        ? f?.envelope === undefined
        : at.join(".") === f?.envelope || (f?.paths ?? []).some((x) => x.path === at.join(".")));
    if (!here && !misplaced && at !== undefined && at.length > 0 && f?.envelope !== undefined) {
      // A field list for another array would project each record to nothing: said once.
      misplaced = true;
      ctx.facts.degraded.push({
        code: "contract/fields-path",
        message: `fields: the field list names the array "${at.join(".")}", but the records are under "${f.envelope}"; name that array (${f.envelope}[*].…) to choose fields of the records`,
      });
    }
    return here ? projectRecord(raw, p, projectionStats) : projectDocument(raw, p, projectionStats);
  };

  const done = () => {
    const f = facts();
    if (!f) return;
    f.contractDropped = stats.dropped;
    f.projection.dropped = projectionStats.dropped;
    for (const [name, n] of projectionStats.fields) f.projection.fields.set(name, n);
  };

  return {
    async record(raw, index, role) {
      const f = facts();
      if (role === "record" && f && f.ids.length < MAX_IDS) {
        const id = idOf(raw);
        if (id !== undefined) f.ids.push({ index, id });
      }
      if (broken) return;
      const contract = await loading;
      let value = raw;
      if (role === "record") {
        if (contract) {
          const result = await contract.record(raw, index - 1, stats);
          if (!result.ok) return violate({ ...result.violation, index });
          value = result.value;
        }
        return next.record(project(value), index, role);
      }
      // A document, or the envelope's other members: checked and projected whole. Envelope
      // members answer to the same contract and field list as a document: a field list that
      // names only the records leaves them out.
      if (contract && (role === "document" || o.contract?.document !== undefined)) {
        const result = await contract.document(value, stats);
        if (!result.ok) return violate(result.violation);
        value = result.value;
        // A single object is also the one record the tenant and host checks are about.
        const inv = o.contract?.invariants;
        if (role === "document" && (inv?.tenant !== undefined || inv?.check !== undefined)) {
          const again = await contract.record(value, 0, stats);
          if (!again.ok) return violate(again.violation);
          value = again.value;
        }
      }
      if (o.projection) {
        value = projectDocument(
          value,
          o.projection,
          role === "envelope" ? createProjectionStats() : projectionStats,
        );
      }
      return next.record(value, index, role);
    },
    async end(count) {
      const contract = await loading;
      if (!broken && contract) {
        const v = contract.end(count);
        if (v) violate(v);
      }
      done();
      if (!broken) return next.end?.(count);
    },
  };
}
