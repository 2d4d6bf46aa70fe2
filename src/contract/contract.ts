/**
 * Per-tool response contracts: a tool's result is checked against what the host declared before
 * the model sees it. A schema (JSON Schema, or any Standard Schema validator) says what a record
 * looks like and drops the fields it does not declare; invariants say what must hold whatever the
 * tool claims: the page size, the tenant, no write receipts from a read-only tool, a host check.
 * Violations are reported, never thrown, and name the path and the rule, never the offending value:
 * that came from the tool and may be a secret or an injection. Invariants look at the record as
 * the tool returned it; the schema shapes what the model sees.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { JsonValue } from "../decode/json.js";
import { valueAt } from "../decode/json.js";
import type { ContractCode } from "../errors/codes.js";
import {
  type Checked,
  compileSchema,
  isNode,
  type Node,
  need,
  type SchemaCheck,
} from "./schemas.js";

/**
 * A JSON Schema object (draft 2020-12 unless `$schema` names draft-04/06/07 or 2019-09), or any
 * Standard Schema validator (zod, valibot, arktype).
 * @example const schema: Schema = { type: "object", properties: { id: { type: "integer" } } };
 */
export type Schema = Readonly<Record<string, unknown>> | StandardSchemaV1;

/**
 * What a tool's result must look like.
 * @example const options: ContractOptions = { record: z.object({ id: z.number() }) };
 */
export type { ContractCode };

export interface ContractOptions {
  /** Schema of one record (for arrays, NDJSON, CSV), or of the whole document (for a single object). */
  readonly record?: Schema;
  readonly document?: Schema;
  /**
   * Drop fields the schema does not declare; default true. JSON Schema: where the schemas that
   * apply (through $ref, allOf/anyOf/oneOf, then/else, items) have `properties` and set none of
   * additionalProperties, patternProperties, unevaluatedProperties (then nothing is dropped there,
   * and values under patternProperties are kept as they are). Standard Schema: the output
   * is used (zod strips unknown keys); input keys absent from it count as dropped.
   */
  readonly dropUnknown?: boolean;
  readonly invariants?: Invariants;
}

/**
 * What must hold of every record, whatever the tool says.
 * @example const invariants: Invariants = { tenant: { path: "org.id", value: orgId }, readOnly: true };
 */
export interface Invariants {
  /** At most this many records (the caller's requested page size): more is a violation. */
  readonly maxRecords?: number;
  /** Every record must carry this value at this dot path; the value comes from the host, not the tool. */
  readonly tenant?: { readonly path: string; readonly value: string | number };
  /** A read-only tool: no side-effect field at the top level; `true` for `DEFAULT_SIDE_EFFECT_FIELDS`. */
  readonly readOnly?: boolean | readonly string[];
  /** Host check per record: return a reason string to reject (the reason is shown). */
  readonly check?: (record: JsonValue, index: number) => string | undefined;
}

/**
 * One broken rule: the message names the path and the rule, never the offending value.
 * @example { code: "contract/schema", message: "contract: record 2 fails the schema: type at /id (#/properties/id/type)", index: 2 }
 */
export interface ContractViolation {
  readonly code: ContractCode;
  readonly message: string;
  readonly index?: number;
}

/**
 * Fields dropped because the schema does not declare them: path (`owner.token`, `tags[*].x`) → count, at most 64 paths.
 * @example stats.fields; // Map { "password_hash" => 20 }
 */
export interface ContractStats {
  dropped: number;
  readonly fields: Map<string, number>;
}

/**
 * The cleaned value, or why it was refused.
 * @example const result = await contract.record(row, 0, stats); if (result.ok) keep(result.value);
 */
export type ContractResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly violation: ContractViolation };

/**
 * A contract compiled once per tool, checked per record.
 * @example for (const [i, row] of rows.entries()) await contract.record(row, i, stats); contract.end(rows.length);
 */
export interface CompiledContract {
  /** Checks one record; called in order with index 0, 1, 2, … */
  record(value: JsonValue, index: number, stats: ContractStats): Promise<ContractResult>;
  /** Checks the whole document: the document schema and readOnly (tenant and check are per record). */
  document(value: JsonValue, stats: ContractStats): Promise<ContractResult>;
  /** Called once at the end with the record count (for maxRecords). */
  end(records: number): ContractViolation | undefined;
}

/**
 * Fields databases and APIs use to report writes (MySQL, Postgres drivers, MongoDB, SQLite, Cassandra).
 * @example compileContract({ invariants: { readOnly: [...DEFAULT_SIDE_EFFECT_FIELDS, "rowsDeleted"] } });
 */
// biome-ignore format: a word list
export const DEFAULT_SIDE_EFFECT_FIELDS: readonly string[] = Object.freeze([
  "affectedRows", "affected_rows", "rowsAffected", "rows_affected", "changedRows", "changed_rows",
  "insertId", "insert_id", "insertedId", "inserted_id", "lastInsertId", "last_insert_id",
  "lastInsertRowid", "deletedCount", "deleted_count", "insertedCount", "inserted_count",
  "insertedIds", "modifiedCount", "modified_count", "upsertedCount", "matchedCount",
  "upsertedId", "upsertedIds", "nInserted", "nModified", "nRemoved", "nUpserted", "[applied]",
]);

/**
 * Fresh counters for one result.
 * @example const stats = createContractStats(); await contract.record(row, 0, stats); stats.dropped;
 */
export function createContractStats(): ContractStats {
  return { dropped: 0, fields: new Map() };
}

const MAX_STATS_PATHS = 64;
const OPTION_KEYS = ["record", "document", "dropUnknown", "invariants"];
const INVARIANT_KEYS = ["maxRecords", "tenant", "readOnly", "check"];

function onlyKeys(value: unknown, allowed: readonly string[], what: string): void {
  need(isNode(value), `${what} must be an object`);
  for (const key of Object.keys(value as Node))
    need(allowed.includes(key), `unknown ${what} "${key}"`);
}

/**
 * Compiles a contract once per tool: options are validated and schemas compiled here, so a
 * malformed schema throws (AirlockError `options/invalid`) at startup, not on the first result.
 * @example
 * const contract = compileContract({
 *   record: { type: "object", required: ["id"], properties: { id: { type: "integer" } } },
 *   invariants: { tenant: { path: "org", value: "acme" }, readOnly: true, maxRecords: 50 },
 * });
 */
export function compileContract(options: ContractOptions): CompiledContract {
  onlyKeys(options, OPTION_KEYS, "option");
  const { record, document, dropUnknown = true, invariants = {} } = options;
  need(typeof dropUnknown === "boolean", "dropUnknown must be a boolean");
  const recordSchema =
    record === undefined ? undefined : compileSchema(record, dropUnknown, "record");
  const documentSchema =
    document === undefined ? undefined : compileSchema(document, dropUnknown, "document");
  onlyKeys(invariants, INVARIANT_KEYS, "invariant");
  const { maxRecords, tenant, readOnly = false, check } = invariants;
  const count = maxRecords ?? 0;
  need(Number.isSafeInteger(count) && count >= 0, "maxRecords must be a non-negative integer");
  // Copied, so a caller changing its options object later cannot move the tenant.
  let owner: { path: string; segments: string[]; value: unknown } | undefined;
  if (tenant !== undefined) {
    const { path, value } =
      typeof tenant === "object" && tenant !== null ? tenant : { path: 0, value: 0 };
    owner = { path: String(path), segments: String(path).split("."), value };
    need(
      typeof path === "string" && !owner.segments.includes(""),
      "tenant.path must be a dot path",
    );
    need(
      typeof value === "string" || Number.isFinite(value),
      "tenant.value must be a string or a number",
    );
  }
  const list = readOnly === true ? DEFAULT_SIDE_EFFECT_FIELDS : readOnly || [];
  need(
    Array.isArray(list) && list.every((f) => typeof f === "string"),
    "readOnly must be a boolean or a list of names",
  );
  const sideEffects = new Set(list);
  need(check === undefined || typeof check === "function", "check must be a function");

  async function run(
    value: JsonValue,
    index: number | undefined,
    stats: ContractStats,
    schema?: SchemaCheck,
  ): Promise<ContractResult> {
    const refuse = (code: ContractCode, detail: string): ContractResult => {
      const message = `contract: ${index === undefined ? "document" : `record ${index}`} ${detail}`;
      return {
        ok: false,
        violation: index === undefined ? { code, message } : { code, message, index },
      };
    };
    for (const key of isNode(value) ? Object.keys(value) : [])
      if (sideEffects.has(key))
        return refuse("contract/side-effect", `carries the side-effect field "${key}" (readOnly)`);
    if (index !== undefined && owner !== undefined) {
      const found = valueAt(value, owner.segments);
      if (found === undefined) return refuse("contract/tenant", `has no tenant at ${owner.path}`);
      if (found !== owner.value)
        return refuse("contract/tenant", `has the wrong tenant at ${owner.path}`);
    }
    const drops: string[] = [];
    let checked: Checked = { ok: true, value };
    try {
      if (schema !== undefined) checked = await schema(value, drops);
    } catch {
      // Fail closed: a validator that throws has not vouched for the value.
      return refuse("contract/invalid", "could not be checked: the schema validator threw");
    }
    if (!checked.ok) return refuse(checked.code, checked.detail);
    if (index !== undefined && check !== undefined) {
      let reason: unknown;
      try {
        reason = await check(value, index);
      } catch {
        return refuse("contract/check", "was refused: host check threw");
      }
      const why = typeof reason === "string" ? reason : "(no reason)";
      if (reason !== undefined && reason !== null)
        return refuse("contract/check", `was refused by the host check: ${why}`);
    }
    for (const path of drops) {
      stats.dropped++;
      const seen = stats.fields.get(path);
      if (seen !== undefined) stats.fields.set(path, seen + 1);
      else if (stats.fields.size < MAX_STATS_PATHS) stats.fields.set(path, 1);
    }
    return checked;
  }

  return {
    record: (value, index, stats) => run(value, index, stats, recordSchema),
    document: (value, stats) => run(value, undefined, stats, documentSchema),
    end(records) {
      if (maxRecords === undefined || records <= maxRecords) return undefined;
      const message = `contract: ${records} records exceed maxRecords (${maxRecords})`;
      return { code: "contract/too-many-records", message };
    },
  };
}
