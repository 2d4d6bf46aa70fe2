/**
 * The first bytes of each source as they arrived, held only so telemetry can count the tokens
 * the input had before shaping, then dropped. They are raw tool output (secrets included): they
 * are counted, never shown, stored or reported.
 */
import type { SectionName } from "./unit.js";

export interface InputSample {
  /** Bytes held at most, all sources together. */
  readonly limit: number;
  held: number;
  /** Per source: the bytes held, and every byte that passed (held or not). */
  readonly sections: Map<SectionName, { readonly chunks: Uint8Array[]; seen: number }>;
  /** An already-parsed value (there are no bytes to hold: it is measured as JSON). */
  value?: { readonly value: unknown };
}

/**
 * @example
 * const sample = createSample(64 * 1024);
 */
export function createSample(limit: number): InputSample {
  return { limit, held: 0, sections: new Map() };
}

/**
 * Notes a chunk that was read: copied while the sample has room (a source may reuse its
 * buffer), counted always.
 *
 * @example
 * sampleChunk(sample, "stdout", chunk);
 */
export function sampleChunk(sample: InputSample, name: SectionName, chunk: Uint8Array): void {
  let section = sample.sections.get(name);
  if (section === undefined) {
    section = { chunks: [], seen: 0 };
    sample.sections.set(name, section);
  }
  section.seen += chunk.byteLength;
  const room = sample.limit - sample.held;
  if (room <= 0) return;
  const piece = chunk.slice(0, Math.min(room, chunk.byteLength));
  section.chunks.push(piece);
  sample.held += piece.byteLength;
}
