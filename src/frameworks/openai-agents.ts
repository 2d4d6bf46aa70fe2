/**
 * `agent-airlock/openai-agents`: function tools of the OpenAI Agents SDK
 * (`@openai/agents-core` 0.20, what `@openai/agents` re-exports) whose results pass through
 * airlock. A function tool's `invoke` returns what the model reads; a wrapped one returns the
 * shaped text, so the run's items keep that and never the raw output. Its error formatter
 * (`errorFunction`) is built on error shaping: no stack, path or internal host reaches the model.
 * `read_result` is shipped with the strict-mode schema the SDK defaults tools to.
 */
import {
  tool as agentsTool,
  type FunctionTool,
  type RunContext,
  type ToolInputParameters,
  type ToolOptions,
} from "@openai/agents-core";
import { AirlockError } from "../errors/airlock-error.js";
import { compileOptions } from "../options/compile.js";
import { createResultReader, type ResultReaderOptions } from "../reader.js";
import { type ShapeErrorOptions, shapeError } from "../shape-error.js";
import type { Session } from "../shape-session.js";
import { READ_RESULT_TOOL_STRICT } from "../store/tool.js";
import {
  type AirlockToolOptions,
  checkHookOptions,
  createToolShaper,
  hookKey,
  recordIn,
  type SessionHookOptions,
  type ToolShaper,
} from "./tool-shaper.js";

export type { AirlockToolOptions, SessionHookOptions };

// biome-ignore lint/suspicious/noExplicitAny: the tool's context and parameters are the host's.
type AnyFunctionTool = FunctionTool<any, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type AnyToolOptions = ToolOptions<ToolInputParameters, any, undefined>;
// `tool()`'s overloads are keyed to the kind of `parameters`; a wrapper passes the host's own.
const makeTool = agentsTool as unknown as (options: AnyToolOptions) => AnyFunctionTool;

/**
 * Wraps a function tool, the options of one (`tool()`'s), or a list of either, whose calls then
 * share one round budget (`maxRoundTokens`). Given the options, airlock builds the tool with
 * `errorFunction: null` so that a thrown error reaches error shaping; given a tool, its own
 * `errorFunction` has already answered for a thrown error unless it was built with
 * `errorFunction: null`. A tool with an `outputSchema` is refused: its output is structured,
 * and airlock's is text.
 *
 * @example
 * import { Agent, run, tool } from "@openai/agents";
 * import { withAirlock } from "agent-airlock/openai-agents";
 * const search = withAirlock({ name: "search", description, parameters, execute }, { maxTokens: 2000 });
 * const agent = new Agent({ name: "researcher", tools: [search] });
 */
export function withAirlock(
  tool: AnyFunctionTool | AnyToolOptions,
  options?: AirlockToolOptions,
): AnyFunctionTool;
export function withAirlock(
  tools: ReadonlyArray<AnyFunctionTool | AnyToolOptions>,
  options?: AirlockToolOptions,
): AnyFunctionTool[];
export function withAirlock(
  tools: AnyFunctionTool | AnyToolOptions | ReadonlyArray<AnyFunctionTool | AnyToolOptions>,
  options: AirlockToolOptions = {},
): AnyFunctionTool | AnyFunctionTool[] {
  const shaper = createToolShaper(options, "withAirlock");
  return Array.isArray(tools)
    ? tools.map((t: AnyFunctionTool | AnyToolOptions) => wrap(t, shaper))
    : wrap(tools as AnyFunctionTool | AnyToolOptions, shaper);
}

/** The function tool a wrapper runs: a tool as given, or one made from its options. */
function functionTool(given: AnyFunctionTool | AnyToolOptions, where: string): AnyFunctionTool {
  const inner: AnyFunctionTool =
    "invoke" in given && typeof given.invoke === "function"
      ? given
      : makeTool({ ...(given as AnyToolOptions), errorFunction: null });
  if (inner.type !== "function") {
    throw new AirlockError("options/invalid", `${where}: only function tools can be wrapped`);
  }
  if (inner.outputSchema !== undefined) {
    throw new AirlockError(
      "options/invalid",
      `${where}: tool "${inner.name}" has an outputSchema; its output is structured, and a shaped result is text`,
    );
  }
  return inner;
}

function wrap(given: AnyFunctionTool | AnyToolOptions, shaper: ToolShaper): AnyFunctionTool {
  const inner = functionTool(given, "withAirlock");
  return {
    ...inner,
    // The run context is the run's, and its steps run one after another: the calls that arrive
    // together under it are the parallel calls of one step.
    invoke: async (runContext: RunContext, input: string, details?: unknown) =>
      (
        await shaper.run(
          inner.name,
          () => inner.invoke(runContext, input, details as never),
          runContext,
        )
      ).text,
  };
}

/** The model's input as `callModelInputFilter` receives and returns it. */
interface ModelData {
  readonly input: unknown[];
  readonly instructions?: string;
}

/** What `withSession` gives: the tools, and the `callModelInputFilter` for the `Runner`. */
export interface SessionTools {
  readonly tools: AnyFunctionTool[];
  /** Sends the model the session's view of every earlier tool result (by call id). */
  readonly callModelInputFilter: <T extends { readonly modelData: ModelData }>(
    args: T,
  ) => T["modelData"];
}

/** The model's arguments as the SDK hands them over (JSON text), parsed when they parse. */
function argumentsOf(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * Function tools whose every result a session records (under the call's id), and the
 * `callModelInputFilter` that rewrites the earlier `function_call_result` items of each model
 * call from the session's view, so the run's tool output stays within `maxRunTokens`
 * (docs/session.md). A thrown error is shaped as `withAirlock` shapes it and is not recorded.
 *
 * @example
 * const session = createSession({ maxRunTokens: 32_000, maxTokens: 4000, store });
 * const { tools, callModelInputFilter } = withSession([bash, readFile], session);
 * await new Runner({ callModelInputFilter }).run(new Agent({ name, model, tools }), prompt);
 */
export function withSession(
  tools: ReadonlyArray<AnyFunctionTool | AnyToolOptions>,
  session: Session,
  options?: SessionHookOptions,
): SessionTools {
  if (typeof session?.shape !== "function" || typeof session?.apply !== "function") {
    throw new AirlockError("options/invalid", "withSession: session must be createSession()'s");
  }
  const hook = checkHookOptions(options);
  const wrapped = tools.map((given): AnyFunctionTool => {
    const inner = functionTool(given, "withSession");
    return {
      ...inner,
      invoke: async (runContext: RunContext, input: string, details?: unknown) => {
        let output: unknown;
        try {
          output = await inner.invoke(runContext, input, details as never);
        } catch (error) {
          return (await shapeError(error, { tool: inner.name })).text;
        }
        const call = (details as { toolCall?: { callId?: unknown } } | undefined)?.toolCall;
        const callId = typeof call?.callId === "string" ? call.callId : undefined;
        return (
          await recordIn(
            session,
            output,
            callId,
            inner.name,
            hookKey(hook, inner.name, argumentsOf(input)),
          )
        ).text;
      },
    };
  });
  return {
    tools: wrapped,
    callModelInputFilter: ({ modelData }) => ({
      ...modelData,
      input: session.apply(modelData.input),
    }),
  };
}

/**
 * An `errorFunction` for `tool()` built on error shaping: the model reads the error's code, a
 * scrubbed message and whether retrying may help, fenced, within `maxTokens`.
 *
 * @example
 * const lookup = tool({ name: "lookup", description, parameters, execute, errorFunction: errorFunction({ maxTokens: 200 }) });
 */
export function errorFunction(
  options: ShapeErrorOptions = {},
): (context: RunContext, error: unknown) => Promise<string> {
  // Checked once now, as every options object is (a misspelt option is refused).
  const { kind: _kind, code: _code, maxMessageLength: _max, ...shapeOptions } = options;
  compileOptions(shapeOptions);
  return async function formatToolError(_context: RunContext, error: unknown): Promise<string> {
    return (await shapeError(error, options)).text;
  };
}

/**
 * `read_result` as a function tool in strict mode (every property required, `null` where it is
 * optional), over the store the wrapped tools keep their results in.
 *
 * @example
 * const store = createMemoryStore();
 * const agent = new Agent({ name: "a", tools: [...withAirlock([search], { store }), readResultTool({ store })] });
 */
export function readResultTool(options: ResultReaderOptions): AnyFunctionTool {
  const read = createResultReader(options);
  return makeTool({
    name: READ_RESULT_TOOL_STRICT.name,
    description: READ_RESULT_TOOL_STRICT.description,
    parameters: READ_RESULT_TOOL_STRICT.inputSchema as unknown as AnyToolOptions["parameters"],
    strict: true,
    // The reader answers a wrong argument or an expired handle itself, as an error result.
    execute: async (args: unknown) => (await read(args)).text,
  } as AnyToolOptions);
}
