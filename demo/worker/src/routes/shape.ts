/**
 * `POST /shape`: the body is any tool output, with its content type; the answer is
 * `{ text, status, meta }`, what the model should read and how it was made, and `raw` when the
 * Worker kept the raw artifact. The body is streamed into the shaper (decoded from gzip or
 * deflate), counted as it arrives: over the edge preset's byte cap is 413, whether its length
 * was declared or not; a body that breaks off or does not decode is 400. A tool output that is
 * itself malformed (broken JSON under a JSON content type) is not the request's fault: it is
 * shaped, and the result says so.
 *
 * A result that was cut is kept whole in KV or R2 (its handle is in the text and in
 * `meta.handle`, for `POST /read`); one that fit whole is not written anywhere.
 */
import {
  AirlockError,
  createPendingStore,
  edgePreset,
  type SealedRef,
  type Shaped,
  shape,
} from "agent-airlock/edge/o200k_base";
import type { Caller } from "../auth.js";
import { type Env, intVar } from "../env.js";
import { countBody, declaredLength, decodedBody, json, problem, tooLarge } from "../http.js";
import { shapeParams } from "../params.js";
import { rawStore, resultStore } from "../stores.js";

export async function shapeRoute(request: Request, env: Env, caller: Caller): Promise<Response> {
  const params = shapeParams(request, intVar(env.AIRLOCK_MAX_TOKENS, 32_000, 16));
  if (typeof params === "string") return problem(400, "params/invalid", params);
  const limit = edgePreset.maxBytes;
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) return tooLarge(limit);
  const decoded = decodedBody(request);
  if (decoded === undefined)
    return problem(415, "body/unsupported", "content-encoding must be gzip, deflate or identity");
  const body = countBody(decoded, limit);
  const results = resultStore(env, caller.tenant);
  const pending = results ? createPendingStore(results) : undefined;
  const raw = await rawStore(env, caller.tenant);
  // The raw copy reads the same counted bytes, sealed chunk by chunk as they arrive.
  const [forShape, forRaw] = raw ? body.stream.tee() : [body.stream, undefined];
  const sealing: Promise<SealedRef | undefined> | undefined =
    raw && forRaw
      ? raw.store
          .seal(forRaw, raw.key, params.contentType ? { contentType: params.contentType } : {})
          .catch(() => undefined)
      : undefined;
  let shaped: Shaped;
  try {
    shaped = await shape(forShape, {
      ...edgePreset,
      // One byte over the limit must reach the counter, not the shaper's own cap.
      maxBytes: limit + 1,
      maxTokens: params.maxTokens,
      ...(params.tool !== undefined ? { tool: params.tool } : {}),
      ...(params.contentType !== undefined ? { contentType: params.contentType } : {}),
      ...(pending ? { store: pending.store } : {}),
    });
  } catch (error) {
    await sealing;
    if (body.exceeded()) return tooLarge(limit);
    if (body.failed())
      return problem(400, "body/malformed", "the body could not be read to its end");
    if (error instanceof AirlockError && error.code === "options/invalid")
      return problem(400, "params/invalid", error.message);
    throw error;
  }
  const sealed = await sealing;
  if (body.exceeded()) return tooLarge(limit);
  if (body.failed()) return problem(400, "body/malformed", "the body could not be read to its end");
  let meta = shaped.meta;
  if (pending && meta.handle !== undefined) {
    // Kept only when something was left out; a result that fit whole needs no read-back.
    let kept = false;
    if (meta.truncated) kept = await pending.commit();
    else pending.discard();
    if (!kept) meta = withoutHandle(meta);
  }
  return json(200, {
    text: shaped.text,
    status: shaped.status,
    meta,
    ...(sealed ? { raw: sealed } : {}),
  });
}

/** The meta of a result that was not kept: no handle, no read_result call to make. */
function withoutHandle(meta: Shaped["meta"]): Shaped["meta"] {
  const { handle: _handle, next: _next, ...rest } = meta;
  if (rest.records?.handle === undefined) return rest;
  const { handle: _records, cursor: _cursor, ...records } = rest.records;
  return { ...rest, records };
}
