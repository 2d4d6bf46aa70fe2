/**
 * What shaping did to a `CallToolResult`, under one `_meta` key. MCP key names: an optional
 * prefix of dot-separated labels (reverse DNS, each starting with a letter and ending with a
 * letter or digit) and a slash, then a name that starts and ends with a letter or digit; a
 * prefix whose second label is `modelcontextprotocol` or `mcp` is reserved. Numbers, positions,
 * rule ids, media types and handles only: no tool text.
 */
import { noteMarker } from "../pipeline/markers.js";
import type { Shaped, ShapedStatus, TelemetryCut } from "../pipeline/shaped.js";
import type { Why } from "./parts.js";
import type { StructuredCut } from "./structured.js";

/** The `_meta` key of the shaping facts. */
export const MCP_META_KEY = "dev.airlock/shaped";
/** The version of the facts under `MCP_META_KEY`: a reader reads the versions it knows. */
export const MCP_META_VERSION = 1;

/** Parts listed in `_meta` at most (a result may hold thousands); `parts` counts them all. */
export const MAX_PARTS_LISTED = 64;
const MAX_CUTS = 16;

/** One part of the result, as shaping left it. */
export interface PartFacts {
  /** Its position in the `content` the tool sent. */
  readonly index: number;
  readonly type: string;
  /**
   * `shaped`: through the pipeline, within its share; `whole`: an image or clip kept as it came;
   * `named`: a line in its place (a placeholder, a link's line); `user`: for the user alone, left
   * as it came, outside the budget; `left out`: no room was left for it.
   */
  readonly shown: "shaped" | "whole" | "named" | "user" | "left out";
  /**
   * `structuredContent`: not a part the tool sent, but airlock's records view of its
   * `structuredContent` (error records, aggregates), added after the tool's own parts.
   */
  readonly from?: "structuredContent";
  readonly status?: ShapedStatus;
  /** Tokens of its text in the result. */
  readonly tokens?: number;
  /** Tokens it took shaped alone, and the share of `maxTokens` it was given. */
  readonly need?: number;
  readonly share?: number;
  readonly before?: {
    readonly tokens: number;
    readonly bytes: number;
    readonly estimated: boolean;
  };
  readonly truncated?: boolean;
  readonly cuts?: readonly TelemetryCut[];
  readonly redactions?: number;
  readonly handle?: string;
  readonly cursor?: string;
  readonly mime?: string;
  readonly bytes?: number;
  readonly sha256?: string;
  readonly why?: Why;
  /** The stable code of the part's error, when it has one. */
  readonly error?: string;
}

export interface StructuredFacts {
  readonly maxTokens: number;
  readonly tokens: number;
  readonly before: { readonly tokens: number; readonly chars: number; readonly estimated: boolean };
  readonly cuts: readonly StructuredCut[];
  readonly arraysCut: number;
  readonly valid?: boolean;
  /** Why it was left out, and what the schema said. */
  readonly omitted?: string;
  readonly invalid?: string;
  /** The output schema could not be used (a server's schema the validator refuses). */
  readonly schemaError?: string;
  /** Where the whole value is stored, for `read_result`. */
  readonly handle?: string;
}

/**
 * What a shaping server's facts said, as a client read them: numbers and names only, checked,
 * for the audit. A client never trusts them to skip its own redaction or fence.
 */
export interface ServerFacts {
  readonly status: ShapedStatus;
  readonly truncated: boolean;
  readonly maxTokens?: number;
  readonly tokens?: { readonly before: number; readonly after: number };
  readonly handle?: string;
}

/** The facts under `MCP_META_KEY`. */
export interface McpShapedFacts {
  /** `MCP_META_VERSION`. */
  readonly v: number;
  readonly status: ShapedStatus;
  readonly maxTokens: number;
  /** Tokens of the model-visible text of all parts, before (the parts as they came) and after. */
  readonly tokens: { readonly before: number; readonly after: number; readonly estimated: boolean };
  readonly truncated: boolean;
  /** Parts in all, and the first `MAX_PARTS_LISTED` of them. */
  readonly parts: number;
  readonly listed: readonly PartFacts[];
  readonly structured?: StructuredFacts;
  /** Secrets replaced in all parts; `scope` is "shown" when any part counted only what it showed. */
  readonly redactions: {
    readonly count: number;
    readonly rules: Readonly<Record<string, number>>;
    readonly scope: "shown" | "read";
  };
  /** The first handle any part (or the structured content) was stored under. */
  readonly handle?: string;
  /** What a shaping server's own facts said (a wrapped server behind a wrapped client). */
  readonly server?: ServerFacts;
}

const STATUSES: ReadonlySet<string> = new Set(["ok", "partial", "empty", "error"]);
const count = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 1e12 ? v : undefined;

/**
 * A server's facts from a result's `_meta`, when they are airlock's of a version this reads;
 * anything else there (a forgery, another version) is ignored.
 *
 * @example
 * serverFacts(result._meta); // { status: "partial", truncated: true, tokens: { before: 1210473, after: 1488 } }
 */
export function serverFacts(
  meta: { readonly [key: string]: unknown } | undefined,
): ServerFacts | undefined {
  try {
    return readServerFacts(meta);
  } catch {
    // A getter in a forged `_meta`: not airlock's facts.
    return undefined;
  }
}

function readServerFacts(
  meta: { readonly [key: string]: unknown } | undefined,
): ServerFacts | undefined {
  const f = meta?.[MCP_META_KEY] as { readonly [key: string]: unknown } | undefined;
  if (typeof f !== "object" || f === null || f.v !== MCP_META_VERSION) return undefined;
  if (typeof f.status !== "string" || !STATUSES.has(f.status) || typeof f.truncated !== "boolean")
    return undefined;
  const t = f.tokens as { readonly before?: unknown; readonly after?: unknown } | undefined;
  const before = count(t?.before);
  const after = count(t?.after);
  const max = count(f.maxTokens);
  const handle =
    typeof f.handle === "string" && /^res_[0-9a-f]{8,64}$/.test(f.handle) ? f.handle : undefined;
  return {
    status: f.status as ShapedStatus,
    truncated: f.truncated,
    ...(max !== undefined ? { maxTokens: max } : {}),
    ...(before !== undefined && after !== undefined ? { tokens: { before, after } } : {}),
    ...(handle ? { handle } : {}),
  };
}

/** A part's facts, its cuts bounded. */
export function boundedFacts(facts: PartFacts): PartFacts {
  return facts.cuts && facts.cuts.length > MAX_CUTS
    ? { ...facts, cuts: facts.cuts.slice(0, MAX_CUTS) }
    : facts;
}

/**
 * The note the text gets when `structuredContent` was cut or left out: what, why, and where the
 * whole value is. The paths are the tool's key names, cleaned and bounded already.
 *
 * @example
 * structuredNote({ maxTokens: 2000, cuts: [{ path: "rows", kept: 85, of: 10000 }], … });
 * // "[airlock: structuredContent shortened to fit 2000 tokens: rows 85 of 10000 items; still valid against the output schema]"
 */
export function structuredNote(f: StructuredFacts): { note: string } | undefined {
  const where = f.handle ? `; the whole value: read_result with handle ${f.handle}` : "";
  if (f.omitted !== undefined) {
    const detail = f.invalid ? ` (${f.invalid})` : "";
    return { note: noteMarker(`structuredContent left out: ${f.omitted}${detail}${where}`) };
  }
  if (f.cuts.length === 0) return undefined;
  const shown = f.cuts.slice(0, 3).map((c) => `${c.path} ${c.kept} of ${c.of} items`);
  const more = f.arraysCut > shown.length ? ` and ${f.arraysCut - shown.length} more arrays` : "";
  const valid = f.valid === true ? "; still valid against the output schema" : "";
  return {
    note: noteMarker(
      `structuredContent shortened to fit ${f.maxTokens} tokens: ${shown.join(", ")}${more}${valid}${where}`,
    ),
  };
}

export interface SummaryInput {
  readonly facts: readonly PartFacts[];
  readonly shaped: readonly Shaped[];
  readonly noteTokens: number;
  readonly maxTokens: number;
  readonly isError: boolean;
  readonly structured: StructuredFacts | undefined;
  /** A shaping server's facts, read from the result's `_meta`. */
  readonly server?: ServerFacts;
  /** Parts past what is read at all (`MAX_PARTS_READ`): counted in `parts`, never listed. */
  readonly unread?: number;
}

/**
 * The facts of the whole result.
 *
 * @example
 * const facts = summaryOf({ facts, shaped, noteTokens, maxTokens: 4000, isError: false, structured });
 */
export function summaryOf(s: SummaryInput): McpShapedFacts {
  const rules: Record<string, number> = {};
  let redactions = 0;
  let scope: "shown" | "read" = "read";
  for (const shaped of s.shaped) {
    const r = shaped.meta.redactions;
    if (!r) continue;
    redactions += r.count;
    if (r.scope === "shown") scope = "shown";
    for (const [rule, n] of Object.entries(r.rules)) rules[rule] = (rules[rule] ?? 0) + n;
  }
  let before = 0;
  let after = s.noteTokens;
  let estimated = false;
  let truncated =
    s.structured !== undefined &&
    (s.structured.cuts.length > 0 || s.structured.omitted !== undefined);
  let visible = s.structured?.omitted === undefined && s.structured !== undefined;
  for (const f of s.facts) {
    if (f.shown === "user") continue;
    visible ||= f.shown !== "left out";
    after += f.tokens ?? 0;
    before += f.before?.tokens ?? f.tokens ?? 0;
    estimated ||= f.before?.estimated === true;
    truncated ||=
      f.truncated === true ||
      f.shown === "left out" ||
      (f.shown === "named" && f.why !== undefined);
  }
  // The server's cut is this result's too: what the model reads was cut there.
  truncated ||= s.server?.truncated === true || (s.unread ?? 0) > 0;
  const status: ShapedStatus = s.isError
    ? "error"
    : !visible
      ? "empty"
      : truncated
        ? "partial"
        : "ok";
  const handle = s.facts.find((f) => f.handle)?.handle ?? s.structured?.handle;
  return {
    v: MCP_META_VERSION,
    status,
    maxTokens: s.maxTokens,
    tokens: { before, after, estimated },
    truncated,
    parts: s.facts.length + (s.unread ?? 0),
    listed: s.facts.slice(0, MAX_PARTS_LISTED).map(boundedFacts),
    ...(s.structured ? { structured: s.structured } : {}),
    redactions: { count: redactions, rules, scope },
    ...(handle ? { handle } : {}),
    ...(s.server ? { server: s.server } : {}),
  };
}
