/**
 * Event templates, mined as the stream passes: a bounded table in the manner of Drain (He et al.,
 * "Drain: An Online Log Parsing Approach with Fixed Depth Tree", ICWS 2017). A line is cut into
 * tokens and masked (numbers, ids, dates); lines of one severity, one token count and the same
 * first two literal tokens fall in one leaf of the parse tree, where the line joins the template it
 * resembles most (the share of literal tokens that agree, at least SIMILARITY) or starts a new one.
 * A joined template turns the tokens that disagree into wildcards.
 *
 * The table holds at most `cap` templates; past it one not seen for a while (a quiet one before
 * a severe one, found by a clock sweep: constant time per line) is evicted and counted. Each template carries its count, first, second and last positions, and its
 * severity; a severe one also a sample of its positions. Memory is O(cap) whatever the input.
 *
 * Lines the decoder does not materialise are credited through two hashes (`signature.ts`): a
 * signature of the masked line (exact), and a cheaper prefix that the table learns to trust per
 * prefix: it points at the commonest template seen behind it, one sighting in CHECK_EVERY is
 * checked against the signature, and a prefix whose template is wrong too often is checked
 * every time (the lines of a prefix trusted wrongly are credited to its commonest template).
 */
import type { Severity } from "../pipeline/unit.js";
import { isLevelWord } from "./evidence.js";
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
const CHECK_EVERY = 1024;

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
  /** Seen since the eviction clock last passed it. */
  recent: boolean;
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
  /** A template by id: a live one, or one of the last `cap` let go (held lines may point at it). */
  byId(id: number): Template | undefined;
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
  // Prefix → template, with per-prefix trust: how often a look at the full signature agreed.
  // Its lanes: agree, disagree, and sightings until the next check (0: check every sighting,
  // the prefix is not trusted; one read per skipped line).
  const byPrefix = new HashSlots<Template>(cap * 4, 3);
  const AGREE = 0;
  const DISAGREE = 1;
  const UNTIL_CHECK = 2;
  // The templates, in slots an eviction clock sweeps: a template seen since the hand last passed
  // is spared once (its mark cleared); a quiet one goes before any severe one.
  const slots: Template[] = [];
  let hand = 0;
  let created = 0;
  let evicted = 0;
  const retired = new Map<number, Template>();

  function count(t: Template, position: number, repeat: boolean): void {
    t.count++;
    t.last = position;
    t.recent = true;
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
  }

  /** The slot of the template to let go, which is then let go. */
  function evict(): number {
    const n = slots.length;
    let at = hand;
    // Three sweeps at most: the first clears marks, the first two pass severe templates by.
    for (let step = 0; step < 3 * n; step++) {
      at = (hand + step) % n;
      const look = slots[at] as Template;
      if (look.recent) look.recent = false;
      else if (look.severity === 0 || step >= 2 * n) break;
    }
    hand = (at + 1) % n;
    const victim = slots[at] as Template;
    victim.live = false;
    const leaf = victim.leaf;
    if (leaf) {
      const i = leaf.indexOf(victim);
      if (i !== -1) leaf.splice(i, 1);
      if (leaf.length === 0 && leaves.get(victim.key) === leaf) leaves.delete(victim.key);
    }
    victim.leaf = undefined;
    evicted++;
    retired.set(victim.id, victim);
    if (retired.size > cap) retired.delete(retired.keys().next().value as number);
    return at;
  }

  function create(
    tokens: string[],
    severity: Severity,
    position: number,
    key: string,
    leaf: Template[],
  ): Template {
    const slot = slots.length < cap ? slots.length : evict();
    // The victim may have been the last of this very leaf, which then left the tree.
    if (leaves.get(key) !== leaf) leaves.set(key, leaf);
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
      recent: true,
      leaf,
      key,
    };
    slots[slot] = t;
    leaf.push(t);
    // The leaf compares its most recent templates; older ones are still counted by signature.
    if (leaf.length > LEAF_CAP) (leaf.shift() as Template).leaf = undefined;
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

  /**
   * Records that a line with `prefix` is of template `t`. The prefix points at the commoner of
   * the templates seen behind it; it is trusted while they seldom differ.
   */
  function learnPrefix(prefix: number, t: Template): void {
    let at = byPrefix.find(prefix);
    if (at === -1) {
      at = byPrefix.set(prefix, t);
      const lanes = byPrefix.lanes;
      (lanes[AGREE] as Uint16Array)[at] = 1;
      (lanes[DISAGREE] as Uint16Array)[at] = 0;
      (lanes[UNTIL_CHECK] as Uint16Array)[at] = 1;
      return;
    }
    const agree = byPrefix.lanes[AGREE] as Uint16Array;
    const disagree = byPrefix.lanes[DISAGREE] as Uint16Array;
    const held = byPrefix.valueAt(at) as Template;
    if (held === t) agree[at] = (agree[at] as number) + 1;
    else {
      disagree[at] = (disagree[at] as number) + 1;
      // The key is there: setting it again moves nothing.
      if (!held.live || t.count > held.count) byPrefix.set(prefix, t);
    }
    // Old evidence fades, so a prefix can earn its trust back.
    if ((agree[at] as number) + (disagree[at] as number) >= 4096) {
      agree[at] = (agree[at] as number) >> 1;
      disagree[at] = (disagree[at] as number) >> 1;
    }
    // Trusted while its template was right in at least seven looks of eight.
    const trusted =
      (disagree[at] as number) * 8 <= (agree[at] as number) + (disagree[at] as number);
    (byPrefix.lanes[UNTIL_CHECK] as Uint16Array)[at] = trusted ? CHECK_EVERY : 0;
  }

  /** Counts a quiet line known without mining (never a repeat, never severe). */
  function credit(t: Template, position: number): void {
    t.count++;
    t.last = position;
    t.recent = true;
    if (++t.runs <= 3) {
      if (t.runs === 2) t.second = position;
      else if (t.runs === 3) onCommon?.(t);
    }
  }

  return {
    mine(line, severity, position) {
      const signature = signatureOf(line, 0, line.length, severity);
      let t = bySignature.get(signature);
      if (t === undefined || !t.live) {
        t = match(tokensOf(line, isLevelWord), severity, position);
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
        credit(t, position);
        learnPrefix(prefix, t);
        return t;
      }
      const at = byPrefix.find(prefix);
      if (at === -1) return undefined;
      let t = byPrefix.valueAt(at) as Template;
      if (!t.live) return undefined;
      const untilCheck = byPrefix.lanes[UNTIL_CHECK] as Uint16Array;
      const left = untilCheck[at] as number;
      if (left > 1) untilCheck[at] = left - 1;
      else {
        // A check (or an untrusted prefix): the full signature says which template it is.
        const s = bySignature.get(signatureOf(text, start, end, 0));
        if (s === undefined || !s.live) return undefined;
        learnPrefix(prefix, s);
        t = s;
      }
      credit(t, position);
      return t;
    },
    get created() {
      return created;
    },
    get evicted() {
      return evicted;
    },
    live() {
      return slots;
    },
    byId(id) {
      const r = retired.get(id);
      if (r !== undefined) return r;
      for (const t of slots) if (t.id === id) return t;
      return undefined;
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
