/**
 * An already-parsed value as records: its record arrays are found by the rule the JSON splitter
 * applies to the same value written as text (`record-paths.ts`), so both give the same result. A
 * value with no record array is one document.
 */
import { createRecordFacts } from "../pipeline/facts.js";
import type { RecordSink } from "../pipeline/flow.js";
import type { RunContext } from "../pipeline/run.js";
import type { JsonValue } from "../pipeline/unit.js";
import { countOf, fromJs, type ReadBudget } from "./from-js.js";
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
  /**
   * Characters the records may expand to all together, strings at their full length: a value that
   * refers to one string from many places is read as the text it stands for, under the same cap.
   */
  maxChars = Number.POSITIVE_INFINITY,
): Promise<void> {
  const facts = createRecordFacts("json");
  const budget: ReadBudget = { left: maxChars, wide: new WeakSet() };
  ctx.facts.records = facts;
  // An element's size as the JSON splitter measures the same element in text: its compact JSON,
  // with each string too long to hold as the placeholder it streams into.
  // One element met from many arrays is measured once.
  const sizes = new Map<unknown, number>();
  const sizeOf = (element: unknown) => {
    if (typeof element !== "object" || element === null) return measure(element);
    let size = sizes.get(element);
    if (size === undefined) {
      size = measure(element);
      sizes.set(element, size);
    }
    return size;
  };
  const measure = (element: unknown) => {
    const read = fromJs(element, limits, true, limits.maxRecordChars);
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
  let found: ReturnType<typeof findRecordArrays>;
  const lengths: number[] = [];
  try {
    found = findRecordArrays(value, { ...(paths !== undefined ? { paths } : {}), sizeOf });
    for (const { array } of found.sections) lengths.push(lengthOf(array));
  } catch {
    // A host object whose traps throw where the record arrays are looked for (a revoked Proxy).
    facts.refusal = { code: UNREADABLE_READ.code, message: UNREADABLE_READ.message };
    return;
  }
  const target = sink();
  if (found.sections.length === 0) {
    facts.shape = "document";
    const read = fromJs(value, limits, true, limits.maxDocumentChars, budget);
    if (!read.ok) {
      if (read.capped) facts.refusal = capRefusal(maxChars);
      else facts.refusal = { code: read.code, message: read.message };
      return;
    }
    await target.record(read.value, 0, "document");
    await target.end?.(0);
    return;
  }
  for (const length of lengths) {
    if (length > limits.maxArrayLength) {
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
  reading: for (const [at, { path, array }] of found.sections.entries()) {
    const section = { path, from: index + 1, count: 0 };
    facts.paths.push(section);
    // By index, not by iterator: a host's array (a Proxy) is read as JSON.stringify reads it.
    const length = lengths[at] as number;
    for (let i = 0; i < length; i++) {
      // A value is read in microtasks: the deadline is checked against the clock, as at a read.
      if (ctx.stopper?.due()) {
        facts.stopped = ctx.stopper.reason() ?? "timeout";
        break reading;
      }
      const element = elementOf(array, i);
      const read =
        element === UNREADABLE
          ? UNREADABLE_READ
          : fromJs(element, limits, true, limits.maxRecordChars, budget);
      if (!read.ok && "capped" in read) {
        // The rest is not read, as the byte cap stops a text input: declared as a cut.
        facts.capped = true;
        facts.bytes = maxChars;
        break reading;
      }
      index++;
      section.count++;
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
    const around = fromJs(found.envelope, limits, true, limits.maxDocumentChars);
    if (around.ok) await target.record(around.value as JsonValue, 0, "envelope");
  }
  await target.end?.(facts.count);
}

const UNREADABLE: unique symbol = Symbol("unreadable");
const UNREADABLE_READ = {
  ok: false,
  code: "json/unreadable",
  message: "json: the value could not be read (a getter or toJSON threw)",
} as const;

/** A host's array length as a count (one that is not is thrown, read as unreadable). */
function lengthOf(array: readonly unknown[]): number {
  const n = countOf(array.length);
  if (n === undefined) throw new TypeError("length");
  return n;
}

function capRefusal(maxChars: number) {
  return {
    code: "json/too-large",
    message: `json: the document is cut by maxBytes (${maxChars}) and is not an array of records`,
  } as const;
}

/** An element of a host's array, or UNREADABLE when its getter or a Proxy trap throws. */
function elementOf(array: readonly unknown[], i: number): unknown {
  try {
    return array[i];
  } catch {
    return UNREADABLE;
  }
}
