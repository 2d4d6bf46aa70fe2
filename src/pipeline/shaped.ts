import type { ShapedErrorCode } from "../errors/codes.js";
import type { Aggregates } from "./aggregates.js";
import type { JsonValue } from "./unit.js";

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
      readonly kind: "stopped";
      readonly section: SectionName;
      /** Bytes read before the host stopped the read; the source was cancelled there. */
      readonly at: number;
      /** `timeout`, `aborted`, or `exited`: the command ended and its pipe stayed open and quiet. */
      readonly reason: "aborted" | "timeout" | "exited";
    }
  | {
      /** Output a stream let go before `shape()` attached (`bytes` when the stream counted them). */
      readonly kind: "lost";
      readonly section: SectionName;
      readonly bytes?: number;
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
    }
  | {
      /** Page text left out by main-content extraction (navigation, related links, footers). */
      readonly kind: "boilerplate";
      readonly section: SectionName;
      /** Characters of text (spaces not counted) left out; `htmlToText(page, { mode: "full" })` keeps them. */
      readonly chars: number;
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
  /** The input kind that was shaped: `structured` for JSON, NDJSON, CSV and already-parsed values. */
  readonly kind: "text" | "command" | "binary" | "structured";
  /**
   * What the input was, for a renderer to choose how to show it (the preview shows pages and
   * markdown as markdown, everything else preformatted): `html` for a web page, `markdown` for
   * a `text/markdown` source, `command` for command output, the structured format for records,
   * `binary`, and `text` for any other text (a log, a string).
   */
  readonly format?:
    | "text"
    | "markdown"
    | "html"
    | "command"
    | "json"
    | "ndjson"
    | "csv"
    | "tsv"
    | "binary";
  /** Total bytes read across all sources. */
  readonly bytes: number;
  /** Total lines read across text sources. */
  readonly lines: number;
  /**
   * Token count of `text` under the configured tokenizer. Absent only with `tokenCount: "bound"`
   * on a result whose bytes proved it fits: `tokenBound` holds that bound instead.
   */
  readonly tokens?: number;
  /**
   * With `tokenCount: "bound"`, on a result that was not counted: the UTF-8 length of `text`,
   * which its tokens do not exceed (each token of the built-in encodings is one byte or more).
   */
  readonly tokenBound?: number;
  readonly maxTokens: number;
  readonly tokenizer: string;
  /** True when anything was left out of `text`. */
  readonly truncated: boolean;
  /** Set when a host summariser was asked (`summarize`) for this cut result. */
  readonly hop?: HopMeta;
  readonly cuts: readonly Cut[];
  /** Lines omitted in total (sum of `lines` cuts). */
  readonly omittedLines: number;
  readonly sections: readonly SectionMeta[];
  /** The fence boundary, when the text is fenced and its body can hold a `<` (docs/markers.md). */
  readonly boundary?: string;
  readonly tool?: string;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  /** HTTP status when the input was a `Response`. */
  readonly httpStatus?: number;
  /**
   * Secrets replaced, by rule id; absent when redaction is off. `scope` says where they were
   * counted: "read", in every line of the input (a store kept the text, every line was held, or
   * the input was records); "shown", in the lines that could be shown (a lower bound for the
   * input: lines never shown were not redacted, so their secrets are not counted, except in
   * private keys and over-long lines, which are always redacted). `fingerprints` (with
   * `redact.fingerprintKey`) are keyed hashes, never the values.
   */
  readonly redactions?: {
    readonly count: number;
    readonly rules: Readonly<Record<string, number>>;
    readonly scope: "shown" | "read";
    readonly fingerprints?: ReadonlyArray<{ readonly rule: string; readonly fingerprint: string }>;
  };
  /** How the text is marked as untrusted (the `spotlight` option), and the datamark in use. */
  readonly spotlight: { readonly mode: SpotlightMode; readonly marker?: string };
  /** Invisible and control characters removed, by class; absent when `invisible: false`. */
  readonly invisible?: InvisibleCounts & { readonly count: number };
  /** A web page's facts and what `htmlToText` removed (for HTML input). */
  readonly html?: HtmlFacts;
  /** What happened to the records of a structured result (absent for text). */
  readonly records?: StructuredMeta;
  /** Event templates mined from text, and where the evidence left out lies (absent for records). */
  readonly evidence?: EvidenceMeta;
  /** The whole of a text result in a few facts, by rule (docs/result.md#summary). */
  readonly summary?: ShapeSummary;
  /** The handle a `store` keeps the whole (cleaned) result under, for `read_result`. */
  readonly handle?: string;
  /** The `read_result` call that reads on from what `text` shows, when there is more to read. */
  readonly next?: { readonly tool: "read_result"; readonly args: ReadArgs };
  /** What a `read_result` page read (pages only). */
  readonly read?: ReadMeta;
  /** Parts of the input not shown as what they claimed to be, and what was done instead. */
  readonly degraded?: ReadonlyArray<{ readonly code: string; readonly message: string }>;
  /** What the call did, in numbers: what `onShaped` receives (see `ShapedTelemetry`). */
  readonly telemetry?: ShapedTelemetry;
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

/**
 * The event templates of a text result (lines that differ only in numbers, ids and dates, or in a
 * few words, share one), and for every severe or rare template whose lines were not all shown,
 * how many there are and where they lie, so a reader can ask for them.
 */
export interface EvidenceMeta {
  /** Templates mined (all sections), and those let go by the table's cap (their counts stopped). */
  readonly templates: number;
  readonly evicted: number;
  /** Some lines of a very long input were skipped unseen: template counts are lower bounds. */
  readonly sampled: boolean;
  /** Templates of evidence (fatal, error, warning), and how many have a line in `text`. */
  readonly severe: { readonly templates: number; readonly shown: number };
  /** Templates seen at most twice, and how many have a line in `text`. */
  readonly rare: { readonly templates: number; readonly shown: number };
  /** The severe and rare templates with lines left out, most severe first (at most 64). */
  readonly cut: readonly EvidenceCut[];
  /** The lines of evidence (and of rare templates) in `text`, in order (at most 256). */
  readonly kept: ReadonlyArray<{
    readonly section: SectionName;
    readonly line: number;
    readonly severity: 0 | 1 | 2 | 3;
  }>;
}

/** Where a symptom, or the input, was seen: a line, and the time it wrote (as written). */
export interface SummaryPoint {
  readonly line: number;
  /** The line's own timestamp, in its own words (`Dec  6 10:31:07`, `2026-12-06T10:31:07Z`). */
  readonly time?: string;
}

/** One severe template of a text result: what it says, how often, and when. */
export interface Symptom {
  /** `m` and 8 hex digits, a hash of its message: `read_result {handle, template: id}` reads its lines. */
  readonly id: string;
  readonly section: SectionName;
  /** The template: its words, `<*>` where its lines differ (cleaned like all tool text). */
  readonly text: string;
  readonly severity: "fatal" | "error" | "warning";
  /** Its lines in the input (exact unless `meta.evidence.sampled` or its template was let go). */
  readonly count: number;
  /** Its lines in `text`. */
  readonly shown: number;
  /** The line that stands for it: the first shown, or its first when none is. */
  readonly line: number;
  readonly first: SummaryPoint;
  readonly last: SummaryPoint;
}

/**
 * What the whole of a text result said, by rule, from its evidence (absent for records and when
 * nothing in it is severe): the symptoms, when the input begins and ends, where the evidence
 * comes from, and what the cut leaves unknown.
 */
export interface ShapeSummary {
  /** Severe messages, most severe first, then by section and first line (16 to 128, by budget). */
  readonly symptoms: readonly Symptom[];
  /** Severe messages past those listed (a floor when `moreAtLeast`). */
  readonly more: number;
  /** Past 1,024 + 65,536 messages a section is not told apart: `more` is at least that. */
  readonly moreAtLeast?: true;
  /** The input's first and last line (of its first and its last section), with their times. */
  readonly timeline: {
    readonly first: SummaryPoint & { readonly section: SectionName };
    readonly last: SummaryPoint & { readonly section: SectionName };
  };
  /** The components the evidence lines name (`sshd`, `executor.Backend`), with their lines. */
  readonly sources: ReadonlyArray<{ readonly name: string; readonly count: number }>;
  /** What the cut leaves unknown, each with where to look. */
  readonly open: ReadonlyArray<{
    readonly what: "unshown" | "sampled" | "capped";
    readonly section: SectionName;
    /** For `unshown`: the symptom no line of `text` shows (its index in `symptoms`). */
    readonly symptom?: number;
    /** Its lines, or the input's, from the first to the last. */
    readonly lines?: { readonly from: number; readonly to: number };
  }>;
}

/** A template with lines left out of `text`. */
export interface EvidenceCut {
  readonly section: SectionName;
  /** The template: its words, `<*>` where its lines differ (cleaned like all tool text). */
  readonly template: string;
  /** 3 fatal, 2 error, 1 warning or a line that stands out, 0 a quiet rare line. */
  readonly severity: 0 | 1 | 2 | 3;
  /** Seen at most twice. */
  readonly rare: boolean;
  /** Lines of it in the input, and in `text`. */
  readonly count: number;
  readonly shown: number;
  /** Its first and last line. */
  readonly first: number;
  readonly last: number;
  /** Lines of it not in `text`, in order: all of a rare one, a sample of a severe one (its first and last ones). */
  readonly lines: readonly number[];
}

/** Arguments of a `read_result` call. */
export type ReadArgs = Readonly<Record<string, JsonValue>>;

/** A `read_result` search of text (`template`: a message's lines), or the summary. */
export type ReadSearch = "grep" | "evidence" | "template" | "summary";

/** What one `read_result` call did. */
export interface ReadMeta {
  /** What was read: a stored result's `records`, or `text` (lines of a section). */
  readonly kind: "records" | "text";
  /** `page` (cursor or range), `filter`, `lines`, `around`, a search, `refused` (not run). */
  readonly op: "page" | "filter" | "lines" | "around" | ReadSearch | "refused";
  /** Work done, in steps (records tested, characters searched, matcher states): bounded by the reader's `maxSteps`. */
  readonly steps: number;
  /** The section a text page read. */
  readonly section?: SectionName;
  /** Lines (text) or view positions (records) the page covers, 1-based, inclusive. */
  readonly from?: number;
  readonly to?: number;
  /** The step bound stopped a search before the end: `next` continues it. */
  readonly stopped?: boolean;
}

/** A structured result's records: how many were read, shown, omitted, refused, and why. */
export interface StructuredMeta {
  readonly format: "json" | "ndjson" | "csv" | "tsv";
  /** `records`: an array, NDJSON or CSV rows; `document`: one value shown whole or reduced. */
  readonly shape: "records" | "document";
  /** The path of the (first) array the records were under (`items`, `hits.hits`, …). */
  readonly envelope?: string;
  /** Every record array taken, in input order, with its path and records (JSON only). */
  readonly paths?: ReadonlyArray<{ readonly path: string; readonly count: number }>;
  /** Records read (for a document, 0). */
  readonly total: number;
  /** Records in `text`. */
  readonly shown: number;
  /** Records read and not shown: `total - shown`. */
  readonly omitted: number;
  /** Records that report an error or failure, and how many of them are shown. */
  readonly errors: number;
  readonly errorsShown: number;
  /** Records of any evidence severity (warnings included), and how many of them are shown. */
  readonly evidence?: number;
  readonly evidenceShown?: number;
  /** Records refused by a limit (or malformed, in NDJSON), by code; not counted in `total`. */
  readonly refused: Readonly<Record<string, number>>;
  /** The sort applied before the cut. */
  readonly sort?: string;
  /** The projection, and the fields it dropped (path → times, up to 64 paths). */
  readonly projection?: {
    readonly spec: string;
    readonly dropped: number;
    readonly fields: Readonly<Record<string, number>>;
  };
  /** Fields the contract's schema did not declare, dropped. */
  readonly contract?: { readonly dropped: number };
  /** Strings shortened inside their value for display, and the characters left out. */
  readonly shortened: { readonly strings: number; readonly chars: number };
  /**
   * The one record shown did not fit whole and is shown reduced (shorter strings, fewer items,
   * markers saying how many; or its outline).
   */
  readonly reduced?: boolean;
  /** Base64 blobs and data URIs replaced by placeholders, and their decoded bytes. */
  readonly blobs: { readonly count: number; readonly bytes: number };
  /** Where the full result is stored for `read_result`. */
  readonly handle?: string;
  /** The cursor for the next page, when records were omitted and the result was stored. */
  readonly cursor?: string;
  /** Per-field statistics over every record, when records were omitted. */
  readonly aggregates?: Aggregates;
  readonly csv?: {
    readonly columns: readonly string[];
    readonly ragged: number;
    readonly unterminatedQuote: boolean;
    readonly delimiter: string;
  };
}

/** How the untrusted text is marked (Spotlighting): see `fence/spotlight.ts`. */
export type SpotlightMode = "fence" | "datamark" | "base64";

/** Invisible and control characters removed, by class. */
export interface InvisibleCounts {
  /** Bidirectional controls (U+202A–202E, U+2066–2069, LRM, RLM, ALM). */
  bidi: number;
  /** Zero-width characters (U+200B–200D, U+2060, U+FEFF, U+180E); a joiner inside an emoji stays. */
  zeroWidth: number;
  /** Unicode tag characters (U+E0000–E007F), which can spell hidden ASCII. */
  tag: number;
  /** C0 and C1 control characters other than tab, line feed and carriage return, and DEL. */
  control: number;
  /**
   * Other invisibles: the rest of Unicode's default-ignorable code points and format characters
   * (general category Cf), assigned or not: soft hyphen, combining grapheme joiner, Hangul
   * fillers, Khmer inherent vowels, Mongolian variation selectors, invisible math operators
   * (U+2061–2064), deprecated format characters (U+206A–206F), interlinear annotation marks
   * (U+FFF9–FFFB), Egyptian hieroglyph, shorthand and musical format controls, variation
   * selectors (except one that gives an emoji or keycap its presentation). Also combining marks
   * past the 30th on one character: no script needs more (Unicode's stream-safe limit), and
   * long runs of them make NFC quadratic.
   */
  other: number;
}

import type { HtmlFacts } from "./html-facts.js";

export type { BoilerplateReason, HtmlFacts, HtmlRemoved } from "./html-facts.js";

import type { HopMeta } from "./hop-meta.js";
import type { ShapedTelemetry } from "./telemetry-shape.js";

export type { ShapedTelemetry, TelemetryCut, TelemetrySize } from "./telemetry-shape.js";
export type { HopMeta };

/**
 * The tokens a result takes in the conversation: `meta.tokens`, or where it was not counted
 * (`tokenCount: "bound"`) the bound that proved it fits. Rounds share budgets out on it.
 *
 * @example
 * const used = results.reduce((n, r) => n + tokensOf(r.meta), 0);
 */
export function tokensOf(meta: Pick<ShapedMeta, "tokens" | "tokenBound">): number {
  return meta.tokens ?? meta.tokenBound ?? 0;
}
