/**
 * The intake stage: any input opened under the byte cap, sniffed and routed. The `format` option
 * decides first, then the declared content type, then the first bytes (binary signatures, HTML,
 * JSON). Sniffing never consumes a source: what is read to sniff is replayed to the decoder.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { RunContext, Stage } from "../pipeline/run.js";
import { sampleChunk } from "../pipeline/sample.js";
import type { SectionName } from "../pipeline/unit.js";
import {
  type ByteBudget,
  type CappedReader,
  concat,
  createByteBudget,
  createCappedReader,
  peek,
  replay,
  tap,
} from "./budget.js";
import type { CommandOutput, InputFormat, ShapeInput, StreamSource } from "./input.js";
import { settleOutcome } from "./outcome.js";
import {
  formatOfType,
  isHtmlType,
  isSniffable,
  looksLikeHtml,
  mediaType,
  SNIFF_BYTES,
  type Sniffed,
  type StructuredFormat,
  sniff,
  sniffFormat,
} from "./sniff.js";
import { assertReadable, openHostSource } from "./source.js";

export interface IntakeOptions {
  readonly maxBytes: number;
  readonly contentType: string | undefined;
  readonly format: InputFormat;
  /** Turns what a failed source threw into words safe to show. */
  readonly describe: (text: string) => string;
}

/** A byte source opened under the cap, with what its first bytes say it is. */
export interface OpenedSection {
  readonly name: SectionName;
  readonly reader: CappedReader;
  readonly sniffed: Sniffed;
}

export type Intake =
  | {
      readonly route: "lines";
      readonly sections: readonly OpenedSection[];
      /** The content type says markdown. */
      readonly markdown?: boolean;
      /** Waits for how the command ended, once its streams are read. */
      readonly settle?: () => Promise<void>;
    }
  | {
      readonly route: "html";
      readonly reader: CappedReader;
      readonly contentType: string | undefined;
      readonly baseUrl?: string;
    }
  | {
      readonly route: "records";
      readonly reader: CappedReader;
      readonly format: StructuredFormat;
      /** The format was sniffed, not declared: the decoder falls back to text while it can. */
      readonly sniffed: boolean;
    }
  | { readonly route: "value"; readonly value: unknown };

/** Characters of a head that sniffing looks at. */
const SNIFF_CHARS = 4096;

/**
 * @example
 * const intake = createIntake({ maxBytes: 1 << 20, contentType: undefined, format: "auto", describe: String });
 * await intake.run("[{\"id\":1}]", ctx); // { route: "records", format: "json", sniffed: true, … }
 */
export function createIntake(options: IntakeOptions): Stage<ShapeInput, Intake> {
  return {
    name: "intake",
    run(input, ctx) {
      return route(input, options, ctx);
    },
  };
}

function isSource(input: unknown): input is StreamSource {
  return (
    typeof input === "string" ||
    input instanceof ArrayBuffer ||
    ArrayBuffer.isView(input) ||
    (typeof Blob !== "undefined" && input instanceof Blob) ||
    (typeof ReadableStream !== "undefined" && input instanceof ReadableStream) ||
    (typeof input === "object" && input !== null && Symbol.asyncIterator in input)
  );
}

function isResponse(input: unknown): input is Response {
  return typeof Response !== "undefined" && input instanceof Response;
}

/** A command's output: an object, not a source, with a `stdout`. The one rule for it. */
function isCommand(input: unknown): input is CommandOutput {
  return typeof input === "object" && input !== null && !isSource(input) && "stdout" in input;
}

async function route(input: ShapeInput, o: IntakeOptions, ctx: RunContext): Promise<Intake> {
  if (input === null || input === undefined) {
    throw new AirlockError(
      "input/unsupported",
      "shape: unsupported input (expected string, bytes, Blob, ReadableStream, Response, { stdout, stderr?, exitCode? } or a JSON value)",
    );
  }
  let command = false;
  try {
    command = !isResponse(input) && isCommand(input);
  } catch (cause) {
    // A host object whose traps throw (a Proxy): it is read as a command that failed.
    return failedCommand(cause, o, ctx);
  }
  if (command) return commandIntake(input as CommandOutput, o, ctx);
  if (isResponse(input)) return responseIntake(input, o, ctx);
  if (!isSource(input)) {
    if (typeof input !== "object" && typeof input !== "number" && typeof input !== "boolean") {
      throw new AirlockError(
        "input/unsupported",
        `shape: unsupported input of type ${typeof input} (expected text, bytes, a stream, a Response, a command's output or a JSON value)`,
      );
    }
    if (o.format === "text")
      throw new AirlockError(
        "input/unsupported",
        'shape: format "text" needs text or bytes, not a value',
      );
    if (ctx.sample) ctx.sample.value = { value: input };
    return { route: "value", value: input };
  }
  return sourceIntake(input, o.contentType, o, ctx, undefined);
}

function readerOf(
  name: SectionName,
  source: StreamSource,
  budget: ByteBudget,
  o: IntakeOptions,
  ctx: RunContext,
) {
  const reader = createCappedReader(name, openHostSource(source), budget, o.describe, ctx.stopper);
  const sample = ctx.sample;
  // Telemetry counts the input's tokens from its first bytes, as they come (peeks included).
  return sample ? tap(reader, (chunk) => sampleChunk(sample, name, chunk)) : reader;
}

/** One byte source: sniffed for binary, then for HTML and JSON when the type leaves it open. */
async function sourceIntake(
  source: StreamSource,
  contentType: string | undefined,
  o: IntakeOptions,
  ctx: RunContext,
  baseUrl: string | undefined,
): Promise<Intake> {
  assertReadable(source);
  const reader = readerOf("text", source, createByteBudget(o.maxBytes), o, ctx);
  const head = await peek(reader, SNIFF_BYTES);
  const again = replay(head, reader);
  const bytes = concat(head, SNIFF_BYTES);
  // A JS string is text by construction: only byte sources are sniffed for binary, and bytes
  // win over a declared text type (a PNG declared text/csv is still an image).
  // A declared text format (JSON, NDJSON, CSV, HTML) is not a declared binary type, whatever its
  // name looks like (`application/x-ndjson`): only the bytes can still say binary.
  const textual = formatOfType(contentType) !== undefined || isHtmlType(contentType);
  const sniffed: Sniffed =
    typeof source === "string"
      ? { kind: "text", encoding: "utf-8" }
      : sniff(bytes, textual ? undefined : contentType);
  const lines = (): Intake => ({
    route: "lines",
    sections: [{ name: "text", reader: again, sniffed }],
    ...(MARKDOWN.test(mediaType(contentType) ?? "") ? { markdown: true } : {}),
  });
  if (sniffed.kind === "binary") return lines();
  const declared = o.format === "auto" || o.format === "text" ? undefined : o.format;
  if (declared) return { route: "records", reader: again, format: declared, sniffed: false };
  if (o.format === "auto" && isHtmlType(contentType)) {
    return { route: "html", reader: again, contentType, ...(baseUrl ? { baseUrl } : {}) };
  }
  const typed = o.format === "auto" ? formatOfType(contentType) : undefined;
  if (typed) return { route: "records", reader: again, format: typed, sniffed: false };
  if (sniffed.encoding === "utf-8" && o.format === "auto" && isSniffable(contentType)) {
    const text = new TextDecoder().decode(bytes).slice(0, SNIFF_CHARS);
    if (looksLikeHtml(text)) {
      return { route: "html", reader: again, contentType, ...(baseUrl ? { baseUrl } : {}) };
    }
    const format = sniffFormat(text.replace(/^\uFEFF/, ""));
    if (format) return { route: "records", reader: again, format, sniffed: true };
  }
  return lines();
}

/** Media types that say the text is markdown (the preview renders it as such). */
const MARKDOWN = /^text\/(?:x-)?markdown$/;

async function responseIntake(input: Response, o: IntakeOptions, ctx: RunContext): Promise<Intake> {
  if (input.bodyUsed) {
    throw new AirlockError(
      "input/unsupported",
      "shape: the Response body was already read; pass a clone()",
    );
  }
  const contentType = o.contentType ?? input.headers.get("content-type") ?? undefined;
  ctx.facts.http = { status: input.status, statusText: input.statusText, ok: input.ok };
  const body: StreamSource = input.body ?? "";
  // A page, also a failed request's error page: its markup is no use to the model either way.
  if (o.format === "auto" && isHtmlType(contentType)) {
    return sourceIntake(body, contentType, o, ctx, input.url || undefined);
  }
  // Any other failed request's body is an error page more often than data (a 502 from a proxy
  // in front of a JSON API): it is shown as text, with its status.
  if (!input.ok) return sourceIntake(body, contentType, { ...o, format: "text" }, ctx, undefined);
  const intake = await sourceIntake(body, contentType, o, ctx, input.url || undefined);
  // A 1xx body (none, in practice) stays text.
  return intake;
}

async function commandIntake(
  input: CommandOutput,
  o: IntakeOptions,
  ctx: RunContext,
): Promise<Intake> {
  ctx.facts.kind = "command";
  ctx.facts.format = "command";
  const streams: Array<[SectionName, StreamSource]> = [];
  for (const name of ["stdout", "stderr"] as const) {
    let source: StreamSource | undefined;
    try {
      source = input[name];
    } catch (cause) {
      // A throwing getter: the stream failed before it could be read.
      streams.push([name, failing(cause)]);
      continue;
    }
    if (source !== undefined) streams.push([name, source]);
  }
  const budget = createByteBudget(
    o.maxBytes,
    streams.map(([name, src]) => ({ name, size: knownSize(src) })),
  );
  // Refuse a locked stream before opening the other one, so nothing is left half-read.
  for (const [, src] of streams) assertReadable(src);
  // Both streams are peeked at once: a writer blocked on one pipe must not stall the other.
  const sections = await Promise.all(
    streams.map(async ([name, src]): Promise<OpenedSection> => {
      const reader = readerOf(name, src, budget, o, ctx);
      const head = await peek(reader, SNIFF_BYTES);
      const sniffed: Sniffed =
        typeof src === "string"
          ? { kind: "text", encoding: "utf-8" }
          : sniff(concat(head, SNIFF_BYTES), undefined);
      return { name, reader: replay(head, reader), sniffed };
    }),
  );
  return { route: "lines", sections, settle: () => settleOutcome(input, ctx) };
}

/** A host object that throws when it is looked at: a command whose streams failed. */
function failedCommand(cause: unknown, o: IntakeOptions, ctx: RunContext): Intake {
  ctx.facts.kind = "command";
  ctx.facts.format = "command";
  const reader = readerOf("stdout", failing(cause), createByteBudget(o.maxBytes), o, ctx);
  return {
    route: "lines",
    sections: [{ name: "stdout", reader, sniffed: { kind: "text", encoding: "utf-8" } }],
    settle: () => settleOutcome({ stdout: "" }, ctx),
  };
}

/** An async iterable that throws `cause` when read. */
function failing(cause: unknown): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      return {
        next: () => Promise.reject(cause),
      };
    },
  };
}

/** Bytes a source will produce, when that is known before reading (at most, for a string). */
function knownSize(source: StreamSource): number | undefined {
  try {
    if (typeof source === "string") return source.length * 3;
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source.byteLength;
    if (typeof Blob !== "undefined" && source instanceof Blob) return source.size;
  } catch {
    // A detached buffer: its size is unknown (reading it fails and is reported).
  }
  return undefined;
}
