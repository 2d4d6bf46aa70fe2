import { stripInvisible } from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Independent of the implementation: the code points it promises to remove, by number. */
function isHidden(cp: number): boolean {
  return (
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c ||
    (cp >= 0x200b && cp <= 0x200c) ||
    cp === 0x2060 ||
    cp === 0xfeff ||
    cp === 0x180e ||
    (cp >= 0xe0000 && cp <= 0xe007f) ||
    (cp <= 0x1f && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0x00ad ||
    cp === 0x034f ||
    (cp >= 0xe0100 && cp <= 0xe01ef) ||
    (cp >= 0x2061 && cp <= 0x2064) ||
    (cp >= 0x206a && cp <= 0x206f) ||
    (cp >= 0xfff9 && cp <= 0xfffb) ||
    // Default-ignorable and format code points added after the first list.
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180d) ||
    cp === 0x180f ||
    cp === 0x2065 ||
    (cp >= 0xfff0 && cp <= 0xfff8) ||
    (cp >= 0x13430 && cp <= 0x1343f) ||
    (cp >= 0x1bca0 && cp <= 0x1bca3) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0080 && cp <= 0xe00ff) ||
    (cp >= 0xe01f0 && cp <= 0xe0fff)
  );
}

/**
 * Format characters with a glyph of their own (Unicode's Prepended_Concatenation_Mark): an Arabic
 * number sign, an end-of-ayah mark. They are Cf but seen, and stay.
 */
const SEEN_FORMAT = [
  0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06dd, 0x070f, 0x0890, 0x0891, 0x08e2, 0x110bd,
  0x110cd,
];

describe("invisible characters", () => {
  const cases: Array<[string, string, string, keyof ReturnType<typeof stripInvisible>["removed"]]> =
    [
      ["bidi override that flips a file name", "invoice\u202Egpj.exe", "invoicegpj.exe", "bidi"],
      ["bidi isolate", "a\u2066b\u2069c", "abc", "bidi"],
      ["zero-width space inside a word", "pass\u200Bword", "password", "zeroWidth"],
      ["word joiner and BOM", "a\u2060b\uFEFFc", "abc", "zeroWidth"],
      [
        "tag characters spelling hidden ASCII",
        `hi${String.fromCodePoint(0xe0049, 0xe0047, 0xe004e)}`,
        "hi",
        "tag",
      ],
      ["C0 and C1 controls", "a\u0000b\u0007c\u0085d", "abcd", "control"],
      [
        "soft hyphen and variation selector supplement",
        `co\u00ADop${String.fromCodePoint(0xe0101)}`,
        "coop",
        "other",
      ],
      ["invisible math operators", "a\u2062b\u2064c", "abc", "other"],
      ["deprecated format characters", "a\u206Ab\u206Fc", "abc", "other"],
      ["interlinear annotation marks", "a\uFFF9b\uFFFAc\uFFFBd", "abcd", "other"],
      ["a variation selector after a letter", "ghp_ab\uFE0Fcd", "ghp_abcd", "other"],
      [
        "Mongolian free variation selectors",
        "pa\u180Bss\u180Cw\u180D\u180Ford",
        "password",
        "other",
      ],
      ["Khmer inherent vowels", "pa\u17B4ss\u17B5word", "password", "other"],
      [
        "musical and shorthand format controls",
        `pa${String.fromCodePoint(0x1d173)}ss${String.fromCodePoint(0x1bca0)}word`,
        "password",
        "other",
      ],
      [
        "Egyptian hieroglyph format controls",
        `pa${String.fromCodePoint(0x13430, 0x1343f)}ssword`,
        "password",
        "other",
      ],
      [
        "unassigned default-ignorable code points",
        `p\u2065a\uFFF0s${String.fromCodePoint(0xe0080)}s${String.fromCodePoint(0xe01f0, 0xe0fff)}word`,
        "password",
        "other",
      ],
    ];
  for (const [title, input, output, kind] of cases) {
    it(title, () => {
      const cleaned = stripInvisible(input);
      expect(cleaned.text).toBe(output);
      expect(cleaned.removed[kind]).toBeGreaterThan(0);
    });
  }

  it("keeps tabs, newlines, emoji joiners and ordinary text", () => {
    const text = "col1\tcol2\r\nline 👩\u200D💻 café ✓ ❤\uFE0F 1\uFE0F\u20E3";
    expect(stripInvisible(text)).toEqual({
      text,
      removed: { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 },
    });
  });

  it("NFC-normalises", () => {
    expect(stripInvisible("cafe\u0301").text).toBe("café");
  });

  it("removes every default-ignorable and format code point this runtime knows, but the seen ones", () => {
    const ignorable = /\p{Default_Ignorable_Code_Point}|\p{Cf}/u;
    const kept = new Set([
      ...SEEN_FORMAT,
      0x0009, // tab
      0x000a, // line feed
      0x000d, // carriage return
    ]);
    const left: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (!ignorable.test(ch) || kept.has(cp)) continue;
      if (stripInvisible(`x${ch}y`).text !== "xy") left.push(cp.toString(16));
    }
    expect(left).toEqual([]);
  });

  it("keeps format characters that have a glyph (Arabic number sign, end of ayah)", () => {
    for (const cp of SEEN_FORMAT) {
      const text = `${String.fromCodePoint(cp)}١٢٣`;
      expect(stripInvisible(text).text.normalize("NFC")).toBe(text.normalize("NFC"));
    }
  });

  it("cuts a run of combining marks to 30 and counts the rest, so NFC stays linear", () => {
    const cleaned = stripInvisible(`a${"\u0301\u0316".repeat(131_072)} after`);
    // The first mark composes with the letter: á and 29 more, then the text after.
    expect([...cleaned.text.replace(/ after$/, "")]).toHaveLength(30);
    expect(cleaned.text.endsWith(" after")).toBe(true);
    expect(cleaned.removed.other).toBe(2 * 131_072 - 30);
  });

  it("leaves text with fewer combining marks than that as NFC has it", () => {
    const zalgo = "Z\u0337\u0322\u031Ba\u0334\u0321l\u0338g\u0335o\u0336 ".repeat(50);
    const thirty = `e${"\u0301".repeat(30)}`;
    expect(stripInvisible(zalgo)).toEqual({
      text: zalgo.normalize("NFC"),
      removed: { bidi: 0, zeroWidth: 0, tag: 0, control: 0, other: 0 },
    });
    expect(stripInvisible(thirty).text).toBe(thirty.normalize("NFC"));
  });

  /** The property, over any cleaner: no hidden code point survives, and a second pass is a no-op. */
  const clean = (strip: (t: string) => { text: string }) => {
    const hidden = fc.constantFrom(
      0x202e,
      0x2066,
      0x200b,
      0x2060,
      0xfeff,
      0xe0041,
      0x0000,
      0x0085,
      0x00ad,
      0xe0100,
      0x007f,
      0x2062,
      0x206b,
      0xfff9,
      0x180b,
      0x17b4,
      0x1d173,
      0xe0fff,
    );
    const piece = fc.oneof(
      fc.string({ maxLength: 8 }),
      hidden.map((cp) => String.fromCodePoint(cp)),
    );
    return fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
      const once = strip(parts.join("")).text;
      for (const ch of once) if (isHidden(ch.codePointAt(0) ?? 0)) return false;
      return strip(once).text === once;
    });
  };

  it("no hidden code point survives, and a second pass changes nothing", () => {
    fc.assert(clean(stripInvisible), { numRuns: 500, seed: 7 });
  });

  it("negative control: the same property fails for a cleaner that removes only zero-width spaces", () => {
    const leaky = (t: string) => ({ text: t.replace(/[\u200B\u2060\uFEFF]/g, "") });
    expect(fc.check(clean(leaky), { numRuns: 500, seed: 7 }).failed).toBe(true);
  });

  it("is linear on a megabyte of invisibles", { timeout: 15_000 }, () => {
    expect(stripInvisible("\u200B\u202E".repeat(1 << 19)).text).toBe("");
  });
});
