/**
 * The one byte-capped reader every format reads through. Bytes are counted as chunks arrive (a
 * declared length is never trusted) and the source is cancelled at the first chunk past the cap,
 * which is cut at a code point boundary. Tiny chunks are gathered into larger ones, so a source
 * that trickles one byte at a time costs what a chunked one does downstream.
 */

import type { ReadStop, Stopper, StopReason } from "../pipeline/run.js";
import { completeLength } from "../pipeline/text.js";
import type { SectionName } from "../pipeline/unit.js";

export type { Stopper, StopReason };

import type { ByteSource } from "./source.js";

/**
 * Bytes left under `maxBytes`, shared by every source of one input (stdout and stderr together).
 * Each source still reading may hold a reservation that the others cannot take, so a huge stdout
 * read first cannot starve the stderr that explains a failure.
 */
export interface ByteBudget {
  remaining: number;
  readonly limit: number;
  readonly reserved: Map<SectionName, number>;
}

/** A budget for the given sources: each is guaranteed an equal share, or its known size if less. */
export function createByteBudget(
  maxBytes: number,
  sources: ReadonlyArray<{ name: SectionName; size: number | undefined }> = [],
): ByteBudget {
  const reserved = new Map<SectionName, number>();
  if (sources.length > 1) {
    const share = Math.floor(maxBytes / sources.length);
    for (const { name, size } of sources) reserved.set(name, Math.min(share, size ?? share));
  }
  return { remaining: maxBytes, limit: maxBytes, reserved };
}

/** Bytes `name` may still read: what is left, less what is reserved for the other sources. */
function allowance(budget: ByteBudget, name: SectionName): number {
  let others = 0;
  for (const [n, r] of budget.reserved) if (n !== name) others += r;
  return Math.max(0, budget.remaining - others);
}

/** Why a source stopped before its end, other than the cap. */
export interface ReadFailure {
  readonly code: "intake/read-failed";
  /** What the source said, already scrubbed (no paths, hosts, secrets). */
  readonly detail: string;
}

export interface CappedReader {
  readonly name: SectionName;
  /** Bytes the source holds, when known without reading (bytes, a Blob). */
  readonly size: number | undefined;
  /**
   * The next chunk under the cap, or undefined at the end (the source's, the cap's or a failure's).
   * Small chunks are gathered until `want` bytes (default 64 KiB) are in hand.
   */
  read(want?: number): Promise<Uint8Array | undefined>;
  /** Bytes read so far. */
  readonly bytes: number;
  /** True once the cap stopped the read. */
  readonly capped: boolean;
  /** Why the read stopped early (the host's signal or timeout, a quiet pipe after exit), if it did. */
  readonly stopped: ReadStop | undefined;
  /** True once the source said it had no more. */
  readonly ended: boolean;
  readonly failure: ReadFailure | undefined;
  /** Stops reading (nothing more is wanted); never waits for the source. */
  stop(): void;
}

/** Chunks smaller than this are gathered until this many bytes are in hand. */
const GATHER_BYTES = 64 * 1024;
/** ...but no more than this many reads are gathered into one chunk. */
const GATHER_READS = 4096;

/**
 * @example
 * const reader = createCappedReader("text", openSource(body), createByteBudget(1 << 20), String);
 * for (let c = await reader.read(); c; c = await reader.read()) decode(c);
 */
export function createCappedReader(
  name: SectionName,
  src: ByteSource,
  budget: ByteBudget,
  /** Turns a thrown cause into words safe to show (the source's message is tool text). */
  describe: (text: string) => string,
  stopper?: Stopper,
  linger?: Linger,
): CappedReader {
  let bytes = 0;
  let capped = false;
  let halted: ReadStop | undefined;
  let ended = false;
  let stopped = false;
  let failure: ReadFailure | undefined;

  function stop(): void {
    if (stopped) return;
    stopped = true;
    // A source whose cancel never settles (or fails) must not hang or fail the shaping.
    src.cancel().catch(() => undefined);
  }

  /** The read stops early: the source is cancelled, what was read stays. */
  function halt(why: ReadStop): undefined {
    halted = why;
    stop();
    return undefined;
  }

  /** The source's next chunk, or the stop signal or a quiet pipe after exit, whichever is first. */
  function next(want: number): Promise<Uint8Array | undefined | typeof HALTED | typeof QUIET> {
    // Without a stopper the source gathers small chunks itself, in one tight loop; with one,
    // each chunk comes on its own so a stop never loses what was read.
    // Gathering stops at the cap: what is past it is never pulled.
    if (stopper === undefined && linger === undefined)
      return src.read(Math.min(want, Math.max(1, allowance(budget, name))));
    const reading = src.read();
    const signal = stopper?.signal;
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      const onAbort = () => done(HALTED);
      const done = (value: Uint8Array | undefined | typeof HALTED | typeof QUIET) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        clearTimeout(timer);
        resolve(value);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      // Once the command has exited, a pipe that brings nothing for this long is held open by
      // something else (a background process): the read ends there, and says so.
      linger?.exited.then(() => {
        if (!settled) timer = setTimeout(() => done(QUIET), linger.ms);
      });
      reading.then(done, (cause) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        clearTimeout(timer);
        reject(cause);
      });
    });
  }

  async function pull(want = 0): Promise<Uint8Array | undefined> {
    if (capped || ended || failure || stopped) return undefined;
    let chunk: Uint8Array | undefined | typeof HALTED | typeof QUIET;
    if (stopper?.due()) {
      // The deadline may pass while the pipeline still loads: what the source already holds
      // was read, and is kept; only what it has not read yet is left.
      chunk = src.takeBuffered?.();
      if (chunk === undefined) return halt(stopper.reason() ?? "aborted");
    } else {
      try {
        chunk = await next(want);
      } catch (cause) {
        failure = { code: "intake/read-failed", detail: safely(describe, cause) };
        stop();
        return undefined;
      }
    }
    if (chunk === HALTED) {
      const buffered = src.takeBuffered?.();
      if (buffered === undefined) return halt(stopper?.reason() ?? "aborted");
      chunk = buffered;
    }
    if (chunk === QUIET) return halt("exited");
    if (chunk === undefined) {
      ended = true;
      budget.reserved.delete(name);
      return undefined;
    }
    const allowed = allowance(budget, name);
    if (allowed <= 0) {
      capped = true;
      stop();
      return undefined;
    }
    if (chunk.byteLength > allowed) {
      // Cut at a code point boundary, so the cap never leaves half a character behind.
      const piece = chunk.subarray(0, allowed);
      const whole = completeLength(piece);
      chunk = whole > 0 && piece.byteLength - whole < 4 ? piece.subarray(0, whole) : piece;
      capped = true;
    }
    budget.remaining -= chunk.byteLength;
    const reservation = budget.reserved.get(name);
    if (reservation !== undefined)
      budget.reserved.set(name, Math.max(0, reservation - chunk.byteLength));
    bytes += chunk.byteLength;
    if (capped) stop();
    return chunk;
  }

  async function read(want = GATHER_BYTES): Promise<Uint8Array | undefined> {
    const first = await pull(want);
    if (first === undefined || first.byteLength >= want) return first;
    // A source that ended with its first chunk (a string, a small body) is not copied.
    let next = await pull();
    if (next === undefined) return first;
    // Gather small chunks into one buffer that grows by doubling: no chunk object is held.
    let buffer = new Uint8Array(Math.max(first.byteLength * 2, 4096));
    buffer.set(first);
    let length = first.byteLength;
    for (let reads = 1; length < want && reads < GATHER_READS; reads++) {
      if (reads > 1) next = await pull();
      if (next === undefined) break;
      if (length + next.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(Math.max(buffer.byteLength * 2, length + next.byteLength));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(next, length);
      length += next.byteLength;
    }
    return buffer.subarray(0, length);
  }

  return {
    name,
    size: src.size,
    read,
    stop,
    get bytes() {
      return bytes;
    },
    get capped() {
      return capped;
    },
    get stopped() {
      return halted;
    },
    get ended() {
      return ended;
    },
    get failure() {
      return failure;
    },
  };
}

const HALTED = Symbol("halted");
const QUIET = Symbol("quiet");

/** A command's exit, for its pipes: once it is known, a read waits at most `ms` for the pipe. */
export interface Linger {
  readonly exited: Promise<void>;
  readonly ms: number;
}

/**
 * What a failure says, whatever was thrown (a throwing getter, an object without a prototype),
 * in the words `describe` makes safe; `fallback` when it says nothing.
 *
 * @example
 * safely(describe, new Error("ECONNRESET at /srv/app.js:10")); // "ECONNRESET"
 */
export function safely(
  describe: (text: string) => string,
  cause: unknown,
  fallback = "the source failed",
): string {
  let text: string;
  try {
    text = cause instanceof Error ? String(cause.message) : String(cause);
  } catch {
    text = fallback;
  }
  try {
    return describe(text) || fallback;
  } catch {
    return fallback;
  }
}

/**
 * A reader that first hands out chunks already read (by a sniffer), then the rest of `reader`.
 *
 * @example
 * const again = replay(head, reader);
 */
export function replay(head: readonly Uint8Array[], reader: CappedReader): CappedReader {
  let i = 0;
  return {
    get name() {
      return reader.name;
    },
    size: reader.size,
    async read(want?: number) {
      if (i < head.length) return head[i++];
      return reader.read(want);
    },
    stop: () => reader.stop(),
    get bytes() {
      return reader.bytes;
    },
    get capped() {
      return reader.capped;
    },
    get stopped() {
      return reader.stopped;
    },
    get ended() {
      return i >= head.length && reader.ended;
    },
    get failure() {
      return reader.failure;
    },
  };
}

/**
 * Reads ahead up to `bytes` (or until `enough` says the head tells what the input is), for a
 * sniffer; hand the chunks to `replay` so nothing is consumed.
 */
export async function peek(
  reader: CappedReader,
  bytes: number,
  enough: (head: readonly Uint8Array[], total: number) => boolean = () => false,
): Promise<Uint8Array[]> {
  const head: Uint8Array[] = [];
  let total = 0;
  while (total < bytes) {
    const chunk = await reader.read(bytes - total);
    if (chunk === undefined) break;
    head.push(chunk);
    total += chunk.byteLength;
    if (enough(head, total)) break;
  }
  return head;
}

/** The first `limit` bytes of some chunks, as one array. */
export function concat(
  chunks: readonly Uint8Array[],
  limit = Number.POSITIVE_INFINITY,
): Uint8Array {
  let total = 0;
  for (const c of chunks) total += c.byteLength;
  const out = new Uint8Array(Math.min(total, limit));
  let offset = 0;
  for (const c of chunks) {
    if (offset >= out.byteLength) break;
    const piece = c.subarray(0, out.byteLength - offset);
    out.set(piece, offset);
    offset += piece.byteLength;
  }
  return out;
}

/**
 * A reader that shows every chunk it hands out to `onChunk` first (telemetry's sample of the
 * input); nothing else changes.
 *
 * @example
 * const watched = tap(reader, (chunk) => seen += chunk.byteLength);
 */
export function tap(reader: CappedReader, onChunk: (chunk: Uint8Array) => void): CappedReader {
  return {
    get name() {
      return reader.name;
    },
    size: reader.size,
    async read(want?: number) {
      const chunk = await reader.read(want);
      if (chunk !== undefined) onChunk(chunk);
      return chunk;
    },
    stop: () => reader.stop(),
    get bytes() {
      return reader.bytes;
    },
    get capped() {
      return reader.capped;
    },
    get stopped() {
      return reader.stopped;
    },
    get ended() {
      return reader.ended;
    },
    get failure() {
      return reader.failure;
    },
  };
}
