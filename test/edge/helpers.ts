/** Calling the edge Worker as an agent host would: bearer tokens by tenant, JSON back. */
import { SELF } from "cloudflare:test";
import { inject } from "vitest";

export type Tenant = "acme" | "globex" | "acmePerson";

export const ORIGIN = "https://airlock.test";

export function bearer(tenant: Tenant): Record<string, string> {
  return { authorization: `Bearer ${inject("edgeTokens")[tenant]}` };
}

/** A JSON reply, read field by field in the tests. */
// biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field, as JSON
export type Json = any;

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Json;
}

export async function call(
  path: string,
  init: RequestInit & { tenant?: Tenant } = {},
): Promise<Reply> {
  const { tenant, headers, ...rest } = init;
  const res = await SELF.fetch(`${ORIGIN}${path}`, {
    ...rest,
    headers: { ...(tenant ? bearer(tenant) : {}), ...(headers as Record<string, string>) },
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the test says what it expected
  }
  return { status: res.status, headers: res.headers, body };
}
