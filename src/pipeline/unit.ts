/**
 * The one kind of unit that flows through every stage, whatever the format: a line of a log, a
 * record of a JSON array or NDJSON stream, a row of a CSV, a line of a web page's text. Formats
 * differ only in their decoder and in the keep policy that orders them.
 */

/**
 * How much a unit matters as evidence, on one scale for lines and records: 3 fatal or crash,
 * 2 error or failure, 1 warning or a unit that stands out, 0 nothing to report.
 */
export type Severity = 0 | 1 | 2 | 3;

/** A JSON value as the strict parser returns it. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** Which stream a section of the input came from. */
export type SectionName = "text" | "stdout" | "stderr";

const SECTION_RANK: Readonly<Record<SectionName, number>> = { text: 0, stdout: 1, stderr: 2 };

/**
 * Orders sections as the input lists them (stdout before stderr), whichever was read first: a
 * command's streams are decoded concurrently, and what is kept or stored must not depend on
 * which pipe answered first.
 *
 * @example
 * sections.sort(bySection); // [{ name: "stdout" }, { name: "stderr" }]
 */
export function bySection(
  a: { readonly name: SectionName },
  b: { readonly name: SectionName },
): number {
  return SECTION_RANK[a.name] - SECTION_RANK[b.name];
}

export interface Unit {
  /** 1-based position of the first line (or record) in the input. */
  readonly index: number;
  /** What is shown: the line, or the record's compact JSON (its display copy). */
  text: string;
  /** How many identical consecutive lines this unit stands for (1 = no repeat). */
  repeat: number;
  severity: Severity;
  /** Characters cut from the middle of this line by the decoder's line cap. */
  readonly omittedChars: number;
  /** The event template it belongs to (an id of its section's template table). */
  readonly template?: number;
  /** Which sighting of its template it is: 1 for the first (the template's exemplar). */
  readonly occurrence?: number;
  /**
   * Its template is new here: seen at most twice, or first seen a few lines above (a run of a
   * compiler's diagnostics), where the input's ordinary lines repeat from further back.
   */
  readonly fresh?: boolean;
  /** A severe line's message, as the summary counts it (`keep/symptom-table.ts`). */
  symptom?: number;
  /** A record's value (its display copy, with long strings shortened). */
  readonly value?: JsonValue;
  /** A record's sort key values, read from the full record. */
  readonly key?: readonly (JsonValue | undefined)[];
  /** A record's array, when the input has several (0-based, in input order). */
  readonly section?: number;
  /** A record's position within its array (1-based): arrays share the view by it. */
  readonly rank?: number;
  /**
   * The lines before this one as they came (newline-joined: 3, or more while they are lines of a
   * token or a block of tokens; see `capture.ts`), when the text was not yet redacted as it
   * passed: redaction of what is shown reads them, then deletes them.
   */
  before?: string;
  /**
   * The lines after this one as they came (newline-joined), while they may be the rest of a token
   * this line begins (see `capture.ts`): read and deleted as `before` is.
   */
  after?: string;
}
