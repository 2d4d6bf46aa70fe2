/**
 * The body of the `read_result` handler (loaded on its first call): the arguments are checked,
 * the stored result is fetched, and the page is read as records or as text. Whatever goes
 * wrong (an argument, a result that expired, a store that fails) is an error page, shaped and
 * fenced like any other: the handler never throws.
 */
import { AirlockError } from "../errors/airlock-error.js";
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import type { Shaped } from "../pipeline/shaped.js";
import { parseRequest } from "./args.js";
import { errorPage, type PageOptions, type ReaderState } from "./page.js";
import { readRecords } from "./read-result.js";
import { readText } from "./read-text.js";
import type { ResultStore, StoredResult } from "./store.js";
import { PartMissing, PartUnavailable } from "./text-source.js";

export { createReaderState, errorPage } from "./page.js";
export type { PageOptions };

/**
 * @example
 * const page = await readPage(options, state, store, tokenizer, { handle: "res_…", lines: { from: 241 } });
 */
export async function readPage(
  o: PageOptions,
  state: ReaderState,
  store: ResultStore,
  counter: ResolvedTokenizer,
  args: unknown,
): Promise<Shaped> {
  const refused = { kind: "records", op: "refused", steps: 0 } as const;
  const fail = (code: Parameters<typeof errorPage>[2], message: string, retryable = false) =>
    errorPage(o, counter, code, `read_result: ${message}`, refused, retryable);
  try {
    const req = parseRequest(args);
    if (typeof req === "string") return fail("tool/invalid-input", req);
    let stored: StoredResult | undefined;
    try {
      stored = await store.get(req.handle);
    } catch {
      return fail("tool/unavailable", "the result store failed; try again", true);
    }
    if (stored === undefined || stored === null) {
      return fail(
        "tool/not-found",
        `no stored result ${JSON.stringify(req.handle.slice(0, 40))} (it expired or never existed); call the original tool again`,
      );
    }
    // Not a stored result at all: the store is broken, as when it throws.
    if (typeof stored !== "object")
      return fail("tool/unavailable", "the result store failed; try again", true);
    if (stored.kind === "text") {
      if (req.summary) {
        if (typeof store.getPart !== "function")
          return fail("tool/unavailable", "the result store cannot read text parts");
        // Loaded on the first summary: it decodes and keeps lines, as the first page did.
        const { readSummary } = await import("./read-summary.js");
        return await readSummary(o, state, store, counter, stored);
      }
      if (req.family === "records")
        return fail(
          "tool/invalid-input",
          "this result is text: read it with lines, around, grep or evidence",
        );
      if (typeof store.getPart !== "function")
        return fail("tool/unavailable", "the result store cannot read text parts");
      return await readText(o, state, store, counter, stored, req);
    }
    if (req.family === "text")
      return fail(
        "tool/invalid-input",
        "this result is records: read it with cursor, range, fields, where or evidence",
      );
    if (req.summary)
      return fail(
        "tool/invalid-input",
        "summary: true reads the summary of a text result; this result is records (its first page's aggregates sum them up): read it with cursor, range, fields, where or evidence",
      );
    return await readRecords(o, state, counter, stored, req);
  } catch (error) {
    if (error instanceof PartUnavailable) return fail("tool/unavailable", error.message, true);
    if (error instanceof PartMissing)
      return fail(
        "tool/not-found",
        `${error.message} (the stored result expired); call the original tool again`,
      );
    const code = error instanceof AirlockError ? ` (${error.code})` : "";
    return fail("tool/failed", `the page could not be read${code}`);
  }
}
