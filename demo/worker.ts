/**
 * The shaping worker: generates or reads the input, shapes it with the library, and posts back
 * the result with what the page needs to explain it. The page stays responsive however large
 * the input, and cancelling is terminating this worker.
 */
import {
  ceilingOf,
  createMemoryStore,
  createResultReader,
  MIN_READ_TOKENS,
  type ResultReader,
  type Shaped,
  type ShapeInput,
  type ShapeOptions,
  shape,
  toAnthropic,
  toMcp,
  toOpenAIChat,
  toOpenAIResponses,
} from "agent-airlock";
import { type Generated, generate } from "./generators.ts";
import { playRun } from "./play-run.ts";
import type {
  Controls,
  ReadRequest,
  RunRequest,
  ShapeRequest,
  ShapeResult,
  Source,
  WorkerReply,
} from "./protocol.ts";
import { type Observed, observe, type TextSource } from "./scan.ts";

const PROGRESS_EVERY_MS = 80;

const post = (reply: WorkerReply) => self.postMessage(reply);

/**
 * Every result this worker shapes is kept whole here, so every cut result has a handle and the
 * read-more panel can call `read_result` on it. The store lives as long as the worker: cancelling
 * a job terminates the worker, and its results with it (a read then gets what a model would get
 * for an expired handle).
 */
const store = createMemoryStore({ maxChars: 192 << 20 });
/** Enough for the 50 MB sample's text. */
const STORE_MAX_CHARS = 96 << 20;

self.addEventListener("message", (event: MessageEvent<ShapeRequest | ReadRequest | RunRequest>) => {
  const request = event.data;
  if (request?.type !== "shape" && request?.type !== "read" && request?.type !== "run") return;
  const work =
    request.type === "shape"
      ? run(request)
      : request.type === "read"
        ? read(request)
        : play(request);
  work.catch((error: unknown) =>
    post({
      type: "failed",
      job: request.job,
      message: error instanceof Error ? error.message : String(error),
    }),
  );
});

/** The 40-turn run of the run view, turn by turn. */
async function play({ job }: RunRequest): Promise<void> {
  const data = await playRun((turn) => post({ type: "run-progress", job, turn }));
  post({ type: "run-done", job, run: data });
}

/** One reader per set of controls that change pages (budget, tokenizer, fence, redaction). */
const readers = new Map<string, ResultReader>();

async function read({ job, args, controls }: ReadRequest): Promise<void> {
  const key = JSON.stringify([
    controls.maxTokens,
    controls.tokenizer,
    controls.spotlight,
    controls.untrusted,
    controls.redact,
  ]);
  let reader = readers.get(key);
  if (reader === undefined) {
    reader = createResultReader({
      store,
      // A reader's pages need room for a line and the call that reads on.
      maxTokens: Math.max(controls.maxTokens, MIN_READ_TOKENS),
      tokenizer: controls.tokenizer,
      spotlight: controls.spotlight,
      untrusted: controls.untrusted,
      redact: controls.redact,
    });
    readers.set(key, reader);
  }
  const started = performance.now();
  const page = await reader(args);
  post({
    type: "read-done",
    job,
    read: {
      page: { text: page.text, status: page.status, meta: page.meta },
      ms: Math.round(performance.now() - started),
    },
  });
}

function generated(source: Source): Generated {
  if (source.kind === "sample") return generate(source.id);
  if (source.kind === "text") return { input: source.text };
  return { input: source.file, contentType: source.file.type || undefined };
}

function options(controls: Controls, contentType: string | undefined): ShapeOptions {
  const fields = controls.fields.trim();
  return {
    maxTokens: controls.maxTokens,
    maxBytes: controls.maxBytes,
    tokenizer: controls.tokenizer,
    redact: controls.redact,
    untrusted: controls.untrusted,
    spotlight: controls.spotlight,
    format: controls.format,
    tool: controls.tool || "tool",
    store,
    storeMaxChars: STORE_MAX_CHARS,
    ...(controls.contentType || contentType
      ? { contentType: controls.contentType || contentType }
      : {}),
    ...(fields ? { fields } : {}),
  };
}

async function run({ job, source, controls }: ShapeRequest): Promise<void> {
  const started = performance.now();
  const sample = generated(source);
  let read = 0;
  let last = 0;
  const onBytes = (bytes: number) => {
    read += bytes;
    const now = performance.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    post({ type: "progress", job, bytes: read, ...(total !== undefined ? { total } : {}) });
  };

  const observed: Observed[] = [];
  const watch = (s: TextSource, name: "text" | "stdout" | "stderr") => {
    const o = observe(s, name, onBytes);
    observed.push(o);
    return o.stream;
  };
  const raw = sample.input;
  const input: ShapeInput =
    typeof raw === "object" && "stdout" in raw
      ? {
          stdout: watch(raw.stdout, "stdout"),
          stderr: watch(raw.stderr, "stderr"),
          exitCode: raw.exitCode,
        }
      : watch(raw, "text");
  const sizes = observed.map((o) => o.total);
  const total =
    sample.total ??
    (sizes.every((n) => n !== undefined)
      ? sizes.reduce<number>((a, n) => a + (n ?? 0), 0)
      : undefined);

  const chosen = options(controls, sample.contentType);
  const shaped = await shape(input, chosen);
  const ceiling = await ceilingOf(chosen);
  post({ type: "progress", job, bytes: read, ...(total !== undefined ? { total } : {}) });

  const result: ShapeResult = {
    shaped: { text: shaped.text, status: shaped.status, meta: shaped.meta },
    scans: observed.map((o) => o.scan),
    adapters: {
      "OpenAI Chat": toOpenAIChat(shaped, { toolCallId: "call_playground_1" }),
      "OpenAI Responses": toOpenAIResponses(shaped, { callId: "call_playground_1" }),
      Anthropic: toAnthropic(shaped, { toolUseId: "toolu_playground_1" }),
      MCP: toMcp(shaped),
    },
    before: before(shaped),
    after: {
      bytes: new TextEncoder().encode(shaped.text).byteLength,
      tokens: shaped.meta.tokens ?? 0,
    },
    ceiling: { tokens: ceiling.tokens, frame: ceiling.frame, bounded: ceiling.bounded },
    ms: Math.round(performance.now() - started),
  };
  post({ type: "done", job, result });
}

/**
 * The input's token count as if it were sent unshaped: the library's own telemetry (counted
 * exactly up to 64 KiB, unfenced and unredacted, extrapolated beyond).
 */
function before(shaped: Shaped) {
  const t = shaped.meta.telemetry;
  if (t === undefined) return { bytes: shaped.meta.bytes, tokens: 0, exact: false };
  return { bytes: t.before.bytes, tokens: t.before.tokens, exact: !t.before.estimated };
}
