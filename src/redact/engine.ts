/**
 * The redaction engine: finds every span the rules and detectors match in a text (unmerged at
 * first, then merged), through views that see across hard wraps, soft breaks, carriage-return
 * redraws and look-alike letters, and into encoded values a few levels deep.
 */
import { foldView } from "./confusables.js";
import {
  findCommandOutput,
  findEncodedTokens,
  findPgpass,
  findSecretBlocks,
  findSnykConfig,
  publicBlocks,
} from "./context.js";
import {
  type EncodedJudge,
  findKubernetesData,
  findNamedSecrets,
  isPlainDataName,
} from "./detectors.js";
import { findMailLogins } from "./dialogues.js";
import { asText, decodeBase64, isPublicMaterial } from "./encoded.js";
import type { Gate } from "./gates.js";
import {
  entropy,
  isExample,
  isPlaceholderToken,
  isPublicName,
  isPublishable,
  looksSecret,
  normalizeName,
  PLACEHOLDER_VALUES,
} from "./judge.js";
import {
  continuesAsTemplate,
  keyName,
  looksEncodedRandom,
  MAX_DEPTH,
  PAGING_CONTEXT,
  SECRET_WORDISH,
  secretOf,
} from "./keyed.js";
import { findEncodedKeys, findJwkKeys, findPrivateKeys, findPuttyKeys } from "./keys.js";
import type { Compiled, RuleSet } from "./rule-set.js";
import type { RedactState, Span } from "./spans.js";
import { addEchoes, merge } from "./spans.js";
import { findDanglingValue, findSplitPairs } from "./split.js";
import { isBlank, isWord, tokenRun, WEAK_TAIL } from "./tails.js";
import { isTokenChar } from "./tokens.js";
import { cutView, firstAfter, redrawRegions, type Seam, spanInText, type View } from "./views.js";
import { pendingWrap, wrapRegions } from "./wraps.js";

/**
 * The redactor behind a `Redactor` function, for the streaming filter: it finds spans (without
 * applying them) and carries the "inside a private key" state from one piece of text to the next.
 */
export interface Engine {
  find(text: string, state?: RedactState): Span[];
  /**
   * Where the lines at the end of `text` (whole lines) that the next line could still continue
   * begin, as a hard-wrapped token: `text.length` when none. A stream holds them back for the
   * next piece, so the token is judged whole (see `pendingWrap`).
   */
  pending(text: string): number;
  /** True when `text` holds a keyword of a rule or a detector (where a match may begin). */
  anchored(text: string): boolean;
}

/**
 * @example
 * const engine = createEngine(compileRules());
 * engine.find("token=ghp_…"); // [{ rule: "github_token", start: 6, end: 46, … }]
 */
export function createEngine(rules: RuleSet): Engine {
  const {
    disabled,
    entries,
    scanner,
    known,
    keepExamples,
    keepPlaceholders,
    allow,
    allKeywords,
    isPlaceholder,
    allowed,
  } = rules;
  /** Names whose values come lines later are looked for on the lines with keyword hits. */
  const splitPairs = !disabled.has("split_secret");
  /** What an encoded value holds decides whether it is a secret (see EncodedJudge). */
  const judgeEncoded = (depth: number): EncodedJudge => {
    return (name, value, secretDoc) => {
      const bytes = decodeBase64(value);
      if (bytes === undefined) return undefined;
      const plain = asText(bytes);
      // Binary: key material or a keystore, unless nothing says it is a secret.
      if (plain === undefined) return bytes.length >= 8 && (secretDoc || SECRET_WORDISH.test(name));
      const t = plain.trim();
      if (t === "" || isPublicMaterial(t) || isPlaceholder(t)) return false;
      if (depth < MAX_DEPTH && scan(plain, undefined, depth + 1).length > 0) return true;
      if (isPlainDataName(name, secretDoc)) return false;
      if (secretDoc || SECRET_WORDISH.test(name)) return t.length >= 4;
      return t.length >= 16 && !/\s/.test(t) && looksSecret(t);
    };
  };

  /**
   * Whether a line a secret-printing command printed is a secret: not a certificate or public
   * key (in base64 too), not a `kubectl` jsonpath of a public entry (`{.data.ca\.crt}`).
   */
  const printedSecret = (value: string, command: string): boolean => {
    const entry = /\.data\.([\w\\.-]{1,128})/.exec(command)?.[1]?.replace(/\\/g, "");
    if (entry !== undefined && isPlainDataName(entry)) return false;
    const bytes = decodeBase64(value);
    const plain = bytes === undefined ? undefined : asText(bytes);
    if (plain !== undefined && isPublicMaterial(plain.trim())) return false;
    if (isPlaceholderToken(value, allKeywords) || PLACEHOLDER_VALUES.test(value)) return false;
    return looksSecret(value, 8) || looksEncodedRandom(value);
  };

  /** Whether a base64 blob (standard or URL-safe) decodes to text that holds a secret. */
  const holdsSecret =
    (depth: number) =>
    (blob: string): boolean => {
      if (depth >= MAX_DEPTH) return false;
      const bytes = decodeBase64(blob.replace(/-/g, "+").replace(/_/g, "/"));
      const plain = bytes === undefined ? undefined : asText(bytes);
      return plain !== undefined && scan(plain, undefined, depth + 1).length > 0;
    };

  /** Whether a pattern's match is a secret: placeholders, allow-lists, key names, values. */
  const accept = (
    c: Compiled,
    value: string,
    text: string,
    matchStart: number,
    valueStart: number,
    depth: number,
  ): boolean => {
    const rule = c.rule;
    if (PLACEHOLDER_VALUES.test(value)) return false;
    if (
      keepPlaceholders &&
      rule.placeholders !== false &&
      isPlaceholderToken(value, rule.keywords)
    ) {
      return false;
    }
    if (c.reject?.test(value)) return false;
    if (keepExamples && isExample(value)) return false;
    if (allowed(rule.id, value)) return false;
    if (
      rule.minEntropy !== undefined &&
      (entropy(value) < rule.minEntropy || /^\d+$/.test(value))
    ) {
      return false;
    }
    if (isPublishable(value)) return false;
    if (rule.keyed) {
      const name = keyName(text, matchStart, valueStart);
      if (isPublicName(name)) return false;
      if (
        normalizeName(name) === "token" &&
        PAGING_CONTEXT.test(text.slice(Math.max(0, matchStart - 80), matchStart))
      ) {
        return false;
      }
      if (continuesAsTemplate(text, valueStart + value.length)) return false;
      if (rule.encoded === "base64") {
        const bytes = decodeBase64(value);
        // Not text inside: a hash, an identifier or raw key bytes. Only a value with the variety
        // of encoded random bytes (both cases and a digit) is taken for key material.
        if (bytes === undefined || asText(bytes) === undefined) return looksEncodedRandom(value);
        return judgeEncoded(depth)(name, value, false) === true;
      }
      if (!looksSecret(value)) return false;
    }
    return true;
  };

  const runRule = (
    c: Compiled,
    text: string,
    from: number,
    to: number,
    spans: Span[],
    depth: number,
  ) => {
    const region = text.slice(from, to);
    // The position is kept here, not in the shared pattern: judging an encoded value searches
    // the decoded text with the same patterns, which would move their lastIndex under us.
    let next = 0;
    for (;;) {
      c.pattern.lastIndex = next;
      const m = c.pattern.exec(region);
      if (m === null) break;
      next = m[0].length === 0 ? c.pattern.lastIndex + 1 : c.pattern.lastIndex;
      if (m[0].length === 0) continue;
      const value = secretOf(m, c.rule.group);
      if (value === undefined || value === "") continue;
      const offset = c.rule.group !== undefined ? m[0].lastIndexOf(value) : 0;
      const start = from + m.index + offset;
      if (!accept(c, value, text, from + m.index, start, depth)) continue;
      // A value longer than its pattern's bound goes on: take the rest of its run too, so
      // no tail of a long secret is left behind (and the scan resumes after it).
      let end = start + value.length;
      const base64 = /[+/]/.test(value);
      while (end < to && isTokenChar(text.charCodeAt(end), base64)) end++;
      if (end > start + value.length) next = end - from;
      spans.push({
        rule: c.rule.id,
        start,
        end,
        from: from + m.index,
        generality: c.rule.generality ?? 0,
        rank: c.rank,
      });
    }
  };

  /**
   * Every span the rules and detectors find in `text` (unmerged). At depth 0 the views are
   * searched too; inside a view or a decoded value they are not (each view is already a joined or
   * folded copy, and one level of it is enough).
   */
  function scan(text: string, state: RedactState | undefined, depth: number): Span[] {
    const spans: Span[] = [];
    // Lines with keyword hits, and the rules their keywords call for: each rule then runs once
    // over each such line, however many hits the line has (so the work stays linear).
    const lines = new Map<number, { end: number; rules: Set<Compiled> }>();
    let lineStart = 0;
    let lineEnd = -1;
    let line: { end: number; rules: Set<Compiled> } | undefined;
    const seen = new Set<Gate>();
    const wide = scanner.scan(text, (at, id) => {
      const entry = entries[id];
      if (entry?.gate !== undefined) seen.add(entry.gate);
      // A keyword holds no line break, so hits never go back to an earlier line. A detector's
      // marker counts as a hit for the views' gate (an encoded token wrapped over lines).
      if (at > lineEnd) {
        lineStart = text.lastIndexOf("\n", at) + 1;
        lineEnd = text.indexOf("\n", at);
        if (lineEnd === -1) lineEnd = text.length;
        line = lines.get(lineStart);
        if (line === undefined) {
          line = { end: lineEnd, rules: new Set() };
          lines.set(lineStart, line);
        }
      }
      for (const c of entry?.rules ?? []) line?.rules.add(c);
    });
    for (const [start, { end, rules }] of lines) {
      for (const c of rules) runRule(c, text, start, end, spans, depth);
      if (splitPairs) findDanglingValue(text, start, end, spans);
    }
    if (seen.has("pem") || (state?.pem ?? 0) > 0) findPrivateKeys(text, spans, state);
    if (seen.has("named")) findNamedSecrets(text, spans);
    if (seen.has("jwk")) findJwkKeys(text, spans);
    if (seen.has("encoded")) findEncodedKeys(text, spans);
    if (seen.has("kube")) findKubernetesData(text, spans, judgeEncoded(depth), isPlaceholder);
    if (seen.has("mail")) findMailLogins(text, spans);
    if (seen.has("putty")) findPuttyKeys(text, spans);
    if (seen.has("output")) findCommandOutput(text, spans, printedSecret);
    if (seen.has("block")) findSecretBlocks(text, spans);
    if (seen.has("b64token")) findEncodedTokens(text, spans, holdsSecret(depth));
    if (seen.has("pgpass")) findPgpass(text, spans);
    if (seen.has("snyk")) findSnykConfig(text, spans);
    if (seen.has("split")) findSplitPairs(text, spans);
    for (const value of known) {
      for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + value.length)) {
        spans.push({ rule: "known_value", start: i, end: i + value.length, generality: 0 });
      }
    }
    if (depth === 0) searchViews(text, lines, wide, spans);
    let out = spans;
    // Values public by design (a SealedSecret's ciphertext) are not redacted by their key names.
    if (seen.has("sealed")) {
      const shields = publicBlocks(text);
      if (shields.length > 0) {
        out = out.filter(
          (s) => s.generality === 0 || !shields.some(([a, b]) => s.start >= a && s.end <= b),
        );
      }
    }
    // Examples and allow-listed values stay whichever detector found them.
    if (keepExamples || allow.size > 0) {
      out = out.filter((s) => {
        if (s.continued) return true;
        const value = text.slice(s.start, s.end);
        return !(keepExamples && isExample(value)) && !allowed(s.rule, value);
      });
    }
    if (depth === 0) addEchoes(text, out);
    return out;
  }

  /**
   * Spans found in a view, moved to the text; only those the view made whole are kept. `cut`
   * turns down a span that crosses a seam where the text already had a complete match ending.
   */
  const inView = (view: View, spans: Span[], cut?: (start: number, end: number) => boolean) => {
    for (const s of scan(view.text, undefined, 1)) {
      const span = spanInText(view, s.start, s.end);
      if (span === undefined || cut?.(span.start, span.end)) continue;
      const from = s.from === undefined ? undefined : view.at[s.from];
      spans.push({
        rule: s.rule,
        generality: s.generality,
        ...(s.rank !== undefined ? { rank: s.rank } : {}),
        ...span,
        ...(from !== undefined && from < span.start ? { from } : {}),
      });
    }
  };

  /** True when a piece of text holds a keyword of some rule (not only a detector's marker). */
  const hasKeyword = (text: string): boolean => {
    let found = false;
    scanner.scan(text, (_at, id) => {
      if (entries[id]?.gate === undefined) found = true;
    });
    return found;
  };

  function searchViews(
    text: string,
    lines: ReadonlyMap<number, unknown>,
    wide: number,
    spans: Span[],
  ): void {
    // Carriage-return redraws: the key before a return, the value after it.
    if (text.indexOf("\r") !== -1) {
      for (const r of redrawRegions(text)) {
        if (lines.has(r.lines[0] as number)) inView(cutView(text, r.from, r.to, r.removals), spans);
      }
    }
    // Hard wraps and soft breaks: a region is searched when one of its lines had a keyword, or
    // when a keyword was cut by one of its breaks. A line that already ends in a complete match
    // is not continued by the next one: a token that ends where its line does is whole, and the
    // next line's first word is not its tail (this leaves at most the tail of a token longer
    // than its format's minimum, cut after that minimum).
    if (text.indexOf("\n") !== -1) {
      let ends: Set<number> | undefined;
      // The scan meets lines in order, so the map's keys are ascending.
      for (const r of wrapRegions(text, [...lines.keys()])) {
        let gated = r.lines.some((start) => lines.has(start));
        for (let k = 0; !gated && k < r.removals.length; k++) {
          const cut = r.removals[k] as { start: number; end: number };
          gated = hasKeyword(
            text.slice(Math.max(r.from, cut.start - 24), cut.start) +
              text.slice(cut.end, cut.end + 24),
          );
        }
        if (!gated) continue;
        ends ??= new Set(spans.map((s) => s.end));
        const complete = ends;
        const cuts = r.removals.map((cut) => cut.start);
        inView(cutView(text, r.from, r.to, r.removals), spans, (start, end) => {
          for (let k = firstAfter(cuts, start); k < cuts.length; k++) {
            const cut = r.removals[k] as Seam;
            if (cut.start >= end) break;
            // A match complete at its line's end is not continued across a weak seam; a
            // placeholder that ends where its line does is not continued at all.
            // (A match may end before a soft break's `=` or after it, as base64 padding.)
            const whole = complete.has(cut.start) || complete.has(cut.start + 1);
            if (whole) {
              const tail = tokenRun(text, cut.end);
              if (!cut.strong && tail < WEAK_TAIL) return true;
              // Even at a common wrap width, a short word of letters and a space after it is the
              // next line's prose (`…=ghp_…` at column 60, then `The deploy finished`), not the
              // tail of a token: a tail of random characters has digits or mixed case.
              if (isWord(text, cut.end, tail) && isBlank(text.charCodeAt(cut.end + tail)))
                return true;
            }
            if (isPlaceholderToken(text.slice(start, cut.start), [])) return true;
          }
          return false;
        });
      }
    }
    // Look-alike letters and invisibles in key names: lines with non-ASCII characters.
    if (wide > 0) {
      for (let at = nextWide(text, 0); at !== -1; ) {
        const start = text.lastIndexOf("\n", at) + 1;
        let end = text.indexOf("\n", at);
        if (end === -1) end = text.length;
        at = nextWide(text, end);
        for (let from = start; from < end; from += FOLD_WINDOW - FOLD_OVERLAP) {
          const to = Math.min(end, from + FOLD_WINDOW);
          const view = foldView(text, from, to);
          if (view !== undefined && hasKeyword(view.text)) inView(view, spans);
          if (to === end) break;
        }
      }
    }
  }

  /** The starts of the lines with a keyword hit, as `scan` finds them (the wrap anchors). */
  const keywordLines = (text: string): number[] => {
    const starts: number[] = [];
    let lineEnd = -1;
    scanner.scan(text, (at) => {
      if (at <= lineEnd) return;
      starts.push(text.lastIndexOf("\n", at) + 1);
      lineEnd = text.indexOf("\n", at);
      if (lineEnd === -1) lineEnd = text.length;
    });
    return starts;
  };

  return {
    find(text: string, state?: RedactState): Span[] {
      return merge(scan(text, state, 0));
    },
    pending(text: string): number {
      return pendingWrap(text, keywordLines);
    },
    anchored(text: string): boolean {
      let hit = false;
      scanner.scan(text, () => {
        hit = true;
      });
      return hit;
    },
  };
}

const WIDE = /[\u0080-\uffff]/g;

/** Where the next character that is not ASCII is, from `from` on, or -1 (a native search). */
function nextWide(text: string, from: number): number {
  WIDE.lastIndex = from;
  return WIDE.exec(text)?.index ?? -1;
}

/** Lines longer than this are folded in overlapping windows. */
const FOLD_WINDOW = 16 * 1024;
const FOLD_OVERLAP = 1024;
