/**
 * read_result: what a page costs next to what the first page cost, over a 100,000-row result and
 * a 20 MB log, both in a memory store, measured in one process:
 *   first page   shape() with the store (read, keep, store, fit): the baseline
 *   store cost   shape() without a store, for what storing adds to the first page
 *   page         read_result calls: the next page by cursor / by lines, a range far in, a filter
 *                (first call makes the filtered view; later pages reuse it), a grep, evidence
 * Prints milliseconds per call and the ratio to the first page. Aim: a page under a tenth of it.
 *
 *   npm run bench:read-back
 *   node --expose-gc bench/read-back.mjs --pages=40
 */
import { createMemoryStore, createResultReader, shape } from "../dist/index.js";

const pagesArg = Number(process.argv.find((a) => a.startsWith("--pages="))?.slice(8) ?? 30);
const BUDGET = 4000;

function numberedLog(bytes) {
  const out = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const level =
      n % 997 === 0
        ? "ERROR payments charge failed: upstream timeout"
        : "INFO http GET /api/items 200";
    const line = `L${n} 2026-06-01T10:00:${String(n % 60).padStart(2, "0")}Z ${level} id=${(n * 2654435761) % 1e9}`;
    out.push(line);
    size += line.length + 1;
  }
  return out.join("\n");
}

function rows(count) {
  return Array.from({ length: count }, (_, i) => ({
    id: i,
    level: i % 499 === 7 ? "error" : "info",
    state: i % 3 === 0 ? "closed" : "open",
    amount: (i * 7919) % 10_000,
    customer: `cus_${(i * 31) % 5000}`,
    msg: `request ${i} served in ${(i * 13) % 400} ms`,
  }));
}

async function time(run, times = 1) {
  globalThis.gc?.();
  const t0 = performance.now();
  let out;
  for (let i = 0; i < times; i++) out = await run(i);
  return { ms: (performance.now() - t0) / times, out };
}

/** Follows `meta.next` for `n` pages; returns the mean time of a page. */
async function follow(read, args, n) {
  let next = args;
  let spent = 0;
  let count = 0;
  while (next !== undefined && count < n) {
    const t0 = performance.now();
    const page = await read(next);
    spent += performance.now() - t0;
    if (page.status === "error") throw new Error(page.meta.error?.message);
    count++;
    next = page.meta.next?.args;
  }
  return { ms: spent / Math.max(1, count), pages: count };
}

function report(title, first, bare, lines) {
  console.log(`\n${title}`);
  console.log(`  first page, stored        ${first.toFixed(1).padStart(8)} ms`);
  console.log(
    `  first page, no store      ${bare.toFixed(1).padStart(8)} ms   storing adds ${(((first - bare) / bare) * 100).toFixed(0)}%`,
  );
  for (const [name, ms, extra] of lines) {
    const ratio = ms / first;
    console.log(
      `  ${name.padEnd(26)}${ms.toFixed(2).padStart(8)} ms   ${(ratio * 100).toFixed(1).padStart(5)}% of the first page${ratio < 0.1 ? "" : "   (over a tenth)"}${extra ? `   ${extra}` : ""}`,
    );
  }
}

console.log(`node ${process.version}; maxTokens ${BUDGET} (o200k_base); ${pagesArg} pages a line`);

{
  const input = rows(100_000);
  await shape(input.slice(0, 2000), { maxTokens: BUDGET }); // warm up the JIT and the tokenizer
  const store = createMemoryStore({ maxChars: 256 << 20 });
  const bare = await time(() => shape(input, { maxTokens: BUDGET }));
  const first = await time(() => shape(input, { maxTokens: BUDGET, store }));
  const handle = first.out.meta.handle;
  const read = createResultReader({ store, maxTokens: BUDGET });
  await read({ handle, range: { from: 1, to: 5 } }); // load the page code
  const byCursor = await follow(read, first.out.meta.next.args, pagesArg);
  const far = await time(
    (i) => read({ handle, range: { from: 90_000 + i * 50, to: 90_050 + i * 50 } }),
    pagesArg,
  );
  const where = { state: "closed", amount: { gte: "5000" } };
  const filterFirst = await time(() => read({ handle, where }));
  const filterPages = await follow(read, filterFirst.out.meta.next?.args, pagesArg);
  const evidence = await time(() => read({ handle, evidence: true }));
  report("100,000 rows (JSON array, 9.3 MB)", first.ms, bare.ms, [
    ["next page (cursor)", byCursor.ms, `${byCursor.pages} pages`],
    ["a range far in", far.ms],
    ["filter, first call", filterFirst.ms, "one pass over the records"],
    ["filter, next pages", filterPages.ms, `${filterPages.pages} pages, view cached`],
    ["evidence", evidence.ms],
  ]);
}

{
  const log = numberedLog(20 << 20);
  await shape(log.slice(0, 1 << 20), { maxTokens: BUDGET });
  const store = createMemoryStore({ maxChars: 256 << 20 });
  const bare = await time(() => shape(log, { maxTokens: BUDGET }));
  const first = await time(() => shape(log, { maxTokens: BUDGET, store }));
  const handle = first.out.meta.handle;
  const read = createResultReader({ store, maxTokens: BUDGET });
  await read({ handle, lines: { from: 1, to: 2 } });
  const next = await follow(read, first.out.meta.next.args, pagesArg);
  const far = await time(
    (i) => read({ handle, lines: { from: 200_000 + i * 500, to: 200_100 + i * 500 } }),
    pagesArg,
  );
  const around = await time((i) => read({ handle, around: 150_000 + i * 1000 }), pagesArg);
  const grep = await time(() => read({ handle, grep: "upstream timeout" }));
  const grepNext = await follow(read, grep.out.meta.next?.args, pagesArg);
  const regex = await time(() => read({ handle, grep: "/L2999\\d\\d /" }));
  const evidence = await time(() => read({ handle, evidence: true }));
  report(
    `20 MiB log (${log.split("\n").length.toLocaleString("en-US")} lines)`,
    first.ms,
    bare.ms,
    [
      ["next page (lines)", next.ms, `${next.pages} pages`],
      ["a range far in", far.ms],
      ["around a line", around.ms],
      ["grep, first page", grep.ms, "reads from line 1 until the page is full"],
      ["grep, next pages", grepNext.ms, `${grepNext.pages} pages`],
      ["regex, whole log", regex.ms, `${regex.out.meta.read.steps.toLocaleString("en-US")} steps`],
      ["evidence, first page", evidence.ms],
    ],
  );
}
