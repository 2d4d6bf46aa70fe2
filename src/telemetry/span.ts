/**
 * Telemetry as OpenTelemetry span attributes, on a span the host passes in: no OpenTelemetry
 * dependency, any object with `setAttribute` (or `setAttributes`) will do. Names come from the
 * GenAI semantic conventions where they define one (`gen_ai.operation.name`, `gen_ai.tool.name`,
 * `gen_ai.tool.call.id` on the `execute_tool` span, and the general `error.type`); everything
 * airlock adds is under `airlock.`. The conventions' `gen_ai.tool.call.result` is content, so it
 * is never set: nothing here is tool text.
 */
import type { Shaped, ShapedTelemetry } from "../pipeline/shaped.js";

export type AttributeValue =
  | string
  | number
  | boolean
  | readonly string[]
  | readonly number[]
  | readonly boolean[];

/** Any span: `@opentelemetry/api`'s `Span` fits, and so does a plain object for tests. */
export interface SpanLike {
  setAttribute(key: string, value: AttributeValue): unknown;
  setAttributes?(attributes: Record<string, AttributeValue>): unknown;
}

export interface SpanOptions {
  /** The model's id for this tool call (`gen_ai.tool.call.id`). */
  readonly callId?: string;
}

/** Cuts listed on a span at most; `airlock.cut.count` has them all. */
const MAX_SPAN_CUTS = 64;

/**
 * The attributes `recordOnSpan` sets, for a host that records them some other way.
 *
 * @example
 * telemetryAttributes(shaped)["airlock.output.tokens"]; // 591
 */
export function telemetryAttributes(
  shaped: Shaped,
  options: SpanOptions = {},
): Record<string, AttributeValue> {
  const t = shaped.meta.telemetry;
  const out: Record<string, AttributeValue> = { "gen_ai.operation.name": "execute_tool" };
  if (t === undefined) return out;
  if (t.tool !== undefined) out["gen_ai.tool.name"] = t.tool;
  if (options.callId !== undefined) out["gen_ai.tool.call.id"] = options.callId;
  if (t.error !== undefined) out["error.type"] = t.error;
  Object.assign(out, {
    "airlock.status": t.status,
    "airlock.kind": t.kind,
    ...(t.format !== undefined ? { "airlock.format": t.format } : {}),
    "airlock.input.tokens": t.before.tokens,
    "airlock.input.tokens_estimated": t.before.estimated,
    "airlock.input.bytes": t.before.bytes,
    "airlock.input.lines": t.before.lines,
    "airlock.output.tokens": t.after.tokens,
    "airlock.output.bytes": t.after.bytes,
    "airlock.output.lines": t.after.lines,
    ...(t.before.records !== undefined ? { "airlock.input.records": t.before.records } : {}),
    ...(t.after.records !== undefined ? { "airlock.output.records": t.after.records } : {}),
    "airlock.max_tokens": t.maxTokens,
    "airlock.truncated": t.truncated,
    ...cutAttributes(t),
    "airlock.evidence.found": t.evidence.found,
    "airlock.evidence.kept": t.evidence.kept,
    "airlock.evidence.cut": t.evidence.cut,
    "airlock.redaction.count": t.redactions.count,
    "airlock.redaction.rules": Object.keys(t.redactions.rules),
    "airlock.redaction.rule_counts": Object.values(t.redactions.rules),
    ...(t.redactions.scope ? { "airlock.redaction.scope": t.redactions.scope } : {}),
    "airlock.invisible.count": t.invisible,
    "airlock.duration_ms": t.ms,
    ...(t.round
      ? {
          "airlock.round.index": t.round.index,
          "airlock.round.calls": t.round.calls,
          "airlock.round.need": t.round.need,
          "airlock.round.share": t.round.share,
          "airlock.round.max_tokens": t.round.maxRoundTokens,
        }
      : {}),
  });
  return out;
}

/** Cut positions as parallel arrays: kind, and the first and last position of each. */
function cutAttributes(t: ShapedTelemetry): Record<string, AttributeValue> {
  const shown = t.cuts.slice(0, MAX_SPAN_CUTS);
  const from = shown.map((c) => {
    switch (c.kind) {
      case "lines":
      case "records":
        return c.from;
      case "chars":
        return c.line;
      case "bytes":
      case "stopped":
        return c.at;
      default:
        return 0;
    }
  });
  const to = shown.map((c) => {
    switch (c.kind) {
      case "lines":
      case "records":
        return c.to;
      case "chars":
        return c.line;
      case "bytes":
        return c.limit;
      case "stopped":
        return c.at;
      case "binary":
        return c.bytes;
      case "boilerplate":
        return c.chars;
      case "lost":
        return c.bytes ?? 0;
      default:
        return 0;
    }
  });
  return {
    "airlock.cut.count": t.cuts.length,
    "airlock.cut.kinds": shown.map((c) => c.kind),
    "airlock.cut.from": from,
    "airlock.cut.to": to,
  };
}

/**
 * Records a result's telemetry on the host's span for the tool's execution.
 *
 * @example
 * tracer.startActiveSpan(`execute_tool ${name}`, async (span) => {
 *   const shaped = await shapeTool(output);
 *   recordOnSpan(span, shaped, { callId: call.id });
 *   span.end();
 * });
 */
export function recordOnSpan(span: SpanLike, shaped: Shaped, options: SpanOptions = {}): void {
  const attributes = telemetryAttributes(shaped, options);
  if (typeof span.setAttributes === "function") {
    span.setAttributes(attributes);
    return;
  }
  for (const [key, value] of Object.entries(attributes)) span.setAttribute(key, value);
}
