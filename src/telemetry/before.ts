/**
 * "Tokens before": what the input would have cost the model unshaped. Counted exactly while that
 * is cheap (the first `limit` bytes, which for most tool results is all of them), extrapolated by
 * bytes beyond, and labelled an estimate then. Counting stays linear: the text is counted in
 * pieces cut where the built-in encodings cannot merge across the cut, and a run long enough to
 * make BPE quadratic is estimated instead of counted.
 */
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import type { RunContext } from "../pipeline/run.js";
import { type InputSample, createSample as sampleOf } from "../pipeline/sample.js";
import { utf8Length } from "../pipeline/text.js";

/** Bytes of input counted exactly, all sources together: about 3 ms of counting. */
export const EXACT_BEFORE_BYTES = 64 * 1024;

/** Where intake copies the first bytes of a call's input, up to `EXACT_BEFORE_BYTES`. */
export function createSample(): InputSample {
  return sampleOf(EXACT_BEFORE_BYTES);
}

export interface Before {
  readonly tokens: number;
  readonly bytes: number;
  readonly estimated: boolean;
}

/**
 * The run's "before", from what intake sampled; the sample's bytes are let go. Telemetry never
 * costs a result: if counting fails (a host counter that throws), or there is no tokenizer to
 * count with (`tokenCount: "bound"` does not load one for telemetry), the count is estimated at
 * four bytes a token.
 *
 * @example
 * const before = await beforeOf(ctx, tokenizer, true);
 */
export async function beforeOf(
  ctx: RunContext,
  tokenizer: (() => Promise<ResolvedTokenizer>) | undefined,
  additive: boolean,
): Promise<Before> {
  const sample = ctx.sample;
  if (sample === undefined) return { tokens: 0, bytes: 0, estimated: true };
  const facts = ctx.facts;
  const capped = facts.sections.some((s) => s.capped) || facts.records?.capped === true;
  const estimate = (): Before => {
    let bytes = 0;
    for (const s of sample.sections.values()) bytes += s.seen;
    return { tokens: Math.ceil(bytes / 4), bytes, estimated: true };
  };
  try {
    // No throw to get there: an Error's stack costs more than a small result's whole telemetry.
    if (tokenizer === undefined) {
      // Text is estimated from its bytes as read, without decoding them again; a value from
      // its JSON text, which the sample does not hold.
      if (sample.value === undefined) return estimate();
      const sized = await measureBefore(sample, BYTES_ESTIMATE, false, { capped });
      return { ...sized, estimated: true };
    }
    return await measureBefore(sample, await tokenizer(), additive, { capped });
  } catch {
    return estimate();
  } finally {
    sample.sections.clear();
    sample.value = undefined;
  }
}

/** Four bytes a token: "before" where no tokenizer is loaded for it (`tokenCount: "bound"`). */
const BYTES_ESTIMATE: ResolvedTokenizer = {
  name: "estimate",
  count: async (text) => Math.ceil(utf8Length(text) / 4),
};

/** A piece is cut once it is this long, at the next safe place. */
const PIECE_CHARS = 4096;
/** A run of one character class this long is one pre-token that BPE counts in quadratic time. */
const LONG_RUN = /[\p{L}\p{M}]{1001,}|[^\s\p{L}\p{M}\p{N}]{1001,}|\s{1001,}/u;
const LONG_RUNS = new RegExp(LONG_RUN.source, "gu");
/** Characters a token of a long run stands for, for the estimate (runs merge well). */
const RUN_CHARS_PER_TOKEN = 4;

/**
 * @example
 * const before = await measureBefore(ctx.sample, tokenizer, true, { capped: false });
 */
export async function measureBefore(
  sample: InputSample,
  tokenizer: ResolvedTokenizer,
  /** The built-in encodings: their counts add up over pieces cut after a line break. */
  additive: boolean,
  facts: { readonly capped: boolean },
): Promise<Before> {
  if (sample.value) return measureValue(sample.value.value, tokenizer, sample.limit);
  let tokens = 0;
  let bytes = 0;
  let estimated = facts.capped;
  for (const { chunks, seen } of sample.sections.values()) {
    const held = chunks.reduce((n, c) => n + c.byteLength, 0);
    bytes += seen;
    if (held === 0) continue;
    const counted = await countText(decode(chunks, held), tokenizer, additive);
    estimated ||= counted.estimated || held < seen;
    tokens += held < seen ? Math.round((counted.tokens * seen) / held) : counted.tokens;
  }
  return { tokens, bytes, estimated };
}

function decode(chunks: readonly Uint8Array[], held: number): string {
  const all = new Uint8Array(held);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  // A sample cut inside a character ends in U+FFFD; one token more or less, in an estimate.
  return new TextDecoder().decode(all).replace(/^\uFEFF/, "");
}

/**
 * The tokens of `text`: in pieces when the encoding is additive over them, else whole. A cut
 * is made after a line break that is followed by neither white space nor `/` (the o200k and
 * cl100k pre-tokenizers can join a line break to white space or to a slash that follows it).
 *
 * @example
 * await countText("a\nb", tokenizer, true); // { tokens: 3, estimated: false }
 */
export async function countText(
  text: string,
  tokenizer: ResolvedTokenizer,
  additive: boolean,
): Promise<{ tokens: number; estimated: boolean }> {
  if (!additive) return countPiece(text, tokenizer);
  let tokens = 0;
  let estimated = false;
  let start = 0;
  for (let at = text.indexOf("\n", start + PIECE_CHARS); at !== -1 && at + 1 < text.length; ) {
    const next = text.charCodeAt(at + 1);
    // 0x2f is "/"; white space below 0x21 covers tab, line breaks and space.
    const safe = next > 0x20 && next !== 0x2f && !/\s/.test(text[at + 1] as string);
    if (safe) {
      const piece = await countPiece(text.slice(start, at + 1), tokenizer);
      tokens += piece.tokens;
      estimated ||= piece.estimated;
      start = at + 1;
      at = text.indexOf("\n", start + PIECE_CHARS);
    } else {
      at = text.indexOf("\n", at + 1);
    }
  }
  const last = await countPiece(text.slice(start), tokenizer);
  return { tokens: tokens + last.tokens, estimated: estimated || last.estimated };
}

async function countPiece(
  piece: string,
  tokenizer: ResolvedTokenizer,
): Promise<{ tokens: number; estimated: boolean }> {
  if (!LONG_RUN.test(piece)) return { tokens: await tokenizer.count(piece), estimated: false };
  let folded = 0;
  const short = piece.replace(LONG_RUNS, (run) => {
    folded += run.length - 64;
    return run.slice(0, 64);
  });
  const tokens = (await tokenizer.count(short)) + Math.ceil(folded / RUN_CHARS_PER_TOKEN);
  return { tokens, estimated: true };
}

/**
 * An already-parsed value, measured as its JSON text: counted exactly when that is at most
 * `limit` characters, else estimated from its size (walked once, keeping no text) at the
 * tokens per character of its first `limit` characters.
 */
async function measureValue(
  value: unknown,
  tokenizer: ResolvedTokenizer,
  limit: number,
): Promise<Before> {
  const size = sizeOf(value, limit);
  if (size.complete && size.chars <= limit) {
    try {
      const text = JSON.stringify(value, bigints) ?? "";
      const counted = await countText(text, tokenizer, false);
      return { tokens: counted.tokens, bytes: utf8Length(text), estimated: counted.estimated };
    } catch {
      // A getter that throws the second time: fall through to the estimate.
    }
  }
  const sampled = size.sample.join(",");
  const counted = sampled === "" ? 0 : (await countText(sampled, tokenizer, false)).tokens;
  const tokens = Math.round((counted * size.chars) / Math.max(1, sampled.length));
  return { tokens, bytes: size.chars, estimated: true };
}

const bigints = (_key: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

/**
 * The length of a value's JSON, approximately, by one walk that keeps no text: every member
 * (after `toJSON`) is counted, and an object met again (a value that refers to one object from
 * many places, as a parsed YAML alias does) adds the size it had the first time, so the walk
 * costs the value's objects, not its expanded JSON. The first `limit` characters of members are
 * kept as a sample for the tokens-per-character rate.
 */
function sizeOf(
  value: unknown,
  limit: number,
): { chars: number; sample: string[]; complete: boolean } {
  let held = 0;
  const sample: string[] = [];
  const sizes = new Map<object, number>();
  const onPath = new Set<object>();
  // Members visited at most: past them an array's rest is estimated from its members so far (a
  // sparse array of 2^32 - 1 holes, or a Proxy whose length is 10^12, is not walked hole by hole).
  let steps = MAX_STEPS;
  let estimated = false;
  const text = (v: unknown): string =>
    typeof v === "bigint" ? `"${v}"` : (JSON.stringify(v) ?? "null");
  // A long string is its length and quotes (its escapes are left out of the estimate): one
  // string shared by many members costs nothing more each time, and nothing is hashed by it.
  const scalarSize = (v: unknown): number =>
    typeof v === "string" && v.length >= 256 ? v.length + 2 : text(v).length;
  const walk = (key: string, member: unknown): number => {
    steps--;
    let v = member;
    if (v !== null && typeof v === "object") {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") v = toJSON.call(v, key);
    }
    const own = key.length > 0 ? key.length + 4 : 1;
    if (v === null || typeof v !== "object") {
      if (held < limit) {
        const written = key.length > 0 ? `${JSON.stringify(key)}:${text(v)}` : text(v);
        sample.push(written);
        held += written.length + 1;
      }
      return own + scalarSize(v);
    }
    const known = sizes.get(v);
    if (known !== undefined) return own + known;
    if (onPath.has(v)) throw new Error("cycle");
    onPath.add(v);
    let inner = 0;
    if (ArrayBuffer.isView(v) && viewLength(v) > 1024) {
      // A long typed array is written as an object of its indices: estimated, never listed.
      inner = viewLength(v) * 8;
      estimated = true;
    } else if (Array.isArray(v)) {
      const length: unknown = v.length;
      if (typeof length !== "number" || !Number.isSafeInteger(length)) throw new Error("length");
      for (let i = 0; i < length; i++) {
        if (steps <= 0) {
          inner += Math.round(((length - i) * inner) / Math.max(1, i)) + (length - i);
          estimated = true;
          break;
        }
        inner += walk(String(i), v[i]);
      }
    } else {
      const keys = Object.keys(v);
      for (const [i, k] of keys.entries()) {
        if (steps <= 0) {
          inner += Math.round(((keys.length - i) * inner) / Math.max(1, i));
          estimated = true;
          break;
        }
        const x = (v as Record<string, unknown>)[k];
        if (x !== undefined && typeof x !== "function" && typeof x !== "symbol")
          inner += walk(k, x);
      }
    }
    onPath.delete(v);
    sizes.set(v, inner);
    return own + inner;
  };
  try {
    const chars = walk("", value);
    return { chars, sample, complete: !estimated };
  } catch {
    // A cycle, a getter that throws or nesting past the stack: the sample is all that is known.
    return { chars: held, sample, complete: false };
  }
}

/** Elements of a typed array (bytes of a DataView). */
function viewLength(view: ArrayBufferView): number {
  const length = (view as { length?: unknown }).length;
  return typeof length === "number" ? length : view.byteLength;
}

/** Members the size walk visits before it estimates the rest. */
const MAX_STEPS = 1 << 20;
