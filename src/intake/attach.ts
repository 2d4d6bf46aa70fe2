/**
 * Live inputs, attached the moment `shape()` is called, before anything is awaited. A child's
 * pipe that nobody reads blocks the child once it is full, and Node discards what is still unread
 * in it when the child exits; the pipeline loads with the first result (a dynamic import), and a
 * host may `await` between `spawn` and `shape()`. So each live stream of a command (and a bare Node
 * stream) is opened here, synchronously, and read ahead of the pipeline within a bound; the exit
 * promises get their handlers now, so a rejected one is never an unhandled rejection. What a stream
 * looked like when it was attached is kept, so output the host let go is declared, never denied.
 *
 * The module is small on purpose: it is part of what `import { shape }` loads up front.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { SectionName } from "../pipeline/unit.js";
import type { CommandOutput, ShapeInput, StreamSource } from "./input.js";
import {
  assertReadable,
  type ByteSource,
  failingSource,
  openHostSource,
  READ_AHEAD_BYTES,
} from "./source.js";

const OPENED: unique symbol = Symbol("agent-airlock.opened");
const CAPTURED: unique symbol = Symbol("agent-airlock.captured");

/** What a live stream looked like when airlock attached to it. */
export interface Arrival {
  /** The stream had already ended: what it carried was read by someone else, or discarded. */
  readonly ended: boolean;
  /**
   * Bytes the stream had taken from its pipe that it no longer held (Node's `bytesRead` less its
   * `readableLength`): read by the host, or discarded, before airlock attached. Unknown off Node.
   */
  readonly lost: number | undefined;
}

/** A source opened when `shape()` was called: reading has begun. */
export interface Opened {
  readonly [OPENED]: true;
  readonly name: SectionName;
  /** What the host passed (its type decides sniffing: a JS string is text). */
  readonly origin: StreamSource;
  readonly source: ByteSource;
  /** Set for a Node stream. */
  readonly arrival: Arrival | undefined;
  /** False for a process's stream that was not piped (`stdio: "inherit"`): nothing to read. */
  readonly captured: boolean;
}

/** A promise's outcome, taken as soon as it is known: a rejection is a value, never thrown. */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly cause: unknown };
export type Settling<T> = Outcome<T> | Promise<Outcome<T>>;

/**
 * A command whose streams airlock is already reading: what `fromProcess()` returns, and what
 * `shape()` makes of a `{ stdout, stderr, exitCode }` when it is called. Pass it to `shape()`
 * (or a shaper) once.
 */
export interface CapturedCommand {
  readonly [CAPTURED]: true;
}

/** The captured command, as intake reads it. */
export interface Captured extends CapturedCommand {
  readonly streams: readonly Opened[];
  readonly exitCode: Settling<number | null | undefined>;
  readonly signal: Settling<string | null | undefined>;
  /** Settles once the command is known to have ended (its exit code or signal came). */
  readonly exited: Promise<void> | undefined;
  /** Set once a shape has taken the streams: they can be read once. */
  claimed: boolean;
}

/** True for what `capture` returns. */
export function isCaptured(input: unknown): input is Captured {
  return has(input, CAPTURED);
}

/** True for what `openLive` returns. */
export function isOpened(input: unknown): input is Opened {
  return has(input, OPENED);
}

/** `key in input`, false for a host object whose `has` trap throws (intake reports that one). */
function has(input: unknown, key: symbol): boolean {
  try {
    return typeof input === "object" && input !== null && key in input;
  } catch {
    return false;
  }
}

/** A source that is read as it is produced (a pipe, a socket, a generator), not held whole. */
function isLive(source: unknown): boolean {
  return (
    typeof source === "object" &&
    source !== null &&
    ((typeof ReadableStream !== "undefined" && source instanceof ReadableStream) ||
      Symbol.asyncIterator in source)
  );
}

/** A Node stream, seen without Node's types: it says how much it read and whether it ended. */
function arrivalOf(source: unknown): Arrival | undefined {
  if (typeof source !== "object" || source === null) return undefined;
  try {
    return nodeArrival(source);
  } catch {
    // A host object whose getters throw: not a stream airlock can say anything about.
    return undefined;
  }
}

/** The fields of a Node `Readable` (a child's pipe is a `Socket`) that say what it let go. */
interface NodeReadable {
  readonly readableEnded?: unknown;
  readonly destroyed?: unknown;
  readonly bytesRead?: unknown;
  readonly readableLength?: unknown;
  readonly readableEncoding?: unknown;
  readonly readableObjectMode?: unknown;
  listenerCount?(event: string): number;
}

function nodeArrival(source: object): Arrival | undefined {
  const s = source as NodeReadable;
  if (typeof s.readableEnded !== "boolean") return undefined;
  // `readableLength` counts bytes only while no encoding is set (else characters, or objects).
  const bytes = (s.readableEncoding ?? null) === null && s.readableObjectMode !== true;
  const lost =
    bytes && typeof s.bytesRead === "number" && typeof s.readableLength === "number"
      ? Math.max(0, s.bytesRead - s.readableLength)
      : undefined;
  return { ended: s.readableEnded || s.destroyed === true, lost };
}

/**
 * Refuses a source that cannot be read from its start: a locked Web stream, or a Node stream
 * another reader already pulls from (another shape(), an async iterator). Checked for every
 * stream before any is opened, so a refusal leaves none half-read.
 */
function assertFree(origin: StreamSource): void {
  assertReadable(origin);
  let reading = false;
  try {
    const s = origin as NodeReadable;
    reading =
      typeof s.readableEnded === "boolean" &&
      typeof s.listenerCount === "function" &&
      s.listenerCount("readable") > 0;
  } catch {
    // A host object whose getters throw: reading it reports the failure.
  }
  if (reading) {
    throw new AirlockError(
      "input/unsupported",
      "intake: the stream is already being read (by another shape() or a 'readable' listener); pass each stream to one shape()",
    );
  }
}

/**
 * Opens a live source now and starts reading it (ahead by at most `ahead` bytes); anything else
 * is left for intake to open when it reads.
 */
function open(name: SectionName, origin: StreamSource, ahead: number): Opened {
  // Measured before the first read, which may take what the stream already buffers.
  const arrival = arrivalOf(origin);
  const source = openHostSource(origin, isLive(origin) ? ahead : 0);
  return { [OPENED]: true, name, origin, source, arrival, captured: true };
}

/** A stream that failed before it could be read, or one a process did not pipe. */
function unread(name: SectionName, source: ByteSource, captured: boolean): Opened {
  return { [OPENED]: true, name, origin: "", source, arrival: undefined, captured };
}

/**
 * A bare Node stream (`shape(child.stdout)`), opened now; other inputs as they are.
 *
 * @example
 * const input = openLive(child.stdout, 1 << 18); // reading has begun
 */
export function openLive<T>(input: T, ahead: number): T | Opened {
  if (isOpened(input) || arrivalOf(input) === undefined || !isLive(input)) return input;
  assertFree(input as StreamSource);
  return open("text", input as StreamSource, ahead);
}

function settling<T>(read: () => T | PromiseLike<T>): Settling<T> {
  let raw: T | PromiseLike<T>;
  try {
    raw = read();
  } catch (cause) {
    return { ok: false, cause };
  }
  if (!isThenable(raw)) return { ok: true, value: raw };
  return Promise.resolve(raw).then(
    (value): Outcome<T> => ({ ok: true, value }),
    (cause): Outcome<T> => ({ ok: false, cause }),
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A command's streams opened and read from now on, its exit promises handled now. `unpiped`
 * names the streams a process writes elsewhere (`stdio: "inherit"`): said, never read.
 *
 * @example
 * const captured = capture({ stdout: child.stdout, stderr: child.stderr, exitCode }, 1 << 18);
 */
export function capture(
  input: CommandOutput,
  ahead = READ_AHEAD_BYTES,
  unpiped: readonly SectionName[] = [],
): Captured {
  if (isCaptured(input)) return input;
  // The exit promises first: whatever is refused below, a rejection is never left unhandled.
  const exitCode = settling(() => input.exitCode);
  const signal = settling(() => input.signal);
  const origins: Array<[SectionName, StreamSource | undefined] | [SectionName, Error, "failed"]> =
    [];
  for (const name of ["stdout", "stderr"] as const) {
    try {
      origins.push([name, input[name] ?? undefined]);
    } catch (cause) {
      // A throwing getter: the stream failed before it could be read.
      origins.push([name, cause as Error, "failed"]);
    }
  }
  for (const [, origin, failed] of origins)
    if (!failed && origin) assertFree(origin as StreamSource);
  const streams: Opened[] = [];
  for (const [name, origin, failed] of origins) {
    if (failed) streams.push(unread(name, failingSource(origin), true));
    else if (unpiped.includes(name)) streams.push(unread(name, openHostSource(""), false));
    else if (origin !== undefined) streams.push(open(name, origin as StreamSource, ahead));
  }
  return {
    [CAPTURED]: true,
    streams,
    exitCode,
    signal,
    exited: endOf(exitCode, signal),
    claimed: false,
  };
}

/** When the command ended, as its exit code or signal says (a rejection ends it too). */
function endOf(
  exitCode: Settling<number | null | undefined>,
  signal: Settling<string | null | undefined>,
): Promise<void> | undefined {
  const known = (s: Settling<unknown>) =>
    s instanceof Promise
      ? s.then((o) => (o.ok && o.value === undefined ? new Promise<void>(() => {}) : undefined))
      : s.ok && s.value === undefined
        ? undefined
        : Promise.resolve();
  const ends = [known(exitCode), known(signal)].filter((p) => p !== undefined);
  return ends.length === 0 ? undefined : Promise.race(ends);
}

/**
 * Attaches handlers to a command's exit promises and nothing else: for a call refused before
 * its input was taken (a misspelt call option), so the host's rejection is not left unhandled.
 */
export function release(input: unknown): void {
  try {
    if (!isCommand(input)) return;
    settling(() => input.exitCode);
    settling(() => input.signal);
  } catch {
    // A host object whose traps throw: there is nothing to attach to.
  }
}

/** Marks a captured command as read; a second shape of it is a programmer error. */
export function claim(captured: Captured): Captured {
  if (captured.claimed) {
    throw new AirlockError(
      "input/unsupported",
      "intake: this command's output was already shaped (its streams can be read once); capture the process again",
    );
  }
  captured.claimed = true;
  return captured;
}

/** A byte or text source, as opposed to a command, a Response or a value. */
export function isSource(input: unknown): input is StreamSource {
  return (
    typeof input === "string" ||
    input instanceof ArrayBuffer ||
    ArrayBuffer.isView(input) ||
    (typeof Blob !== "undefined" && input instanceof Blob) ||
    (typeof ReadableStream !== "undefined" && input instanceof ReadableStream) ||
    (typeof input === "object" && input !== null && Symbol.asyncIterator in input)
  );
}

/** A command's output: an object, not a source, a Response or a Request, with a `stdout`. The one rule for it. */
export function isCommand(input: unknown): input is CommandOutput {
  return (
    typeof input === "object" &&
    input !== null &&
    !isSource(input) &&
    !(typeof Response !== "undefined" && input instanceof Response) &&
    !(typeof Request !== "undefined" && input instanceof Request) &&
    "stdout" in input
  );
}

/**
 * What `shape()` reads, with its live streams attached now: a command is captured, a bare Node
 * stream opened; anything else is returned as it is, for intake.
 *
 * @example
 * const input = attachInput({ stdout: child.stdout, stderr: child.stderr, exitCode }, 1 << 18);
 */
export function attachInput(input: ShapeInput, ahead: number): ShapeInput | Captured | Opened {
  let command: boolean;
  try {
    command = isCommand(input);
  } catch {
    // A host object whose traps throw: intake reports it as a command that failed.
    return input;
  }
  return command ? capture(input as CommandOutput, ahead) : openLive(input, ahead);
}
