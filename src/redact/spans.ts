/** Where a secret was found: the rule and the span in the input. Never the value. */
export interface Finding {
  readonly rule: string;
  readonly start: number;
  readonly end: number;
}

export interface Span extends Finding {
  readonly generality: number;
  /** Among rules of one generality, the earlier rule (lower rank) names a shared span. */
  readonly rank?: number;
  /** Where the whole match began (its key name, say), when that is before `start`. */
  readonly from?: number;
  /** The rest of a private key that began in an earlier piece of a stream (not a new finding). */
  readonly continued?: boolean;
}

/** What a streamed redaction remembers between pieces of text. */
export interface RedactState {
  /** Characters of an unterminated private key block seen so far; 0 outside one. */
  pem: number;
}

/** Text with its secrets replaced, and where each was (never the value). */
export interface Redacted {
  readonly text: string;
  readonly findings: readonly Finding[];
}

/**
 * True when `a` names a shared span rather than `b` (which sorts first): it is more specific, or
 * as specific and the same span found by an earlier rule.
 */
function outranks(a: Span, b: Span): boolean {
  if (a.generality !== b.generality) return a.generality < b.generality;
  if (a.start !== b.start || a.end !== b.end) return false;
  return (a.rank ?? Number.MAX_SAFE_INTEGER) < (b.rank ?? Number.MAX_SAFE_INTEGER);
}

/**
 * Merges overlapping spans into their union (nothing any rule found survives) and names the union
 * after its most specific rule: a GitHub token in a URL's password is a github_token.
 */
export function merge(spans: Span[]): Span[] {
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a.start - b.start || b.end - a.end || a.generality - b.generality);
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s.start < last.end) {
      const named = outranks(s, last) ? s : last;
      merged[merged.length - 1] = {
        rule: named.rule,
        generality: named.generality,
        ...(named.rank !== undefined ? { rank: named.rank } : {}),
        start: last.start,
        end: Math.max(last.end, s.end),
        ...(last.continued ? { continued: true } : {}),
      };
      continue;
    }
    merged.push(s);
  }
  return merged;
}

/** Echoes of a found secret are taken in texts up to this long (as the engine's own pass). */
export const ECHO_TEXT_MAX = 1 << 20;
/** Values whose echoes are taken, at most, each at least ECHO_MIN characters and on one line. */
export const ECHO_VALUES = 32;
export const ECHO_MIN = 8;

/** Notes a found secret's value (within the bounds) so its other occurrences can be taken. */
export function noteEcho(values: Map<string, string>, value: string, rule: string): void {
  if (value.length < ECHO_MIN || values.size >= ECHO_VALUES || values.has(value)) return;
  if (!value.includes("\n")) values.set(value, rule);
}

/** The occurrences in `text` of the values (unmerged), each named by its value's rule. */
export function echoesIn(text: string, values: ReadonlyMap<string, string>): Span[] {
  const spans: Span[] = [];
  for (const [value, rule] of values) {
    for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
      spans.push({ rule, start: i, end: i + value.length, generality: 0 });
    }
  }
  return spans;
}

/**
 * Replaces merged, ordered spans with `[REDACTED:<rule>]`. A span over several lines (a private
 * key) becomes one replacement a line, so line numbers after it still match the input.
 */
export function apply(text: string, spans: readonly Span[]): Redacted {
  if (spans.length === 0) return { text, findings: [] };
  let out = "";
  let at = 0;
  for (const s of spans) {
    const tag = `[REDACTED:${s.rule}]`;
    out += text.slice(at, s.start);
    // Only the span is searched for line breaks: one long line with many spans stays linear.
    const lines = text.slice(s.start, s.end).split("\n");
    out += lines.map((line, i) => (line === "" && i === lines.length - 1 ? "" : tag)).join("\n");
    at = s.end;
  }
  out += text.slice(at);
  return { text: out, findings: spans.map(({ rule, start, end }) => ({ rule, start, end })) };
}

/**
 * Other occurrences of a secret found once (a tool echoing the value it was given: `bundle
 * config` repeating a credential, an error quoting the password): redacted too. Bounded to
 * texts the size of a tool result, and to a few dozen values.
 *
 * @example
 * addEchoes("pw=Xk9… then Xk9…", spans); // a span for the second Xk9… too
 */
export function addEchoes(text: string, spans: Span[]): void {
  if (spans.length === 0 || text.length > ECHO_TEXT_MAX) return;
  const values = new Map<string, Span>();
  for (const s of spans) {
    if (s.continued || s.end - s.start < ECHO_MIN || values.size >= ECHO_VALUES) continue;
    const value = text.slice(s.start, s.end);
    if (!value.includes("\n") && !values.has(value)) values.set(value, s);
  }
  for (const [value, s] of values) {
    for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
      if (i === s.start) continue;
      spans.push({ rule: s.rule, start: i, end: i + value.length, generality: s.generality });
    }
  }
}
