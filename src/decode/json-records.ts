/**
 * JSON as records: the streamed array's elements (top level, or under an envelope key) are queued
 * one by one; the document around them (the envelope's other members), or a document that holds
 * no records array, is parsed whole at the end.
 */
import type { RecordFacts } from "../pipeline/facts.js";
import { parseJsonWithin } from "./json.js";
import { createRecordSplitter } from "./json-array.js";
import { createLongString, type LongStringStats } from "./long-string.js";
import type { Split, SplitContext, SplitEnd } from "./records.js";
import { LIMIT_CODES } from "./records.js";

/**
 * @example
 * const split = createJsonSplitter(ctx);
 * split.write('{"items":[{"id":1}]}');
 * split.end(false); // { ok: true, records: true, envelope: "items", document: { items: [] } }
 */
export function createJsonSplitter(ctx: SplitContext): Split {
  const { limits } = ctx;
  const paths = ctx.facts.paths;
  const splitter = createRecordSplitter(
    {
      // A record array begins: it is known before its first record, for a projection and keep.
      section: (path) => {
        paths.push({ path, from: splitter.stats.records + 1, count: 0 });
        if (paths.length === 1 && path !== "") ctx.facts.envelope = path;
      },
      record: (text, index, section) => {
        (paths[section] as { count: number }).count++;
        ctx.queue.push({ text, index: index + 1 });
      },
      oversized: (_, __, section) => {
        (paths[section] as { count: number }).count++;
        ctx.refuse("json/record-too-large");
      },
    },
    {
      ...(ctx.paths !== undefined ? { paths: ctx.paths } : {}),
      maxRecordChars: limits.maxRecordChars,
      maxOutsideChars: limits.maxDocumentChars,
      // A string too long to hold streams into a placeholder: the document is never refused for it.
      maxStringChars: limits.maxStringLength,
      longString: () => createLongString(ctx.hashLimit, statsOf(ctx.facts)),
    },
  );
  return {
    write: (text) => splitter.write(text),
    end(capped): SplitEnd {
      const end = splitter.end();
      const outside = splitter.outside();
      const envelope = splitter.stats.envelope;
      if (end.ok || (capped && end.code === "records/unbalanced" && end.stats.records > 0)) {
        // Records: the document around them (envelope members) is parsed when it is whole.
        const around =
          !capped && outside !== undefined ? parseJsonWithin(outside, limits, true) : undefined;
        if (around !== undefined && !around.ok && !LIMIT_CODES.has(around.error.code)) {
          return { ok: false, code: around.error.code, message: around.error.message };
        }
        return {
          ok: true,
          records: true,
          ...(envelope !== undefined ? { envelope } : {}),
          ...(around?.ok && envelope !== undefined ? { document: around.value } : {}),
        };
      }
      if (end.code === "records/syntax") {
        return {
          ok: false,
          code: "records/syntax",
          message: "json: an empty element in the records array",
        };
      }
      if (capped) {
        return {
          ok: false,
          code: "json/too-large",
          message: `json: the document is cut by maxBytes (${ctx.maxBytes}) and is not an array of records`,
        };
      }
      if (outside === undefined) {
        return {
          ok: false,
          code: "json/too-large",
          message: `json: a single document over ${limits.maxDocumentChars} characters`,
        };
      }
      const parsed = parseJsonWithin(outside, limits, true);
      if (!parsed.ok) return { ok: false, code: parsed.error.code, message: parsed.error.message };
      return { ok: true, records: false, document: parsed.value };
    },
  };
}

/** A long string's counts, written straight into the records' facts. */
function statsOf(facts: RecordFacts): LongStringStats {
  return {
    get blobs() {
      return facts.blobs.count;
    },
    set blobs(n) {
      facts.blobs.count = n;
    },
    get blobBytes() {
      return facts.blobs.bytes;
    },
    set blobBytes(n) {
      facts.blobs.bytes = n;
    },
    get strings() {
      return facts.shortened.strings;
    },
    set strings(n) {
      facts.shortened.strings = n;
    },
    get chars() {
      return facts.shortened.chars;
    },
    set chars(n) {
      facts.shortened.chars = n;
    },
  };
}
