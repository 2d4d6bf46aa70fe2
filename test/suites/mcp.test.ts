/**
 * `agent-airlock/mcp` against the real SDK: `McpServer` and `Client` over `InMemoryTransport`,
 * in Node, Chromium and workerd. Every output is parsed with the SDK's `CallToolResultSchema`,
 * its model-visible text counted with gpt-tokenizer part by part, its `structuredContent`
 * counted and validated with the SDK's own JSON Schema validator against the schema the server
 * lists.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import {
  describeError,
  type McpCallToolResult,
  shape,
  toAnthropic,
  toMcpError,
  toOpenAIChat,
  toOpenAIResponses,
} from "agent-airlock";
import {
  forModel,
  MCP_META_KEY,
  McpProtocolError,
  shapeCallToolResult,
  wrapClient,
  wrapServer,
} from "agent-airlock/mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  facts,
  isForUser,
  jsonSchemaValidator,
  link,
  logOf,
  modelTokens,
  newClient,
  newServer,
  pngOf,
  rowsOf,
  sha256Hex,
  toBase64,
  tokens,
} from "../helpers/mcp.js";

const USER_PART = {
  type: "text" as const,
  text: "Shown in the UI only: 1,204 rows exported to /home/ana/export.csv",
  annotations: { audience: ["user" as const], priority: 0.3 },
};

/** One result with every content type the protocol has. */
function everything() {
  const small = pngOf(1024);
  const big = pngOf(200 * 1024);
  const wav = bytesOfAudio(2048);
  return {
    small,
    big,
    wav,
    result: {
      content: [
        {
          type: "text" as const,
          text: "Found 3 files.\nERROR cannot read /var/log/secure: permission denied",
        },
        { type: "image" as const, data: toBase64(small), mimeType: "image/png" },
        { type: "image" as const, data: toBase64(big), mimeType: "image/png" },
        { type: "audio" as const, data: toBase64(wav), mimeType: "audio/wav" },
        {
          type: "resource" as const,
          resource: {
            uri: "file:///data/users.csv",
            mimeType: "text/csv",
            text: `id,name\n${rowsOf(3000)
              .map((r) => `${r.id},${r.name}`)
              .join("\n")}\n`,
          },
        },
        {
          type: "resource" as const,
          resource: { uri: "file:///data/chart.png", mimeType: "image/png", blob: toBase64(big) },
        },
        {
          type: "resource" as const,
          resource: {
            uri: "file:///data/notes.txt",
            mimeType: "text/plain",
            blob: toBase64(new TextEncoder().encode("meeting notes: ship on friday")),
          },
        },
        {
          type: "resource_link" as const,
          uri: "file:///logs/app.log",
          name: "app\u200b.log",
          mimeType: "text/plain",
          description: "the application log",
        },
        USER_PART,
      ],
    },
  };
}

function bytesOfAudio(length: number): Uint8Array {
  const bytes = pngOf(length);
  bytes.set([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]);
  return bytes;
}

describe("shapeCallToolResult: every content type", () => {
  it("through a real server and a wrapped client: parses, fits, keeps, names and hashes", async () => {
    const { small, big, result } = everything();
    const server = newServer();
    server.registerTool("files", {}, async () => result);
    const client = await link(
      server,
      wrapClient(newClient(), { maxTokens: 1500, maxImageBytes: 64 * 1024 }),
    );
    const out = (await client.callTool({ name: "files", arguments: {} })) as McpCallToolResult;
    expect(() => CallToolResultSchema.parse(out)).not.toThrow();
    expect(modelTokens(out)).toBeLessThanOrEqual(1500);
    const [text, kept, named, audio, csv, chart, notes, linkPart, user] = out.content;
    // Text through the pipeline: fenced, the error kept.
    expect(text?.type === "text" && text.text).toContain("ERROR cannot read");
    // A short text: the compact fence (the call names its tool), or the bare one with no `<`.
    expect(text?.type === "text" && text.text).toMatch(/^<untrusted-data(?: boundary="\d{9}")?>\n/);
    // The small image within maxImageBytes is kept as it came.
    expect(kept).toEqual(result.content[1]);
    // The big one is named: type, bytes, SHA-256 of its bytes; never its base64.
    const hex = await sha256Hex(big);
    expect(named).toEqual({
      type: "text",
      text: `[airlock: binary content not shown: image/png, ${big.length} bytes, sha256 ${hex}]`,
    });
    expect(JSON.stringify(out)).not.toContain(toBase64(big).slice(5000, 5100));
    expect(audio).toEqual(result.content[3]);
    // A CSV resource by its mimeType: records.
    expect(csv?.type === "resource" && "text" in csv.resource && csv.resource.text).toContain(
      "3,000 records (CSV, 2 columns)",
    );
    // A blob resource decoded: binary named with its hash, text shown.
    expect(chart?.type === "resource" && "text" in chart.resource && chart.resource.text).toContain(
      `image/png, ${big.length} bytes, sha256 ${hex}`,
    );
    expect(notes?.type === "resource" && "text" in notes.resource && notes.resource.text).toContain(
      "meeting notes: ship on friday",
    );
    // The link is kept, its name cleaned; the model reads it fenced after airlock's marker.
    expect(linkPart).toMatchObject({
      type: "resource_link",
      uri: "file:///logs/app.log",
      name: "app.log",
    });
    expect(toOpenAIChat(out, { toolCallId: "c" }).content).toContain(
      '[airlock: resource link (text/plain)]\n<untrusted-data>\n"app.log" file:///logs/app.log\n</untrusted-data>',
    );
    // The user's part is untouched.
    expect(user).toEqual(USER_PART);
    const f = facts(out);
    expect(f.listed.map((p) => p.shown)).toEqual([
      "shaped",
      "whole",
      "named",
      "whole",
      "shaped",
      "shaped",
      "shaped",
      "named",
      "user",
    ]);
    expect(f.listed[2]).toMatchObject({
      mime: "image/png",
      bytes: big.length,
      sha256: hex,
      why: "maxImageBytes",
    });
    expect(f.tokens.after).toBe(modelTokens(out));
    expect(small.length).toBe(1024);
  });

  it("images: false and audio: false name every image and clip, for models without them", async () => {
    const { result } = everything();
    const out = await shapeCallToolResult(result, { images: false, audio: false, maxTokens: 1500 });
    expect(out.content.filter((p) => p.type === "image" || p.type === "audio")).toEqual([]);
    const whys = facts(out)
      .listed.filter((p) => p.why)
      .map((p) => p.why);
    expect(whys).toEqual(["images", "images", "audio"]);
    expect(modelTokens(out)).toBeLessThanOrEqual(1500);
  });

  it("maxImageBytes is one budget for all images and audio together, in order", async () => {
    const a = { type: "image" as const, data: toBase64(pngOf(3000)), mimeType: "image/png" };
    const out = await shapeCallToolResult({ content: [a, a, a] }, { maxImageBytes: 7000 });
    expect(out.content.map((p) => p.type)).toEqual(["image", "image", "text"]);
  });
});

describe("the big parts: a 5 MB log, a 3 MB image, a 2 MB resource, 10,000 rows", () => {
  const rows = rowsOf(10_000);
  const outputSchema = {
    rows: z.array(z.object({ id: z.number(), name: z.string(), tags: z.array(z.string()) })).min(2),
    total: z.number(),
  };
  const big = () => ({
    content: [
      { type: "text" as const, text: logOf(5 * 1024 * 1024) },
      { type: "image" as const, data: toBase64(pngOf(3 * 1024 * 1024)), mimeType: "image/png" },
      {
        type: "resource" as const,
        resource: {
          uri: "file:///var/log/worker.log",
          mimeType: "text/plain",
          text: logOf(2 * 1024 * 1024),
        },
      },
      { type: "text" as const, text: JSON.stringify({ rows, total: rows.length }) },
    ],
    structuredContent: { rows, total: rows.length },
  });

  it("on the client: within maxTokens and maxStructuredTokens, valid against the listed schema", async () => {
    const server = newServer();
    server.registerTool("report", { outputSchema }, async () => big());
    const client = await link(
      server,
      wrapClient(newClient(), { maxTokens: 4000, maxStructuredTokens: 2000 }),
    );
    const { tools } = await client.listTools();
    const listed = tools.find((t) => t.name === "report")?.outputSchema;
    const out = (await client.callTool({ name: "report", arguments: {} })) as McpCallToolResult;
    expect(() => CallToolResultSchema.parse(out)).not.toThrow();
    expect(modelTokens(out)).toBeLessThanOrEqual(4000);
    expect(tokens(JSON.stringify(out.structuredContent))).toBeLessThanOrEqual(2000);
    const validate = jsonSchemaValidator.getValidator(listed as never);
    expect(validate(out.structuredContent)).toMatchObject({ valid: true });
    const structured = out.structuredContent as { rows: unknown[]; total: number };
    expect(structured.total).toBe(10_000);
    expect(structured.rows.length).toBeGreaterThan(10);
    expect(structured.rows).toEqual(rows.slice(0, structured.rows.length));
    // The log's one error is kept; the image is named.
    const texts = toOpenAIChat(out, { toolCallId: "c" }).content;
    expect(texts).toContain("ERROR payment service: connection refused");
    expect(texts).toContain("binary content not shown: image/png, 3145728 bytes, sha256");
    // The cut is declared in the text and in _meta.
    expect(texts).toContain(
      `structuredContent shortened to fit 2000 tokens: rows ${structured.rows.length} of 10000 items`,
    );
    expect(facts(out).structured).toMatchObject({
      cuts: [{ path: "rows", kept: structured.rows.length, of: 10_000 }],
      valid: true,
    });
  }, 120_000);

  it("negative control: each part alone within maxTokens does not keep the sum within it", async () => {
    const parts = big().content;
    let sum = 0;
    for (const part of [parts[0], parts[2], parts[3]]) {
      const text =
        part?.type === "text" ? part.text : (part as { resource: { text: string } }).resource.text;
      sum += (await shape(text, { maxTokens: 4000 })).meta.tokens as number;
    }
    expect(sum).toBeGreaterThan(4000);
  }, 120_000);

  it("on the server: the SDK's own output validation passes, on both sides", async () => {
    const server = wrapServer(newServer(), { maxTokens: 3000, maxStructuredTokens: 1500 });
    server.registerTool("report", { outputSchema }, async () => big());
    // A plain client: it validates structuredContent against the listed schema itself.
    const client = await link(server, newClient());
    await client.listTools();
    const out = (await client.callTool({ name: "report", arguments: {} })) as McpCallToolResult;
    expect(out.isError).toBeUndefined();
    expect(modelTokens(out)).toBeLessThanOrEqual(3000);
    expect(tokens(JSON.stringify(out.structuredContent))).toBeLessThanOrEqual(1500);
    expect(facts(out).status).toBe("partial");
  }, 120_000);
});

describe("redactions across parts", () => {
  it("say where they were counted: shown when a part was cut without a store, read when whole", async () => {
    const secret = `ghp_${"Zq8xW2vB".repeat(4)}abcd`;
    const log = Array.from({ length: 20_000 }, (_, i) => `INFO request ${i} served in 3ms`);
    log[10_000] = `INFO deploy token=${secret}`;
    const cut = await shapeCallToolResult(
      { content: [{ type: "text", text: log.join("\n") }] },
      { maxTokens: 500 },
    );
    expect(JSON.stringify(cut)).not.toContain(secret);
    expect(facts(cut).redactions.scope).toBe("shown");
    const whole = await shapeCallToolResult(
      { content: [{ type: "text", text: `deploy token=${secret}` }] },
      { maxTokens: 500 },
    );
    expect(facts(whole).redactions).toMatchObject({ count: 1, scope: "read" });
  });
});

describe("isError", () => {
  const STACK = [
    "Error: connect ECONNREFUSED 10.0.3.7:5432",
    "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
    "    at Pool.connect (/srv/app/node_modules/pg-pool/index.js:45:11)",
  ].join("\n");

  it("is kept, and its text goes through error shaping", async () => {
    const server = newServer();
    server.registerTool("db", {}, async () => ({
      content: [{ type: "text", text: STACK }],
      isError: true,
    }));
    const client = await link(server, wrapClient(newClient()));
    const out = (await client.callTool({ name: "db", arguments: {} })) as McpCallToolResult;
    expect(out.isError).toBe(true);
    const text = toOpenAIChat(out, { toolCallId: "c" }).content;
    expect(text).toContain("[airlock: the tool reported an error]");
    expect(text).toContain("ECONNREFUSED <host>");
    for (const leak of ["10.0.3.7", "/srv/app", "pg-pool"]) expect(text).not.toContain(leak);
    expect(toAnthropic(out, { toolUseId: "t" }).is_error).toBe(true);
    expect(facts(out).status).toBe("error");
  });

  it("a success stays a success, whatever the size of its parts", async () => {
    const out = await shapeCallToolResult({
      content: [{ type: "text", text: "x".repeat(5_000_000) }],
    });
    expect(out.isError).toBeUndefined();
    expect(facts(out).status).toBe("partial");
  });

  it("a handler that throws answers with the safe description of its error", async () => {
    const server = wrapServer(newServer());
    server.registerTool("db", {}, async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 10.0.3.7:5432 (/srv/app/db.js:1:2)"), {
        code: "ECONNREFUSED",
      });
    });
    const client = await link(server, newClient());
    const out = (await client.callTool({ name: "db", arguments: {} })) as McpCallToolResult;
    expect(out.isError).toBe(true);
    const text = JSON.stringify(out.content);
    expect(text).toContain("Tool error (tool/unavailable)");
    expect(text).not.toContain("10.0.3.7");
    expect(text).not.toContain("/srv/app");
  });
});

describe("protocol errors stay JSON-RPC errors", () => {
  /** A low-level server whose tools/call throws as the host wrote it. */
  async function serverThrowing(error: unknown) {
    const server = new Server(
      { name: "low", version: "1.0.0" },
      { capabilities: { tools: {} }, jsonSchemaValidator },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
    server.setRequestHandler(CallToolRequestSchema, async () => {
      throw error;
    });
    return link(server, wrapClient(newClient()));
  }

  it("toMcpError through the SDK's Server: the wrapped client rejects with the SDK's McpError", async () => {
    const safe = describeError(new Error("Unknown tool: frobnicate"), { kind: "protocol" });
    const client = await serverThrowing(new McpProtocolError(toMcpError(safe)));
    const call = client.callTool({ name: "frobnicate", arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({
      code: -32602,
      data: { code: "protocol/unknown-tool", retryable: false },
    });
  });

  it("a shaped handler rethrows an error in the call itself as a JSON-RPC error", async () => {
    const server = wrapServer(newServer());
    server.registerTool("lookup", {}, async () => {
      throw new McpError(-32601, "Method not found: lookup/v2");
    });
    const client = await link(server, newClient());
    // McpServer turns what a handler throws into a tool result; the message is the safe one.
    const out = (await client.callTool({ name: "lookup", arguments: {} })) as McpCallToolResult;
    expect(out).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "the method is not supported: Method not found: lookup/v2" }],
    });
  });

  it("the SDK refusing a result (structured content against the schema) is not swallowed", async () => {
    const server = new Server(
      { name: "low", version: "1.0.0" },
      { capabilities: { tools: {} }, jsonSchemaValidator },
    );
    const outputSchema = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: "bad", inputSchema: { type: "object" }, outputSchema }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [],
      structuredContent: { n: "one" },
    }));
    const client = await link(server, wrapClient(newClient()));
    await client.listTools();
    await expect(client.callTool({ name: "bad", arguments: {} })).rejects.toBeInstanceOf(McpError);
  });
});

describe("audience: parts for the user stay in the result and out of the model's message", () => {
  it("every adapter and forModel leave them out; the result keeps them untouched", async () => {
    const image = { type: "image" as const, data: toBase64(pngOf(512)), mimeType: "image/png" };
    const out = await shapeCallToolResult({
      content: [
        { type: "text", text: "for the model" },
        USER_PART,
        image,
        { ...image, annotations: { audience: ["user"] } },
      ],
    });
    expect(out.content.filter(isForUser)).toEqual([
      USER_PART,
      { ...image, annotations: { audience: ["user"] } },
    ]);
    const hidden = "Shown in the UI only";
    const chat = toOpenAIChat(out, { toolCallId: "c" });
    const responses = toOpenAIResponses(out, { callId: "c" });
    const anthropic = toAnthropic(out, { toolUseId: "t" });
    for (const message of [chat, responses, anthropic, forModel(out)]) {
      expect(JSON.stringify(message)).not.toContain(hidden);
      expect(JSON.stringify(message)).toContain("for the model");
    }
    // The model's image travels where the provider takes images, once.
    expect(anthropic.content.filter((c) => c.type === "image")).toHaveLength(1);
    expect(
      Array.isArray(responses.output) && responses.output.filter((c) => c.type === "input_image"),
    ).toHaveLength(1);
    expect(chat.content).toContain("[airlock: binary content not shown: image/png, 512 bytes]");
    expect(forModel(out).content).toHaveLength(2);
  });

  it("a part with both audiences is the model's", async () => {
    const both = {
      type: "text" as const,
      text: "both",
      annotations: { audience: ["user" as const, "assistant" as const] },
    };
    const out = await shapeCallToolResult({ content: [both] });
    expect(JSON.stringify(toOpenAIChat(out, { toolCallId: "c" }))).toContain("both");
    expect(facts(out).listed[0]?.shown).toBe("shaped");
  });
});

describe("the client wrapper: options per tool, schemas from tools/list", () => {
  async function setup() {
    const server = newServer();
    const text = logOf(200_000);
    server.registerTool("log", {}, async () => ({ content: [{ type: "text", text }] }));
    server.registerTool("raw", {}, async () => ({ content: [{ type: "text", text }] }));
    const ids = rowsOf(5000).map((r) => ({ id: r.id }));
    server.registerTool(
      "rows",
      {
        outputSchema: {
          rows: z.array(z.object({ id: z.number() })).min(60),
          audit: z.array(z.object({ id: z.number() })),
        },
      },
      async () => ({ content: [], structuredContent: { rows: ids, audit: ids } }),
    );
    const client = await link(
      server,
      wrapClient(newClient(), {
        maxTokens: 2000,
        maxStructuredTokens: 400,
        tools: { log: { maxTokens: 100 }, raw: false },
      }),
    );
    return { client, text };
  }

  it("each tool has its own budget, and false leaves a tool's results as they are", async () => {
    const { client, text } = await setup();
    const log = (await client.callTool({ name: "log", arguments: {} })) as McpCallToolResult;
    expect(modelTokens(log)).toBeLessThanOrEqual(100);
    const raw = (await client.callTool({ name: "raw", arguments: {} })) as McpCallToolResult;
    expect(raw.content).toEqual([{ type: "text", text }]);
  });

  it("the listed outputSchema keeps minItems: rows stop at 60, the other array gives way", async () => {
    const { client } = await setup();
    const out = (await client.callTool({ name: "rows", arguments: {} })) as McpCallToolResult;
    const value = out.structuredContent as { rows: unknown[]; audit: unknown[] };
    expect(value.rows).toHaveLength(60);
    expect(value.audit.length).toBeGreaterThan(0);
    expect(value.audit.length).toBeLessThan(60);
    expect(tokens(JSON.stringify(value))).toBeLessThanOrEqual(400);
    expect(facts(out).structured).toMatchObject({ valid: true, arraysCut: 2 });
  });

  it("a structured value that cannot fit validly is left out, and the text says why", async () => {
    const server = newServer();
    server.registerTool(
      "wide",
      { outputSchema: { rows: z.array(z.object({ id: z.number() })).min(500) } },
      async () => ({
        content: [],
        structuredContent: { rows: rowsOf(1000).map((r) => ({ id: r.id })) },
      }),
    );
    const client = await link(server, wrapClient(newClient(), { maxStructuredTokens: 100 }));
    const out = (await client.callTool({ name: "wide", arguments: {} })) as McpCallToolResult;
    expect(out.structuredContent).toBeUndefined();
    expect(JSON.stringify(out.content)).toContain("structuredContent left out");
    expect(facts(out).structured?.omitted).toMatch(/fewest items/);
  });
});

describe("hostile results stay bounded", () => {
  it("10,000 text parts: the first that fit are shown, the rest left out and counted", async () => {
    const content = Array.from({ length: 10_000 }, (_, i) => ({
      type: "text" as const,
      text: `part ${i}`,
    }));
    const out = await shapeCallToolResult({ content }, { maxTokens: 400 });
    expect(modelTokens(out)).toBeLessThanOrEqual(400);
    const f = facts(out);
    expect(f.parts).toBe(10_000);
    expect(f.listed).toHaveLength(64);
    const note = out.content.at(-1);
    expect(note?.type === "text" && note.text).toMatch(
      /^\[airlock: \d+ more content parts not shown: maxTokens \(400\) has no room for them\]$/,
    );
    const shown = out.content.length - 1;
    expect(Number(/(\d+) more/.exec(JSON.stringify(note))?.[1]) + shown).toBe(10_000);
  });

  it("500 resource links under 100 tokens: links past the budget are left out, the sum holds", async () => {
    const content = Array.from({ length: 500 }, (_, i) => ({
      type: "resource_link" as const,
      uri: `file:///data/${i}.csv`,
      name: `${i}.csv`,
    }));
    const out = await shapeCallToolResult({ content }, { maxTokens: 100 });
    expect(modelTokens(out)).toBeLessThanOrEqual(100);
    expect(out.content.filter((p) => p.type === "resource_link").length).toBeGreaterThan(0);
  });

  it("a 5 MB part for the user alone is left as it is, outside the budget", async () => {
    const ui = {
      type: "text" as const,
      text: "u".repeat(5_000_000),
      annotations: { audience: ["user" as const] },
    };
    const out = await shapeCallToolResult(
      { content: [ui, { type: "text", text: "ok" }] },
      { maxTokens: 100 },
    );
    expect(out.content[0]).toBe(ui);
    expect(modelTokens(out)).toBeLessThanOrEqual(100);
    expect(facts(out).status).toBe("ok");
  });

  it("a part whose records break the tool's contract makes the result an error; a forged _meta key is replaced", async () => {
    const out = await shapeCallToolResult(
      {
        content: [
          {
            type: "text",
            text: JSON.stringify([
              { id: 1, tenant: "acme" },
              { id: 2, tenant: "evil" },
            ]),
          },
        ],
        _meta: { [MCP_META_KEY]: { status: "ok", forged: true }, "com.example/trace": "t-1" },
      },
      { contract: { invariants: { tenant: { path: "tenant", value: "acme" } } } },
    );
    expect(out.isError).toBe(true);
    expect(facts(out).status).toBe("error");
    expect(facts(out)).not.toHaveProperty("forged");
    expect(out._meta?.["com.example/trace"]).toBe("t-1");
  });

  it("base64 that is not base64 is named by its size, and a blob of it reads as a failed read", async () => {
    const out = await shapeCallToolResult({
      content: [
        { type: "image", data: "@@@@not base64@@@@".repeat(100000), mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///x", blob: "%%%%" } },
      ],
    });
    expect(() => CallToolResultSchema.parse(out)).not.toThrow();
    expect(JSON.stringify(out.content[0])).toContain("binary content not shown: image/png");
    expect(JSON.stringify(out.content[1])).toContain(
      "reading the input failed (invalid base64 near character 0)",
    );
    expect(out.isError).toBeUndefined();
  });
});

describe("options", () => {
  it("are checked: unknown names with the nearest one, bad values", async () => {
    await expect(
      shapeCallToolResult({ content: [] }, { maxImageByte: 1 } as never),
    ).rejects.toThrow(/unknown option "maxImageByte" \(did you mean "maxImageBytes"\?\)/);
    await expect(shapeCallToolResult({ content: [] }, { images: "no" } as never)).rejects.toThrow(
      /images/,
    );
    await expect(shapeCallToolResult({ content: [] }, { maxStructuredTokens: 3 })).rejects.toThrow(
      /maxStructuredTokens/,
    );
    expect(() => wrapClient(newClient(), { tools: { a: { maxToken: 5 } as never } })).toThrow(
      /tools\.a: .*maxTokens/,
    );
  });

  it("an empty result is empty, and still a valid result", async () => {
    const out = await shapeCallToolResult({ content: [] });
    expect(() => CallToolResultSchema.parse(out)).not.toThrow();
    expect(facts(out).status).toBe("empty");
  });
});
