/**
 * The render stage: what keep held, made into a draft the fit can size. Lines are laid out in
 * input order with exact omission markers (stderr first: it is where a failing command says
 * why); records go into the uniform envelope (status, summary, data, omitted, next).
 */
import type { KeptInput } from "../keep/stage.js";
import type { KeptView } from "../keep/view.js";
import { type RunFacts, shownSections } from "../pipeline/facts.js";
import {
  commandHeader,
  httpHeader,
  rerunMarker,
  safeName,
  toolErrorMarker,
} from "../pipeline/markers.js";
import { maskMessage, messageOf } from "../pipeline/message.js";
import { firstPageHint, linesArgs } from "../pipeline/read-back.js";
import type { RunContext, Stage } from "../pipeline/run.js";
import { hopLabel, MENTION_CHARS, unshownMarker } from "../pipeline/summary-markers.js";
import type { RecordsDraft, RecordsRenderOptions } from "./draft.js";
import type { FitRequest, Mention, NextHint, ReadSection } from "./lines.js";

export interface RenderOptions {
  readonly maxTokens: number;
  readonly maxBytes: number;
  /** What to do for omitted lines. */
  readonly next: string;
  /** Characters the keeper holds: a verbatim text longer than this is never counted. */
  readonly capacity: number;
  /** The host said the output is the tool's error (`toolError`): the text says so first. */
  readonly toolError?: boolean;
  readonly records: RecordsRenderOptions;
  /** A host model's summary of the result (`fit/hop.ts`): its lines, shown under the header. */
  readonly generated?: readonly string[];
}

export interface LinesDraft {
  readonly kind: "lines";
  readonly request: FitRequest;
}

/** What the fit sizes, with what keep held (the outcome reads which units were shown). */
const EMPTY_VIEW: KeptView = {
  evidence: [],
  head: [],
  tail: [],
  total: 0,
  evidenceTotal: 0,
  errorsTotal: 0,
  complete: true,
  evidenceDropped: false,
};

export type Draft = (LinesDraft | RecordsDraft) & { readonly kept: KeptInput };

/**
 * @example
 * const render = createRender(options);
 * const draft = await render.run(kept, ctx);
 */
export function createRender(o: RenderOptions): Stage<KeptInput, Draft> {
  return {
    name: "render",
    async run(kept, ctx) {
      return { ...(await draftOf(kept, ctx, o)), kept };
    },
  };
}

async function draftOf(
  kept: KeptInput,
  ctx: RunContext,
  o: RenderOptions,
): Promise<LinesDraft | RecordsDraft> {
  const facts = ctx.facts;
  if (facts.records) {
    // The records renderer loads with the first structured result: it stays out of the core.
    const { renderRecords } = await import("./records.js");
    return renderRecords(
      {
        // Refused before any record reached keep: no view, and the envelope says why.
        view: kept.view ?? EMPTY_VIEW,
        facts: facts.records,
        secrets: sum(facts.redactions),
        invisible: sum(facts.invisible),
        failed: (facts.http !== undefined && !facts.http.ok) || o.toolError === true,
      },
      o.records,
    );
  }
  return { kind: "lines", request: linesRequest(kept, ctx, o) };
}

function sum(counts: Readonly<Record<string, number>> | object): number {
  let total = 0;
  for (const v of Object.values(counts)) if (typeof v === "number") total += v;
  return total;
}

/** The sections in the order they are shown, with what keep held of each. */
export function readSections(kept: KeptInput, facts: RunFacts): ReadSection[] {
  return shownSections(facts).map((s): ReadSection => {
    const held = kept.sections.find((k) => k.name === s.name)?.kept;
    return {
      name: s.name,
      bytes: s.bytes,
      capped: s.capped,
      ...(s.stopped ? { stopped: s.stopped } : {}),
      ...(s.lost ? { lost: s.lost } : {}),
      ...(s.uncaptured ? { uncaptured: true as const } : {}),
      invalid: s.invalidUtf8,
      ...(held ? { kept: held } : {}),
      ...(s.binary ? { binary: s.binary } : {}),
      ...(s.failure
        ? {
            error: {
              code: s.failure.code,
              message: `intake: reading ${s.name} failed: ${s.failure.detail}`,
              detail: s.failure.detail,
            },
          }
        : {}),
    };
  });
}

function linesRequest(kept: KeptInput, ctx: RunContext, o: RenderOptions): FitRequest {
  const facts = ctx.facts;
  const header: string[] = [];
  if (facts.kind === "command") {
    header.push(
      commandHeader({
        exitCode: facts.command?.exitCode,
        signal: facts.command?.signal,
        failure: facts.command?.failure,
        streams: facts.sections.map((s) => ({
          name: s.name,
          lines: kept.sections.find((k) => k.name === s.name)?.kept.lines ?? 0,
          bytes: s.bytes,
          capped: s.capped,
          ...(s.uncaptured ? { captured: false } : {}),
        })),
      }),
    );
  } else if (facts.http && !facts.http.ok) {
    // The reason phrase comes from the server: it is content, and is cleaned like content.
    header.push(httpHeader(facts.http.status, o.records.clean(facts.http.statusText, 120)));
  }
  const rerun = rerunLine(kept, ctx);
  if (rerun !== undefined) header.push(rerun);
  if (o.toolError) header.unshift(toolErrorMarker());
  // A model's words, labelled, above the lines it read: tool text inside the fence.
  if (o.generated !== undefined && o.generated.length > 0)
    header.push(hopLabel(o.generated.length), ...o.generated);
  let mentions: readonly Mention[] | undefined;
  return {
    sections: readSections(kept, facts),
    header,
    labelled: facts.kind === "command",
    maxTokens: o.maxTokens,
    maxBytes: o.maxBytes,
    next: hintOf(facts, o.next),
    capacity: o.capacity,
    ...(facts.format === "html" || facts.format === "markdown" ? { prose: true } : {}),
    mentions: () => {
      mentions ??= mentionsOf(kept, o.records.clean);
      return mentions;
    },
  };
}

/** Severe messages a result may name when their lines do not fit, per section, at most. */
const MAX_MENTIONS = 24;
const LEVEL = ["warning", "warning", "error", "fatal"] as const;

/**
 * The severe messages of each section as lines the fit may show in their place: the most severe
 * first, then the most frequent. Each message is made from its first line once redacted (as
 * `meta.summary` makes it), past its header, its varying words `*`.
 */
function mentionsOf(kept: KeptInput, clean: (text: string, max?: number) => string): Mention[] {
  const out: Mention[] = [];
  for (const { name, kept: k } of kept.sections) {
    const entries = [...(k.symptoms?.entries.values() ?? [])];
    entries.sort((a, b) => b.severity - a.severity || b.count - a.count || a.first - b.first);
    for (const e of entries.slice(0, MAX_MENTIONS)) {
      const line = clean(e.line, 4 * MENTION_CHARS);
      // Its varying words read `*` here (a `<` would cost the text a fence boundary).
      const message = maskMessage(line.slice(messageOf(line).at))
        .replaceAll("<*>", "*")
        .trim();
      if (message === "") continue;
      // A message logged at two levels says both: "error or warning lines".
      const top = LEVEL[e.severity] ?? "warning";
      const low = LEVEL[e.least] ?? "warning";
      const severity = top === low ? top : (`${top} or ${low}` as const);
      out.push({
        section: name,
        key: e.key,
        text: unshownMarker(
          name,
          { count: e.count, severity, first: e.first, last: e.last },
          message,
        ),
        severity: e.severity,
        count: e.count,
      });
    }
  }
  return out;
}

/** A re-run's line under the header: its lines as before and new, over every section. */
function rerunLine(kept: KeptInput, ctx: RunContext): string | undefined {
  const label = ctx.rerun?.label;
  if (label === undefined) return undefined;
  let asBefore = 0;
  let fresh = 0;
  let counted = false;
  for (const { kept: k } of kept.sections) {
    if (k.rerun === undefined) continue;
    counted = true;
    asBefore += k.rerun.asBefore;
    fresh += k.rerun.fresh;
  }
  if (!counted) return undefined;
  // The label and the handle are a session's, but a marker shows only safe names all the same.
  const handle = safeName(ctx.rerun?.handle, "");
  return rerunMarker(safeName(label, "earlier"), asBefore, fresh, handle || undefined);
}

/** With a stored result, the summary names the `read_result` call for the first gap. */
function hintOf(facts: RunFacts, next: string): NextHint {
  const handle = facts.handle;
  if (handle === undefined) return next;
  const named = facts.kind === "command";
  return (gap) => firstPageHint(gap ? linesArgs(handle, gap, named) : { handle });
}
