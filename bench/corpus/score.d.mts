/** Types of bench/corpus/score.mjs. */
import type { CorpusItem } from "../secret-corpus.mjs";

export type Outcome = { outcome: "caught" } | { outcome: "partial" | "missed"; survivor: string };
export const FRAGMENT: number;
export function occurrences(text: string, value: string): number[];
export function scoredSecrets(item: CorpusItem): string[][];
export function airlockScore(
  item: CorpusItem,
  output: string,
): { secrets: Outcome[]; lookalikes: boolean[]; unchanged: boolean };
export function secretlintScore(
  item: CorpusItem,
  messages: { range: readonly [number, number] | number[] }[],
): { secrets: boolean[]; lookalikes: boolean[]; unchanged: boolean };
