/**
 * Inputs and a pager for the read_result suites: logs whose every line names its own number
 * (so what a page shows can be checked against the input, not against the code under test),
 * records with planted evidence, and a loop that follows `meta.next` to the end.
 */
import type { ResultReader, Shaped } from "../../src/index.js";
import { isNumbered } from "./markers.js";

/** mulberry32: seeded, so every run builds the same input. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface NumberedLog {
  readonly text: string;
  readonly lines: number;
  /** Lines that are errors ("ERROR … upstream timeout"), 1-based, ascending. */
  readonly errors: readonly number[];
  /** Lines that are warnings. */
  readonly warnings: readonly number[];
}

/**
 * A log of about `bytes` bytes; line n starts `L<n> `. Every `errorEvery`-th line is an error
 * and every `warnEvery`-th (not an error) a warning; the rest are routine.
 */
export function numberedLog(
  bytes: number,
  options: { errorEvery?: number; warnEvery?: number; seed?: number } = {},
): NumberedLog {
  const random = prng(options.seed ?? 7);
  const errorEvery = options.errorEvery ?? 997;
  const warnEvery = options.warnEvery ?? 1201;
  const out: string[] = [];
  const errors: number[] = [];
  const warnings: number[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    let line: string;
    const t = `2026-06-01T10:${String(Math.floor(n / 60) % 60).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}.${String(n % 1000).padStart(3, "0")}Z`;
    if (n % errorEvery === 0) {
      line = `L${n} ${t} ERROR payments charge failed: upstream timeout after ${1000 + (n % 29000)}ms`;
      errors.push(n);
    } else if (n % warnEvery === 0) {
      line = `L${n} ${t} WARN cache miss storm on shard ${n % 17}`;
      warnings.push(n);
    } else {
      line = `L${n} ${t} INFO http GET /api/items/${Math.floor(random() * 1e6)} 200 ${n % 97}ms`;
    }
    out.push(line);
    size += line.length + 1;
  }
  return { text: out.join("\n"), lines: out.length, errors, warnings };
}

/**
 * The line numbers a page shows (its `L<n> ` lines), in the order shown. In the numbered layout
 * a line's number must be the `n` it holds (a line shown under a wrong number gives NaN).
 */
export function shownLines(text: string): number[] {
  const out: number[] = [];
  const numbered = isNumbered(text);
  for (const line of text.split("\n")) {
    const m = /^(?:(\d+)\t)?L(\d+)(?= |$)/.exec(line);
    if (m === null) continue;
    const n = Number(m[2]);
    if (numbered && m[1] !== undefined && Number(m[1]) !== n) out.push(Number.NaN);
    else if (numbered === (m[1] !== undefined)) out.push(n);
  }
  return out;
}

/** Every page from `args` on, following `meta.next`; stops after `max` pages. */
export async function follow(
  read: ResultReader,
  args: unknown,
  max: number,
  each?: (page: Shaped) => void,
): Promise<Shaped[]> {
  const pages: Shaped[] = [];
  let next: unknown = args;
  while (next !== undefined) {
    if (pages.length >= max) throw new Error(`read_result: more than ${max} pages`);
    const page = await read(next);
    if (page.status === "error") throw new Error(`read_result: ${page.meta.error?.message}`);
    pages.push(page);
    each?.(page);
    next = page.meta.next?.args;
  }
  return pages;
}

/** A fast, exact-enough counter for paging tests over megabytes (the budget holds under it). */
export const QUARTER = { name: "chars/4", count: (text: string) => Math.ceil(text.length / 4) };

/** The records of an envelope page's `data:` block. */
export function dataOf(text: string): unknown[] {
  const m = /\ndata: (\[[\s\S]*?\n\])\n/.exec(text) ?? /\ndata: (\[\])/.exec(text);
  return m ? (JSON.parse(m[1] as string) as unknown[]) : [];
}

/** `ids` sorted, to compare as sets that must also have no duplicates. */
export function sorted(ids: readonly number[]): number[] {
  return [...ids].sort((a, b) => a - b);
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
