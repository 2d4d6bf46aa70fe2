/**
 * What the stages found while they ran, in one place: each stage appends its findings here (as
 * Valibot's steps append issues) instead of throwing, and the meta builder reads them at the end.
 * Nothing in here leaves the run except through `meta.ts`, which decides what may be shown.
 */
import type { ShapedErrorCode } from "../errors/codes.js";
import type { Aggregates } from "./aggregates.js";
import type { ReadStop } from "./run.js";
import type {
  BinaryInfo,
  Cut,
  EvidenceMeta,
  HtmlFacts,
  InvisibleCounts,
  ShapedMeta,
  ShapedStatus,
  ShapeSummary,
} from "./shaped.js";
import type { JsonValue, SectionName } from "./unit.js";

/** One source as it was read and decoded. */
export interface SectionFacts {
  readonly name: SectionName;
  bytes: number;
  capped: boolean;
  invalidUtf8: number;
  /** True while no line had a non-space character. */
  blank: boolean;
  /** Lines read (set by keep, each repeat counted). */
  lines: number;
  binary?: BinaryInfo;
  /** The source failed while it was read: what was read before is shown. */
  failure?: { readonly code: "intake/read-failed"; readonly detail: string };
  /** The read stopped early: the host's abort signal or `timeoutMs`, or a quiet pipe after exit. */
  stopped?: ReadStop;
  /**
   * Output the stream had let go before airlock attached to it (the host awaited between
   * `spawn` and `shape()`, and Node discarded what was unread): its size when the stream knew it.
   */
  lost?: { readonly bytes: number | undefined };
  /** A process's stream that was not piped to airlock: nothing of it could be read. */
  uncaptured?: true;
}

/** A part of the input that could not be shown as what it claimed to be, and what was done. */
export interface Degradation {
  readonly code: string;
  readonly message: string;
}

/** One record array of a structured input. */
export interface RecordPath {
  readonly path: string;
  readonly from: number;
  count: number;
}

/**
 * The record array that holds record `index` (1-based), by position: arrays hold consecutive
 * indices in input order.
 *
 * @example
 * sectionOf(facts.paths, 12); // 1: the second array's (paths[1].from <= 12)
 */
export function sectionOf(paths: readonly RecordPath[], index: number): number {
  let lo = 0;
  let hi = paths.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((paths[mid] as RecordPath).from <= index) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/** What happened to a structured input's records on their way through. */
export interface RecordFacts {
  format: "json" | "ndjson" | "csv" | "tsv";
  /** `records`: an array, NDJSON or CSV rows; `document`: one value shown whole or reduced. */
  shape: "records" | "document";
  envelope?: string;
  /**
   * Every record array, in input order: its path (keys joined by dots, "" for a top-level array
   * or NDJSON and CSV rows), the 1-based index of its first record among all, and its count.
   */
  paths: RecordPath[];
  /** Records handed on by the decoder. */
  count: number;
  /** Bytes read, and whether the byte cap stopped the read. */
  bytes: number;
  capped: boolean;
  /** The host stopped the read early (its abort signal or `timeoutMs`). */
  stopped?: ReadStop;
  /** Records refused (limits, malformed lines), by code; not counted in `count`. */
  refused: Record<string, number>;
  /** Lines of sniffed NDJSON that were not JSON, kept as string records. */
  textLines: number;
  csv?: {
    readonly columns: readonly string[];
    readonly ragged: number;
    readonly unterminatedQuote: boolean;
    readonly delimiter: string;
  };
  /** The single document, or the envelope's other members (cleaned). */
  document?: JsonValue;
  /** The whole input was refused: nothing from it is shown. */
  refusal?: { readonly code: ShapedErrorCode; readonly message: string };
  violation?: { readonly code: ShapedErrorCode; readonly message: string; readonly index: number };
  /** Ids of records, for a metadata-only result (tool text: cleaned before they are shown). */
  ids: Array<{ readonly index: number; readonly id: string }>;
  projection: { dropped: number; readonly fields: Map<string, number> };
  contractDropped: number;
  shortened: { strings: number; chars: number };
  blobs: { count: number; bytes: number };
  /** Records whose severity is an error or worse, and of any evidence severity. */
  errors: number;
  evidence: number;
  aggregates?: Aggregates;
  handle?: string;
}

export interface RunFacts {
  kind: ShapedMeta["kind"];
  format: NonNullable<ShapedMeta["format"]>;
  readonly sections: SectionFacts[];
  records?: RecordFacts;
  html?: HtmlFacts;
  command?: {
    exitCode: number | null;
    signal: string | null;
    /** The exit promise was rejected (a command that could not start): why, in safe words. */
    failure?: string;
  };
  http?: { readonly status: number; readonly statusText: string; readonly ok: boolean };
  /** Secrets replaced, by rule id. */
  readonly redactions: Record<string, number>;
  /**
   * What `redactions` counts: "read", every line; "shown", the lines that could be shown (the
   * text was redacted as it was shown, not as it passed). Unset: records, or redaction is off.
   */
  redactionScope?: "shown" | "read";
  readonly invisible: InvisibleCounts;
  /** (rule, value) pairs for keyed fingerprints: held only until the meta is built. */
  readonly values: Array<readonly [string, string]>;
  /**
   * Secrets the text filter found as the text streamed, by value (with their rule): their other
   * occurrences go too, as a whole text's redaction takes them. Held only until shaping ends.
   */
  echoes?: Map<string, string>;
  readonly degraded: Degradation[];
  /** The handle the whole result was stored under (set by the store stage). */
  handle?: string;
  /** The tool's own failure (never airlock's trouble with a big value). */
  error?: {
    readonly code: ShapedErrorCode;
    readonly message: string;
    readonly retryable: boolean;
  };
}

export function createFacts(): RunFacts {
  return {
    kind: "text",
    format: "text",
    sections: [],
    redactions: {},
    invisible: { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 },
    values: [],
    degraded: [],
  };
}

export function createRecordFacts(format: RecordFacts["format"]): RecordFacts {
  return {
    format,
    shape: "records",
    count: 0,
    bytes: 0,
    capped: false,
    refused: {},
    textLines: 0,
    ids: [],
    paths: [],
    projection: { dropped: 0, fields: new Map() },
    contractDropped: 0,
    shortened: { strings: 0, chars: 0 },
    blobs: { count: 0, bytes: 0 },
    errors: 0,
    evidence: 0,
  };
}

export function createSectionFacts(name: SectionName): SectionFacts {
  return { name, bytes: 0, capped: false, invalidUtf8: 0, blank: true, lines: 0 };
}

/** Adds counts by key (rule ids, refusal codes). */
export function addCounts(target: Record<string, number>, add: Readonly<Record<string, number>>) {
  for (const [k, n] of Object.entries(add)) target[k] = (target[k] ?? 0) + n;
}

/** What the fit decided, in the terms `meta` reports: the text, its count, and what it left out. */
export interface Outcome {
  readonly text: string;
  readonly boundary: string | undefined;
  /** The text's tokens: exact, or with `tokenBound` set, that bound (`tokenCount: "bound"`). */
  readonly tokens: number;
  readonly tokenBound?: number;
  readonly tokenizer: string;
  readonly cuts: readonly Cut[];
  /** Per text section: lines represented in the text, and evidence lines shown. */
  readonly sections: ReadonlyArray<{
    readonly name: SectionName;
    readonly lines: number;
    readonly keptLines: number;
    readonly evidenceLines: number;
    readonly keptEvidenceLines: number;
  }>;
  /** For records: how many were shown, and where the next page starts. */
  readonly records?: {
    readonly shown: number;
    readonly errorsShown: number;
    readonly evidenceShown: number;
    readonly reduced: boolean;
    /** The view positions a cursor reads next: [offset, end). */
    readonly next?: { readonly offset: number; readonly end: number };
  };
  /** The status the shaping itself gives (the tool's failure overrides it). */
  readonly status: ShapedStatus;
  /** Templates of the text and the evidence left out (template words not yet cleaned). */
  readonly evidence?: EvidenceMeta;
  /** The text's summary, its messages still their first lines, not yet redacted. */
  readonly summary?: SummaryDraft;
}

/** `meta.summary` before `meta`: each symptom's `text` is its first line, not yet redacted. */
export type SummaryDraft = Omit<ShapeSummary, "sources">;

/**
 * The sections in the order they are shown and reported: for a command, stderr first (it is
 * where a failing command says why), and a stream that produced nothing is left out.
 */
export function shownSections(facts: RunFacts): SectionFacts[] {
  if (facts.kind !== "command") return facts.sections;
  return facts.sections
    .filter(
      (s) =>
        s.binary || s.lines > 0 || s.capped || s.failure || s.lost || s.stopped || s.uncaptured,
    )
    .sort((a, b) => (a.name === "stderr" ? -1 : 0) - (b.name === "stderr" ? -1 : 0));
}
