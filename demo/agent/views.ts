/**
 * The conversation as the person sees it: the question, the model's words, and a card for each
 * tool call with the safe preview, what the model read and the raw result it did not. Model and
 * tool text is only ever written with textContent; the one piece of HTML is the preview, which
 * `renderPreview` made safe and `toTrustedPreview` hands over as TrustedHTML.
 */
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { AirlockOutput } from "agent-airlock/ai-sdk";
import { renderPreview, toTrustedPreview } from "agent-airlock/preview";
import { masked, type RawResult } from "./raw.ts";
import { textOf } from "./scripted-model.ts";

const n = (value: number) => value.toLocaleString("en-US");

function node<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function bytes(size: number): string {
  if (size >= 1 << 20) return `${(size / (1 << 20)).toFixed(1)} MiB`;
  if (size >= 1 << 10) return `${(size / (1 << 10)).toFixed(1)} KiB`;
  return `${n(size)} bytes`;
}

export function userMessage(chat: HTMLElement, text: string): void {
  chat.append(node("p", "message user", text));
}

/** The model's words of one step, filled as they stream in. */
export function modelMessage(chat: HTMLElement): { add(text: string): void } {
  let p: HTMLParagraphElement | undefined;
  return {
    add(text) {
      if (p === undefined) {
        p = node("p", "message model");
        chat.append(p);
      }
      p.textContent += text;
    },
  };
}

/** What the model read, in a line: tokens of the budget, what was cut, secrets, the handle. */
export function factsLine(output: AirlockOutput, tool: string): string {
  const f = output.facts;
  const cut = f.records
    ? `${n(f.records.shown)} of ${n(f.records.total)} records shown`
    : f.omittedLines > 0
      ? `${n(f.omittedLines)} of ${n(f.lines)} lines left out`
      : f.truncated
        ? "shortened"
        : "nothing cut";
  const secrets =
    tool === "read_result"
      ? "read from the store (kept redacted)"
      : f.redactions === undefined
        ? "redaction off"
        : `${n(f.redactions)} secret${f.redactions === 1 ? "" : "s"} redacted`;
  return [
    `the model read ${n(f.tokens)} of ${n(f.maxTokens)} tokens`,
    cut,
    secrets,
    output.handle ? `kept whole as ${output.handle}` : "not kept",
  ].join(" · ");
}

/** A tool call's card, filled when its result comes back. */
export interface CallCard {
  done(output: AirlockOutput, raw: RawResult | undefined): void;
  failed(message: string): void;
}

export function callCard(
  chat: HTMLElement,
  call: { id: string; name: string; args: unknown },
): CallCard {
  const card = node("article", "call");
  card.dataset.tool = call.name;
  card.dataset.callId = call.id;
  card.dataset.state = "running";
  const head = node("header", "call-head");
  const status = node("span", "call-status", "running…");
  head.append(
    node("code", "call-name", call.name),
    node("code", "call-args", JSON.stringify(call.args)),
    status,
  );
  card.append(head);
  chat.append(card);
  return {
    done(output, raw) {
      card.dataset.state = "done";
      card.dataset.status = output.status;
      card.dataset.tokens = String(output.facts.tokens);
      card.dataset.maxTokens = String(output.facts.maxTokens);
      status.textContent = output.status;
      status.dataset.status = output.status;
      const format = output.facts.format;
      const preview = node("div", "call-preview");
      preview.innerHTML = toTrustedPreview(
        renderPreview(output.text, {
          mode: format === "html" || format === "markdown" ? "markdown" : "preformatted",
        }),
      ) as string;
      const read = node("details", "model-read");
      read.append(
        node("summary", "", "Exactly what the model read"),
        node("pre", "model-text", output.text),
      );
      card.append(node("p", "facts", factsLine(output, call.name)), preview, read, rawView(raw));
    },
    failed(message) {
      card.dataset.state = "failed";
      status.textContent = "failed";
      card.append(node("p", "facts", message));
    },
  };
}

/**
 * The raw result the model did not read: its start, secrets masked until the person asks to
 * see them. The raw text exists only here (and in the page's memory), never elsewhere in the DOM.
 */
function rawView(raw: RawResult | undefined): HTMLElement {
  const details = node("details", "raw");
  details.append(node("summary", "", "The raw result (what the model did not read)"));
  if (raw === undefined) {
    details.append(
      node(
        "p",
        "hint",
        "A read_result page: read from the store, it has no raw output of its own.",
      ),
    );
    return details;
  }
  const note = node(
    "p",
    "hint raw-note",
    raw.whole
      ? `All ${bytes(raw.bytes)} the tool returned, secrets masked.`
      : `The first ${bytes(new TextEncoder().encode(raw.text).byteLength)} of ${bytes(raw.bytes)} the tool returned, secrets masked.`,
  );
  const reveal = node("button", "reveal", "Reveal secrets");
  reveal.type = "button";
  const pre = node("pre", "raw-text", masked(raw));
  pre.dataset.revealed = "false";
  reveal.addEventListener("click", () => {
    const show = pre.dataset.revealed !== "true";
    pre.textContent = show ? raw.text : masked(raw);
    pre.dataset.revealed = String(show);
    reveal.textContent = show ? "Mask secrets" : "Reveal secrets";
  });
  details.append(note, reveal, pre);
  return details;
}

/**
 * A prompt as the model received it, as readable text: each message with its role, tool calls
 * with their arguments, tool results with their text.
 */
export function promptText(prompt: LanguageModelV3Prompt): string {
  const out: string[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      out.push("── system ──", message.content);
      continue;
    }
    if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        out.push(`── tool result (${part.toolCallId}, ${part.toolName}) ──`, textOf(part.output));
      }
      continue;
    }
    out.push(`── ${message.role} ──`);
    for (const part of message.content) {
      if (part.type === "text") out.push(part.text);
      else if (part.type === "tool-call")
        out.push(`→ ${part.toolName} ${JSON.stringify(part.input)} (${part.toolCallId})`);
    }
  }
  return out.join("\n");
}
