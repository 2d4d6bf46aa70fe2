/**
 * A run's tool output across turns (issue 28): a scripted 40-turn run, each turn one tool result
 * (logs of 10 KB to 5 MB, record arrays, a page, a command failure, a small result) carrying
 * one planted fact (an error line or record, a sentence, or, in every other log, an ordinary
 * line that no cut keeps); at turns 10, 20, 30 and 40 the run asks for facts planted 2 to 35 turns
 * earlier. Four strategies see the same results, each shaped at 4,000 tokens:
 *   - none: every result stays;
 *   - prune: the last 3 tool results stay, older ones are removed (the AI SDK's `pruneMessages`);
 *   - clear: once the results pass the ceiling, the oldest are replaced by a placeholder, the
 *     last 3 kept, at least 25% of the ceiling cleared at a time (Anthropic's clear_tool_uses);
 *   - session: `createSession({ maxRunTokens })` and its `view()`.
 * Per strategy: the peak of tool-result tokens against the 32,000-token ceiling, the facts
 * answerable from the view (in its text) and recoverable (their result's handle is in the view
 * and one `read_result` grep, or a `where` for records, returns them), the run's input cost with
 * prompt caching (a turn's leading results identical to the previous turn's at 0.1, the rest at
 * 1.25), and cache breaks (turns where an earlier result's text changed). Tokens are o200k,
 * counted here, not taken from the session.
 *
 * Run: npm run bench:session
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createMemoryStore, createResultReader, createSession, shape } from "../dist/index.js";
import { makeChunks } from "./logs.mjs";

const TURNS = 40;
const CEILING = 32_000;
const OWN = 4_000;
const KEEP = 3;
const QUESTIONS = [10, 20, 30, 40];
const BACK = [2, 5, 9, 14, 20, 27, 35];
const decoder = new TextDecoder();
const LOG_SIZES = [10 << 10, 100 << 10, 1 << 20, 5 << 20, 300 << 10];

/** A log with the fact on one line: an error line, or (`plain`) an ordinary one no cut keeps. */
function logOf(bytes, fact, at, plain) {
  const text = makeChunks(Math.ceil(bytes / (1 << 20)), Math.min(bytes, 1 << 20))
    .map((c) => decoder.decode(c))
    .join("");
  const cut = text.indexOf("\n", Math.floor(text.length * at)) + 1;
  const line = plain
    ? `2026-11-30T10:31:07.001Z INFO  billing-2 settlement batch tagged ${fact}`
    : `2026-11-30T10:31:07.001Z ERROR billing-2 settlement failed: ${fact}`;
  return `${text.slice(0, cut)}${line}\n${text.slice(cut)}`;
}

function turnOf(t) {
  const fact = `ref-${t}-${["kappa", "delta", "sigma", "omega", "theta"][t % 5]}`;
  const at = ((t * 37) % 90) / 100 + 0.05;
  switch (t % 5) {
    case 0:
      return {
        tool: "read_log",
        fact,
        input: logOf(LOG_SIZES[(t / 5) % 5], fact, at, t % 10 === 0),
      };
    case 1: {
      const rows = Array.from({ length: 1000 + ((t * 997) % 19_000) }, (_, k) => ({
        id: k,
        status: "ok",
        amount: (k * 37) % 1000,
        note: `order ${k} settled`,
      }));
      const k = Math.floor(rows.length * at);
      rows[k] = { id: k, status: "error", amount: 0, note: fact };
      return { tool: "query", fact, records: true, input: JSON.stringify(rows) };
    }
    case 2: {
      const paragraphs = Array.from(
        { length: 60 },
        (_, k) =>
          `<p>Section ${k} of the handbook describes how the service settles orders and retries.</p>`,
      );
      paragraphs[Math.floor(60 * at)] = `<p>The reference for the outage is ${fact}.</p>`;
      return {
        tool: "fetch",
        fact,
        input: new Response(`<html><body><article>${paragraphs.join("")}</article></body></html>`, {
          headers: { "content-type": "text/html" },
        }),
      };
    }
    case 3: {
      const stdout = Array.from(
        { length: 5000 },
        (_, k) => `[info] case ${k % 400} ok in ${k % 90} ms`,
      );
      return {
        tool: "bash",
        fact,
        input: { stdout: stdout.join("\n"), stderr: `error: build failed: ${fact}`, exitCode: 1 },
      };
    }
    default:
      return { tool: "echo", fact, input: `done: ${fact}` };
  }
}

const tokensOf = (texts) => texts.reduce((n, t) => n + countTokens(t), 0);

/** One strategy's run: `step(t, shaped)` returns the texts of the view at turn t. */
async function play(name, step, reader) {
  let peak = 0;
  let cost = 0;
  let breaks = 0;
  let before = [];
  let answerable = 0;
  let recoverable = 0;
  let asked = 0;
  const facts = [];
  for (let t = 1; t <= TURNS; t++) {
    const turn = turnOf(t);
    facts.push(turn);
    const texts = await step(t, turn);
    const counts = texts.map((x) => countTokens(x));
    const total = counts.reduce((a, b) => a + b, 0);
    peak = Math.max(peak, total);
    let same = 0;
    while (same < before.length && same < texts.length && texts[same] === before[same]) same++;
    if (same < before.length) breaks++;
    const cached = counts.slice(0, same).reduce((a, b) => a + b, 0);
    cost += cached * 0.1 + (total - cached) * 1.25;
    before = texts;
    if (!QUESTIONS.includes(t)) continue;
    const all = texts.join("\n");
    for (const back of BACK) {
      const q = t - back;
      if (q < 1) continue;
      asked++;
      const f = facts[q - 1];
      if (all.includes(f.fact)) {
        answerable++;
        continue;
      }
      const handle = f.handle;
      if (!reader || !handle || !all.includes(handle)) continue;
      const page = await reader(
        f.records ? { handle, where: { note: f.fact } } : { handle, grep: f.fact },
      );
      if (page.text.includes(f.fact)) recoverable++;
    }
  }
  const over = peak > CEILING ? "  over the ceiling" : "";
  console.log(
    `  ${name.padEnd(8)} ${String(peak).padStart(7)}${over.padEnd(19)} ${`${answerable}+${recoverable} of ${asked}`.padStart(11)} ${String(Math.round(cost)).padStart(9)} ${String(breaks).padStart(7)}`,
  );
}

console.log(
  `a ${TURNS}-turn run, each result shaped at ${OWN} tokens, ceiling ${CEILING} (o200k tokens)`,
);
console.log(
  `  ${"strategy".padEnd(8)} ${"peak".padStart(7)}${"".padEnd(19)} ${"facts a+r".padStart(11)} ${"cost".padStart(9)} ${"breaks".padStart(7)}`,
);

// The results as the plain strategies see them: each shaped once, kept.
const store = createMemoryStore();
const shaped = [];
for (let t = 1; t <= TURNS; t++)
  shaped.push((await shape(turnOf(t).input, { maxTokens: OWN, store })).text);

await play("none", (t) => shaped.slice(0, t));
await play("prune", (t) => shaped.slice(Math.max(0, t - KEEP), t));
const cleared = new Set();
await play("clear", (t) => {
  const view = () => shaped.slice(0, t).map((x, i) => (cleared.has(i) ? "[cleared]" : x));
  if (tokensOf(view()) > CEILING) {
    let freed = 0;
    for (let i = 0; i < t - KEEP && freed < CEILING / 4; i++) {
      if (cleared.has(i)) continue;
      freed += countTokens(shaped[i]) - countTokens("[cleared]");
      cleared.add(i);
    }
  }
  return view();
});

const sessionStore = createMemoryStore();
const session = createSession({
  maxRunTokens: CEILING,
  maxTokens: OWN,
  keepRecent: KEEP,
  store: sessionStore,
});
const handles = new Map();
await play(
  "session",
  async (t, turn) => {
    const r = await session.shape(turn.input, { callId: `call_${t}`, tool: turn.tool });
    turn.handle = r.meta.handle;
    handles.set(t, r.meta.handle);
    return session.view().map((e) => e.text);
  },
  createResultReader({ store: sessionStore, maxTokens: 2000 }),
);
const s = session.stats();
console.log(
  `\nsession: ${s.tokens} tokens in its view at the end, levels ${JSON.stringify(s.levels)}, ${s.reshapes} re-shapes`,
);
console.log(
  "as filed (issue 28): none passes the ceiling by turn 9; prune keeps 3 of 19 asked facts; clear keeps 7 of 19 with 11 cache breaks",
);
