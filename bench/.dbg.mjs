import { createRedactor } from "../dist/index.js";
import { secretCorpus } from "./secret-corpus.mjs";

const red = createRedactor();
const { positives, negatives } = secretCorpus(1);
const kind = process.argv[2];
for (const it of [...positives, ...negatives].filter((x) => x.kind === kind)) {
  const out = red(it.text);
  const bad = (it.lookalikes ?? []).filter(
    (l) => out.text.split(l).length < it.text.split(l).length,
  );
  if (out.text !== it.text && (it.secrets.length === 0 || bad.length)) {
    console.log(
      `-- ${it.carrier}: ${out.findings.map((f) => `${f.rule}:${JSON.stringify(it.text.slice(f.start, Math.min(f.end, f.start + 60)))}`).join(" ")}${bad.length ? ` LOST ${bad.map((b) => b.slice(0, 30)).join(",")}` : ""}`,
    );
  }
}
