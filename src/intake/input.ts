/** What `shape()` reads: the public input types. */
import type { CapturedCommand } from "./attach.js";

/** Anything `shape()` can read. */
export type ShapeInput =
  | string
  | Uint8Array
  | ArrayBuffer
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Response
  /** A request's body (a Worker's `request`), read as its `content-type` says. */
  | Request
  | CommandOutput
  /** A child process handed to `fromProcess()`: its pipes are already being read. */
  | CapturedCommand
  /** An already-parsed value (an API response, query rows): shaped as structured data. */
  | readonly unknown[]
  | { readonly [key: string]: unknown }
  | number
  | boolean;

/** How the input is read: `auto` (default) follows the content type, then sniffs JSON. */
export type InputFormat = "auto" | "text" | "json" | "ndjson" | "csv" | "tsv";

/**
 * A byte or text source. An async iterable of chunks covers Node streams (`child.stdout`) and
 * generators; a `ReadableStream` covers `fetch` bodies and Web streams.
 */
export type StreamSource =
  | string
  | Uint8Array
  | ArrayBuffer
  | Blob
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>;

/**
 * What a command produced. The exit code and signal may be promises, so the pipes can be read
 * while the command runs (awaiting the exit first can deadlock a command that fills a pipe).
 *
 * @example
 * const child = spawn("npm", ["test"]);
 * const exitCode = new Promise<number | null>((done) => child.on("close", done));
 * await shape({ stdout: child.stdout, stderr: child.stderr, exitCode }, { tool: "npm test" });
 */
export interface CommandOutput {
  readonly stdout: StreamSource;
  readonly stderr?: StreamSource;
  readonly exitCode?: number | null | Promise<number | null>;
  readonly signal?: string | null | Promise<string | null>;
}

/** Bytes read from an input at most, all its streams together, unless `maxBytes` says otherwise. */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
