/**
 * The parts of one result under one budget. Airlock's own lines (placeholders, links, the notes
 * about what was left out) are counted first; every part shaped by the pipeline gets at least
 * one `MIN_MAX_TOKENS` share, and parts are left out from the end until that holds; then
 * `allocate` (the round's water-filling) shares what is left by need, and each part over its
 * share is fitted again to it. Together the text is within `maxTokens`.
 */
import { type McpContent, mimeOf } from "../adapters/content.js";
import { forRound, withinShare } from "../fit/recount.js";
import { MIN_MAX_TOKENS } from "../options/compile.js";
import { noteMarker } from "../pipeline/markers.js";
import type { Shaped } from "../pipeline/shaped.js";
import { tokensOf } from "../pipeline/shaped.js";
import { allocate } from "../round/allocate.js";
import type { PartFacts } from "./meta.js";
import type { Item } from "./parts.js";

export interface Fitted {
  /** What goes into `content` (absent for a part left out). */
  readonly out?: McpContent;
  readonly facts: PartFacts;
  readonly shaped?: Shaped;
}

export interface FittedParts {
  readonly byItem: Map<Item, Fitted>;
  /** Airlock's notes about the result, as one text part at the end. */
  readonly note?: { readonly text: string; readonly tokens: number };
}

function leftMarker(count: number, maxTokens: number): string {
  const parts = count === 1 ? "1 more content part" : `${count} more content parts`;
  return noteMarker(`${parts} not shown: maxTokens (${maxTokens}) has no room for them`);
}

type Count = (text: string) => Promise<number>;

/**
 * @example
 * const { byItem, note } = await fitParts(items, structuredNote, 4000, count);
 */
export async function fitParts(
  items: readonly Item[],
  structuredNote: string | undefined,
  maxTokens: number,
  count: Count,
  /** Parts past what is read at all (`MAX_PARTS_READ`): left out, and counted in the note. */
  unread = 0,
): Promise<FittedParts> {
  const byItem = new Map<Item, Fitted>();
  const costly: Item[] = [];
  let left = unread;
  for (const item of items) {
    if (item.kind === "user") {
      byItem.set(item, {
        out: item.raw as McpContent,
        facts: { index: item.index, type: item.type, shown: "user" },
      });
    } else if (item.kind === "media") {
      const facts: PartFacts = {
        index: item.index,
        type: item.type,
        shown: "whole",
        mime: mimeOf(item.part.mimeType),
        bytes: item.bytes,
      };
      byItem.set(item, { out: item.part, facts });
    } else if (item.kind === "left") left++;
    else costly.push(item);
  }
  const fixed = new Map<Item, number>();
  for (const item of costly) if (item.kind === "fixed") fixed.set(item, await count(item.text));
  // Leave parts out from the end until each shaped part can have its least share.
  let kept = costly.length;
  let note: { text: string; tokens: number } | undefined;
  let room = maxTokens;
  for (;;) {
    const dropped = left + costly.length - kept;
    note = await noteOf(
      [structuredNote, dropped > 0 ? leftMarker(dropped, maxTokens) : undefined],
      maxTokens,
      count,
    );
    const keptItems = costly.slice(0, kept);
    const lines = keptItems.reduce((n, i) => n + (fixed.get(i) ?? 0), 0);
    const shapedCount = keptItems.filter((i) => i.kind === "shaped").length;
    room = maxTokens - lines - (note?.tokens ?? 0);
    if (room >= shapedCount * MIN_MAX_TOKENS || kept === 0) break;
    kept--;
  }
  const keptItems = costly.slice(0, kept);
  const shapedItems = keptItems.filter((i): i is Item & { kind: "shaped" } => i.kind === "shaped");
  const alone = await forRound(
    await Promise.all(shapedItems.map((i) => i.shaper.finish(i.prepared))),
    Math.max(0, room),
  );
  const needs = alone.map((s) => tokensOf(s.meta));
  const shares = allocate(needs, Math.max(0, room), { min: MIN_MAX_TOKENS });
  for (const [k, item] of shapedItems.entries()) {
    const need = needs[k] as number;
    const share = shares[k] as number;
    const s =
      share >= need
        ? (alone[k] as Shaped)
        : ((await withinShare(alone[k] as Shaped, share)) ??
          (await item.shaper.finish(item.prepared, share)));
    const shaped = item.shaper.report(s);
    byItem.set(item, {
      out: item.wrap(shaped.text),
      facts: factsOf(item, shaped, need, share),
      shaped,
    });
  }
  for (const item of keptItems) {
    if (item.kind !== "fixed") continue;
    const facts: PartFacts = {
      index: item.index,
      type: item.type,
      shown: "named",
      tokens: fixed.get(item) as number,
      ...(item.mime ? { mime: item.mime } : {}),
      ...(item.bytes !== undefined ? { bytes: item.bytes } : {}),
      ...(item.sha256 ? { sha256: item.sha256 } : {}),
      ...(item.why ? { why: item.why } : {}),
    };
    byItem.set(item, { out: item.out, facts });
  }
  for (const item of items) {
    if (byItem.has(item)) continue;
    byItem.set(item, {
      facts: { index: item.index, type: item.type, shown: "left out", why: "maxTokens" },
    });
  }
  return { byItem, ...(note ? { note } : {}) };
}

/** The notes as one part, or as much of them as fits: the note about left-out parts comes last. */
async function noteOf(lines: ReadonlyArray<string | undefined>, maxTokens: number, count: Count) {
  const present = lines.filter((l): l is string => l !== undefined);
  for (let from = 0; from < present.length; from++) {
    const text = present.slice(from).join("\n");
    const tokens = await count(text);
    if (tokens <= maxTokens) return { text, tokens };
  }
  return undefined;
}

function factsOf(
  item: Item & { kind: "shaped" },
  s: Shaped,
  need: number,
  share: number,
): PartFacts {
  const t = s.meta.telemetry;
  const records = s.meta.records;
  return {
    index: item.index,
    type: item.type,
    shown: "shaped",
    ...(item.view ? { from: "structuredContent" as const } : {}),
    status: s.status,
    tokens: tokensOf(s.meta),
    need,
    share,
    ...(t ? { before: t.before, cuts: t.cuts } : {}),
    truncated: s.meta.truncated,
    ...(s.meta.redactions ? { redactions: s.meta.redactions.count } : {}),
    // Any stored result has a handle (text too), not only records.
    ...((s.meta.handle ?? records?.handle) ? { handle: s.meta.handle ?? records?.handle } : {}),
    ...(records?.cursor ? { cursor: records.cursor } : {}),
    ...(s.meta.error ? { error: s.meta.error.code } : {}),
  };
}
