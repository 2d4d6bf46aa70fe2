/**
 * An already-parsed value as records: an array is records, an object whose first envelope key
 * (`items`, `events`, `rows`, …) holds an array is records under that envelope, anything else is
 * one document. The same rules as for the same value written as JSON text, so both give the same
 * result.
 */
import { createRecordFacts } from "../pipeline/facts.js";
import type { RecordSink } from "../pipeline/flow.js";
import type { RunContext } from "../pipeline/run.js";
import type { JsonValue } from "../pipeline/unit.js";
import { fromJs } from "./from-js.js";
import { ENVELOPE_KEYS } from "./json-array.js";
import type { StructuredLimits } from "./records.js";

const ENVELOPES = new Set(ENVELOPE_KEYS);

/** The envelope key of an object, as the JSON splitter would find it: the first that holds an array. */
function envelopeOf(value: object): string | undefined {
  try {
    for (const key of Object.keys(value)) {
      if (!ENVELOPES.has(key)) continue;
      const v = (value as Record<string, unknown>)[key];
      if (Array.isArray(v)) return key;
    }
  } catch {
    // A throwing getter or trap: read as one document, where fromJs reports it.
  }
  return undefined;
}

/**
 * @example
 * await pumpValue({ events: [{ level: "ERROR" }] }, () => sinks.records(), ctx, limits);
 */
export async function pumpValue(
  value: unknown,
  sink: () => RecordSink,
  ctx: RunContext,
  limits: StructuredLimits,
): Promise<void> {
  const facts = createRecordFacts("json");
  ctx.facts.records = facts;
  const array = Array.isArray(value) ? value : undefined;
  const envelope =
    array === undefined && typeof value === "object" && value !== null
      ? envelopeOf(value)
      : undefined;
  const records =
    array ??
    (envelope !== undefined
      ? ((value as Record<string, unknown>)[envelope] as unknown[])
      : undefined);
  const target = sink();
  if (records === undefined) {
    facts.shape = "document";
    const read = fromJs(value, limits, true);
    if (!read.ok) {
      facts.refusal = { code: read.code, message: read.message };
      return;
    }
    await target.record(read.value, 0, "document");
    await target.end?.(0);
    return;
  }
  if (records.length > limits.maxArrayLength) {
    facts.refusal = {
      code: "json/array-too-long",
      message: `json: array longer than ${limits.maxArrayLength} elements`,
    };
    return;
  }
  if (envelope !== undefined) facts.envelope = envelope;
  for (const element of records) {
    const read = fromJs(element, limits, true);
    if (!read.ok) {
      facts.refused[read.code] = (facts.refused[read.code] ?? 0) + 1;
      continue;
    }
    facts.count++;
    const pending = target.record(read.value, facts.count, "record");
    if (pending !== undefined) await pending;
  }
  if (envelope !== undefined) {
    const around = fromJs({ ...(value as object), [envelope]: [] }, limits, true);
    if (around.ok) await target.record(around.value as JsonValue, 0, "envelope");
  }
  await target.end?.(facts.count);
}
