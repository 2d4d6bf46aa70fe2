/**
 * `shapeCallToolResult`: a whole MCP result for the model's side of the client. Every part is
 * read first (memory O(budget) each); then the model-visible parts share `maxTokens` through the
 * round allocator: airlock's own lines (placeholders, links, notes) are counted first, a small
 * part gets what it needs, the rest split what is left by need. `structuredContent` has a
 * budget of its own. The result is a valid `CallToolResult`: parts for the user alone are left
 * as they came, `isError` is kept, and what was done is under one `_meta` key.
 */
import { forTheModel, type McpCallToolResult, type McpContent } from "../adapters/content.js";
import type { Schema } from "../contract/contract.js";
import { fromJs } from "../decode/from-js.js";
import { lazyTokenizer } from "../fit/tokenizer.js";
import { compileOptions, MIN_MAX_TOKENS } from "../options/compile.js";
import { compileMcpOptions, type McpShapeOptions } from "../options/mcp.js";
import { sliceOptions } from "../options/slices.js";
import type { Shaped } from "../pipeline/shaped.js";
import { createRedactStage } from "../redact/stage.js";
import { type CompiledShaper, compileShaper } from "../shape.js";
import { fitParts } from "./fit.js";
import {
  MCP_META_KEY,
  type PartFacts,
  type StructuredFacts,
  serverFacts,
  structuredNote,
  summaryOf,
} from "./meta.js";
import { type Item, readParts } from "./parts.js";
import { compileOutputSchema, type OutputSchema } from "./schema.js";
import { type PartRead, readResult } from "./snapshot.js";
import { reduceStructured } from "./structured.js";

export type CallToolResultShaper = (result: McpCallToolResult) => Promise<McpCallToolResult>;

/**
 * The records view of `structuredContent` is added when the tool's own text is less than this
 * share of the value's JSON (one quarter).
 */
const VIEW_RATIO = 4;
/** ...and only when `maxTokens` leaves room for it beside the tool's own text. */
const VIEW_MIN_TOKENS = 256;

/** Shapers compiled per media type, at most: a tool's types are few, a hostile list is not kept. */
const MAX_SHAPERS = 32;

/**
 * Compiles the options once and returns the shaper of whole results.
 *
 * @example
 * const shapeResult = createCallToolResultShaper({ maxTokens: 2000, tool: "search" });
 * const shaped = await shapeResult(await client.callTool({ name: "search", arguments }));
 */
export function createCallToolResultShaper(options: McpShapeOptions = {}): CallToolResultShaper {
  const o = compileMcpOptions(options);
  const compiled = compileOptions(o.shape);
  const redactStage = createRedactStage(sliceOptions(compiled).redact);
  const clean = redactStage.clean;
  const tokenizer = lazyTokenizer(compiled.tokenizer);
  const count = async (text: string) => (await tokenizer()).count(text);
  const shapers = new Map<string, CompiledShaper>();
  const shaperFor = (contentType: string | undefined, toolError: boolean): CompiledShaper => {
    const key = `${toolError ? "!" : ""}${contentType ?? ""}`;
    let shaper = shapers.get(key);
    if (shaper === undefined) {
      shaper = compileShaper({
        ...o.shape,
        ...(contentType !== undefined ? { contentType } : {}),
        ...(toolError ? { toolError } : {}),
      });
      if (shapers.size < MAX_SHAPERS) shapers.set(key, shaper);
    }
    return shaper;
  };
  shaperFor(undefined, false);
  let schema: Promise<OutputSchema | { readonly error: string }> | undefined;
  const outputSchema = o.outputSchema;
  const schemaOf = outputSchema && (() => (schema ??= compileOutputSchema(outputSchema as Schema)));
  // The whole structured value goes to the store through the pipeline, as a result would: as
  // records when it holds them, else as its JSON text, pretty-printed (read by lines).
  const storing = compiled.store
    ? {
        json: compileShaper({ ...o.shape, format: "json", maxTokens: 64 }),
        text: compileShaper({ ...o.shape, format: "text", maxTokens: 64 }),
      }
    : undefined;

  /** Where the whole value is stored: its records' handle, else its JSON text's. */
  async function storeWhole(value: unknown): Promise<string | undefined> {
    if (!storing) return undefined;
    const records = await storing.json.finish(await storing.json.prepare(value as never));
    const handle = records.meta.records?.handle ?? records.meta.handle;
    if (handle !== undefined) return handle;
    let text: string | undefined;
    try {
      text = JSON.stringify(value, null, 2);
    } catch {
      return undefined;
    }
    if (text === undefined) return undefined;
    const whole = await storing.text.finish(await storing.text.prepare(text));
    return whole.meta.handle;
  }

  async function structuredPart(
    value: unknown,
    /** The handle the records view stored the value under, when there is one. */
    stored: string | undefined,
  ): Promise<{ value?: object; facts: StructuredFacts; note?: string }> {
    const s = schemaOf ? await schemaOf() : undefined;
    const out = await reduceStructured(value, {
      maxTokens: o.maxStructuredTokens,
      count,
      clean: (text) => clean(text),
      ...(compiled.recordPaths !== undefined ? { paths: compiled.recordPaths } : {}),
      ...(s && "check" in s
        ? { check: s.check, ...(s.minItems ? { minItems: s.minItems } : {}) }
        : {}),
    });
    const cut = out.cuts.length > 0 || out.omitted !== undefined;
    let handle = cut ? stored : undefined;
    if (handle === undefined && cut) handle = await storeWhole(value);
    const facts: StructuredFacts = {
      maxTokens: o.maxStructuredTokens,
      tokens: out.tokens,
      before: out.before,
      cuts: out.cuts,
      arraysCut: out.arraysCut,
      ...(out.valid !== undefined ? { valid: out.valid } : {}),
      ...(out.omitted !== undefined ? { omitted: out.omitted } : {}),
      ...(out.invalid !== undefined ? { invalid: clean(out.invalid, 300) } : {}),
      ...(s && "error" in s ? { schemaError: s.error } : {}),
      ...(handle ? { handle } : {}),
    };
    return { ...(out.value ? { value: out.value } : {}), facts, ...(structuredNote(facts) ?? {}) };
  }

  /**
   * The records view of `structuredContent` as one more text part, after the tool's own, when
   * those say much less than the value (a count, a title): its error records, aggregates and
   * summary, in the same budget. A tool whose text already carries the data gets none.
   */
  async function recordsView(
    value: unknown,
    parts: readonly PartRead[],
    at: number,
    isError: boolean,
  ): Promise<Item | undefined> {
    let said = 0;
    for (const read of parts) {
      if (read.kind !== "part" || !forTheModel(read.part)) continue;
      const part = read.part;
      if (part.type === "text") said += part.text.length;
      else if (part.type === "resource" && "text" in part.resource)
        said += part.resource.text.length;
    }
    // Whether its JSON is longer than the tool's own text by VIEW_RATIO, read no further than
    // that (ten million holes were written out whole to be measured).
    const within = said * VIEW_RATIO;
    const probe = fromJs(value, {}, true, within + 1);
    if (!probe.ok && (probe.code === "json/unreadable" || probe.code === "json/cycle"))
      return undefined;
    if (probe.ok) {
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch {
        return undefined;
      }
      if (json === undefined || within >= json.length) return undefined;
    }
    // A small budget is the tool's own text's: a view would crowd it out.
    if (o.maxTokens < VIEW_MIN_TOKENS) return undefined;
    const shaper = shaperFor("application/json", isError);
    const prepared = await shaper.prepare(value as never);
    if (prepared.ctx.facts.records?.shape !== "records") return undefined;
    return {
      kind: "shaped",
      index: at,
      type: "text",
      part: { type: "text", text: "" },
      shaper,
      prepared,
      wrap: (text) => ({ type: "text", text }),
      view: true,
    };
  }

  return async function shapeResult(result: McpCallToolResult): Promise<McpCallToolResult> {
    // The rule set loads with the first result: the cleaner of links and keys needs it.
    await redactStage.ready();
    const input = readResult(result);
    const isError = input.isError || compiled.toolError;
    const at = input.parts.length + input.past;
    const items = await readParts(input.parts, {
      shaperFor: (contentType) => shaperFor(contentType, isError),
      maxImageBytes: o.maxImageBytes,
      images: o.images,
      audio: o.audio,
      hashLimit: compiled.hashLimit,
      clean,
      maxCostly: Math.floor(o.maxTokens / MIN_MAX_TOKENS),
      isError,
    });
    const view =
      input.structuredContent !== undefined
        ? await recordsView(input.structuredContent, input.parts, at, isError)
        : undefined;
    if (view) items.push(view);
    const structured =
      input.structuredContent !== undefined
        ? await structuredPart(
            input.structuredContent,
            view?.kind === "shaped" ? view.prepared.ctx.facts.handle : undefined,
          )
        : undefined;
    const { byItem, note } = await fitParts(
      items,
      structured?.note,
      o.maxTokens,
      count,
      input.past,
    );
    const facts: PartFacts[] = [];
    const shaped: Shaped[] = [];
    const content: McpContent[] = [];
    for (const item of items) {
      const f = byItem.get(item);
      if (f === undefined) continue;
      if (f.out) content.push(f.out);
      if (f.shaped) shaped.push(f.shaped);
      facts.push(f.facts);
    }
    if (note) content.push({ type: "text", text: note.text });
    // A broken contract is the tool's failure; any other trouble of a part is reported, not raised.
    const broken = shaped.some((s) => s.meta.error?.code.startsWith("contract/"));
    const server = serverFacts(input.meta);

    const meta = summaryOf({
      facts,
      shaped,
      noteTokens: note?.tokens ?? 0,
      maxTokens: o.maxTokens,
      isError: isError || broken,
      structured: structured?.facts,
      unread: input.past,
      ...(server ? { server } : {}),
    });
    return {
      content,
      ...(structured?.value
        ? { structuredContent: structured.value as { [key: string]: unknown } }
        : {}),
      ...(isError || broken ? { isError: true } : {}),
      _meta: { ...(input.meta ?? {}), [MCP_META_KEY]: meta },
    };
  };
}
