import type { ContractOptions } from "../contract/contract.js";
import { compileProjection, type Projection } from "../contract/project.js";
import { DEFAULT_STRUCTURED_LIMITS, type StructuredLimits } from "../decode/limits.js";
import { shortenLongRuns } from "../decode/normalize.js";
import { applySpotlight, DEFAULT_DATAMARK, type SpotlightMode } from "../fence/spotlight.js";
import { ENCODINGS } from "../fit/encodings/all.js";
import type { Summarizer } from "../fit/hop.js";
import type { TokenCounter, TokenizerName } from "../fit/tokenizer.js";
import {
  type CommandOutput,
  DEFAULT_MAX_BYTES,
  type InputFormat,
  type ShapeInput,
  type StreamSource,
} from "../intake/input.js";
import { compileSort, type Sort } from "../keep/sort.js";
import type { ShapedTelemetry } from "../pipeline/shaped.js";
import type { FingerprintKey } from "../redact/fingerprint.js";
import { type RedactorLoader, redactorLoader } from "../redact/load.js";
import type { RedactOptions } from "../redact/redact.js";
import type { EnvelopeMode } from "../render/envelope.js";
import type { ResultStore } from "../store/store.js";
import { abortSignalOf, fail, positiveInteger, timerMs } from "./checks.js";
import {
  CALL_OPTIONS,
  CONTRACT_OPTIONS,
  checkNames,
  INVARIANTS,
  LIMITS,
  REDACT_OPTIONS,
  SHAPE_OPTIONS,
} from "./known.js";

/** Redaction inside `shape()`: the options of `redact()`, plus keyed fingerprints. */
export type { CommandOutput, InputFormat, ShapeInput, StreamSource };
export { DEFAULT_MAX_BYTES };

export interface ShapeRedactOptions extends RedactOptions {
  /** HMAC key: `meta.redactions.fingerprints` then lists a keyed hash of each secret (up to 64). */
  readonly fingerprintKey?: FingerprintKey;
}

export interface ShapeOptions {
  /** Upper bound on the tokens of `text`, fence and markers included. Default 4000. */
  readonly maxTokens?: number;
  /** Hard cap on bytes read from the input (all streams together). Default 256 MiB. */
  readonly maxBytes?: number;
  /** Media type hint, e.g. `text/plain` or `application/octet-stream`; sniffed when absent. */
  readonly contentType?: string;
  /** Name of the tool that produced the result; shown in the fence. */
  readonly tool?: string;
  /** Fence the text as untrusted data. Default true. */
  readonly untrusted?: boolean;
  /** `o200k_base` (default), `cl100k_base`, or any `{ name?, count(text) }`. */
  readonly tokenizer?: TokenizerName | TokenCounter;
  /**
   * `"exact"` (default): `meta.tokens` is counted on every result. `"bound"`: a result shown
   * whole whose UTF-8 length, fence included, is within `maxTokens` is not counted (every token
   * of the built-in encodings is at least one byte, so the length proves the fit): the tokenizer
   * is not loaded for it (in a browser, its ranks are most of the download), `meta.tokens` is
   * absent and `meta.tokenBound` holds that length. A result that needs cutting is counted as
   * before. Built-in tokenizers only: a host's counter proves nothing about bytes.
   */
  readonly tokenCount?: "exact" | "bound";
  /** Sentence telling the model how to get what was omitted. Default: narrow the tool call. */
  readonly next?: string;
  /** Binary inputs up to this many bytes get a SHA-256 in their placeholder. Default 16 MiB. */
  readonly hashLimit?: number;
  /**
   * Secret redaction: on by default (`true`), options of `redact()` to tune it, or `false` for a
   * tool whose job is to show example keys (a documentation search).
   */
  readonly redact?: boolean | ShapeRedactOptions;
  /** Remove invisible and control characters (bidi, zero-width, tags, C0/C1) and NFC-normalise. Default true. */
  readonly invisible?: boolean;
  /**
   * How the untrusted text is marked (Spotlighting): `fence` (default) only fences it, `datamark`
   * also joins its words with a marker character, `base64` encodes it. Give the model the matching
   * `spotlightInstruction(mode)` in the system prompt.
   */
  readonly spotlight?: SpotlightMode;
  /** The datamark character for `spotlight: "datamark"`. Default `¤` (U+00A4, one token). */
  readonly datamark?: string;
  /**
   * Stops reading when it aborts: the source is cancelled and what was read is shaped, declared
   * as stopped (`meta.cuts`, a marker). (`signal` names a command's exit signal.)
   */
  readonly abortSignal?: AbortSignal;
  /** Stops reading after this many milliseconds, as `abortSignal` does. */
  readonly timeoutMs?: number;
  /**
   * The output is the tool's error (an MCP result with `isError: true`, a failed API call's
   * body): `status` is `error`, the text says so first, and it is scrubbed as an error message is
   * (stack frames, paths, internal hosts, URLs and SQL removed), whatever the input kind.
   */
  readonly toolError?: boolean;

  // Structured results (JSON, NDJSON, CSV, already-parsed values).
  /** `auto` (default): the content type decides, else JSON and NDJSON are sniffed; `text` never parses. */
  readonly format?: InputFormat;
  /**
   * Where the records are, when the host knows: the path of each record array, keys joined by
   * dots (`"payments"`, `"hits.hits"`, `"data.repository.issues.nodes"`). Only these arrays are
   * records then. Default: found by size (an array of an object whose elements reach 2 KB).
   */
  readonly records?: string | readonly string[];
  /**
   * Fields the model sees, as paths: `items[*].{number,title,labels[*].name}` or
   * `["number", "title", "user.login"]`. Applied to each record before anything else keeps it;
   * dropped fields are counted in `meta.records.projection`.
   */
  readonly fields?: string | readonly string[];
  /** Sort before the cut, e.g. `"severity desc, timestamp desc"`; named in the output. */
  readonly sort?: string;
  /** Records whose level/status/severity says error or failure come first. Default true. */
  readonly errorsFirst?: boolean;
  /** `text` (default): prose summary with JSON data; `json`: the whole envelope as one JSON object. */
  readonly envelope?: EnvelopeMode;
  /** Parser limits (depth, keys, array length, string length, number length, record and document size). */
  readonly limits?: Partial<StructuredLimits>;
  /** Strings longer than this are shortened inside the value for display. Default 2,000 (less for small budgets). */
  readonly maxStringChars?: number;
  /**
   * Keeps the full (cleaned) result for `read_result`: records, and text when the store has
   * `putPart`/`getPart`; the output then names the handle (and a cursor for records).
   */
  readonly store?: ResultStore;
  /** A result larger than this many characters (records' JSON, or text) is not stored. Default 32 Mi. */
  readonly storeMaxChars?: number;
  /** The tool's response contract: schemas and invariants. A violation yields a metadata-only error result. */
  readonly contract?: ContractOptions;
  /**
   * A host summariser (a small model) for a cut result: it reads the shaped text, never the raw
   * input; its answer is shown in the fence as a model's words (`meta.hop` says how it went).
   */
  readonly summarize?: Summarizer;
  /** Tokens the summariser's answer may take. Default 15% of `maxTokens`, from 32 to 300. */
  readonly maxSummaryTokens?: number;
  /** Milliseconds the summariser has before it is aborted and its answer dropped. Default 15,000. */
  readonly summaryTimeoutMs?: number;
  /**
   * Called with the facts of every call (`meta.telemetry`: sizes before and after, cuts,
   * evidence, redactions by rule, milliseconds), numbers only: no tool text, no secret. It is
   * not awaited, and a hook that throws does not break shaping (`meta.telemetry.hook` says so).
   */
  readonly onShaped?: (telemetry: ShapedTelemetry) => void;
}

/**
 * What a compiled shaper takes per call, over the options it was compiled with: a budget, a byte
 * cap, a tool name or a content type for this result only (higher or lower than the compiled
 * ones), and this call's own signal and deadline.
 */
export interface CallOptions {
  /** This result's budget: any size from 16, above or below the shaper's `maxTokens`. */
  readonly maxTokens?: number;
  /** This result's byte cap, above or below the shaper's `maxBytes`. */
  readonly maxBytes?: number;
  /** The tool that produced this result; shown in the fence. */
  readonly tool?: string;
  /** This result's media type (a `Response` or `Request` says its own). */
  readonly contentType?: string;
  /** Stops reading this result when it aborts. */
  readonly abortSignal?: AbortSignal;
  /** Stops reading this result after this many milliseconds from the call. */
  readonly timeoutMs?: number;
}

/** Options after validation, with defaults filled in. */
export interface CompiledOptions {
  readonly maxTokens: number;
  readonly maxBytes: number;
  readonly contentType: string | undefined;
  readonly tool: string | undefined;
  readonly untrusted: boolean;
  readonly tokenizer: TokenizerName | TokenCounter;
  readonly tokenCount: "exact" | "bound";
  readonly next: string;
  readonly hashLimit: number;
  readonly abortSignal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  readonly toolError: boolean;
  /** The redactor (options checked, rules loaded on first use); absent when redaction is off. */
  readonly redactor: RedactorLoader | undefined;
  readonly fingerprintKey: FingerprintKey | undefined;
  readonly invisible: boolean;
  readonly spotlight: SpotlightMode;
  readonly datamark: string;
  readonly format: InputFormat;
  /** The record arrays' paths the host named, or undefined to find them. */
  readonly recordPaths: readonly string[] | undefined;
  readonly projection: Projection | undefined;
  readonly sort: Sort | undefined;
  readonly errorsFirst: boolean;
  readonly envelope: EnvelopeMode;
  readonly limits: StructuredLimits;
  readonly maxStringChars: number;
  readonly store: ResultStore | undefined;
  readonly storeMaxChars: number;
  readonly contract: ContractOptions | undefined;
  readonly summarize: Summarizer | undefined;
  /** Tokens of a summariser's answer; undefined: by the budget of each call. */
  readonly maxSummaryTokens: number | undefined;
  readonly summaryTimeoutMs: number;
  /** Characters of records the keeper holds: a few budgets' worth. */
  readonly capacity: number;
  /** The `next` hint for records. */
  readonly recordsNext: string;
  readonly onShaped: ((telemetry: ShapedTelemetry) => void) | undefined;
}

export const DEFAULT_MAX_TOKENS = 4000;
export const DEFAULT_HASH_LIMIT = 16 * 1024 * 1024;
/**
 * The smallest budget: a one-line notice (`[airlock: omitted]`, 6 tokens) and a little room.
 * Below about 40 tokens no fenced text fits, and the result is that notice or a one-line summary
 * of what was read (no tool text); under 256 tokens the fence takes its compact form.
 */
export const MIN_MAX_TOKENS = 16;
/**
 * The smallest budget of a `read_result` reader: a page of one shortened line under the largest
 * fence, its gap markers and the call that reads on. A smaller reader could only say that it
 * showed nothing, so it is refused when it is created.
 */
export const MIN_READ_TOKENS = 160;
const DEFAULT_NEXT = "for more, narrow the call";

/**
 * The `next` hint as it goes into a marker: one line (a newline would break the marker), and no
 * run of one character class past 1,000 characters (it is counted with the text, and no such
 * run may reach a tokenizer: `shortenLongRuns`).
 */
function hintOf(next: string): string {
  return shortenLongRuns(next.replace(/[\r\n]+/g, " "));
}

/** Validates options once and fills defaults; the result is frozen and safe to share. */
export function compileOptions(options: ShapeOptions = {}): CompiledOptions {
  if (options === null || typeof options !== "object") fail("options must be an object");
  checkNames(options, SHAPE_OPTIONS, "options");
  // o200k_base, or the one encoding an edge entry inlines.
  const tokenizer = options.tokenizer ?? ENCODINGS.names[0] ?? "o200k_base";
  if (typeof tokenizer === "string") {
    if (tokenizer !== "o200k_base" && tokenizer !== "cl100k_base") {
      fail(`tokenizer must be "o200k_base", "cl100k_base" or { count(text) } (got "${tokenizer}")`);
    }
    // An edge entry knows one encoding or none: say so now, not at the first shape().
    if (!ENCODINGS.names.includes(tokenizer))
      fail(`tokenizer "${tokenizer}": ${ENCODINGS.missing}`);
  } else if (typeof tokenizer !== "object" || typeof tokenizer.count !== "function") {
    fail("tokenizer must be a name or an object with count(text)");
  }
  for (const key of ["contentType", "tool", "next"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "string") fail(`${key} must be a string`);
  }
  const tokenCount = options.tokenCount === undefined ? "exact" : options.tokenCount;
  if (tokenCount !== "exact" && tokenCount !== "bound")
    fail(`tokenCount must be "exact" or "bound" (got ${String(tokenCount)})`);
  if (tokenCount === "bound" && typeof tokenizer !== "string")
    fail(
      'tokenCount "bound" needs a built-in tokenizer (a host\'s counter is not bounded by bytes)',
    );
  for (const key of ["untrusted", "invisible", "toolError"] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== "boolean") fail(`${key} must be a boolean`);
  }
  const redaction = options.redact ?? true;
  if (typeof redaction !== "boolean" && (typeof redaction !== "object" || redaction === null)) {
    fail("redact must be a boolean or an object of redact options");
  }
  if (typeof redaction === "object") checkNames(redaction, REDACT_OPTIONS, "options.redact");
  if (options.onShaped !== undefined && typeof options.onShaped !== "function")
    fail("onShaped must be a function");
  return Object.freeze({
    maxTokens: positiveInteger("maxTokens", options.maxTokens, DEFAULT_MAX_TOKENS, MIN_MAX_TOKENS),
    maxBytes: positiveInteger("maxBytes", options.maxBytes, DEFAULT_MAX_BYTES),
    contentType: options.contentType,
    tool: options.tool,
    untrusted: options.untrusted ?? true,
    tokenizer,
    tokenCount,
    next: hintOf(options.next ?? DEFAULT_NEXT),
    hashLimit: positiveInteger("hashLimit", options.hashLimit, DEFAULT_HASH_LIMIT, 0),
    abortSignal: abortSignalOf(options.abortSignal),
    timeoutMs:
      options.timeoutMs === undefined
        ? undefined
        : positiveInteger("timeoutMs", options.timeoutMs, 0, 1),
    redactor: redaction === false ? undefined : redactorLoader(redaction === true ? {} : redaction),
    fingerprintKey: typeof redaction === "object" ? redaction.fingerprintKey : undefined,
    invisible: options.invisible ?? true,
    toolError: options.toolError ?? false,
    onShaped: options.onShaped,
    ...spotlighting(options),
    ...structured(options),
  });
}

/**
 * The options of one call: the compiled ones with the call's budget, cap, tool and content type
 * in place (and what follows from the budget); the rule set and every other option are shared.
 *
 * @example
 * const wider = compileCall(compiled, options, { maxTokens: 8000 });
 */
export function compileCall(
  o: CompiledOptions,
  options: ShapeOptions,
  call: CallOptions,
): CompiledOptions {
  if (call === null || typeof call !== "object") fail("call options must be an object");
  checkNames(call, CALL_OPTIONS, "call options");
  for (const key of ["contentType", "tool"] as const) {
    const value = call[key];
    if (value !== undefined && typeof value !== "string") fail(`${key} must be a string`);
  }
  const maxTokens = positiveInteger("maxTokens", call.maxTokens, o.maxTokens, MIN_MAX_TOKENS);
  return Object.freeze({
    ...o,
    maxTokens,
    maxBytes: positiveInteger("maxBytes", call.maxBytes, o.maxBytes),
    tool: call.tool ?? o.tool,
    contentType: call.contentType ?? o.contentType,
    abortSignal: call.abortSignal !== undefined ? abortSignalOf(call.abortSignal) : o.abortSignal,
    timeoutMs:
      call.timeoutMs !== undefined
        ? positiveInteger("timeoutMs", call.timeoutMs, 0, 1)
        : o.timeoutMs,
    ...(maxTokens !== o.maxTokens ? byBudget(maxTokens, options) : {}),
  });
}

/** What the budget decides: the keeper's capacity, and the default length of shown strings. */
function byBudget(
  maxTokens: number,
  options: ShapeOptions,
): { capacity: number; maxStringChars: number } {
  return {
    maxStringChars: positiveInteger(
      "maxStringChars",
      options.maxStringChars,
      Math.max(200, Math.min(2000, Math.floor(maxTokens / 2))),
      16,
    ),
    capacity: Math.max(4096, maxTokens * 8),
  };
}

const FORMATS = new Set(["auto", "text", "json", "ndjson", "csv", "tsv"]);
const DEFAULT_RECORDS_NEXT = "for more, narrow the call (a filter, fewer fields or a page)";

function structured(options: ShapeOptions) {
  const format = options.format ?? "auto";
  if (!FORMATS.has(format))
    fail(`format must be one of ${[...FORMATS].join(", ")} (got ${String(format)})`);
  const envelope = options.envelope ?? "text";
  if (envelope !== "text" && envelope !== "json") fail(`envelope must be "text" or "json"`);
  const limits: { -readonly [K in keyof StructuredLimits]: number } = {
    ...DEFAULT_STRUCTURED_LIMITS,
  };
  if (
    options.limits !== undefined &&
    (typeof options.limits !== "object" || options.limits === null)
  )
    fail("limits must be an object of parser limits");
  checkNames(options.limits ?? {}, LIMITS, "options.limits");
  for (const [key, value] of Object.entries(options.limits ?? {})) {
    limits[key as keyof StructuredLimits] = positiveInteger(`limits.${key}`, value, 1);
  }
  if (options.errorsFirst !== undefined && typeof options.errorsFirst !== "boolean")
    fail("errorsFirst must be a boolean");
  if (
    options.store !== undefined &&
    (typeof options.store?.get !== "function" || typeof options.store?.put !== "function")
  ) {
    fail("store must have get(handle) and put(result)");
  }
  const { putPart, getPart } = (options.store ?? {}) as Partial<ResultStore>;
  if (
    (putPart !== undefined || getPart !== undefined) &&
    (typeof putPart !== "function" || typeof getPart !== "function")
  ) {
    fail("store must have both putPart(key, text) and getPart(key), or neither");
  }
  if (options.summarize !== undefined && typeof options.summarize !== "function")
    fail("summarize must be a function");
  if (
    options.contract !== undefined &&
    (typeof options.contract !== "object" || options.contract === null)
  ) {
    fail("contract must be an object of contract options");
  }
  if (options.contract !== undefined) {
    checkNames(options.contract, CONTRACT_OPTIONS, "options.contract");
    const invariants = options.contract.invariants;
    if (typeof invariants === "object" && invariants !== null)
      checkNames(invariants, INVARIANTS, "options.contract.invariants");
  }
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  return {
    format,
    recordPaths: recordPathsOf(options.records),
    projection: options.fields !== undefined ? compileProjection(options.fields) : undefined,
    sort: options.sort !== undefined ? compileSort(options.sort) : undefined,
    errorsFirst: options.errorsFirst ?? true,
    envelope,
    limits: Object.freeze(limits),
    ...byBudget(maxTokens, options),
    store: options.store,
    storeMaxChars: positiveInteger("storeMaxChars", options.storeMaxChars, 32 << 20),
    contract: options.contract,
    summarize: options.summarize,
    maxSummaryTokens:
      options.maxSummaryTokens === undefined
        ? undefined
        : positiveInteger("maxSummaryTokens", options.maxSummaryTokens, 1),
    summaryTimeoutMs: timerMs("summaryTimeoutMs", options.summaryTimeoutMs, 15_000),
    recordsNext: hintOf(options.next ?? DEFAULT_RECORDS_NEXT),
  };
}

/** Paths named by the `records` option, checked: dotted keys, at most 64 of 512 characters. */
function recordPathsOf(records: ShapeOptions["records"]): readonly string[] | undefined {
  if (records === undefined) return undefined;
  const list = typeof records === "string" ? [records] : records;
  if (!Array.isArray(list) || list.length === 0 || list.length > 64)
    fail("records must be a path or a list of 1 to 64 paths");
  return Object.freeze(
    list.map((path: unknown) => {
      if (typeof path !== "string" || path.trim() === "" || path.length > 512)
        fail(`records: each path must be a non-empty string of at most 512 characters`);
      // `$.a.b` and `a.b` name the same array.
      return path.trim().replace(/^\$\.?/, "");
    }),
  );
}

function spotlighting(options: ShapeOptions): { spotlight: SpotlightMode; datamark: string } {
  const spotlight = options.spotlight ?? "fence";
  const datamark = options.datamark ?? DEFAULT_DATAMARK;
  if (spotlight !== "fence" && spotlight !== "datamark" && spotlight !== "base64") {
    fail(`spotlight must be "fence", "datamark" or "base64" (got ${String(spotlight)})`);
  }
  // The marker is checked once here, not on every result.
  applySpotlight("datamark", "a b", datamark);
  return { spotlight, datamark };
}
