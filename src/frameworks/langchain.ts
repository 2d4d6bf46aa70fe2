/**
 * `agent-airlock/langchain`: LangChain.js tools (`@langchain/core` 1) whose results pass
 * through airlock. A wrapped tool answers in `responseFormat: "content_and_artifact"`: the
 * shaped text is the `ToolMessage`'s content (what the model reads), the handle and the facts
 * are its artifact (what the graph state keeps beside it), and the raw output is kept nowhere.
 * A thrown error becomes a `ToolMessage` with `status: "error"` whose content is the safe
 * description, instead of the agent's default `Error: <raw message>`.
 */
import { ToolMessage } from "@langchain/core/messages";
import {
  type DynamicStructuredTool,
  tool as langchainTool,
  type StructuredToolInterface,
  type ToolRunnableConfig,
} from "@langchain/core/tools";
import { AirlockError } from "../errors/airlock-error.js";
import type { Shaped } from "../pipeline/shaped.js";
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

/** The artifact of a wrapped tool's `ToolMessage`: the handle and the facts, never the output. */
export interface AirlockArtifact {
  readonly status: AirlockOutput["status"];
  readonly handle?: string;
  readonly facts: AirlockFacts;
}

type Answer = [string | ToolMessage, AirlockArtifact];
// `tool()`'s overloads are keyed to the schema's kind; a wrapper passes the wrapped tool's own.
type MakeTool = (
  func: (input: unknown, config?: ToolRunnableConfig) => Promise<Answer>,
  fields: Record<string, unknown>,
) => DynamicStructuredTool;
const makeTool = langchainTool as unknown as MakeTool;

/**
 * Wraps one tool, or a list whose calls then share one round budget (`maxRoundTokens`). The
 * wrapped tool has the same name, description and schema.
 *
 * @example
 * import { createAgent } from "langchain";
 * import { withAirlock } from "agent-airlock/langchain";
 * const tools = withAirlock([search, fetchPage], { maxTokens: 2000, maxRoundTokens: 6000 });
 * const agent = createAgent({ model, tools });
 */
export function withAirlock(
  tool: StructuredToolInterface,
  options?: AirlockToolOptions,
): DynamicStructuredTool;
export function withAirlock(
  tools: readonly StructuredToolInterface[],
  options?: AirlockToolOptions,
): DynamicStructuredTool[];
export function withAirlock(
  tools: StructuredToolInterface | readonly StructuredToolInterface[],
  options: AirlockToolOptions = {},
): DynamicStructuredTool | DynamicStructuredTool[] {
  const shaper = createToolShaper(options, "withAirlock");
  return Array.isArray(tools)
    ? tools.map((t: StructuredToolInterface) => wrap(t, shaper))
    : wrap(tools as StructuredToolInterface, shaper);
}

function wrap(inner: StructuredToolInterface, shaper: ToolShaper): DynamicStructuredTool {
  return makeTool(async (input, config) => {
    const shaped = await shaper.run(
      inner.name,
      async () => contentOf(await inner.invoke(input as never, withoutCall(config))),
      stepOf(config),
    );
    return answer(shaped, inner.name, config);
  }, fieldsOf(inner));
}

/** The wrapped tool's fields: the inner tool's name, description and schema, with an artifact. */
function fieldsOf(inner: StructuredToolInterface): Record<string, unknown> {
  return {
    name: inner.name,
    description: inner.description,
    schema: inner.schema,
    responseFormat: "content_and_artifact",
    returnDirect: inner.returnDirect,
  };
}

/**
 * The wrapped tool is called without the tool call, so it answers with its raw output (with the
 * call it would answer with a `ToolMessage` of its own).
 */
function withoutCall(config: ToolRunnableConfig | undefined): ToolRunnableConfig | undefined {
  if (config === undefined) return undefined;
  const { toolCall: _call, ...rest } = config as ToolRunnableConfig & { toolCallId?: string };
  delete (rest as { toolCallId?: string }).toolCallId;
  return rest;
}

/** What a tool that answers with a `ToolMessage` of its own said. */
function contentOf(output: unknown): unknown {
  return ToolMessage.isInstance(output) ? output.content : output;
}

/**
 * The step a call belongs to. LangGraph gives every task of one superstep of one run the same
 * abort-signal record (`configurable.__pregel_abort_signals`, checked at the pinned version),
 * and a new one per step; without it the calls are shaped one by one.
 */
function stepOf(config: ToolRunnableConfig | undefined): object | undefined {
  const signals: unknown = config?.configurable?.__pregel_abort_signals;
  return typeof signals === "object" && signals !== null ? signals : undefined;
}

function answer(shaped: Shaped, name: string, config: ToolRunnableConfig | undefined): Answer {
  const out = outputOf(shaped);
  const artifact: AirlockArtifact = {
    status: out.status,
    ...(out.handle !== undefined ? { handle: out.handle } : {}),
    facts: out.facts,
  };
  const id = config?.toolCall?.id;
  if (out.status !== "error" || id === undefined) return [out.text, artifact];
  // A ToolMessage of its own is passed through as it is: the only way to say `status: "error"`.
  const message = new ToolMessage({
    status: "error",
    content: out.text,
    artifact,
    tool_call_id: id,
    name,
  });
  return [message, artifact];
}

/** A `createAgent` middleware (the object `createMiddleware` makes): it rewrites each model call's messages. */
export interface SessionMiddleware {
  readonly name: string;
  readonly wrapModelCall: <R extends { readonly messages: readonly unknown[] }, T>(
    request: R,
    handler: (request: R) => T,
  ) => T;
}

/** What `withSession` gives: the tools, and the middleware for `createAgent`. */
export interface SessionTools {
  readonly tools: DynamicStructuredTool[];
  readonly middleware: SessionMiddleware;
}

/**
 * Tools whose every result a session records (under the tool call's id), and the `createAgent`
 * middleware that rewrites the earlier `ToolMessage`s of each model call from the session's view
 * (in place of `contextEditingMiddleware`, which deletes them), so the run's tool output stays
 * within `maxRunTokens` (docs/session.md). A thrown error is shaped as `withAirlock` shapes it
 * and is not recorded.
 *
 * @example
 * const session = createSession({ maxRunTokens: 32_000, maxTokens: 4000, store });
 * const { tools, middleware } = withSession([bash, readFile], session);
 * const agent = createAgent({ model, tools, middleware: [middleware] });
 */
export function withSession(
  tools: readonly StructuredToolInterface[],
  session: Session,
  options?: SessionHookOptions,
): SessionTools {
  if (typeof session?.shape !== "function" || typeof session?.view !== "function") {
    throw new AirlockError("options/invalid", "withSession: session must be createSession()'s");
  }
  const hook = checkHookOptions(options);
  const wrapped = tools.map((inner) =>
    makeTool(async (input, config) => {
      let output: unknown;
      try {
        output = contentOf(await inner.invoke(input as never, withoutCall(config)));
      } catch (error) {
        return answer(await shapeError(error, { tool: inner.name }), inner.name, config);
      }
      const id = config?.toolCall?.id;
      const shaped = await recordIn(
        session,
        output,
        id,
        inner.name,
        hookKey(hook, inner.name, input),
      );
      return answer(shaped, inner.name, config);
    }, fieldsOf(inner)),
  );
  const middleware: SessionMiddleware = {
    name: "AirlockSession",
    wrapModelCall: (request, handler) => {
      const texts = new Map(session.view().map((e) => [e.callId, e.text]));
      const messages = request.messages.map((m) => {
        if (!ToolMessage.isInstance(m)) return m;
        const text = texts.get(m.tool_call_id);
        if (text === undefined || m.content === text) return m;
        // Every field the message had, with the view's text.
        return new ToolMessage({
          content: text,
          tool_call_id: m.tool_call_id,
          ...(m.name !== undefined ? { name: m.name } : {}),
          ...(m.status !== undefined ? { status: m.status } : {}),
          ...(m.id !== undefined ? { id: m.id } : {}),
          ...(m.metadata !== undefined ? { metadata: m.metadata } : {}),
          artifact: m.artifact,
          additional_kwargs: m.additional_kwargs,
          response_metadata: m.response_metadata,
        });
      });
      return handler({ ...request, messages });
    },
  };
  return { tools: wrapped, middleware };
}

/** Options of `readResultTool`: the reader's, and whether to send the strict schema. */
export interface ReadResultToolOptions extends ResultReaderOptions {
  /** Use OpenAI's strict-mode schema (for `ChatOpenAI` with `strict: true`). Default false. */
  readonly strict?: boolean;
}

/**
 * `read_result` as a LangChain tool over the store the wrapped tools keep their results in,
 * answering in the same content-and-artifact form.
 *
 * @example
 * const store = createMemoryStore();
 * const tools = [...withAirlock([search], { store }), readResultTool({ store })];
 */
export function readResultTool(options: ReadResultToolOptions): DynamicStructuredTool {
  const { strict = false, ...readerOptions } = options;
  const read = createResultReader(readerOptions);
  const definition = strict ? READ_RESULT_TOOL_STRICT : READ_RESULT_TOOL;
  return makeTool(async (args, config) => answer(await read(args), definition.name, config), {
    name: definition.name,
    description: definition.description,
    schema: definition.inputSchema,
    responseFormat: "content_and_artifact",
  });
}
