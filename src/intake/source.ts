import { AirlockError } from "../errors/airlock-error.js";
import type { StreamSource } from "./input.js";

/** Pieces larger than this are handed downstream in slices, so no stage ever sees a huge chunk. */
export const SLICE_BYTES = 1 << 20;

/** At most this many reads are gathered into one chunk. */
const GATHER_READS = 4096;

/** A byte source, read chunk by chunk. `size` is set when the total is known without reading. */
export interface ByteSource {
  readonly size: number | undefined;
  /**
   * Next chunk, or `undefined` at the end. With `want`, chunks smaller than that are gathered
   * into one (a source of 1-byte chunks is read in one tight loop, not one call per byte).
   */
  read(want?: number): Promise<Uint8Array | undefined>;
  /** Stop the source early (the byte cap was hit, or nothing more is wanted). */
  cancel(): Promise<void>;
  /**
   * A chunk the source has already read and holds (read ahead), without waiting for more; for
   * a reader that must stop now but keep what was read.
   */
  takeBuffered?(): Uint8Array | undefined;
}

function fromBytes(bytes: Uint8Array): ByteSource {
  let offset = 0;
  return {
    size: bytes.byteLength,
    async read() {
      if (offset >= bytes.byteLength) return undefined;
      const end = Math.min(bytes.byteLength, offset + SLICE_BYTES);
      const piece = bytes.subarray(offset, end);
      offset = end;
      return piece;
    },
    async cancel() {
      offset = bytes.byteLength;
    },
  };
}

function fromString(text: string): ByteSource {
  // Encode slice by slice so a 50 MB string is never copied whole; never split a surrogate pair.
  const encoder = new TextEncoder();
  const step = SLICE_BYTES >> 2;
  let offset = 0;
  return {
    size: undefined,
    async read() {
      if (offset >= text.length) return undefined;
      let end = Math.min(text.length, offset + step);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
      const piece = encoder.encode(text.slice(offset, end));
      offset = end;
      return piece;
    },
    async cancel() {
      offset = text.length;
    },
  };
}

/**
 * A source over a pull function that yields chunks (undefined at the end), handing out chunks
 * larger than SLICE_BYTES in slices.
 */
function fromPulls(
  pull: () => Promise<Uint8Array | undefined>,
  stop: () => Promise<void>,
  size?: number,
  take?: () => Uint8Array | undefined,
): ByteSource {
  let pending: Uint8Array | undefined;
  let done = false;
  /** A failure met while gathering, raised at the next read (what was gathered comes first). */
  let failed: { readonly cause: unknown } | undefined;
  /**
   * Small chunks into one buffer that grows by doubling, until `want` bytes are in hand; a chunk
   * that brings more than that leaves the rest pending, so gathering never reads past `want`.
   */
  async function gather(first: Uint8Array, want: number): Promise<Uint8Array> {
    let buffer = new Uint8Array(Math.min(Math.max(first.byteLength * 2, 4096), want));
    buffer.set(first);
    let length = first.byteLength;
    for (let reads = 1; length < want && reads < GATHER_READS && pending === undefined; reads++) {
      let more: Uint8Array | undefined;
      try {
        more = await pull();
      } catch (cause) {
        failed = { cause };
        break;
      }
      if (more === undefined) {
        done = true;
        break;
      }
      const room = want - length;
      if (more.byteLength > room) {
        pending = more.subarray(room);
        more = more.subarray(0, room);
      }
      if (length + more.byteLength > buffer.byteLength) {
        const grown = new Uint8Array(
          Math.min(Math.max(buffer.byteLength * 2, length + more.byteLength), want),
        );
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(more, length);
      length += more.byteLength;
    }
    return buffer.subarray(0, length);
  }
  return {
    size,
    async read(want = 0) {
      if (failed && !pending) {
        const { cause } = failed;
        failed = undefined;
        done = true;
        throw cause;
      }
      if (pending) {
        const piece = pending.subarray(0, SLICE_BYTES);
        pending = pending.byteLength > SLICE_BYTES ? pending.subarray(SLICE_BYTES) : undefined;
        return piece;
      }
      while (!done) {
        const bytes = await pull();
        if (bytes === undefined) {
          done = true;
          return undefined;
        }
        if (bytes.byteLength === 0) continue;
        if (bytes.byteLength >= want) {
          if (bytes.byteLength <= SLICE_BYTES) return bytes;
          pending = bytes.subarray(SLICE_BYTES);
          return bytes.subarray(0, SLICE_BYTES);
        }
        return gather(bytes, want);
      }
      return undefined;
    },
    async cancel() {
      pending = undefined;
      if (done) return;
      done = true;
      // A source that refuses to stop must not turn a finished shape into a failure.
      await stop().catch(() => undefined);
    },
    takeBuffered() {
      if (pending) {
        const piece = pending.subarray(0, SLICE_BYTES);
        pending = pending.byteLength > SLICE_BYTES ? pending.subarray(SLICE_BYTES) : undefined;
        return piece;
      }
      return take?.();
    },
  };
}

/** A pull and the way to stop it, before chunks are gathered or sliced. */
interface Pulls {
  readonly pull: () => Promise<Uint8Array | undefined>;
  readonly stop: () => Promise<void>;
  /** A chunk already read ahead, if any, without waiting. */
  readonly take?: () => Uint8Array | undefined;
}

/**
 * Pulls ahead of the reader, from now on, until `limit` bytes wait unread. A live source (a
 * child's pipe) is then drained while the pipeline loads and while its other pipe is read: the
 * first pull happens before this returns, so a Node stream has its reader attached and is never
 * resumed into the void when its process exits. Past `limit` the source waits for the reader
 * (its writer blocks, it loses nothing).
 */
function readAhead(source: Pulls, limit: number): Pulls {
  const queue: Uint8Array[] = [];
  let queued = 0;
  let pulling = false;
  let ended = false;
  let stopped = false;
  let failed: { readonly cause: unknown } | undefined;
  let wake: (() => void) | undefined;
  const woken = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  function fill(): void {
    if (pulling || ended || stopped || failed || queued >= limit) return;
    pulling = true;
    let pending: Promise<Uint8Array | undefined>;
    try {
      pending = source.pull();
    } catch (cause) {
      pending = Promise.reject(cause);
    }
    pending.then(
      (chunk) => {
        pulling = false;
        if (stopped) return;
        if (chunk === undefined) ended = true;
        else if (chunk.byteLength > 0) {
          queue.push(chunk);
          queued += chunk.byteLength;
        }
        woken();
        fill();
      },
      (cause) => {
        pulling = false;
        failed = { cause };
        woken();
      },
    );
  }
  fill();
  return {
    async pull() {
      for (;;) {
        const chunk = queue.shift();
        if (chunk !== undefined) {
          queued -= chunk.byteLength;
          fill();
          return chunk;
        }
        if (failed) throw failed.cause;
        if (ended || stopped) return undefined;
        fill();
        await new Promise<void>((done) => {
          wake = done;
        });
      }
    },
    async stop() {
      stopped = true;
      queue.length = 0;
      queued = 0;
      woken();
      await source.stop();
    },
    take() {
      const chunk = queue.shift();
      if (chunk !== undefined) queued -= chunk.byteLength;
      return chunk;
    },
  };
}

/** Bytes a live source is read ahead of its reader, at most. */
export const READ_AHEAD_BYTES = 256 * 1024;

function streamPulls(stream: ReadableStream<Uint8Array>): Pulls {
  assertReadable(stream);
  const reader = stream.getReader();
  return {
    async pull() {
      const { value, done } = await reader.read();
      if (done) {
        reader.releaseLock();
        return undefined;
      }
      return toUint8Array(value);
    },
    stop: () => reader.cancel(),
  };
}

/** A Node stream, seen without Node's types: what `stop()` may call to end it at once. */
interface Destroyable {
  destroy(): unknown;
}

function iterablePulls(iterable: AsyncIterable<Uint8Array | string>): Pulls {
  const iterator = iterable[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return {
    async pull() {
      const { value, done } = await iterator.next();
      if (done) return undefined;
      return typeof value === "string" ? encoder.encode(value) : toUint8Array(value);
    },
    // return() is how an async iterator is told to stop (a Node stream is destroyed by it). An
    // async generator runs return() only after a pending next(), which a silent pipe never
    // answers: a Node stream is destroyed directly, so its pending read ends now.
    async stop() {
      const node = iterable as Partial<Destroyable>;
      if (typeof node.destroy === "function") {
        node.destroy();
        return;
      }
      await iterator.return?.();
    },
  };
}

function fromStream(stream: ReadableStream<Uint8Array>, size?: number, ahead = 0): ByteSource {
  const pulls = streamPulls(stream);
  const { pull, stop, take } = ahead > 0 ? readAhead(pulls, ahead) : pulls;
  return fromPulls(pull, stop, size, take);
}

function fromIterable(iterable: AsyncIterable<Uint8Array | string>, ahead = 0): ByteSource {
  const pulls = iterablePulls(iterable);
  const { pull, stop, take } = ahead > 0 ? readAhead(pulls, ahead) : pulls;
  return fromPulls(pull, stop, undefined, take);
}

function toUint8Array(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value))
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === "string") return new TextEncoder().encode(value);
  throw new AirlockError(
    "input/unsupported",
    "intake: a stream produced a chunk that is not bytes",
  );
}

/** Throws the same error `openSource` would, without opening anything. */
export function assertReadable(source: StreamSource): void {
  if (typeof ReadableStream !== "undefined" && source instanceof ReadableStream && source.locked) {
    throw new AirlockError(
      "input/unsupported",
      "intake: the stream is locked (already being read); pass a fresh stream or a tee() branch",
    );
  }
}

/**
 * Opens any byte or text source for reading. With `ahead`, a stream or an async iterable is read
 * ahead of its reader by up to that many bytes, starting now (see `readAhead`).
 */
export function openSource(source: StreamSource, ahead = 0): ByteSource {
  if (typeof source === "string") return fromString(source);
  if (source instanceof Uint8Array) return fromBytes(source);
  if (source instanceof ArrayBuffer) return fromBytes(new Uint8Array(source));
  if (ArrayBuffer.isView(source)) {
    const view = source as ArrayBufferView;
    return fromBytes(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  }
  if (typeof Blob !== "undefined" && source instanceof Blob) {
    return fromStream(source.stream() as ReadableStream<Uint8Array>, source.size);
  }
  if (typeof ReadableStream !== "undefined" && source instanceof ReadableStream) {
    return fromStream(source, undefined, ahead);
  }
  if (typeof source === "object" && source !== null && Symbol.asyncIterator in source) {
    return fromIterable(source as AsyncIterable<Uint8Array | string>, ahead);
  }
  throw new AirlockError(
    "input/unsupported",
    "intake: unsupported source (expected string, Uint8Array, ArrayBuffer, Blob, ReadableStream or an async iterable of bytes)",
  );
}

/**
 * A source that fails on its first read: what a host input that throws when it is opened (a
 * detached buffer, a throwing iterator factory) becomes, so the failure is reported in the
 * result like any other read failure, never thrown.
 */
export function failingSource(cause: unknown): ByteSource {
  return {
    size: undefined,
    async read() {
      throw cause;
    },
    async cancel() {},
  };
}

/**
 * Opens a host source. A type airlock cannot read is a programmer error (thrown); anything else
 * the host's object throws is the source failing (reported).
 */
export function openHostSource(source: StreamSource, ahead = 0): ByteSource {
  try {
    return openSource(source, ahead);
  } catch (cause) {
    if (cause instanceof AirlockError) throw cause;
    return failingSource(cause);
  }
}
