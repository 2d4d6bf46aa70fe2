import {
  type Shaped,
  type ShapeInput,
  shape,
  toAnthropic,
  toMcp,
  toOpenAIChat,
  toOpenAIResponses,
} from "agent-airlock";
import { describe, expect, it } from "vitest";
import { toolLines } from "../helpers/markers.js";

/** A Node error as a tool prints it: a host and a port, frames with absolute paths, a config path. */
const NODE_ERROR = [
  "Error: connect ECONNREFUSED 10.0.3.7:5432",
  "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)",
  "    at Pool.connect (/srv/app/node_modules/pg-pool/index.js:45:11)",
  "while reading /home/deploy/app/config/database.yml for db-primary.internal",
].join("\n");

const LEAKS = ["10.0.3.7", "/srv/app", "/home/deploy", "db-primary.internal", "index.js:45"];

// Every input kind: the same error as text, command output, records, a document, NDJSON, CSV, a
// web page and a Response.
const KINDS: ReadonlyArray<{ title: string; input: () => ShapeInput; records: boolean }> = [
  { title: "plain text", input: () => NODE_ERROR, records: false },
  {
    title: "a command that exited 0",
    input: () => ({ stdout: NODE_ERROR, exitCode: 0 }),
    records: false,
  },
  {
    title: "a JSON array",
    input: () => JSON.stringify([{ id: 1, error: NODE_ERROR }]),
    records: true,
  },
  { title: "a parsed object", input: () => ({ message: NODE_ERROR }), records: true },
  {
    title: "NDJSON",
    input: () =>
      new Response(`${JSON.stringify({ error: NODE_ERROR })}\n`, {
        headers: { "content-type": "application/x-ndjson" },
      }),
    records: true,
  },
  { title: "a 200 Response of text", input: () => new Response(NODE_ERROR), records: false },
  {
    title: "a web page",
    input: () => `<!doctype html><html><body><pre>${NODE_ERROR}</pre></body></html>`,
    records: false,
  },
];

describe("toolError: the output is the tool's error, for every input kind", () => {
  for (const kind of KINDS) {
    it(`${kind.title}: status error, said first, scrubbed`, async () => {
      const shaped = await shape(kind.input(), { toolError: true, tool: "db" });
      expect(shaped.status).toBe("error");
      expect(shaped.meta.error).toEqual({
        code: "tool/failed",
        message: "the tool reported an error",
        kind: "tool",
      });
      if (kind.records) expect(shaped.text).toMatch(/^status: error$|"status":"error"/m);
      else expect(shaped.text).toContain("[airlock: the tool reported an error]");
      for (const leak of LEAKS) expect(shaped.text, leak).not.toContain(leak);
      // The useful part stays.
      expect(shaped.text).toContain("ECONNREFUSED");
    });
  }

  it("negative control: without toolError the same text keeps its hosts and paths", async () => {
    const shaped = await shape(NODE_ERROR, { tool: "db" });
    expect(shaped.status).toBe("ok");
    expect(LEAKS.filter((l) => shaped.text.includes(l)).length).toBeGreaterThan(2);
  });

  it("a frame run becomes one <stack> line; the other lines stay", async () => {
    const shaped = await shape(NODE_ERROR, { toolError: true, untrusted: false });
    expect(toolLines(shaped.text)).toEqual([
      "[airlock: the tool reported an error]",
      "Error: connect ECONNREFUSED <host>",
      "<stack>",
      "while reading <path> for <host>",
    ]);
  });

  it("a JSON envelope stays one JSON object, with status error", async () => {
    const shaped = await shape([{ id: 1 }], {
      toolError: true,
      envelope: "json",
      untrusted: false,
    });
    expect(JSON.parse(shaped.text).status).toBe("error");
  });

  it("secrets are redacted around the scrub", async () => {
    const key = `AKIA${"Q".repeat(4)}${"7".repeat(12)}`;
    const shaped = await shape(`failed with key=${key} at /opt/x/${key}/y`, { toolError: true });
    expect(shaped.text).not.toContain(key);
  });

  it("a failure the input itself shows comes first: the command's exit code", async () => {
    const shaped = await shape({ stdout: "", stderr: "boom", exitCode: 2 }, { toolError: true });
    expect(shaped.meta.error?.message).toBe("command exited with code 2");
  });

  it("stays within maxTokens on a big error", async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `    at f${i} (/srv/app/m${i}.js:1:2)`);
    const shaped = await shape(`Error: boom\n${big.join("\n")}\nfinal /home/u/x`, {
      toolError: true,
      maxTokens: 200,
    });
    expect(shaped.meta.tokens).toBeLessThanOrEqual(200);
    expect(shaped.text).not.toContain("/srv/app");
  });

  it("a line longer than the scrubbed window is scrubbed window by window", async () => {
    const line = Array.from({ length: 300 }, (_, i) => `step ${i} read /var/lib/app/f${i}.db`).join(
      " ",
    );
    expect(line.length).toBeGreaterThan(6000);
    const shaped = await shape(line, { toolError: true, maxTokens: 8000 });
    expect(shaped.text).not.toContain("/var/lib");
    expect(shaped.text).toContain("step 299 read <path>");
  });

  it("is refused when not a boolean, and off by default", async () => {
    await expect(shape("x", { toolError: "yes" as never })).rejects.toThrow(/toolError/);
    expect((await shape(NODE_ERROR)).status).toBe("ok");
  });
});

describe("toolError through every adapter", () => {
  const adapters: ReadonlyArray<
    [string, (s: Shaped) => { text: string; error: boolean | undefined }]
  > = [
    [
      "OpenAI Chat",
      (s) => ({ text: toOpenAIChat(s, { toolCallId: "c" }).content as string, error: undefined }),
    ],
    [
      "OpenAI Responses",
      (s) => ({ text: toOpenAIResponses(s, { callId: "c" }).output as string, error: undefined }),
    ],
    [
      "Anthropic",
      (s) => {
        const block = toAnthropic(s, { toolUseId: "t" });
        return { text: JSON.stringify(block.content), error: block.is_error === true };
      },
    ],
    [
      "MCP",
      (s) => {
        const result = toMcp(s);
        return { text: JSON.stringify(result.content), error: result.isError === true };
      },
    ],
  ];
  for (const [name, adapt] of adapters) {
    it(`${name}: the error is in the text, and flagged where the provider can`, async () => {
      const out = adapt(await shape(NODE_ERROR, { toolError: true }));
      expect(out.text).toContain("[airlock: the tool reported an error]");
      if (out.error !== undefined) expect(out.error).toBe(true);
      const fine = adapt(await shape(NODE_ERROR));
      expect(fine.text).not.toContain("the tool reported an error");
      if (fine.error !== undefined) expect(fine.error).toBe(false);
    });
  }
});
