/**
 * A session over an agent's run: every tool result is shaped and recorded, and `view()` gives
 * the text each one should have in the next model call, all of it within `maxRunTokens`. Older
 * results are graded down (`session/grade.ts`) rather than deleted: each keeps its handle, and
 * the view changes only at a watermark crossing, so a provider's prompt cache keeps its prefix.
 */
import { AirlockError } from "./errors/airlock-error.js";
import { lazyTokenizer } from "./fit/tokenizer.js";
import type { CallOptions, ShapeInput } from "./options/compile.js";
import { MIN_READ_TOKENS } from "./options/compile.js";
import { CALL_OPTIONS, checkNames } from "./options/known.js";
import { safeName } from "./pipeline/markers.js";
import { createRerun, LineKeys, type Rerun, type RerunInput } from "./pipeline/rerun.js";
import type { Shaped } from "./pipeline/shaped.js";
import { tokensOf } from "./pipeline/shaped.js";
import { utf8Length } from "./pipeline/text.js";
import { createResultReader } from "./reader.js";
import { applyView } from "./session/apply.js";
import { type Entry, labelOf, lineOf, settle, textOf } from "./session/grade.js";
import { checkSession, type SessionOptions } from "./session/options.js";
import {
  isCallId,
  type Level,
  MAX_VIEW_STATS,
  type ResultState,
  type SessionState,
  type ViewStat,
} from "./session/state.js";
import { compileShaper } from "./shape.js";
import { createMemoryStore } from "./store/memory.js";
import type { ResultStore } from "./store/store.js";

export type { Level, SessionOptions, SessionState, ViewStat };

/** One result's options in a session: its call id, and its own options over the session's. */
export interface SessionCall extends CallOptions {
  /** The model's id for the tool call (`tool_call_id`, `tool_use_id`, `call_id`): unique in the session. */
  readonly callId: string;
  /**
   * The host's name for what was run (the tool and its arguments, say): a result whose key an
   * earlier result of the session has is shaped as a re-run of the latest of them.
   */
  readonly key?: string;
}

/** What one recorded result reads as in the next model call. */
export interface ViewEntry {
  readonly callId: string;
  readonly text: string;
  readonly tokens: number;
  readonly level: Level;
}

export interface SessionStats {
  /** Tokens of the view as it stands. */
  readonly tokens: number;
  readonly maxRunTokens: number;
  /** Results at each level. */
  readonly levels: Readonly<Record<Level, number>>;
  /** Results moved to a lower level so far. */
  readonly reshapes: number;
  /** Each `view()` call so far (the last 4,096): its tokens, and whether an earlier result's text changed since the one before. */
  readonly views: readonly ViewStat[];
  /** `view()` calls older than those listed. */
  readonly viewsDropped: number;
}

export interface Session {
  /** Shapes a tool result within its budget and records it; the view is then graded. */
  shape(input: ShapeInput, call: SessionCall): Promise<Shaped>;
  /** The text every recorded result should have in the next model call, in call order. */
  view(): ViewEntry[];
  /** Rewrites the tool results of a message list that this session recorded (by call id). */
  apply<M>(messages: readonly M[]): M[];
  stats(): SessionStats;
  /** The session as plain data: `createSession({ …options, restore })` goes on from it. */
  toJSON(): SessionState;
  /** Where the results are kept: `read_result` reads them from here. */
  readonly store: ResultStore;
}

/**
 * A restored result's evidence page: at least this many tokens (a search page at the reader's
 * least, MIN_READ_TOKENS, may not hold one line of a real log and the call that reads on), and
 * read within this many milliseconds.
 */
const REFIT_PAGE_TOKENS = Math.max(MIN_READ_TOKENS, 256);
const REFIT_WAIT_MS = 3_000;

/** A session call's options: a shaper call's, and the call's id. */
const SESSION_CALL = { ...CALL_OPTIONS, callId: true, key: true } as const;
/** Keys whose latest run a session holds (each 128 bytes to 1 MiB: its lines' keys and its error counts'). */
const MAX_KEYS = 16;
/** The longest key held as it is; a longer one is held as its start and a hash of it. */
const MAX_KEY = 4096;

/** A key as the session holds it: itself, or (past MAX_KEY) its start and a 64-bit hash of all of it. */
function keyName(key: string): string {
  if (key.length <= MAX_KEY) return key;
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, "0");
  return `${key.slice(0, 256)}#${key.length}#${hex(a)}${hex(b)}`;
}

function sizeOf(shaped: Shaped): string {
  const m = shaped.meta;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (m.records?.shape === "records") return plural(m.records.total, "record");
  if (m.kind === "binary" || m.kind === "structured") return plural(m.bytes, "byte");
  return plural(m.lines, "line");
}

function evidenceOf(shaped: Shaped): number {
  const m = shaped.meta;
  if (m.records) return m.records.evidence ?? m.records.errors;
  return m.sections.reduce((n, s) => n + s.evidenceLines, 0);
}

/**
 * @example
 * const session = createSession({ maxRunTokens: 32_000, keepRecent: 3, store });
 * await session.shape(log, { callId: "call_1", tool: "bash" });
 * const texts = session.view(); // [{ callId: "call_1", text, tokens, level: "full" }]
 */
export function createSession(options: SessionOptions): Session {
  const s = checkSession(options);
  const store = s.shape.store ?? createMemoryStore();
  const shaper = compileShaper({ ...s.shape, store });
  const bound = s.shape.tokenCount === "bound" && typeof s.shape.tokenizer !== "object";
  const tokenizer = lazyTokenizer(s.shape.tokenizer ?? "o200k_base");
  const count = async (text: string) =>
    bound ? utf8Length(text) : (await tokenizer()).count(text);
  const entries: Entry[] = (s.restore?.results ?? []).map((r, i) => {
    const entry: Entry = {
      ...r,
      label: labelOf(r.callId, i + 1),
      records: r.size.endsWith("record") || r.size.endsWith("records"),
    };
    const refit = storedRefit(entry);
    return refit === undefined ? entry : { ...entry, refit };
  });
  const ids = new Set(entries.map((e) => e.callId));
  let reshapes = s.restore?.reshapes ?? 0;
  const views: ViewStat[] = [...(s.restore?.views ?? [])];
  let viewsDropped = 0;
  let last: readonly ViewEntry[] | undefined;
  // Results are graded one at a time, in the order shape() was called.
  let queue: Promise<unknown> = Promise.resolve();
  let restoredCounts = entries.length > 0;
  // The latest run of each key: its lines' keys (not in toJSON: a restored session's first run
  // of a key is shaped on its own).
  const byKey = new Map<
    string,
    { label: string; handle?: string; keys: LineKeys; counts: LineKeys; failed: boolean }
  >();

  /**
   * A restored result at `full` holds no keep: its `evidence` level is read back from the store
   * instead, the evidence of the stored whole (severity first) fitted to the share. A handle the
   * store no longer has gives no fit, and the result skips `evidence` as it would without one.
   */
  let stuck = false;
  function storedRefit(e: Entry): Entry["refit"] {
    if (e.level !== "full" || e.handle === undefined || e.evidence === 0) return undefined;
    const handle = e.handle;
    return async (share) => {
      if (stuck) return undefined;
      // The result's line first (what it was, its handle), then the page of its evidence.
      // A page needs MIN_READ_TOKENS: a smaller share takes that (the level is still taken
      // only when it makes the result smaller).
      const line = lineOf(e);
      const room = Math.max(REFIT_PAGE_TOKENS, share - (await count(`${line}\n`)));
      const read = createResultReader({ ...s.shape, store, maxTokens: room });
      // A store that never answers costs the level, never the session.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const page = await Promise.race([
        read({ handle, evidence: true }),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), REFIT_WAIT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      // A store that did not answer in time is not asked again for this session's levels.
      if (page === undefined) stuck = true;
      if (page === undefined || page.status === "error") return undefined;
      const text = `${line}\n${page.text}`;
      return { text, tokens: await count(text) };
    };
  }

  /** Reads and shapes one result: its entry, not yet recorded. */
  async function shapeOne(
    input: ShapeInput,
    callId: string,
    own: CallOptions,
    rerun: Rerun | undefined,
  ): Promise<{ entry: Entry; shaped: Shaped; refit: (share: number) => Promise<Shaped> }> {
    // A budget that is not a number is the shaper's to refuse, as it is for shape().
    const given = own.maxTokens;
    const budget = Math.min(typeof given === "number" ? given : shaper.maxTokens, s.maxRunTokens);
    const prepared = await shaper.prepare(
      input,
      { ...own, maxTokens: given === undefined || typeof given === "number" ? budget : given },
      rerun,
    );
    const shaped = shaper.report(await shaper.finish(prepared, budget));
    // A re-fit of an older result asks no summariser again.
    const refit = (share: number) => shaper.finish(prepared, share, false);
    const tool = safeName(shaped.meta.tool, "");
    const entry: Entry = {
      callId,
      label: callId,
      ...(tool !== "" ? { tool } : {}),
      level: "full",
      text: shaped.text,
      tokens: tokensOf(shaped.meta),
      fullTokens: tokensOf(shaped.meta),
      status: shaped.status,
      size: sizeOf(shaped),
      evidence: evidenceOf(shaped),
      ...(shaped.meta.handle !== undefined ? { handle: shaped.meta.handle } : {}),
      records: shaped.meta.records?.shape === "records",
      refit: async (share) => {
        const fitted = await refit(share);
        return { text: fitted.text, tokens: tokensOf(fitted.meta) };
      },
    };
    return { entry, shaped, refit };
  }

  function record(
    input: ShapeInput,
    callId: string,
    own: CallOptions,
    key: string | undefined,
  ): Promise<Shaped> {
    // A re-run is shaped against the latest result of its key that has been recorded.
    const earlier = key === undefined ? undefined : byKey.get(key);
    const lines: RerunInput | undefined =
      key === undefined
        ? undefined
        : {
            keys: new LineKeys(),
            counts: new LineKeys(),
            ...(earlier !== undefined
              ? {
                  before: earlier.keys,
                  countsBefore: earlier.counts,
                  ...(earlier.failed ? { failedBefore: true } : {}),
                }
              : {}),
          };
    const rerun =
      lines === undefined ? undefined : createRerun(lines, earlier?.label, earlier?.handle);
    // Read at once (a child's pipes must not wait), recorded and graded in call order.
    const work = shapeOne(input, callId, own, rerun);
    const settled = queue.then(async () => {
      const { entry, shaped, refit } = await work;
      if (restoredCounts) await recount();
      entry.label = labelOf(callId, entries.length + 1);
      entries.push(entry);
      if (key !== undefined && lines !== undefined) remember(key, entry, lines);
      let latest = shaped;
      reshapes += await settle(entries, s, count, async (share) => {
        latest = await refit(share);
        return { text: latest.text, tokens: tokensOf(latest.meta) };
      });
      // Its keep is held only while a re-fit may need it.
      if (entry.level !== "full") entry.refit = undefined;
      return latest;
    });
    queue = settled.catch(() => undefined);
    // A call refused for its options may be made again under the same id.
    return settled.catch((error: unknown) => {
      if (error instanceof AirlockError && error.code === "options/invalid") ids.delete(callId);
      throw error;
    });
  }

  /**
   * The latest result of a key that had lines, for its next run (an empty run, records or a
   * binary leave no keys, and the run before stays the one to compare with); the least
   * recently run keys go past MAX_KEYS.
   */
  function remember(key: string, entry: Entry, run: RerunInput): void {
    const { keys, counts } = run;
    if (keys.size === 0) return;
    byKey.delete(key);
    byKey.set(key, {
      label: entry.label,
      ...(entry.handle ? { handle: entry.handle } : {}),
      keys,
      counts,
      failed: entry.status === "error",
    });
    if (byKey.size > MAX_KEYS) byKey.delete(byKey.keys().next().value as string);
  }

  /** A restored state's counts are the host's data: counted again before they decide a move. */
  async function recount(): Promise<void> {
    restoredCounts = false;
    const folded = entries.filter((e) => e.level === "folded");
    for (const e of entries) {
      const text = textOf(e, folded);
      e.tokens = text === "" ? 0 : await count(text);
    }
  }

  const viewOf = (): ViewEntry[] => {
    const folded = entries.filter((e) => e.level === "folded");
    return entries.map((e) => ({
      callId: e.callId,
      text: textOf(e, folded),
      tokens: e.tokens,
      level: e.level,
    }));
  };

  function view(): ViewEntry[] {
    const now = viewOf();
    const prefixChanged = last?.some((e, i) => now[i]?.text !== e.text) === true;
    last = now;
    views.push({ tokens: now.reduce((n, e) => n + e.tokens, 0), prefixChanged });
    if (views.length > MAX_VIEW_STATS) {
      views.shift();
      viewsDropped++;
    }
    return now;
  }

  return {
    store,
    shape(input, call) {
      if (call === null || typeof call !== "object")
        throw new AirlockError("options/invalid", "session.shape: call must be { callId, … }");
      checkNames(call, SESSION_CALL, "session.shape");
      const callId = call.callId;
      if (!isCallId(callId) || ids.has(callId)) {
        const got = JSON.stringify(String(callId).slice(0, 64));
        throw new AirlockError(
          "options/invalid",
          ids.has(callId as string)
            ? `session.shape: callId ${got} was already recorded in this session`
            : `session.shape: callId must be 1 to 256 characters, no control characters (got ${got})`,
        );
      }
      const given = call.key;
      if (given !== undefined && (typeof given !== "string" || given.length === 0))
        throw new AirlockError("options/invalid", "session.shape: key must be a non-empty string");
      const key = given === undefined ? undefined : keyName(given);
      ids.add(callId);
      const { callId: _id, key: _key, ...own } = call;
      return record(input, callId, own, key);
    },
    view,
    apply(messages) {
      return applyView(messages, new Map(view().map((e) => [e.callId, e.text])));
    },
    stats() {
      const levels = { full: 0, evidence: 0, line: 0, folded: 0 };
      for (const e of entries) levels[e.level]++;
      return {
        tokens: entries.reduce((n, e) => n + e.tokens, 0),
        maxRunTokens: s.maxRunTokens,
        levels,
        reshapes,
        views: [...views],
        viewsDropped,
      };
    },
    toJSON() {
      const results = entries.map(
        (e): ResultState => ({
          callId: e.callId,
          ...(e.tool !== undefined ? { tool: e.tool } : {}),
          level: e.level,
          text: e.level === "full" || e.level === "evidence" ? e.text : "",
          tokens: e.tokens,
          fullTokens: e.fullTokens,
          status: e.status,
          size: e.size,
          evidence: e.evidence,
          ...(e.handle !== undefined ? { handle: e.handle } : {}),
          ...(e.unlisted === true ? { unlisted: true as const } : {}),
        }),
      );
      return { version: 1, results, reshapes, views: [...views] };
    },
  };
}
