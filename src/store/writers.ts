/**
 * The store's writers, loaded together on first use: only a shaper given a store needs them, so
 * `import { shape }` does not carry them (the store stage imports this module dynamically).
 */
export { createRecordsWriter, type RecordsWriter } from "./records-writer.js";
export { createTextWriter, type TextWriter } from "./text-writer.js";
