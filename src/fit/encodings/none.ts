/**
 * The encodings of `agent-airlock/edge`: none. The host brings its own counter
 * (`tokenizer: { name, count }`), and the Worker bundle holds no rank table at all.
 */
import { AirlockError } from "../../errors/airlock-error.js";
import type { Encoding, EncodingSet } from "./encoding.js";

export const ENCODINGS: EncodingSet = {
  names: [],
  missing:
    "this build has no built-in encoding: pass tokenizer: { name, count(text) }, or import agent-airlock/edge/o200k_base or agent-airlock/edge/cl100k_base",
  load(name): Promise<Encoding> {
    return Promise.reject(
      new AirlockError("fit/tokenizer-failed", `fit: tokenizer "${name}" is not in this build`),
    );
  },
};
