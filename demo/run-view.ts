/**
 * The run view: a run's tool-result tokens per model call, drawn as the page's own SVG (no
 * charting library): the session's view against the ceiling, "delete old results" beside it
 * from the same results, and a mark under each call whose prompt prefix changed (a provider's
 * prompt cache misses there). Each call is a target: clicking it (or Enter on it) selects it.
 * Everything is built with DOM APIs and textContent; nothing is parsed as markup.
 */

/** One model call of the run. */
export interface RunPoint {
  /** Tokens of the tool results the session gave this call (`stats().views[i].tokens`). */
  readonly session: number;
  /** Whether an earlier result's text changed since the call before (`prefixChanged`). */
  readonly sessionChanged: boolean;
  /** Tokens of the tool results the same call carries when old results are deleted. */
  readonly clear: number;
  readonly clearChanged: boolean;
}

export interface RunPlot {
  readonly points: readonly RunPoint[];
  readonly ceiling: number;
  /** What a point is called: "turn", "step". */
  readonly unit: string;
}

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 880;
const HEIGHT = 300;
const LEFT = 64;
const RIGHT = 16;
const TOP = 16;
/** Below the plot: two rows of prefix marks, then the axis labels. */
const BOTTOM = 64;

const n = (value: number) => value.toLocaleString("en-US");

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A round top for the y axis, at least `value`: a power of ten times one of these, so a quarter of it is round too. */
const TOPS = [1, 1.2, 1.6, 2, 2.4, 3.2, 4, 6, 8, 10];
function niceTop(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  return (TOPS.find((step) => step * power >= value) ?? 10) * power;
}

/**
 * Draws `plot` into `host` (replacing what was there) and calls `onSelect` with a point's
 * index when the person picks it. The SVG carries its scale (`data-y-max`, `data-top`,
 * `data-height`) and each point its numbers, so what is drawn can be checked against them.
 *
 * @example
 * drawRunView(panel, { points, ceiling: 32_000, unit: "turn" }, (i) => showTurn(i));
 */
export function drawRunView(
  host: HTMLElement,
  plot: RunPlot,
  onSelect: (index: number) => void,
): void {
  const { points, ceiling, unit } = plot;
  const count = points.length;
  const height = HEIGHT - TOP - BOTTOM;
  const width = WIDTH - LEFT - RIGHT;
  const yMax = niceTop(
    Math.max(ceiling, ...points.map((p) => Math.max(p.session, p.clear))) * 1.05,
  );
  const step = width / Math.max(count, 1);
  const x = (i: number) => LEFT + (i + 0.5) * step;
  const y = (tokens: number) => TOP + height * (1 - tokens / yMax);

  const svg = el("svg", {
    class: "run-plot",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "group",
    "aria-label": `tool-result tokens per ${unit}, ${count} ${unit}s, ceiling ${n(ceiling)}`,
    "data-y-max": yMax,
    "data-top": TOP,
    "data-height": height,
    "data-ceiling": ceiling,
  });

  // Grid and the y axis: five lines, labelled in tokens.
  for (let k = 0; k <= 4; k++) {
    const value = (yMax * k) / 4;
    svg.append(
      el("line", { class: "grid", x1: LEFT, x2: WIDTH - RIGHT, y1: y(value), y2: y(value) }),
      el("text", { class: "axis", x: LEFT - 6, y: y(value) + 4, "text-anchor": "end" }, n(value)),
    );
  }
  svg.append(
    el("line", {
      class: "ceiling-line",
      x1: LEFT,
      x2: WIDTH - RIGHT,
      y1: y(ceiling),
      y2: y(ceiling),
    }),
    el(
      "text",
      { class: "ceiling-label", x: WIDTH - RIGHT - 4, y: y(ceiling) - 5, "text-anchor": "end" },
      `ceiling ${n(ceiling)}`,
    ),
  );

  // The selected point's band, under everything else.
  const band = el("rect", {
    class: "selected",
    x: 0,
    y: TOP,
    width: step,
    height,
    visibility: "hidden",
  });
  svg.append(band);

  const series = (name: "session" | "clear") => {
    const value = (p: RunPoint) => (name === "session" ? p.session : p.clear);
    svg.append(
      el("polyline", {
        class: `series ${name}`,
        points: points.map((p, i) => `${x(i).toFixed(2)},${y(value(p)).toFixed(2)}`).join(" "),
      }),
    );
    points.forEach((p, i) => {
      svg.append(
        el("circle", {
          class: `point ${name}`,
          cx: x(i).toFixed(2),
          cy: y(value(p)).toFixed(2),
          r: 3,
          "data-index": i,
          "data-tokens": value(p),
        }),
      );
    });
  };
  series("clear");
  series("session");

  // Prefix marks: one row for the session, one for deleting, under the x axis.
  const rows = { session: TOP + height + 12, clear: TOP + height + 26 };
  svg.append(
    el(
      "text",
      { class: "axis", x: LEFT - 6, y: rows.session + 4, "text-anchor": "end" },
      "session",
    ),
    el("text", { class: "axis", x: LEFT - 6, y: rows.clear + 4, "text-anchor": "end" }, "delete"),
  );
  points.forEach((p, i) => {
    for (const name of ["session", "clear"] as const) {
      if (!(name === "session" ? p.sessionChanged : p.clearChanged)) continue;
      const cy = rows[name];
      svg.append(
        el("path", {
          class: `mark ${name}`,
          d: `M${x(i).toFixed(2)},${cy - 5} l5,9 h-10 z`,
          "data-index": i,
        }),
      );
    }
  });

  // The x axis: every fifth point, and the first.
  points.forEach((_, i) => {
    if (i !== 0 && (i + 1) % 5 !== 0) return;
    svg.append(
      el(
        "text",
        { class: "axis", x: x(i), y: HEIGHT - 14, "text-anchor": "middle" },
        String(i + 1),
      ),
    );
  });
  svg.append(
    el(
      "text",
      { class: "axis", x: LEFT + width / 2, y: HEIGHT - 1, "text-anchor": "middle" },
      unit,
    ),
  );

  // One target per point, over everything: a tooltip, a click, a key.
  const select = (i: number) => {
    band.setAttribute("x", (LEFT + i * step).toFixed(2));
    band.setAttribute("visibility", "visible");
    for (const hit of svg.querySelectorAll(".hit")) hit.removeAttribute("aria-current");
    svg.querySelector(`.hit[data-index="${i}"]`)?.setAttribute("aria-current", "true");
    onSelect(i);
  };
  points.forEach((p, i) => {
    const hit = el("rect", {
      class: "hit",
      x: (LEFT + i * step).toFixed(2),
      y: TOP,
      width: step.toFixed(2),
      height: height + 34,
      tabindex: 0,
      role: "button",
      "data-index": i,
    });
    const changed = [
      p.sessionChanged ? "the session's prefix changed" : "",
      p.clearChanged ? "results were deleted" : "",
    ].filter(Boolean);
    hit.append(
      el(
        "title",
        {},
        `${unit} ${i + 1}: session ${n(p.session)} tokens, delete old results ${n(p.clear)}${
          changed.length > 0 ? `; ${changed.join(", ")}` : ""
        }`,
      ),
    );
    hit.addEventListener("click", () => select(i));
    hit.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        select(i);
      }
    });
    svg.append(hit);
  });

  host.replaceChildren(svg);
}

/** The run in a few numbers, per strategy: its peak, the calls over the ceiling, the cache misses. */
export function runNumbers(plot: RunPlot): {
  session: { peak: number; over: number; changes: number };
  clear: { peak: number; over: number; changes: number };
} {
  const of = (value: (p: RunPoint) => number, changed: (p: RunPoint) => boolean) => ({
    peak: Math.max(0, ...plot.points.map(value)),
    over: plot.points.filter((p) => value(p) > plot.ceiling).length,
    changes: plot.points.filter(changed).length,
  });
  return {
    session: of(
      (p) => p.session,
      (p) => p.sessionChanged,
    ),
    clear: of(
      (p) => p.clear,
      (p) => p.clearChanged,
    ),
  };
}
