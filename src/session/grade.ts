/**
 * Grading a run's results down to its ceiling. When the view passes the high watermark, the
 * oldest results move down a level, one at a time, until it is back at the low one: first to
 * `evidence` (re-fitted from what their keep holds, at a small share), then to `line` (what
 * it was and its handle), then `folded` (its handle, listed in the first folded result). The
 * last `keepRecent` results and the excluded tools are passed over while that is enough; when
 * it is not, the ceiling wins: everything older than the newest may fold, and the oldest
 * handles leave the fold's line. Within the watermark a result moves only when that makes the
 * view smaller, and its text changes only when its level does: the same run gives the same view.
 */
import { foldedMarker, OMITTED_NOTICES, resultLineMarker, safeName } from "../pipeline/markers.js";
import { type ReadArgs, readCall } from "../pipeline/read-back.js";
import type { SessionSettings } from "./options.js";
import { LEVELS, type Level, type ResultState } from "./state.js";

/** A recorded result as the session holds it. */
export interface Entry extends Omit<ResultState, "level" | "text" | "tokens" | "unlisted"> {
  level: Level;
  text: string;
  tokens: number;
  /** Structured results read back by page, text by evidence. */
  readonly records: boolean;
  /** The call id as markers may show it (`labelOf`). */
  label: string;
  /**
   * Fits the result again within a share, from what its keep holds (no input is read again).
   * Held while the result is at `full`; a restored result's reads its evidence back from the
   * store. A fit that fails (the store lost it) leaves the result to skip `evidence`.
   */
  refit?: (
    share: number,
  ) => Promise<{ readonly text: string; readonly tokens: number } | undefined>;
  /** Folded, and its handle no longer listed in the fold's line (the ceiling could not hold it). */
  unlisted?: boolean;
}

export type Count = (text: string) => Promise<number>;

/** The share a result is re-fitted to at `evidence`: a quarter of its own, at most this. */
const EVIDENCE_TOKENS = 400;
/** ... and at least this (a share smaller than this holds no evidence worth a level). */
const MIN_EVIDENCE_TOKENS = 48;
/** About what a handle costs in the fold's line: a result this small is not folded to save tokens. */
const FOLD_COST = 16;
/** The least share of the ceiling a fit of the newest result is tried at. */
const MIN_SHARE = 16;

const rank = (level: Level): number => LEVELS.indexOf(level);

/**
 * A call id as airlock's own lines may show it: itself when it is letters, digits and `_ . : -`
 * (at most 64), else `call#<position>` (its place in the run, from 1): the id is the host's or
 * the model's text.
 */
export function labelOf(callId: string, position: number): string {
  return safeName(callId, `call#${position}`);
}

/** The one line a result is at `line`. */
export function lineOf(e: Entry): string {
  const handle = e.handle ?? "";
  const args: ReadArgs = e.records || e.evidence === 0 ? { handle } : { handle, evidence: true };
  return resultLineMarker({
    callId: e.label,
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
 * results in call order: the first carries the fold's line, the others are empty.
 */
export function textOf(e: Entry, folded: readonly Entry[]): string {
  if (e.level === "line") return lineOf(e);
  if (e.level !== "folded") return e.text;
  return e === folded[0] ? foldLine(folded) : "";
}

function foldLine(folded: readonly Entry[]): string {
  const listed = folded.filter((f) => f.unlisted !== true);
  return foldedMarker(
    listed.map((f) => ({ callId: f.label, handle: f.handle })),
    folded.length - listed.length,
  );
}

/** The view's tokens, kept as entries move (summing every entry each time would be quadratic). */
interface Run {
  readonly entries: Entry[];
  readonly count: Count;
  sum: number;
}

/** Writes the fold's line into its first entry and empties the others, keeping `run.sum`. */
async function refold(run: Run): Promise<void> {
  const folded = run.entries.filter((e) => e.level === "folded");
  for (const [k, e] of folded.entries()) {
    const text = k === 0 ? foldLine(folded) : "";
    if (text === e.text) continue;
    const tokens = text === "" ? 0 : await run.count(text);
    run.sum += tokens - e.tokens;
    e.text = text;
    e.tokens = tokens;
  }
}

function move(run: Run, e: Entry, level: Level, text: string, tokens: number): void {
  run.sum += tokens - e.tokens;
  Object.assign(e, { level, text, tokens });
  // Its keep is let go once the result has left `full`: a level is never climbed back.
  e.refit = undefined;
}

/** Moves `e` down to `evidence` or `line` when that makes it smaller; true when it moved. */
async function demote(run: Run, e: Entry, level: "evidence" | "line"): Promise<boolean> {
  if (level === "evidence") {
    if (e.refit === undefined) return false;
    const share = Math.min(EVIDENCE_TOKENS, Math.floor(e.fullTokens / 4));
    if (share < MIN_EVIDENCE_TOKENS) return false;
    const fitted = await e.refit(share).catch(() => undefined);
    if (fitted === undefined || fitted.tokens >= e.tokens) return false;
    move(run, e, level, fitted.text, fitted.tokens);
    return true;
  }
  const text = lineOf(e);
  const tokens = await run.count(text);
  if (tokens >= e.tokens) return false;
  move(run, e, level, text, tokens);
  return true;
}

/**
 * Folds candidates, oldest first, a batch at a time (each batch about what the view is over,
 * so the fold's line is counted a few times, not once a result); the results folded.
 */
async function fold(run: Run, candidates: readonly Entry[], target: number): Promise<number> {
  let moved = 0;
  let at = 0;
  while (run.sum > target && at < candidates.length) {
    const batch = Math.max(1, Math.ceil((run.sum - target) / (2 * FOLD_COST)));
    for (const e of candidates.slice(at, at + batch)) {
      run.sum -= e.tokens;
      Object.assign(e, { level: "folded", text: "", tokens: 0, refit: undefined });
      moved++;
    }
    at += batch;
    await refold(run);
  }
  return moved;
}

/**
 * Brings the view within the watermarks after a result was added; the re-shapes it made.
 * `refitNewest(share)` fits the newest result within `share` tokens.
 *
 * @example
 * const moved = await settle(entries, settings, count, refit);
 */
export async function settle(
  entries: Entry[],
  s: SessionSettings,
  count: Count,
  refitNewest: (share: number) => Promise<{ readonly text: string; readonly tokens: number }>,
): Promise<number> {
  const run: Run = { entries, count, sum: entries.reduce((n, e) => n + e.tokens, 0) };
  if (run.sum <= s.highWater) return 0;
  let moved = 0;
  const newest = entries.length - 1;
  const spared = (i: number) => {
    const e = entries[i] as Entry;
    return i >= entries.length - s.keepRecent || (e.tool !== undefined && s.exclude.has(e.tool));
  };
  const older = entries.slice(0, newest);
  // First within the watermark, sparing the recent and the excluded; then within the ceiling.
  for (const pass of [
    { target: s.lowWater, spare: true },
    { target: s.maxRunTokens, spare: false },
  ]) {
    const open = older.filter((_, i) => !(pass.spare && spared(i)));
    for (const level of ["evidence", "line"] as const) {
      for (const e of open) {
        if (run.sum <= pass.target) break;
        if (rank(e.level) < rank(level) && (await demote(run, e, level))) moved++;
      }
    }
    // Within the watermark only what a fold makes smaller; for the ceiling, all that is left.
    const foldable = open.filter(
      (e) => e.level !== "folded" && (!pass.spare || e.tokens > FOLD_COST),
    );
    moved += await fold(run, foldable, pass.target);
  }
  // The ceiling cannot hold every handle: the oldest leave the fold's line.
  const listed = entries.filter((e) => e.level === "folded" && e.unlisted !== true);
  for (let at = 0; run.sum > s.maxRunTokens && at < listed.length; ) {
    const batch = Math.max(1, Math.ceil((run.sum - s.maxRunTokens) / FOLD_COST));
    for (const e of listed.slice(at, at + batch)) e.unlisted = true;
    at += batch;
    await refold(run);
  }
  // The newest result alone passes what is left: it is fitted to that, or said in one line.
  const last = entries[newest] as Entry;
  const room = last.tokens - (run.sum - s.maxRunTokens);
  if (room < last.tokens) {
    const fitted = room >= MIN_SHARE ? await refitNewest(room) : undefined;
    if (fitted !== undefined && fitted.tokens < last.tokens) {
      move(run, last, last.level, fitted.text, fitted.tokens);
    } else {
      const line = lineOf(last);
      const lineTokens = await count(line);
      const least = OMITTED_NOTICES[OMITTED_NOTICES.length - 1] as string;
      if (lineTokens <= room && lineTokens < last.tokens) move(run, last, "line", line, lineTokens);
      else {
        const tokens = await count(least);
        if (tokens < last.tokens) move(run, last, "evidence", least, tokens);
      }
    }
    moved++;
  }
  return moved;
}
