/**
 * `describeError()`: a thrown error classified into a stable code and a message safe to show a
 * model (no stack frames, internal hosts, paths or secrets), with whether retrying may help.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { SafeErrorCode } from "../errors/codes.js";
import type { RedactOptions } from "../redact/redact.js";
import { redact } from "../redact/redact.js";
import { capText, scrubMessage } from "../redact/scrub.js";

/**
 * Error shaping: a thrown error becomes a short, safe, actionable description for the model.
 * MCP reports a failure of the tool itself in the result (`isError: true`, text the model reads)
 * and a wrong call as a JSON-RPC error; `kind` says which one a `SafeError` is.
 */

/** A thrown error, classified and scrubbed: nothing in it comes from the error unfiltered. */
export interface SafeError {
  /** Stable code: `tool/…` for tool execution errors, `protocol/…` for errors in the call. */
  readonly code: SafeErrorCode;
  /** Whether the same call may succeed later (timeouts, unreachable services, rate limits, 5xx). */
  readonly retryable: boolean;
  /** What happened, for the model: at most `maxMessageLength` characters, one line. */
  readonly message: string;
  readonly kind: "protocol" | "tool";
}

export interface DescribeErrorOptions {
  /**
   * Who is at fault, when the host knows: `"protocol"` for a call that never reached the tool
   * (its router found no such tool, the request failed the call schema), `"tool"` for a failure
   * while it ran. Without it the error decides (a JSON-RPC code on it means protocol).
   */
  readonly kind?: "protocol" | "tool";
  /** The code to report, overriding the classification (the message is still scrubbed). */
  readonly code?: SafeErrorCode;
  /** Cap on `message`, in UTF-16 units: an integer from 64 to 4000. Default 300. */
  readonly maxMessageLength?: number;
  /** Options for the secret redaction the message always gets (known values, extra rules). */
  readonly redact?: boolean | RedactOptions;
}

export const DEFAULT_MAX_MESSAGE_LENGTH = 300;

import {
  DESCRIPTIONS,
  fromErrno,
  fromJsonRpc,
  fromMessage,
  fromName,
  fromStatus,
  RETRYABLE,
  UNKNOWN_TOOL,
  type Verdict,
} from "./verdicts.js";

function read(value: unknown, key: string): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return;
  }
}

function readString(value: unknown, key: string): string {
  const v = read(value, key);
  return typeof v === "string" ? v : "";
}

function httpStatusOf(node: unknown): number | undefined {
  const candidates = [
    read(node, "status"),
    read(node, "statusCode"),
    read(read(node, "response"), "status"),
    read(read(node, "$metadata"), "httpStatusCode"),
    read(node, "code"),
  ];
  for (const c of candidates) {
    if (typeof c === "number" && Number.isInteger(c) && c >= 400 && c <= 599) return c;
  }
  return undefined;
}

/** Messages of Standard Schema / zod / valibot issues: "path: message; …". */
function issuesOf(node: unknown): string {
  const issues = read(node, "issues");
  let list: unknown[];
  try {
    if (!Array.isArray(issues)) return "";
    list = issues.slice(0, 3);
  } catch {
    return "";
  }
  const parts: string[] = [];
  for (const issue of list) {
    const message = readString(issue, "message");
    if (message === "") continue;
    const path = read(issue, "path");
    let where = "";
    try {
      if (Array.isArray(path)) {
        where = path
          .slice(0, 8)
          .map((p) => (typeof p === "object" && p !== null ? read(p, "key") : p))
          .filter((p) => typeof p === "string" || typeof p === "number")
          .join(".");
      }
    } catch {
      where = "";
    }
    parts.push(where === "" ? message : `${where}: ${message}`);
  }
  return parts.join("; ");
}

/** Errors reachable through `cause` and `AggregateError.errors`, breadth first, cycles cut. */
const MAX_NODES = 16;

function chainOf(error: unknown): unknown[] {
  const nodes: unknown[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && nodes.length < MAX_NODES) {
    const node = queue.shift();
    if (node === undefined || node === null || seen.has(node)) continue;
    seen.add(node);
    nodes.push(node);
    if (typeof node !== "object" && typeof node !== "function") continue;
    queue.push(read(node, "cause"));
    const errors = read(node, "errors");
    try {
      if (Array.isArray(errors)) queue.push(...errors.slice(0, MAX_NODES));
    } catch {
      // A revoked Proxy: no inner errors.
    }
  }
  return nodes;
}

interface Node {
  readonly name: string;
  readonly message: string;
  readonly value: unknown;
}

function describeNode(node: unknown): Node {
  if (typeof node === "string") return { name: "", message: node, value: node };
  const issues = issuesOf(node);
  return {
    name: readString(node, "name"),
    message: issues !== "" ? issues : readString(node, "message"),
    value: node,
  };
}

function structured(node: Node): Verdict | undefined {
  const message = node.message.slice(0, 4096);
  const code = read(node.value, "code");
  if (typeof code === "number" && code <= -32000 && code >= -32768) {
    const verdict = fromJsonRpc(code, message);
    if (verdict !== undefined) return verdict;
  }
  for (const key of ["code", "errno"]) {
    const value = read(node.value, key);
    if (typeof value === "string") {
      const verdict = fromErrno(value, message);
      if (verdict !== undefined) return verdict;
    }
  }
  const status = httpStatusOf(node.value);
  if (status !== undefined) return fromStatus(status);
  if (read(node.value, "issues") !== undefined && issuesOf(node.value) !== "") {
    return { code: "tool/invalid-input" };
  }
  return fromName(node.name, message);
}

function classify(nodes: readonly Node[]): Verdict {
  for (const node of nodes) {
    const verdict = structured(node);
    if (verdict !== undefined) return verdict;
  }
  for (const node of nodes) {
    const verdict = fromMessage(node.name, node.message.slice(0, 4096));
    if (verdict !== undefined) return verdict;
  }
  return { code: "tool/failed" };
}

/** The host's `kind` wins over the error's: map a verdict across. */
function toKind(verdict: Verdict, kind: "protocol" | "tool", nodes: readonly Node[]): Verdict {
  const isProtocol = verdict.code.startsWith("protocol/");
  if (kind === "tool" && isProtocol) {
    if (verdict.code === "protocol/unknown-tool") return { code: "tool/not-found" };
    if (verdict.code === "protocol/invalid-arguments") return { code: "tool/invalid-input" };
    return { code: "tool/failed" };
  }
  if (kind === "protocol" && !isProtocol) {
    if (nodes.some((n) => UNKNOWN_TOOL.test(n.message.slice(0, 4096)))) {
      return { code: "protocol/unknown-tool" };
    }
    return { code: "protocol/invalid-arguments" };
  }
  return verdict;
}

// Messages that only restate what the code already says.
const GENERIC =
  /^(?:fetch failed|failed to fetch|load failed|network ?error|networkerror when attempting to fetch resource|network connection (?:was )?lost|the (?:operation|user) (?:was )?abort(?:ed)?(?: a request)?|this operation was aborted|signal is aborted without reason|aborted|socket hang up|the operation timed out|timeout|timed out|request timed out|internal server error|bad gateway|service unavailable|gateway timeout|not found|forbidden|unauthori[sz]ed|too many requests|error)\.?$/i;
const PLACEHOLDERS_ONLY = /^[\s\p{P}\p{S}]*(?:<(?:stack|sql|url|path|host)>[\s\p{P}\p{S}]*)*$/u;

function detailOf(nodes: readonly Node[], verdict: Verdict, options: DescribeErrorOptions): string {
  for (const node of nodes) {
    if (node.message === "") continue;
    // The MCP SDK prefixes its code; the code is reported separately.
    const message = node.message.replace(/^MCP error -?\d+:\s*/, "");
    const redaction =
      typeof options.redact === "object" && options.redact !== null ? options.redact : undefined;
    const line = scrubMessage(message, (text) => redact(text, redaction).text);
    if (line === "" || GENERIC.test(line) || PLACEHOLDERS_ONLY.test(line)) continue;
    // Node's system errors ("connect ECONNREFUSED <host>") say no more than the reason does.
    if (verdict.errno !== undefined && line.includes(verdict.errno)) continue;
    return line;
  }
  return "";
}

function nonErrorReason(error: unknown): string | undefined {
  if (error === null) return "null was thrown";
  if (error === undefined) return "undefined was thrown";
  if (typeof error === "string")
    return error.trim() === "" ? "an empty string was thrown" : undefined;
  if (typeof error === "object" || typeof error === "function") return undefined;
  return `a ${typeof error} was thrown`;
}

const CODES = new Set(Object.keys(DESCRIPTIONS));

function checkOptions(options: DescribeErrorOptions): number {
  if (options === null || typeof options !== "object") {
    throw new AirlockError("options/invalid", "describeError: options must be an object");
  }
  if (options.kind !== undefined && options.kind !== "protocol" && options.kind !== "tool") {
    throw new AirlockError("options/invalid", 'describeError: kind must be "protocol" or "tool"');
  }
  if (options.code !== undefined && !CODES.has(options.code)) {
    throw new AirlockError(
      "options/invalid",
      `describeError: unknown code ${String(options.code)}`,
    );
  }
  const max = options.maxMessageLength ?? DEFAULT_MAX_MESSAGE_LENGTH;
  if (!Number.isInteger(max) || max < 64 || max > 4000) {
    throw new AirlockError(
      "options/invalid",
      `describeError: maxMessageLength must be an integer from 64 to 4000 (got ${String(max)})`,
    );
  }
  return max;
}

/**
 * Classifies anything thrown and describes it safely. It reads `Error`s and their `cause` chains
 * and `AggregateError.errors` (cycles cut, at most 16 errors), strings, and objects with `code`,
 * `errno`, `status`, `statusCode`, `response.status`, `$metadata.httpStatusCode`, `name` or
 * schema `issues`; the first error in the chain with such a field decides, then the wording of
 * the messages (a fetch `TypeError`, "timed out", "rate limit"), else `tool/failed`. A JSON-RPC
 * code (-32601, -32602 as on the MCP SDK's `McpError`) makes it a protocol error, except that
 * -32602 for input validation is `tool/invalid-input` (MCP 2025-11-25, SEP-1303).
 *
 * The message is the code's description, the reason, and the meaningful line of the first
 * telling message, scrubbed: no stack frames, SQL, URLs, absolute paths, IP addresses, internal
 * host names or ports, invisible characters or secrets (`redact()` runs last); at most
 * `maxMessageLength` characters. It never throws for any thrown value: getters that throw,
 * Proxies, cycles and megabyte messages all give a bounded result. It throws `options/invalid`
 * only for invalid options.
 *
 * @example
 * describeError(Object.assign(new Error("connect ECONNREFUSED 10.0.3.7:5432"), { code: "ECONNREFUSED" }));
 * // { code: "tool/unavailable", retryable: true, kind: "tool",
 * //   message: "a service the tool needs could not be reached (connection refused)" }
 */
export function describeError(error: unknown, options: DescribeErrorOptions = {}): SafeError {
  const max = checkOptions(options);
  const nodes = chainOf(error).map(describeNode);
  let verdict = classify(nodes);
  if (options.kind !== undefined) verdict = toKind(verdict, options.kind, nodes);
  if (options.code !== undefined) verdict = { code: options.code };
  const reason = verdict.reason ?? nonErrorReason(error);
  const detail = detailOf(nodes, verdict, options);
  let message = DESCRIPTIONS[verdict.code];
  if (reason !== undefined) message += ` (${reason})`;
  if (detail !== "") message += `: ${detail}`;
  return {
    code: verdict.code,
    retryable: RETRYABLE.has(verdict.code),
    message: capText(message, max),
    kind: verdict.code.startsWith("protocol/") ? "protocol" : "tool",
  };
}
