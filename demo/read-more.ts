/**
 * The read-more panel: the `read_result` calls a model would make on the result just shaped
 * (the next page its text names, a line range, a grep, a filter, the evidence), issued to the
 * worker that stored it, and exactly what the model would get back. Everything is written with
 * textContent.
 */
import type { Controls, ReadPage, ShapeResult } from "./protocol.ts";
import type { ShapingWorker } from "./worker-client.ts";

function $<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`playground: ${selector} is missing from index.html`);
  return found;
}

const n = (value: number) => value.toLocaleString("en-US");

export interface ReadMore {
  /** A new result was shaped: its handle (if it was stored) and the call its text names. */
  shaped(result: ShapeResult): void;
  /** Reads are off while a job runs (the worker is busy with it). */
  busy(running: boolean): void;
}

export function createReadMore(worker: ShapingWorker, controls: () => Controls): ReadMore {
  const ui = {
    handle: $<HTMLElement>("#read-handle"),
    next: $<HTMLButtonElement>("#read-next"),
    from: $<HTMLInputElement>("#read-from"),
    to: $<HTMLInputElement>("#read-to"),
    lines: $<HTMLButtonElement>("#read-lines"),
    grep: $<HTMLInputElement>("#read-grep"),
    grepGo: $<HTMLButtonElement>("#read-grep-go"),
    where: $<HTMLInputElement>("#read-where"),
    filter: $<HTMLButtonElement>("#read-filter"),
    evidence: $<HTMLButtonElement>("#read-evidence"),
    call: $<HTMLElement>("#read-call"),
    tokens: $<HTMLElement>("#read-tokens"),
    out: $<HTMLPreElement>("#read-out"),
  };
  let handle: string | undefined;
  let kind: "text" | "records" = "text";
  let next: unknown;
  let running = false;
  let reads = 0;

  const buttons = [ui.next, ui.lines, ui.grepGo, ui.filter, ui.evidence];
  function enable(): void {
    const on = handle !== undefined && !running;
    ui.next.disabled = !on || next === undefined;
    ui.lines.disabled = !on || kind !== "text";
    ui.grepGo.disabled = !on || kind !== "text";
    ui.filter.disabled = !on || kind !== "records";
    ui.evidence.disabled = !on;
  }

  async function call(args: Record<string, unknown>): Promise<void> {
    for (const b of buttons) b.disabled = true;
    ui.call.textContent = `read_result ${JSON.stringify(args)}`;
    let read: ReadPage | undefined;
    try {
      read = await worker.read(args, controls());
    } catch (error) {
      ui.out.textContent = "";
      ui.tokens.textContent = error instanceof Error ? error.message : String(error);
    }
    if (read) {
      const { text, status, meta } = read.page;
      ui.out.textContent = text;
      ui.tokens.textContent = `${n(meta.tokens ?? meta.tokenBound ?? 0)} of ${n(meta.maxTokens)} tokens (${meta.tokenizer}) · ${status} · ${n(read.ms)} ms`;
      ui.tokens.dataset.status = status;
      next = meta.next?.args;
    }
    reads++;
    document.body.dataset.reads = String(reads);
    enable();
  }

  ui.next.addEventListener("click", () => {
    if (next !== undefined) void call(next as Record<string, unknown>);
  });
  ui.lines.addEventListener("click", () => {
    const from = Math.max(1, Math.floor(Number(ui.from.value) || 1));
    const to = Math.floor(Number(ui.to.value));
    void call({ handle, lines: { from, ...(to >= from ? { to } : {}) } });
  });
  ui.grepGo.addEventListener("click", () => void call({ handle, grep: ui.grep.value }));
  ui.evidence.addEventListener("click", () => void call({ handle, evidence: true }));
  ui.filter.addEventListener("click", () => {
    let where: unknown;
    try {
      where = JSON.parse(ui.where.value || "{}");
    } catch {
      ui.call.textContent = "where is not JSON";
      return;
    }
    void call({ handle, where });
  });

  return {
    shaped(result) {
      const meta = result.shaped.meta;
      handle = meta.handle;
      kind = meta.kind === "structured" ? "records" : "text";
      next = meta.next?.args;
      ui.out.textContent = "";
      ui.tokens.textContent = "";
      ui.call.textContent = next !== undefined ? `read_result ${JSON.stringify(next)}` : "";
      ui.handle.textContent =
        handle === undefined
          ? "Nothing to read: this result was not stored (it is binary, or empty)."
          : `Stored as ${handle} (${kind === "records" ? `${n(meta.records?.total ?? 0)} records` : `${n(meta.lines)} lines`})${next === undefined ? "; the model saw all of it" : ""}.`;
      enable();
    },
    busy(value) {
      running = value;
      enable();
    },
  };
}
