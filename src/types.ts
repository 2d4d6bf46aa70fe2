import type { ShapedErrorCode } from "./errors.js";
import type { SpotlightMode } from "./fence/spotlight.js";
import type { InvisibleCounts } from "./redact/invisible.js";

/** What `shape()` returns: exactly what the model reads, plus an audit of how it was made. */
export interface Shaped {
  /** The text the model reads: fence and markers included, at most `maxTokens` tokens. */
  readonly text: string;
  /** `ok`: complete; `partial`: something was cut; `empty`: nothing came out; `error`: the tool failed. */
  readonly status: ShapedStatus;
  readonly meta: ShapedMeta;
}

export type ShapedStatus = "ok" | "partial" | "empty" | "error";

/** A part of the input that is not in `text`, with exact positions. */
export type Cut =
  | {
      readonly kind: "lines";
      /** Which stream the lines came from: `"text"` for plain input, `"stdout"`/`"stderr"` for commands. */
      readonly section: SectionName;
      /** 1-based, inclusive line numbers in the original input. */
      readonly from: number;
      readonly to: number;
      readonly count: number;
      /** Lines in the section. */
      readonly of: number;
    }
  | {
      readonly kind: "bytes";
      readonly section: SectionName;
      /** Bytes read before the cap; the source was cancelled there. */
      readonly at: number;
      readonly limit: number;
    }
  | {
      readonly kind: "chars";
      readonly section: SectionName;
      /** A single line was shortened inside the line: cut in the middle, or runs folded. */
      readonly line: number;
      /** Characters (UTF-16 code units) not shown: cut and folded together. */
      readonly count: number;
    }
  | {
      readonly kind: "binary";
      readonly section: SectionName;
      readonly mime: string;
      readonly bytes: number;
    };

export type SectionName = "text" | "stdout" | "stderr";

export interface SectionMeta {
  readonly name: SectionName;
  /** Bytes read from this source (stops at the byte cap). */
  readonly bytes: number;
  /** Lines read (after CRLF, progress-bar and repeat handling they are still counted one by one). */
  readonly lines: number;
  /** Lines represented in `text`: a folded run of repeats counts every line it stands for. */
  readonly keptLines: number;
  /** Evidence lines (errors, failures, stand-outs) found anywhere in the input. */
  readonly evidenceLines: number;
  /** Evidence lines that made it into `text`. */
  readonly keptEvidenceLines: number;
  /** True when the byte cap stopped the read before the end of the source. */
  readonly capped: boolean;
  /** Invalid UTF-8 sequences replaced (runs of them collapsed to one U+FFFD). */
  readonly invalidUtf8: number;
  /** Set when the source was binary and was not decoded. */
  readonly binary?: BinaryInfo;
}

export interface BinaryInfo {
  readonly mime: string;
  /** Bytes read; exact unless `complete` is false (the byte cap stopped the read). */
  readonly bytes: number;
  readonly complete: boolean;
  /** Hex SHA-256 of the bytes read, when they were no more than `hashLimit`. */
  readonly sha256?: string;
}

export interface ShapedMeta {
  /** The input kind that was shaped. */
  readonly kind: "text" | "command" | "binary";
  /** Total bytes read across all sources. */
  readonly bytes: number;
  /** Total lines read across text sources. */
  readonly lines: number;
  /** Token count of `text` under the configured tokenizer. */
  readonly tokens: number;
  readonly maxTokens: number;
  readonly tokenizer: string;
  /** True when anything was left out of `text`. */
  readonly truncated: boolean;
  readonly cuts: readonly Cut[];
  /** Lines omitted in total (sum of `lines` cuts). */
  readonly omittedLines: number;
  readonly sections: readonly SectionMeta[];
  /** The fence boundary, when the text is fenced (`untrusted: true`). */
  readonly boundary?: string;
  readonly tool?: string;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  /** HTTP status when the input was a `Response`. */
  readonly httpStatus?: number;
  /**
   * Secrets replaced anywhere in the input (shown or omitted), by rule id; absent when redaction
   * is off. `fingerprints` (with `redact.fingerprintKey`) are keyed hashes, never the values.
   */
  readonly redactions?: {
    readonly count: number;
    readonly rules: Readonly<Record<string, number>>;
    readonly fingerprints?: ReadonlyArray<{ readonly rule: string; readonly fingerprint: string }>;
  };
  /** How the text is marked as untrusted (the `spotlight` option), and the datamark in use. */
  readonly spotlight: { readonly mode: SpotlightMode; readonly marker?: string };
  /** Invisible and control characters removed, by class; absent when `invisible: false`. */
  readonly invisible?: InvisibleCounts & { readonly count: number };
  /** Why `status` is `error`, when it is. */
  readonly error?: {
    readonly code: ShapedErrorCode;
    readonly message: string;
    /** Whether the same call may succeed later (set by `shapeError`). */
    readonly retryable?: boolean;
    /** `tool`: the tool ran and failed; `protocol`: the call itself was wrong (set by `shapeError`). */
    readonly kind?: "protocol" | "tool";
  };
}
