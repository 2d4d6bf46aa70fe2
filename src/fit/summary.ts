/**
 * The last resort of a tiny budget (a round's share for a result that gets almost nothing): when
 * no line of the result fits, one line of airlock's own words says what the result was (its
 * size, and how the tool ended) with no tool text in it, so it needs no fence. It replaces a
 * bare omission notice, and answers when not even the fenced notice fits. Only when not even
 * `[airlock: omitted]` fits is the budget an error.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { KeptInput } from "../keep/stage.js";
import type { Outcome, RunFacts } from "../pipeline/facts.js";
import { commandOutcome, notShownMarker, OMITTED_NOTICES } from "../pipeline/markers.js";
import type { Cut } from "../pipeline/shaped.js";
import type { ResolvedTokenizer } from "./tokenizer.js";

/**
 * Runs the fit, and answers with the one-line summary when the fit finds the budget too small.
 *
 * @example
 * const outcome = await withinBudget(() => fit(kept), kept, ctx.facts, 12, maxBytes, tokenizer);
 */
export async function withinBudget(
  run: () => Promise<Outcome>,
  kept: KeptInput,
  facts: RunFacts,
  budget: number,
  maxBytes: number,
  tokenizer: () => Promise<ResolvedTokenizer>,
): Promise<Outcome> {
  try {
    const outcome = await run();
    // A bare notice says less than the summary line (sizes, how the tool ended), and its fence
    // guards no tool text: the summary is shown instead when it fits.
    if (!isBareNotice(outcome.text)) return outcome;
    return (await summaryOutcome(kept, facts, { budget, maxBytes }, await tokenizer())) ?? outcome;
  } catch (error) {
    if (!(error instanceof AirlockError) || error.code !== "fit/budget-too-small") throw error;
    const summary = await summaryOutcome(kept, facts, { budget, maxBytes }, await tokenizer());
    if (summary === undefined) throw error;
    return summary;
  }
}

/** True when the text is only an omission notice, fenced or not. */
function isBareNotice(text: string): boolean {
  const lines = text.split("\n");
  const inner = lines.length === 3 && lines[0]?.startsWith("<untrusted-data") ? lines[1] : text;
  return OMITTED_NOTICES.includes(inner as string);
}

/** The longest of the summary lines that fits, as the fit's outcome; undefined if none does. */
async function summaryOutcome(
  kept: KeptInput,
  facts: RunFacts,
  { budget, maxBytes }: { readonly budget: number; readonly maxBytes: number },
  tokenizer: ResolvedTokenizer,
): Promise<Outcome | undefined> {
  const what = describe(kept, facts);
  const last = OMITTED_NOTICES[OMITTED_NOTICES.length - 1] as string;
  for (const text of [notShownMarker(what, budget), notShownMarker(what, undefined), last]) {
    const tokens = await tokenizer.count(text);
    if (tokens > budget) continue;
    const cuts: Cut[] = [];
    for (const s of facts.sections) {
      if (s.capped) cuts.push({ kind: "bytes", section: s.name, at: s.bytes, limit: maxBytes });
    }
    const sections = kept.sections.map(({ name, kept: k }) => {
      if (k.lines > 0)
        cuts.push({
          kind: "lines",
          section: name,
          from: 1,
          to: k.lines,
          count: k.lines,
          of: k.lines,
        });
      return {
        name,
        lines: k.lines,
        keptLines: 0,
        evidenceLines: k.evidenceLines,
        keptEvidenceLines: 0,
      };
    });
    return {
      text,
      boundary: undefined,
      tokens,
      tokenizer: tokenizer.name,
      cuts,
      sections,
      ...(facts.records
        ? { records: { shown: 0, errorsShown: 0, evidenceShown: 0, reduced: false } }
        : {}),
      status: "partial",
    };
  }
  return undefined;
}

/** What the result was, in integers and airlock's words only. */
function describe(kept: KeptInput, facts: RunFacts): string {
  const parts: string[] = [];
  const records = facts.records;
  if (records) {
    if (records.shape === "records") parts.push(`${records.count} records`);
    else parts.push("one document");
    parts.push(`${records.bytes} bytes`);
  } else {
    const lines = kept.sections.reduce((n, s) => n + s.kept.lines, 0);
    const bytes = facts.sections.reduce((n, s) => n + s.bytes, 0);
    const binary = facts.sections.some((s) => s.binary);
    parts.push(binary ? "binary" : `${lines} line${lines === 1 ? "" : "s"}`, `${bytes} bytes`);
  }
  const what = parts.join(", ");
  const command = facts.command;
  if (facts.kind === "command" && command)
    return `${what}; ${commandOutcome(command.exitCode, command.signal)}`;
  if (facts.http && !facts.http.ok) return `${what}; HTTP ${facts.http.status}`;
  return what;
}
