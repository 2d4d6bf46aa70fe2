/** What rendering a structured result takes and gives: its options, its input, its draft. */
import type { KeptView } from "../keep/view.js";
import type { RecordFacts } from "../pipeline/facts.js";
import type { Unit } from "../pipeline/unit.js";
import type { EnvelopeMode, EnvelopeRequest } from "./envelope.js";

/** What the host's summariser gets: the records shown, already capped and cleaned. */
export interface RecordsRenderOptions {
  readonly mode: EnvelopeMode;
  readonly maxTokens: number;
  readonly maxBytes: number;
  readonly maxStringChars: number;
  readonly errorsFirst: boolean;
  readonly sort: string | undefined;
  /** What to do for the records that were left out, when they were not stored. */
  readonly next: string;
  /** Whether a store was configured (a result too large for it says so). */
  readonly storing: boolean;
  readonly tool: string | undefined;
  /** A host model's summary of the result (`fit/hop.ts`), shown in the envelope's summary. */
  readonly generated?: string;
  /** The one cleaner for tool-supplied strings. */
  readonly clean: (text: string, max?: number) => string;
  /** Writes the cursor for the records after `offset` of the view, up to `end`. */
  readonly cursor: (handle: string, offset: number, end: number) => string;
}

/** A records draft: what the fit tries, in order, and which units its candidates are. */
export interface RecordsDraft {
  readonly kind: "envelope";
  /** Requests tried in order: the first that shows a record wins; the last is shown anyway. */
  readonly requests: readonly EnvelopeRequest[];
  /** The candidates of the first request, in priority order (undefined for a document). */
  readonly candidates?: readonly Unit[];
  /** The records the first `k` candidates show, in the order the data lists them. */
  readonly shown?: (k: number) => Unit[];
  /** The status of the result for the request that was fitted and the records it showed. */
  readonly status: (
    request: number,
    shown: number,
    reduced: boolean,
  ) => "ok" | "partial" | "empty" | "error";
}

export interface RecordsInput {
  readonly view: KeptView;
  readonly facts: RecordFacts;
  readonly secrets: number;
  readonly invisible: number;
  /** Whether the tool failed: an HTTP error status, or the host said so (`toolError`). */
  readonly failed: boolean;
}
