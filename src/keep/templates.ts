/**
 * Event templates, mined as the stream passes: a bounded table in the manner of Drain (He et al.,
 * "Drain: An Online Log Parsing Approach with Fixed Depth Tree", ICWS 2017). A line is cut into
 * tokens and masked (numbers, ids, dates); lines of one severity, one token count and the same
 * first two literal tokens fall in one leaf of the parse tree, where the line joins the template it
 * resembles most (the share of literal tokens that agree, at least SIMILARITY) or starts a new one.
 * A joined template turns the tokens that disagree into wildcards.
 *
 * The table holds at most `cap` templates; past it the least recently seen (quiet ones first) is
 * evicted and counted. Each template carries its count, first, second and last positions, and its
 * severity; a severe one also a sample of its positions. Memory is O(cap) whatever the input.
 *
 * Lines the decoder does not materialise are credited through two hashes (`signature.ts`): a
 * signature of the masked line (exact), and a cheaper prefix that the table learns to trust per
 * prefix, checking one sighting in CHECK_EVERY and marking a prefix ambiguous when two templates
 * share it.
 */
import type { Severity } from "../pipeline/unit.js";
import { HashSlots, prefixOf, signatureOf, tokensOf, WILD } from "./signature.js";

/** Templates a table holds by default (per text section, per records stream). */
export const TEMPLATE_CAP = 2048;

/** Share of literal tokens that must agree for a line to join a template. */
const SIMILARITY = 0.5;
/** Templates compared in one leaf of the tree, at most (the most recently created). */
const LEAF_CAP = 32;
/** Positions sampled per severe template: the first ones and a ring of the last ones. */
const SAMPLE = 8;
/** One sighting in this many through a trusted prefix is checked against the full signature. */
const CHECK_EVERY = 64;
/** Quiet templates looked at from the least recent end before a severe one may be evicted. */
const EVICT_SCAN = 32;

/** One event template and what is known of its lines. */
export interface Template {
  /** Unique within its table, never reused. */
  readonly id: number;
  /** The masked tokens, WILD where lines disagree. */
  readonly tokens: string[];
  readonly severity: Severity;
  /** Lines of this template, each repeat counted. */
  count: number;
  /** Sightings: a run of identical consecutive lines counts once. */
  runs: number;
  /** Positions (1-based lines or records) of the first, second and last sighting. */
  first: number;
  second: number;
  last: number;
  /** For a severe template: the first SAMPLE positions, then a ring of the last SAMPLE. */
  readonly positions: number[] | undefined;
  /** False once the table let it go (its counts stop there). */
  live: boolean;
  /** Links of the recency list (most recent at the head). */
  newer: Template | undefined;
  older: Template | undefined;
  /** The leaf of the tree it is compared in, and that leaf's key. */
  leaf: Template[] | undefined;
  readonly key: string;
}

export interface TemplateTable {
  /** Mines a built line at `position` and counts it: the template it joined or started. */
  mine(line: string, severity: Severity, position: number): Template;
  /** Counts one more line of `t` (the repeat of the line before, or a line known without mining). */
  repeat(t: Template, position: number): void;
  /**
   * The template of the quiet line `text[start, end)` at `position`, counted, when it can be
   * known without building the line; undefined when the line must be built and mined. `exact`
   * takes the full signature; otherwise the prefix is used where it has been reliable.
   */
  sight(
    text: string,
    start: number,
    end: number,
    position: number,
    exact: boolean,
  ): Template | undefined;
  /** Templates made, and let go by the cap. */
  readonly created: number;
  readonly evicted: number;
  /** The live templates. */
  live(): Iterable<Template>;
}

export interface TableOptions {
  readonly cap: number;
  /** Called once when a template's sightings reach three: it is no longer rare. */
  readonly onCommon?: (t: Template) => void;
}

/**
 * @example
 * const table = createTemplateTable({ cap: 2048 });
 * table.mine("job 1 done", 0, 1) === table.mine("job 2 done", 0, 2); // true
 */
export function createTemplateTable(options: TableOptions): TemplateTable {
  const cap = Math.max(1, options.cap);
  const onCommon = options.onCommon;
  const leaves = new Map<string, Template[]>();
  const bySignature = new HashSlots<Template>(cap * 8);
  // Prefix → template, with per-prefix trust: ambiguous prefixes are always checked.
  const byPrefix = new HashSlots<Template>(cap * 4);
  const ambiguous = new Uint8Array(byPrefix.capacity);
  const checks = new Uint8Array(byPrefix.capacity);
  let newest: Template | undefined;
  let oldest: Template | undefined;
  let size = 0;
  let created = 0;
  let evicted = 0;

  function unlink(t: Template): void {
    if (t.newer) t.newer.older = t.older;
    else newest = t.older;
    if (t.older) t.older.newer = t.newer;
    else oldest = t.newer;
    t.newer = undefined;
    t.older = undefined;
  }

  function touch(t: Template): void {
    if (newest === t) return;
    // A new template is not in the list yet.
    if (t.newer !== undefined || t.older !== undefined || oldest === t) unlink(t);
    t.older = newest;
    if (newest) newest.newer = t;
    newest = t;
    oldest ??= t;
  }

  function count(t: Template, position: number, repeat: boolean): void {
    t.count++;
    t.last = position;
    if (!repeat) {
      t.runs++;
      if (t.runs === 2) t.second = position;
      else if (t.runs === 3) onCommon?.(t);
    }
    const p = t.positions;
    if (p !== undefined) {
      if (p.length < SAMPLE * 2) p.push(position);
      else p[SAMPLE + ((t.count - 1 - SAMPLE) % SAMPLE)] = position;
    }
    touch(t);
  }

  /** Lets go of the least recent template, a quiet one if one is near the end. */
  function evict(): void {
    let victim = oldest;
    let look = oldest;
    for (let i = 0; look !== undefined && i < EVICT_SCAN; i++, look = look.newer) {
      if (look.severity === 0) {
        victim = look;
        break;
      }
    }
    if (victim === undefined) return;
    unlink(victim);
    victim.live = false;
    const leaf = victim.leaf;
    if (leaf) {
      const at = leaf.indexOf(victim);
      if (at !== -1) leaf.splice(at, 1);
      if (leaf.length === 0 && leaves.get(victim.key) === leaf) leaves.delete(victim.key);
    }
    victim.leaf = undefined;
    size--;
    evicted++;
  }

  function create(
    tokens: string[],
    severity: Severity,
    position: number,
    key: string,
    leaf: Template[],
  ): Template {
    if (size >= cap) {
      evict();
      // The victim may have been the last of this very leaf, which then left the tree.
      if (leaves.get(key) !== leaf) leaves.set(key, leaf);
    }
    const t: Template = {
      id: ++created,
      tokens,
      severity,
      count: 0,
      runs: 0,
      first: position,
      second: 0,
      last: position,
      positions: severity > 0 ? [] : undefined,
      live: true,
      newer: undefined,
      older: undefined,
      leaf,
      key,
    };
    leaf.push(t);
    // The leaf compares its most recent templates; older ones are still counted by signature.
    if (leaf.length > LEAF_CAP) (leaf.shift() as Template).leaf = undefined;
    size++;
    touch(t);
    return t;
  }

  function match(tokens: string[], severity: Severity, position: number): Template {
    const key = leafKey(severity, tokens);
    let leaf = leaves.get(key);
    if (leaf === undefined) {
      leaf = [];
      leaves.set(key, leaf);
    }
    let best: Template | undefined;
    let bestScore = -1;
    for (let i = leaf.length - 1; i >= 0; i--) {
      const t = leaf[i] as Template;
      const score = similarity(t.tokens, tokens);
      if (score >= SIMILARITY && score > bestScore) {
        best = t;
        bestScore = score;
      }
    }
    if (best === undefined) return create(tokens, severity, position, key, leaf);
    const own = best.tokens;
    for (let i = 0; i < own.length; i++) if (own[i] !== tokens[i]) own[i] = WILD;
    return best;
  }

  function learnPrefix(prefix: number, t: Template): void {
    const at = byPrefix.find(prefix);
    if (at === -1) {
      const slot = byPrefix.set(prefix, t);
      ambiguous[slot] = 0;
      checks[slot] = 0;
      return;
    }
    const held = byPrefix.valueAt(at);
    if (held !== t) {
      if (held?.live) ambiguous[at] = 1;
      byPrefix.set(prefix, t);
    }
  }

  return {
    mine(line, severity, position) {
      const signature = signatureOf(line, 0, line.length, severity);
      let t = bySignature.get(signature);
      if (t === undefined || !t.live) {
        t = match(tokensOf(line), severity, position);
        bySignature.set(signature, t);
      }
      count(t, position, false);
      if (severity === 0) learnPrefix(prefixOf(line, 0, line.length), t);
      return t;
    },
    repeat(t, position) {
      count(t, position, true);
    },
    sight(text, start, end, position, exact) {
      const prefix = prefixOf(text, start, end);
      if (exact) {
        const t = bySignature.get(signatureOf(text, start, end, 0));
        if (t === undefined || !t.live) return undefined;
        count(t, position, false);
        learnPrefix(prefix, t);
        return t;
      }
      const at = byPrefix.find(prefix);
      if (at === -1) return undefined;
      let t = byPrefix.valueAt(at) as Template;
      if (!t.live) return undefined;
      checks[at] = ((checks[at] as number) + 1) & (CHECK_EVERY - 1);
      if (ambiguous[at] === 1 || checks[at] === 0) {
        const s = bySignature.get(signatureOf(text, start, end, 0));
        if (s === undefined || !s.live) return undefined;
        if (s !== t) ambiguous[at] = 1;
        t = s;
      }
      count(t, position, false);
      return t;
    },
    get created() {
      return created;
    },
    get evicted() {
      return evicted;
    },
    *live() {
      for (let t = newest; t !== undefined; t = t.older) yield t;
    },
  };
}

/** The tree path of a line: severity, token count and its first two literal tokens. */
function leafKey(severity: Severity, tokens: readonly string[]): string {
  let a = WILD;
  let b = WILD;
  for (const t of tokens) {
    if (t === WILD) continue;
    if (a === WILD) a = t;
    else {
      b = t;
      break;
    }
  }
  return `${severity}\u0000${tokens.length}\u0000${a}\u0000${b}`;
}

/**
 * Share of the template's literal tokens that the line repeats (a wildcard of the template
 * agrees with anything). 1 when the template has no literal token left.
 */
function similarity(template: readonly string[], tokens: readonly string[]): number {
  if (template.length !== tokens.length) return -1;
  let same = 0;
  let literal = 0;
  for (let i = 0; i < template.length; i++) {
    const t = template[i];
    if (t === WILD) continue;
    literal++;
    if (t === tokens[i]) same++;
  }
  return literal === 0 ? 1 : same / literal;
}

/** A template as words: its tokens with `<*>` where lines differ. */
export function templateText(t: Template): string {
  return t.tokens.join(" ");
}
