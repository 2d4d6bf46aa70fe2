/**
 * NDJSON as records: one JSON value a line, each line independent (a bad line is refused alone;
 * in sniffed NDJSON, a line that is not JSON is kept as a string record).
 */
import type { Split, SplitContext } from "./records.js";

/**
 * @example
 * const split = createNdjsonSplitter(ctx);
 * split.write('{"a":1}\n{"a":2}\n');
 * split.end(false); // ctx.queue holds both lines
 */
export function createNdjsonSplitter(ctx: SplitContext): Split {
  const max = ctx.limits.maxRecordChars;
  let carry = "";
  let line = 0;
  let over = false;
  const take = (text: string) => {
    line++;
    if (text.trim() !== "")
      ctx.queue.push({ text, index: line, ...(ctx.lenient ? { lenient: true } : {}) });
  };
  return {
    write(text) {
      let from = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
        if (over) ctx.refuse("json/record-too-large");
        else take(carry + text.slice(from, nl));
        carry = "";
        over = false;
        from = nl + 1;
      }
      if (!over) {
        carry += text.slice(from);
        if (carry.length > max) {
          carry = "";
          over = true;
        }
      }
    },
    end(capped) {
      if (over) ctx.refuse("json/record-too-large");
      // A last line cut by the byte cap is not a whole record.
      else if (carry.trim() !== "" && !capped) take(carry);
      return { ok: true, records: true };
    },
  };
}
