/**
 * The model hop (issue 29): a host's summariser reads what a cut result kept, never its raw
 * input, and its answer is shown as a few lines inside the fence, labelled as a model's words.
 * The hop is bounded three ways: its input is the shaped text (about `maxTokens`), its answer is
 * cut to `maxSummaryTokens`, and it is stopped after `summaryTimeoutMs` (or with the host's
 * signal). Its answer is cached by the digest of what it read, in the shaper and, with a store
 * that keeps parts, in the store, so the same result gets the same summary. A hop that fails,
 * times out or answers nothing is dropped, and the result is what it was without it.
 */
import { sha256Hex } from "../intake/digest.js";
import type { HopMeta, ShapeSummary } from "../pipeline/shaped.js";
import { safeSlice } from "../pipeline/text.js";

/** What a host's summariser is given. */
export interface SummarizeInput {
  /** Lines of text, or records. */
  readonly kind: "lines" | "records";
  /** The result as the model reads it without the summary: what was kept, never the raw input. */
  readonly text: string;
  /** The summary by rule (`meta.summary`) of a text result: symptoms, timeline, sources, open. */
  readonly summary?: ShapeSummary;
  /** Records read, and shown (records only). */
  readonly records?: number;
  /** Lines read (text only). */
  readonly lines?: number;
  /** Lines or records shown. */
  readonly shown: number;
  readonly tool?: string;
  /** Tokens the answer may take; a longer one is cut. */
  readonly maxTokens: number;
  /** Aborted when the hop's time is up or the host aborts: stop working then. */
  readonly signal: AbortSignal;
}

/** A host function (a small model, say) that writes a summary; its answer is shown as a model's words. */
export type Summarizer = (input: SummarizeInput) => Promise<string>;

/** How the hop went (`meta.hop.status`). */
export type HopStatus = HopMeta["status"];

export interface Hop {
  readonly status: HopStatus;
  /** The answer, cleaned, redacted and cut: lines to show. */
  readonly lines?: readonly string[];
}

/** Where answers are kept between calls: a store's text parts, when it has them. */
export interface HopStore {
  getPart?(key: string): Promise<string | undefined> | string | undefined;
  putPart?(key: string, text: string): Promise<boolean | undefined> | boolean | undefined;
}

export interface HopOptions {
  readonly summarize: Summarizer;
  readonly maxSummaryTokens: number;
  readonly timeoutMs: number;
  /** The one cleaner for tool text: invisible characters, escapes, secrets. */
  readonly clean: (text: string) => string;
  readonly count: (text: string) => Promise<number>;
  /** The shaper's own answers, by digest. */
  readonly cache: Map<string, string>;
  readonly store?: HopStore;
  readonly signal?: AbortSignal;
}

/** Answers a shaper keeps in memory; the oldest goes first. */
const CACHED = 64;
/** Lines of an answer shown at most (each is a line of the text). */
const MAX_LINES = 24;
/** Time a store has to answer for a cached summary before the hop asks the summariser. */
const STORE_WAIT_MS = 500;

/**
 * @example
 * const hop = await runHop({ kind: "lines", text, shown: 40, lines: 5000 }, options);
 * hop.lines; // ["The payments gateway timed out 312 times …"]
 */
export async function runHop(
  input: Omit<SummarizeInput, "signal" | "maxTokens">,
  o: HopOptions,
): Promise<Hop> {
  const key = await sha256Hex(
    `airlock-summary\u0000${input.kind}\u0000${input.tool ?? ""}\u0000${o.maxSummaryTokens}\u0000${input.text}`,
  );
  const part = `summary_${key.slice(0, 32)}`;
  const known = o.cache.get(key) ?? (await fromStore(o.store, part));
  if (known !== undefined) {
    // A store's answer is another's writing: cleaned and cut here as a summariser's is.
    const text = await cut(linesOf(o.clean(known)), o);
    if (text !== "") {
      remember(o.cache, key, text);
      return { status: "cached", lines: text.split("\n") };
    }
  }
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let status: HopStatus = "failed";
  const stop = new Promise<undefined>((resolve) => {
    const end = (why: HopStatus) => {
      status = why;
      controller.abort();
      resolve(undefined);
    };
    timer = setTimeout(() => end("timeout"), o.timeoutMs);
    if (o.signal?.aborted) end("aborted");
    else o.signal?.addEventListener("abort", () => end("aborted"), { once: true });
  });
  let answer: unknown;
  try {
    answer = await Promise.race([
      Promise.resolve(
        o.summarize({ ...input, maxTokens: o.maxSummaryTokens, signal: controller.signal }),
      ),
      stop,
    ]);
  } catch {
    // It threw: `failed`, unless it threw because it was stopped (then why it was stopped).
  } finally {
    clearTimeout(timer);
  }
  if (controller.signal.aborted) return { status };
  if (typeof answer !== "string") return { status: "failed" };
  const text = await cut(linesOf(o.clean(answer)), o);
  if (text === "") return { status: "empty" };
  remember(o.cache, key, text);
  // Not awaited: a store that refuses or never answers costs the cache, never the result.
  Promise.resolve()
    .then(() => o.store?.putPart?.(part, text))
    .catch(() => undefined);
  return { status: "ok", lines: text.split("\n") };
}

function remember(cache: Map<string, string>, key: string, text: string): void {
  cache.delete(key);
  cache.set(key, text);
  if (cache.size > CACHED) cache.delete(cache.keys().next().value as string);
}

async function fromStore(store: HopStore | undefined, part: string): Promise<string | undefined> {
  if (store?.getPart === undefined) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const found = await Promise.race([
      Promise.resolve(store.getPart(part)),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), STORE_WAIT_MS);
      }),
    ]);
    return typeof found === "string" && found !== "" ? found : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** The answer's lines: blank ones dropped, at most MAX_LINES, none over 2,000 characters. */
function linesOf(text: string): string[] {
  return text
    .split(/\r\n|[\r\n\u2028\u2029\u0085]/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "")
    .slice(0, MAX_LINES)
    .map((l) => (l.length > 2000 ? `${safeSlice(l, 0, 2000)}…` : l));
}

/** Lines within `maxSummaryTokens`, the last cut at a character where it had to be. */
async function cut(lines: readonly string[], o: HopOptions): Promise<string> {
  let text = lines.join("\n");
  for (let tries = 0; tries < 6 && text !== ""; tries++) {
    const tokens = await o.count(text);
    if (tokens <= o.maxSummaryTokens) return text;
    const keep = Math.floor((text.length * o.maxSummaryTokens * 0.9) / tokens) - 1;
    text = keep > 0 ? `${safeSlice(text, 0, keep).trimEnd()}…` : "";
  }
  return text;
}
