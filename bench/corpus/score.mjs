/**
 * How one corpus item fared: the scoring rules of bench/secrets.mjs, apart so they can be tested
 * against deliberately wrong redactors.
 *
 * @example
 * const score = airlockScore(item, redact(item.text).text);
 * score.secrets; // [{ outcome: "caught" }, { outcome: "partial", survivor: "…" }]
 *
 * - A labelled span is caught when neither it nor any 12-character piece of it survives (pieces
 *   inside a public format opening, or shown elsewhere by the carrier, do not count); "partial"
 *   when only such a piece survives, "missed" when the whole span does.
 * - A wrapped token (`item.wrapped`) is one secret made of all its fragments; its outcome is its
 *   worst fragment's.
 * - A look-alike is intact when every occurrence survives; for secretlint, which reports ranges
 *   and rewrites nothing, when no reported range touches it, and a secret is caught when a range
 *   overlaps each of its occurrences.
 */
import { PUBLIC_PREFIXES } from "../secret-corpus.mjs";

export const FRAGMENT = 12;

export const occurrences = (text, value) => {
  const at = [];
  for (let i = text.indexOf(value); i !== -1; i = text.indexOf(value, i + 1)) at.push(i);
  return at;
};

/**
 * The 12-character pieces of a secret that would give it away: not inside a public prefix, and
 * not shown by the carrier anyway (a timestamp between the lines of a key in a CI log).
 */
function telltales(secret, text, secrets) {
  let rest = text;
  for (const s of secrets) rest = rest.split(s).join("\u0000");
  const pieces = new Set();
  for (let i = 0; i + FRAGMENT <= secret.length; i++) {
    const piece = secret.slice(i, i + FRAGMENT);
    if (PUBLIC_PREFIXES.some((p) => p.includes(piece)) || rest.includes(piece)) continue;
    pieces.add(piece);
  }
  return pieces;
}

function spanOutcome(secret, item, output) {
  if (output.includes(secret)) return { outcome: "missed", survivor: secret };
  for (const piece of telltales(secret, item.text, item.secrets)) {
    if (output.includes(piece)) return { outcome: "partial", survivor: piece };
  }
  return { outcome: "caught" };
}

/** The secrets an item counts, each as its spans: one span, or a wrapped token's fragments. */
export const scoredSecrets = (item) =>
  item.wrapped ? [item.secrets] : item.secrets.map((s) => [s]);

const RANK = { caught: 0, partial: 1, missed: 2 };

/** airlock's outcome on each secret and look-alike of `item`, given the redacted `output`. */
export function airlockScore(item, output) {
  const secrets = scoredSecrets(item).map((spans) => {
    let worst = { outcome: "caught" };
    for (const span of spans) {
      const o = spanOutcome(span, item, output);
      if (RANK[o.outcome] > RANK[worst.outcome]) worst = o;
    }
    return worst;
  });
  const lookalikes = (item.lookalikes ?? []).map(
    (l) => output.split(l).length >= item.text.split(l).length,
  );
  return { secrets, lookalikes, unchanged: output === item.text };
}

const overlaps = (messages, at, length) =>
  messages.some(({ range: [start, end] }) => start < at + length && end > at);

/** secretlint's outcome on each secret and look-alike of `item`, given its messages. */
export function secretlintScore(item, messages) {
  const covered = (s) => occurrences(item.text, s).every((at) => overlaps(messages, at, s.length));
  const secrets = scoredSecrets(item).map((spans) => spans.every(covered));
  const lookalikes = (item.lookalikes ?? []).map((l) =>
    occurrences(item.text, l).every((at) => !overlaps(messages, at, l.length)),
  );
  return { secrets, lookalikes, unchanged: messages.length === 0 };
}
