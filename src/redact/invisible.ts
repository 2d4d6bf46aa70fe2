import type { InvisibleCounts } from "../pipeline/shaped.js";

/**
 * Characters that change what a person sees without being seen: they let content hide
 * instructions from the reviewer while the model still reads them. Each class is removed and
 * counted; the text is then NFC-normalised.
 */
export type { InvisibleCounts };

export interface Cleaned {
  readonly text: string;
  readonly removed: InvisibleCounts;
}

/**
 * The code points of the `other` class, as a regular-expression character class body (`u` flag):
 * what Unicode lists as Default_Ignorable_Code_Point or as format (Cf), beyond the bidi,
 * zero-width, tag and control classes. Written out rather than as `\p{…}`, so every runtime
 * strips the same set whatever its Unicode version. Kept: the prepended concatenation marks
 * (U+0600–0605, U+06DD, U+070F, U+0890–0891, U+08E2, U+110BD, U+110CD), which are format
 * characters with a visible glyph (an Arabic number sign, an end-of-ayah mark).
 *
 * @example
 * new RegExp(`[${OTHER_INVISIBLE}]`, "u").test("\u180B"); // true: a Mongolian variation selector
 */
export const OTHER_INVISIBLE = [
  String.raw`\u00AD\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180D\u180F\u3164\uFFA0`,
  String.raw`\u2061-\u2065\u206A-\u206F\uFE00-\uFE0F\uFFF0-\uFFFB`,
  String.raw`\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}`,
  String.raw`\u{E0080}-\u{E00FF}\u{E0100}-\u{E0FFF}`,
].join("");

/**
 * Every code point `stripInvisible` may remove, as a character class body (`u` flag), for a view
 * that shows them by code point instead (the emoji joiner and presentation selectors it keeps
 * are in it).
 */
export const INVISIBLE_CLASS = String.raw`\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF\u180E\u{E0000}-\u{E007F}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F${OTHER_INVISIBLE}`;

// One linear pass over one character class; each match is then told apart by its code point.
// (A replace callback over five capture groups grows superlinear in V8 past some 100,000 matches.)
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, "gu");
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const COMPOSABLE = /[\u0300-\uFFFF]/;
/** Combining marks kept on one character: Unicode's stream-safe text format allows 30. */
const MAX_MARKS = 30;
/**
 * A run of more combining marks than that. Only a run's first mark can start a match (the
 * lookbehind), so the scan stays linear.
 */
const MARK_RUN = new RegExp(String.raw`(?<!\p{M})\p{M}{${MAX_MARKS + 1},}`, "gu");

/**
 * Removes invisible and control characters, counting each class, and NFC-normalises the text.
 *
 * @example
 * stripInvisible("safe\u202Etxt.exe").removed.bidi; // 1
 */
export function stripInvisible(input: string): Cleaned {
  const removed: InvisibleCounts = { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 };
  const parts: string[] = [];
  let from = 0;
  INVISIBLE.lastIndex = 0;
  for (let m = INVISIBLE.exec(input); m !== null; m = INVISIBLE.exec(input)) {
    const at = m.index;
    const ch = m[0];
    const kind = classOf(ch.codePointAt(0) as number);
    if (kind === "zeroWidth") {
      // A zero-width joiner between two pictographs builds one emoji (👩‍💻): it stays.
      if (
        ch === "\u200D" &&
        PICTOGRAPH.test(input.slice(Math.max(0, at - 2), at)) &&
        PICTOGRAPH.test(input.slice(at + 1, at + 3))
      ) {
        continue;
      }
    } else if (
      // A variation selector after an emoji or a keycap base picks its presentation: it stays.
      kind === "other" &&
      ch >= "\uFE00" &&
      ch <= "\uFE0F" &&
      (PICTOGRAPH.test(input.slice(Math.max(0, at - 2), at)) ||
        /[#*0-9]$/.test(input.slice(Math.max(0, at - 1), at)))
    ) {
      continue;
    }
    removed[kind]++;
    parts.push(input.slice(from, at));
    from = at + ch.length;
  }
  let text = input;
  if (from > 0) {
    parts.push(input.slice(from));
    text = parts.join("");
  }
  // Text below U+0300 (ASCII, Latin-1) is already NFC: the normaliser is skipped for it.
  if (!COMPOSABLE.test(text)) return { text, removed };
  // V8's normaliser is quadratic in a run of combining marks (it reorders them by insertion):
  // runs are cut to MAX_MARKS first, which no real text reaches, so other text is unchanged.
  const bounded = text.replace(MARK_RUN, (run: string) => {
    let end = 0;
    for (let k = 0; k < MAX_MARKS; k++) end += (run.codePointAt(end) as number) > 0xffff ? 2 : 1;
    // Code points past the kept ones: every code unit but the trailing halves of pairs.
    for (let i = end; i < run.length; i++) {
      const c = run.charCodeAt(i);
      if (c < 0xdc00 || c > 0xdfff) removed.other++;
    }
    return run.slice(0, end);
  });
  return { text: bounded.normalize("NFC"), removed };
}

/** The class of a code point `INVISIBLE` matched. */
function classOf(cp: number): keyof InvisibleCounts {
  if (cp <= 0x9f) return "control";
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return "bidi";
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return "bidi";
  if ((cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0xfeff || cp === 0x180e) {
    return "zeroWidth";
  }
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag";
  return "other";
}
