/**
 * The part of `cloudflare:test` the edge tests use, typed here so the repository needs no
 * Cloudflare types package (the pool's own declarations build on it).
 */
declare module "cloudflare:test" {
  /** The Worker under test (demo/worker), reached through a real fetch. */
  export const SELF: { fetch(input: string | Request, init?: RequestInit): Promise<Response> };
  /** Its bindings, as wrangler.jsonc and the Vitest config give them. */
  export const env: Record<string, unknown>;
  /** Runs `callback` inside the Durable Object `stub` points to (the sessions test evicts one). */
  export function runInDurableObject<R>(
    stub: unknown,
    callback: (instance: unknown, state: unknown) => R | Promise<R>,
  ): Promise<R>;
}
