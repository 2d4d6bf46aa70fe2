/**
 * How a host summariser's hop went (`summarize`): `ok` (its answer is in the text), `cached`
 * (an answer to the same text, given before), `failed` (it threw or answered no string),
 * `timeout` (`summaryTimeoutMs` passed), `aborted` (the host's signal), `empty` (nothing left
 * once cleaned), `no-room` (the text with it would have shown less evidence: left out).
 */
export interface HopMeta {
  readonly status: "ok" | "cached" | "failed" | "timeout" | "aborted" | "empty" | "no-room";
  /** Lines of the answer in the text. */
  readonly lines?: number;
}
