/**
 * What airlock's own words cost: the share of a result's text taken by markers (`[airlock: …]`
 * lines) and the fence, in o200k tokens, at 600, 1,500 and 4,000 tokens, for a 5 MB log, a
 * 100,000-row array, a failed command and a 2 MB article, and of an MCP result whose text parts
 * are the 5 MB log and a note (each part fenced); and the overhead over the body of
 * `"ok"`, a 200-byte result and a 2 KB result that fit. Issue 26's figures as filed (measured on
 * 267f383) are printed beside them: 5 MB log 40% / 26% / 21%, `"ok"` 43 tokens. Given the path
 * of another build's `dist/index.js` (say, of the commit before a change), its figures are
 * measured in the same run, in a column of their own.
 *
 * Run: npm run bench:economy [-- /path/to/other/dist/index.js]
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { shape } from "../dist/index.js";

const other = process.argv[2] ? (await import(process.argv[2])).shape : undefined;

import { FATAL, makeChunks } from "./logs.mjs";

const decoder = new TextDecoder();
const BUDGETS = [600, 1500, 4000];

function log5mb() {
  const text = makeChunks(5, 1 << 20)
    .map((c) => decoder.decode(c))
    .join("");
  const at = text.indexOf("\n", Math.floor(text.length * 0.6)) + 1;
  return `${text.slice(0, at)}${FATAL}\n${text.slice(at)}`;
}

function rows(n) {
  const out = [];
  for (let i = 0; i < n; i++)
    out.push({
      id: i,
      user: `user${i % 977}`,
      status: i % 4999 === 0 ? "error" : "ok",
      amount: (i * 37) % 10000,
      region: ["eu", "us", "ap"][i % 3],
    });
  return JSON.stringify(out);
}

function command() {
  const out = [];
  for (let i = 0; i < 20_000; i++)
    out.push(`[info] - case ${i % 400} handles input ${i % 97} in ${(i * 13) % 900} ms`);
  out.splice(
    12_000,
    0,
    "[info] - round trip keeps the body *** FAILED ***",
    '[info]   "[]" did not equal "[hello]" (RoundTripTest.scala:88)',
    "[info]   at org.example.RoundTripTest.run(RoundTripTest.scala:88)",
  );
  return {
    stdout: out.join("\n"),
    stderr: "error: 1 test failed\nerror: build failed with exit code 1",
    exitCode: 1,
  };
}

function article() {
  const words = "the of a service request during which its operators found that latency rose".split(
    " ",
  );
  const paragraphs = [];
  let size = 0;
  for (let p = 0; size < 2_000_000; p++) {
    const sentences = [];
    for (let s = 0; s < 5; s++) {
      const w = [];
      for (let k = 0; k < 14; k++) w.push(words[(p * 31 + s * 7 + k * 3) % words.length]);
      sentences.push(`${w.join(" ")} ${p}.${s}.`);
    }
    const text = sentences.join(" ");
    paragraphs.push(`<p>${text}</p>`);
    size += text.length + 7;
  }
  return new Response(
    `<html><body><article><h1>Report</h1>${paragraphs.join("\n")}</article></body></html>`,
    {
      headers: { "content-type": "text/html" },
    },
  );
}

/**
 * Tokens of the fence lines and of the marker lines of a text. In a numbered layout (the summary
 * says "by number") each line's number and tab are airlock's too: counted with the markers.
 */
function split(text) {
  const lines = text.split("\n");
  const fence = /^<\/?untrusted-data/;
  const numbered = /^\[airlock: shown \d+ of \d+ lines by number/m.test(text);
  let fenceTokens = 0;
  let markerTokens = 0;
  for (const line of lines) {
    const t = countTokens(`${line}\n`);
    if (fence.test(line)) fenceTokens += t;
    else if (line.startsWith("[airlock: ")) markerTokens += t;
    else if (numbered && /^\d+\t/.test(line))
      markerTokens += t - countTokens(`${line.replace(/^\d+\t/, "")}\n`);
  }
  return { total: countTokens(text), fenceTokens, markerTokens };
}

const pct = (n, d) => `${((100 * n) / d).toFixed(1).padStart(5)}%`;

console.log("markers + fence as a share of text (o200k tokens)");
console.log(
  `  input              budget  tokens  markers  fence  share${other ? "  other build" : ""}`,
);
const inputs = [
  ["5 MB log", log5mb],
  ["100,000 rows", () => rows(100_000)],
  ["failed command", command],
  ["2 MB article", article],
];
for (const [name, make] of inputs) {
  for (const maxTokens of BUDGETS) {
    const s = split((await shape(make(), { maxTokens, tool: "bench" })).text);
    const o = other ? split((await other(make(), { maxTokens, tool: "bench" })).text) : undefined;
    console.log(
      `  ${name.padEnd(18)} ${String(maxTokens).padStart(6)}  ${String(s.total).padStart(6)}  ${String(s.markerTokens).padStart(7)}  ${String(s.fenceTokens).padStart(5)}  ${pct(s.markerTokens + s.fenceTokens, s.total)}${o ? `         ${pct(o.markerTokens + o.fenceTokens, o.total)}` : ""}`,
    );
  }
}
console.log("  as filed on 267f383: 5 MB log 40% at 600, 26% at 1,500, 21% at 4,000");

// An MCP result fences each text part: the 5 MB log as one text part, next to a short note part,
// through shapeCallToolResult; the share is over the model-visible text of every part.
console.log("\nan MCP result (the 5 MB log and a note as two text parts, shapeCallToolResult)");
const mcpOf = async (path) => (await import(path)).shapeCallToolResult;
const mcp = await mcpOf("../dist/mcp.js");
const otherMcp = process.argv[2]
  ? await mcpOf(process.argv[2].replace(/index\.js$/, "mcp.js")).catch(() => undefined)
  : undefined;
const mcpText = async (fn, maxTokens) =>
  (
    await fn(
      {
        content: [
          { type: "text", text: log5mb() },
          { type: "text", text: "exported 51,081 lines from the api gateway" },
        ],
      },
      { maxTokens, tool: "bench" },
    )
  ).content
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("\n");
for (const maxTokens of BUDGETS) {
  const s = split(await mcpText(mcp, maxTokens));
  const o = otherMcp ? split(await mcpText(otherMcp, maxTokens)) : undefined;
  console.log(
    `  ${"MCP, 5 MB log".padEnd(18)} ${String(maxTokens).padStart(6)}  ${String(s.total).padStart(6)}  ${String(s.markerTokens).padStart(7)}  ${String(s.fenceTokens).padStart(5)}  ${pct(s.markerTokens + s.fenceTokens, s.total)}${o ? `         ${pct(o.markerTokens + o.fenceTokens, o.total)}` : ""}`,
  );
}

console.log("\noverhead of a result that fits (tokens of text minus tokens of the body)");
const small = [
  ['"ok"', "ok"],
  [
    "200 bytes",
    "deploy finished: 3 services updated, 0 failed; api v2.14.1 healthy in eu-west-1 and us-east-1; cache warmed (1204 keys); next window 2026-12-03T02:00Z; run id 7f3a9c; see dashboard for latency".slice(
      0,
      200,
    ),
  ],
  [
    "2 KB",
    Array.from(
      { length: 60 },
      (_, i) => `item ${i}: ok in ${i * 7} ms, ${i * 13} rows, checksum ${(i * 2654435761) >>> 0}`,
    )
      .join("\n")
      .slice(0, 2048),
  ],
];
for (const [name, body] of small) {
  const text = (await shape(body, { tool: "bench" })).text;
  const was = other ? (await other(body, { tool: "bench" })).text : undefined;
  console.log(
    `  ${name.padEnd(10)} body ${String(countTokens(body)).padStart(4)}  text ${String(countTokens(text)).padStart(4)}  overhead ${String(countTokens(text) - countTokens(body)).padStart(3)}${was ? `  other build: ${countTokens(was) - countTokens(body)}` : ""}`,
  );
}
console.log('  as filed on 267f383: "ok" 43 tokens');
