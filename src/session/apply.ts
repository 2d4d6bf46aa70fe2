/**
 * A session's view written into a plain message list: the tool results it recorded get their
 * text from the view, by call id, in the three wire forms (OpenAI Chat `role: "tool"`, OpenAI
 * Responses `function_call_output`, Anthropic `tool_result` blocks) and the AI SDK's
 * `ModelMessage` (`role: "tool"` with `tool-result` parts, as `prepareStep` receives them; an
 * `error-text` output stays one) and the OpenAI Agents SDK's `function_call_result` items (as
 * `callModelInputFilter` receives them). Every other message, and
 * every result the session did not record, is passed through as the same object; nothing given
 * is changed in place.
 */

import { AirlockError } from "../errors/airlock-error.js";

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => v !== null && typeof v === "object";

/** An Anthropic message with `tool_result` blocks, with the recorded ones rewritten. */
function anthropic(m: Loose, texts: ReadonlyMap<string, string>): Loose {
  const content = m.content;
  if (!Array.isArray(content)) return m;
  let changed = false;
  const blocks = content.map((b: unknown) => {
    if (!isObject(b) || b.type !== "tool_result" || typeof b.tool_use_id !== "string") return b;
    const text = texts.get(b.tool_use_id);
    if (text === undefined || b.content === text) return b;
    changed = true;
    return { ...b, content: text };
  });
  return changed ? { ...m, content: blocks } : m;
}

/** An AI SDK tool message: each recorded `tool-result` part's output becomes the view's text. */
function aiSdk(m: Loose, texts: ReadonlyMap<string, string>): Loose {
  let changed = false;
  const parts = (m.content as unknown[]).map((p: unknown) => {
    if (!isObject(p) || p.type !== "tool-result" || typeof p.toolCallId !== "string") return p;
    const text = texts.get(p.toolCallId);
    const output = p.output as Loose | undefined;
    // An error stays an error for the model (`error-text`, `error-json`: the view's text is text).
    const error =
      isObject(output) && typeof output.type === "string" && output.type.startsWith("error");
    const type = error ? "error-text" : "text";
    if (text === undefined || (output?.type === type && output.value === text)) return p;
    changed = true;
    return { ...p, output: { type, value: text } };
  });
  return changed ? { ...m, content: parts } : m;
}

/**
 * @example
 * applyView([{ role: "tool", tool_call_id: "call_1", content: "…" }], new Map([["call_1", "[airlock: …]"]]));
 * // [{ role: "tool", tool_call_id: "call_1", content: "[airlock: …]" }]
 */
export function applyView<M>(messages: readonly M[], texts: ReadonlyMap<string, string>): M[] {
  if (!Array.isArray(messages))
    throw new AirlockError("options/invalid", "session.apply: messages must be an array");
  return messages.map((message) => {
    const m = message as unknown;
    if (!isObject(m)) return message;
    if (m.role === "tool" && typeof m.tool_call_id === "string") {
      const text = texts.get(m.tool_call_id);
      return (text === undefined || m.content === text ? m : { ...m, content: text }) as M;
    }
    if (m.role === "tool" && Array.isArray(m.content)) return aiSdk(m, texts) as M;
    if (m.type === "function_call_output" && typeof m.call_id === "string") {
      const text = texts.get(m.call_id);
      return (text === undefined || m.output === text ? m : { ...m, output: text }) as M;
    }
    if (m.type === "function_call_result" && typeof m.callId === "string") {
      const text = texts.get(m.callId);
      if (text === undefined) return message;
      const output = m.output;
      if (isObject(output) && output.type === "text")
        return (output.text === text ? m : { ...m, output: { ...output, text } }) as M;
      return (output === text ? m : { ...m, output: text }) as M;
    }
    if (m.role === "user") return anthropic(m, texts) as M;
    return message;
  });
}
