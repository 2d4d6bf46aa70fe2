/**
 * The secrets benchmark's corpus and scoring (bench/secret-corpus.mjs, bench/corpus/): the corpus
 * is deterministic, the first corpus's items did not move when kinds were added, every label is
 * where it says, and the scoring tells a redactor that catches a secret from one that leaves a
 * fragment or a piece of it (negative controls: deliberately wrong redactors).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { airlockScore, FRAGMENT, secretlintScore } from "../../bench/corpus/score.mjs";
import { ADDED_KINDS, type CorpusItem, secretCorpus } from "../../bench/secret-corpus.mjs";

const corpus = secretCorpus(1);
const all = [...corpus.positives, ...corpus.negatives];

/** Replaces every labelled span (longest first), optionally sparing some: an oracle redactor. */
function oracle(item: CorpusItem, spare: (s: string, i: number) => boolean = () => false): string {
  const spans = item.secrets
    .map((s, i) => ({ s, i }))
    .filter(({ s, i }) => !spare(s, i))
    .sort((a, b) => b.s.length - a.s.length);
  let out = item.text;
  for (const { s } of spans) out = out.split(s).join("[X]");
  return out;
}

describe("secret corpus", () => {
  it("is the same for the same seed and differs for another", () => {
    expect(JSON.stringify(secretCorpus(5))).toBe(JSON.stringify(secretCorpus(5)));
    expect(JSON.stringify(secretCorpus(6))).not.toBe(JSON.stringify(secretCorpus(5)));
  });

  it("keeps the first corpus's items byte for byte (hash taken before any kind was added)", () => {
    const pick = ({ kind, carrier, file, text, secrets }: CorpusItem) => ({
      kind,
      carrier,
      file,
      text,
      secrets,
    });
    const first = [
      corpus.positives.filter((p) => !ADDED_KINDS.has(p.kind)).map(pick),
      corpus.negatives.filter((n) => !ADDED_KINDS.has(n.kind)).map(pick),
    ];
    const hash = createHash("sha256").update(JSON.stringify(first)).digest("hex");
    expect(hash).toBe("5dc1a3dff5a2aeceebf628feeaeac8cfc8edb308a3572c64f2c7d85d976b9d17");
  });

  it("labels only what the text holds, for several seeds", () => {
    for (const seed of [1, 2, 3, 4]) {
      const { positives, negatives } = secretCorpus(seed);
      for (const item of positives) {
        expect(item.secrets.length, `${item.kind}/${item.carrier}`).toBeGreaterThan(0);
        for (const s of item.secrets) expect(item.text).toContain(s);
      }
      for (const item of negatives) {
        expect(item.secrets).toEqual([]);
        expect(Array.isArray(item.lookalikes)).toBe(true);
      }
      for (const item of [...positives, ...negatives]) {
        for (const l of item.lookalikes ?? []) {
          expect(item.text).toContain(l);
          expect(item.secrets.some((s) => s.includes(l) || l.includes(s))).toBe(false);
        }
      }
    }
  });

  it("labels a wrapped token as its fragments, in order, each at least 12 characters", () => {
    const wrapped = corpus.positives.filter((p) => p.wrapped);
    expect(wrapped.length).toBeGreaterThan(30);
    for (const item of wrapped) {
      expect(item.secrets.length, item.carrier).toBeGreaterThan(1);
      let at = 0;
      for (const fragment of item.secrets) {
        expect(fragment.length).toBeGreaterThanOrEqual(FRAGMENT);
        const found = item.text.indexOf(fragment, at);
        expect(found).toBeGreaterThanOrEqual(at);
        at = found + fragment.length;
      }
    }
  });

  it("adds the kinds the issue names, each in several carriers", () => {
    const kinds = new Set(corpus.positives.map((p) => p.kind));
    for (const kind of [
      "wrapped_token",
      "k8s_secret_base64",
      "smtp_auth",
      "basic_auth_header",
      "query_param_secret",
      "assignment_syntax",
      "sonar_token",
      "snyk_token",
      "messagebird_key",
      "maxmind_license_key",
      "clickhouse_api_secret",
      "sourcegraph_token",
      "bedrock_api_key",
      "sidekiq_credentials",
      "generic_api_key",
    ]) {
      expect(kinds.has(kind), kind).toBe(true);
      const carriers = new Set(
        corpus.positives.filter((p) => p.kind === kind).map((p) => p.carrier),
      );
      expect(carriers.size, kind).toBeGreaterThanOrEqual(5);
    }
    const negativeKinds = new Set(corpus.negatives.map((n) => n.kind));
    for (const kind of [
      "pagination_token",
      "http_metadata",
      "public_key_material",
      "placeholder_prefix",
    ]) {
      expect(negativeKinds.has(kind), kind).toBe(true);
    }
  });
});

describe("secret corpus scoring", () => {
  it("scores a redactor that changes nothing as catching nothing and keeping everything", () => {
    for (const item of all) {
      const score = airlockScore(item, item.text);
      expect(score.secrets.every((s) => s.outcome === "missed")).toBe(true);
      expect(score.lookalikes.every(Boolean)).toBe(true);
      expect(score.unchanged).toBe(true);
    }
  });

  it("scores a redactor that replaces exactly the labels as catching all and keeping all", () => {
    for (const item of all) {
      const score = airlockScore(item, oracle(item));
      expect(
        score.secrets.map((s) => s.outcome),
        `${item.kind}/${item.carrier}`,
      ).toEqual(score.secrets.map(() => "caught"));
      expect(score.lookalikes.every(Boolean), `${item.kind}/${item.carrier}`).toBe(true);
    }
  });

  it("negative control: a wrapped token whose last fragment survives is not caught", () => {
    for (const item of corpus.positives.filter((p) => p.wrapped)) {
      const last = item.secrets.length - 1;
      const [score] = airlockScore(
        item,
        oracle(item, (_s, i) => i === last),
      ).secrets;
      expect(score?.outcome, item.carrier).not.toBe("caught");
    }
  });

  it("negative control: a secret whose last 12 characters survive is partial, not caught", () => {
    const long = corpus.positives.filter(
      (p) => !p.wrapped && p.secrets.length === 1 && (p.secrets[0]?.length ?? 0) >= 24,
    );
    let partial = 0;
    for (const item of long) {
      const secret = item.secrets[0] ?? "";
      const output = item.text.split(secret).join(`[X]${secret.slice(-FRAGMENT)}`);
      if (airlockScore(item, output).secrets[0]?.outcome === "partial") partial++;
    }
    expect(long.length).toBeGreaterThan(300);
    // A tail can be public (a fixed suffix such as `_mmk` plus shown text): those few stay caught.
    expect(partial / long.length).toBeGreaterThan(0.95);
  });

  it("negative control: a redactor that scrubs every token-like run destroys the look-alikes", () => {
    let looks = 0;
    let kept = 0;
    for (const item of corpus.negatives) {
      const output = item.text.replace(/[A-Za-z0-9+/=_.~-]{8,}/g, "[X]");
      const score = airlockScore(item, output);
      looks += score.lookalikes.length;
      kept += score.lookalikes.filter(Boolean).length;
      if (score.lookalikes.length > 0) expect(score.unchanged).toBe(false);
    }
    expect(looks).toBeGreaterThan(400);
    expect(kept / looks).toBeLessThan(0.05);
  });

  it("scores secretlint by the ranges it reports", () => {
    const item = corpus.positives.find((p) => p.kind === "wrapped_token");
    expect(item).toBeDefined();
    if (!item) return;
    const ranges = item.secrets.map((s) => {
      const at = item.text.indexOf(s);
      return { range: [at, at + s.length] };
    });
    expect(secretlintScore(item, ranges).secrets).toEqual([true]);
    // Negative control: one fragment left unreported means the token is not caught.
    expect(secretlintScore(item, ranges.slice(1)).secrets).toEqual([false]);
    expect(secretlintScore(item, []).unchanged).toBe(true);
    const negative = corpus.negatives.find((n) => (n.lookalikes?.length ?? 0) > 0);
    if (!negative) throw new Error("no negative with look-alikes");
    const l = negative.lookalikes?.[0] ?? "";
    const at = negative.text.indexOf(l);
    expect(secretlintScore(negative, [{ range: [at, at + 1] }]).lookalikes[0]).toBe(false);
  });
});
