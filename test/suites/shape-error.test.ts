import {
  CallToolResultSchema,
  ErrorCode,
  JSONRPCErrorResponseSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import {
  AirlockError,
  DEFAULT_MAX_MESSAGE_LENGTH,
  describeError,
  type SafeError,
  type SafeErrorCode,
  shape,
  shapeError,
  toAnthropic,
  toMcp,
  toMcpError,
} from "agent-airlock";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redact } from "../../src/redact/redact.js";
import { scrubMessage } from "../../src/redact/scrub.js";
import { secretCases } from "../fixtures/secrets.js";

/** A Node-style system error: message, code, syscall. */
function systemError(message: string, code: string, extra: object = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

const ALL_CODES: readonly SafeErrorCode[] = [
  "tool/timeout",
  "tool/unavailable",
  "tool/rate-limited",
  "tool/not-found",
  "tool/permission-denied",
  "tool/invalid-input",
  "tool/server-error",
  "tool/cancelled",
  "tool/failed",
  "protocol/unknown-tool",
  "protocol/invalid-arguments",
  "protocol/unknown-method",
  "protocol/internal-error",
];

function expectBounded(safe: SafeError): void {
  expect(ALL_CODES).toContain(safe.code);
  expect(typeof safe.retryable).toBe("boolean");
  expect(safe.kind).toBe(safe.code.startsWith("protocol/") ? "protocol" : "tool");
  expect(typeof safe.message).toBe("string");
  expect(safe.message.length).toBeGreaterThan(0);
  expect(safe.message.length).toBeLessThanOrEqual(DEFAULT_MAX_MESSAGE_LENGTH);
  expect(safe.message).not.toMatch(/[\r\n]/);
}

interface LeakCase {
  readonly title: string;
  readonly error: unknown;
  /** Fragments that must not be in the message. */
  readonly leaks: readonly string[];
  /** Fragments the message must keep (the useful part). */
  readonly keeps?: readonly string[];
}

const LEAKS: LeakCase[] = [
  // Stack frames
  {
    title: "JS stack in a thrown string",
    error:
      "TypeError: x is undefined\n    at foo (/home/alice/app/src/x.js:10:5)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
    leaks: ["/home/alice", "x.js:10:5", "at foo", "task_queues"],
    keeps: ["x is undefined"],
  },
  {
    title: "JS frame inside a one-line message",
    error: new Error(
      "boom at handler (/srv/app/index.js:1:2) at async run (file:///srv/app/main.mjs:4:9)",
    ),
    leaks: ["/srv/app", "index.js:1:2", "main.mjs", "handler ("],
    keeps: ["boom"],
  },
  {
    title: "Python traceback: the exception line is kept, the frames are not",
    error:
      'Traceback (most recent call last):\n  File "/opt/app/main.py", line 12, in <module>\n    run()\n  File "/opt/app/db.py", line 40, in run\n    cur.execute(q)\npsycopg2.OperationalError: could not connect to server: Connection refused',
    leaks: ["/opt/app", 'File "', "line 12", "cur.execute"],
    keeps: ["could not connect to server"],
  },
  {
    title: "Python frame inside a one-line message",
    error: new Error('KeyError raised in File "/usr/lib/python3/site.py", line 7, in load'),
    leaks: ["/usr/lib", "site.py", "line 7"],
    keeps: ["KeyError"],
  },
  {
    title: "Java stack trace",
    error:
      "java.lang.IllegalStateException: queue full\n\tat com.acme.Queue.push(Queue.java:42)\n\tat com.acme.Main.main(Main.java:7)\nCaused by: java.io.IOException: disk",
    leaks: ["Queue.java:42", "com.acme.Queue.push", "Main.java"],
    keeps: ["queue full"],
  },
  {
    title: "Go panic with goroutine trace",
    error:
      "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/home/bob/go/src/app/main.go:12 +0x1d\nexit status 2",
    leaks: ["/home/bob", "main.go:12", "+0x1d", "goroutine"],
    keeps: ["index out of range"],
  },
  {
    title: "C# stack trace",
    error:
      "System.InvalidOperationException: Sequence contains no elements\n   at System.Linq.Enumerable.First[TSource](IEnumerable`1 source)\n   at Acme.Billing.Run() in C:\\build\\Acme\\Billing.cs:line 42",
    leaks: ["Billing.cs", "C:\\build", "Enumerable.First"],
    keeps: ["Sequence contains no elements"],
  },
  // Paths
  {
    title: "POSIX path of a macOS home in an ENOENT",
    error: systemError(
      "ENOENT: no such file or directory, open '/Users/carol/secret-project/config.json'",
      "ENOENT",
      { errno: -2, syscall: "open", path: "/Users/carol/secret-project/config.json" },
    ),
    leaks: ["/Users", "carol", "secret-project"],
  },
  {
    title: "POSIX paths in prose",
    error: new Error("cannot read /var/lib/app/data.db: database is locked (cwd=/home/dev/svc)"),
    leaks: ["/var/lib", "data.db", "/home/dev"],
    keeps: ["database is locked", "<path>"],
  },
  {
    title: "Windows path with spaces",
    error: new Error(
      "could not open 'C:\\Users\\Dave Smith\\AppData\\Local\\app\\cache.json' for writing",
    ),
    leaks: ["Users", "Dave", "Smith", "AppData", "cache.json"],
    keeps: ["could not open '<path>' for writing"],
  },
  {
    title: "Windows path with forward slashes, unquoted",
    error: new Error("failed to load D:/deploy/acme-prod/settings.ini now"),
    leaks: ["deploy", "acme-prod", "settings.ini"],
    keeps: ["failed to load <path> now"],
  },
  {
    title: "UNC share path",
    error: new Error("cannot open \\\\fileserver01\\finance\\reports\\q3.xlsx"),
    leaks: ["fileserver01", "finance", "q3.xlsx"],
  },
  {
    title: "file:// URL",
    error: new Error("import of file:///home/erin/work/mod.js failed"),
    leaks: ["/home/erin", "mod.js"],
  },
  // SQL
  {
    title: "knex: SQL, then the database's message after ' - '",
    error: new Error(
      'insert into "users" ("email", "password_hash") values ($1, $2) returning "id" - duplicate key value violates unique constraint "users_email_key"',
    ),
    leaks: ["insert into", "password_hash", "values ("],
    keeps: ["<sql>", "duplicate key value violates unique constraint"],
  },
  {
    title: "MySQL syntax error quoting the statement after near",
    error: new Error(
      "ER_PARSE_ERROR: You have an error in your SQL syntax; check the manual for the right syntax to use near 'FROM accounts WHERE owner = 'x'' at line 1",
    ),
    leaks: ["accounts", "owner ="],
    keeps: ["error in your SQL syntax"],
  },
  {
    title: "quoted SELECT inside a message",
    error: new Error(
      "query \"SELECT id, ssn FROM patients WHERE name = 'bob'\" timed out after 30000 ms",
    ),
    leaks: ["ssn", "patients", "bob"],
    keeps: ["timed out"],
  },
  {
    title: "bare UPDATE and DELETE statements",
    error: new Error("UPDATE accounts SET balance = 0 WHERE id = 7 failed: deadlock detected"),
    leaks: ["accounts", "balance"],
  },
  {
    title: "DDL",
    error: new Error("DROP TABLE audit_log_2024 is not allowed"),
    leaks: ["audit_log_2024"],
  },
  // Hosts and addresses
  {
    title: "IPv4 with port",
    error: new Error("upstream 10.12.0.7:5432 closed the stream"),
    leaks: ["10.12.0.7", "5432"],
    keeps: ["upstream <host> closed the stream"],
  },
  {
    title: "IPv4 without port, and CIDR",
    error: new Error("timeout connecting to 52.1.2.3 from subnet 192.168.10.0/24"),
    leaks: ["52.1.2.3", "192.168.10.0"],
    keeps: ["timeout connecting to <host>"],
  },
  {
    title: "IPv6: loopback with port, bracketed, zoned, full",
    error: new Error(
      "upstreams ::1:6379, [fd00:ec2::254]:80, fe80::1ff:fe23:4567:890a%eth0 and 2001:0db8:85a3:0000:0000:8a2e:0370:7334 all failed",
    ),
    leaks: ["::1", "fd00", "fe80", "2001:0db8", "8a2e", "eth0", "6379"],
    keeps: ["upstreams <host>, <host>, <host> and <host> all failed"],
  },
  {
    title: "internal DNS names",
    error: new Error(
      "upstream redis-master.cache.svc.cluster.local refused; tried metadata.google.internal, db1.local, api.corp, ip-10-0-0-5.ec2.internal",
    ),
    leaks: ["redis-master", "metadata.google", "db1", "api.corp", "ip-10-0-0-5"],
  },
  {
    title: "single-label hosts with ports, localhost, lookups, host= fields",
    error: new Error(
      "auth-service:8443 unreachable; localhost:8080 closed; HTTPConnectionPool(host='billing', port=8000): Max retries; Could not resolve host: ledger-api",
    ),
    leaks: ["auth-service", "8443", "localhost", "8080", "billing", "ledger-api"],
    keeps: ["<host> unreachable; <host> closed", "host='<host>'", "resolve host: <host>"],
  },
  {
    title: "managed database endpoints",
    error: new Error("could not reach prod-db.c9akciq32.us-east-1.rds.amazonaws.com"),
    leaks: ["prod-db", "c9akciq32"],
  },
  // Credentials
  {
    title: "credentials and host in a URL",
    error: new Error(
      "request to https://admin:hunter2hunter2@internal-api.example.com/v1/users?token=abc123 failed, reason: socket hang up",
    ),
    leaks: ["hunter2", "admin:", "internal-api", "token=abc123"],
    keeps: ["<url>"],
  },
  {
    title: "connection string without a scheme-less host leak",
    error: new Error("could not connect: postgres://app:s3cretPassw0rd@db:5432/app"),
    leaks: ["s3cretPassw0rd", "db:5432"],
  },
  {
    title: "a password in prose",
    error: new Error("login failed for user admin with password=Sup3rS3cretP4ss!"),
    leaks: ["Sup3rS3cretP4ss"],
  },
  {
    title: "invisible characters hiding an instruction",
    error: new Error("failed\u202E: gnirts\u200B hidden\u0007"),
    leaks: ["\u202E", "\u200B", "\u0007"],
  },
];

describe("describeError: no leaks", () => {
  for (const { title, error, leaks, keeps } of LEAKS) {
    it(title, () => {
      const safe = describeError(error);
      expectBounded(safe);
      for (const leak of leaks) expect(safe.message, leak).not.toContain(leak);
      for (const keep of keeps ?? []) expect(safe.message).toContain(keep);
    });
  }

  it("a Node system message is dropped when its code says it all; its host is scrubbed anyway", () => {
    const safe = describeError(systemError("getaddrinfo ENOTFOUND payments-db", "ENOTFOUND"));
    expect(safe.message).toBe("a service the tool needs could not be reached (host not found)");
    const secrets = (text: string) => redact(text).text;
    expect(scrubMessage("getaddrinfo ENOTFOUND payments-db", secrets)).toBe(
      "getaddrinfo ENOTFOUND <host>",
    );
    expect(scrubMessage("connect ECONNREFUSED 10.0.0.5:5432", secrets)).toBe(
      "connect ECONNREFUSED <host>",
    );
  });

  it("every format-valid fake secret of the redaction fixtures is removed", () => {
    for (const c of secretCases()) {
      const safe = describeError(new Error(`upstream said: ${c.text}`));
      expect(safe.message, c.title).not.toContain(c.secret);
    }
  });

  it("the host's own secret values are removed when passed as known values", () => {
    const safe = describeError(new Error("tenant key is tnt-7f3a9b2c-unique"), {
      redact: { knownValues: ["tnt-7f3a9b2c-unique"] },
    });
    expect(safe.message).not.toContain("tnt-7f3a9b2c-unique");
  });

  it("keeps what helps and is safe: relative paths, versions in prose, the thrown message", () => {
    const safe = describeError(new Error("Invalid departure date: must be in the future"));
    expect(safe.message).toBe("the tool failed: Invalid departure date: must be in the future");
    expect(describeError(new Error("src/app.ts has no default export")).message).toContain(
      "src/app.ts",
    );
  });

  it("caps the message, at the default and at a chosen length", () => {
    const long = new Error(`${"word ".repeat(500)}end`);
    expect(describeError(long).message.length).toBeLessThanOrEqual(300);
    expect(describeError(long).message.endsWith("…")).toBe(true);
    expect(describeError(long, { maxMessageLength: 64 }).message.length).toBeLessThanOrEqual(64);
  });
});

describe("describeError: classification", () => {
  const table: Array<[string, unknown, SafeErrorCode, boolean]> = [
    // Node system errors
    [
      "ECONNREFUSED",
      systemError("connect ECONNREFUSED 10.0.0.1:80", "ECONNREFUSED"),
      "tool/unavailable",
      true,
    ],
    ["ECONNRESET", systemError("read ECONNRESET", "ECONNRESET"), "tool/unavailable", true],
    ["ETIMEDOUT", systemError("connect ETIMEDOUT 10.0.0.1:443", "ETIMEDOUT"), "tool/timeout", true],
    ["ENOTFOUND", systemError("getaddrinfo ENOTFOUND api", "ENOTFOUND"), "tool/unavailable", true],
    ["EAI_AGAIN", systemError("getaddrinfo EAI_AGAIN api", "EAI_AGAIN"), "tool/unavailable", true],
    ["EPIPE", systemError("write EPIPE", "EPIPE"), "tool/unavailable", true],
    ["EACCES", systemError("EACCES: permission denied", "EACCES"), "tool/permission-denied", false],
    [
      "EPERM",
      systemError("EPERM: operation not permitted", "EPERM"),
      "tool/permission-denied",
      false,
    ],
    ["ENOENT", systemError("ENOENT: no such file", "ENOENT"), "tool/not-found", false],
    ["EINVAL", systemError("EINVAL: invalid argument", "EINVAL"), "tool/invalid-input", false],
    [
      "axios timeout (ECONNABORTED)",
      systemError("timeout of 5000ms exceeded", "ECONNABORTED"),
      "tool/timeout",
      true,
    ],
    [
      "undici connect timeout in the cause",
      new TypeError("fetch failed", {
        cause: systemError("Connect Timeout Error", "UND_ERR_CONNECT_TIMEOUT"),
      }),
      "tool/timeout",
      true,
    ],
    [
      "errno as a string code",
      { errno: "ECONNREFUSED", message: "refused" },
      "tool/unavailable",
      true,
    ],
    // HTTP statuses, from the fields different clients use
    ["HTTP 400", { status: 400, message: "bad request" }, "tool/invalid-input", false],
    ["HTTP 401", { statusCode: 401 }, "tool/permission-denied", false],
    ["HTTP 403", { status: 403 }, "tool/permission-denied", false],
    [
      "HTTP 404 (axios response.status)",
      Object.assign(new Error("Request failed with status code 404"), {
        response: { status: 404 },
      }),
      "tool/not-found",
      false,
    ],
    ["HTTP 408", { status: 408 }, "tool/timeout", true],
    ["HTTP 409", { status: 409 }, "tool/failed", false],
    ["HTTP 410", { status: 410 }, "tool/not-found", false],
    ["HTTP 422", { status: 422 }, "tool/invalid-input", false],
    ["HTTP 425", { status: 425 }, "tool/unavailable", true],
    ["HTTP 429", { status: 429 }, "tool/rate-limited", true],
    [
      "HTTP 500 (AWS $metadata)",
      { name: "InternalFailure", $metadata: { httpStatusCode: 500 } },
      "tool/server-error",
      true,
    ],
    ["HTTP 501", { status: 501 }, "tool/server-error", true],
    ["HTTP 502", { status: 502 }, "tool/unavailable", true],
    ["HTTP 503", { status: 503 }, "tool/unavailable", true],
    ["HTTP 504", { status: 504 }, "tool/timeout", true],
    [
      "HTTP status in a message only",
      new Error("Request failed with status code 503"),
      "tool/unavailable",
      true,
    ],
    // Names
    [
      "DOMException TimeoutError",
      new DOMException("signal timed out", "TimeoutError"),
      "tool/timeout",
      true,
    ],
    [
      "DOMException AbortError",
      new DOMException("This operation was aborted", "AbortError"),
      "tool/cancelled",
      false,
    ],
    ["AbortSignal.abort() reason", AbortSignal.abort().reason, "tool/cancelled", false],
    [
      "AbortError that says timeout",
      Object.assign(new Error("The request timed out"), { name: "AbortError" }),
      "tool/timeout",
      true,
    ],
    [
      "AWS throttling by name",
      Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" }),
      "tool/rate-limited",
      true,
    ],
    [
      "schema issues (zod, valibot, Standard Schema)",
      {
        name: "ZodError",
        message: "[\n  {}\n]",
        issues: [{ path: ["date"], message: "must be in the future" }],
      },
      "tool/invalid-input",
      false,
    ],
    // Fetch failures, worded per runtime
    [
      "Node fetch failed with an errno cause",
      new TypeError("fetch failed", {
        cause: systemError("connect ECONNREFUSED 127.0.0.1:1", "ECONNREFUSED"),
      }),
      "tool/unavailable",
      true,
    ],
    ["Chromium Failed to fetch", new TypeError("Failed to fetch"), "tool/unavailable", true],
    [
      "Firefox NetworkError",
      new TypeError("NetworkError when attempting to fetch resource."),
      "tool/unavailable",
      true,
    ],
    ["Safari Load failed", new TypeError("Load failed"), "tool/unavailable", true],
    [
      "workerd network connection lost (a plain Error)",
      new Error("Network connection lost."),
      "tool/unavailable",
      true,
    ],
    // Node's happy-eyeballs AggregateError
    [
      "AggregateError with a code",
      Object.assign(
        new AggregateError(
          [
            systemError("connect ECONNREFUSED ::1:5432", "ECONNREFUSED"),
            systemError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
          ],
          "",
        ),
        { code: "ECONNREFUSED" },
      ),
      "tool/unavailable",
      true,
    ],
    [
      "AggregateError, code only inside",
      new AggregateError(
        [new Error("x"), systemError("connect ETIMEDOUT", "ETIMEDOUT")],
        "all attempts failed",
      ),
      "tool/timeout",
      true,
    ],
    // Words
    ["rate limit in a string", "rate limit exceeded, retry after 30s", "tool/rate-limited", true],
    ["timed out in a string", "operation timed out", "tool/timeout", true],
    ["anything else", new Error("something broke"), "tool/failed", false],
    [
      "a TypeError that is not a fetch failure",
      new TypeError("x.map is not a function"),
      "tool/failed",
      false,
    ],
    // MCP SDK errors (JSON-RPC codes)
    [
      "McpError unknown tool",
      new McpError(ErrorCode.InvalidParams, "Tool frobnicate not found"),
      "protocol/unknown-tool",
      false,
    ],
    [
      "McpError disabled tool",
      new McpError(ErrorCode.InvalidParams, "Tool frobnicate disabled"),
      "protocol/unknown-tool",
      false,
    ],
    [
      "McpError invalid params",
      new McpError(ErrorCode.InvalidParams, "params.name: expected string"),
      "protocol/invalid-arguments",
      false,
    ],
    [
      "McpError input validation (SEP-1303: a tool error)",
      new McpError(
        ErrorCode.InvalidParams,
        "Input validation error: Invalid arguments for tool book: date must be in the future",
      ),
      "tool/invalid-input",
      false,
    ],
    [
      "McpError method not found",
      new McpError(ErrorCode.MethodNotFound, "Method not found"),
      "protocol/unknown-method",
      false,
    ],
    [
      "McpError internal error",
      new McpError(ErrorCode.InternalError, "boom"),
      "protocol/internal-error",
      false,
    ],
    [
      "McpError request timeout (client side)",
      new McpError(ErrorCode.RequestTimeout, "Request timed out"),
      "tool/timeout",
      true,
    ],
    [
      "McpError connection closed (client side)",
      new McpError(ErrorCode.ConnectionClosed, "Connection closed"),
      "tool/unavailable",
      true,
    ],
  ];
  for (const [title, error, code, retryable] of table) {
    it(`${title} → ${code}`, () => {
      const safe = describeError(error);
      expectBounded(safe);
      expect(safe.code).toBe(code);
      expect(safe.retryable).toBe(retryable);
    });
  }

  it("this runtime's own fetch failure (a closed local port) is tool/unavailable", async () => {
    let thrown: unknown;
    try {
      await fetch("http://127.0.0.1:65533/", { signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeDefined();
    const safe = describeError(thrown);
    expect(safe.code).toBe("tool/unavailable");
    expect(safe.retryable).toBe(true);
    expect(safe.message).not.toContain("127.0.0.1");
  });

  it("retryable is a property of the code", () => {
    const retryable = new Set([
      "tool/timeout",
      "tool/unavailable",
      "tool/rate-limited",
      "tool/server-error",
    ]);
    for (const code of ALL_CODES) {
      expect(describeError(new Error("x"), { code }).retryable, code).toBe(retryable.has(code));
    }
  });

  it("messages are stable for the common cases", () => {
    expect(
      describeError(systemError("connect ECONNREFUSED 10.0.3.7:5432", "ECONNREFUSED")),
    ).toEqual({
      code: "tool/unavailable",
      retryable: true,
      message: "a service the tool needs could not be reached (connection refused)",
      kind: "tool",
    });
    expect(describeError({ status: 429, message: "Too Many Requests" }).message).toBe(
      "the tool was rate-limited (HTTP 429)",
    );
    expect(
      describeError(new McpError(ErrorCode.InvalidParams, "Tool frobnicate not found")).message,
    ).toBe("no tool with this name exists: Tool frobnicate not found");
    expect(describeError(42).message).toBe("the tool failed (a number was thrown)");
  });

  it("a wrapper's own message is kept over its cause's system message", () => {
    const wrapped = new Error("could not load the user profile", {
      cause: systemError("connect ECONNREFUSED 10.0.0.9:6379", "ECONNREFUSED"),
    });
    const safe = describeError(wrapped);
    expect(safe.code).toBe("tool/unavailable");
    expect(safe.message).toBe(
      "a service the tool needs could not be reached (connection refused): could not load the user profile",
    );
  });
});

describe("describeError: protocol errors and options", () => {
  it("kind: protocol makes an unknown-tool or invalid-arguments error", () => {
    expect(describeError(new Error("Unknown tool: frobnicate"), { kind: "protocol" }).code).toBe(
      "protocol/unknown-tool",
    );
    expect(describeError(new Error("no such tool 'x'"), { kind: "protocol" }).code).toBe(
      "protocol/unknown-tool",
    );
    expect(describeError(new Error("arguments must be an object"), { kind: "protocol" }).code).toBe(
      "protocol/invalid-arguments",
    );
  });

  it("kind: tool turns a JSON-RPC error into the matching tool error", () => {
    const invalid = new McpError(ErrorCode.InvalidParams, "params.x: expected number");
    expect(describeError(invalid, { kind: "tool" }).code).toBe("tool/invalid-input");
    const unknown = new McpError(ErrorCode.InvalidParams, "Unknown tool: x");
    expect(describeError(unknown, { kind: "tool" }).code).toBe("tool/not-found");
  });

  it("code overrides the classification; the message is still scrubbed", () => {
    const safe = describeError(new Error("quota for 10.0.0.1 used up"), {
      code: "tool/rate-limited",
    });
    expect(safe.code).toBe("tool/rate-limited");
    expect(safe.retryable).toBe(true);
    expect(safe.message).not.toContain("10.0.0.1");
  });

  it("invalid options are programmer errors and throw", () => {
    expect(() => describeError(new Error("x"), { kind: "server" as "tool" })).toThrow(AirlockError);
    expect(() => describeError(new Error("x"), { code: "tool/oops" as SafeErrorCode })).toThrow(
      AirlockError,
    );
    expect(() => describeError(new Error("x"), { maxMessageLength: 10 })).toThrow(AirlockError);
  });

  it("toMcpError maps protocol errors to the MCP SDK's JSON-RPC codes", () => {
    const cases: Array<[SafeError, number]> = [
      [describeError(new Error("Unknown tool: x"), { kind: "protocol" }), ErrorCode.InvalidParams],
      [
        describeError(new Error("bad"), { code: "protocol/invalid-arguments" }),
        ErrorCode.InvalidParams,
      ],
      [describeError(new McpError(ErrorCode.MethodNotFound, "nope")), ErrorCode.MethodNotFound],
      [describeError(new McpError(ErrorCode.InternalError, "boom")), ErrorCode.InternalError],
      // A tool error has no JSON-RPC code of its own: internal error, for hosts that need one.
      [describeError(new Error("something broke")), ErrorCode.InternalError],
    ];
    for (const [safe, code] of cases) {
      const error = toMcpError(safe);
      expect(error.code).toBe(code);
      expect(error.message).toBe(safe.message);
      expect(error.data).toEqual({ code: safe.code, retryable: safe.retryable });
      const parsed = JSONRPCErrorResponseSchema.safeParse({ jsonrpc: "2.0", id: 1, error });
      expect(parsed.success).toBe(true);
    }
  });
});

describe("describeError: hostile throwables give bounded results", () => {
  const throwing = {
    get message(): string {
      throw new Error("getter");
    },
    get name(): string {
      throw new Error("getter");
    },
    get code(): string {
      throw new Error("getter");
    },
    get cause(): unknown {
      throw new Error("getter");
    },
    get stack(): string {
      throw new Error("getter");
    },
  };
  const trap = () => {
    throw new Error("trap");
  };
  const hostileProxy = new Proxy(
    {},
    { get: trap, has: trap, getPrototypeOf: trap, ownKeys: trap, getOwnPropertyDescriptor: trap },
  );
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const a = new Error("a at x (/srv/a.js:1:1)");
  const b = new Error("b", { cause: a });
  (a as { cause?: unknown }).cause = b;
  const self = new Error("self");
  (self as { cause?: unknown }).cause = self;
  const aggregate = new AggregateError([], "outer");
  (aggregate as { errors: unknown[] }).errors.push(aggregate);
  let deep: unknown = new Error("root 10.9.8.7");
  for (let i = 0; i < 10_000; i++) deep = new Error(`level ${i}`, { cause: deep });
  const megabyte = `${"/home/u/x ".repeat(100_000)}`;
  const noBreaks = "x".repeat(1 << 20);
  const frozen = Object.freeze(new Error("frozen"));
  const badToString = {
    toString() {
      throw new Error("nope");
    },
  };

  const cases: Array<[string, unknown]> = [
    ["getters that throw", throwing],
    ["a Proxy whose every trap throws", hostileProxy],
    ["a revoked Proxy", revoked],
    ["a circular cause chain", b],
    ["an error that is its own cause", self],
    ["an AggregateError that contains itself", aggregate],
    ["a cause chain 10,000 deep", deep],
    ["a 1 MB message of paths", new Error(megabyte)],
    ["a 1 MB message without spaces or lines", new Error(noBreaks)],
    ["a 1 MB thrown string", megabyte],
    ["a frozen error", frozen],
    ["toString that throws", badToString],
    ["Object.create(null)", Object.create(null)],
    ["a number", 42],
    ["a bigint", 10n],
    ["a boolean", false],
    ["null", null],
    ["undefined", undefined],
    ["a symbol", Symbol("secret")],
    ["a function", () => 1],
    ["an empty string", ""],
    ["an array", [1, 2, 3]],
    ["a message that is not a string", { message: { toString: () => "x" } }],
  ];
  for (const [title, value] of cases) {
    it(title, { timeout: 15_000 }, () => {
      const safe = describeError(value);
      expectBounded(safe);
      expect(safe.message).not.toMatch(/\/home\/u|\/srv\/a\.js|10\.9\.8\.7/);
    });
  }
});

describe("shapeError", () => {
  it("is a fenced result with status error, meta.error and advice", async () => {
    const error = systemError("connect ECONNREFUSED 10.0.3.7:5432", "ECONNREFUSED");
    const shaped = await shapeError(error, { tool: "sql" });
    expect(shaped.status).toBe("error");
    expect(shaped.meta.error).toEqual({
      code: "tool/unavailable",
      message: "a service the tool needs could not be reached (connection refused)",
      retryable: true,
      kind: "tool",
    });
    // A short text with no `<`: the bare fence, no boundary; meta names the tool.
    expect(shaped.text.startsWith("<untrusted-data>\n")).toBe(true);
    expect(shaped.text.endsWith("\n</untrusted-data>")).toBe(true);
    expect(shaped.meta.boundary).toBeUndefined();
    expect(shaped.meta.tool).toBe("sql");
    expect(shaped.text).toContain("tool/unavailable");
    expect(shaped.text).toContain("Retrying the same call later may help.");
    expect(shaped.text).not.toContain("10.0.3.7");
    expect(shaped.meta.tokens).toBeLessThanOrEqual(shaped.meta.maxTokens);
  });

  it("says when retrying will not help", async () => {
    const shaped = await shapeError({ status: 404, message: "no order ORD-9" });
    expect(shaped.meta.error?.retryable).toBe(false);
    expect(shaped.text).toContain("will not help");
    expect(shaped.text).toContain("no order ORD-9");
  });

  it("passes shape options through (untrusted: false leaves the fence out)", async () => {
    const shaped = await shapeError(new Error("x"), { untrusted: false, maxTokens: 128 });
    expect(shaped.meta.boundary).toBeUndefined();
    expect(shaped.text).toBe(
      "Tool error (tool/failed): the tool failed: x.\nRetrying the same call will not help; change the call or try another way.",
    );
  });

  it("toMcp gives isError: true, a valid CallToolResult; toAnthropic gives is_error", async () => {
    const shaped = await shapeError(new Error("disk full at /var/data"));
    const result = toMcp(shaped);
    expect(result.isError).toBe(true);
    expect(CallToolResultSchema.safeParse(result).success).toBe(true);
    expect(result.content[0]?.text).not.toContain("/var/data");
    expect(toAnthropic(shaped, { toolUseId: "toolu_1" }).is_error).toBe(true);
  });

  it("protocol errors say the call was rejected", async () => {
    const shaped = await shapeError(new Error("Unknown tool: frobnicate"), { kind: "protocol" });
    expect(shaped.meta.error?.kind).toBe("protocol");
    expect(shaped.text).toContain("Call rejected (protocol/unknown-tool)");
  });

  it("empty results and cuts are not errors", async () => {
    const empty = await shape("");
    expect(empty.status).toBe("empty");
    expect(empty.meta.error).toBeUndefined();
    const cut = await shape(Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n"), {
      maxTokens: 200,
    });
    expect(cut.status).toBe("partial");
    expect(cut.meta.truncated).toBe(true);
    expect(cut.meta.error).toBeUndefined();
    expect(toMcp(cut).isError).toBeUndefined();
  });
});

describe("describeError: property, planted leaks never survive", () => {
  // Context words have no digits; every planted secret part has some, so they cannot collide.
  const word = fc.stringMatching(/^[a-z]{1,8}$/);
  const context = fc.array(word, { maxLength: 12 }).map((w) => w.join(" "));
  const tag = fc.stringMatching(/^[a-z]{2,5}[0-9]{2,4}$/);
  const octet = fc.integer({ min: 1, max: 254 });
  const hex = fc.stringMatching(/^[0-9a-f]{1,4}$/).filter((h) => /[0-9]/.test(h));

  type Plant = { text: string; secret: string };
  const plants: fc.Arbitrary<Plant> = fc.oneof(
    tag.map((t) => ({ text: `/home/${t}/project/config.yml`, secret: t })),
    tag.map((t) => ({ text: `'/Users/${t}/Library/app.db'`, secret: t })),
    tag.map((t) => ({ text: `/var/lib/${t}/data`, secret: t })),
    tag.map((t) => ({ text: `C:\\Users\\${t}\\AppData\\x.json`, secret: t })),
    fc
      .tuple(octet, octet, octet, octet)
      .map(([a, b, c, d]) => ({ text: `${a}.${b}.${c}.${d}`, secret: `${a}.${b}.${c}.${d}` })),
    fc
      .tuple(octet, octet, fc.integer({ min: 10, max: 65535 }))
      .map(([a, b, p]) => ({ text: `10.${a}.${b}.9:${p}`, secret: `10.${a}.${b}.9` })),
    fc.tuple(hex, hex).map(([x, y]) => ({ text: `fd00:${x}::${y}`, secret: `fd00:${x}::${y}` })),
    tag.map((t) => ({ text: `${t}.svc.cluster.local`, secret: t })),
    tag.map((t) => ({ text: `${t}-db:5432`, secret: `${t}-db` })),
    tag.map((t) => ({ text: `at ${t} (/srv/app/${t}.js:12:7)`, secret: `${t}.js:12:7` })),
    tag.map((t) => ({ text: `File "/opt/${t}.py", line 40, in run`, secret: `${t}.py` })),
    tag.map((t) => ({ text: `at com.acme.${t}.Run(${t}.java:12)`, secret: `${t}.java:12` })),
  );
  const scenario = fc.record({ before: context, plant: plants, after: context });

  type Scenario = { before: string; plant: Plant; after: string };
  const survives = (describe: (e: unknown) => string) => (s: Scenario) => {
    const message = `${s.before} ${s.plant.text} ${s.after}`.trim();
    return !describe(new Error(message)).includes(s.plant.secret);
  };

  it("no planted path, address, host or frame appears in the message", () => {
    fc.assert(
      fc.property(
        scenario,
        survives((e) => describeError(e).message),
      ),
      { numRuns: 400, seed: 3 },
    );
  });

  it("negative control: a describer that only caps the message fails the same property", () => {
    const naive = (e: unknown) => String((e as Error).message).slice(0, 300);
    const result = fc.check(fc.property(scenario, survives(naive)), { numRuns: 400, seed: 3 });
    expect(result.failed).toBe(true);
  });
});

describe("describeError: linear time on pathological messages", () => {
  const MB = 1 << 20;
  const inputs: Array<[string, string]> = [
    ["frame-like lines", "   at x (a:1:2)\n".repeat(MB / 16)],
    ["one long line of 'at ... in'", `at ${" in x".repeat(MB / 5)}`],
    ["drive letters", "C:\\a ".repeat(MB / 5)],
    ["colons and hex", "a:b:".repeat(MB / 4)],
    ["dotted numbers", "1.2.3.".repeat(MB / 6)],
    ["SQL keywords", "SELECT a, FROM ".repeat(MB / 15)],
    ["slashes", "/a".repeat(MB / 2)],
    ["labels", "a.b-c.".repeat(MB / 6)],
    [
      "a traceback of a megabyte",
      `Traceback (most recent call last):\n${'  File "x", line 1\n'.repeat(MB / 20)}`,
    ],
  ];
  for (const [title, message] of inputs) {
    it(title, { timeout: 15_000 }, () => {
      expectBounded(describeError(new Error(message)));
      expectBounded(describeError(message.replaceAll("\n", " ")));
    });
  }
});
