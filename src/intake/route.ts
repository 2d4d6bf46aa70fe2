/**
 * The intake stage: any input opened under the byte cap, sniffed and routed. The `format` option
 * decides first, then the declared content type, then the first bytes (binary signatures, HTML,
 * JSON). Sniffing never consumes a source: what is read to sniff is replayed to the decoder.
 */
import { AirlockError } from "../errors/airlock-error.js";
import { EXIT_QUIET_MS, type RunContext, type Stage } from "../pipeline/run.js";
import { sampleChunk } from "../pipeline/sample.js";
import type { SectionName } from "../pipeline/unit.js";
import {
  type Arrival,
  type Captured,
  capture,
  claim,
  isCaptured,
  isCommand,
  isOpened,
  isSource,
  type Opened,
} from "./attach.js";
import {
  type ByteBudget,
  type CappedReader,
  concat,
  createByteBudget,
  createCappedReader,
  type Linger,
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
import { assertReadable, type ByteSource, failingSource, openHostSource } from "./source.js";

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
  /** What a live stream looked like when it was attached (a Node stream only). */
  readonly arrival?: Arrival;
  /** A process's stream that was not piped to airlock (it wrote to a terminal or nowhere). */
  readonly uncaptured?: true;
}

/**
 * A section whose head is sniffed when its decoder starts: each section of a command sniffs its
 * own, so one pipe never waits for the other's first bytes (a child blocked on a full stdout
 * never writes the stderr that a joint sniff would wait for).
 */
export interface SectionSource {
  readonly name: SectionName;
  open(): Promise<OpenedSection>;
}

export type Intake =
  | {
      readonly route: "lines";
      readonly sections: readonly SectionSource[];
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
export function createIntake(options: IntakeOptions): Stage<IntakeInput, Intake> {
  return {
    name: "intake",
    run(input, ctx) {
      return route(input, options, ctx);
    },
  };
}

function isResponse(input: unknown): input is Response {
  return typeof Response !== "undefined" && input instanceof Response;
}

function isRequest(input: unknown): input is Request {
  return typeof Request !== "undefined" && input instanceof Request;
}

/** What intake reads: the host's input, or its live streams as `shape()` attached them. */
export type IntakeInput = ShapeInput | Captured | Opened;

async function route(input: IntakeInput, o: IntakeOptions, ctx: RunContext): Promise<Intake> {
  if (isCaptured(input)) return commandIntake(claim(input), o, ctx);
  if (isOpened(input)) return sourceIntake(input, o.contentType, o, ctx, undefined);
  if (input === null || input === undefined) {
    throw new AirlockError(
      "input/unsupported",
      "shape: unsupported input (expected string, bytes, Blob, ReadableStream, Response, Request, { stdout, stderr?, exitCode? } or a JSON value)",
    );
  }
  let command = false;
  try {
    command = isCommand(input);
  } catch (cause) {
    // A host object whose traps throw (a Proxy): it is read as a command that failed.
    return failedCommand(cause, o, ctx);
  }
  if (command) return commandIntake(capture(input as CommandOutput), o, ctx);
  if (isResponse(input) || isRequest(input)) {
    try {
      return await (isResponse(input)
        ? responseIntake(input, o, ctx)
        : requestIntake(input, o, ctx));
    } catch (cause) {
      if (cause instanceof AirlockError) throw cause;
      // A host's Response or Request whose getters throw: a source that failed, reported.
      return failedSource(cause, o, ctx);
    }
  }
  // A Blob or File says what it holds.
  if (typeof Blob !== "undefined" && input instanceof Blob)
    return sourceIntake(input, o.contentType ?? (input.type || undefined), o, ctx, undefined);
  if (!isSource(input)) {
    if (typeof input !== "object" && typeof input !== "number" && typeof input !== "boolean") {
      throw new AirlockError(
        "input/unsupported",
        `shape: unsupported input of type ${typeof input} (expected text, bytes, a stream, a Response, a Request, a command's output or a JSON value)`,
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
  source: ByteSource,
  budget: ByteBudget,
  o: IntakeOptions,
  ctx: RunContext,
  linger?: Linger,
) {
  const reader = createCappedReader(name, source, budget, o.describe, ctx.stopper, linger);
  const sample = ctx.sample;
  // Telemetry counts the input's tokens from its first bytes, as they come (peeks included).
  return sample ? tap(reader, (chunk) => sampleChunk(sample, name, chunk)) : reader;
}

/** One byte source: sniffed for binary, then for HTML and JSON when the type leaves it open. */
async function sourceIntake(
  input: StreamSource | Opened,
  contentType: string | undefined,
  o: IntakeOptions,
  ctx: RunContext,
  baseUrl: string | undefined,
): Promise<Intake> {
  const live = isOpened(input) ? input : undefined;
  const source = live ? live.origin : (input as StreamSource);
  if (!live) assertReadable(source);
  const opened = live ? live.source : openHostSource(source);
  const reader = readerOf("text", opened, createByteBudget(o.maxBytes), o, ctx);
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
  const section: OpenedSection = {
    name: "text",
    reader: again,
    sniffed,
    ...(live?.arrival ? { arrival: live.arrival } : {}),
  };
  const lines = (): Intake => ({
    route: "lines",
    sections: [{ name: "text", open: async () => section }],
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

/** A Response's or a Request's body, once, with the type its headers declare. */
function bodyOf(
  input: Response | Request,
  o: IntakeOptions,
): { readonly body: StreamSource; readonly contentType: string | undefined } {
  if (input.bodyUsed) {
    const what = isResponse(input) ? "Response" : "Request";
    throw new AirlockError(
      "input/unsupported",
      `shape: the ${what} body was already read; pass a clone()`,
    );
  }
  const contentType = o.contentType ?? input.headers.get("content-type") ?? undefined;
  return { body: input.body ?? "", contentType };
}

async function responseIntake(input: Response, o: IntakeOptions, ctx: RunContext): Promise<Intake> {
  const { body, contentType } = bodyOf(input, o);
  ctx.facts.http = { status: input.status, statusText: input.statusText, ok: input.ok };
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

/** A request's body (a Worker's `request`, a webhook), read as its content type says. */
async function requestIntake(input: Request, o: IntakeOptions, ctx: RunContext): Promise<Intake> {
  const { body, contentType } = bodyOf(input, o);
  return sourceIntake(body, contentType, o, ctx, input.url || undefined);
}

async function commandIntake(input: Captured, o: IntakeOptions, ctx: RunContext): Promise<Intake> {
  ctx.facts.kind = "command";
  ctx.facts.format = "command";
  const budget = createByteBudget(
    o.maxBytes,
    input.streams.map((s) => ({ name: s.name, size: knownSize(s.origin) })),
  );
  // Once the command has exited, a pipe still open but quiet is held by a process it started.
  const linger = input.exited ? { exited: input.exited, ms: EXIT_QUIET_MS } : undefined;
  const sections = input.streams.map(
    (s): SectionSource => ({
      name: s.name,
      async open() {
        const reader = readerOf(s.name, s.source, budget, o, ctx, linger);
        const head = await peek(reader, SNIFF_BYTES);
        const sniffed: Sniffed =
          typeof s.origin === "string"
            ? { kind: "text", encoding: "utf-8" }
            : sniff(concat(head, SNIFF_BYTES), undefined);
        return {
          name: s.name,
          reader: replay(head, reader),
          sniffed,
          ...(s.arrival ? { arrival: s.arrival } : {}),
          ...(s.captured ? {} : { uncaptured: true as const }),
        };
      },
    }),
  );
  return { route: "lines", sections, settle: () => settleOutcome(input, ctx, o.describe) };
}

/** A host object that throws when it is looked at: a command whose streams failed. */
function failedCommand(cause: unknown, o: IntakeOptions, ctx: RunContext): Intake {
  ctx.facts.kind = "command";
  ctx.facts.format = "command";
  const reader = readerOf("stdout", failingSource(cause), createByteBudget(o.maxBytes), o, ctx);
  const section: OpenedSection = {
    name: "stdout",
    reader,
    sniffed: { kind: "text", encoding: "utf-8" },
  };
  return {
    route: "lines",
    sections: [{ name: "stdout", open: async () => section }],
    settle: () => settleOutcome(capture({ stdout: "" }), ctx, o.describe),
  };
}

/** A host object that throws when it is looked at: a text source that failed to read. */
function failedSource(cause: unknown, o: IntakeOptions, ctx: RunContext): Intake {
  const reader = readerOf("text", failingSource(cause), createByteBudget(o.maxBytes), o, ctx);
  const section: OpenedSection = {
    name: "text",
    reader,
    sniffed: { kind: "text", encoding: "utf-8" },
  };
  return { route: "lines", sections: [{ name: "text", open: async () => section }] };
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
