/**
 * The playground's run view: plays the generated 40-turn run in a worker of its own (shaping
 * 13 MB of results takes a few seconds), draws it (run-view.ts), and shows the numbers and the
 * view the model had at the turn the person picks. Everything is written with textContent.
 */
import { CLEARED, type ClearTurn, clearToolUses } from "./clear-tool-uses.ts";
import type { RunData } from "./protocol.ts";
import { RUN_TURNS } from "./run.ts";
import { drawRunView, type RunPlot, runNumbers } from "./run-view.ts";
import { row } from "./views.ts";
import { CancelledError, ShapingWorker } from "./worker-client.ts";

function $<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`playground: ${selector} is missing from index.html`);
  return found;
}

const n = (value: number) => value.toLocaleString("en-US");

/** "Delete old results" over the run's results, turn by turn. */
function deletingOf(run: RunData): ClearTurn[] {
  return clearToolUses(
    run.results.map((r) => r.tokens),
    run.views.map((view) => view.length),
    {
      ceiling: run.ceiling,
      keep: run.keep,
      clearAtLeast: run.ceiling / 4,
      placeholderTokens: run.placeholderTokens,
    },
  );
}

/** The plot of a played run: the session's own numbers, and deleting from the same results. */
function plotOf(run: RunData, clear: readonly ClearTurn[]): RunPlot {
  const views = run.stats.views;
  return {
    ceiling: run.ceiling,
    unit: "turn",
    points: run.views.map((_, i) => ({
      session: views[i]?.tokens ?? 0,
      sessionChanged: views[i]?.prefixChanged ?? false,
      clear: clear[i]?.tokens ?? 0,
      clearChanged: clear[i]?.changed ?? false,
    })),
  };
}

export function createRunPanel(): void {
  const ui = {
    play: $<HTMLButtonElement>("#run-play"),
    status: $<HTMLElement>("#run-status"),
    plot: $<HTMLElement>("#run-plot"),
    numbers: $<HTMLTableSectionElement>("#run-numbers"),
    stats: $<HTMLElement>("#run-stats"),
    turn: $<HTMLElement>("#run-turn"),
  };
  const worker = new ShapingWorker();

  function showTurn(run: RunData, plot: RunPlot, deleting: readonly ClearTurn[], i: number): void {
    const view = run.views[i] ?? [];
    const point = plot.points[i];
    const heading = document.createElement("h3");
    heading.textContent = `Turn ${i + 1}: what the model had (${n(point?.session ?? 0)} tokens of tool results, ${view.length} results)`;
    const cleared = deleting[i];
    const note = document.createElement("p");
    note.className = "hint";
    note.textContent =
      cleared === undefined || cleared.cleared === 0
        ? `Deleting old results: nothing deleted yet (${n(point?.clear ?? 0)} tokens).`
        : `Deleting old results: the ${cleared.cleared} oldest (call_1 to call_${cleared.cleared}) read "${CLEARED}"; ${n(point?.clear ?? 0)} tokens.`;
    const entries = view.map((entry) => {
      const details = document.createElement("details");
      details.className = `run-entry level-${entry.level}`;
      details.dataset.callId = entry.callId;
      details.dataset.level = entry.level;
      const summary = document.createElement("summary");
      summary.textContent = `${entry.callId} (${run.results.find((r) => r.callId === entry.callId)?.tool ?? "tool"}) · ${entry.level} · ${n(entry.tokens)} tokens`;
      const pre = document.createElement("pre");
      pre.textContent = run.texts[entry.text] ?? "";
      details.append(summary, pre);
      return details;
    });
    ui.turn.dataset.turn = String(i + 1);
    ui.turn.replaceChildren(heading, note, ...entries);
  }

  function show(run: RunData): void {
    const deleting = deletingOf(run);
    const plot = plotOf(run, deleting);
    drawRunView(ui.plot, plot, (i) => showTurn(run, plot, deleting, i));
    const { session, clear } = runNumbers(plot);
    const last = plot.points.at(-1);
    ui.numbers.replaceChildren(
      row("peak tokens", n(session.peak), n(clear.peak)),
      row("turns over the ceiling", n(session.over), n(clear.over)),
      row("turns whose prefix changed", n(session.changes), n(clear.changes)),
      row("tokens at the last turn", n(last?.session ?? 0), n(last?.clear ?? 0)),
      // A graded result keeps its handle (read_result reads it again); a deleted one is gone.
      row("results deleted by the last turn", "0", n(deleting.at(-1)?.cleared ?? 0)),
    );
    const s = run.stats;
    ui.stats.textContent = `session.stats(): ${n(s.tokens)} of ${n(s.maxRunTokens)} tokens; levels: full ${s.levels.full}, evidence ${s.levels.evidence}, line ${s.levels.line}, folded ${s.levels.folded}; ${n(s.reshapes)} reshapes; ${s.views.length} views`;
    ui.turn.replaceChildren();
  }

  ui.play.addEventListener("click", async () => {
    ui.play.disabled = true;
    ui.status.dataset.state = "running";
    ui.status.textContent = `shaping turn 1 of ${RUN_TURNS}…`;
    try {
      const run = await worker.play((turn) => {
        ui.status.textContent = `shaping turn ${Math.min(turn + 1, RUN_TURNS)} of ${RUN_TURNS}…`;
      });
      show(run);
      ui.status.dataset.state = "done";
      ui.status.textContent = `${RUN_TURNS} turns shaped in ${n(run.ms)} ms`;
    } catch (error) {
      if (error instanceof CancelledError) return;
      ui.status.dataset.state = "failed";
      ui.status.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      ui.play.disabled = false;
    }
  });
}
