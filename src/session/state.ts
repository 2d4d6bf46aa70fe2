/**
 * A session's state as plain data (`toJSON()`, `createSession({ restore })`): each recorded
 * result with its level, its text at that level and what its one line says; the results
 * themselves live in the store, by handle. Read back field by field: a state that does not
 * hold is refused, never half taken.
 */
import { safeName } from "../pipeline/markers.js";

/** How much of a result the view shows, from all of it to a handle in a fold. */
export type Level = "full" | "evidence" | "line" | "folded";

export const LEVELS: readonly Level[] = ["full", "evidence", "line", "folded"];

/** One recorded result. */
export interface ResultState {
  /** The host's or the model's call id (1 to 256 characters). */
  readonly callId: string;
  readonly tool?: string;
  readonly level: Level;
  /** Its text at `full` or `evidence` (the text at `line` and `folded` is made from the rest). */
  readonly text: string;
  readonly tokens: number;
  /** Its tokens at `full`: what it took when it was shaped. */
  readonly fullTokens: number;
  readonly status: string;
  /** Its size in airlock's words: `51081 lines`, `1200 records`, `2048 bytes`. */
  readonly size: string;
  /** Evidence lines or records in the whole result. */
  readonly evidence: number;
  readonly handle?: string;
  /** Folded, and its handle no longer listed in the fold's line (the ceiling could not hold it). */
  readonly unlisted?: true;
}

/** One `view()` call: its tokens, and whether an earlier result's text changed since the last. */
export interface ViewStat {
  readonly tokens: number;
  readonly prefixChanged: boolean;
}

export interface SessionState {
  readonly version: 1;
  readonly results: readonly ResultState[];
  /** Re-shapes done so far (a result moved to a lower level). */
  readonly reshapes: number;
  readonly views: readonly ViewStat[];
}

/** `view()` calls `stats()` lists at most; older ones are counted in `viewsDropped`. */
export const MAX_VIEW_STATS = 4096;

const STATUSES = new Set(["ok", "partial", "empty", "error"]);
const SIZE = /^\d{1,16} (?:lines?|records?|bytes?)$/;

/** A call id: 1 to 256 characters, none of them a control character. */
export function isCallId(value: unknown): value is string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  return typeof value === "string" && /^[^\u0000-\u001f\u007f]{1,256}$/.test(value);
}

function count(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The state, read field by field into fresh objects; `refuse` is called with what is wrong.
 *
 * @example
 * const state = readState(JSON.parse(saved), (m) => { throw new Error(m); });
 */
export function readState(value: unknown, refuse: (message: string) => never): SessionState {
  try {
    return read(value, refuse);
  } catch (error) {
    // A getter or a Proxy that throws: the state does not hold.
    if ((error as { code?: unknown } | null)?.code === "options/invalid") throw error;
    return refuse("restore: the state could not be read");
  }
}

function read(value: unknown, refuse: (message: string) => never): SessionState {
  const bad = (what: string): never => refuse(`restore: ${what}`);
  if (value === null || typeof value !== "object") bad("must be a session's toJSON()");
  const v = value as Record<string, unknown>;
  if (v.version !== 1) bad(`version must be 1 (got ${JSON.stringify(v.version) ?? "undefined"})`);
  if (!Array.isArray(v.results)) bad("results must be an array");
  if (!count(v.reshapes)) bad("reshapes must be a count");
  if (!Array.isArray(v.views)) bad("views must be an array");
  const seen = new Set<string>();
  // Array.from visits the holes of a sparse array too.
  const results = Array.from(v.results as unknown[], (r, i): ResultState => {
    const at = `results[${i}]`;
    if (r === null || typeof r !== "object") bad(`${at} must be an object`);
    const e = r as Record<string, unknown>;
    const callId = e.callId as string;
    if (!isCallId(callId) || seen.has(callId)) bad(`${at}.callId must be a new call id`);
    seen.add(callId);
    if (e.tool !== undefined && safeName(e.tool, "") === "") bad(`${at}.tool must be a safe name`);
    if (!LEVELS.includes(e.level as Level)) bad(`${at}.level must be one of ${LEVELS.join(", ")}`);
    if (typeof e.text !== "string") bad(`${at}.text must be a string`);
    if (!count(e.tokens) || !count(e.fullTokens) || !count(e.evidence))
      bad(`${at}: tokens, fullTokens and evidence must be counts`);
    if (!STATUSES.has(e.status as string)) bad(`${at}.status must be a result status`);
    if (typeof e.size !== "string" || !SIZE.test(e.size)) bad(`${at}.size must be a size`);
    if (e.handle !== undefined && safeName(e.handle, "") === "")
      bad(`${at}.handle must be a handle`);
    if (e.unlisted !== undefined && (e.unlisted !== true || e.level !== "folded"))
      bad(`${at}.unlisted must be true, on a folded result`);
    return {
      callId,
      ...(e.tool !== undefined ? { tool: e.tool as string } : {}),
      level: e.level as Level,
      text: e.text as string,
      tokens: e.tokens as number,
      fullTokens: e.fullTokens as number,
      status: e.status as string,
      size: e.size as string,
      evidence: e.evidence as number,
      ...(e.handle !== undefined ? { handle: e.handle as string } : {}),
      ...(e.unlisted === true ? { unlisted: true as const } : {}),
    };
  });
  const views = Array.from((v.views as unknown[]).slice(-MAX_VIEW_STATS), (s, i): ViewStat => {
    const t = s as Record<string, unknown> | null;
    if (
      t === null ||
      typeof t !== "object" ||
      !count(t.tokens) ||
      typeof t.prefixChanged !== "boolean"
    )
      bad(`views[${i}] must be { tokens, prefixChanged }`);
    return { tokens: (t as { tokens: number }).tokens, prefixChanged: t?.prefixChanged === true };
  });
  return { version: 1, results, reshapes: v.reshapes as number, views };
}
