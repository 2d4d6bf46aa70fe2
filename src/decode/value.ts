/**
 * An already-parsed value as records: its record arrays are found by the rule the JSON splitter
 * applies to the same value written as text (`record-paths.ts`), so both give the same result. A
 * value with no record array is one document.
 */
import { createRecordFacts } from "../pipeline/facts.js";
import type { RecordSink } from "../pipeline/flow.js";
import type { RunContext } from "../pipeline/run.js";
import type { JsonValue } from "../pipeline/unit.js";
import { fromJs } from "./from-js.js";
import { createLongString } from "./long-string.js";
import { findRecordArrays } from "./record-paths.js";
import type { StructuredLimits } from "./records.js";

/**
 * @example
 * await pumpValue({ events: [{ level: "ERROR" }] }, () => sinks.records(), ctx, limits);
 */
export async function pumpValue(
  value: unknown,
  sink: () => RecordSink,
  ctx: RunContext,
  limits: StructuredLimits,
  paths?: readonly string[],
  /** Blobs up to this many bytes get a SHA-256 in their placeholder (as the text path's do). */
  hashLimit = 0,
): Promise<void> {
  const facts = createRecordFacts("json");
  ctx.facts.records = facts;
  // An element's size as the JSON splitter measures the same element in text: its compact JSON,
  // with each string too long to hold as the placeholder it streams into.
  const sizeOf = (element: unknown) => {
    const read = fromJs(element, limits, true);
    if (!read.ok) return -1;
    let size = 0;
    const json = JSON.stringify(read.value, (_, v) => {
      if (typeof v !== "string" || v.length <= limits.maxStringLength) return v;
      const raw = JSON.stringify(v);
      const long = createLongString(hashLimit, { blobs: 0, blobBytes: 0, strings: 0, chars: 0 });
      long.write(raw.slice(1, -1));
      size += JSON.stringify(JSON.parse(long.end())).length - raw.length;
      return v;
    });
    size += json.length;
    return size > limits.maxRecordChars ? -1 : size;
  };
  const found = findRecordArrays(value, { ...(paths !== undefined ? { paths } : {}), sizeOf });
  const target = sink();
  if (found.sections.length === 0) {
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
  for (const { array } of found.sections) {
    if (array.length > limits.maxArrayLength) {
      facts.refusal = {
        code: "json/array-too-long",
        message: `json: array longer than ${limits.maxArrayLength} elements`,
      };
      return;
    }
  }
  const first = found.sections[0]?.path ?? "";
  if (first !== "") facts.envelope = first;
  let index = 0;
  for (const { path, array } of found.sections) {
    const section = { path, from: index + 1, count: 0 };
    facts.paths.push(section);
    for (const element of array) {
      index++;
      section.count++;
      const read = fromJs(element, limits, true);
      if (!read.ok) {
        facts.refused[read.code] = (facts.refused[read.code] ?? 0) + 1;
        continue;
      }
      facts.count++;
      const pending = target.record(read.value, index, "record");
      if (pending !== undefined) await pending;
    }
  }
  if (first !== "") {
    const around = fromJs(found.envelope, limits, true);
    if (around.ok) await target.record(around.value as JsonValue, 0, "envelope");
  }
  await target.end?.(facts.count);
}
