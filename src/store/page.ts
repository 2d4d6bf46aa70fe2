/**
 * What every `read_result` page shares: the reader's slice of the options, its bounded caches,
 * the step budget, and the error page (an argument that is wrong, a result that is gone), which
 * is shaped and fenced like any page and never thrown.
 */
import type { ShapedErrorCode } from "../errors/codes.js";
import { fitEnvelope } from "../fit/envelope.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import { createFacts, createSectionFacts, type Outcome, type RunFacts } from "../pipeline/facts.js";
import { buildShaped, type MetaOptions } from "../pipeline/meta.js";
import type { Presenter } from "../pipeline/present.js";
import type { ReadArgs, ReadMeta, Shaped, ShapeSummary } from "../pipeline/shaped.js";
import type { SectionName } from "../pipeline/unit.js";
import type { EnvelopeMode } from "../render/envelope.js";
import type { StepBudget } from "./grep.js";
import type { LoadedPart } from "./text-source.js";

/** What a page is shaped with: the reader's own slice of the options. */
export interface PageOptions {
  readonly maxTokens: number;
  readonly maxStringChars: number;
  /** Characters of records or lines considered for one page. */
  readonly capacity: number;
  readonly mode: EnvelopeMode;
  readonly presenter: Presenter;
  readonly meta: MetaOptions;
  /** Longest line shown whole; a longer one keeps its head and tail. */
  readonly lineCap: number;
  /** Steps one call may spend searching (filter, grep, evidence). */
  readonly maxSteps: number;
}

/** A least-recently-used map holding at most `max` entries. */
export class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    for (const k of this.map.keys()) {
      if (this.map.size <= this.max) break;
      this.map.delete(k);
    }
  }
}

/** A filtered view of a stored result: record indices in view order, and its counts. */
export interface FilteredView {
  readonly indices: Int32Array;
  readonly errors: number;
  readonly evidence: number;
  /** Tested paths no record has: the filter is refused naming them. */
  readonly unknown: readonly string[];
  readonly steps: number;
}

/** A reader's caches: filtered views per (handle, filter), loaded text parts. Bounded. */
export interface ReaderState {
  readonly filters: Lru<FilteredView>;
  readonly parts: Lru<LoadedPart>;
  /** Field paths known to exist (or not) per handle, for `fields`. */
  readonly paths: Lru<Map<string, boolean>>;
  /** Each record's severity as keep judged it, per handle (stand-outs included). */
  readonly severities: Lru<Uint8Array>;
  /** The summary of a stored text result, per handle (`null`: it has no severe line). */
  readonly summaries: Lru<ShapeSummary | null>;
}

/**
 * The run facts of a page of a stored text result: its kind and format as stored, and each
 * section's line count (a page read no input of its own).
 *
 * @example
 * const facts = textPageFacts(stored.info, [{ name: "stdout", lines: 4000 }]);
 */
export function textPageFacts(
  info: { readonly kind?: string; readonly format?: string },
  sections: ReadonlyArray<{ readonly name: SectionName; readonly lines: number }>,
): RunFacts {
  const facts = createFacts();
  facts.kind = info.kind === "command" ? "command" : "text";
  facts.format = (info.format as typeof facts.format) ?? "text";
  for (const s of sections) {
    const f = createSectionFacts(s.name);
    f.lines = s.lines;
    f.blank = false;
    facts.sections.push(f);
  }
  return facts;
}

export function createReaderState(): ReaderState {
  return {
    filters: new Lru(16),
    parts: new Lru(4),
    paths: new Lru(16),
    severities: new Lru(4),
    summaries: new Lru(8),
  };
}

export function stepBudget(max: number): StepBudget {
  return { steps: 0, max, stopped: false };
}

/** A page's `meta` gets what it read and the call that reads on. */
export function withRead(
  shaped: Shaped,
  handle: string | undefined,
  read: ReadMeta,
  next: ReadArgs | undefined,
): Shaped {
  const { next: _drop, ...meta } = shaped.meta;
  return {
    ...shaped,
    meta: {
      ...meta,
      ...(handle !== undefined ? { handle } : {}),
      ...(next ? { next: { tool: "read_result", args: next } } : {}),
      read,
    },
  };
}

/**
 * An error page: the message in the envelope, fenced and within the budget (a message too long
 * for it is cut, and as the last resort only the code is said).
 *
 * @example
 * await errorPage(options, counter, "tool/invalid-input", "read_result: unknown argument \"x\"", read);
 */
export async function errorPage(
  o: PageOptions,
  counter: ResolvedTokenizer,
  code: ShapedErrorCode,
  message: string,
  read: ReadMeta,
  retryable = false,
  /** What the message says in a few words, for a budget too small for it. */
  brief = message.slice(0, 160),
): Promise<Shaped> {
  const facts = createFacts();
  facts.kind = "structured";
  facts.format = "json";
  for (const text of [message.slice(0, 600), brief, `read_result: ${code}`]) {
    facts.error = { code, message: text, retryable };
    try {
      const fitted = await fitEnvelope(
        {
          texts: [],
          build: () => ({ status: "error", summary: text, data: undefined }),
          mode: o.mode,
          maxTokens: o.maxTokens,
          levels: 1,
        },
        counter,
        o.presenter,
      );
      const outcome: Outcome = {
        text: fitted.text,
        boundary: fitted.boundary,
        tokens: fitted.tokens,
        tokenizer: counter.name,
        cuts: [],
        sections: [],
        status: "error",
      };
      return withRead(await buildShaped(facts, outcome, o.meta), undefined, read, undefined);
    } catch {
      // Too long for the budget: a shorter message next.
    }
  }
  const shown = await o.presenter.present(`[airlock: read_result: ${code}]`);
  const outcome: Outcome = {
    text: shown.text,
    boundary: shown.boundary,
    tokens: await counter.count(shown.text),
    tokenizer: counter.name,
    cuts: [],
    sections: [],
    status: "error",
  };
  return withRead(await buildShaped(facts, outcome, o.meta), undefined, read, undefined);
}
