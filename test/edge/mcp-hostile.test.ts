/**
 * `/mcp` in front of a hostile or broken upstream (the breaks of issue 27, numbered as in the
 * review): the `hostile` tool of test/edge/upstream.ts answers by hand, as such a server would.
 *
 *   1   an answer the proxy did not ask for (another id, the id as the other type, a second
 *       answer, a `method` with a result, a string result, no `jsonrpc`) never passes as it came:
 *       it is dropped, and the call gets the proxy's JSON-RPC error for its own id
 *   5   one large event in many chunks arrives shaped; one over the cap is a JSON-RPC error
 *   6   a JSON answer over the byte cap, declared or not, is a JSON-RPC error
 *   13  read_result in a batch is answered by the proxy, never sent upstream
 *   14  SSE line ends as the specification has them (CR, LF, CRLF; `\n\r\n` ends an event)
 *   15  upstream errors come back redacted and bounded
 *   16  an MCP session is its tenant's: another tenant's use of its id, DELETE included, is 404
 *
 * The parser of sse.ts is also run on its own, over every way a stream's chunks can fall.
 */

import { SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, inject, it } from "vitest";
import { sseMessages } from "../../demo/worker/src/routes/sse.js";
import { bearer, type Json, ORIGIN, type Tenant } from "./helpers.js";

const ACCEPT = "application/json, text/event-stream";
const CAP = 24 * 1024 * 1024;
let next = 1000;

interface Posted {
  readonly status: number;
  readonly headers: Headers;
  readonly type: string;
  /** The reply as it came. */
  readonly text: string;
  /** Its JSON-RPC messages: the JSON body, or each event's data. */
  readonly messages: Json[];
  /** The events of an event stream, as re-emitted. */
  readonly events: string[];
}

async function post(
  body: unknown,
  options: { tenant?: Tenant; maxTokens?: number; session?: string; method?: string } = {},
): Promise<Posted> {
  const res = await SELF.fetch(
    `${ORIGIN}/mcp${options.maxTokens ? `?maxTokens=${options.maxTokens}` : ""}`,
    {
      method: options.method ?? "POST",
      headers: {
        ...bearer(options.tenant ?? "acme"),
        accept: ACCEPT,
        "content-type": "application/json",
        "mcp-protocol-version": "2025-06-18",
        ...(options.session ? { "mcp-session-id": options.session } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
  );
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  const messages: Json[] = [];
  const events: string[] = [];
  if (type.startsWith("application/json")) {
    const value = JSON.parse(text);
    messages.push(...(Array.isArray(value) ? value : [value]));
  } else if (type.startsWith("text/event-stream")) {
    for (const event of text.split("\n\n")) {
      if (event === "") continue;
      events.push(event);
      const data = event
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart());
      if (data.length > 0 && data.join("\n") !== "") {
        const value = JSON.parse(data.join("\n"));
        messages.push(...(Array.isArray(value) ? value : [value]));
      }
    }
  }
  return { status: res.status, headers: res.headers, type, text, messages, events };
}

const request = (method: string, params: unknown, id: number | string = ++next) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});
const toolCall = (name: string, args: unknown, id: number | string = ++next) =>
  request("tools/call", { name, arguments: args }, id);
const hostile = (args: Json, id: number | string = ++next) => toolCall("hostile", args, id);

/** A needle for `kind: "seen"`, in two pieces: the body that asks does not hold it. */
const pieces = (needle: string) => [needle.slice(0, 8), needle.slice(8)];

const textOf = (result: Json): string =>
  result.content
    .filter((c: Json) => c.type === "text")
    .map((c: Json) => c.text)
    .join("\n");

/** The one message of a reply that answers `id`. */
function answerTo(reply: Posted, id: number | string): Json {
  const answers = reply.messages.filter((m) => "result" in m || "error" in m);
  const mine = answers.filter((m) => m.id === id);
  expect(mine, reply.text.slice(0, 400)).toHaveLength(1);
  return mine[0];
}

describe("break 1: an answer is passed on only as the answer of a call the proxy forwarded", () => {
  const leak = () => inject("upstreamLeak");

  for (const via of ["json", "sse"]) {
    for (const kind of ["string-id", "other-id", "not-object", "both", "no-jsonrpc"]) {
      it(`${kind} (${via}): the call gets the proxy's error for its own id, nothing of the answer`, async () => {
        const id = ++next;
        const reply = await post(hostile({ kind, via }, id));
        expect(reply.status).toBe(200);
        expect(reply.type).toMatch(via === "json" ? /^application\/json/ : /^text\/event-stream/);
        expect(reply.text).not.toContain(leak());
        expect(reply.text).not.toContain("L1 step 1");
        expect(reply.text.length).toBeLessThan(2000);
        const answer = answerTo(reply, id);
        expect(answer.result).toBeUndefined();
        expect(answer.error.code).toBe(-32603);
        expect(answer.error.message).toMatch(/^airlock: /);
        // Nothing else came: the stray answer was dropped, not passed on under its own id.
        expect(reply.messages).toHaveLength(1);
      });
    }

    it(`a string id from the client is matched as a string, and the number is not (${via})`, async () => {
      const reply = await post(hostile({ kind: "string-id", via }, "7"));
      expect(reply.text).not.toContain(leak());
      const answer = answerTo(reply, "7");
      expect(answer.error.code).toBe(-32603);
      const echoed = await post(toolCall("hello", {}, "8"));
      expect(textOf(answerTo(echoed, "8").result)).toContain("hello from upstream");
    });

    it(`an answer with a method too is an answer: rebuilt and shaped (${via})`, async () => {
      const id = ++next;
      const reply = await post(hostile({ kind: "method-result", via }, id));
      expect(reply.text).not.toContain(leak());
      const answer = answerTo(reply, id);
      expect(Object.keys(answer).sort()).toEqual(["id", "jsonrpc", "result"]);
      expect(answer.result._meta["dev.airlock/shaped"].truncated).toBe(true);
      expect(textOf(answer.result)).toContain("<untrusted-data");
    });

    it(`a second answer to the same id is dropped; the first is shaped (${via})`, async () => {
      const id = ++next;
      const reply = await post(hostile({ kind: "twice", via }, id));
      expect(reply.text).not.toContain(leak());
      const answer = answerTo(reply, id);
      expect(textOf(answer.result)).toContain("the real answer");
      expect(textOf(answer.result)).toContain("<untrusted-data");
      expect(reply.messages).toHaveLength(1);
    });
  }

  it("an event holding a batch: each message is matched, the stray one dropped", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "batch-event" }, id));
    expect(reply.text).not.toContain(leak());
    expect(reply.messages).toHaveLength(1);
    expect(textOf(answerTo(reply, id).result)).toContain("the real answer");
  });

  it("an event whose data is not JSON is dropped, and the call still gets an answer", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "not-json" }, id));
    expect(reply.text).not.toContain(leak());
    expect(answerTo(reply, id).error.message).toMatch(/no answer the proxy could match/);
  });

  it("the SDK client (which reads the id as Number(id)) gets an error, never the raw result", async () => {
    const client = new Client({ name: "hostile-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), {
      fetch: (url, init) => SELF.fetch(url as string, init as RequestInit),
      requestInit: { headers: bearer("acme") },
    });
    await client.connect(transport);
    for (const via of ["json", "sse"]) {
      const call = client.callTool({ name: "hostile", arguments: { kind: "string-id", via } });
      await expect(call).rejects.toThrow(/airlock: the upstream sent no answer/);
    }
    const hello = await client.callTool({ name: "hello", arguments: {} });
    expect(textOf(hello)).toContain("<untrusted-data");
    await client.close();
  });
});

describe("break 13: read_result in a batch is the proxy's to answer", () => {
  it("a batch with read_result and another call: the page from the store, the call upstream", async () => {
    const { messages } = await post(toolCall("build_log", { kb: 400 }), { maxTokens: 800 });
    const handle = messages[0].result._meta["dev.airlock/shaped"].handle;
    expect(handle).toMatch(/^res_[0-9a-f]{24}$/);

    const readId = ++next;
    const helloId = ++next;
    const reply = await post([
      toolCall("read_result", { handle, lines: { from: 1, to: 3 } }, readId),
      toolCall("hello", {}, helloId),
    ]);
    expect(reply.status).toBe(200);
    const page = textOf(answerTo(reply, readId).result);
    expect(page).toContain("L1 INFO deploy step 1 ok");
    expect(textOf(answerTo(reply, helloId).result)).toContain("hello from upstream");
    const seen = await post(hostile({ kind: "seen", needle: pieces(handle), via: "json" }));
    expect(textOf(seen.messages[0].result)).toContain("seen: no");

    // read_result alone in a batch, and with a notification: answered here, as a batch.
    const only = await post([toolCall("read_result", { handle, lines: { from: 2, to: 2 } }, "r")]);
    expect(only.type).toMatch(/^application\/json/);
    expect(textOf(answerTo(only, "r").result)).toContain("L2 INFO");
    const withNote = await post([
      toolCall("read_result", { handle, lines: { from: 3, to: 3 } }, "s"),
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    expect(withNote.status).toBe(200);
    expect(textOf(answerTo(withNote, "s").result)).toContain("L3 INFO");
    const again = await post(hostile({ kind: "seen", needle: pieces(handle), via: "json" }));
    expect(textOf(again.messages[0].result)).toContain("seen: no");
  });

  it("ids a batch repeats, and ids that are neither strings nor numbers, are refused", async () => {
    for (const body of [
      [toolCall("hello", {}, 1), toolCall("read_result", { handle: "res_x" }, 1)],
      [toolCall("hello", {}, null as never)],
      toolCall("hello", {}, { a: 1 } as never),
    ]) {
      const reply = await post(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("break 14: SSE line ends as the specification has them", () => {
  it("events ended by LF then CRLF (\\n\\r\\n) are two events", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "crlf-blank" }, id));
    expect(reply.messages.map((m) => m.method ?? "answer")).toEqual([
      "notifications/message",
      "answer",
    ]);
    expect(textOf(answerTo(reply, id).result)).toContain("the real answer");
  });

  it("a BOM, comments, a priming event, CR and CRLF lines, a CR|LF split across chunks", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "line-ends" }, id));
    expect(reply.events[0]).toBe(": a comment");
    expect(reply.events[1]).toBe("id: 1\nretry: 100\ndata: ");
    expect(reply.messages.map((m) => m.method ?? "answer")).toEqual([
      "notifications/message",
      "notifications/message",
      "answer",
    ]);
    expect(textOf(answerTo(reply, id).result)).toContain("the real answer");
  });

  it("an event the stream leaves unfinished is not dispatched: the call gets an error", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "unfinished" }, id));
    expect(reply.text).not.toContain(inject("upstreamLeak"));
    expect(answerTo(reply, id).error.message).toMatch(/no answer the proxy could match/);
  });
});

describe("breaks 5 and 6: large answers, within the edge byte cap", () => {
  it("a 6 MB result as one event in 16 KB chunks arrives shaped", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "big", mb: 6, chunkKb: 16 }, id), {
      maxTokens: 1200,
    });
    const { result } = answerTo(reply, id);
    const facts = result._meta["dev.airlock/shaped"];
    expect(facts.truncated).toBe(true);
    expect(facts.tokens.after).toBeLessThanOrEqual(1200);
    expect(textOf(result)).toContain("<untrusted-data");
    expect(reply.text).not.toContain(inject("upstreamLeak"));
  }, 60_000);

  it("one event over the cap: the call gets the proxy's error that says so", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "big", mb: 26, chunkKb: 1024 }, id));
    expect(reply.status).toBe(200);
    expect(reply.text.length).toBeLessThan(1000);
    expect(answerTo(reply, id).error.message).toContain(
      `larger than the proxy's cap of ${CAP} bytes`,
    );
  }, 60_000);

  it("a JSON answer over the cap, its length declared or not: the proxy's error", async () => {
    for (const stream of [false, true]) {
      const id = ++next;
      const reply = await post(hostile({ kind: "big", mb: 26, via: "json", stream }, id));
      expect(reply.status).toBe(200);
      expect(reply.type).toMatch(/^application\/json/);
      const answer = answerTo(reply, id);
      expect(answer.error.code).toBe(-32603);
      expect(answer.error.message).toContain(`larger than the proxy's cap of ${CAP} bytes`);
    }
  }, 60_000);

  it("control: a 2 MB JSON answer, streamed, is shaped", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "big", mb: 2, via: "json", stream: true }, id));
    const { result } = answerTo(reply, id);
    expect(result._meta["dev.airlock/shaped"].truncated).toBe(true);
    expect(reply.text).not.toContain(inject("upstreamLeak"));
  }, 60_000);
});

describe("break 15: upstream errors are redacted and bounded", () => {
  for (const via of ["json", "sse"]) {
    it(`a 200 KB error full of tokens, data included (${via})`, async () => {
      const id = ++next;
      const reply = await post(hostile({ kind: "error", via }, id));
      expect(reply.text).not.toContain(inject("upstreamLeak"));
      const { error } = answerTo(reply, id);
      expect(error.code).toBe(-32000);
      expect(error.message).toContain("[REDACTED:");
      expect(error.message).toMatch(/ \[airlock: cut to 1000 of \d+ characters\]$/);
      expect(error.message.length).toBeLessThan(1100);
      expect(typeof error.data).toBe("string");
      expect(error.data).toMatch(/ \[airlock: cut to 2000 of \d+ characters\]$/);
      expect(reply.text.length).toBeLessThan(4000);
    });
  }

  it("a short error keeps its text and its data's shape, the token redacted", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "error-small", via: "json" }, id));
    expect(reply.text).not.toContain(inject("upstreamLeak"));
    const { error } = answerTo(reply, id);
    expect(error.message).toMatch(/^refused: token=\[REDACTED:[a-z_]+\]$/);
    expect(error.data.token).toMatch(/^\[REDACTED:[a-z_]+\]$/);
  });

  it("an error with a null id passes redacted; the call it left unanswered gets the proxy's", async () => {
    const id = ++next;
    const reply = await post(hostile({ kind: "error-null", via: "json" }, id));
    expect(reply.text).not.toContain(inject("upstreamLeak"));
    const stray = reply.messages.find((m) => m.id === null);
    expect(stray.error.message).toMatch(/^bad: token=\[REDACTED:/);
    expect(answerTo(reply, id).error.message).toMatch(/no answer the proxy could match/);
  });
});

describe("break 16: an upstream session is the tenant's that opened it", () => {
  it("another tenant's use of a session id (tagged or not, DELETE too) is 404; its own works", async () => {
    const init = await post(
      request("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "sessions", version: "1.0.0" },
      }),
    );
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id") as string;
    expect(session).toMatch(/^[A-Za-z0-9_-]{22}\.[0-9a-f-]{36}$/);
    const upstreamId = session.slice(session.indexOf(".") + 1);
    const note = `acme's private note ${crypto.randomUUID()}`;
    const kept = await post(toolCall("remember", { note }), { session });
    expect(kept.status).toBe(200);

    const probe = `globex-was-here-${crypto.randomUUID()}`;
    for (const id of [session, upstreamId, `${session.slice(0, 21)}A.${upstreamId}`]) {
      const reply = await post(toolCall("remember", { note: probe }), {
        tenant: "globex",
        session: id,
      });
      expect(reply.status, id).toBe(404);
      expect(JSON.parse(reply.text).error.code).toBe("session/not-found");
    }
    const ended = await post(undefined, { tenant: "globex", session, method: "DELETE" });
    expect(ended.status).toBe(404);
    const seen = await post(hostile({ kind: "seen", needle: pieces(probe), via: "json" }));
    expect(textOf(seen.messages[0].result)).toContain("seen: no");

    // acme's session is untouched, and acme may end it.
    const recall = await post(toolCall("recall", {}), { session });
    expect(recall.status).toBe(200);
    expect(textOf(recall.messages[0].result)).toContain(note);
    const end = await post(undefined, { session, method: "DELETE" });
    expect(end.status).toBe(200);
    const gone = await post(toolCall("recall", {}), { session });
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain(note);
  });
});

/** The parser of sse.ts alone: its events, however the stream's bytes are cut into chunks. */
async function parse(
  chunks: Uint8Array[],
  maxEventBytes = 1 << 20,
): Promise<{ out: string; ends: string[] }> {
  const ends: string[] = [];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  const stream = sseMessages(
    body,
    {
      async data(text) {
        return `<${text}>`;
      },
      end(cause) {
        ends.push(cause);
        return [`end ${cause}`];
      },
    },
    maxEventBytes,
    ["opening"],
  );
  return { out: await new Response(stream).text(), ends };
}

describe("the SSE parser (sse.ts) on its own", () => {
  const source =
    "\uFEFFdata: a\r\n\r\ndata: é€😀\n\r\n: keep-alive\r\rid: 7\revent: message\rdata: b\rdata: c\r\r" +
    "data:no-space\ndata:  two\n\nignored: x\ndata\n\ndata: tail without a blank line";
  const expected =
    "data: opening\n\n" +
    "data: <a>\n\n" +
    "data: <é€😀>\n\n" +
    ": keep-alive\n\n" +
    "id: 7\nevent: message\ndata: <b\ndata: c>\n\n" +
    "data: <no-space\ndata:  two>\n\n" +
    "data: <>\n\n" +
    "data: end done\n\n";
  const bytes = new TextEncoder().encode(source);

  it("reads every line end, a BOM, comments and fields; an unfinished event is not sent", async () => {
    expect((await parse([bytes])).out).toBe(expected);
  });

  it("gives the same events wherever the chunks are cut: any two cuts, or one byte at a time", async () => {
    for (let i = 0; i <= bytes.length; i++) {
      for (let j = i; j <= bytes.length; j += 3) {
        const chunks = [bytes.slice(0, i), bytes.slice(i, j), bytes.slice(j)];
        expect((await parse(chunks)).out, `${i} ${j}`).toBe(expected);
      }
    }
    const single = [...bytes].map((b) => Uint8Array.of(b));
    expect((await parse(single)).out).toBe(expected);
  });

  it("an event over the cap ends the stream with the handler's closing, and cancels the upstream", async () => {
    let cancelled = false;
    const line = new TextEncoder().encode(`data: ${"x".repeat(5000)}`);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(line);
      },
      cancel() {
        cancelled = true;
      },
    });
    const ends: string[] = [];
    const stream = sseMessages(
      body,
      {
        async data(text) {
          return text;
        },
        end(cause) {
          ends.push(cause);
          return [`end ${cause}`];
        },
      },
      100_000,
    );
    expect(await new Response(stream).text()).toBe("data: end too-large\n\n");
    expect(ends).toEqual(["too-large"]);
    expect(cancelled).toBe(true);
  });

  it("a 4 MB event in 1 KB chunks is read whole", async () => {
    const payload = "y".repeat(4 << 20);
    const all = new TextEncoder().encode(`data: ${payload}\n\n`);
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < all.length; at += 1024) chunks.push(all.subarray(at, at + 1024));
    const { out } = await parse(chunks, CAP);
    expect(out.length).toBe(`data: opening\n\ndata: <${payload}>\n\ndata: end done\n\n`.length);
  });
});
