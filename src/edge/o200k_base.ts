/**
 * `agent-airlock/edge/o200k_base`: the whole library for a Cloudflare Worker with o200k_base
 * inlined (the default tokenizer; cl100k_base is refused by the options). See `./index.ts`.
 *
 * @example
 * import { shape, edgePreset } from "agent-airlock/edge/o200k_base";
 * const shaped = await shape(request.body, { ...edgePreset, tool: "fetch" });
 */
export * from "./index.js";
