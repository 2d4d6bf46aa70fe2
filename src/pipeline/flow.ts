/**
 * How units flow from decode to keep. Decode drives: it reads the source and pushes each line or
 * record into the sinks it is given. The stages between (contract, redact) wrap the sinks of the
 * stage after them, so the order of the pipeline is the order of wrapping, and keep's sinks are
 * the innermost. A stage that needs to see every byte of text before it is split into lines
 * (redaction must see a secret split between chunks whole) gives decode a text filter instead.
 */
import type { JsonValue, SectionName, Severity } from "./unit.js";

/** What keep knows about evidence, lent to the line decoder so it can skip what cannot matter. */
export interface EvidenceHints {
  /**
   * A fresh scanner for literal fragments that every evidence line contains (global flag);
   * `sample`, the start of the text, tells which line layouts it must also find.
   */
  anchors(sample?: string): RegExp;
  /** A fresh classifier of one line (its own regex state). */
  classifier(): (line: string) => Severity;
  /** Characters at the end of each chunk that may become the tail: always materialised. */
  readonly tailChars: number;
}

/**
 * Receives decoded, normalised lines one at a time. A sink that also implements `skip`,
 * `wanted` and `eager` (the keeper does) lets the decoder count lines it cannot keep instead
 * of materialising them, which is most of a large input.
 */
export interface LineSink {
  /**
   * `omittedChars` > 0 when an over-long line was shortened in the middle. `before`: the lines
   * before it, unredacted, for a sink whose held lines are redacted once the input ends. A sink
   * that holds lines may return the unit that holds this one (a new one, or the line it repeats),
   * so a wrapper can note the lines that come after it (`Unit.after`); what another returns is
   * not read.
   */
  line(text: string, severity: Severity, omittedChars: number, before?: string): unknown;
  skip?(count: number): void;
  /**
   * Looks at the quiet line `text[start, end)` the decoder means to skip, `pending` skipped lines
   * after the last one reported (so it is line `lines + pending + 1`). True: hand it over with
   * `line()`; false: it is counted by `skip()` (and the sink has noted what it needed of it).
   */
  wanted?(text: string, start: number, end: number, pending: number): boolean;
  readonly eager?: boolean;
  readonly hints?: EvidenceHints;
}

/** A streaming transform of decoded text, run before it is split into lines. */
export interface TextFilter {
  write(text: string): string;
  /** The rest. `cut` is true when the read stopped early: the text ends mid-stream. */
  end(cut: boolean): string;
}

export interface LinesTarget {
  readonly sink: LineSink;
  readonly filter?: TextFilter;
  /**
   * Sees the decoded text after the filter, exactly as it is split into lines (the store keeps
   * it for `read_result`): called with each piece, in order.
   */
  readonly tap?: (text: string) => void;
}

/**
 * What a record is to the stages that see it: one of the records (an array element, an NDJSON
 * line, a CSV row), the single value of a document that holds no records, or the envelope
 * around the records (its other members, the records array written `[]`).
 */
export type RecordRole = "record" | "document" | "envelope";

export interface RecordSink {
  /**
   * `index` is the 1-based position among the records (0 for a document or envelope). `json`,
   * when given, is `JSON.stringify(value)`, already made by a stage on the way (saves a pass).
   */
  record(value: JsonValue, index: number, role: RecordRole, json?: string): void | Promise<void>;
  /** Every record was read: `count` were handed on. */
  end?(count: number): void | Promise<void>;
}

/** The sinks of one run, as the stage after decode offers them. */
export interface Sinks {
  lines(section: SectionName): LinesTarget;
  records(): RecordSink;
}

/** Wraps the sinks of the stage after it. */
export type SinkWrapper = (inner: Sinks) => Sinks;

/** Decoded input, not yet pumped: the keep stage drives it, through the wrappers. */
export interface UnitStream {
  pump(sinks: Sinks): Promise<void>;
}

/** The same stream with one more wrapper around whatever sinks it is pumped into. */
export function through(stream: UnitStream, wrap: SinkWrapper): UnitStream {
  return { pump: (sinks) => stream.pump(wrap(sinks)) };
}
