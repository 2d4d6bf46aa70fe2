/**
 * The encodings of `agent-airlock/edge/o200k_base`: o200k_base only, so a Worker bundle inlines
 * one rank table. The import stays dynamic: the Worker's bundler inlines it, but the table is
 * still evaluated on first use, not at startup.
 */
import type { Encoding, EncodingSet } from "./encoding.js";

export const ENCODINGS: EncodingSet = {
  names: ["o200k_base"],
  missing:
    "this build inlines o200k_base only: import agent-airlock/edge/cl100k_base for cl100k_base",
  load(): Promise<Encoding> {
    return import("gpt-tokenizer/encoding/o200k_base");
  },
};
