/**
 * The result views. Everything here is written with textContent and DOM APIs; the only HTML
 * assigned is the preview, which `renderPreview` made safe and `toTrustedPreview` hands over as
 * TrustedHTML (the `airlock-preview` policy).
 */
import { renderPreview, toTrustedPreview } from "agent-airlock/preview";
import type { ShapeResult } from "./protocol.ts";

const n = (value: number) => value.toLocaleString("en-US");

/** A table row: its label as a row header, then its cells (text only). */
export function row(label: string, ...cells: string[]): HTMLTableRowElement {
  const tr = document.createElement("tr");
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = label;
  tr.append(th);
  for (const cell of cells) {
    const td = document.createElement("td");
    td.textContent = cell;
    tr.append(td);
  }
  return tr;
}

export interface Views {
  readonly output: HTMLPreElement;
  readonly tokens: HTMLElement;
  readonly ceiling: HTMLElement;
  readonly stats: HTMLTableSectionElement;
  readonly removed: HTMLUListElement;
  readonly preview: HTMLElement;
  readonly adapters: HTMLElement;
}

/** The exact text the model reads, and its count against the budget. */
export function renderOutput(views: Views, result: ShapeResult): void {
  const { text, status, meta } = result.shaped;
  views.output.textContent = text;
  views.tokens.textContent = `${n(meta.tokens ?? meta.tokenBound ?? 0)} of ${n(meta.maxTokens)} tokens (${meta.tokenizer}) · ${status}${meta.truncated ? " · truncated" : ""}`;
  views.tokens.dataset.status = status;
  const c = result.ceiling;
  views.ceiling.textContent = `attacker's ceiling: at most ${n(c.tokens)} tokens of tool-controlled text per call${
    c.frame > 0
      ? ` (the fence takes at least ${n(c.frame)})`
      : c.bounded
        ? " (no fence)"
        : " (own tokenizer: not bounded)"
  }`;
}

/** Before and after: bytes and tokens. */
export function renderStats(views: Views, result: ShapeResult): void {
  const { before, after, ms, shaped } = result;
  const ratio = (a: number, b: number) =>
    b > 0 ? `${Number(((a / b) * 100).toPrecision(2)).toLocaleString("en-US")} %` : "–";
  views.stats.replaceChildren(
    row("bytes", n(before.bytes), n(after.bytes), ratio(after.bytes, before.bytes)),
    row(
      "tokens",
      `${before.exact ? "" : "≈ "}${n(before.tokens)}`,
      n(after.tokens),
      ratio(after.tokens, before.tokens),
    ),
    row(
      "lines",
      n(shaped.meta.lines),
      "",
      shaped.meta.omittedLines ? `${n(shaped.meta.omittedLines)} omitted` : "",
    ),
    row(
      "time",
      `${n(ms)} ms`,
      "",
      before.exact ? "" : "tokens before: estimated from the first 64 KiB",
    ),
  );
}

/** What was taken out on the way: secrets by rule, invisible characters, hidden page text. */
export function renderRemoved(views: Views, result: ShapeResult): void {
  const { meta } = result.shaped;
  const items: string[] = [];
  if (meta.redactions === undefined) items.push("redaction is off");
  else if (meta.redactions.count === 0) items.push("no secrets found");
  else {
    for (const [rule, count] of Object.entries(meta.redactions.rules)) {
      items.push(`secret: ${rule} × ${n(count)}`);
    }
  }
  if (meta.invisible && meta.invisible.count > 0) {
    items.push(`invisible or control characters removed: ${n(meta.invisible.count)}`);
  }
  if (meta.html) {
    for (const [what, count] of Object.entries(meta.html.removed)) {
      if (typeof count === "number" && count > 0) items.push(`page: ${what} ${n(count)}`);
    }
  }
  if (meta.records?.projection) {
    for (const [field, count] of Object.entries(meta.records.projection.fields)) {
      items.push(`field dropped by projection: ${field} × ${n(count)}`);
    }
  }
  if (meta.error) items.push(`error: ${meta.error.code}: ${meta.error.message}`);
  views.removed.replaceChildren(
    ...items.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }),
  );
}

/** The safe preview for a person, as the library renders it. */
export function renderSafePreview(views: Views, result: ShapeResult): void {
  const html = renderPreview(result.shaped as Parameters<typeof renderPreview>[0]);
  views.preview.innerHTML = toTrustedPreview(html) as string;
}

/** The messages each provider's adapter builds, as JSON. */
export function renderAdapters(views: Views, result: ShapeResult): void {
  const parts: Node[] = [];
  for (const [name, message] of Object.entries(result.adapters)) {
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = name;
    const pre = document.createElement("pre");
    pre.className = "json";
    pre.textContent = JSON.stringify(message, null, 2);
    details.append(summary, pre);
    if (parts.length === 0) details.open = true;
    parts.push(details);
  }
  views.adapters.replaceChildren(...parts);
}
