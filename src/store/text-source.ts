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
}

/** A part the manifest names is gone from the store (it expired, or was evicted). */
export class PartMissing extends Error {}

export interface SectionText {
  readonly name: SectionName;
  readonly lines: number;
  /**
   * Visits the lines from `from` (1-based) in order until `visit` returns false, the budget
   * runs out or the section ends. Returns the number of the first line not visited.
   */
  walk(from: number, visit: (line: StoredLine) => boolean, budget?: StepBudget): Promise<number>;
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
  const load = async (p: number): Promise<LoadedPart> => {
    const part = parts[p] as StoredPart;
    const held = cache.get(part.key);
    if (held) return held;
    let text: string | undefined;
    try {
      text = await store.getPart?.(part.key);
    } catch {
      throw new PartMissing("the store failed");
    }
    if (typeof text !== "string") throw new PartMissing("a part of the stored text is gone");
    const loaded = loadPart(text);
    cache.set(part.key, loaded);
    return loaded;
  };
  return {
    name,
    lines,
    async walk(from, visit, budget) {
      if (from > lines || parts.length === 0) return from;
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
      const long = createLongLine(lineCap);
      for (;;) {
        if (j < part.breaks.length) {
          const end = part.breaks[j] as number;
          const line = long.active
            ? long.finish(part.text.slice(pos, end))
            : cap(part.text, pos, end, lineCap);
          j++;
          pos = end + 1;
          if (budget) {
            budget.steps++;
            if (budget.steps > budget.max) budget.stopped = true;
          }
          const go = visit({ index, ...clean(line, part.dirty) });
          index++;
          if (!go || budget?.stopped) return index;
          continue;
        }
        // The line runs on into the next part (or is the last, without a break).
        if (pos < part.text.length) long.add(part.text.slice(pos));
        if (++p >= parts.length) {
          if (long.active) {
            visit({ index, ...clean(long.finish(""), true) });
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

function loadPart(text: string): LoadedPart {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  const breaks = new Int32Array(n);
  n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) breaks[n++] = i;
  const dirty = DIRTY.some((c) => text.includes(c));
  return { text, breaks, dirty };
}

interface RawLine {
  readonly text: string;
  readonly omittedChars: number;
}

/** `text[from, to)`, with its middle cut past `lineCap` characters (head ¾, tail ¼). */
function cap(text: string, from: number, to: number, lineCap: number): RawLine {
  if (to - from <= lineCap) return { text: text.slice(from, to), omittedChars: 0 };
  const whole = text.slice(from, to);
  if (whole.includes("\r")) {
    // A progress bar redrawn many times: its final state is short, nothing is cut (as the
    // decoder shows it).
    const redrawn = collapseCarriageReturns(whole.endsWith("\r") ? whole.slice(0, -1) : whole);
    if (redrawn.length <= lineCap) return { text: redrawn, omittedChars: 0 };
  }
  const head = Math.ceil(lineCap * 0.75);
  const tail = lineCap - head;
  const omitted = to - from - head - tail;
  return {
    text: `${text.slice(from, from + head)}${lineCutMarker(omitted)}${text.slice(to - tail, to)}`,
    omittedChars: omitted,
  };
}

/** A line that spans parts: its head and a rolling tail, the middle counted. */
function createLongLine(lineCap: number) {
  const headCap = Math.ceil(lineCap * 0.75);
  const tailCap = lineCap - headCap;
  let head = "";
  let tail = "";
  let omitted = 0;
  let active = false;
  const add = (segment: string) => {
    active = true;
    let rest = segment;
    if (head.length < headCap) {
      const take = headCap - head.length;
      head += rest.slice(0, take);
      rest = rest.slice(take);
    }
    if (rest.length === 0) return;
    tail += rest;
    if (tail.length > tailCap) {
      omitted += tail.length - tailCap;
      tail = tail.slice(tail.length - tailCap);
    }
  };
  return {
    get active() {
      return active;
    },
    add,
    finish(last: string): RawLine {
      add(last);
      const line =
        omitted > 0
          ? { text: `${head}${lineCutMarker(omitted)}${tail}`, omittedChars: omitted }
          : { text: head + tail, omittedChars: 0 };
      head = "";
      tail = "";
      omitted = 0;
      active = false;
      return line;
    },
  };
}

/** The line as the first page showed it: no colour codes, a redrawn line in its final state. */
function clean(line: RawLine, dirty: boolean): RawLine {
  if (!dirty) return line;
  let text = line.text;
  if (text.includes("\uFFFD")) text = text.replace(/\uFFFD+/g, "\uFFFD");
  if (text.includes("\uFEFF")) text = text.replace(/\uFEFF/g, "");
  if (text.includes("\x1b") || text.includes("\x9b")) text = stripAnsi(text);
  if (text.includes("\r")) {
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.includes("\r")) text = collapseCarriageReturns(text);
  }
  return text === line.text ? line : { text, omittedChars: line.omittedChars };
}
