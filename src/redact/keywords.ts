/**
 * The redactor's prefilter: finds every occurrence of every rule keyword in one pass over the
 * text, whatever the number of keywords. An Aho–Corasick automaton over lowercased ASCII with a
 * dense transition table: one table step a character. A regex alternation of a few hundred
 * literals costs V8 several times more, and grows with every rule.
 */
export interface KeywordScanner {
  /**
   * Calls `hit(start, id)` for each keyword occurrence (ids as given to the factory), in order of
   * where the keyword ends. Case-sensitive keywords are checked against the original text.
   * Returns how many characters were not ASCII (the redactor folds look-alikes only then).
   */
  scan(text: string, hit: (start: number, id: number) => void): number;
}

export interface Keyword {
  /** ASCII only. */
  readonly text: string;
  /** Match in any case. */
  readonly fold: boolean;
}

const ALPHABET = 128;

/**
 * Scanners already built, by their keyword list: building one takes milliseconds, and `shape()`
 * compiles its options (so its redactor) on every call. Immutable, so sharing is safe.
 */
const built = new Map<string, KeywordScanner>();
const BUILT_MAX = 16;

export function createKeywordScanner(keywords: readonly Keyword[]): KeywordScanner {
  const signature = keywords.map((k) => `${k.fold ? "i" : "s"}${k.text}`).join("\n");
  const cached = built.get(signature);
  if (cached !== undefined) return cached;
  const scanner = buildScanner(keywords);
  if (built.size >= BUILT_MAX) built.delete(built.keys().next().value as string);
  built.set(signature, scanner);
  return scanner;
}

function buildScanner(keywords: readonly Keyword[]): KeywordScanner {
  // The trie, over lowercased keywords.
  const children: Array<Map<number, number>> = [new Map()];
  const ends: number[][] = [[]];
  keywords.forEach((k, id) => {
    let state = 0;
    for (let i = 0; i < k.text.length; i++) {
      const c = lower(k.text.charCodeAt(i));
      let next = children[state]?.get(c);
      if (next === undefined) {
        next = children.length;
        children.push(new Map());
        ends.push([]);
        children[state]?.set(c, next);
      }
      state = next;
    }
    ends[state]?.push(id);
  });
  // Dense transitions with failure links folded in; each state's output includes those of its
  // suffixes, so a hit is known without walking links.
  const states = children.length;
  const delta =
    states < 65536 ? new Uint16Array(states * ALPHABET) : new Uint32Array(states * ALPHABET);
  const failure = new Uint32Array(states);
  const queue: number[] = [];
  for (const [c, next] of children[0] ?? []) {
    delta[c] = next;
    queue.push(next);
  }
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head] as number;
    const row = s * ALPHABET;
    const fallback = (failure[s] as number) * ALPHABET;
    for (let c = 0; c < ALPHABET; c++) {
      const next = children[s]?.get(c);
      if (next === undefined) {
        delta[row + c] = delta[fallback + c] as number;
        continue;
      }
      delta[row + c] = next;
      failure[next] = delta[fallback + c] as number;
      // Keywords ending at the failure state end here too (a loop: no spread into a call).
      const own = ends[next];
      if (own) for (const k of ends[failure[next] as number] ?? []) own.push(k);
      queue.push(next);
    }
  }
  // Upper-case letters step like lower-case ones: the scan needs no folding of its own.
  for (let s = 0; s < states; s++) {
    const row = s * ALPHABET;
    for (let c = 65; c <= 90; c++) delta[row + c] = delta[row + c + 32] as number;
  }
  // The scan steps by row offsets: each entry is the next state's row (its number times the
  // alphabet size) with bit 0 set when that state ends a keyword, so one load a character says
  // both where to go and whether anything matched.
  const rows = new Uint32Array(states * ALPHABET);
  for (let k = 0; k < rows.length; k++) {
    const next = delta[k] as number;
    rows[k] = next * ALPHABET + ((ends[next]?.length ?? 0) > 0 ? 1 : 0);
  }
  const output = ends;
  const lengths = keywords.map((k) => k.text.length);

  return {
    scan(text, hit) {
      let row = 0;
      let wide = 0;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= ALPHABET) {
          row = 0;
          wide++;
          continue;
        }
        const step = rows[row + c] as number;
        row = step & ~1;
        if ((step & 1) === 0) continue;
        for (const id of output[row / ALPHABET] as number[]) {
          const start = i + 1 - (lengths[id] as number);
          const k = keywords[id] as Keyword;
          if (k.fold || text.startsWith(k.text, start)) hit(start, id);
        }
      }
      return wide;
    },
  };
}

function lower(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}
