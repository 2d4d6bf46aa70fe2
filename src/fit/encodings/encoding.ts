/** What a build knows of the built-in encodings (see `all.ts`). */

/** Built-in encodings, loaded on first use so their rank tables never sit in the core chunk. */
export type TokenizerName = "o200k_base" | "cl100k_base";

/** The part of a gpt-tokenizer encoding module the fit stage uses. */
export interface Encoding {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
}

export interface EncodingSet {
  /** The encodings this build can load. */
  readonly names: readonly TokenizerName[];
  /** Says where the others are, for the options error when one is named that is not here. */
  readonly missing: string;
  /** Loads one of `names` (the caller checked it is one). */
  load(name: TokenizerName): Promise<Encoding>;
}
