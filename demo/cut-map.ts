/**
 * The cut map: one bar per source of the input (text, or a command's stdout and stderr), the
 * whole original from its first line to its last, with the omitted ranges from `meta.cuts`
 * marked over what was kept, and ticks where the keeper's evidence lies (`meta.evidence`): dark
 * for evidence lines in the text, orange where lines of a severe or rare template were cut, with a
 * thin span from the template's first line to its last. Drawn in SVG with geometry attributes
 * only (no inline styles, so it holds under `style-src 'self'`); colours come from style.css by
 * class.
 */
import type { Cut, EvidenceMeta, SectionMeta } from "agent-airlock";
import type { ShapeResult } from "./protocol.ts";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 1000;
const BUCKETS = 500;

const n = (value: number) => value.toLocaleString("en-US");

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  title?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (title !== undefined) {
    const t = document.createElementNS(SVG, "title");
    t.textContent = title;
    el.append(t);
  }
  return el;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Words for a cut, as the list under the map shows it. */
export function describeCut(cut: Cut): string {
  switch (cut.kind) {
    case "lines":
      return `${cut.section}: lines ${n(cut.from)}–${n(cut.to)} omitted (${n(cut.count)} of ${n(cut.of)})`;
    case "chars":
      return `${cut.section}: line ${n(cut.line)} shortened by ${n(cut.count)} characters`;
    case "bytes":
      return `${cut.section}: reading stopped at ${n(cut.at)} bytes (maxBytes ${n(cut.limit)})`;
    case "binary":
      return `${cut.section}: ${cut.mime}, ${n(cut.bytes)} bytes, replaced by a placeholder`;
    case "stopped":
      return `${cut.section}: reading stopped at ${n(cut.at)} bytes (${cut.reason === "timeout" ? "timeoutMs" : "aborted"})`;
    case "boilerplate":
      return `${cut.section}: ${n(cut.chars)} characters of page furniture left out (main content only)`;
    case "lost":
      return `${cut.section}: ${cut.bytes === undefined ? "output" : `the first ${n(cut.bytes)} bytes`} lost before shape() was called`;
  }
}

const SEVERITY = ["quiet", "warning or stand-out", "error", "fatal"] as const;

/** Words for a template with lines left out, as the list under the map shows it. */
export function describeEvidence(c: EvidenceMeta["cut"][number]): string {
  const kind = c.severity > 0 ? SEVERITY[c.severity] : "rare";
  return `${c.section}: ${kind} "${c.template}": ${n(c.shown)} of ${n(c.count)} lines shown, lines ${n(c.first)}–${n(c.last)}`;
}

function sectionBar(meta: SectionMeta, cuts: readonly Cut[], evidence: EvidenceMeta | undefined) {
  const total = Math.max(1, meta.lines);
  const x = (line: number) => ((line - 1) / total) * WIDTH;
  const bar = svg("svg", {
    viewBox: `0 0 ${WIDTH} 40`,
    preserveAspectRatio: "none",
    class: "cut-bar",
    role: "img",
    "aria-label": `${meta.name}: ${n(meta.lines)} lines, ${n(meta.keptLines)} kept`,
  });
  if (meta.binary) {
    bar.append(
      svg(
        "rect",
        { x: 0, y: 12, width: WIDTH, height: 24, class: "binary" },
        "binary: not decoded",
      ),
    );
    return bar;
  }
  const omitted = cuts
    .flatMap((c) => (c.kind === "lines" ? [[c.from, c.to] as const] : []))
    .sort((a, b) => a[0] - b[0]);
  bar.append(
    svg("rect", { x: 0, y: 12, width: WIDTH, height: 24, class: "omitted" }, "omitted lines"),
  );
  // Kept ranges are drawn over the omitted background, at least a few units wide: 13 lines
  // kept of 574,000 must still be seen.
  let next = 1;
  for (const [from, to] of [...omitted, [total + 1, total + 1] as const]) {
    if (from > next) {
      const lines = from - next;
      bar.append(
        svg(
          "rect",
          {
            x: x(next),
            y: 12,
            width: Math.max(3, (lines / total) * WIDTH),
            height: 24,
            class: "kept",
          },
          `lines ${n(next)}–${n(from - 1)} kept`,
        ),
      );
    }
    next = Math.max(next, to + 1);
  }
  for (const cut of cuts) {
    if (cut.kind === "chars") {
      bar.append(
        svg(
          "rect",
          { x: x(cut.line), y: 30, width: 3, height: 6, class: "shortened" },
          describeCut(cut),
        ),
      );
    } else if (cut.kind === "bytes") {
      bar.append(
        svg(
          "rect",
          { x: WIDTH - 8, y: 12, width: 8, height: 24, class: "capped" },
          describeCut(cut),
        ),
      );
    }
  }
  if (evidence) {
    // One tick per bucket of the bar: "cut" wins, so a cut evidence line is never hidden.
    const buckets = new Map<number, { lines: number[]; lost: boolean }>();
    const tick = (line: number, lost: boolean) => {
      const b = Math.min(BUCKETS - 1, Math.floor(((line - 1) / total) * BUCKETS));
      const bucket = buckets.get(b) ?? { lines: [], lost: false };
      bucket.lines.push(line);
      bucket.lost ||= lost;
      buckets.set(b, bucket);
    };
    for (const k of evidence.kept) if (k.section === meta.name) tick(k.line, false);
    for (const c of evidence.cut) {
      if (c.section !== meta.name) continue;
      for (const line of c.lines) tick(line, true);
      bar.append(
        svg(
          "rect",
          {
            x: x(c.first),
            y: 38,
            width: Math.max(2, x(c.last + 1) - x(c.first)),
            height: 2,
            class: "error lost",
          },
          describeEvidence(c),
        ),
      );
    }
    for (const [b, bucket] of buckets) {
      const first = bucket.lines[0] ?? 0;
      const label = `evidence line${bucket.lines.length > 1 ? "s" : ""} ${n(first)}${
        bucket.lines.length > 1 ? ` (+${bucket.lines.length - 1} nearby)` : ""
      }: ${bucket.lost ? "cut" : "in the text"}`;
      bar.append(
        svg(
          "rect",
          {
            x: (b / BUCKETS) * WIDTH,
            y: 0,
            width: Math.max(2, WIDTH / BUCKETS),
            height: 10,
            class: bucket.lost ? "error lost" : "error kept",
          },
          label,
        ),
      );
    }
  }
  return bar;
}

function recordsBar(result: ShapeResult) {
  const records = result.shaped.meta.records;
  const wrap = el("div", "cut-section");
  if (!records) return wrap;
  wrap.append(
    el(
      "div",
      "cut-label",
      `records (${records.format}): ${n(records.shown)} shown of ${n(records.total)}; ` +
        `error records ${n(records.errors)}, shown ${n(records.errorsShown)}` +
        (records.projection ? `; projection dropped ${n(records.projection.dropped)} fields` : ""),
    ),
  );
  const total = Math.max(1, records.total);
  const bar = svg("svg", {
    viewBox: `0 0 ${WIDTH} 40`,
    preserveAspectRatio: "none",
    class: "cut-bar",
    role: "img",
    "aria-label": `${n(records.shown)} of ${n(records.total)} records shown`,
  });
  const shown = (records.shown / total) * WIDTH;
  bar.append(
    svg("rect", { x: 0, y: 12, width: WIDTH, height: 24, class: "omitted" }, "records omitted"),
    svg("rect", { x: 0, y: 12, width: shown, height: 24, class: "kept" }, "records shown"),
  );
  wrap.append(
    bar,
    el(
      "div",
      "cut-note",
      "Records are chosen by value (errors first), not by position: the bar shows the proportion.",
    ),
  );
  return wrap;
}

/** Draws the map for `result` into `container`, replacing what was there. */
export function renderCutMap(container: HTMLElement, result: ShapeResult): void {
  const { meta } = result.shaped;
  const parts: Node[] = [];
  if (meta.kind === "structured") parts.push(recordsBar(result));
  for (const section of meta.sections) {
    if (meta.kind === "structured") break;
    const wrap = el("div", "cut-section");
    const evidence = meta.evidence;
    const templates = evidence
      ? `; severe templates ${n(evidence.severe.shown)} of ${n(evidence.severe.templates)} shown, ` +
        `rare ${n(evidence.rare.shown)} of ${n(evidence.rare.templates)}`
      : "";
    wrap.append(
      el(
        "div",
        "cut-label",
        `${section.name}: ${n(section.lines)} lines, ${n(section.bytes)} bytes; ${n(section.keptLines)} lines kept; ` +
          `evidence lines ${n(section.keptEvidenceLines)} of ${n(section.evidenceLines)} kept${templates}`,
      ),
      sectionBar(
        section,
        meta.cuts.filter((c) => c.section === section.name),
        evidence,
      ),
    );
    parts.push(wrap);
  }
  const list = el("ul", "cut-list");
  for (const cut of meta.cuts) list.append(el("li", "", describeCut(cut)));
  for (const c of meta.evidence?.cut ?? []) list.append(el("li", "", describeEvidence(c)));
  if (meta.cuts.length === 0) list.append(el("li", "", "nothing was cut"));
  parts.push(list);
  container.replaceChildren(...parts);
}
