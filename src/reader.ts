/**
 * `read_result`: the companion tool a host registers with its model, so the model can read
 * what a stored result left out (pages of records, lines, greps, evidence) instead of calling
 * the original tool again. This module is small on purpose: the page shaping loads on the
 * first call.
 */

import { AirlockError } from "./errors/airlock-error.js";
import { createPresenter } from "./fence/present.js";
import type { ResolvedTokenizer } from "./fit/tokenizer.js";
import { resolveTokenizer } from "./fit/tokenizer.js";
import { compileOptions, MIN_READ_TOKENS, type ShapeOptions } from "./options/compile.js";
import { sliceOptions } from "./options/slices.js";
import type { Shaped } from "./pipeline/shaped.js";
import { createRedactStage } from "./redact/stage.js";
import type { PageOptions, ReaderState } from "./store/page.js";
import type { ResultStore, Where } from "./store/store.js";

export {
  READ_RESULT_TOOL,
  READ_RESULT_TOOL_STRICT,
  readResultZodShape,
  type ZodLike,
} from "./store/tool.js";

/** Arguments of `read_result`, as the model sends them (`null` means absent). */
export interface ReadResultArgs {
  readonly handle: string;
  /** Records: the cursor from the previous page's `next` line. */
  readonly cursor?: string | null;
  /** Records: positions of the view to read, 1-based and inclusive. */
  readonly range?: { readonly from: number; readonly to: number } | null;
  /** Records: fields to return, as projection paths (`["title", "user.login"]`). */
  readonly fields?: string | readonly string[] | null;
  /**
   * Records: keep those whose fields match: a value for equality, or `{ eq, ne, gt, gte, lt,
   * lte, in, contains }`; also a list of `{ field, op, value }`.
   */
  readonly where?:
    | Where
    | ReadonlyArray<{ readonly field: string; readonly op: string; readonly value: unknown }>
    | null;
  /** Text: lines to read, 1-based and inclusive (`to` may be left out); with a search, the lines searched. */
  readonly lines?: { readonly from: number; readonly to?: number | null } | null;
  /** Text: a line to read with its context. */
  readonly around?: number | null;
  /** Text: a literal (any case), or `/regex/` or `/regex/i` in the safe subset. */
  readonly grep?: string | null;
  /** Only the evidence: error, warning and stand-out lines, or records. */
  readonly evidence?: boolean | null;
  /** Text of a command: `stdout` or `stderr` (`text` for other text). */
  readonly section?: "stdout" | "stderr" | "text" | null;
  /** At most this many records or lines. */
  readonly pageSize?: number | null;
  /** Text: `true` for the whole summary (every severe message with its count, lines, times and id). */
  readonly summary?: boolean | null;
  /** Text: a message's id from the summary (`m3f2a9c01`): that message's lines, page after page. */
  readonly template?: string | null;
}

export type ResultReader = (args: unknown) => Promise<Shaped>;

export interface ResultReaderOptions extends ShapeOptions {
  readonly store: ResultStore;
  /** Steps one call may spend searching (a filter, a grep, the evidence). Default 50,000,000. */
  readonly maxSteps?: number;
}

const DEFAULT_MAX_STEPS = 50_000_000;

/**
 * Returns the handler of `read_result` over a store, shaping pages with the given options
 * (validated now; the shaping code loads on the first call). It never throws: a wrong
 * argument or an expired handle is an error result.
 *
 * @example
 * const store = createMemoryStore();
 * const readResult = createResultReader({ store, maxTokens: 2000 });
 * tools.register(READ_RESULT_TOOL, (args) => readResult(args).then((r) => r.text));
 */
export function createResultReader(options: ResultReaderOptions): ResultReader {
  // maxSteps is the reader's own: the shape options are checked (names included) without it.
  const { maxSteps: _steps, ...shapeOptions } = options ?? ({} as ResultReaderOptions);
  const o = compileOptions(shapeOptions);
  // Pages carry no telemetry yet: a hook given here would never be called, so it is refused.
  if (o.onShaped !== undefined) {
    throw new AirlockError(
      "options/invalid",
      "createResultReader: onShaped is not supported (read_result pages carry no telemetry yet)",
    );
  }
  if (o.maxTokens < MIN_READ_TOKENS) {
    throw new AirlockError(
      "options/invalid",
      `createResultReader: maxTokens must be at least ${MIN_READ_TOKENS} (got ${o.maxTokens}): a smaller page cannot hold a line and the call that reads on`,
    );
  }
  const store = options.store;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1)
    throw new TypeError("createResultReader: maxSteps must be a positive integer");
  const redact = createRedactStage(sliceOptions(o).redact);
  const presenter = createPresenter({
    redact: redact.redact,
    spotlight: o.spotlight,
    datamark: o.datamark,
    untrusted: o.untrusted,
    tool: "read_result",
  });
  const page: PageOptions = {
    maxTokens: o.maxTokens,
    maxStringChars: o.maxStringChars,
    capacity: o.capacity,
    mode: o.envelope,
    presenter,
    lineCap: Math.min(16384, Math.max(256, o.maxTokens * 2)),
    maxSteps,
    meta: {
      maxTokens: o.maxTokens,
      maxBytes: o.maxBytes,
      tool: "read_result",
      spotlight: o.spotlight,
      datamark: o.datamark,
      // A page reports no redactions of its own: its text was redacted when stored.
      redaction: false,
      invisible: false,
      clean: redact.clean,
      records: { sort: undefined, projection: undefined, contract: false },
    },
  };
  let tokenizer: Promise<ResolvedTokenizer> | undefined;
  let state: ReaderState | undefined;
  let floor: number | undefined;
  return async function readResult(args: unknown): Promise<Shaped> {
    tokenizer ??= resolveTokenizer(o.tokenizer);
    await redact.ready();
    const counter = await tokenizer.catch((error: unknown) => {
      tokenizer = undefined;
      throw error;
    });
    const { readPage, createReaderState, errorPage } = await import("./store/read.js");
    state ??= createReaderState();
    // A host's tokenizer may count far more than the built-in ones: its floor is measured on
    // the first call, and a reader below it says so on every call (it cannot page).
    floor ??= typeof o.tokenizer === "string" ? MIN_READ_TOKENS : await floorOf(counter);
    if (o.maxTokens < floor) {
      return errorPage(
        page,
        counter,
        "tool/unavailable",
        `read_result: this reader's maxTokens (${o.maxTokens}) is below the smallest page that reads on under its tokenizer (${floor} tokens); create it with maxTokens of at least ${floor}`,
        { kind: "records", op: "refused", steps: 0 },
        false,
        `read_result: maxTokens must be at least ${floor}`,
      );
    }
    try {
      return await readPage(page, state, store, counter, args);
    } catch (error) {
      // Only the host's tokenizer throws here (readPage answers everything else as a page): the
      // page that says so is counted by characters, at least its tokens under any encoding
      // that gives a token a character or more.
      const chars: ResolvedTokenizer = { name: counter.name, count: async (t) => t.length };
      const code = error instanceof AirlockError ? error.code : "fit/tokenizer-failed";
      return errorPage(
        page,
        chars,
        "tool/unavailable",
        `read_result: the reader's tokenizer failed (${code}); try again`,
        { kind: "records", op: "refused", steps: 0 },
        true,
      );
    }
  };
}

/**
 * A page that reads on, at its smallest: the largest fence, a header, one shortened line, a gap
 * marker and the call. MIN_READ_TOKENS is this page under the built-in encodings, with room.
 */
const FLOOR_PROBE = [
  '<untrusted-data source="tool:read_result" boundary="4294967295">',
  "[airlock: read_result: evidence lines, in line order, from line 1000000]",
  "x[airlock: 1000 chars omitted from this line]x",
  "[airlock: omitted lines 1000001-9999999]",
  '[airlock: shown 1 of 9999999 lines; to read on call read_result {"handle":"res_0123456789abcdef01234567","evidence":true,"lines":{"from":1000001}}]',
  '</untrusted-data boundary="4294967295">',
].join("\n");
/** FLOOR_PROBE's tokens under o200k_base and cl100k_base alike (counted with gpt-tokenizer). */
const FLOOR_PROBE_TOKENS = 129;

async function floorOf(counter: ResolvedTokenizer): Promise<number> {
  let tokens: number;
  try {
    tokens = await counter.count(FLOOR_PROBE);
  } catch {
    return MIN_READ_TOKENS;
  }
  if (!Number.isFinite(tokens) || tokens <= 0) return MIN_READ_TOKENS;
  return Math.max(MIN_READ_TOKENS, Math.ceil((MIN_READ_TOKENS * tokens) / FLOOR_PROBE_TOKENS));
}
