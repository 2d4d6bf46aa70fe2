/**
 * The agent page: a question, the AI SDK's agent loop (`streamText` with tools, `stopWhen` and
 * the session's `prepareStep`), and what happened shown as it happens. The model is the
 * scripted one (offline), or an OpenAI-compatible provider when the page's URL names one
 * (`?provider=<base URL>&model=<id>`) and the person types a key.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { createMemoryStore, createSession, shape, spotlightInstruction } from "agent-airlock";
import { type AirlockOutput, readResultTool, withSession } from "agent-airlock/ai-sdk";
import { type ModelMessage, stepCountIs, streamText, wrapLanguageModel } from "ai";
import { CLEARED, clearToolUses } from "../clear-tool-uses.ts";
import { originOf } from "../csp.ts";
import { drawRunView, type RunPlot } from "../run-view.ts";
import type { RawResult } from "./raw.ts";
import { QUESTION } from "./script.ts";
import { scriptedModel } from "./scripted-model.ts";
import { agentTools } from "./tools.ts";
import { type CallCard, callCard, modelMessage, promptText, userMessage } from "./views.ts";

function $<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`agent: ${selector} is missing from index.html`);
  return found;
}

const ui = {
  mode: $<HTMLElement>("#mode"),
  providerError: $<HTMLElement>("#provider-error"),
  providerSetup: $<HTMLDetailsElement>("#provider-setup"),
  providerUrl: $<HTMLInputElement>("#provider-url"),
  providerModel: $<HTMLInputElement>("#provider-model"),
  providerOpen: $<HTMLButtonElement>("#provider-open"),
  keyField: $<HTMLElement>("#key-field"),
  key: $<HTMLInputElement>("#key"),
  prompt: $<HTMLTextAreaElement>("#prompt"),
  run: $<HTMLButtonElement>("#run"),
  status: $<HTMLElement>("#status"),
  chat: $<HTMLElement>("#chat"),
  sessionStats: $<HTMLElement>("#session-stats"),
  plot: $<HTMLElement>("#agent-plot"),
  step: $<HTMLSelectElement>("#step"),
  modelInput: $<HTMLPreElement>("#model-input"),
};

/** The session's budgets: small, so a short investigation already shows older results graded. */
const SESSION = { maxRunTokens: 2000, maxTokens: 1000, keepRecent: 2 } as const;
const READ_TOKENS = 800;
const MAX_STEPS = 12;

const SYSTEM = [
  "You help an on-call engineer find why something fails in production. Use the tools to look;",
  "do not guess. When a result was cut, its last line names a read_result call that reads what",
  "was left out (a range, a grep, the lines around one): use it instead of calling the tool again.",
  "Answer in a few short paragraphs: the cause, the evidence (quote the lines), what to do.",
  "",
  spotlightInstruction("fence"),
].join("\n");

// ─── The model: scripted, or the provider the URL names ─────────────────────────────────────

const params = new URLSearchParams(location.search);
const provider = params.get("provider") ?? undefined;
const modelId = params.get("model") || "gpt-4.1-mini";

/** The origins this page's policy lets it connect to (its meta tag is the policy it was given). */
function connectable(): string[] {
  const policy =
    document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ??
    "";
  const directive = policy
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find((d) => d[0] === "connect-src");
  return directive?.slice(1) ?? [];
}

/** Why the provider in the URL cannot be used, or undefined when it can (or none is named). */
function providerProblem(): string | undefined {
  if (provider === undefined) return undefined;
  const origin = originOf(provider);
  if (origin === undefined)
    return `The provider URL ${provider} is not one this page opens: it takes https: URLs, and http: on localhost only.`;
  if (!connectable().includes(origin))
    return `This page's Content-Security-Policy does not let it connect to ${origin}. The demo server writes the policy for the provider in the URL; a static host serves the one origin it was built with (AIRLOCK_AGENT_PROVIDER=… npm run demo:build).`;
  return undefined;
}

const problem = providerProblem();
const useProvider = provider !== undefined && problem === undefined;

async function chooseModel(): Promise<LanguageModelV3> {
  if (!useProvider) return scriptedModel();
  const apiKey = ui.key.value.trim();
  if (apiKey === "") throw new Error("Type the provider's API key first.");
  // Loaded only for a real model; the key lives in this closure and the input, nowhere else.
  const { createOpenAI } = await import("@ai-sdk/openai");
  return createOpenAI({ baseURL: provider, apiKey }).chat(modelId);
}

function showMode(): void {
  ui.providerUrl.value = provider ?? ui.providerUrl.value;
  ui.providerModel.value = modelId;
  if (problem !== undefined) {
    ui.providerError.hidden = false;
    ui.providerError.textContent = problem;
    ui.providerSetup.open = true;
  }
  if (useProvider) {
    ui.mode.textContent = `Model: ${modelId} at ${provider} (OpenAI-compatible). This page may connect to ${originOf(provider as string)} and to itself, nothing else.`;
    ui.keyField.hidden = false;
    ui.providerSetup.open = true;
  } else {
    ui.mode.textContent =
      "Model: scripted, offline. It plays one investigation whatever you ask, deciding each step from the tool results in its prompt as a model would.";
  }
}

// ─── A run ──────────────────────────────────────────────────────────────────────────────────

function setState(state: "idle" | "running" | "done" | "failed", text: string): void {
  document.body.dataset.state = state;
  ui.status.dataset.state = state;
  ui.status.textContent = text;
  ui.run.disabled = state === "running";
}

/** One model call of the run, as the session and the model saw it. */
interface Step {
  prompt?: LanguageModelV3Prompt;
  /** Results the session had recorded when the call was made. */
  recorded: number;
}

/** The model calls of the latest run (the step list reads them). */
let lastSteps: Step[] = [];

async function run(): Promise<void> {
  const question = ui.prompt.value.trim() || QUESTION;
  setState("running", "starting…");
  const started = performance.now();
  ui.chat.replaceChildren();
  ui.step.replaceChildren();
  ui.modelInput.textContent = "";
  ui.plot.replaceChildren();
  userMessage(ui.chat, question);

  // The session keeps every result whole (redacted) in its store, for read_result.
  const store = createMemoryStore({ maxChars: 128 << 20 });
  const session = createSession({ ...SESSION, store, storeMaxChars: 96 << 20 });
  const raws = new Map<string, RawResult>();
  const { tools, prepareStep } = withSession(agentTools(raws), session);
  const steps: Step[] = [];
  lastSteps = steps;
  /** Each recorded result's tokens as shaped, in call order (for "delete old results"). */
  const shapedTokens: number[] = [];

  const model = wrapLanguageModel({
    model: await chooseModel(),
    middleware: {
      specificationVersion: "v3",
      // Keeps what each call is sent (after prepareStep): the page shows it as is.
      transformParams: async ({ params }) => {
        const step = steps.at(-1);
        if (step !== undefined) step.prompt = params.prompt;
        return params;
      },
    },
  });

  const result = streamText({
    model,
    system: SYSTEM,
    prompt: question,
    tools: { ...tools, read_result: readResultTool({ store, maxTokens: READ_TOKENS }) },
    stopWhen: stepCountIs(MAX_STEPS),
    prepareStep: ({ messages }: { messages: ModelMessage[] }) => {
      const prepared = prepareStep({ messages });
      const s = session.stats();
      steps.push({ recorded: s.levels.full + s.levels.evidence + s.levels.line + s.levels.folded });
      return prepared;
    },
  });

  const cards = new Map<string, CallCard>();
  let words = modelMessage(ui.chat);
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "start-step":
        words = modelMessage(ui.chat);
        setState("running", `step ${steps.length}: the model is thinking…`);
        break;
      case "text-delta":
        words.add(part.text);
        break;
      case "tool-call":
        cards.set(
          part.toolCallId,
          callCard(ui.chat, { id: part.toolCallId, name: part.toolName, args: part.input }),
        );
        setState("running", `step ${steps.length}: ${part.toolName}…`);
        break;
      case "tool-result": {
        const output = part.output as AirlockOutput;
        if (part.toolName !== "read_result") shapedTokens.push(output.facts.tokens);
        cards.get(part.toolCallId)?.done(output, raws.get(part.toolCallId));
        break;
      }
      case "tool-error":
        cards.get(part.toolCallId)?.failed(String(part.error));
        break;
      case "finish-step":
        showSession(session.stats(), steps, shapedTokens);
        break;
      case "error":
        throw part.error;
    }
  }
  showSession(session.stats(), steps, shapedTokens);
  await showPlot(session.stats(), steps, shapedTokens);
  document.body.dataset.steps = String(steps.length);
  setState(
    "done",
    `done: ${steps.length} model calls in ${Math.round(performance.now() - started).toLocaleString("en-US")} ms`,
  );
}

function showSession(
  stats: ReturnType<ReturnType<typeof createSession>["stats"]>,
  steps: readonly Step[],
  shapedTokens: readonly number[],
): void {
  const n = (v: number) => v.toLocaleString("en-US");
  ui.sessionStats.textContent = `${n(stats.tokens)} of ${n(stats.maxRunTokens)} tokens of tool results in the next call; ${shapedTokens.length} results: full ${stats.levels.full}, evidence ${stats.levels.evidence}, line ${stats.levels.line}, folded ${stats.levels.folded}`;
  // One entry per model call made so far, to read what it was sent.
  steps.forEach((step, i) => {
    if (ui.step.options[i] !== undefined || step.prompt === undefined) return;
    const option = document.createElement("option");
    option.value = String(i);
    option.textContent = `step ${i + 1}: ${n(stats.views[i]?.tokens ?? 0)} tokens of tool results`;
    ui.step.append(option);
    ui.step.value = String(i);
    showStep(steps, i);
  });
}

function showStep(steps: readonly Step[], i: number): void {
  const prompt = steps[i]?.prompt;
  ui.modelInput.textContent = prompt === undefined ? "" : promptText(prompt);
  ui.modelInput.dataset.step = String(i + 1);
}

/** The run view of this run: one point per model call. */
async function showPlot(
  stats: ReturnType<ReturnType<typeof createSession>["stats"]>,
  steps: readonly Step[],
  shapedTokens: readonly number[],
): Promise<void> {
  const placeholder = await shape(CLEARED, { untrusted: false, redact: false, maxTokens: 64 });
  const clear = clearToolUses(
    shapedTokens,
    steps.map((s) => s.recorded),
    {
      ceiling: SESSION.maxRunTokens,
      keep: SESSION.keepRecent,
      clearAtLeast: SESSION.maxRunTokens / 4,
      placeholderTokens: placeholder.meta.tokens ?? 0,
    },
  );
  const plot: RunPlot = {
    ceiling: SESSION.maxRunTokens,
    unit: "step",
    points: steps.map((_, i) => ({
      session: stats.views[i]?.tokens ?? 0,
      sessionChanged: stats.views[i]?.prefixChanged ?? false,
      clear: clear[i]?.tokens ?? 0,
      clearChanged: clear[i]?.changed ?? false,
    })),
  };
  drawRunView(ui.plot, plot, (i) => {
    ui.step.value = String(i);
    showStep(steps, i);
  });
}

/**
 * Wires the page: the provider form, the run button, the step list; shows which model is in
 * use; and starts a run at once when the URL says `?autorun` (the scripted model only: a real
 * one waits for its key).
 *
 * @example
 * startAgentPage();
 */
export function startAgentPage(): void {
  ui.providerOpen.addEventListener("click", () => {
    const target = new URL(location.href);
    target.search = "";
    target.searchParams.set("provider", ui.providerUrl.value.trim());
    target.searchParams.set("model", ui.providerModel.value.trim() || "gpt-4.1-mini");
    location.assign(target.href);
  });

  ui.step.addEventListener("change", () => showStep(lastSteps, Number(ui.step.value)));

  ui.run.addEventListener("click", () => {
    run().catch((error: unknown) => {
      setState("failed", error instanceof Error ? error.message : String(error));
    });
  });

  ui.prompt.value = QUESTION;
  showMode();
  // Scripts and tests wait for this before they drive the page.
  document.body.dataset.ready = "true";
  if (params.has("autorun") && !useProvider) ui.run.click();
}
