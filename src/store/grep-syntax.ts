/**
 * The syntax of grep's safe regex subset: a pattern parsed into a small tree (characters,
 * classes, anchors, sequences, alternatives, bounded repetition), with an error naming anything
 * outside the subset. Recursion is bounded by the pattern's length (at most 256 characters) and
 * by a nesting cap on groups.
 */

/** Repetition counts above this are refused: `{n,m}` takes n, m ≤ 100. */
export const MAX_REPEAT = 100;

export class PatternError extends Error {}

export type Node =
  | { readonly t: "char"; readonly c: number }
  | { readonly t: "any" }
  | { readonly t: "class"; readonly test: (c: number) => boolean }
  | { readonly t: "cat"; readonly items: Node[] }
  | { readonly t: "alt"; readonly items: Node[] }
  | { readonly t: "rep"; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly t: "assert"; readonly kind: "^" | "$" | "b" | "B" };

export const isDigit = (c: number) => c >= 48 && c <= 57;
export const isWord = (c: number) =>
  isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
export const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff;

export class Parser {
  private at = 0;
  private depth = 0;
  constructor(
    private readonly src: string,
    private readonly fold: boolean,
  ) {}

  parse(): Node {
    const node = this.alt();
    if (this.at < this.src.length) throw new PatternError(`unmatched ) at ${this.at}`);
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.at];
  }

  private alt(): Node {
    const items = [this.cat()];
    while (this.peek() === "|") {
      this.at++;
      items.push(this.cat());
    }
    return items.length === 1 ? (items[0] as Node) : { t: "alt", items };
  }

  private cat(): Node {
    const items: Node[] = [];
    for (let ch = this.peek(); ch !== undefined && ch !== "|" && ch !== ")"; ch = this.peek()) {
      items.push(this.repeat(this.atom()));
    }
    return items.length === 1 ? (items[0] as Node) : { t: "cat", items };
  }

  private repeat(node: Node): Node {
    let out = node;
    for (;;) {
      const ch = this.peek();
      let min: number;
      let max: number;
      if (ch === "*" || ch === "+" || ch === "?") {
        this.at++;
        [min, max] = ch === "*" ? [0, Infinity] : ch === "+" ? [1, Infinity] : [0, 1];
      } else if (ch === "{" && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.at, this.at + 12))) {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(
          this.src.slice(this.at, this.at + 12),
        ) as RegExpExecArray;
        this.at += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT))
          throw new PatternError(`repetition is bounded: {n,m} takes n and m up to ${MAX_REPEAT}`);
        if (max < min) throw new PatternError(`{${min},${max}}: the maximum is below the minimum`);
      } else {
        return out;
      }
      if (out.t === "assert") throw new PatternError("an anchor cannot be repeated");
      if (this.peek() === "+") throw new PatternError("possessive quantifiers are not supported");
      if (this.peek() === "?") this.at++; // lazy: the same lines match
      out = { t: "rep", node: out, min, max };
    }
  }

  private atom(): Node {
    const ch = this.src[this.at++] as string;
    switch (ch) {
      case ".":
        return { t: "any" };
      case "^":
        return { t: "assert", kind: "^" };
      case "$":
        return { t: "assert", kind: "$" };
      case "(":
        return this.group();
      case "[":
        return this.charClass();
      case "\\":
        return this.escape(false);
      case "*":
      case "+":
      case "?":
        throw new PatternError(`${ch} at ${this.at - 1} has nothing to repeat`);
      case "{":
        if (/^\d/.test(this.src.slice(this.at)))
          throw new PatternError(`{ at ${this.at - 1} has nothing to repeat`);
        return this.char(ch.charCodeAt(0));
      default:
        return this.char(ch.charCodeAt(0));
    }
  }

  private char(c: number): Node {
    if (!this.fold) return { t: "char", c };
    const lower = String.fromCharCode(c).toLowerCase();
    return { t: "char", c: lower.length === 1 ? lower.charCodeAt(0) : c };
  }

  private group(): Node {
    if (this.src.startsWith("?", this.at)) {
      const rest = this.src.slice(this.at, this.at + 3);
      if (rest.startsWith("?:")) this.at += 2;
      else if (/^\?<?[=!]/.test(rest)) throw new PatternError("lookaround is not supported");
      else if (rest.startsWith("?<"))
        throw new PatternError("named groups are not supported: use (…)");
      else throw new PatternError(`(? at ${this.at - 1} is not supported: use (…) or (?:…)`);
    }
    if (++this.depth > 64) throw new PatternError("groups nest deeper than 64");
    const node = this.alt();
    this.depth--;
    if (this.src[this.at] !== ")") throw new PatternError("unterminated group: a ( has no )");
    this.at++;
    return node;
  }

  private escape(inClass: boolean): Node {
    const ch = this.src[this.at++];
    if (ch === undefined) throw new PatternError("the pattern ends with a lone \\");
    switch (ch) {
      case "d":
        return { t: "class", test: isDigit };
      case "D":
        return { t: "class", test: (c) => !isDigit(c) };
      case "w":
        return { t: "class", test: isWord };
      case "W":
        return { t: "class", test: (c) => !isWord(c) };
      case "s":
        return { t: "class", test: isSpace };
      case "S":
        return { t: "class", test: (c) => !isSpace(c) };
      case "t":
        return this.char(9);
      case "n":
        return this.char(10);
      case "r":
        return this.char(13);
      case "b":
        if (inClass) return this.char(8);
        return { t: "assert", kind: "b" };
      case "B":
        if (inClass) throw new PatternError("\\B inside a class");
        return { t: "assert", kind: "B" };
      case "x":
      case "u": {
        const digits = ch === "x" ? 2 : 4;
        const hex = this.src.slice(this.at, this.at + digits);
        if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex))
          throw new PatternError(`\\${ch} takes ${digits} hex digits`);
        this.at += digits;
        return this.char(Number.parseInt(hex, 16));
      }
      case "p":
      case "P":
        throw new PatternError("Unicode property classes are not supported");
      case "k":
        throw new PatternError("backreferences are not supported");
      default:
        if (/[1-9]/.test(ch)) throw new PatternError("backreferences are not supported");
        if (/[A-Za-z0-9]/.test(ch)) throw new PatternError(`\\${ch} is not a supported escape`);
        return this.char(ch.charCodeAt(0));
    }
  }

  private charClass(): Node {
    const negated = this.src[this.at] === "^";
    if (negated) this.at++;
    const tests: Array<(c: number) => boolean> = [];
    let first = true;
    for (;;) {
      const ch = this.src[this.at];
      if (ch === undefined) throw new PatternError("unterminated class: a [ has no ]");
      if (ch === "]" && !first) {
        this.at++;
        break;
      }
      first = false;
      const lo = this.classAtom();
      if (typeof lo !== "number") {
        tests.push(lo);
        continue;
      }
      if (
        this.src[this.at] === "-" &&
        this.src[this.at + 1] !== undefined &&
        this.src[this.at + 1] !== "]"
      ) {
        this.at++;
        const hi = this.classAtom();
        if (typeof hi !== "number")
          throw new PatternError("a range cannot end in a class such as \\d");
        if (hi < lo) throw new PatternError("a range in [...] runs backwards");
        tests.push(this.range(lo, hi));
      } else {
        tests.push(this.range(lo, lo));
      }
    }
    const test = (c: number) => tests.some((t) => t(c));
    return { t: "class", test: negated ? (c) => !test(c) : test };
  }

  /** A character code, or a predefined class. */
  private classAtom(): number | ((c: number) => boolean) {
    const ch = this.src[this.at++] as string;
    if (ch !== "\\") return ch.charCodeAt(0);
    const node = this.escape(true);
    if (node.t === "char") return node.c;
    if (node.t === "class") return node.test;
    throw new PatternError("an anchor inside [...]");
  }

  /** A range; with `i` the line is lowered, so the range's lowered letters match too. */
  private range(lo: number, hi: number): (c: number) => boolean {
    if (!this.fold) return (c) => c >= lo && c <= hi;
    const lowers = new Set<number>();
    if (hi - lo <= 512) {
      for (let c = lo; c <= hi; c++) {
        const l = String.fromCharCode(c).toLowerCase();
        if (l.length === 1) lowers.add(l.charCodeAt(0));
      }
    }
    return (c) => (c >= lo && c <= hi) || lowers.has(c);
  }
}
