/**
 * Runs shaping jobs in a Web Worker. One job at a time: starting a job while another runs, or
 * cancelling, terminates the worker and starts a fresh one (a running `shape()` cannot be
 * interrupted from outside, and a terminated worker frees its memory at once).
 */
import type { Controls, ReadPage, RunData, ShapeResult, Source, WorkerReply } from "./protocol.ts";
// Vite bundles the worker and gives its URL; the URL is then passed through a Trusted Types
// policy, since under `require-trusted-types-for 'script'` `new Worker()` takes only a
// TrustedScriptURL (a plain `new Worker(new URL(…))` would be refused).
import workerUrl from "./worker.ts?worker&url";

interface TrustedTypePolicyLike {
  createScriptURL(url: string): unknown;
}
interface TrustedTypesLike {
  createPolicy(
    name: string,
    rules: { createScriptURL(url: string): string },
  ): TrustedTypePolicyLike;
}

let policy: TrustedTypePolicyLike | undefined;

/** The worker's URL as a TrustedScriptURL where Trusted Types exist; only that one URL passes. */
function trustedWorkerUrl(): string {
  const expected = new URL(workerUrl, import.meta.url).href;
  const tt = (globalThis as { trustedTypes?: TrustedTypesLike }).trustedTypes;
  if (tt === undefined) return expected;
  policy ??= tt.createPolicy("airlock-playground", {
    createScriptURL(url) {
      if (url !== expected) throw new TypeError(`airlock-playground: refused script URL ${url}`);
      return url;
    },
  });
  return policy.createScriptURL(expected) as string;
}

export interface Progress {
  readonly bytes: number;
  readonly total?: number;
}

export class ShapingWorker {
  #worker: Worker | undefined;
  #job = 0;
  #pending: { reject(error: Error): void } | undefined;
  /** Reads in flight: a terminated worker answers none of them. */
  readonly #reads = new Set<(error: Error) => void>();

  /** True while a job runs. */
  get busy(): boolean {
    return this.#pending !== undefined;
  }

  /** Shapes `source` under `controls`; a later `run` or `cancel` rejects this one with "cancelled". */
  run(source: Source, controls: Controls, onProgress: (p: Progress) => void): Promise<ShapeResult> {
    return this.#exclusive<ShapeResult>(
      (job) => ({ type: "shape", job, source, controls }),
      (reply, resolve) => {
        if (reply.type === "progress") {
          onProgress({
            bytes: reply.bytes,
            ...(reply.total !== undefined ? { total: reply.total } : {}),
          });
        } else if (reply.type === "done") resolve(reply.result);
      },
    );
  }

  /**
   * Plays the generated 40-turn run through a session (the run view's data). It is a job like
   * `run`: a later `run`, `play` or `cancel` rejects it with "cancelled".
   */
  play(onTurn: (turn: number) => void): Promise<RunData> {
    return this.#exclusive<RunData>(
      (job) => ({ type: "run", job }),
      (reply, resolve) => {
        if (reply.type === "run-progress") onTurn(reply.turn);
        else if (reply.type === "run-done") resolve(reply.run);
      },
    );
  }

  /**
   * Starts a job that owns the worker (the one a cancel stops): `request` is posted, and each of
   * the job's replies is given to `onReply` until it resolves, or a "failed" reply rejects it.
   */
  #exclusive<T>(
    request: (job: number) => object,
    onReply: (reply: WorkerReply, resolve: (value: T) => void) => void,
  ): Promise<T> {
    if (this.#pending) this.cancel();
    const worker = this.#ensure();
    const job = ++this.#job;
    return new Promise<T>((resolve, reject) => {
      this.#pending = { reject };
      const settle = () => {
        worker.removeEventListener("message", onMessage);
        worker.removeEventListener("error", onError);
        this.#pending = undefined;
      };
      const onMessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        if (reply.job !== job) return;
        if (reply.type === "failed") {
          settle();
          reject(new Error(reply.message));
          return;
        }
        onReply(reply, (value) => {
          settle();
          resolve(value);
        });
      };
      const onError = (event: ErrorEvent) => {
        settle();
        this.#discard();
        reject(new Error(event.message || "the worker failed"));
      };
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", onError);
      worker.postMessage(request(job));
    });
  }

  /**
   * Calls `read_result` in the worker, on the results its store holds. A read never cancels a
   * job (that would lose the store); after a cancel the fresh worker's store is empty, and the
   * read gets the answer a model gets for an expired handle.
   */
  read(args: unknown, controls: Controls): Promise<ReadPage> {
    const worker = this.#ensure();
    const job = ++this.#job;
    return new Promise<ReadPage>((resolve, reject) => {
      const fail = (error: Error) => {
        this.#reads.delete(fail);
        reject(error);
      };
      this.#reads.add(fail);
      const onMessage = (event: MessageEvent<WorkerReply>) => {
        const reply = event.data;
        if (reply.job !== job) return;
        worker.removeEventListener("message", onMessage);
        this.#reads.delete(fail);
        if (reply.type === "read-done") resolve(reply.read);
        else if (reply.type === "failed") reject(new Error(reply.message));
      };
      worker.addEventListener("message", onMessage);
      worker.postMessage({ type: "read", job, args, controls });
    });
  }

  /** Stops the running job, if any: the worker is terminated and the next job gets a new one. */
  cancel(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    this.#discard();
    pending?.reject(new CancelledError());
  }

  #ensure(): Worker {
    this.#worker ??= new Worker(trustedWorkerUrl(), { type: "module", name: "airlock-shaper" });
    return this.#worker;
  }

  #discard(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    for (const fail of [...this.#reads]) fail(new CancelledError());
  }
}

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}
