/**
 * MCP test fixtures, built in memory so the same suites run in Node, Chromium and workerd: the
 * real SDK's `McpServer` and `Client` linked by `InMemoryTransport`, both validating JSON Schema
 * with @cfworker/json-schema (no code generation, as in a Worker), and the big parts the issue
 * names, generated from a seed.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { type McpCallToolResult, type McpContent, toOpenAIChat } from "agent-airlock";
import { MCP_META_KEY, type McpShapedFacts } from "agent-airlock/mcp";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

export const jsonSchemaValidator = new CfWorkerJsonSchemaValidator();

export function newServer(): McpServer {
  return new McpServer({ name: "fixture-server", version: "1.0.0" }, { jsonSchemaValidator });
}

export function newClient(): Client {
  return new Client({ name: "fixture-client", version: "1.0.0" }, { jsonSchemaValidator });
}

/** Connects a server and a client over a linked in-memory pair. */
export async function link<C extends { connect(t: never): Promise<void> }>(
  server: { connect(t: never): Promise<void> },
  client: C,
): Promise<C> {
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide as never);
  await client.connect(clientSide as never);
  return client;
}

/** A deterministic byte generator (xorshift32), so big parts are the same on every run. */
export function bytesOf(length: number, seed = 7): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A PNG of `length` bytes: the signature, then noise (enough for every sniffer). */
export function pngOf(length: number): Uint8Array {
  const bytes = bytesOf(length);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A log of about `bytes` bytes: INFO lines with one ERROR near the middle. */
export function logOf(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line =
      i === 30_000
        ? `2026-03-01T10:00:${String(i % 60).padStart(2, "0")}Z ERROR payment service: connection refused after 3 retries`
        : `2026-03-01T10:00:${String(i % 60).padStart(2, "0")}Z INFO request ${i} served in ${i % 97} ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

/** `count` rows of a query result. */
export function rowsOf(count: number): Array<{ id: number; name: string; tags: string[] }> {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    name: `customer ${i + 1}`,
    tags: i % 10 === 0 ? ["vip", "eu"] : ["eu"],
  }));
}

export const tokens = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });

/**
 * The tokens of what the model reads of a result, counted part by part with gpt-tokenizer: the
 * text each part is written as in a text-only message (a link's line, a placeholder), parts for
 * the user alone not counted.
 */
export function modelTokens(result: McpCallToolResult): number {
  let total = 0;
  for (const part of result.content) {
    if (isForUser(part) || part.type === "image" || part.type === "audio") continue;
    total += tokens(toOpenAIChat({ content: [part] }, { toolCallId: "t" }).content);
  }
  return total;
}

export function isForUser(part: McpContent): boolean {
  const audience = part.annotations?.audience;
  return Array.isArray(audience) && !audience.includes("assistant");
}

/** What shaping said of a result, under its `_meta` key. */
export const facts = (result: McpCallToolResult): McpShapedFacts =>
  (result._meta as Record<string, unknown>)[MCP_META_KEY] as McpShapedFacts;
