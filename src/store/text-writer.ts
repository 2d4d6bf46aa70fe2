/**
 * Writes a text result into the store while it streams: each section's redacted text (exactly
 * what the line decoder splits into lines) is cut into parts of about 1 MiB, at a line break
 * when one is near, and each part is kept under its content key as soon as it is full. The
 * manifest comes last, with a handle derived from the part keys, so the same text always gets
 * the same handle. Memory is one part per section plus the parts the store has not yet taken.
 */
import { sha256Hex } from "../intake/digest.js";
import { bySection, type SectionName } from "../pipeline/unit.js";
import type { ResultStore, StoredInfo, StoredPart, StoredSection, StoredText } from "./store.js";

/** Characters of text in a part. */
export const PART_CHARS = 1 << 20;

export interface TextWriter {
  /** The tap for one section: called with each piece of filtered text, in order. */
  section(name: SectionName): (text: string) => void;
  /**
   * The manifest, once every part is kept; undefined when nothing was kept. `rewrite` is a last
   * pass over a section's text while it is whole in memory (no part of it kept yet).
   */
  finish(info: StoredInfo, rewrite?: (text: string) => string): Promise<StoredText | undefined>;
}

interface SectionState {
  readonly name: SectionName;
  pieces: string[];
  buffered: number;
  chars: number;
  breaks: number;
  /** The last character written was a line break (or nothing was written). */
  endsWithBreak: boolean;
  readonly parts: Array<Promise<StoredPart | undefined>>;
}

/**
 * @example
 * const writer = createTextWriter(store, 32 << 20);
 * const tap = writer.section("text");
 * tap("first line\nsecond line\n");
 * const manifest = await writer.finish({ format: "text", errorsFirst: false });
 */
export function createTextWriter(
  store: ResultStore,
  maxChars: number,
  partChars = PART_CHARS,
): TextWriter {
  const sections: SectionState[] = [];
  let chars = 0;
  let failed = false;

  const keep = async (text: string): Promise<StoredPart | undefined> => {
    const key = `part_${(await sha256Hex(text)).slice(0, 32)}`;
    const kept = await store.putPart?.(key, text);
    if (kept === false) failed = true;
    return { key, lines: breaksIn(text), chars: text.length };
  };

  function cut(s: SectionState, final: boolean): void {
    while (s.buffered >= partChars || (final && s.buffered > 0)) {
      const whole = s.pieces.length === 1 ? (s.pieces[0] as string) : s.pieces.join("");
      let at = whole.length;
      if (whole.length > partChars) {
        // At the last line break in the part's second half; else mid-line (a very long line).
        const brk = whole.lastIndexOf("\n", partChars - 1);
        at = brk >= partChars >> 1 ? brk + 1 : partChars;
        const code = whole.charCodeAt(at - 1);
        if (code >= 0xd800 && code <= 0xdbff) at--; // never between the halves of a pair
      }
      // A fresh string: a slice would keep the whole buffer alive for as long as the part lives.
      const part = ` ${whole.slice(0, at)}`.slice(1);
      const rest = whole.slice(at);
      s.pieces = rest.length > 0 ? [rest] : [];
      s.buffered = rest.length;
      s.parts.push(
        keep(part).catch(() => {
          failed = true;
          return undefined;
        }),
      );
    }
  }

  return {
    section(name) {
      const s: SectionState = {
        name,
        pieces: [],
        buffered: 0,
        chars: 0,
        breaks: 0,
        endsWithBreak: true,
        parts: [],
      };
      sections.push(s);
      return (text) => {
        if (failed || text.length === 0) return;
        chars += text.length;
        if (chars > maxChars) {
          // Too large to keep: nothing more is buffered, and no manifest will name the parts.
          failed = true;
          for (const other of sections) other.pieces = [];
          return;
        }
        s.chars += text.length;
        s.endsWithBreak = text.charCodeAt(text.length - 1) === 10;
        s.pieces.push(text);
        s.buffered += text.length;
        if (s.buffered >= partChars) cut(s, false);
      };
    },
    async finish(info, rewrite) {
      if (failed) return undefined;
      sections.sort(bySection);
      for (const s of sections) {
        if (rewrite !== undefined && s.parts.length === 0 && s.pieces.length > 0) {
          const text = rewrite(s.pieces.join(""));
          chars += text.length - s.buffered;
          s.chars = text.length;
          s.pieces = [text];
          s.buffered = text.length;
        }
        cut(s, true);
      }
      const parts: StoredPart[] = [];
      const stored: StoredSection[] = [];
      for (const s of sections) {
        if (s.chars === 0) continue;
        const own = await Promise.all(s.parts);
        if (failed || own.some((p) => p === undefined)) return undefined;
        const breaks = own.reduce((n, p) => n + (p as StoredPart).lines, 0);
        for (const p of own) parts.push(p as StoredPart);
        // As the line decoder counts: a last line without a break is a line too.
        const lines = breaks + (s.endsWithBreak ? 0 : 1);
        stored.push({ name: s.name, lines, chars: s.chars, parts: own.length });
      }
      if (stored.length === 0) return undefined;
      const settings = JSON.stringify([
        info.format,
        info.kind ?? "",
        stored.map((s) => [s.name, s.lines, s.parts]),
      ]);
      const digest = await sha256Hex(
        `airlock-text\u0000${settings}\u0000${parts.map((p) => p.key).join(",")}`,
      );
      return {
        handle: `res_${digest.slice(0, 24)}`,
        kind: "text",
        chars,
        info,
        parts,
        lines: stored.reduce((n, s) => n + s.lines, 0),
        sections: stored,
      };
    },
  };
}

function breaksIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
