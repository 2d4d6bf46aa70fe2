/**
 * `POST /read`: a `read_result` call against the caller's stored results. The body is the
 * call's arguments as JSON (`{ "handle": "res_…", "lines": { "from": 241 } }`, as the text or
 * `meta.next` of a shaped result names them); the budget is `maxTokens` in the query or the
 * `x-airlock-max-tokens` header. The answer is the page, `{ text, status, meta }`: a wrong
 * argument or an expired handle is a page with status `error` that says so, for the model to
 * read, not an HTTP error. Only a body that is not JSON, or too large, is 4xx.
 */
import { createResultReader, edgePreset, MIN_READ_TOKENS } from "agent-airlock/edge/o200k_base";
import type { Caller } from "../auth.js";
import { type Env, intVar } from "../env.js";
import { json, problem, readJson } from "../http.js";
import { resultStore } from "../stores.js";

/** read_result arguments are bounded far below this (they are a model's tool call). */
const MAX_ARGS_BYTES = 64 << 10;

export async function readRoute(request: Request, env: Env, caller: Caller): Promise<Response> {
  const store = resultStore(env, caller.tenant);
  if (store === undefined)
    return problem(
      503,
      "store/unavailable",
      "this Worker has no result store (RESULTS_KV or RESULTS_R2)",
    );
  const maxBudget = intVar(env.AIRLOCK_MAX_TOKENS, 32_000, 16);
  const url = new URL(request.url);
  const budget = url.searchParams.get("maxTokens") ?? request.headers.get("x-airlock-max-tokens");
  let maxTokens = Math.min(edgePreset.maxTokens, maxBudget);
  if (budget !== null) {
    if (!/^\d{1,9}$/.test(budget) || Number(budget) < MIN_READ_TOKENS || Number(budget) > maxBudget)
      return problem(
        400,
        "params/invalid",
        `maxTokens must be between ${MIN_READ_TOKENS} and ${maxBudget}`,
      );
    maxTokens = Number(budget);
  }
  const args = await readJson(request, MAX_ARGS_BYTES);
  if (args instanceof Response) return args;
  // One reader per request: its caches hold this tenant's pages only.
  const read = createResultReader({ ...edgePreset, maxTokens, store });
  const page = await read(args.value);
  return json(200, { text: page.text, status: page.status, meta: page.meta });
}
