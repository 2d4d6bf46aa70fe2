/**
 * What a thrown error says, read into a verdict: its HTTP status, JSON-RPC code, name, message
 * or errno mapped onto the stable codes of `describeError`, with the words for each code.
 */
import type { SafeErrorCode } from "../errors/codes.js";

export interface Verdict {
  readonly code: SafeErrorCode;
  /** A short parenthetical: "connection refused", "HTTP 503". */
  readonly reason?: string;
  /** An errno-style code the verdict came from: a message containing it adds nothing. */
  readonly errno?: string;
}

export const RETRYABLE: ReadonlySet<SafeErrorCode> = new Set([
  "tool/timeout",
  "tool/unavailable",
  "tool/rate-limited",
  "tool/server-error",
]);

export const DESCRIPTIONS: Readonly<Record<SafeErrorCode, string>> = {
  "tool/timeout": "the tool did not finish in time",
  "tool/unavailable": "a service the tool needs could not be reached",
  "tool/rate-limited": "the tool was rate-limited",
  "tool/not-found": "what the call asked for was not found",
  "tool/permission-denied": "the tool was not allowed to do this",
  "tool/invalid-input": "the tool rejected its input",
  "tool/server-error": "a service the tool called failed with an internal error",
  "tool/cancelled": "the call was cancelled before it finished",
  "tool/failed": "the tool failed",
  "protocol/unknown-tool": "no tool with this name exists",
  "protocol/invalid-arguments": "the tool call is malformed",
  "protocol/unknown-method": "the method is not supported",
  "protocol/internal-error": "the server failed to handle the call",
};

/** Node and undici error codes (`error.code`), with what they mean. */
const ERRNO: Readonly<Record<string, readonly [SafeErrorCode, string]>> = {
  ETIMEDOUT: ["tool/timeout", "timed out"],
  ESOCKETTIMEDOUT: ["tool/timeout", "socket timed out"],
  ETIME: ["tool/timeout", "timed out"],
  UND_ERR_CONNECT_TIMEOUT: ["tool/timeout", "connection timed out"],
  UND_ERR_HEADERS_TIMEOUT: ["tool/timeout", "response timed out"],
  UND_ERR_BODY_TIMEOUT: ["tool/timeout", "response timed out"],
  ERR_SOCKET_CONNECTION_TIMEOUT: ["tool/timeout", "connection timed out"],
  ECONNREFUSED: ["tool/unavailable", "connection refused"],
  ECONNRESET: ["tool/unavailable", "connection reset"],
  ECONNABORTED: ["tool/unavailable", "connection aborted"],
  EPIPE: ["tool/unavailable", "connection closed"],
  UND_ERR_SOCKET: ["tool/unavailable", "connection closed"],
  UND_ERR_CLOSED: ["tool/unavailable", "connection closed"],
  ENOTFOUND: ["tool/unavailable", "host not found"],
  EAI_AGAIN: ["tool/unavailable", "name lookup failed"],
  ENETUNREACH: ["tool/unavailable", "network unreachable"],
  ENETDOWN: ["tool/unavailable", "network down"],
  EHOSTUNREACH: ["tool/unavailable", "host unreachable"],
  EHOSTDOWN: ["tool/unavailable", "host down"],
  EADDRNOTAVAIL: ["tool/unavailable", "address not available"],
  EAGAIN: ["tool/unavailable", "resource temporarily unavailable"],
  EBUSY: ["tool/unavailable", "resource busy"],
  EMFILE: ["tool/unavailable", "too many open files"],
  ENFILE: ["tool/unavailable", "too many open files"],
  ENOENT: ["tool/not-found", "no such file or directory"],
  ENOTDIR: ["tool/not-found", "not a directory"],
  EACCES: ["tool/permission-denied", "permission denied"],
  EPERM: ["tool/permission-denied", "operation not permitted"],
  EROFS: ["tool/permission-denied", "read-only file system"],
  EINVAL: ["tool/invalid-input", "invalid argument"],
  EISDIR: ["tool/invalid-input", "is a directory"],
  ENAMETOOLONG: ["tool/invalid-input", "name too long"],
  ERR_INVALID_ARG_TYPE: ["tool/invalid-input", "invalid argument"],
  ERR_INVALID_ARG_VALUE: ["tool/invalid-input", "invalid argument"],
  ERR_INVALID_URL: ["tool/invalid-input", "invalid URL"],
  ABORT_ERR: ["tool/cancelled", "aborted"],
};

/** HTTP status to code: 408, 425, 429 and 5xx may pass on retry (as in `shape()`); other 4xx will not. */
export function fromStatus(status: number): Verdict {
  const reason = `HTTP ${status}`;
  if (status === 408 || status === 504) return { code: "tool/timeout", reason };
  if (status === 429) return { code: "tool/rate-limited", reason };
  if (status === 401 || status === 403 || status === 407) {
    return { code: "tool/permission-denied", reason };
  }
  if (status === 404 || status === 410) return { code: "tool/not-found", reason };
  if (status === 400 || status === 413 || status === 414 || status === 415 || status === 422) {
    return { code: "tool/invalid-input", reason };
  }
  if (status === 502 || status === 503 || status === 425)
    return { code: "tool/unavailable", reason };
  if (status >= 500) return { code: "tool/server-error", reason };
  return { code: "tool/failed", reason };
}

export const UNKNOWN_TOOL =
  /\bunknown tool\b|\bno such tool\b|\btool\s+["'`]?[\w.:/@-]{1,128}["'`]?\s+(?:not found|does not exist|is disabled|disabled)\b/i;
// SEP-1303 (MCP 2025-11-25): a tool's input failing validation is a tool execution error, so the
// model sees it and can correct the call, even when an SDK still raises it as -32602.
const INPUT_VALIDATION = /\binput validation error\b|\binvalid arguments for tool\b/i;

/** JSON-RPC error codes (MCP SDK's `McpError.code`). */
export function fromJsonRpc(code: number, message: string): Verdict | undefined {
  if (code === -32601) return { code: "protocol/unknown-method" };
  if (code === -32602 || code === -32600 || code === -32700) {
    if (UNKNOWN_TOOL.test(message)) return { code: "protocol/unknown-tool" };
    if (INPUT_VALIDATION.test(message)) return { code: "tool/invalid-input" };
    return { code: "protocol/invalid-arguments" };
  }
  if (code === -32603) return { code: "protocol/internal-error" };
  // The SDK's client-side codes: the server did not answer in time, or hung up.
  if (code === -32001) return { code: "tool/timeout", reason: "request timed out" };
  if (code === -32000) return { code: "tool/unavailable", reason: "connection closed" };
  return undefined;
}

const TIMEOUT_WORDS = /\btim(?:ed?[ -]?out|eout)\b|\bdeadline exceeded\b/i;

export function fromName(name: string, message: string): Verdict | undefined {
  if (name === "TimeoutError") return { code: "tool/timeout" };
  if (name === "AbortError") {
    // Many clients raise AbortError for their own timeouts.
    return TIMEOUT_WORDS.test(message) ? { code: "tool/timeout" } : { code: "tool/cancelled" };
  }
  if (/timeout|timedout/i.test(name)) return { code: "tool/timeout" };
  if (/throttl|toomanyrequests|ratelimit/i.test(name)) return { code: "tool/rate-limited" };
  if (/accessdenied|unauthori[sz]ed|forbidden|permission/i.test(name)) {
    return { code: "tool/permission-denied" };
  }
  if (/notfound|nosuch/i.test(name)) return { code: "tool/not-found" };
  if (/validation|invalid(?:argument|param|input)|^zoderror$|^valierror$|schema/i.test(name)) {
    return { code: "tool/invalid-input" };
  }
  return undefined;
}

// Fetch failures are a TypeError whose message each runtime words its own way; workerd throws a
// plain Error "Network connection lost." for a refused or dropped connection.
const FETCH_FAILED =
  /^(?:fetch failed|failed to fetch|networkerror when attempting to fetch resource|load failed|network ?error)/i;
const CONNECTION_LOST = /^network connection (?:was )?lost\b/i;
const ERRNO_IN_TEXT = new RegExp(`\\b(${Object.keys(ERRNO).join("|")})\\b`);
const STATUS_IN_TEXT = /\bstatus(?: code)?:? ([1-5]\d\d)\b|\bHTTP(?:\/\d(?:\.\d)?)? ([1-5]\d\d)\b/i;

export function fromMessage(name: string, message: string): Verdict | undefined {
  if ((name === "TypeError" && FETCH_FAILED.test(message)) || CONNECTION_LOST.test(message)) {
    return { code: "tool/unavailable", reason: "network error" };
  }
  const errno = ERRNO_IN_TEXT.exec(message)?.[1];
  if (errno !== undefined) return fromErrno(errno, message);
  if (TIMEOUT_WORDS.test(message)) return { code: "tool/timeout" };
  if (/\brate[ -]?limit|\btoo many requests\b|\bthrottl/i.test(message)) {
    return { code: "tool/rate-limited" };
  }
  const status = STATUS_IN_TEXT.exec(message);
  if (status !== null) return fromStatus(Number(status[1] ?? status[2]));
  if (/\b(?:permission|access) denied\b|\bforbidden\b|\bunauthori[sz]ed\b/i.test(message)) {
    return { code: "tool/permission-denied" };
  }
  if (/\bno such file or directory\b/i.test(message)) return { code: "tool/not-found" };
  if (/\bconnection (?:refused|reset)\b|\bsocket hang up\b/i.test(message)) {
    return { code: "tool/unavailable" };
  }
  return undefined;
}

export function fromErrno(errno: string, message: string): Verdict | undefined {
  const entry = ERRNO[errno];
  if (entry === undefined) return undefined;
  const [code, reason] = entry;
  // axios reports its own timeouts as ECONNABORTED "timeout of 5000ms exceeded".
  if (code === "tool/unavailable" && TIMEOUT_WORDS.test(message)) {
    return { code: "tool/timeout", reason: "timed out", errno };
  }
  return { code, reason, errno };
}

// --- reading hostile values ---------------------------------------------------------------------

/** Reads a property without letting a getter, a Proxy trap or a revoked Proxy throw. */
