import type { Cut, SectionName, ShapedMeta, ShapedStatus } from "./shaped.js";

/**
 * The facts of one call, in numbers: `meta.telemetry`, and what the `onShaped` hook receives.
 * Nothing in it is tool text (no line, no key, no template, no secret): counts, positions, rule
 * ids, stable codes, and the host's own tool name.
 */
export interface ShapedTelemetry {
  /** The `tool` option (the host's name for the tool), cleaned. */
  readonly tool?: string;
  readonly status: ShapedStatus;
  readonly kind: ShapedMeta["kind"];
  readonly format?: ShapedMeta["format"];
  /**
   * The input as it arrived. `tokens` is counted exactly on inputs up to 64 KiB (the whole input,
   * unfenced, unredacted, under the configured tokenizer); beyond that it is extrapolated from
   * the first 64 KiB by bytes, and `estimated` is true (as it is when the byte cap stopped the
   * read: the rest was never seen).
   */
  readonly before: TelemetrySize & { readonly estimated: boolean };
  /**
   * What the model reads: `tokens` of `text`, its UTF-8 `bytes`, the input lines or records it
   * shows. `bound` when `tokens` is `meta.tokenBound`, not a count (`tokenCount: "bound"`).
   */
  readonly after: TelemetrySize & { readonly bound?: true };
  readonly maxTokens: number;
  readonly truncated: boolean;
  /** Where the cuts fell, with positions (`meta.cuts`; for records, the positions not shown). */
  readonly cuts: readonly TelemetryCut[];
  /**
   * Evidence (errors, failures, stand-outs) found in the input, shown, and cut. `templates`:
   * the evidence engine's `meta.evidence`, when it reports one, with every string removed.
   */
  readonly evidence: {
    readonly found: number;
    readonly kept: number;
    readonly cut: number;
    readonly templates?: unknown;
  };
  /**
   * Secrets replaced, by rule id (`meta.redactions` without fingerprints); zero when off. `scope`
   * as in `meta.redactions` (absent when redaction is off).
   */
  readonly redactions: {
    readonly count: number;
    readonly rules: Readonly<Record<string, number>>;
    readonly scope?: "shown" | "read";
  };
  /** Invisible and control characters removed. */
  readonly invisible: number;
  /** Milliseconds from the start of reading to the result (in a round: to this call's result). */
  readonly ms: number;
  /** The stable code of `meta.error`, when the tool failed. */
  readonly error?: string;
  /** In a round: this call's place, its need (tokens shaped alone) and the share it got. */
  readonly round?: {
    readonly index: number;
    readonly calls: number;
    readonly need: number;
    readonly share: number;
    readonly maxRoundTokens: number;
  };
  /** Set in `meta` when the `onShaped` hook threw (what it threw is the host's, not reported). */
  readonly hook?: "threw";
}

export interface TelemetrySize {
  readonly tokens: number;
  readonly bytes: number;
  /** Lines of text read (before) or shown (after). */
  readonly lines: number;
  /** Records read (before) or shown (after), for structured input. */
  readonly records?: number;
}

/** A cut as telemetry reports it: positions and counts only. */
export type TelemetryCut =
  | Exclude<Cut, { readonly kind: "binary" }>
  | { readonly kind: "binary"; readonly section: SectionName; readonly bytes: number }
  | {
      readonly kind: "records";
      /** 1-based, inclusive positions of records in the input that are not shown. */
      readonly from: number;
      readonly to: number;
      readonly count: number;
      /** Records read. */
      readonly of: number;
    };
