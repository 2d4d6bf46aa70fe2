/**
 * Responses of the Worker: JSON, and errors as `{ error: { code, message } }` with the status
 * that says whose fault it is. No error carries a stack or an exception's own message: those
 * can hold paths, hosts and pieces of the input.
 */

export type ErrorCode =
  | "auth/missing"
  | "auth/invalid"
  | "auth/forbidden"
  | "auth/misconfigured"
  | "route/not-found"
  | "route/method"
  | "body/too-large"
  | "body/malformed"
  | "body/unsupported"
  | "params/invalid"
  | "store/unavailable"
  | "upstream/unavailable"
  | "session/not-found"
  | "session/unavailable"
  | "session/direct"
  | "internal";

export function json(status: number, body: unknown, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...headers,
    },
  });
}

/** An error response: a stable code and one sentence. */
export function problem(
  status: number,
  code: ErrorCode,
  message: string,
  headers: HeadersInit = {},
): Response {
  return json(status, { error: { code, message } }, headers);
}

/** A request's body, in bytes, counted as it arrives. */
export interface CountedBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** True once more than the limit arrived; the stream then errors instead of passing it on. */
  readonly exceeded: () => boolean;
  /** True when the body itself failed (a broken gzip stream, a dropped upload). */
  readonly failed: () => boolean;
}

/**
 * Counts a body's bytes as chunks arrive and stops at the first chunk over the limit, whatever
 * Content-Length said (a declared length is checked before, but never trusted). Pulled, so it
 * reads no further ahead than its reader does.
 */
export function countBody(body: ReadableStream<Uint8Array>, limit: number): CountedBody {
  const reader = body.getReader();
  let seen = 0;
  let over = false;
  let failed = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (error) {
        failed = true;
        controller.error(error);
        return;
      }
      if (step.done) {
        controller.close();
        return;
      }
      seen += step.value.byteLength;
      if (seen > limit) {
        over = true;
        controller.error(new RangeError("body over the limit"));
        reader.cancel().catch(() => {});
        return;
      }
      controller.enqueue(step.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { stream, exceeded: () => over, failed: () => failed };
}

/**
 * The body as sent, decoded from `Content-Encoding` gzip or deflate (what was decoded is what
 * counts against the limit, so a small bomb is stopped like a large body); undefined for an
 * encoding the Worker does not read.
 */
export function decodedBody(request: Request): ReadableStream<Uint8Array> | undefined {
  const body = request.body ?? new Response(new Uint8Array(0)).body;
  if (body === null) return undefined;
  const encoding = (request.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding === "identity" || encoding === "") return body;
  if (encoding === "gzip" || encoding === "deflate")
    return body.pipeThrough(
      new DecompressionStream(encoding) as ReadableWritablePair<Uint8Array, Uint8Array>,
    );
  return undefined;
}

/** The declared length, when there is one that is a number. */
export function declaredLength(request: Request): number | undefined {
  const header = request.headers.get("content-length");
  if (header === null || !/^\d{1,16}$/.test(header)) return undefined;
  return Number(header);
}

/**
 * Reads a small JSON body (a `read_result` call), within `limit` bytes: too large is 413,
 * not JSON is 400.
 */
export async function readJson(
  request: Request,
  limit: number,
): Promise<{ value: unknown } | Response> {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) return tooLarge(limit);
  if (request.body === null) return problem(400, "body/malformed", "the body must be JSON");
  const counted = countBody(request.body, limit);
  let text: string;
  try {
    text = await new Response(counted.stream).text();
  } catch {
    return counted.exceeded()
      ? tooLarge(limit)
      : problem(400, "body/malformed", "the body could not be read");
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return problem(400, "body/malformed", "the body is not valid JSON");
  }
}

export function tooLarge(limit: number): Response {
  return problem(413, "body/too-large", `the body is larger than ${limit} bytes`);
}
