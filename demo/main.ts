/**
 * The playground page: reads the controls, sends the input to the shaping worker, and shows the
 * result. Tool output is only ever written with textContent; the safe preview is the one piece
 * of HTML, and it comes from `renderPreview` through the Trusted Types policy (see views.ts).
 */
import type { TokenizerName } from "agent-airlock";
import { catalog } from "./catalog.ts";
import { renderCutMap } from "./cut-map.ts";
import type { Controls, Source } from "./protocol.ts";
import { createReadMore } from "./read-more.ts";
import { createRunPanel } from "./run-panel.ts";
import {
  renderAdapters,
  renderOutput,
  renderRemoved,
  renderSafePreview,
  renderStats,
  type Views,
} from "./views.ts";
import { CancelledError, type Progress, ShapingWorker } from "./worker-client.ts";

function $<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`playground: ${selector} is missing from index.html`);
  return found;
}

const ui = {
  sample: $<HTMLSelectElement>("#sample"),
  file: $<HTMLInputElement>("#file"),
  paste: $<HTMLTextAreaElement>("#paste"),
  shapePaste: $<HTMLButtonElement>("#shape-paste"),
  budget: $<HTMLInputElement>("#budget"),
  tokenizer: $<HTMLSelectElement>("#tokenizer"),
  maxBytes: $<HTMLInputElement>("#max-bytes"),
  redact: $<HTMLInputElement>("#redact"),
  untrusted: $<HTMLInputElement>("#untrusted"),
  spotlight: $<HTMLSelectElement>("#spotlight"),
  contentType: $<HTMLSelectElement>("#content-type"),
  format: $<HTMLSelectElement>("#format"),
  fields: $<HTMLInputElement>("#fields"),
  tool: $<HTMLInputElement>("#tool"),
  progress: $<HTMLProgressElement>("#progress"),
  status: $<HTMLElement>("#status"),
  cancel: $<HTMLButtonElement>("#cancel"),
  cutMap: $<HTMLElement>("#cut-map"),
};

const views: Views = {
  output: $<HTMLPreElement>("#out"),
  tokens: $<HTMLElement>("#tokens"),
  ceiling: $<HTMLElement>("#ceiling"),
  stats: $<HTMLTableSectionElement>("#stats"),
  removed: $<HTMLUListElement>("#removed"),
  preview: $<HTMLElement>("#preview"),
  adapters: $<HTMLElement>("#adapters"),
};

const MIB = 1024 * 1024;
const worker = new ShapingWorker();
let source: Source = { kind: "sample", id: catalog[0]?.id ?? "app-log" };
let runs = 0;
const readMore = createReadMore(worker, () => controls());

function controls(): Controls {
  const whole = (input: HTMLInputElement, fallback: number, min: number) => {
    const value = Math.floor(Number(input.value));
    return Number.isFinite(value) && value >= min ? value : fallback;
  };
  return {
    // MIN_MAX_TOKENS: the smallest budget the library takes.
    maxTokens: whole(ui.budget, 600, 16),
    maxBytes: whole(ui.maxBytes, 256, 1) * MIB,
    tokenizer: ui.tokenizer.value as TokenizerName,
    redact: ui.redact.checked,
    untrusted: ui.untrusted.checked,
    spotlight: ui.spotlight.value as Controls["spotlight"],
    contentType: ui.contentType.value,
    format: ui.format.value as Controls["format"],
    fields: ui.fields.value,
    tool: ui.tool.value.trim(),
  };
}

function describe(s: Source): string {
  if (s.kind === "sample") return catalog.find((c) => c.id === s.id)?.title ?? s.id;
  if (s.kind === "text") return `pasted text (${s.text.length.toLocaleString("en-US")} characters)`;
  return `${s.file.name} (${s.file.size.toLocaleString("en-US")} bytes)`;
}

function setStatus(state: "running" | "done" | "failed" | "cancelled", text: string) {
  ui.status.dataset.state = state;
  ui.status.textContent = text;
  ui.cancel.disabled = state !== "running";
}

function showProgress(p: Progress) {
  const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
  if (p.total) {
    ui.progress.max = p.total;
    ui.progress.value = Math.min(p.bytes, p.total);
    setStatus("running", `reading ${mib(p.bytes)} of ${mib(p.total)}…`);
  } else {
    ui.progress.removeAttribute("value");
    setStatus("running", `reading ${mib(p.bytes)}…`);
  }
}

async function run(): Promise<void> {
  const label = describe(source);
  ui.progress.removeAttribute("value");
  setStatus("running", `shaping ${label}…`);
  readMore.busy(true);
  try {
    const result = await worker.run(source, controls(), showProgress);
    readMore.shaped(result);
    readMore.busy(false);
    renderOutput(views, result);
    renderCutMap(ui.cutMap, result);
    renderStats(views, result);
    renderRemoved(views, result);
    renderSafePreview(views, result);
    renderAdapters(views, result);
    ui.progress.max = 1;
    ui.progress.value = 1;
    runs++;
    document.body.dataset.runs = String(runs);
    setStatus("done", `${label}: shaped in ${result.ms.toLocaleString("en-US")} ms`);
  } catch (error) {
    if (!worker.busy) readMore.busy(false);
    if (error instanceof CancelledError) {
      // A newer run replaced this one, or the user cancelled: the newer run owns the status.
      if (ui.status.dataset.state === "running" && !worker.busy)
        setStatus("cancelled", "cancelled");
      return;
    }
    runs++;
    document.body.dataset.runs = String(runs);
    setStatus("failed", error instanceof Error ? error.message : String(error));
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
/** Re-shapes after the user pauses typing, so each keystroke does not start a 50 MB job. */
function runSoon(delay = 300) {
  clearTimeout(timer);
  timer = setTimeout(() => void run(), delay);
}

function selectSample(id: string) {
  const info = catalog.find((c) => c.id === id);
  source = { kind: "sample", id };
  ui.fields.value = info?.fields ?? "";
  ui.tool.value = info?.tool ?? "";
  void run();
}

function openFile(file: File) {
  source = { kind: "file", file };
  ui.tool.value = "read_file";
  void run();
}

for (const info of catalog) {
  const option = document.createElement("option");
  option.value = info.id;
  option.textContent = info.title;
  ui.sample.append(option);
}

ui.sample.addEventListener("change", () => selectSample(ui.sample.value));
ui.file.addEventListener("change", () => {
  const file = ui.file.files?.[0];
  if (file) openFile(file);
});
ui.shapePaste.addEventListener("click", () => {
  source = { kind: "text", text: ui.paste.value };
  void run();
});
ui.cancel.addEventListener("click", () => {
  clearTimeout(timer);
  worker.cancel();
  setStatus("cancelled", "cancelled");
});
for (const input of [ui.budget, ui.maxBytes, ui.fields, ui.tool]) {
  input.addEventListener("input", () => runSoon());
}
for (const input of [
  ui.tokenizer,
  ui.redact,
  ui.untrusted,
  ui.spotlight,
  ui.contentType,
  ui.format,
]) {
  input.addEventListener("change", () => runSoon(0));
}

// Drop a file anywhere on the page.
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.body.classList.add("dragging");
});
document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  document.body.classList.remove("dragging");
  const file = event.dataTransfer?.files[0];
  if (file) openFile(file);
});

createRunPanel();
selectSample(ui.sample.value);
