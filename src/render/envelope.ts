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

/**
 * Records of several arrays, each array's under its path, in the order given:
 * `{"failed": [...], "succeeded": [...]}`; an array with none shown is left out.
 *
 * @example
 * recordsData([["failed", ['{"id":3}']], ["succeeded", []]]); // '{\n"failed": [\n{"id":3}\n]\n}'
 */
export function recordsData(groups: ReadonlyArray<readonly [string, readonly string[]]>): string {
  const shown = groups.filter(([, texts]) => texts.length > 0);
  if (shown.length === 0) return "[]";
  return `{\n${shown.map(([path, texts]) => `${JSON.stringify(path)}: ${recordsJson(texts)}`).join(",\n")}\n}`;
}

/**
 * The data of shown records: one array, or grouped by the record arrays they came from when
 * the input has several (`paths`, in input order; each record's `section` indexes them), the
 * arrays in the order their first record is shown (so error records first stay first).
 *
 * @example
 * dataOf([{ text: '{"id":3}', section: 1 }], ["succeeded", "failed"]); // '{\n"failed": [\n{"id":3}\n]\n}'
 */
export function dataOf(
  records: ReadonlyArray<{ readonly text: string; readonly section?: number }>,
  paths: readonly string[],
): string {
  if (paths.length < 2) return recordsJson(records.map((r) => r.text));
  const groups = new Map<number, string[]>();
  for (const r of records) {
    const s = Math.min(r.section ?? 0, paths.length - 1);
    const texts = groups.get(s) ?? [];
    if (texts.length === 0) groups.set(s, texts);
    texts.push(r.text);
  }
  return recordsData([...groups].map(([s, texts]) => [paths[s] as string, texts] as const));
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
