/** The limits of structured parsing, with their defaults (small: the options compile them). */
import { DEFAULT_JSON_LIMITS, type JsonLimits } from "./json.js";

/** Limits of structured parsing: those of `parseJson`, plus how big one record or document may be. */
export interface StructuredLimits extends JsonLimits {
  /** Characters of one record (array element, NDJSON line, CSV row). Default 4 MiB. */
  readonly maxRecordChars: number;
  /** Characters of a single document that is not an array of records. Default 16 MiB. */
  readonly maxDocumentChars: number;
}

export const DEFAULT_STRUCTURED_LIMITS: StructuredLimits = Object.freeze({
  ...DEFAULT_JSON_LIMITS,
  maxRecordChars: 4 << 20,
  maxDocumentChars: 16 << 20,
});
