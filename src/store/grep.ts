/**
 * `grep` for read_result: a literal (case-insensitive), or `/pattern/flags` in a safe subset run
 * by this module's own matcher, never by the runtime's backtracking engine: the pattern becomes
 * a Thompson NFA and every line is matched in one pass, in time linear in the line times the
 * pattern's size. Every thread step and every character searched is counted against a step
 * budget, since workerd's clock does not advance during synchronous work; past the budget the
 * search stops and says where.
 *
 * The subset: literals and escapes (`\.` `\t` `\xHH` `\uHHHH`), `.`, classes `[a-z_]` `[^…]`,
 * `\d \w \s \D \W \S`, anchors `^ $ \b \B`, groups `(…)` `(?:…)`, alternation `|`, and the
 * quantifiers `* + ?` and `{n}` `{n,}` `{n,m}` with n, m ≤ 100 (a lazy `?` after one is accepted:
 * it does not change which lines match). Not supported, with an error naming it: backreferences,
 * lookaround, named groups, possessive quantifiers, Unicode property classes. Flags: `i`; `g`
 * and `m` are accepted and change nothing (every line is matched alone).
 */

import { isWord, type Node, Parser, PatternError } from "./grep-syntax.js";
import { literalProbe, type Probe } from "./text-source.js";

/** Steps spent and allowed; `stopped` is set when the budget ran out mid-search. */
export interface StepBudget {
  steps: number;
  readonly max: number;
  stopped: boolean;
}

export interface Matcher {
  /** How the search reads in prose (`lines containing "timeout" (any case)`). */
  readonly describe: string;
  /** True when the line matches; false (and `budget.stopped`) once the budget is spent. */
  test(line: string, budget: StepBudget): boolean;
  /** Finds where the next match may be in a stored part, so lines without one are passed over. */
  readonly probe?: Probe;
}

const MAX_PROGRAM = 4000;

/** Patterns the page header quotes; a longer one is in the call that reads on, and only there. */
const QUOTED_CHARS = 40;

function named(pattern: string): string {
  return pattern.length <= QUOTED_CHARS
    ? JSON.stringify(pattern)
    : `the call's pattern (${pattern.length} characters)`;
}

/**
 * @example
 * const m = compileGrep("/time(out|d out)/i");
 * typeof m !== "string" && m.test("request TIMEOUT after 30s", { steps: 0, max: 1e6, stopped: false }); // true
 */
export function compileGrep(pattern: string): Matcher | string {
  const re = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  if (re === null) {
    const needle = pattern.toLowerCase();
    const probe = literalProbe(needle, true);
    return {
      describe: `lines containing ${named(pattern)} (any case)`,
      ...(probe ? { probe } : {}),
      test(line, budget) {
        if (!spend(budget, line.length)) return false;
        return line.toLowerCase().includes(needle);
      },
    };
  }
  const [, source, flags] = re as unknown as [string, string, string];
  for (const f of flags) {
    if (f !== "i" && f !== "g" && f !== "m")
      return `grep: flag ${f} is not supported (only i; g and m change nothing)`;
  }
  const fold = flags.includes("i");
  let ast: Node;
  try {
    ast = new Parser(source, fold).parse();
  } catch (error) {
    return `grep: ${error instanceof PatternError ? error.message : "the pattern cannot be read"}`;
  }
  const program = compile(ast);
  if (typeof program === "string") return `grep: ${program}`;
  const literal = required(ast);
  const scratch = scratchFor(program);
  const probe = literal.length >= 2 ? literalProbe(literal, fold) : undefined;
  return {
    describe: `lines matching ${named(pattern)}`,
    ...(probe ? { probe } : {}),
    test(line, budget) {
      const text = fold ? line.toLowerCase() : line;
      if (literal.length >= 2) {
        if (!spend(budget, line.length)) return false;
        if (!text.includes(literal)) return false;
      }
      return run(program, text, budget, scratch);
    },
  };
}

function spend(budget: StepBudget, n: number): boolean {
  budget.steps += n;
  if (budget.steps > budget.max) budget.stopped = true;
  return !budget.stopped;
}

// The program: Thompson's construction, one instruction per slot.
const CHAR = 0;
const ANY = 1;
const CLASS = 2;
const SPLIT = 3;
const JMP = 4;
const ASSERT = 5;
const MATCH = 6;

interface Program {
  readonly op: Int32Array;
  readonly x: Int32Array;
  readonly y: Int32Array;
  readonly classes: ReadonlyArray<(c: number) => boolean>;
  readonly asserts: ReadonlyArray<Extract<Node, { t: "assert" }>["kind"]>;
}

function compile(ast: Node): Program | string {
  const op: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  const classes: Array<(c: number) => boolean> = [];
  const asserts: Array<Extract<Node, { t: "assert" }>["kind"]> = [];
  const emit = (o: number, a = 0, b = 0): number => {
    if (op.length >= MAX_PROGRAM)
      throw new PatternError("the pattern is too large once its repetitions are expanded");
    op.push(o);
    x.push(a);
    y.push(b);
    return op.length - 1;
  };
  const gen = (n: Node): void => {
    switch (n.t) {
      case "char":
        emit(CHAR, n.c);
        return;
      case "any":
        emit(ANY);
        return;
      case "class":
        classes.push(n.test);
        emit(CLASS, classes.length - 1);
        return;
      case "assert":
        asserts.push(n.kind);
        emit(ASSERT, asserts.length - 1);
        return;
      case "cat":
        for (const item of n.items) gen(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        n.items.forEach((item, i) => {
          if (i < n.items.length - 1) {
            const split = emit(SPLIT);
            x[split] = op.length;
            gen(item);
            jumps.push(emit(JMP));
            y[split] = op.length;
          } else {
            gen(item);
          }
        });
        for (const j of jumps) x[j] = op.length;
        return;
      }
      case "rep": {
        for (let i = 0; i < n.min; i++) gen(n.node);
        if (n.max === Infinity) {
          const split = emit(SPLIT);
          x[split] = op.length;
          gen(n.node);
          emit(JMP, split);
          y[split] = op.length;
        } else {
          const splits: number[] = [];
          for (let i = n.min; i < n.max; i++) {
            const split = emit(SPLIT);
            x[split] = op.length;
            splits.push(split);
            gen(n.node);
          }
          for (const s of splits) y[s] = op.length;
        }
        return;
      }
    }
  };
  try {
    gen(ast);
    emit(MATCH);
  } catch (error) {
    return error instanceof PatternError ? error.message : "the pattern cannot be compiled";
  }
  return {
    op: Int32Array.from(op),
    x: Int32Array.from(x),
    y: Int32Array.from(y),
    classes,
    asserts,
  };
}

/** Buffers for `run`, made once per search and reused for every line. */
interface Scratch {
  readonly mark: Int32Array;
  clist: Int32Array;
  nlist: Int32Array;
  readonly stack: Int32Array;
  /** Stamps `mark`: one value per position searched, across lines. */
  epoch: number;
}

function scratchFor(p: Program): Scratch {
  const size = p.op.length;
  return {
    mark: new Int32Array(size).fill(-1),
    clist: new Int32Array(size),
    nlist: new Int32Array(size),
    stack: new Int32Array(size * 2 + 2),
    epoch: 0,
  };
}

/** One pass over the line with a set of threads (no backtracking); true at the first match. */
function run(p: Program, s: string, budget: StepBudget, w: Scratch): boolean {
  const { mark, stack } = w;
  if (w.epoch > 0x3fffffff) {
    mark.fill(-1);
    w.epoch = 0;
  }
  const n = s.length;
  let steps = 0;
  const holds = (kind: string, i: number): boolean => {
    if (kind === "^") return i === 0;
    if (kind === "$") return i === n;
    const before = i > 0 && isWord(s.charCodeAt(i - 1));
    const after = i < n && isWord(s.charCodeAt(i));
    return kind === "b" ? before !== after : before === after;
  };
  /** Adds `pc` and every instruction reachable from it without a character, at position `i`. */
  const add = (list: Int32Array, count: number, pc0: number, i: number, stamp: number): number => {
    let top = 0;
    let c = count;
    stack[top++] = pc0;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (mark[pc] === stamp) continue;
      mark[pc] = stamp;
      steps++;
      const o = p.op[pc] as number;
      if (o === JMP) stack[top++] = p.x[pc] as number;
      else if (o === SPLIT) {
        stack[top++] = p.y[pc] as number;
        stack[top++] = p.x[pc] as number;
      } else if (o === ASSERT) {
        if (holds(p.asserts[p.x[pc] as number] as string, i)) stack[top++] = pc + 1;
      } else list[c++] = pc;
    }
    return c;
  };
  const finish = (matched: boolean): boolean => {
    budget.steps += steps;
    if (budget.steps > budget.max) budget.stopped = true;
    return matched;
  };

  let clist = w.clist;
  let nlist = w.nlist;
  let cn = add(clist, 0, 0, 0, ++w.epoch);
  for (let i = 0; i <= n; i++) {
    const ch = i < n ? s.charCodeAt(i) : -1;
    const stamp = ++w.epoch;
    let nn = 0;
    for (let k = 0; k < cn; k++) {
      const pc = clist[k] as number;
      steps++;
      const o = p.op[pc] as number;
      if (o === MATCH) return finish(true);
      if (ch < 0) continue;
      const ok =
        o === ANY ||
        (o === CHAR && ch === p.x[pc]) ||
        (o === CLASS && (p.classes[p.x[pc] as number] as (c: number) => boolean)(ch));
      if (ok) nn = add(nlist, nn, pc + 1, i + 1, stamp);
    }
    if (ch < 0) break;
    // Unanchored: a match may start at the next position too.
    nn = add(nlist, nn, 0, i + 1, stamp);
    [clist, nlist] = [nlist, clist];
    cn = nn;
    if (budget.steps + steps > budget.max) return finish(false);
  }
  return finish(false);
}

/**
 * A literal every match contains (the longest run of plain characters in the top-level
 * sequence), for a fast `includes` before the NFA runs; "" when there is none.
 */
function required(node: Node): string {
  if (node.t === "char") return String.fromCharCode(node.c);
  if (node.t === "rep") return node.min >= 1 ? required(node.node) : "";
  if (node.t !== "cat") return "";
  let best = "";
  let run = "";
  for (const item of node.items) {
    if (item.t === "char") {
      run += String.fromCharCode(item.c);
      continue;
    }
    if (run.length > best.length) best = run;
    run = "";
    const inner = required(item);
    if (inner.length > best.length) best = inner;
  }
  return run.length > best.length ? run : best;
}
