/**
 * Recall and false positives of redact() on a labelled corpus of fake secrets and look-alikes
 * (bench/secret-corpus.mjs and the kinds under bench/corpus/), next to secretlint's recommended
 * preset on the same corpus in the same run; then throughput of redact() over a ~100 MiB log next
 * to a plain TextDecoder pass, and secretlint over a slice of the same log.
 *
 *   recall              a secret is caught when neither it nor any 12-character piece of it
 *                       survives the output (pieces that are public format prefixes, or that the
 *                       carrier shows elsewhere, do not count). A token hard-wrapped across lines
 *                       is labelled fragment by fragment and counts once: caught when no fragment
 *                       survives. secretlint reports ranges and rewrites nothing: a secret is
 *                       caught when a reported range overlaps each of its occurrences.
 *   look-alikes intact  a labelled look-alike (a page token, an ETag, a public key, a
 *                       placeholder; in negatives and beside secrets in positives) is intact when
 *                       every occurrence survives in the output; for secretlint, when no reported
 *                       range touches it.
 *   negatives unchanged a negative item whose text redact() returned byte-identical (secretlint:
 *                       on which it reported nothing).
 *
 * Figures are printed per kind, with totals for the first corpus's kinds, for the kinds added in
 * bench/corpus/, and overall.
 *
 *   npm run bench:secrets
 *   node --expose-gc bench/secrets.mjs --seed=7 --log=100MB --peer-log=5MB   (--log=0: no throughput)
 */
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { createRedactor } from "../dist/index.js";
import { airlockScore, scoredSecrets, secretlintScore } from "./corpus/score.mjs";
import { ADDED_KINDS, secretCorpus, secretLog } from "./secret-corpus.mjs";

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
  d === 0
    ? " ".repeat(18)
    : `${String(n).padStart(4)}/${String(d).padEnd(4)} ${percent(n, d).padStart(6)}`;

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
const negativeKinds = [...new Set(negatives.map((n) => n.kind))];
const total = positives.reduce((n, p) => n + scoredSecrets(p).length, 0);
const carriers = new Set(positives.map((p) => p.carrier));
console.log(
  `corpus seed ${seed}: ${positives.length} items holding ${total} fake secrets of ${kinds.length}` +
    ` kinds in ${carriers.size} carriers; ${negatives.length} look-alike items of ${negativeKinds.length} kinds` +
    ` (${kinds.filter((k) => ADDED_KINDS.has(k)).length} positive and` +
    ` ${negativeKinds.filter((k) => ADDED_KINDS.has(k)).length} negative kinds added from format descriptions)`,
);

/** Counts for one tool: caught / secrets, intact / look-alikes, unchanged / items. */
const counts = () => ({ n: 0, caught: 0, partial: 0, looks: 0, intact: 0, items: 0, unchanged: 0 });
const row = (map, kind) => {
  if (!map.has(kind))
    map.set(kind, { airlock: counts(), secretlint: counts(), misses: new Map(), changes: [] });
  return map.get(kind);
};

function countLookalikes(k, ours, peer) {
  k.airlock.looks += ours.lookalikes.length;
  k.secretlint.looks += peer.lookalikes.length;
  k.airlock.intact += ours.lookalikes.filter(Boolean).length;
  k.secretlint.intact += peer.lookalikes.filter(Boolean).length;
}

const byKind = new Map();
for (const item of positives) {
  const k = row(byKind, item.kind);
  const output = redactText(item.text).text;
  const { messages } = await lint(item.text, item.file);
  const ours = airlockScore(item, output);
  const peer = secretlintScore(item, messages);
  ours.secrets.forEach(({ outcome, survivor }, i) => {
    k.airlock.n++;
    k.secretlint.n++;
    if (peer.secrets[i]) k.secretlint.caught++;
    if (outcome === "caught") {
      k.airlock.caught++;
      return;
    }
    const miss = k.misses.get(item.carrier) ?? { n: 0, partial: 0, example: "" };
    miss.n++;
    if (outcome === "partial") {
      k.airlock.partial++;
      miss.partial++;
    }
    miss.example ||= lineOf(output, survivor);
    k.misses.set(item.carrier, miss);
  });
  countLookalikes(k, ours, peer);
}

const negByKind = new Map();
for (const item of negatives) {
  const k = row(negByKind, item.kind);
  const redacted = redactText(item.text);
  const { messages } = await lint(item.text, item.file);
  const ours = airlockScore(item, redacted.text);
  const peer = secretlintScore(item, messages);
  k.airlock.items++;
  k.secretlint.items++;
  if (ours.unchanged) k.airlock.unchanged++;
  else k.changes.push({ item, tool: "airlock", found: redacted.findings });
  if (peer.unchanged) k.secretlint.unchanged++;
  else k.changes.push({ item, tool: "secretlint", found: messages });
  countLookalikes(k, ours, peer);
}

const sum = (rows, tool) => {
  const t = counts();
  for (const r of rows) for (const key of Object.keys(t)) t[key] += r[tool][key];
  return t;
};
const groups = (map) => [
  ["first corpus", [...map].filter(([k]) => !ADDED_KINDS.has(k)).map(([, r]) => r)],
  ["added kinds", [...map].filter(([k]) => ADDED_KINDS.has(k)).map(([, r]) => r)],
  ["overall", [...map.values()]],
];

const W = 27;
const mark = (kind) => (ADDED_KINDS.has(kind) ? "+" : " ");
console.log(
  "\nRecall per positive kind: secrets caught / secrets (partial = redacted, but a 12-character piece" +
    " survives); look-alikes beside secrets left intact. + marks a kind added from format descriptions.",
);
console.log(
  `${"kind".padEnd(W + 1)} ${"airlock recall".padEnd(18)} ${"partial".padStart(7)}   ${"secretlint recall".padEnd(18)}   ${"airlock look-alikes".padEnd(18)}`,
);
const recallLine = (label, a, s) =>
  `${label} ${cell(a.caught, a.n)} ${String(a.partial || "").padStart(7)}   ${cell(s.caught, s.n)}   ${cell(a.intact, a.looks)}`;
for (const [kind, k] of byKind)
  console.log(recallLine(`${mark(kind)}${kind.padEnd(W)}`, k.airlock, k.secretlint));
for (const [label, rows] of groups(byKind)) {
  console.log(
    recallLine(` ${label.toUpperCase().padEnd(W)}`, sum(rows, "airlock"), sum(rows, "secretlint")),
  );
}

console.log(
  "\nIntact per negative kind: items returned unchanged (airlock) or not flagged (secretlint), and" +
    " labelled look-alikes left intact.",
);
console.log(
  `${"kind".padEnd(W + 1)} ${"airlock unchanged".padEnd(18)}   ${"airlock look-alikes".padEnd(18)}   ${"secretlint unflagged".padEnd(18)}   ${"secretlint look-alikes".padEnd(18)}`,
);
const negLine = (label, a, s) =>
  `${label} ${cell(a.unchanged, a.items)}   ${cell(a.intact, a.looks)}   ${cell(s.unchanged, s.items)}   ${cell(s.intact, s.looks)}`;
for (const [kind, k] of negByKind)
  console.log(negLine(`${mark(kind)}${kind.padEnd(W)}`, k.airlock, k.secretlint));
for (const [label, rows] of groups(negByKind)) {
  console.log(
    negLine(` ${label.toUpperCase().padEnd(W)}`, sum(rows, "airlock"), sum(rows, "secretlint")),
  );
}

console.log("\nTotals (overall):");
for (const tool of ["airlock", "secretlint"]) {
  const p = sum([...byKind.values()], tool);
  const n = sum([...negByKind.values()], tool);
  console.log(
    `  ${tool.padEnd(10)} recall ${cell(p.caught, p.n)}   look-alikes intact ${cell(p.intact + n.intact, p.looks + n.looks)}   negatives unchanged ${cell(n.unchanged, n.items)}`,
  );
}

console.log("\nairlock misses, by kind and carrier (how many; one output line where it survives):");
for (const [kind, k] of byKind) {
  for (const [carrier, miss] of k.misses) {
    const partial = miss.partial > 0 ? `, ${miss.partial} partial` : "";
    console.log(`  ${kind} / ${carrier} (${miss.n}${partial})\n      ${miss.example}`);
  }
}

const excerpt = (text, start, end) =>
  JSON.stringify(text.slice(start, Math.min(end, start + 70)) + (end - start > 70 ? "…" : ""));
const describe = (tool, item, found) =>
  tool === "airlock"
    ? found.map((f) => `${f.rule}: ${excerpt(item.text, f.start, f.end)}`).join("; ")
    : found
        .map(
          (m) =>
            `${m.ruleId.replace("@secretlint/secretlint-rule-", "")}: ${excerpt(item.text, ...m.range)}`,
        )
        .join("; ");
for (const tool of ["airlock", "secretlint"]) {
  console.log(
    `\n${tool} false positives (rule: the text it ${tool === "airlock" ? "replaced" : "reported"}; 4 per kind at most):`,
  );
  for (const [kind, k] of negByKind) {
    const mine = k.changes.filter((c) => c.tool === tool);
    for (const { item, found } of mine.slice(0, 4)) {
      console.log(`  ${kind} / ${item.carrier}: ${describe(tool, item, found)}`);
    }
    if (mine.length > 4) console.log(`  ${kind}: … and ${mine.length - 4} more`);
  }
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
