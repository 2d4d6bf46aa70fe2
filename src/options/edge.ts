/**
 * The edge preset: the options a Cloudflare Worker should start from. The library's defaults
 * are sized for a machine: a 256 MiB byte cap would cost seconds of CPU per request, and a
 * 32 Mi character store cap is above Workers KV's 25 MiB value limit. The figures in the
 * comments were measured with `npm run bench:edge` (docs/edge.md has the table).
 */
import { SERVICE_LIMITS } from "../store/limits.js";
import type { ShapeOptions } from "./compile.js";

export interface EdgePreset extends ShapeOptions {
  readonly maxBytes: number;
  readonly maxTokens: number;
  readonly storeMaxChars: number;
}

/**
 * Byte cap, budget and store cap for a Worker: a 20 MB log is read, shaped and kept in about a
 * second of CPU (824 ms warm, measured), well inside the paid plan's 30 s default, and what it
 * keeps in memory (the body's text while its parts are written) stays far below an isolate's
 * 128 MB.
 *
 * @example
 * import { createShaper, edgePreset } from "agent-airlock/edge/o200k_base";
 * const shapeFetch = createShaper({ ...edgePreset, tool: "fetch", store });
 */
export const edgePreset: EdgePreset = Object.freeze({
  maxBytes: 24 * 1024 * 1024,
  maxTokens: 4000,
  // A records result's JSON in one KV value, with room for the record envelope around it;
  // a larger one goes to R2 (createCombinedStore) or is not stored.
  storeMaxChars: SERVICE_LIMITS.kvValueBytes - (1 << 20),
});
