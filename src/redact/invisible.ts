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

// One linear pass; each alternative is a single character class (no nesting, no backtracking).
// Built from escapes so the source shows every code point; each group is one character class,
// so the scan is a single linear pass.
const INVISIBLE = new RegExp(
  [
    String.raw`([\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C])`,
    String.raw`([\u200B-\u200D\u2060\uFEFF\u180E])`,
    String.raw`([\u{E0000}-\u{E007F}])`,
    String.raw`([\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F])`,
    String.raw`(\u00AD|\u034F|\u115F|\u1160|\u3164|\uFFA0|[\u2061-\u2064\u206A-\u206F\uFFF9-\uFFFB\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}])`,
  ].join("|"),
  "gu",
);
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const COMPOSABLE = /[\u0300-\uFFFF]/;

/**
 * Removes invisible and control characters, counting each class, and NFC-normalises the text.
 *
 * @example
 * stripInvisible("safe\u202Etxt.exe").removed.bidi; // 1
 */
export function stripInvisible(input: string): Cleaned {
  const removed: InvisibleCounts = { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 };
  const text = input.replace(
    INVISIBLE,
    (
      match: string,
      bidi?: string,
      zero?: string,
      tag?: string,
      control?: string,
      ...rest: unknown[]
    ) => {
      const offset = rest.find((r) => typeof r === "number") as number;
      if (bidi !== undefined) removed.bidi++;
      else if (zero !== undefined) {
        // A zero-width joiner between two pictographs builds one emoji (👩‍💻): it stays.
        if (
          match === "\u200D" &&
          PICTOGRAPH.test(input.slice(Math.max(0, offset - 2), offset)) &&
          PICTOGRAPH.test(input.slice(offset + 1, offset + 3))
        ) {
          return match;
        }
        removed.zeroWidth++;
      } else if (tag !== undefined) removed.tag++;
      else if (control !== undefined) removed.control++;
      else {
        // A variation selector after an emoji or a keycap base picks its presentation: it stays.
        if (
          match >= "\uFE00" &&
          match <= "\uFE0F" &&
          (PICTOGRAPH.test(input.slice(Math.max(0, offset - 2), offset)) ||
            /[#*0-9]$/.test(input.slice(Math.max(0, offset - 1), offset)))
        ) {
          return match;
        }
        removed.other++;
      }
      return "";
    },
  );
  // Text below U+0300 (ASCII, Latin-1) is already NFC: the normaliser is skipped for it.
  return { text: COMPOSABLE.test(text) ? text.normalize("NFC") : text, removed };
}
