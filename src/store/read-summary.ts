/**
 * `read_result {summary: true}`: the whole summary of a stored text result. `meta.summary` is
 * the summary object (every message up to 128, each with its id); the text says it compactly,
 * fenced like any page: a header, the input's span, the sources, one line per message (the
 * most severe first, then the most frequent) as many as fit the reader's `maxTokens`, and a
 * closing line that says how many are not listed and names the `template` call that reads a
 * message's lines. The summary is made once per handle (one pass over the stored text, within
 * the reader's step bound) and kept in the reader's cache.
 */
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import type { Outcome } from "../pipeline/facts.js";
import { buildShaped } from "../pipeline/meta.js";
import { readCall } from "../pipeline/read-back.js";
import type { ReadMeta, Shaped, ShapeSummary, Symptom } from "../pipeline/shaped.js";
import {
  sourcesMarker,
  spanMarker,
  summaryCloseMarker,
  summaryHeadMarker,
  symptomLine,
} from "../pipeline/summary-markers.js";
import { errorPage, type PageOptions, type ReaderState, textPageFacts, withRead } from "./page.js";
import type { ResultStore, StoredText } from "./store.js";
import { storedSummary } from "./stored-summary.js";
import { sectionsOf } from "./text-source.js";

const LEVELS = ["fatal", "error", "warning"] as const;

/**
 * @example
 * const page = await readSummary(options, state, store, counter, manifest);
 */
export async function readSummary(
  o: PageOptions,
  state: ReaderState,
  store: ResultStore,
  counter: ResolvedTokenizer,
  stored: StoredText,
): Promise<Shaped> {
  // One pass over the whole text: a result larger than a call's steps is refused, not read.
  const steps = stored.chars;
  if (steps > o.maxSteps) {
    return errorPage(
      o,
      counter,
      "tool/invalid-input",
      `read_result: the summary reads the whole result (${stored.chars} characters), more than this reader's maxSteps (${o.maxSteps}) allow; the first page's meta.summary has it, and evidence: true reads the severe lines`,
      { kind: "text", op: "refused", steps: 0 },
    );
  }
  const sections = sectionsOf(stored, store, state.parts, o.lineCap);
  let summary = state.summaries.get(stored.handle);
  const held = summary !== undefined;
  if (summary === undefined) {
    summary =
      (await storedSummary(sections, stored.info.lineCap ?? o.lineCap, o.meta.clean)) ?? null;
    state.summaries.set(stored.handle, summary);
  }
  const read: ReadMeta = { kind: "text", op: "summary", steps: held ? 0 : steps };
  const first = sections[0];
  const last = sections[sections.length - 1];
  const span =
    summary?.timeline ??
    (first && last
      ? { first: { section: first.name, line: 1 }, last: { section: last.name, line: last.lines } }
      : undefined);
  const total = summary ? summary.symptoms.length + summary.more : 0;
  const listing = summary ? byWeight(summary.symptoms) : [];
  const levels = LEVELS.filter((l) => listing.some((s) => s.severity === l));
  const head = summaryHeadMarker(stored.handle, total, [...levels], summary?.moreAtLeast === true);
  const call = (s: Symptom) => readCall({ handle: stored.handle, template: s.id });
  // The most a page says, then less: without the sources, then without the span.
  const frames = [
    [span && spanMarker(span.first, span.last), summary?.sources.length && summary.sources],
    [span && spanMarker(span.first, span.last), undefined],
    [undefined, undefined],
  ] as const;
  let page: { text: string; boundary: string | undefined; tokens: number; k: number } | undefined;
  for (const [spanLine, sources] of frames) {
    const body = (k: number): string =>
      [
        head,
        ...(spanLine ? [spanLine] : []),
        ...(sources ? [sourcesMarker(sources)] : []),
        ...listing.slice(0, k).map(symptomLine),
        ...(listing[0] ? [summaryCloseMarker(k, total, call(listing[0]))] : []),
      ].join("\n");
    const attempt = async (k: number) => {
      const shown = await o.presenter.present(body(k));
      const tokens = await counter.count(shown.text);
      return tokens <= o.maxTokens ? { ...shown, tokens, k } : undefined;
    };
    page = await attempt(0);
    if (page === undefined) continue;
    // The most lines that fit: a page grows with each line, so the fitting counts are a prefix.
    let lo = 0;
    let hi = listing.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      const fits = await attempt(mid);
      if (fits) {
        page = fits;
        lo = mid;
      } else hi = mid - 1;
    }
    break;
  }
  if (page === undefined) {
    return errorPage(
      o,
      counter,
      "tool/invalid-input",
      `read_result: the summary does not fit in ${o.maxTokens} tokens; a reader with a larger maxTokens reads it`,
      read,
    );
  }
  const facts = textPageFacts(stored.info, sections);
  const outcome: Outcome = {
    text: page.text,
    boundary: page.boundary,
    tokens: page.tokens,
    tokenizer: counter.name,
    cuts: [],
    sections: sections.map((s) => ({
      name: s.name,
      lines: s.lines,
      keptLines: 0,
      evidenceLines: 0,
      keptEvidenceLines: 0,
    })),
    status: page.k < total ? "partial" : "ok",
  };
  const shaped = await buildShaped(facts, outcome, o.meta);
  const withSummary: Shaped = summary
    ? { ...shaped, meta: { ...shaped.meta, summary: summary as ShapeSummary } }
    : shaped;
  return withRead(withSummary, stored.handle, read, undefined);
}

/** The most severe first, then the most frequent, then by first line. */
function byWeight(symptoms: readonly Symptom[]): Symptom[] {
  const rank = (s: Symptom) => LEVELS.indexOf(s.severity);
  return [...symptoms].sort(
    (a, b) => rank(a) - rank(b) || b.count - a.count || a.first.line - b.first.line,
  );
}
