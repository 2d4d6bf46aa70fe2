/** Where a secret was found: the rule and the span in the input. Never the value. */
export interface Finding {
  readonly rule: string;
  readonly start: number;
  readonly end: number;
}

export interface Span extends Finding {
  readonly generality: number;
  /** Among rules of one generality, the earlier rule (lower rank) names a shared span. */
  readonly rank?: number;
  /** Where the whole match began (its key name, say), when that is before `start`. */
  readonly from?: number;
  /** The rest of a private key that began in an earlier piece of a stream (not a new finding). */
  readonly continued?: boolean;
}

/** What a streamed redaction remembers between pieces of text. */
export interface RedactState {
  /** Characters of an unterminated private key block seen so far; 0 outside one. */
  pem: number;
}
