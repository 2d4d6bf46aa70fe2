/**
 * The offline model: a `LanguageModelV3` (the AI SDK's model interface) that plays the scripted
 * investigation (script.ts). Each call reads the prompt it is given, as any model does: the
 * tool results in it are what `prepareStep` left there, airlock's text, so the handle and the
 * line numbers it uses are the ones a real model would have read. It keeps no state between
 * calls; even its call ids are counted from the prompt.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { type Move, nextMove, type SeenCall, type Transcript } from "./script.ts";

/** A tool result's output as text, whichever form the SDK gave it. */
export function textOf(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "content":
      return output.value.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    default:
      return "";
  }
}

/**
 * What the model has read: the user's question and every tool call with its result.
 *
 * @example
 * transcriptOf(options.prompt); // { question: "Checkout has been failing…", calls: [...] }
 */
export function transcriptOf(prompt: LanguageModelV3Prompt): Transcript {
  const calls: SeenCall[] = [];
  const results = new Map<string, string>();
  let question = "";
  for (const message of prompt) {
    if (message.role === "user" && question === "") {
      question = message.content.map((p) => (p.type === "text" ? p.text : "")).join("");
    } else if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "tool-call")
          calls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
      }
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type === "tool-result") results.set(part.toolCallId, textOf(part.output));
      }
    }
  }
  return {
    question,
    calls: calls.map((c) => {
      const result = results.get(c.id);
      return result === undefined ? c : { ...c, result };
    }),
  };
}

const USAGE: LanguageModelV3Usage = {
  inputTokens: {
    total: undefined,
    noCache: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
  },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** The move as the model's message: its sentence, then its tool call (or the answer alone). */
function contentOf(move: Move, calls: number): LanguageModelV3Content[] {
  if (move.kind === "answer") return [{ type: "text", text: move.text }];
  return [
    { type: "text", text: move.say },
    {
      type: "tool-call",
      // Counted from the prompt: unique within the run, the same on every replay of it.
      toolCallId: `call_${calls + 1}`,
      toolName: move.name,
      input: JSON.stringify(move.args),
    },
  ];
}

/** The text a few words at a time, as a streaming model sends it. */
function deltas(text: string): string[] {
  const words = text.split(/(?<=\s)/);
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 4) out.push(words.slice(i, i + 4).join(""));
  return out;
}

function next(options: LanguageModelV3CallOptions): LanguageModelV3Content[] {
  const transcript = transcriptOf(options.prompt);
  return contentOf(nextMove(transcript), transcript.calls.length);
}

/**
 * @example
 * const result = streamText({ model: scriptedModel(), tools, prepareStep, prompt });
 */
export function scriptedModel(): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "airlock-demo",
    modelId: "scripted-investigator",
    supportedUrls: {},
    async doGenerate(options) {
      const content = next(options);
      const calls = content.some((c) => c.type === "tool-call");
      return {
        content,
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage: USAGE,
        warnings: [],
      };
    },
    async doStream(options) {
      const content = next(options);
      const calls = content.some((c) => c.type === "tool-call");
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      content.forEach((c, i) => {
        if (c.type === "text") {
          const id = `text_${i}`;
          parts.push({ type: "text-start", id });
          for (const delta of deltas(c.text)) parts.push({ type: "text-delta", id, delta });
          parts.push({ type: "text-end", id });
        } else if (c.type === "tool-call") parts.push(c);
      });
      parts.push({
        type: "finish",
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage: USAGE,
      });
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
