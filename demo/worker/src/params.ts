/**
 * What a `POST /shape` asks for, from its query or its headers (the query wins): the tool's
 * name and the budget. The body's own Content-Type is the tool output's content type.
 */
import { edgePreset, MIN_MAX_TOKENS } from "agent-airlock/edge/o200k_base";

export interface ShapeParams {
  readonly tool: string | undefined;
  readonly maxTokens: number;
  readonly contentType: string | undefined;
}

const TOOL = /^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,63}$/;

/** The parameters, or the sentence that says which one is wrong. */
export function shapeParams(request: Request, maxBudget: number): ShapeParams | string {
  const url = new URL(request.url);
  const pick = (query: string, header: string) =>
    url.searchParams.get(query) ?? request.headers.get(header) ?? undefined;
  const tool = pick("tool", "x-airlock-tool");
  if (tool !== undefined && !TOOL.test(tool))
    return "tool must be 1 to 64 letters, digits or _ . : / - (starting with a letter or digit)";
  const budget = pick("maxTokens", "x-airlock-max-tokens");
  let maxTokens = Math.min(edgePreset.maxTokens, maxBudget);
  if (budget !== undefined) {
    if (!/^\d{1,9}$/.test(budget)) return "maxTokens must be a whole number";
    maxTokens = Number(budget);
    if (maxTokens < MIN_MAX_TOKENS || maxTokens > maxBudget)
      return `maxTokens must be between ${MIN_MAX_TOKENS} and ${maxBudget}`;
  }
  const type = request.headers.get("content-type") ?? undefined;
  if (type !== undefined && type.length > 256) return "content-type is longer than 256 characters";
  return { tool, maxTokens, contentType: type };
}
