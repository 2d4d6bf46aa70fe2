/**
 * The runner: stages composed in order, each handed the output of the one before and the run's
 * context (where it records what it found). The order of the pipeline is the list in `shape.ts`,
 * not a chain of nested calls.
 */
import type { RunFacts } from "./facts.js";
import type { Rerun } from "./rerun.js";
import type { InputSample } from "./sample.js";

/** Why a read was stopped by the host: its `abortSignal`, or `timeoutMs`. */
export type StopReason = "aborted" | "timeout";

/**
 * Why a read stopped before its source ended: the host stopped the run, or a command had exited
 * and its pipe stayed open but silent (a background process it started still holds it).
 */
export type ReadStop = StopReason | "exited";

/** How long a command's pipe may stay open and silent once the command has exited. */
export const EXIT_QUIET_MS = 1000;

/**
 * The host's way to stop a run: a signal, and the deadline behind `timeoutMs`. A busy run never
 * lets a timer fire (a source that answers at once is read in microtasks), so the deadline is
 * also checked against the clock at every read; a stalled source is raced against the signal.
 */
export interface Stopper {
  readonly signal: AbortSignal;
  /** Why the signal fired. */
  reason(): StopReason | undefined;
  /** Checks the clock; true once the run must stop. */
  due(): boolean;
  /** Lets go of the timer (the run is over). */
  dispose(): void;
}

export interface RunContext {
  readonly facts: RunFacts;
  /** The host's way to stop the run (`abortSignal`, `timeoutMs`): readers end with what they have. */
  readonly stopper?: Stopper;
  /** Where intake copies the first bytes of each source, for telemetry's "tokens before". */
  readonly sample?: InputSample;
  /** The run is a re-run of an earlier result of its command (a session's `key`). */
  readonly rerun?: Rerun;
}

/** One stage: compiled once from its own slice of the options, run once per result. */
export interface Stage<In, Out> {
  readonly name: string;
  run(input: In, ctx: RunContext): Out | Promise<Out>;
}

/** Stages in order, typed from the first input to the last output. */
export interface Pipeline<In, Out> {
  readonly names: readonly string[];
  pipe<Next>(stage: Stage<Out, Next>): Pipeline<In, Next>;
  run(input: In, ctx: RunContext): Promise<Out>;
}

/**
 * @example
 * const shapeText = pipeline<string>().pipe(upper).pipe(count);
 * await shapeText.run("abc", ctx); // stages run in the order they were added
 */
export function pipeline<In>(): Pipeline<In, In> {
  return build([]);
}

// biome-ignore lint/suspicious/noExplicitAny: the list is typed by the builder, one stage at a time.
type AnyStage = Stage<any, any>;

function build<In, Out>(stages: readonly AnyStage[]): Pipeline<In, Out> {
  return {
    names: stages.map((s) => s.name),
    pipe<Next>(stage: Stage<Out, Next>): Pipeline<In, Next> {
      return build<In, Next>([...stages, stage]);
    },
    async run(input: In, ctx: RunContext): Promise<Out> {
      let value: unknown = input;
      for (const stage of stages) {
        // A stage that answers at once is not awaited: a small result pays no microtask for it.
        const out: unknown = stage.run(value, ctx);
        value = out instanceof Promise ? await out : out;
      }
      return value as Out;
    },
  };
}
