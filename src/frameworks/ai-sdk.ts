/**
 * `agent-airlock/ai-sdk`: tools of the Vercel AI SDK (`ai` 6) whose results pass through
 * airlock. The SDK sends a tool's output to the model through `toModelOutput`, keeps it in
 * `result.steps`, and streams it to the UI; and a thrown error skips `toModelOutput` and
 * reaches the model as its raw message. A wrapped tool shapes inside `execute`, so what the SDK
 * keeps and streams is the shaped record (`AirlockOutput`) and never the raw output, a thrown
 * error becomes a safe `error-text` output, and `toModelOutput` maps the status onto the
 * SDK's output form.
 */
import {
  type InferToolInput,
  jsonSchema,
  type ModelMessage,
  type Tool,
  type ToolExecutionOptions,
} from "ai";
import { AirlockError } from "../errors/airlock-error.js";
import { createResultReader, type ResultReaderOptions } from "../reader.js";
import { shapeError } from "../shape-error.js";
import type { Session } from "../shape-session.js";
import { READ_RESULT_TOOL, READ_RESULT_TOOL_STRICT } from "../store/tool.js";
import {
  type AirlockFacts,
  type AirlockOutput,
  type AirlockToolOptions,
  checkHookOptions,
  createToolShaper,
  hookKey,
  outputOf,
  recordIn,
  type SessionHookOptions,
  type ToolShaper,
} from "./tool-shaper.js";

export type { AirlockFacts, AirlockOutput, AirlockToolOptions, SessionHookOptions };

// biome-ignore lint/suspicious/noExplicitAny: a tool's input type is the host's own schema's.
type AnyTool = Tool<any, any>;
type ModelOutput = Awaited<ReturnType<NonNullable<AnyTool["toModelOutput"]>>>;

/** A wrapped tool: the same input, and `AirlockOutput` as its output. */
export type AirlockTool<T extends AnyTool> = Tool<InferToolInput<T>, AirlockOutput>;
export type AirlockTools<S extends Record<string, AnyTool>> = { [K in keyof S]: AirlockTool<S[K]> };

/**
 * Wraps one tool, or a tool set whose calls then share one round budget (`maxRoundTokens`):
 * `execute` shapes the output (or the error it threw) and returns `AirlockOutput`, and
 * `toModelOutput` gives the model its text (`text`, or `error-text` when the tool failed).
 * The tool's own `toModelOutput` and `outputSchema` describe its raw output and are dropped; a
 * tool without `execute` (a client-side tool) is returned as it is.
 *
 * @example
 * import { generateText, tool } from "ai";
 * import { withAirlock } from "agent-airlock/ai-sdk";
 * const tools = withAirlock({ search, fetchPage }, { maxTokens: 2000, maxRoundTokens: 6000 });
 * const result = await generateText({ model, tools, prompt });
 */
export function withAirlock<T extends AnyTool>(
  tool: T,
  options?: AirlockToolOptions,
): AirlockTool<T>;
export function withAirlock<S extends Record<string, AnyTool>>(
  tools: S,
  options?: AirlockToolOptions,
): AirlockTools<S>;
export function withAirlock(
  tools: AnyTool | Record<string, AnyTool>,
  options: AirlockToolOptions = {},
): AnyTool | Record<string, AnyTool> {
  const shaper = createToolShaper(options, "withAirlock");
  if (isTool(tools)) return wrap(tools, undefined, shaper);
  const wrapped: Record<string, AnyTool> = {};
  for (const [name, tool] of Object.entries(tools)) wrapped[name] = wrap(tool, name, shaper);
  return wrapped;
}

function isTool(value: unknown): value is AnyTool {
  return typeof value === "object" && value !== null && "inputSchema" in value;
}

function wrap(tool: AnyTool, name: string | undefined, shaper: ToolShaper): AnyTool {
  const execute = tool.execute;
  if (typeof execute !== "function") return tool;
  const { toModelOutput: _raw, outputSchema: _schema, ...rest } = tool;
  return {
    ...rest,
    execute: async (input: unknown, call: ToolExecutionOptions): Promise<AirlockOutput> =>
      outputOf(
        await shaper.run(
          name,
          () => finalOutput(execute.call(tool, input, call)),
          // The SDK hands every call of a step the same messages array, and a new one per step.
          Array.isArray(call?.messages) ? call.messages : undefined,
        ),
      ),
    toModelOutput: ({ output }: { output: unknown }) => modelOutput(output),
  } as AnyTool;
}

/** What `withSession` gives: the tools, and the `prepareStep` for `generateText` or `streamText`. */
export interface SessionTools<S extends Record<string, AnyTool>> {
  readonly tools: AirlockTools<S>;
  /** Sends the model the session's view of every earlier tool result (by tool call id). */
  readonly prepareStep: (step: { readonly messages: ModelMessage[] }) => {
    messages: ModelMessage[];
  };
}

/**
 * Tools whose every result a session records (under the SDK's tool call id), and the
 * `prepareStep` that rewrites the earlier tool results of each step's messages from the
 * session's view, so the run's tool output stays within `maxRunTokens` (docs/session.md). A
 * thrown error is shaped as `withAirlock` shapes it, an `error-text` of a few dozen tokens,
 * and is not recorded.
 *
 * @example
 * const session = createSession({ maxRunTokens: 32_000, maxTokens: 4000, store });
 * const { tools, prepareStep } = withSession({ bash, readFile }, session);
 * await generateText({ model, tools, prepareStep, stopWhen: stepCountIs(40), prompt });
 */
export function withSession<S extends Record<string, AnyTool>>(
  tools: S,
  session: Session,
  options?: SessionHookOptions,
): SessionTools<S> {
  if (typeof session?.shape !== "function" || typeof session?.apply !== "function") {
    throw new AirlockError("options/invalid", "withSession: session must be createSession()'s");
  }
  const hook = checkHookOptions(options);
  const wrapped: Record<string, AnyTool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (typeof execute !== "function") {
      wrapped[name] = tool;
      continue;
    }
    const { toModelOutput: _raw, outputSchema: _schema, ...rest } = tool;
    wrapped[name] = {
      ...rest,
      execute: async (input: unknown, call: ToolExecutionOptions): Promise<AirlockOutput> => {
        let output: unknown;
        try {
          output = await finalOutput(execute.call(tool, input, call));
        } catch (error) {
          return outputOf(await shapeError(error, { tool: name }));
        }
        const shaped = await recordIn(
          session,
          output,
          call?.toolCallId,
          name,
          hookKey(hook, name, input),
        );
        return outputOf(shaped);
      },
      toModelOutput: ({ output }: { output: unknown }) => modelOutput(output),
    } as AnyTool;
  }
  return {
    tools: wrapped as AirlockTools<S>,
    prepareStep: ({ messages }) => ({ messages: session.apply(messages) }),
  };
}

/**
 * A streaming `execute` yields preliminary outputs, then its last one is final (as the SDK reads
 * it); only the final one is shaped, so no preliminary raw output reaches the UI stream.
 */
async function finalOutput(result: unknown): Promise<unknown> {
  if (result !== null && typeof result === "object" && Symbol.asyncIterator in result) {
    let last: unknown;
    for await (const output of result as AsyncIterable<unknown>) last = output;
    return last;
  }
  return result;
}

/**
 * The model's input for an `AirlockOutput`: its text, as an error when the tool failed. Any
 * other value (a UI message saved before the tool was wrapped) is refused as an error, not sent.
 *
 * @example
 * modelOutput({ status: "error", text: "Tool error (tool/unavailable): …", facts });
 * // { type: "error-text", value: "Tool error (tool/unavailable): …" }
 */
export function modelOutput(output: unknown): ModelOutput {
  const text = (output as Partial<AirlockOutput> | null)?.text;
  if (typeof text !== "string") {
    return { type: "error-text", value: "[airlock: this tool output was not shaped]" };
  }
  return (output as AirlockOutput).status === "error"
    ? { type: "error-text", value: text }
    : { type: "text", value: text };
}

/** Options of `readResultTool`: the reader's, and whether to send the strict schema. */
export interface ReadResultToolOptions extends ResultReaderOptions {
  /** Send OpenAI's strict-mode schema (`strict: true` on the tool). Default false. */
  readonly strict?: boolean;
}

/**
 * `read_result` as an AI SDK tool over the store the wrapped tools keep their results in: the
 * model reads what a shortened result left out (pages, lines, greps, the evidence).
 *
 * @example
 * const store = createMemoryStore();
 * const tools = { ...withAirlock({ search }, { store }), read_result: readResultTool({ store }) };
 */
export function readResultTool(options: ReadResultToolOptions): Tool<unknown, AirlockOutput> {
  const { strict = false, ...readerOptions } = options;
  const read = createResultReader(readerOptions);
  const definition = strict ? READ_RESULT_TOOL_STRICT : READ_RESULT_TOOL;
  return {
    description: definition.description,
    // The reader checks every argument itself: the schema is what the model is shown.
    inputSchema: jsonSchema(definition.inputSchema as unknown as Parameters<typeof jsonSchema>[0]),
    ...(strict ? { strict: true } : {}),
    execute: async (args: unknown) => outputOf(await read(args)),
    toModelOutput: ({ output }: { output: unknown }) => modelOutput(output),
  } as Tool<unknown, AirlockOutput>;
}
