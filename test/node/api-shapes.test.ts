/**
 * Records wherever real APIs put them (`test/fixtures/api-shapes.ts`): for each shape, as JSON
 * text and as a parsed value, the record arrays found, the envelope kept, the failed records
 * first and all of them shown, exact counts, the same text either way, and `read_result` paging
 * to the end covering every record exactly once. The GitHub REST rows are recorded bodies from
 * `../shared/bench/api` (or AIRLOCK_BENCH_API), scaled; without them (a clone elsewhere) those
 * rows are reported as skipped, by name, and the written ones still run.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createMemoryStore, createResultReader, type Shaped, shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { type ApiShape, scaled, writtenShapes } from "../fixtures/api-shapes.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const BENCH = process.env.AIRLOCK_BENCH_API
  ? new URL(`file://${process.env.AIRLOCK_BENCH_API.replace(/\/?$/, "/")}`)
  : new URL("../../../shared/bench/api/", import.meta.url);
const HAS_BENCH = existsSync(fileURLToPath(new URL("github/search-issues.json", BENCH)));

/** A recorded exchange's response body, by the path it answered. */
function recorded(file: string, path: RegExp): Json {
  const exchanges = JSON.parse(readFileSync(new URL(`github/${file}`, BENCH), "utf8")) as Array<{
    method: string;
    path: string;
    response: Json;
  }>;
  const found = exchanges.find((e) => e.method === "get" && path.test(e.path));
  if (!found) throw new Error(`no GET ${path} in ${file}`);
  return found.response;
}

function githubSearchIssues(): ApiShape {
  const body = recorded("search-issues.json", /^\/search\/issues/) as { items: Json[] };
  const items = scaled(body.items, 400, (r, i) => {
    r.id = 1000 + i;
    r.number = i + 1;
    r.title = `${String(r.title)} (${i})`;
  });
  return {
    title: "GitHub REST search/issues (recorded): items",
    value: { ...(body as object), total_count: items.length, items } as Json,
    paths: ["items"],
    total: items.length,
    failed: [],
    id: (r) => String((r as { number: number }).number),
    envelope: '"incomplete_results":false',
  };
}

function githubCombinedStatus(): ApiShape {
  const body = recorded("create-status.json", /\/commits\/[0-9a-f]+\/status$/) as {
    statuses: Json[];
  };
  const failed = [9, 1000];
  const statuses = scaled(body.statuses, 1500, (r, i) => {
    r.id = 1000 + i;
    r.context = `ci/${i}`;
    r.state = failed.includes(i) ? "failure" : "success";
    r.description = failed.includes(i) ? "the build failed" : "the build passed";
  });
  return {
    title: "GitHub REST combined status (recorded): statuses",
    value: { ...(body as object), statuses, total_count: statuses.length } as Json,
    paths: ["statuses"],
    total: statuses.length,
    failed: failed.map((i) => `ci/${i}`),
    id: (r) => String((r as { context: string }).context),
    envelope: '"sha"',
  };
}

/** The records a result's `data` shows, in the order it shows them (grouped arrays too). */
function recordsIn(text: string): Json[] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith("data: "));
  if (start < 0) return [];
  const out: Json[] = [];
  for (const line of lines.slice(start)) {
    if (/^(?:omitted|next): |^<\/untrusted-data/.test(line)) break;
    const body = line.replace(/^data: /, "").replace(/,$/, "");
    if (body.startsWith("{") && body.endsWith("}")) out.push(JSON.parse(body) as Json);
  }
  return out;
}

async function readToTheEnd(first: Shaped, store: ReturnType<typeof createMemoryStore>) {
  const reader = createResultReader({ store, maxTokens: 8000 });
  const seen: Json[] = [...recordsIn(first.text)];
  let args = first.meta.next?.args;
  for (let pages = 0; args !== undefined; pages++) {
    expect(pages, "pages").toBeLessThan(200);
    const page = await reader(args as never);
    seen.push(...recordsIn(page.text));
    args = page.meta.next?.args;
  }
  return seen;
}

async function check(api: ApiShape): Promise<void> {
  const texts: string[] = [];
  for (const form of ["text", "parsed"] as const) {
    const store = createMemoryStore();
    const input = form === "text" ? JSON.stringify(api.value) : api.value;
    const shaped = await shape(input as never, { maxTokens: 3000, store });
    texts.push(shaped.text);
    const records = shaped.meta.records;
    expect(records?.shape, form).toBe("records");
    expect(records?.paths?.map((p) => p.path) ?? [], form).toEqual(api.paths);
    expect(records?.total, form).toBe(api.total);
    expect(records?.errors, form).toBe(api.failed.length);
    expect(records?.errorsShown, form).toBe(api.failed.length);
    // The failed records come first, in the model's text.
    const shown = recordsIn(shaped.text).map(api.id);
    expect(shown.slice(0, api.failed.length).sort(), form).toEqual([...api.failed].sort());
    if (api.envelope !== undefined) expect(shaped.text, form).toContain(api.envelope);
    expect(shaped.meta.handle, form).toMatch(/^res_/);
    // Read back to the end: every record exactly once, the first page's included.
    const seen = (await readToTheEnd(shaped, store)).map(api.id);
    expect(seen.length, form).toBe(api.total);
    expect(new Set(seen).size, form).toBe(api.total);
  }
  // A parsed value and its JSON text are the same input.
  expect(texts[1]).toBe(texts[0]);
}

describe("records wherever the API puts them", () => {
  for (const api of writtenShapes()) {
    it(api.title, () => check(api), 120_000);
  }
  it.skipIf(!HAS_BENCH)("GitHub REST search/issues (recorded): items", () =>
    check(githubSearchIssues()),
  );
  it.skipIf(!HAS_BENCH)("GitHub REST combined status (recorded): statuses", () =>
    check(githubCombinedStatus()),
  );

  it("negative control: with the nine envelope keys only, a domain key's failures are lost", async () => {
    const api = writtenShapes().find((s) => s.title.startsWith("Elasticsearch")) as ApiShape;
    // `records` names another path: hits.hits is then part of the envelope, one document.
    const shaped = await shape(api.value as never, { maxTokens: 3000, records: "took" });
    expect(shaped.meta.records?.shape).toBe("document");
    expect(shaped.text).not.toContain("payment provider timed out");
  });

  it("the records option names the arrays; fields project them", async () => {
    const api = writtenShapes().find((s) => s.title.startsWith("Stripe")) as ApiShape;
    const shaped = await shape(JSON.stringify(api.value), {
      maxTokens: 1500,
      records: "data",
      fields: "data[*].{id,status,failure_code}",
    });
    expect(shaped.meta.records?.paths).toEqual([{ path: "data", count: 2000 }]);
    const first = recordsIn(shaped.text)[0] as { [key: string]: Json };
    expect(Object.keys(first).sort()).toEqual(["failure_code", "id", "status"]);
    expect(first.status).toBe("failed");
  });
});
