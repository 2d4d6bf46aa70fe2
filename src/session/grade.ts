/**
 * Grading a run's results down to its ceiling. When the view passes the high watermark, the
 * oldest results move down a level, one at a time, until it is back at the low one: first to
 * `evidence` (re-fitted from what their keep holds, at a small share), then to `line` (what
 * it was and its handle), then `folded` (its handle, listed in the first folded result). The
 * last `keepRecent` results and the excluded tools are passed over while that is enough; when
 * it is not, the ceiling wins. A result moves only when that makes the view smaller, and its
 * text changes only when its level does: the same run gives the same view.
 */
import { foldedIntoMarker, foldedMarker, resultLineMarker } from "../pipeline/markers.js";
import { type ReadArgs, readCall } from "../pipeline/read-back.js";
import type { SessionSettings } from "./options.js";
import { LEVELS, type Level, type ResultState } from "./state.js";

/** A recorded result as the session holds it. */
export interface Entry extends Omit<ResultState, "level" | "text" | "tokens"> {
  level: Level;
  text: string;
  tokens: number;
  /** Structured results read back by page, text by evidence. */
  readonly records: boolean;
  /**
   * Fits the result again within a share, from what its keep holds (no input is read again).
   * Held while the result is at `full`; a restored session has none, so it skips `evidence`.
   */
  refit?: (share: number) => Promise<{ readonly text: string; readonly tokens: number }>;
}

export type Count = (text: string) => Promise<number>;

/** The share a result is re-fitted to at `evidence`: a quarter of its own, at most this. */
export const EVIDENCE_TOKENS = 400;
/** ... and at least this (a share smaller than this holds no evidence worth a level). */
const MIN_EVIDENCE_TOKENS = 48;

const rank = (level: Level): number => LEVELS.indexOf(level);

/** The one line a result is at `line`. */
export function lineOf(e: Entry): string {
  const handle = e.handle ?? "";
  const args: ReadArgs = e.records ? { handle } : { handle, evidence: true };
  return resultLineMarker({
    callId: e.callId,
    ...(e.tool !== undefined ? { tool: e.tool } : {}),
    status: e.status,
    size: e.size,
    evidence: e.evidence,
    ...(e.handle !== undefined ? { read: readCall(args) } : {}),
  });
}

/**
 * The text a result has at its level: its own at `full` and `evidence`, made from what it was
 * at `line` and `folded` (a restored session saves no such text). `folded` is the folded
 * results in call order.
 */
export function textOf(e: Entry, folded: readonly Entry[]): string {
  if (e.level === "line") return lineOf(e);
  return e.level === "folded" ? foldText(e, folded) : e.text;
}

function foldText(e: Entry, folded: readonly Entry[]): string {
  const first = folded[0] as Entry;
  return e === first
    ? foldedMarker(folded.map((f) => ({ callId: f.callId, handle: f.handle })))
    : foldedIntoMarker(first.callId);
}

/**
 * The texts of the folded results: the first lists them all, the others point to it.
 *
 * @example
 * await refold(entries, count); // after an entry's level became "folded"
 */
export async function refold(entries: readonly Entry[], count: Count): Promise<void> {
  const folded = entries.filter((e) => e.level === "folded");
  const first = folded[0];
  if (first === undefined) return;
  for (const e of folded) {
    const text = foldText(e, folded);
    if (text === e.text) continue;
    e.text = text;
    e.tokens = await count(text);
  }
}

const total = (entries: readonly Entry[]): number => entries.reduce((n, e) => n + e.tokens, 0);

/**
 * Moves entry `i` down to `level` when that makes the view smaller; true when it moved.
 */
async function demote(entries: Entry[], i: number, level: Level, count: Count): Promise<boolean> {
  const e = entries[i] as Entry;
  const before = { level: e.level, text: e.text, tokens: e.tokens };
  const was = total(entries);
  if (level === "evidence") {
    if (e.refit === undefined) return false;
    const share = Math.min(EVIDENCE_TOKENS, Math.floor(e.fullTokens / 4));
    if (share < MIN_EVIDENCE_TOKENS) return false;
    const fitted = await e.refit(share);
    if (fitted.tokens >= e.tokens) return false;
    Object.assign(e, { level, text: fitted.text, tokens: fitted.tokens });
  } else if (level === "line") {
    const text = lineOf(e);
    const tokens = await count(text);
    if (tokens >= e.tokens) return false;
    Object.assign(e, { level, text, tokens });
  } else {
    e.level = "folded";
    await refold(entries, count);
    if (total(entries) >= was) {
      Object.assign(e, before);
      await refold(entries, count);
      return false;
    }
  }
  // Its keep is let go once the result has left `full`: a level is never climbed back.
  e.refit = undefined;
  return true;
}

/**
 * Brings the view within the watermarks after a result was added; the re-shapes it made.
 *
 * @example
 * const moved = await settle(entries, settings, count);
 */
export async function settle(
  entries: Entry[],
  s: SessionSettings,
  count: Count,
  refitNewest: (share: number) => Promise<boolean>,
): Promise<number> {
  if (total(entries) <= s.highWater) return 0;
  let moved = 0;
  const newest = entries.length - 1;
  const protectedAt = (i: number) =>
    i >= entries.length - s.keepRecent ||
    ((entries[i] as Entry).tool !== undefined &&
      s.exclude.has((entries[i] as Entry).tool as string));
  // First within the watermark, sparing the recent and the excluded; then within the ceiling.
  for (const pass of [
    { target: s.lowWater, spare: true },
    { target: s.maxRunTokens, spare: false },
  ]) {
    for (const level of LEVELS.slice(1)) {
      for (let i = 0; i < newest && total(entries) > pass.target; i++) {
        if (pass.spare && protectedAt(i)) continue;
        if (rank((entries[i] as Entry).level) >= rank(level)) continue;
        if (await demote(entries, i, level, count)) moved++;
      }
    }
  }
  // The newest result alone passes what is left of the ceiling: it is fitted to that.
  const over = total(entries) - s.maxRunTokens;
  if (over > 0 && (await refitNewest((entries[newest] as Entry).tokens - over))) moved++;
  return moved;
}
