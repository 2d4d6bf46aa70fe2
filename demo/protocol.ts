/** Messages between the page and the shaping worker. */
import type {
  SectionName,
  SessionLevel,
  SessionStats,
  Shaped,
  SpotlightMode,
  TokenizerName,
} from "agent-airlock";

/** Where the input comes from; a `File` crosses to the worker as a handle, not as its bytes. */
export type Source =
  | { readonly kind: "sample"; readonly id: string }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "file"; readonly file: File };

/** The playground's controls, as plain values. Empty strings mean "not set". */
export interface Controls {
  readonly maxTokens: number;
  readonly maxBytes: number;
  readonly tokenizer: TokenizerName;
  readonly redact: boolean;
  readonly untrusted: boolean;
  readonly spotlight: SpotlightMode;
  readonly contentType: string;
  readonly format: "auto" | "text" | "json" | "ndjson" | "csv" | "tsv";
  readonly fields: string;
  readonly tool: string;
}

export interface ShapeRequest {
  readonly type: "shape";
  readonly job: number;
  readonly source: Source;
  readonly controls: Controls;
}

/**
 * One source of the input as the worker saw it pass (bytes and lines, for progress): where the
 * evidence is, kept or cut, is the library's own report in `meta.evidence`.
 */
export interface SectionScan {
  readonly name: SectionName;
  bytes: number;
  lines: number;
}

export interface ShapeResult {
  readonly shaped: Pick<Shaped, "text" | "status" | "meta">;
  readonly scans: readonly SectionScan[];
  readonly adapters: {
    readonly "OpenAI Chat": unknown;
    readonly "OpenAI Responses": unknown;
    readonly Anthropic: unknown;
    readonly MCP: unknown;
  };
  /** The input's size, and its tokens (`meta.telemetry.before`: exact up to 64 KiB, else estimated). */
  readonly before: { readonly bytes: number; readonly tokens: number; readonly exact: boolean };
  readonly after: { readonly bytes: number; readonly tokens: number };
  /** The most tokens of tool-controlled text the model can read under these options (`ceilingOf`). */
  readonly ceiling: { readonly tokens: number; readonly frame: number; readonly bounded: boolean };
  readonly ms: number;
}

/** A `read_result` call on a result the worker stored (its memory store lives as long as it does). */
export interface ReadRequest {
  readonly type: "read";
  readonly job: number;
  readonly args: unknown;
  readonly controls: Controls;
}

/** What the model would get back from that call. */
export interface ReadPage {
  readonly page: Pick<Shaped, "text" | "status" | "meta">;
  readonly ms: number;
}

/** Play the generated 40-turn run (run.ts) through a session. */
export interface RunRequest {
  readonly type: "run";
  readonly job: number;
}

/** One result of the run as it was shaped, before any grading. */
export interface RunResult {
  readonly callId: string;
  readonly tool: string;
  readonly status: Shaped["status"];
  /** Its tokens as shaped, whole (what "delete old results" keeps until it clears it). */
  readonly tokens: number;
}

/** One result as a turn's model call carried it. `text` indexes `RunData.texts`. */
export interface RunEntry {
  readonly callId: string;
  readonly level: SessionLevel;
  readonly tokens: number;
  readonly text: number;
}

/** The run, turn by turn: what the session gave each model call, and its `stats()`. */
export interface RunData {
  readonly ceiling: number;
  readonly maxTokens: number;
  readonly keep: number;
  readonly results: readonly RunResult[];
  /** Per turn, the session's `view()` at that turn's model call. */
  readonly views: readonly (readonly RunEntry[])[];
  /** Each distinct text once (a result's text is the same from turn to turn until it moves). */
  readonly texts: readonly string[];
  /** `session.stats()` at the end of the run. */
  readonly stats: SessionStats;
  /** Tokens of the placeholder a cleared result leaves. */
  readonly placeholderTokens: number;
  readonly ms: number;
}

export type WorkerReply =
  | {
      readonly type: "progress";
      readonly job: number;
      readonly bytes: number;
      readonly total?: number;
    }
  | { readonly type: "done"; readonly job: number; readonly result: ShapeResult }
  | { readonly type: "read-done"; readonly job: number; readonly read: ReadPage }
  | { readonly type: "run-progress"; readonly job: number; readonly turn: number }
  | { readonly type: "run-done"; readonly job: number; readonly run: RunData }
  | { readonly type: "failed"; readonly job: number; readonly message: string };
