/** The encodings of `agent-airlock/edge/cl100k_base`: cl100k_base only (see `o200k_base.ts`). */
import type { Encoding, EncodingSet } from "./encoding.js";

export const ENCODINGS: EncodingSet = {
  names: ["cl100k_base"],
  missing:
    "this build inlines cl100k_base only: import agent-airlock/edge/o200k_base for o200k_base",
  load(): Promise<Encoding> {
    return import("gpt-tokenizer/encoding/cl100k_base");
  },
};
