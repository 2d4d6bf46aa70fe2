/**
 * The one envelope every structured result is rendered in, and the fit that chooses how many
 * records it shows. The keys are always the same, in the same order: `status`, `summary`,
 * `data`, `omitted`, `next`. In `text` form the summary is prose (only the model reads it) and
 * `data` is JSON (a program may read it); in `json` form the whole envelope is one JSON object.
 */

export type EnvelopeMode = "text" | "json";

export interface EnvelopeParts {
  readonly status: "ok" | "partial" | "empty" | "error";
  readonly summary: string;
  /** The data as JSON text (records one per line), or undefined when none is shown. */
  readonly data: string | undefined;
  readonly omitted?: { readonly count: number; readonly reason: string };
  readonly next?: string;
}

/**
 * Writes the envelope.
 *
 * @example
 * renderEnvelope({ status: "ok", summary: "2 records", data: '[\n{"a":1},\n{"a":2}\n]' }, "text");
 */
export function renderEnvelope(parts: EnvelopeParts, mode: EnvelopeMode): string {
  if (mode === "json") {
    const out = [
      `{"status":${JSON.stringify(parts.status)}`,
      `"summary":${JSON.stringify(parts.summary)}`,
    ];
    if (parts.data !== undefined) out.push(`"data":${parts.data}`);
    if (parts.omitted) out.push(`"omitted":${JSON.stringify(parts.omitted)}`);
    if (parts.next) out.push(`"next":${JSON.stringify(parts.next)}`);
    return `${out.join(",\n")}}`;
  }
  const lines = [`status: ${parts.status}`, `summary: ${parts.summary}`];
  if (parts.data !== undefined) lines.push(`data: ${parts.data}`);
  if (parts.omitted) lines.push(`omitted: ${JSON.stringify(parts.omitted)}`);
  if (parts.next) lines.push(`next: ${parts.next}`);
  return lines.join("\n");
}

/** Records as a JSON array, one per line. */
export function recordsJson(texts: readonly string[]): string {
  return texts.length === 0 ? "[]" : `[\n${texts.join(",\n")}\n]`;
}

/** Writes the envelope for the first `n` candidates at summary `level`; `first` replaces the first. */
export type BuildEnvelope = (n: number, level: number, first?: string) => EnvelopeParts;

export interface EnvelopeRequest {
  /** Candidate records' texts, in priority order. */
  readonly texts: readonly string[];
  readonly build: BuildEnvelope;
  readonly mode: EnvelopeMode;
  readonly maxTokens: number;
  /** Summary levels (0 is the fullest). */
  readonly levels: number;
  /** Smaller and smaller forms of the first record, tried when not even it fits whole. */
  readonly shrink?: (step: number) => string | undefined;
}
