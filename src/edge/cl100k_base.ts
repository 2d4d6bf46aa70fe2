/**
 * `agent-airlock/edge/cl100k_base`: the whole library for a Cloudflare Worker with cl100k_base
 * inlined, and the default tokenizer there (o200k_base is refused by the options). See
 * `./index.ts`.
 *
 * @example
 * import { shape, edgePreset } from "agent-airlock/edge/cl100k_base";
 * const shaped = await shape(request.body, { ...edgePreset, tool: "fetch" });
 */
export * from "./index.js";
