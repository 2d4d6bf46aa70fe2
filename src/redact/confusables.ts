import type { View } from "./views.js";

/**
 * Key names spelled to slip past a keyword: letters that look like Latin ones (a Cyrillic `а` in
 * `pаssword`, a Greek `Ο` in `TΟKEN`), compatibility forms that NFKC maps to ASCII (`ｐａｓｓ`,
 * mathematical `𝐩`, circled `ⓟ`), and invisible characters inside the name (`pass\u200bword`).
 * A line holding any of them gets a folded view; the redactor keeps only matches whose secret was
 * not folded itself (the fold is for the key, never for the value).
 */

/** Letters drawn like Latin ones (from Unicode's confusables data, the unambiguous ones). */
const LOOK_ALIKES: ReadonlyMap<number, string> = new Map(
  Object.entries({
    // Cyrillic
    а: "a",
    е: "e",
    о: "o",
    р: "p",
    с: "c",
    у: "y",
    х: "x",
    ѕ: "s",
    і: "i",
    ј: "j",
    ԁ: "d",
    һ: "h",
    ԛ: "q",
    ԝ: "w",
    ӏ: "l",
    А: "A",
    В: "B",
    Е: "E",
    К: "K",
    М: "M",
    Н: "H",
    О: "O",
    Р: "P",
    С: "C",
    Т: "T",
    Х: "X",
    У: "Y",
    Ѕ: "S",
    І: "I",
    Ј: "J",
    // Greek
    α: "a",
    ο: "o",
    ν: "v",
    ρ: "p",
    ι: "i",
    κ: "k",
    υ: "u",
    Α: "A",
    Β: "B",
    Ε: "E",
    Ζ: "Z",
    Η: "H",
    Ι: "I",
    Κ: "K",
    Μ: "M",
    Ν: "N",
    Ο: "O",
    Ρ: "P",
    Τ: "T",
    Υ: "Y",
    Χ: "X",
    // Latin and Armenian
    ı: "i",
    ȷ: "j",
    ɑ: "a",
    ɡ: "g",
    օ: "o",
    ս: "u",
  }).map(([ch, ascii]) => [ch.codePointAt(0) as number, ascii]),
);

/** Code point ranges where NFKC can give a single ASCII letter or digit. */
function mayFoldToAscii(cp: number): boolean {
  return (
    (cp >= 0xff01 && cp <= 0xff5e) || // fullwidth forms
    (cp >= 0x1d400 && cp <= 0x1d7ff) || // mathematical alphanumerics
    (cp >= 0x2460 && cp <= 0x24ff) || // enclosed alphanumerics
    (cp >= 0x2070 && cp <= 0x209f) || // super- and subscripts
    (cp >= 0x2100 && cp <= 0x218f) || // letterlike symbols, Roman numerals
    (cp >= 0x1d00 && cp <= 0x1dbf) || // phonetic extensions (modifier letters)
    (cp >= 0x02b0 && cp <= 0x02ff) || // spacing modifier letters
    (cp >= 0xfe50 && cp <= 0xfe6f) || // small form variants
    (cp >= 0x1f100 && cp <= 0x1f1ff) || // enclosed alphanumeric supplement
    cp === 0xaa ||
    cp === 0xba ||
    cp === 0xb2 ||
    cp === 0xb3 ||
    cp === 0xb9
  );
}

const KEY_ASCII = /^[A-Za-z0-9_-]$/;
/** Format characters and other default-ignorable code points: invisible inside a name. */
const IGNORABLE = new RegExp(
  // One class, written in parts: the format category, then the other default ignorables.
  [
    "^[",
    String.raw`\p{Cf}\u00AD\u034F\u115F\u1160\u17B4\u17B5`,
    String.raw`\u180B-\u180F\u3164\uFE00-\uFE0F\uFFA0`,
    "]$",
  ].join(""),
  "u",
);

/** The ASCII letter a character folds to, "" if it is invisible, or undefined if it stays. */
function foldOf(cp: number, ch: string): string | undefined {
  const alike = LOOK_ALIKES.get(cp);
  if (alike !== undefined) return alike;
  if (mayFoldToAscii(cp)) {
    const n = ch.normalize("NFKC");
    if (KEY_ASCII.test(n)) return n;
  }
  return IGNORABLE.test(ch) ? "" : undefined;
}

/**
 * The folded view of `text[from, to)`, or undefined when nothing in it folds. Replaced characters
 * are marked in `folded`; removed ones (invisibles, the second half of a surrogate pair) are seams.
 */
export function foldView(text: string, from: number, to: number): View | undefined {
  let out = "";
  const at = new Int32Array(to - from + 1);
  const marks: number[] = [];
  const seams: number[] = [];
  let n = 0;
  let changed = false;
  let copied = from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      at[n++] = i;
      continue;
    }
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const fold = foldOf(cp, String.fromCodePoint(cp));
    if (fold === undefined) {
      for (let k = 0; k < width; k++) at[n++] = i + k;
      i += width - 1;
      continue;
    }
    changed = true;
    out += text.slice(copied, i);
    if (fold === "") {
      seams.push(n);
    } else {
      out += fold;
      marks.push(n);
      at[n++] = i;
    }
    i += width - 1;
    copied = i + 1;
  }
  if (!changed) return undefined;
  out += text.slice(copied, to);
  at[n] = to;
  const folded = new Uint8Array(n);
  for (const m of marks) folded[m] = 1;
  return { text: out, at: at.subarray(0, n + 1), seams, folded };
}
