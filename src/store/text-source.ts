/**
 * Lines of a stored text result, read out of its parts: the part holding a line is found from
 * the parts' line-break counts (no part before it is loaded), a loaded part keeps the offsets
 * of its line breaks (a small LRU per reader), and each line is normalised as the line decoder
 * normalised it for the first page (colour codes removed, carriage-return redraws collapsed), so
 * line N here is line N there. A line longer than the cap keeps its head and tail, as the
 * decoder keeps them.
 */
import { collapseCarriageReturns, stripAnsi } from "../decode/normalize.js";
import { lineCutMarker } from "../pipeline/markers.js";
import type { SectionName } from "../pipeline/unit.js";
import type { StepBudget } from "./grep.js";
import type { ResultStore, StoredPart, StoredText } from "./store.js";

/** A part, loaded: its text and where its line breaks are. */
export interface LoadedPart {
  readonly text: string;
  readonly breaks: Int32Array;
  /** The part holds colour codes, carriage returns or other characters lines are cleaned of. */
  readonly dirty: boolean;
  /** The text lowered, made on first use by a search (undefined when lowering moves offsets). */
  lower?: string | null;
}

/**
 * Where a search may next match in a part: the offset of the first hit at or after `from`, or -1
 * when the rest of the part has none. Lines before a hit are passed over without being built.
 */
export type Probe = (part: LoadedPart, from: number) => number;

export interface WalkOptions {
  /** The last line to visit. */
  readonly until?: number;
  readonly probe?: Probe;
  /** Also give each line as a decoder with this cap cut it (`StoredLine.keyed`). */
  readonly keyCap?: number;
}

/** Parts kept loaded between calls (the reader's own, bounded). */
export interface PartCache {
  get(key: string): LoadedPart | undefined;
  set(key: string, part: LoadedPart): void;
}

/** A line as read back: its number, its text (normalised, maybe cut), and what the cut took. */
export interface StoredLine {
  readonly index: number;
  readonly text: string;
  readonly omittedChars: number;
  /**
   * The line as a search sees it: whole (normalised), or for a line longer than a part, its
   * first ¾ and last ¼ of a part's length around the cut marker.
   */
  readonly search: string;
  /**
   * With `WalkOptions.keyCap`: the line as the line decoder gave it to keep under that cap (cut
   * past it, with its marker), which is what the first page's summary keyed it by.
   */
  readonly keyed?: string;
}

/** A part the manifest names is gone from the store (it expired, or was evicted). */
export class PartMissing extends Error {}

/** The store failed reading a part: it threw, or gave back something that is not text. */
export class PartUnavailable extends Error {}

export interface SectionText {
  readonly name: SectionName;
  readonly lines: number;
  /**
   * Visits the lines from `from` (1-based) in order until `visit` returns false, the budget
   * runs out or the section ends. Returns the number of the first line not visited.
   */
  walk(
    from: number,
    visit: (line: StoredLine) => boolean,
    budget?: StepBudget,
    options?: WalkOptions,
  ): Promise<number>;
  /** Hands over the section's stored text part by part, in order (each as it was stored). */
  eachPart(visit: (text: string) => void): Promise<void>;
}

/**
 * @example
 * const [text] = sectionsOf(manifest, store, cache, 16_384);
 * await text.walk(241, (line) => { shown.push(line); return shown.length < 160; });
 */
export function sectionsOf(
  manifest: StoredText,
  store: ResultStore,
  cache: PartCache,
  lineCap: number,
): SectionText[] {
  let first = 0;
  return manifest.sections.map((s) => {
    const parts = manifest.parts.slice(first, first + s.parts);
    first += s.parts;
    return sectionText(s.name, s.lines, parts, store, cache, lineCap);
  });
}

function sectionText(
  name: SectionName,
  lines: number,
  parts: readonly StoredPart[],
  store: ResultStore,
  cache: PartCache,
  lineCap: number,
): SectionText {
  // Breaks before each part: line L starts after break L-1 of the section.
  const before = new Array<number>(parts.length);
  let sum = 0;
  for (let p = 0; p < parts.length; p++) {
    before[p] = sum;
    sum += (parts[p] as StoredPart).lines;
  }
  const fetchPart = async (part: StoredPart): Promise<string> => {
    let got: unknown;
    try {
      got = await store.getPart?.(part.key);
    } catch {
      throw new PartUnavailable("the result store failed; try again");
    }
    if (got === undefined || got === null)
      throw new PartMissing("a part of the stored text is gone");
    // Not text: the store is broken (a host's store that answers with a record, a number).
    if (typeof got !== "string") throw new PartUnavailable("the result store failed; try again");
    return got;
  };
  const load = async (p: number): Promise<LoadedPart> => {
    const part = parts[p] as StoredPart;
    const held = cache.get(part.key);
    if (held) return held;
    const loaded = loadPart(await fetchPart(part));
    cache.set(part.key, loaded);
    return loaded;
  };
  return {
    name,
    lines,
    async eachPart(visit) {
      // Read once, in order: the parts are not indexed or kept for later pages.
      for (const part of parts) visit(cache.get(part.key)?.text ?? (await fetchPart(part)));
    },
    async walk(from, visit, budget, options = {}) {
      const until = Math.min(options.until ?? lines, lines);
      const probe = options.probe;
      const keyCap = options.keyCap;
      if (from > until || parts.length === 0) return from;
      // The part holding break `from - 1` (the end of the line before), and the offset after it.
      const k = from - 1;
      let p = 0;
      let lo = 0;
      let hi = parts.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if ((before[mid] as number) < k) {
          p = mid;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      if (k === 0) p = 0;
      let part = await load(p);
      let j = k - (before[p] as number); // breaks of this part before the line
      let pos = k === 0 ? 0 : (part.breaks[j - 1] as number) + 1;
      let index = from;
      const long = createLongLine(SEARCH_CHARS);
      for (;;) {
        if (index > until) return index;
        if (probe && !long.active && j < part.breaks.length) {
          // Jump to the line of the next hit; the lines passed over were looked at.
          const hit = probe(part, pos);
          const last = hit === -1 ? part.breaks.length : lineAt(part.breaks, j, hit);
          if (last > j) {
            const jump = Math.min(last - j, until + 1 - index);
            const to = (part.breaks[j + jump - 1] as number) + 1;
            if (budget) {
              budget.steps += to - pos;
              if (budget.steps > budget.max) budget.stopped = true;
            }
            index += jump;
            j += jump;
            pos = to;
            if (budget?.stopped || index > until) return index;
            continue;
          }
        }
        if (j < part.breaks.length) {
          const end = part.breaks[j] as number;
          const raw = long.active
            ? long.finish(part.text.slice(pos, end))
            : { head: part.text.slice(pos, end), tail: "", length: end - pos };
          j++;
          pos = end + 1;
          if (budget) {
            budget.steps++;
            if (budget.steps > budget.max) budget.stopped = true;
          }
          const go = visit(keyedLine(index, raw, lineCap, part.dirty || raw.tail !== "", keyCap));
          index++;
          if (!go || budget?.stopped) return index;
          continue;
        }
        // The line runs on into the next part (or is the last, without a break).
        if (pos < part.text.length) long.add(part.text.slice(pos));
        if (++p >= parts.length) {
          if (long.active) {
            visit(keyedLine(index, long.finish(""), lineCap, true, keyCap));
            index++;
          }
          return index;
        }
        part = await load(p);
        j = 0;
        pos = 0;
      }
    },
  };
}

/** Characters a line is cleaned of (or by): carriage returns, escapes, the BOM, U+FFFD. */
const DIRTY = ["\r", "\x1b", "\x9b", "\uFEFF", "\uFFFD"];

/** The index (from `j`) of the first break at or after `offset`: the line holding it. */
function lineAt(breaks: Int32Array, j: number, offset: number): number {
  let lo = j;
  let hi = breaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((breaks[mid] as number) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A probe for a literal: `indexOf` over the part (lowered once, when `fold`). */
export function literalProbe(needle: string, fold: boolean): Probe | undefined {
  if (needle.length === 0 || needle.includes("\n")) return undefined;
  return (part, from) => {
    if (!fold) return part.text.indexOf(needle, from);
    if (part.lower === undefined) {
      const lower = part.text.toLowerCase();
      // Lowering can change lengths (İ becomes two code units): offsets would not line up.
      part.lower = lower.length === part.text.length ? lower : null;
    }
    // A part whose offsets move when lowered is searched line by line.
    if (part.lower === null) return from;
    return part.lower.indexOf(needle, from);
  };
}

/** A probe for a scanner with the global flag (the evidence anchors). */
export function scannerProbe(scanner: RegExp): Probe {
  return (part, from) => {
    scanner.lastIndex = from;
    const m = scanner.exec(part.text);
    return m === null ? -1 : m.index;
  };
}

function loadPart(text: string): LoadedPart {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  const breaks = new Int32Array(n);
  n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) breaks[n++] = i;
  const dirty = DIRTY.some((c) => text.includes(c));
  return { text, breaks, dirty };
}

/** Characters of a line a search sees: a line longer than this is searched in its head and tail. */
const SEARCH_CHARS = 1 << 20;

/** A line as read: whole in `head` (`tail` empty), or the head and tail of a longer one. */
interface RawLine {
  readonly head: string;
  readonly tail: string;
  /** Characters of the whole line. */
  readonly length: number;
}

/**
 * The line shown (cut past `lineCap` as the decoder cuts it: head ¾, tail ¼, the rest counted)
 * and searched (whole, up to a part's length), both normalised as the first page shows lines.
 */
function lineOf(index: number, raw: RawLine, lineCap: number, dirty: boolean): StoredLine {
  const whole = raw.tail === "" && raw.head.length === raw.length;
  const search = whole
    ? raw.head
    : `${raw.head}${lineCutMarker(raw.length - raw.head.length - raw.tail.length)}${raw.tail}`;
  if (raw.length <= lineCap) {
    const text = dirty ? clean(raw.head) : raw.head;
    return { index, text, omittedChars: 0, search: text };
  }
  if (whole && raw.head.includes("\r")) {
    // A progress bar redrawn many times: its final state is short, nothing is cut (as the
    // decoder shows it).
    const redrawn = collapseCarriageReturns(
      raw.head.endsWith("\r") ? raw.head.slice(0, -1) : raw.head,
    );
    if (redrawn.length <= lineCap) {
      const text = clean(redrawn);
      return { index, text, omittedChars: 0, search: text };
    }
  }
  const headChars = Math.ceil(lineCap * 0.75);
  const tailChars = lineCap - headChars;
  const omitted = raw.length - headChars - tailChars;
  const end = raw.tail === "" ? raw.head : raw.tail;
  const shown = `${raw.head.slice(0, headChars)}${lineCutMarker(omitted)}${tailChars > 0 ? end.slice(end.length - tailChars) : ""}`;
  return {
    index,
    text: dirty ? clean(shown) : shown,
    omittedChars: omitted,
    search: dirty ? clean(search) : search,
  };
}

/** `lineOf`, and with a `keyCap` the line as a decoder with that cap cut it too. */
function keyedLine(
  index: number,
  raw: RawLine,
  lineCap: number,
  dirty: boolean,
  keyCap: number | undefined,
): StoredLine {
  const line = lineOf(index, raw, lineCap, dirty);
  if (keyCap === undefined) return line;
  const keyed = keyCap === lineCap ? line.text : lineOf(index, raw, keyCap, dirty).text;
  return { ...line, keyed };
}

/** A line that spans parts: its head and a rolling tail, the middle counted. */
function createLongLine(cap: number) {
  const headCap = Math.ceil(cap * 0.75);
  const tailCap = cap - headCap;
  let head = "";
  let tail = "";
  let length = 0;
  let active = false;
  const add = (segment: string) => {
    active = true;
    length += segment.length;
    let rest = segment;
    if (head.length < headCap) {
      const take = headCap - head.length;
      head += rest.slice(0, take);
      rest = rest.slice(take);
    }
    if (rest.length === 0) return;
    tail += rest;
    if (tail.length > tailCap) tail = tail.slice(tail.length - tailCap);
  };
  return {
    get active() {
      return active;
    },
    add,
    finish(last: string): RawLine {
      add(last);
      const line =
        head.length + tail.length === length
          ? { head: head + tail, tail: "", length }
          : { head, tail, length };
      head = "";
      tail = "";
      length = 0;
      active = false;
      return line;
    },
  };
}

/** The line as the first page showed it: no colour codes, a redrawn line in its final state. */
function clean(line: string): string {
  let text = line;
  if (text.includes("\uFFFD")) text = text.replace(/\uFFFD+/g, "\uFFFD");
  if (text.includes("\uFEFF")) text = text.replace(/\uFEFF/g, "");
  if (text.includes("\x1b") || text.includes("\x9b")) text = stripAnsi(text);
  if (text.includes("\r")) {
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.includes("\r")) text = collapseCarriageReturns(text);
  }
  return text;
}
