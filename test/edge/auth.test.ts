/**
 * Every route of the edge Worker needs a valid bearer token: without one, or with a wrong
 * one, it answers 401 with a challenge and reaches nothing, whatever the route or method.
 */
import { describe, expect, it } from "vitest";
import { bearer, call } from "./helpers.js";

const ROUTES: Array<[string, string]> = [
  ["POST", "/shape"],
  ["POST", "/read"],
  ["POST", "/mcp"],
  ["GET", "/mcp"],
  ["GET", "/raw/raw_00000000000000000000000000000000"],
  ["GET", "/no-such-route"],
];

const WRONG: Array<{ title: string; authorization?: string }> = [
  { title: "no Authorization header" },
  { title: "an empty bearer", authorization: "Bearer " },
  {
    title: "a token that is not in the map",
    authorization: "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  },
  {
    title: "a valid token under another scheme",
    authorization: `Basic ${bearer("acme").authorization.slice(7)}`,
  },
  {
    title: "a valid token with one character changed",
    authorization: `${bearer("acme").authorization.slice(0, -1)}${bearer("acme").authorization.endsWith("A") ? "B" : "A"}`,
  },
  {
    title: "a valid token's SHA-256 presented as the token",
    authorization: "Bearer 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  },
  {
    title: "a token with a control character",
    authorization: `${bearer("acme").authorization}\u0001x`,
  },
];

describe("edge Worker: 401 without a valid token", () => {
  for (const wrong of WRONG) {
    it(`${wrong.title}: 401 on every route, with a Bearer challenge`, async () => {
      for (const [method, path] of ROUTES) {
        const headers: Record<string, string> = wrong.authorization
          ? { authorization: wrong.authorization }
          : {};
        const res = await call(path, {
          method,
          headers,
          ...(method === "POST" ? { body: '{"handle":"res_000000000000000000000000"}' } : {}),
        });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe('Bearer realm="airlock"');
        expect(res.body.error.code).toMatch(/^auth\/(missing|invalid)$/);
      }
    });
  }

  it("a valid token passes (control: the 401s above are about the token)", async () => {
    const res = await call("/shape", { method: "POST", tenant: "acme", body: "hello" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
  });
});
