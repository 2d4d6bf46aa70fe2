/**
 * Tree-construction events from htmlparser2's streaming `Tokenizer`: open and close tags (with
 * the closes HTML implies), text and comments. htmlparser2's own `Parser` keeps its open-tag
 * stack with `unshift`/`shift`/`indexOf`, which costs the depth of the stack for every tag:
 * `"<div>".repeat(N)`, unclosed inline tag soup and close tags nothing opened grow quadratic on
 * it (minutes for 2 MB). Here the stack is an array used at its end and a count of open elements
 * per name, so every event is O(1) amortised whatever the nesting; the input's chunks are kept
 * only until the tokenizer has reported past them.
 */
import { Tokenizer } from "htmlparser2";
import { FOREIGN, IMPLIED_CLOSES, SCOPED_CLOSES, VOID } from "./elements.js";

export interface ParseHandler {
  /** An element opens; its attribute names are lowercase, the first of each name kept. */
  onopentag(name: string, attribs: Readonly<Record<string, string>>): void;
  /** The element opened last and not yet closed closes (explicitly or implied). */
  onclosetag(name: string): void;
  ontext(text: string): void;
  oncomment(text: string): void;
  /** Whether the content of such an element is never shown (hidden, a script): asked past MAX_STACK. */
  skips(name: string, attribs: Readonly<Record<string, string>>): boolean;
  /** Text inside such an element past MAX_STACK, dropped. */
  onskippedtext(text: string): void;
}

/**
 * Open elements tracked one by one. Past this depth the page is flattened: deeper tags are no
 * elements, their text belongs to the deepest one, and only their count is kept (with their
 * names, to match their closes), so memory stays bounded whatever the nesting. Content the
 * handler `skips` (hidden, a script) stays dropped, from its tag until the nesting unwinds past it.
 */
export const MAX_STACK = 512;
/** Distinct tag names matched to their closes past MAX_STACK; the closes of others are ignored. */
const MAX_OVERFLOW_NAMES = 256;

export interface HtmlParser {
  write(text: string): void;
  /** The input ends: an unfinished tag is dropped (as a browser does), open elements close. */
  end(): void;
}

/** Elements looked at, at most, to find the one a start tag closes (SCOPED_CLOSES). */
const SCOPE_DEPTH = 64;

/** Chunks already reported are dropped from the front once this many have piled up. */
const COMPACT_AT = 1024;

/**
 * @example
 * const parser = createHtmlParser({ onopentag, onclosetag, ontext, oncomment });
 * parser.write("<p>Hello <b>world");
 * parser.end(); // closes b, then p
 */
export function createHtmlParser(handler: ParseHandler): HtmlParser {
  // The input since the earliest position the tokenizer may still ask for.
  let chunks: string[] = [];
  let head = 0;
  /** Position (in the whole input) of chunks[head]. */
  let headAt = 0;

  const slice = (start: number, end: number): string => {
    // The character before `start` stays reachable (an unfinished tag at the end is told by it).
    while (head < chunks.length && start > headAt + (chunks[head] as string).length) {
      headAt += (chunks[head] as string).length;
      chunks[head] = "";
      head++;
    }
    if (head >= COMPACT_AT && head * 2 >= chunks.length) {
      chunks = chunks.slice(head);
      head = 0;
    }
    let out = "";
    let at = headAt;
    for (let i = head; i < chunks.length && at < end; i++) {
      const c = chunks[i] as string;
      if (at + c.length > start) out += c.slice(Math.max(0, start - at), end - at);
      at += c.length;
    }
    return out;
  };

  const stack: string[] = [];
  const open = new Map<string, number>();
  let foreign = 0;
  let tagName = "";
  let attribs: Record<string, string> | undefined;
  let attribName = "";
  let attribValue = "";
  let ending = false;

  /** Tags opened past MAX_STACK and not closed, and their names. */
  let overflow = 0;
  const overflowNames = new Map<string, number>();
  /** The overflow level at which skipped content began (0: none). */
  let overflowSkip = 0;

  const push = (name: string) => {
    stack.push(name);
    open.set(name, (open.get(name) ?? 0) + 1);
    if (FOREIGN.has(name)) foreign++;
  };
  const pop = () => {
    const name = stack.pop() as string;
    const n = (open.get(name) ?? 1) - 1;
    if (n > 0) open.set(name, n);
    else open.delete(name);
    if (FOREIGN.has(name)) foreign--;
    handler.onclosetag(name);
  };
  const unwindOverflow = () => {
    overflow = 0;
    overflowNames.clear();
    overflowSkip = 0;
  };
  const openOverflow = (name: string, attrs: Record<string, string>, selfClosing: boolean) => {
    if (overflowSkip === 0 && handler.skips(name, attrs)) overflowSkip = overflow + 1;
    if (selfClosing && foreign > 0) {
      if (overflowSkip === overflow + 1) overflowSkip = 0;
      return;
    }
    overflow++;
    const n = overflowNames.get(name);
    if (n !== undefined) overflowNames.set(name, n + 1);
    else if (overflowNames.size < MAX_OVERFLOW_NAMES) overflowNames.set(name, 1);
  };
  /** A close past MAX_STACK: true when it closed a tag opened there. */
  const closeOverflow = (name: string): boolean => {
    const n = overflowNames.get(name);
    if (n === undefined) return false;
    if (n > 1) overflowNames.set(name, n - 1);
    else overflowNames.delete(name);
    overflow--;
    if (overflowSkip > overflow) overflowSkip = 0;
    return true;
  };
  /** Closes the nearest open element named in `targets`, unless a `stops` element comes first. */
  const closeInScope = (targets: ReadonlySet<string>, stops: ReadonlySet<string>) => {
    let any = false;
    for (const t of targets) any ||= (open.get(t) ?? 0) > 0;
    if (!any) return;
    for (let i = stack.length - 1; i >= 0 && i >= stack.length - SCOPE_DEPTH; i--) {
      const name = stack[i] as string;
      if (targets.has(name)) {
        while (stack.length > i) pop();
        return;
      }
      if (stops.has(name)) return;
    }
  };
  const emitOpen = (name: string, attrs: Record<string, string>, selfClosing: boolean) => {
    const flat = overflow > 0 || stack.length >= MAX_STACK;
    if (flat && !VOID.has(name)) return openOverflow(name, attrs, selfClosing);
    if (flat && overflowSkip > 0) return;
    // Implied closes apply to what is tracked; in the flattened part there is nothing to close.
    if (overflow === 0) {
      const closes = IMPLIED_CLOSES.get(name);
      if (closes !== undefined) {
        while (stack.length > 0 && closes.has(stack[stack.length - 1] as string)) pop();
      }
      const scoped = SCOPED_CLOSES.get(name);
      if (scoped !== undefined) closeInScope(scoped.targets, scoped.stops);
    }
    handler.onopentag(name, attrs);
    if (VOID.has(name)) {
      handler.onclosetag(name);
      return;
    }
    push(name);
    // `<x/>` closes only in SVG and MathML (`<svg/>` included); in HTML the slash is ignored.
    if (selfClosing && foreign > 0) pop();
  };
  const endOpenTag = (selfClosing: boolean) => {
    if (attribs !== undefined) emitOpen(tagName, attribs, selfClosing);
    attribs = undefined;
    tagName = "";
  };
  const readName = (start: number, end: number): string => {
    const name = slice(start, end).toLowerCase();
    return name === "image" && foreign === 0 ? "img" : name;
  };

  const emitText = (text: string) => {
    if (overflowSkip > 0) handler.onskippedtext(text);
    else handler.ontext(text);
  };
  const unfinishedTag = (start: number, text: string) =>
    start > 0 && /^[a-zA-Z]/.test(text) && slice(start - 1, start) === "<";

  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      ontext(start, end) {
        const text = slice(start, end);
        // What the tokenizer hands back at the end from inside an unfinished tag (`<scr`, `</`)
        // is that tag, not text.
        if (ending && (/^<[a-zA-Z/!?]/.test(text) || unfinishedTag(start, text))) return;
        emitText(text);
      },
      ontextentity(codepoint) {
        emitText(String.fromCodePoint(codepoint));
      },
      onopentagname(start, end) {
        tagName = readName(start, end);
        attribs = Object.create(null) as Record<string, string>;
      },
      onattribname(start, end) {
        attribName = slice(start, end).toLowerCase();
        attribValue = "";
      },
      onattribdata(start, end) {
        attribValue += slice(start, end);
      },
      onattribentity(codepoint) {
        attribValue += String.fromCodePoint(codepoint);
      },
      onattribend() {
        if (attribs !== undefined && !Object.hasOwn(attribs, attribName)) {
          attribs[attribName] = attribValue;
        }
        attribValue = "";
      },
      onopentagend() {
        endOpenTag(false);
      },
      onselfclosingtag() {
        endOpenTag(true);
      },
      onclosetag(start, end) {
        const name = readName(start, end);
        if (VOID.has(name)) {
          // `</br>` is a line break in every browser; other void end tags are nothing.
          if (name === "br") emitOpen("br", Object.create(null), false);
          return;
        }
        if (overflow > 0) {
          if (closeOverflow(name)) return;
          // It closes an element below the flattened part, and all of that part with it.
          if ((open.get(name) ?? 0) > 0) unwindOverflow();
          else return;
        }
        if ((open.get(name) ?? 0) > 0) {
          while (stack.length > 0 && stack[stack.length - 1] !== name) pop();
          pop();
        } else if (name === "p") {
          // `</p>` with no open `p` is an empty paragraph.
          emitOpen("p", Object.create(null), false);
          pop();
        }
      },
      oncomment(start, end, offset) {
        handler.oncomment(slice(start, end - offset));
      },
      oncdata(start, end, offset) {
        const text = slice(start, end - offset);
        if (foreign > 0) emitText(text);
        else handler.oncomment(`[CDATA[${text}]]`);
      },
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {
        unwindOverflow();
        while (stack.length > 0) pop();
      },
      isInForeignContext() {
        return foreign > 0;
      },
    },
  );

  return {
    write(text) {
      if (text === "") return;
      chunks.push(text);
      tokenizer.write(text);
    },
    end() {
      ending = true;
      tokenizer.end();
      chunks = [];
      head = 0;
    },
  };
}
