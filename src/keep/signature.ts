/**
 * The cheap parts of template mining: how a line is cut into tokens and masked, two hashes of a
 * line that can be taken without building it (a full signature and a prefix), and a bounded hash
 * table that maps a hash to a value without ever growing. Everything here is a plain loop over
 * character codes: the skip path runs it on lines it never materialises.
 */

/** A masked token: a number, an id, a date or time, anything that varies between events. */
export const WILD = "<*>";

/** Characters of a line that are mined: two events that agree this far share a template. */
export const MINED_CHARS = 512;
/** Tokens of a line that are mined. */
export const MINED_TOKENS = 64;
/** Leading characters of the prefix signature (digit runs folded). */
const PREFIX_CHARS = 32;

const FNV = 0x811c9dc5;
const PRIME = 16777619;

/** Three-letter month and weekday names: part of a date, so masked like its numbers. */
const DATE_NAMES = new Set([
  "jan",
  "feb",
  "mar",
  "apr",
  "may",
  "jun",
  "jul",
  "aug",
  "sep",
  "oct",
  "nov",
  "dec",
  "mon",
  "tue",
  "wed",
  "thu",
  "fri",
  "sat",
  "sun",
]);

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * True when `text[start, end)` is a month or weekday name, maybe in brackets or before a comma
 * (`[Sun`, `Dec`, `Mon,`). Only tokens of three to five characters are looked at.
 */
function isDateName(text: string, start: number, end: number): boolean {
  const n = end - start;
  if (n < 3 || n > 5) return false;
  let from = start;
  let to = end;
  while (from < to && !isLetter(text.charCodeAt(from))) from++;
  while (to > from && !isLetter(text.charCodeAt(to - 1))) to--;
  if (to - from !== 3) return false;
  for (let i = from; i < to; i++) if (!isLetter(text.charCodeAt(i))) return false;
  return DATE_NAMES.has(text.slice(from, to).toLowerCase());
}

/**
 * A hex id can be all letters (`req=cecebccc`: one in about 2,600 of eight hex digits is): a run
 * of this many of `a-f` marks an id, as a digit does. No English word has one.
 */
const HEX_LETTERS = 8;

function isHexLetter(c: number): boolean {
  return (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * True when the token `text[start, end)` is masked: it holds a digit or a run of HEX_LETTERS hex
 * letters, or it names a date.
 */
export function masked(text: string, start: number, end: number): boolean {
  let hex = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
    hex = isHexLetter(c) ? hex + 1 : 0;
    if (hex === HEX_LETTERS) return true;
  }
  return isDateName(text, start, end);
}

/** A token that ends a header: a name (letters) and a `:` at its end, as `sshd[42]:`. */
const isTag = (token: string) => token.endsWith(":") && /[A-Za-z]/.test(token);

/**
 * In a syslog-like header (a date and time, one or two plain words, then a `tag[pid]:` token),
 * the plain words are fields such as the host name: masked, so the events of two hosts share
 * their templates. A level word stays. `raw` are the tokens before masking.
 */
function maskHeaderFields(
  tokens: string[],
  raw: readonly string[],
  isLevel: (word: string) => boolean,
): void {
  let lead = 0;
  while (lead < tokens.length && tokens[lead] === WILD) {
    // The `tag[pid]:` token is among the masked ones (a host and a pid with digits): the header
    // ended there, and the words after it are the message's. A time or a year ending in `:`
    // (`10:00:00:`, `2026:`) has no letter: the header goes on past it.
    if (lead >= 2 && isTag(raw[lead] as string)) return;
    lead++;
  }
  if (lead < 2) return;
  for (let i = lead; i < Math.min(tokens.length, lead + 3); i++) {
    if (!(raw[i] as string).endsWith(":")) continue;
    if (i === lead) return;
    for (let j = lead; j < i; j++) {
      const field = tokens[j] as string;
      if (field !== WILD && !isLevel(field)) tokens[j] = WILD;
    }
    return;
  }
}

/**
 * The masked tokens of a line, as the tree compares them: split at spaces and tabs, each token
 * with a digit, a hex id or a date name replaced by WILD, at most MINED_TOKENS of the first MINED_CHARS;
 * the fields of a syslog-like header (a host) are masked too (`isLevel` tells a level word, kept).
 *
 * @example
 * tokensOf("job 42 failed on Mon"); // ["job", "<*>", "failed", "on", "<*>"]
 */
export function tokensOf(line: string, isLevel: (word: string) => boolean = () => false): string[] {
  const end = Math.min(line.length, MINED_CHARS);
  const tokens: string[] = [];
  const raw: string[] = [];
  let i = 0;
  while (i < end && tokens.length < MINED_TOKENS) {
    while (i < end && isSpace(line.charCodeAt(i))) i++;
    if (i >= end) break;
    const from = i;
    while (i < end && !isSpace(line.charCodeAt(i))) i++;
    const token = line.slice(from, i);
    raw.push(token);
    // A copy, not a slice: a template lives long, and a slice would keep its whole decoded
    // chunk (a megabyte) alive.
    tokens.push(masked(line, from, i) ? WILD : ` ${token}`.slice(1));
  }
  maskHeaderFields(tokens, raw, isLevel);
  return tokens;
}

/**
 * A hash of the masked tokens of `text[start, end)` (as `tokensOf` gives them, header fields
 * aside), mixed with `salt` (the line's severity): lines with one signature share a template
 * (lines of two signatures may share one too: the signature is a cache key). One pass over the
 * characters, no string built.
 */
export function signatureOf(text: string, start: number, end: number, salt: number): number {
  const stop = Math.min(end, start + MINED_CHARS);
  let h = Math.imul(FNV ^ (salt + 1), PRIME);
  let tokens = 0;
  let i = start;
  while (i < stop && tokens < MINED_TOKENS) {
    let c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const from = i;
    let t = FNV;
    let digit = false;
    let hex = 0;
    while (i < stop) {
      c = text.charCodeAt(i);
      if (isSpace(c)) break;
      if (c >= 48 && c <= 57) digit = true;
      hex = isHexLetter(c) ? hex + 1 : 0;
      if (hex === HEX_LETTERS) digit = true;
      t = Math.imul(t ^ c, PRIME);
      i++;
    }
    const wild = digit || isDateName(text, from, i);
    // Each token enters the line hash as one value, so token boundaries count.
    h = Math.imul(h ^ (wild ? 42 : t), PRIME);
    tokens++;
  }
  return h === 0 ? 1 : h;
}

/**
 * A hash of the first PREFIX_CHARS characters of `text[start, end)` with each run of digits
 * folded to one symbol: a prefilter, cheaper than the signature, that most lines of a template
 * share (and several templates may share too; the table learns which prefixes are ambiguous).
 */
export function prefixOf(text: string, start: number, end: number): number {
  let h = FNV;
  const n = Math.min(end, start + PREFIX_CHARS);
  let digits = false;
  for (let i = start; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits) continue;
      digits = true;
      h = Math.imul(h ^ 35, PRIME);
      continue;
    }
    digits = false;
    h = Math.imul(h ^ c, PRIME);
  }
  return h === 0 ? 1 : h;
}

/** Slots probed for a key before a lookup gives up (and an insert overwrites). */
const PROBES = 8;

/** Slots a table starts with: a small result allocates that much, not the most it may need. */
const FIRST_SLOTS = 16;

/**
 * A bounded map from non-zero 32-bit hashes to values: open addressing with a bounded probe. It
 * starts small and doubles while it is more than half full, up to `slots`; at that size it never
 * grows again, and an insert into a full neighbourhood overwrites its home slot. So memory is
 * bounded whatever the input, time per operation is constant (amortized while it grows), and a
 * small input pays for a small table; what it forgets is looked up again the slow way. `lanes`
 * are 16-bit counters per slot that move with their entry when it grows (read them again after
 * a `set`, which may grow the table).
 */
export class HashSlots<V> {
  private keys: Int32Array;
  private values: Array<V | undefined>;
  private mask: number;
  private used = 0;
  private readonly most: number;
  /** Per-slot counters, one array per lane, indexed like `find` and `set`. */
  lanes: Uint16Array[];

  constructor(slots: number, lanes = 0) {
    // Powers of two, so the home slot is a mask.
    let most = 16;
    while (most < slots) most *= 2;
    this.most = most;
    const size = Math.min(most, FIRST_SLOTS);
    this.keys = new Int32Array(size);
    this.values = new Array<V | undefined>(size).fill(undefined);
    this.mask = size - 1;
    this.lanes = Array.from({ length: lanes }, () => new Uint16Array(size));
  }

  /** Slots in use now (indexes of `find` and `set` are below it). */
  get capacity(): number {
    return this.keys.length;
  }

  /** The slot holding `key`, or -1. */
  find(key: number): number {
    const keys = this.keys;
    let i = key & this.mask;
    for (let p = 0; p < PROBES; p++) {
      const k = keys[i] as number;
      if (k === key) return i;
      if (k === 0) return -1;
      i = (i + 1) & this.mask;
    }
    return -1;
  }

  get(key: number): V | undefined {
    const at = this.find(key);
    return at === -1 ? undefined : this.values[at];
  }

  valueAt(slot: number): V | undefined {
    return this.values[slot];
  }

  /** Sets `key` to `value` and returns its slot (a new key's lanes start at 0). */
  set(key: number, value: V): number {
    for (;;) {
      const keys = this.keys;
      let i = key & this.mask;
      for (let p = 0; p < PROBES; p++) {
        const k = keys[i] as number;
        if (k === key) {
          this.values[i] = value;
          return i;
        }
        if (k === 0) {
          if (this.used * 2 >= keys.length && keys.length < this.most) break;
          keys[i] = key;
          this.values[i] = value;
          this.used++;
          return i;
        }
        i = (i + 1) & this.mask;
      }
      if (keys.length < this.most) {
        this.grow();
        continue;
      }
      const home = key & this.mask;
      keys[home] = key;
      this.values[home] = value;
      for (const lane of this.lanes) lane[home] = 0;
      return home;
    }
  }

  /** Twice the slots, every entry and its lanes moved to its place in them. */
  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    const lanes = this.lanes;
    const size = keys.length * 2;
    this.keys = new Int32Array(size);
    this.values = new Array<V | undefined>(size).fill(undefined);
    this.mask = size - 1;
    this.lanes = lanes.map(() => new Uint16Array(size));
    this.used = 0;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j] as number;
      if (key === 0) continue;
      let i = key & this.mask;
      // Half full at most, so a free slot is always near: no probe bound while moving.
      while (this.keys[i] !== 0) i = (i + 1) & this.mask;
      this.keys[i] = key;
      this.values[i] = values[j];
      for (let l = 0; l < lanes.length; l++)
        (this.lanes[l] as Uint16Array)[i] = (lanes[l] as Uint16Array)[j] as number;
      this.used++;
    }
  }
}
