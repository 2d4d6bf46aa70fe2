/** Stable error codes. A code names the stage and the limit; messages may change, codes do not. This module imports nothing, so every stage may import it. */
export type AirlockErrorCode =
  | "options/invalid"
  | "input/unsupported"
  | "fit/tokenizer-failed"
  | "fit/budget-too-small"
  | "adapter/invalid-id"
  /** A sealed artifact was opened with a key it was not sealed with (or it was altered). */
  | "store/wrong-key";

/**
 * Why a result has `status: "error"` (in `meta.error.code`). These are findings about the tool
 * run, reported in the result, never thrown.
 */
export type ShapedErrorCode =
  /** The command exited non-zero or was killed by a signal. */
  | "tool/failed"
  /** The `Response` had a non-2xx status. */
  | "tool/http-error"
  /** A source failed while it was being read; what was read before is shown. */
  | "intake/read-failed"
  /** Codes of `describeError()` / `shapeError()`: a thrown error, classified. */
  | SafeErrorCode
  /** Structured input refused as a whole: malformed JSON, invalid UTF-8, a single document too large. */
  | JsonErrorCode
  /** A JSON array with an empty element (`[1,,2]`). */
  | "records/syntax"
  /** The result broke the tool's contract (schema or invariant): only ids and counts are shown. */
  | ContractCode;

/**
 * Stable codes for a thrown error, as classified by `describeError()`. `tool/…` codes are tool
 * execution errors, reported in the result (`isError: true` in MCP); `protocol/…` codes are
 * errors in the call itself (JSON-RPC errors in MCP, see `toMcpError`).
 */
export type SafeErrorCode =
  /** The tool or a service it called did not answer in time (ETIMEDOUT, HTTP 408/504, TimeoutError). */
  | "tool/timeout"
  /** A service could not be reached (ECONNREFUSED, ECONNRESET, ENOTFOUND, HTTP 502/503, fetch failed). */
  | "tool/unavailable"
  /** Too many requests (HTTP 429, "rate limit"). */
  | "tool/rate-limited"
  /** What the call asked for does not exist (ENOENT, HTTP 404/410). */
  | "tool/not-found"
  /** Not allowed (EACCES, EPERM, HTTP 401/403). */
  | "tool/permission-denied"
  /** The tool rejected its input (EINVAL, HTTP 400/413/422, schema validation errors). */
  | "tool/invalid-input"
  /** A service failed with an internal error (HTTP 500 and other 5xx). */
  | "tool/server-error"
  /** The call was aborted before it finished (AbortError). */
  | "tool/cancelled"
  /** Any other failure. */
  | "tool/failed"
  /** No tool by that name (JSON-RPC -32602 in MCP). */
  | "protocol/unknown-tool"
  /** The request is malformed: it does not satisfy the call schema (JSON-RPC -32602). */
  | "protocol/invalid-arguments"
  /** The method is not supported (JSON-RPC -32601). */
  | "protocol/unknown-method"
  /** The server failed to handle the request (JSON-RPC -32603). */
  | "protocol/internal-error";

/** Why structured input (or one record of it) was refused. */
export type JsonErrorCode =
  | "json/syntax"
  | "json/too-deep"
  | "json/too-many-keys"
  | "json/array-too-long"
  | "json/string-too-long"
  | "json/number-too-long"
  | "json/number-out-of-range"
  | "json/duplicate-key"
  | "json/lone-surrogate"
  /** The bytes are not UTF-8 (RFC 8259 §8.1): refused, never repaired. */
  | "json/invalid-utf8"
  /** A single document (not an array of records) larger than the parser holds. */
  | "json/too-large"
  /** One record of an array or NDJSON larger than the parser holds. */
  | "json/record-too-large"
  /** An already-parsed value refers to itself. */
  | "json/cycle"
  /** An already-parsed value cannot be read as JSON (a getter or `toJSON` threw). */
  | "json/unreadable";

/**
 * Stable codes of a contract violation; `contract/invalid`: the validator threw or its output is not JSON.
 * @example if (violation.code === "contract/tenant") audit(violation.message);
 */
export type ContractCode =
  | "contract/schema"
  | "contract/too-many-records"
  | "contract/tenant"
  | "contract/side-effect"
  | "contract/check"
  | "contract/invalid";
