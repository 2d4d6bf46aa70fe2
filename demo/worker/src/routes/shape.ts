/**
 * `POST /shape`: the body is any tool output, with its content type; the answer is
 * `{ text, status, meta }`, what the model should read and how it was made. The body is
 * streamed into the shaper (decoded from gzip or deflate), counted as it arrives: over the edge
 * preset's byte cap is 413, whether its length was declared or not; a body that breaks off or
 * does not decode is 400. A tool output that is itself malformed (broken JSON under a JSON
 * content type) is not the request's fault: it is shaped, and the result says so.
 */
import { AirlockError, edgePreset, shape } from "agent-airlock/edge/o200k_base";
import type { Caller } from "../auth.js";
import { type Env, intVar } from "../env.js";
import { countBody, declaredLength, decodedBody, json, problem, tooLarge } from "../http.js";
import { shapeParams } from "../params.js";

export async function shapeRoute(request: Request, env: Env, _caller: Caller): Promise<Response> {
  const params = shapeParams(request, intVar(env.AIRLOCK_MAX_TOKENS, 32_000, 16));
  if (typeof params === "string") return problem(400, "params/invalid", params);
  const limit = edgePreset.maxBytes;
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) return tooLarge(limit);
  const decoded = decodedBody(request);
  if (decoded === undefined)
    return problem(415, "body/unsupported", "content-encoding must be gzip, deflate or identity");
  const body = countBody(decoded, limit);
  try {
    const shaped = await shape(body.stream, {
      ...edgePreset,
      // One byte over the limit must reach the counter, not the shaper's own cap.
      maxBytes: limit + 1,
      maxTokens: params.maxTokens,
      ...(params.tool !== undefined ? { tool: params.tool } : {}),
      ...(params.contentType !== undefined ? { contentType: params.contentType } : {}),
    });
    if (body.exceeded()) return tooLarge(limit);
    if (body.failed())
      return problem(400, "body/malformed", "the body could not be read to its end");
    return json(200, { text: shaped.text, status: shaped.status, meta: shaped.meta });
  } catch (error) {
    if (body.exceeded()) return tooLarge(limit);
    if (body.failed())
      return problem(400, "body/malformed", "the body could not be read to its end");
    if (error instanceof AirlockError && error.code === "options/invalid")
      return problem(400, "params/invalid", error.message);
    throw error;
  }
}
