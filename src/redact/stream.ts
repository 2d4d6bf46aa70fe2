import { stripAnsi } from "../decode/normalize.js";
import { type InvisibleCounts, stripInvisible } from "./invisible.js";
import { apply, type Engine, type RedactState, type Span } from "./redact.js";

/** What the filter did to a stream, for `meta`. */
export interface FilterStats {
  /** Secrets replaced, by rule id. */
  readonly redactions: Record<string, number>;
  readonly invisible: InvisibleCounts;
  /** Up to `keepValues` (rule, value) pairs, for keyed fingerprints; held only until shaping ends. */
  readonly values: Array<readonly [string, string]>;
}

/**
 * Cleans and redacts decoded text on its way to the line decoder, so nothing unredacted is ever
 * kept, skipped over or cut. Text is redacted in whole lines: the unfinished last line of a piece
 * waits for the next one, so a secret split between two chunks is whole when it is matched, and a
 * private key block carries its "inside" state from piece to piece.
 */
export interface TextFilter {
  write(text: string): string;
  /** The rest. `cut` is true when the byte cap stopped the read: a token it split is removed. */
  end(cut: boolean): string;
  readonly stats: FilterStats;
}

export interface FilterOptions {
  /** The redaction engine; absent when redaction is off. */
  readonly engine?: Engine;
  /** Remove invisible and control characters (and ANSI sequences, which contain them). */
  readonly invisible: boolean;
  /** Keep this many (rule, value) pairs for fingerprints. Default 0. */
  readonly keepValues?: number;
}

/** A line without a newline is redacted in pieces once it is this long... */
const CARRY_MAX = 64 * 1024;
/** ...each piece seen with this much of what follows it, so a match across the seam is whole. */
const LOOKAHEAD = 4096;
/** The most of the previous line read again in front of the next piece. */
const CONTEXT = 1024;
/** A token cut by the byte cap, at least this long, is removed: it may be part of a secret. */
const CUT_TOKEN = /[A-Za-z0-9+/=_.~%-]{12,}$/;

export function createTextFilter(options: FilterOptions): TextFilter {
  const { engine } = options;
  const keepValues = options.keepValues ?? 0;
  const stats: FilterStats = {
    redactions: {},
    invisible: { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 },
    values: [],
  };
  const state: RedactState = { pem: 0 };
  let carry = "";

  function clean(text: string): string {
    if (!options.invisible) return text;
    const plain = text.includes("\x1b") || text.includes("\x9b") ? stripAnsi(text) : text;
    const { text: out, removed } = stripInvisible(plain);
    const total = stats.invisible;
    total.bidi += removed.bidi;
    total.zeroWidth += removed.zeroWidth;
    total.tag += removed.tag;
    total.control += removed.control;
    total.other += removed.other;
    return out;
  }

  function redactPiece(text: string, spans: readonly Span[]): string {
    for (const s of spans) {
      if (s.continued) continue;
      stats.redactions[s.rule] = (stats.redactions[s.rule] ?? 0) + 1;
      if (stats.values.length < keepValues) stats.values.push([s.rule, text.slice(s.start, s.end)]);
    }
    return apply(text, spans).text;
  }

  /**
   * The last line already passed on (as redacted), read again in front of the next lines: a
   * secret whose name is on one line and value on the next (`- name: DB_PASSWORD` / `value: …`)
   * may straddle two pieces. Only what follows it is redacted and passed on.
   */
  let context = "";

  function redactLines(text: string): string {
    if (engine === undefined || text.length === 0) return text;
    const all = context + text;
    const skip = context.length;
    const spans: Span[] = [];
    for (const s of engine.find(all, state)) {
      if (s.end <= skip) continue;
      const clipped = s.start < skip;
      spans.push({
        ...s,
        start: Math.max(0, s.start - skip),
        end: s.end - skip,
        ...(clipped ? { continued: true } : {}),
      });
    }
    const out = redactPiece(text, spans);
    const last = out.lastIndexOf("\n", out.length - 2) + 1;
    context = out.endsWith("\n") ? out.slice(Math.max(last, out.length - CONTEXT)) : "";
    return out;
  }

  /** Redacts the head of an over-long line, leaving a tail that no match crosses into. */
  function redactHead(): string {
    if (engine === undefined) {
      const head = carry;
      carry = "";
      return head;
    }
    let at = carry.length - LOOKAHEAD;
    const probe = engine.find(carry, { pem: state.pem });
    for (const s of probe) if (s.start < at && s.end > at) at = s.start;
    if (at <= 0) {
      // A match from the very start runs past the seam: take it whole.
      at = Math.max(...probe.filter((s) => s.start === 0).map((s) => s.end), LOOKAHEAD);
    }
    const head = carry.slice(0, at);
    carry = carry.slice(at);
    return redactLines(head);
  }

  return {
    stats,
    write(chunk: string): string {
      const text = clean(chunk);
      const nl = text.lastIndexOf("\n");
      if (nl === -1) {
        carry += text;
        return carry.length > CARRY_MAX ? redactHead() : "";
      }
      const lines = carry + text.slice(0, nl + 1);
      carry = text.slice(nl + 1);
      return redactLines(lines);
    },
    end(cut: boolean): string {
      let rest = carry;
      carry = "";
      if (cut && engine !== undefined) {
        const token = CUT_TOKEN.exec(rest.slice(-1024));
        if (token !== null) {
          const start = rest.length - token[0].length;
          stats.redactions.cut_token = (stats.redactions.cut_token ?? 0) + 1;
          rest = `${rest.slice(0, start)}[REDACTED:cut_token]`;
        }
      }
      return redactLines(rest);
    },
  };
}
