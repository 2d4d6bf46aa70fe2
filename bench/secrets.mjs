/**
 * Recall and false positives of redact() on a labelled corpus of fake secrets and look-alikes
 * (bench/secret-corpus.mjs), next to secretlint's recommended preset on the same corpus in the
 * same run; then throughput of redact() over a ~100 MiB log next to a plain TextDecoder pass,
 * and secretlint over a slice of the same log.
 *
 *   recall           a secret is caught when neither it nor any 12-character piece of it survives
 *                    the output (pieces that are public format prefixes, or that the carrier shows
 *                    elsewhere, do not count). secretlint reports ranges and rewrites nothing: a
 *                    secret is caught when a reported range overlaps each of its occurrences.
 *   false positive   a look-alike item whose text redact() changed at all, or on which secretlint
 *                    reported anything.
 *
 *   npm run bench:secrets
 *   node --expose-gc bench/secrets.mjs --seed=7 --log=100MB --peer-log=5MB   (--log=0: no throughput)
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { createRedactor } from "../dist/index.js";
import { PUBLIC_PREFIXES, secretCorpus, secretLog } from "./secret-corpus.mjs";

const FRAGMENT = 12;

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : arg.slice(name.length + 3);
}

function bytesOption(name, fallback) {
  const s = option(name, fallback);
  const m = /^(\d+(?:\.\d+)?)(KB|MB|GB)?$/i.exec(s);
  if (!m) throw new Error(`bench: --${name}=${s} is not a size like 100MB`);
  const unit = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[(m[2] ?? "").toUpperCase()] ?? 1;
  return Math.floor(Number(m[1]) * unit);
}

const seed = Number(option("seed", "1"));
const logBytes = bytesOption("log", "100MB");
const peerBytes = bytesOption("peer-log", "5MB");

const version = (pkg) =>
  JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), "utf8"))
    .version;

const secretlintConfig = {
  rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }],
};

function lint(text, file = "output.log") {
  return lintSource({
    source: { content: text, filePath: `/corpus/${file}`, ext: extname(file), contentType: "text" },
    options: { config: secretlintConfig },
  });
}

// ---------------------------------------------------------------------------------------------
// Scoring

const occurrences = (text, value) => {
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

/**
 * How a secret fared in airlock's output: "caught", "partial" (a piece survives) or "missed",
 * and what survives (to show the output line it survives in).
 */
function airlockOutcome(secret, item, output) {
  if (output.includes(secret)) return { outcome: "missed", survivor: secret };
  for (const piece of telltales(secret, item.text, item.secrets)) {
    if (output.includes(piece)) return { outcome: "partial", survivor: piece };
  }
  return { outcome: "caught" };
}

function secretlintCaught(secret, text, messages) {
  return occurrences(text, secret).every((at) =>
    messages.some(({ range: [start, end] }) => start < at + secret.length && end > at),
  );
}

/** The line of `text` that holds `value`, cut to about `width` characters around it. */
function lineOf(text, value, width = 150) {
  const at = text.indexOf(value);
  const start = text.lastIndexOf("\n", at) + 1;
  const stop = text.indexOf("\n", at);
  const line = text.slice(start, stop === -1 ? text.length : stop);
  if (line.length <= width) return line;
  const from = Math.max(0, Math.min(at - start - 50, line.length - width));
  return `${from > 0 ? "…" : ""}${line.slice(from, from + width)}…`;
}

const percent = (n, d) => (d === 0 ? "-" : `${((100 * n) / d).toFixed(1)}%`);
const cell = (n, d) =>
  `${String(n).padStart(4)}/${String(d).padEnd(4)} ${percent(n, d).padStart(6)}`;

// ---------------------------------------------------------------------------------------------
// Recall and false positives

const { positives, negatives } = secretCorpus(seed);
const redactText = createRedactor();
const slVersion = version("@secretlint/core");
const presetVersion = version("@secretlint/secretlint-rule-preset-recommend");

console.log(
  `node ${process.version}; airlock from dist/; secretlint @secretlint/core ${slVersion} with` +
    ` @secretlint/secretlint-rule-preset-recommend ${presetVersion} (default options)`,
);
const kinds = [...new Set(positives.map((p) => p.kind))];
const total = positives.reduce((n, p) => n + p.secrets.length, 0);
console.log(
  `corpus seed ${seed}: ${positives.length} items holding ${total} fake secrets of ${kinds.length}` +
    ` kinds; ${negatives.length} look-alike items of ${new Set(negatives.map((n) => n.kind)).size} kinds`,
);

const byKind = new Map(
  kinds.map((k) => [k, { secrets: 0, airlock: 0, partial: 0, secretlint: 0, misses: new Map() }]),
);
for (const item of positives) {
  const row = byKind.get(item.kind);
  const output = redactText(item.text).text;
  const { messages } = await lint(item.text, item.file);
  for (const secret of item.secrets) {
    row.secrets++;
    const { outcome, survivor } = airlockOutcome(secret, item, output);
    if (outcome === "caught") row.airlock++;
    else {
      const miss = row.misses.get(item.carrier) ?? { n: 0, partial: 0, example: "" };
      miss.n++;
      if (outcome === "partial") {
        row.partial++;
        miss.partial++;
      }
      miss.example ||= lineOf(output, survivor);
      row.misses.set(item.carrier, miss);
    }
    if (secretlintCaught(secret, item.text, messages)) row.secretlint++;
  }
}

const W = 27;
console.log(
  "\nRecall: secrets caught / secrets (partial = redacted, but a 12-character piece survives)",
);
console.log(`${"kind".padEnd(W)} ${"airlock".padEnd(22)}${"partial".padStart(8)}   secretlint`);
let sumAirlock = 0;
let sumPartial = 0;
let sumSecretlint = 0;
for (const [kind, row] of byKind) {
  sumAirlock += row.airlock;
  sumPartial += row.partial;
  sumSecretlint += row.secretlint;
  console.log(
    `${kind.padEnd(W)} ${cell(row.airlock, row.secrets)}   ${String(row.partial || "").padStart(7)}   ${cell(row.secretlint, row.secrets)}`,
  );
}
console.log(
  `${"overall".padEnd(W)} ${cell(sumAirlock, total)}   ${String(sumPartial).padStart(7)}   ${cell(sumSecretlint, total)}`,
);

const negKinds = new Map();
const airlockFalse = [];
const secretlintFalse = [];
for (const item of negatives) {
  const row = negKinds.get(item.kind) ?? { items: 0, airlock: 0, secretlint: 0 };
  row.items++;
  const redacted = redactText(item.text);
  if (redacted.text !== item.text) {
    row.airlock++;
    airlockFalse.push({ item, found: redacted.findings });
  }
  const { messages } = await lint(item.text, item.file);
  if (messages.length > 0) {
    row.secretlint++;
    secretlintFalse.push({ item, found: messages });
  }
  negKinds.set(item.kind, row);
}

console.log("\nFalse positives: look-alike items changed (airlock) or flagged (secretlint)");
console.log(`${"kind".padEnd(W)} ${"airlock".padEnd(22)}             secretlint`);
for (const [kind, row] of negKinds) {
  console.log(
    `${kind.padEnd(W)} ${cell(row.airlock, row.items)}             ${cell(row.secretlint, row.items)}`,
  );
}
console.log(
  `${"overall".padEnd(W)} ${cell(airlockFalse.length, negatives.length)}             ${cell(secretlintFalse.length, negatives.length)}`,
);

console.log("\nairlock misses, by kind and carrier (how many; one output line where it survives):");
for (const [kind, row] of byKind) {
  for (const [carrier, miss] of row.misses) {
    const partial = miss.partial > 0 ? `, ${miss.partial} partial` : "";
    console.log(`  ${kind} / ${carrier} (${miss.n}${partial})\n      ${miss.example}`);
  }
}

const excerpt = (text, start, end) =>
  JSON.stringify(text.slice(start, Math.min(end, start + 70)) + (end - start > 70 ? "…" : ""));
console.log("\nairlock false positives (rule: the text it replaced):");
for (const { item, found } of airlockFalse) {
  const what = found.map((f) => `${f.rule}: ${excerpt(item.text, f.start, f.end)}`).join("; ");
  console.log(`  ${item.kind} / ${item.carrier}: ${what}`);
}
console.log("\nsecretlint false positives (rule: the range it reported):");
for (const { item, found } of secretlintFalse) {
  const what = found
    .map(
      (m) =>
        `${m.ruleId.replace("@secretlint/secretlint-rule-", "")}: ${excerpt(item.text, ...m.range)}`,
    )
    .join("; ");
  console.log(`  ${item.kind} / ${item.carrier}: ${what}`);
}

// ---------------------------------------------------------------------------------------------
// Throughput

async function best(runs, fn) {
  let seconds = Number.POSITIVE_INFINITY;
  let result;
  for (let i = 0; i < runs; i++) {
    result = undefined;
    globalThis.gc?.(); // with --expose-gc: the last run's 100 MiB strings are not swept mid-timing
    const t0 = performance.now();
    result = await fn();
    seconds = Math.min(seconds, (performance.now() - t0) / 1000);
  }
  return { seconds, result };
}

/** Planted secrets whose whole span lies inside a finding, and findings that cover none. */
function tally(planted, findings) {
  const sorted = [...findings].sort((a, b) => a.start - b.start);
  let caught = 0;
  const used = new Set();
  let j = 0;
  for (const p of planted) {
    while (j < sorted.length && sorted[j].end <= p.at) j++;
    const f = sorted[j];
    if (f !== undefined && f.start <= p.at && f.end >= p.at + p.value.length) {
      caught++;
      used.add(f);
    }
  }
  const other = new Map();
  for (const f of sorted) if (!used.has(f)) other.set(f.rule, (other.get(f.rule) ?? 0) + 1);
  return { caught, other };
}

const otherText = (other) =>
  other.size === 0 ? "none" : [...other].map(([rule, n]) => `${rule} ×${n}`).join(", ");

if (logBytes > 0) {
  const mib = (n) => n / 1024 ** 2;
  const log = secretLog({ seed, bytes: logBytes });
  const size = mib(log.bytes.byteLength);
  redactText(new TextDecoder().decode(log.bytes.subarray(0, 1 << 20))); // warm up the JIT
  const decode = await best(3, () => new TextDecoder().decode(log.bytes));
  const text = decode.result;
  const ours = await best(3, () => redactText(text));
  const { caught, other } = tally(log.planted, ours.result.findings);
  console.log(
    `\nThroughput over ${size.toFixed(1)} MiB of log (~120 B lines, ${log.planted.length} planted secrets; best of 3)`,
  );
  console.log(`  decode       ${(size / decode.seconds).toFixed(0).padStart(7)} MiB/s`);
  console.log(
    `  redact       ${(size / ours.seconds).toFixed(1).padStart(7)} MiB/s   ${percent(decode.seconds, ours.seconds)} of decode` +
      ` (decode is ${(ours.seconds / decode.seconds).toFixed(1)}x faster)`,
  );
  console.log(
    `               planted caught ${caught}/${log.planted.length}; other findings: ${otherText(other)}`,
  );

  if (peerBytes > 0) {
    const cut = text.lastIndexOf("\n", Math.min(peerBytes, text.length) - 1) + 1;
    const slice = text.slice(0, cut);
    const planted = log.planted.filter((p) => p.at + p.value.length <= cut);
    const peer = await best(3, () => lint(slice));
    const sliceOurs = await best(3, () => redactText(slice));
    const { messages } = peer.result;
    const findings = messages.map((m) => ({
      rule: m.ruleId.replace("@secretlint/secretlint-rule-", ""),
      start: m.range[0],
      end: m.range[1],
    }));
    const peerTally = tally(planted, findings);
    const rate = mib(slice.length) / peer.seconds;
    console.log(
      `  secretlint   ${rate.toFixed(1).padStart(7)} MiB/s   on the first ${mib(slice.length).toFixed(1)} MiB (best of 3;` +
        ` redact on the same slice: ${(mib(slice.length) / sliceOurs.seconds).toFixed(1)} MiB/s)`,
    );
    console.log(
      `               planted caught ${peerTally.caught}/${planted.length}; other findings: ${otherText(peerTally.other)}`,
    );
  }
}
