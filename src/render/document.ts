/**
 * The structured results that are not a list of records: a single document (shown whole when it
 * fits, else reduced step by step, else outlined) and the metadata-only result of refused input
 * or a broken contract (ids and counts, never the data).
 */
import type { RecordFacts } from "../pipeline/facts.js";
import { cutText } from "../pipeline/text.js";
import { count as n, outline } from "./describe.js";
import type { EnvelopeParts, EnvelopeRequest } from "./envelope.js";
import {
  cleaningNotes,
  type RecordsDraft,
  type RecordsInput,
  type RecordsRenderOptions,
} from "./records.js";
import { reduceValue } from "./reduce.js";

/** Refused input or a broken contract: metadata only (ids and counts), never the data. */
export function metadataOnly(
  f: RecordFacts,
  o: RecordsRenderOptions,
  message: string,
): RecordsDraft {
  const violated = f.violation !== undefined;
  const reason = violated
    ? `the result broke the tool's contract: ${o.clean(message, 240)}`
    : o.clean(message, 400);
  const ids = violated
    ? f.ids
        .filter((e) => e.index !== f.violation?.index)
        .map((e) => JSON.stringify(o.clean(e.id, 64)))
    : [];
  const facts = [
    reason,
    f.shape === "records" || f.count > 0
      ? `${n(f.count)} records read${f.capped ? " before the byte cap" : ""}`
      : "",
    ids.length > 0 ? `record ids: ${ids.join(", ")}` : "",
  ].filter(Boolean);
  const request: EnvelopeRequest = {
    texts: [],
    build: (_, level) => ({
      status: "error",
      summary:
        level === 0
          ? facts.join("; ")
          : level === 1
            ? (facts[0] ?? "")
            : `${cutText(facts[0] ?? "", 120)}…`,
      data: undefined,
    }),
    mode: o.mode,
    maxTokens: o.maxTokens,
    levels: 3,
  };
  return { kind: "envelope", requests: [request], status: () => "error" };
}

/** A single document: shown whole when it fits, else reduced step by step, else outlined. */
export function renderDocument(input: RecordsInput, o: RecordsRenderOptions): RecordsDraft {
  const f = input.facts;
  const doc = f.document ?? null;
  const notes = cleaningNotes(f, input.secrets, input.invisible, o.clean);
  const ladder: ReadonlyArray<readonly [number, number]> = [
    [o.maxStringChars, Number.POSITIVE_INFINITY],
    [o.maxStringChars, 50],
    [500, 20],
    [200, 10],
    [100, 5],
    [60, 3],
    [40, 1],
  ];
  const steps = ladder.map(([strings, items]) => reduceValue(doc, strings, items));
  const what = Array.isArray(doc)
    ? `a JSON array of ${n(doc.length)}`
    : doc !== null && typeof doc === "object"
      ? `a JSON object with ${n(Object.keys(doc).length)} keys`
      : `a JSON ${typeof doc}`;
  const build = (index: number, level: number): EnvelopeParts => {
    const step = index > 0 ? steps[index - 1] : undefined;
    const reduced = step !== undefined && (step.items > 0 || step.strings > 0);
    const parts = [what];
    if (step && reduced) {
      parts.push(
        `shown reduced: ${[step.items > 0 ? `${n(step.items)} array items and object keys left out` : "", step.strings > 0 ? `${n(step.strings)} strings shortened` : ""].filter(Boolean).join(", ")}`,
      );
    }
    if (level <= 1) parts.push(...notes);
    const lines = [parts.join("; ")];
    if (step === undefined && level <= 1)
      lines.push(`outline: ${outline(doc, { maxChars: Math.max(200, o.maxTokens) })}`);
    return {
      status: input.failed ? "error" : step === undefined || reduced ? "partial" : "ok",
      summary: lines.join("\n"),
      data: step?.text,
      ...(step === undefined || reduced ? { next: o.next } : {}),
    };
  };
  // Each step is one candidate: the fit takes the first that fits, best first; the outline last.
  const requests: EnvelopeRequest[] = steps.map((step, i) => ({
    texts: [step.text],
    build: (shown, level) => build(shown > 0 ? i + 1 : 0, level),
    mode: o.mode,
    maxTokens: o.maxTokens,
    levels: 4,
  }));
  requests.push({
    texts: [],
    build: (_, level) => build(0, level),
    mode: o.mode,
    maxTokens: o.maxTokens,
    levels: 4,
  });
  return {
    kind: "envelope",
    requests,
    status: (request, shown) => {
      if (input.failed) return "error";
      const step = shown > 0 ? steps[request] : undefined;
      const whole = step !== undefined && step.items === 0 && step.strings === 0;
      return whole && f.shortened.strings === 0 ? "ok" : "partial";
    },
  };
}
