/** Types of bench/secret-corpus.mjs, for the tests that check the corpus and its scoring. */

export interface CorpusItem {
  kind: string;
  carrier: string;
  /** The file name secretlint sees. */
  file: string;
  text: string;
  /** Exact substrings of `text`; empty in a negative item. */
  secrets: string[];
  /** Token-like values that must survive. */
  lookalikes?: string[];
  /** The secrets are the fragments of one token broken across lines. */
  wrapped?: boolean;
}

export function secretCorpus(seed?: number): { positives: CorpusItem[]; negatives: CorpusItem[] };
export const PUBLIC_PREFIXES: string[];
export const ADDED_KINDS: Set<string>;
export function secretLog(options?: { seed?: number; bytes?: number; every?: number }): {
  bytes: Uint8Array;
  planted: { value: string; at: number }[];
};
