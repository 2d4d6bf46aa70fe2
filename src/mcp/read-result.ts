/**
 * `read_result` on an MCP server in one call: the tool's name, description and the zod form of
 * its arguments (built with the host's own `z`, so zod is never this package's dependency), and
 * a handler that answers every page as a `CallToolResult`. A wrong argument or an expired handle
 * is an error result the model can read, never a thrown error.
 */
import { toMcp } from "../adapters/index.js";
import { AirlockError } from "../errors/airlock-error.js";
import {
  createResultReader,
  READ_RESULT_TOOL,
  type ResultReaderOptions,
  readResultZodShape,
  type ZodLike,
} from "../reader.js";
import { MCP_META_KEY } from "./meta.js";
import { type McpServerLike, WRAPPED } from "./server.js";

export interface ReadResultToolOptions extends ResultReaderOptions {
  /** The host's zod (`import { z } from "zod"`), version 3.25 or 4. */
  readonly z: ZodLike;
}

/**
 * Registers `read_result` on an SDK `McpServer` (wrapped or not: a page is shaped already, and
 * is not shaped again), reading from the store the server's tools keep their results in. Each
 * page is a `CallToolResult` whose text names the next call; `_meta["dev.airlock/shaped"]`
 * carries the page's status, tokens and next arguments.
 *
 * @example
 * const store = createMemoryStore();
 * const server = wrapServer(new McpServer({ name: "db", version: "1.0.0" }), { store });
 * registerReadResult(server, { store, z, maxTokens: 2000 });
 */
export function registerReadResult(server: McpServerLike, options: ReadResultToolOptions): unknown {
  const { z, ...reader } = options ?? ({} as ReadResultToolOptions);
  if (typeof z?.object !== "function" || typeof z?.string !== "function") {
    throw new AirlockError(
      "options/invalid",
      'registerReadResult: z must be the host\'s zod (`import { z } from "zod"`)',
    );
  }
  const readResult = createResultReader(reader);
  const target =
    ((server as unknown as Record<symbol, unknown>)[WRAPPED] as McpServerLike | undefined) ??
    server;
  const config = { description: READ_RESULT_TOOL.description, inputSchema: readResultZodShape(z) };
  return target.registerTool(READ_RESULT_TOOL.name, config, (async (args: unknown) => {
    const page = await readResult(args);
    const facts = {
      status: page.status,
      tokens: page.meta.tokens,
      maxTokens: page.meta.maxTokens,
      ...(page.meta.next ? { next: page.meta.next.args } : {}),
    };
    return { ...toMcp(page), _meta: { [MCP_META_KEY]: facts } };
  }) as never);
}
