/**
 * `agent-airlock/edge`: the whole library for a Cloudflare Worker, in one module with no
 * built-in encoding, for hosts that count tokens themselves (`tokenizer: { name, count }`).
 * `agent-airlock/edge/o200k_base` and `agent-airlock/edge/cl100k_base` inline one encoding each.
 *
 * A Worker cannot load chunks lazily: its bundler inlines every dynamic import it can reach,
 * so the core entry would bring both rank tables (6 MB). These entries are the same source
 * built with the encodings module swapped (`vite.edge.config.ts`); they export what the core
 * does, and the edge preset and stores with it, and what `agent-airlock/mcp` does (whose own
 * build reaches the core's encodings loader, both tables).
 *
 * @example
 * import { createShaper, edgePreset } from "agent-airlock/edge/o200k_base";
 * const shapeFetch = createShaper({ ...edgePreset, tool: "fetch" });
 */
export * from "../index.js";
export * from "../mcp/index.js";
