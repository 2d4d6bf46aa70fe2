/**
 * The built-in encodings of this build, and their loaders. This one knows both, each a dynamic
 * import with a literal specifier, so a browser bundler splits each into its own chunk and
 * loads only the one in use. A Worker cannot load chunks: its bundler inlines every dynamic
 * import it reaches, both rank tables included. The edge entries (`agent-airlock/edge/…`) are
 * the same library built with this module replaced by one that knows a single encoding or none
 * (see `vite.edge.config.ts`); every variant has this module's exports.
 */
import type { Encoding, EncodingSet } from "./encoding.js";

export const ENCODINGS: EncodingSet = {
  names: ["o200k_base", "cl100k_base"],
  missing: "",
  load(name): Promise<Encoding> {
    return name === "o200k_base"
      ? import("gpt-tokenizer/encoding/o200k_base")
      : import("gpt-tokenizer/encoding/cl100k_base");
  },
};
