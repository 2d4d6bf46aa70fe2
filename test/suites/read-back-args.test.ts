/**
 * read_result's arguments: every bad or oversized argument the issue names is an error result
 * that names it, within a step bound (refused ones before any record or line is looked at),
 * never a throw; pathological greps stay within the call's step budget and say where they
 * stopped. And the schema, in its three forms, against each provider's rules, written out here
 * as a table because the SDKs do not check them offline.
 */
import { Validator } from "@cfworker/json-schema";
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createMemoryStore,
  createResultReader,
  READ_RESULT_TOOL,
  READ_RESULT_TOOL_STRICT,
  readResultZodShape,
  type Shaped,
  shape,
} from "../../src/index.js";
import { numberedLog, shownLines } from "../helpers/read-back.js";
import { o200kCount } from "../helpers/sources.js";

const BUDGET = 600;
const RECORDS = 200_000;

interface Bad {
  readonly title: string;
  /** Arguments, given the handles (and a cursor) of the stored results. */
  readonly args: (h: Handles) => unknown;
  /** What the error must say. */
  readonly says: RegExp;
  /** Refused before any record or line was looked at (else a bounded scan). */
  readonly refused?: boolean;
}

interface Handles {
  readonly records: string;
  readonly text: string;
  readonly command: string;
  readonly cursor: string;
}

const deep = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
};

const BAD: readonly Bad[] = [
  {
    title: "an unknown argument",
    args: (h) => ({ handle: h.records, filter: { a: 1 } }),
    says: /unknown argument "filter"/,
    refused: true,
  },
  {
    title: "an unknown operator (between)",
    args: (h) => ({ handle: h.records, where: { id: { between: [1, 5] } } }),
    says: /unknown operator "between" in where\.id/,
    refused: true,
  },
  {
    title: "a typo of an operator (gtee)",
    args: (h) => ({ handle: h.records, where: { id: { gtee: 5 } } }),
    says: /unknown operator "gtee"/,
    refused: true,
  },
  {
    title: "an unknown field",
    args: (h) => ({ handle: h.records, where: { nope: 1 } }),
    says: /no record has the field "nope" \(fields of the first record: id, msg, level\)/,
  },
  {
    title: "an unknown field in fields",
    args: (h) => ({ handle: h.records, fields: ["id", "titel"] }),
    says: /no record has the field "titel"/,
  },
  {
    title: "cursor with another where",
    args: (h) => ({ handle: h.records, cursor: h.cursor, where: { level: "error" } }),
    says: /the cursor carries its own filter/,
    refused: true,
  },
  {
    title: "cursor with range",
    args: (h) => ({ handle: h.records, cursor: h.cursor, range: { from: 1, to: 2 } }),
    says: /cursor and range both/,
    refused: true,
  },
  {
    title: "a million-character contains needle over 200,000 records",
    args: (h) => ({ handle: h.records, where: { msg: { contains: "x".repeat(1e6) } } }),
    says: /arguments are over 16384 bytes/,
    refused: true,
  },
  {
    title: "a needle just over the cap",
    args: (h) => ({ handle: h.records, where: { msg: { contains: "x".repeat(300) } } }),
    says: /where\.msg\.contains is longer than 256 characters/,
    refused: true,
  },
  {
    title: "an in list of 100,000 values",
    args: (h) => ({
      handle: h.records,
      where: { id: { in: Array.from({ length: 100_000 }, (_, i) => i) } },
    }),
    says: /arguments are over 16384 bytes/,
    refused: true,
  },
  {
    title: "a filter too long for the cursors of its pages",
    args: (h) => ({
      handle: h.records,
      where: Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`f${i}`, "v".repeat(250)])),
    }),
    says: /where and fields are over 4096 characters as JSON/,
    refused: true,
  },
  {
    title: "an in list of 101 values",
    args: (h) => ({
      handle: h.records,
      where: { id: { in: Array.from({ length: 101 }, (_, i) => i) } },
    }),
    says: /where\.id\.in lists more than 100 values/,
    refused: true,
  },
  {
    title: "an in list of 1,000 pairs (it threw fit/budget-too-small)",
    args: (h) => ({
      handle: h.records,
      where: { id: { in: Array.from({ length: 1000 }, (_, i) => [i, i]) } },
    }),
    says: /arguments are over 16384 bytes|nest deeper/,
    refused: true,
  },
  {
    title: "an in list of pairs under the byte cap",
    args: (h) => ({
      handle: h.records,
      where: {
        id: {
          in: [
            [1, 2],
            [3, 4],
          ],
        },
      },
    }),
    says: /where\.id\.in takes strings, numbers, booleans or null/,
    refused: true,
  },
  {
    title: "a 1,000-deep eq object",
    args: (h) => ({ handle: h.records, where: { id: { eq: deep(1000) } } }),
    says: /arguments nest deeper than 8 levels/,
    refused: true,
  },
  {
    title: "a cyclic argument object",
    args: (h) => {
      const a: Record<string, unknown> = { handle: h.records };
      a.where = { id: { eq: a } };
      return a;
    },
    says: /nest deeper than 8 levels/,
    refused: true,
  },
  {
    title: "a getter that throws",
    args: (h) => ({
      handle: h.records,
      get where() {
        throw new Error("boom");
      },
    }),
    says: /arguments could not be read/,
    refused: true,
  },
  {
    title: "gt with a boolean",
    args: (h) => ({ handle: h.records, where: { id: { gt: true } } }),
    says: /where\.id\.gt takes a number or a string/,
    refused: true,
  },
  {
    title: "an empty filter",
    args: (h) => ({ handle: h.records, where: {} }),
    says: /where has no field to test/,
    refused: true,
  },
  {
    title: "a list condition with an unknown operator",
    args: (h) => ({ handle: h.records, where: [{ field: "id", op: "like", value: 1 }] }),
    says: /unknown operator "like"/,
    refused: true,
  },
  {
    title: "fields empty",
    args: (h) => ({ handle: h.records, fields: [] }),
    says: /fields must be a list of 1 to 64/,
    refused: true,
  },
  {
    title: "range backwards",
    args: (h) => ({ handle: h.records, range: { from: 9, to: 3 } }),
    says: /range must be \{ from, to \}/,
    refused: true,
  },
  {
    title: "range past the end",
    args: (h) => ({ handle: h.records, range: { from: RECORDS + 1, to: RECORDS + 5 } }),
    says: /past the last record/,
  },
  {
    title: "pageSize zero",
    args: (h) => ({ handle: h.records, pageSize: 0 }),
    says: /pageSize must be an integer from 1 to 1000/,
    refused: true,
  },
  {
    title: "pageSize too large",
    args: (h) => ({ handle: h.records, pageSize: 1e9 }),
    says: /pageSize must be an integer from 1 to 1000/,
    refused: true,
  },
  {
    title: "pageSize as a string",
    args: (h) => ({ handle: h.records, pageSize: "10" }),
    says: /pageSize must be/,
    refused: true,
  },
  {
    title: "text arguments on records",
    args: (h) => ({ handle: h.records, lines: { from: 1 } }),
    says: /this result is records/,
    refused: true,
  },
  {
    title: "records arguments on text",
    args: (h) => ({ handle: h.text, where: { a: 1 } }),
    says: /this result is text/,
    refused: true,
  },
  {
    title: "records and text arguments together",
    args: (h) => ({ handle: h.text, where: { a: 1 }, grep: "x" }),
    says: /where is for records and grep for text/,
    refused: true,
  },
  {
    title: "arguments that are not an object",
    args: () => ["read_result"],
    says: /arguments must be an object/,
    refused: true,
  },
  {
    title: "no handle",
    args: () => ({ lines: { from: 1 } }),
    says: /handle must be the res_… string/,
    refused: true,
  },
  {
    title: "a forged cursor",
    args: (h) => ({ handle: h.records, cursor: "cur_garbage" }),
    says: /cursor is not one read_result gave out/,
    refused: true,
  },
  {
    title: "a grep backreference",
    args: (h) => ({ handle: h.text, grep: "/(a)\\1/" }),
    says: /backreferences are not supported/,
    refused: true,
  },
  {
    title: "a grep lookahead",
    args: (h) => ({ handle: h.text, grep: "/a(?=b)/" }),
    says: /lookaround is not supported/,
    refused: true,
  },
  {
    title: "a grep lookbehind",
    args: (h) => ({ handle: h.text, grep: "/(?<!a)b/" }),
    says: /lookaround is not supported/,
    refused: true,
  },
  {
    title: "unbounded counted repetition",
    args: (h) => ({ handle: h.text, grep: "/a{1000000}/" }),
    says: /repetition is bounded/,
    refused: true,
  },
  {
    title: "a possessive quantifier",
    args: (h) => ({ handle: h.text, grep: "/a++b/" }),
    says: /possessive quantifiers are not supported/,
    refused: true,
  },
  {
    title: "an unknown regex flag",
    args: (h) => ({ handle: h.text, grep: "/a/x" }),
    says: /flag x is not supported/,
    refused: true,
  },
  {
    title: "an unterminated class",
    args: (h) => ({ handle: h.text, grep: "/[abc/" }),
    says: /unterminated class/,
    refused: true,
  },
  {
    title: "a grep pattern over the cap",
    args: (h) => ({ handle: h.text, grep: "y".repeat(257) }),
    says: /grep must be a string of 1 to 256/,
    refused: true,
  },
  {
    title: "grep and evidence together",
    args: (h) => ({ handle: h.text, grep: "x", evidence: true }),
    says: /two searches/,
    refused: true,
  },
  {
    title: "lines and around together",
    args: (h) => ({ handle: h.text, lines: { from: 1 }, around: 4 }),
    says: /lines and around both/,
    refused: true,
  },
  {
    title: "around line zero",
    args: (h) => ({ handle: h.text, around: 0 }),
    says: /around must be a line number/,
    refused: true,
  },
  {
    title: "lines past the end",
    args: (h) => ({ handle: h.text, lines: { from: 10_000_000 } }),
    says: /line 10000000 is past the last line/,
  },
  {
    title: "an unknown member of lines",
    args: (h) => ({ handle: h.text, lines: { start: 1 } }),
    says: /unknown member "start" of lines/,
    refused: true,
  },
  {
    title: "a section that does not exist",
    args: (h) => ({ handle: h.text, section: "stderr", lines: { from: 1 } }),
    says: /this result has no stderr \(it has text\)/,
  },
  {
    title: "a template that is not a message's id",
    args: (h) => ({ handle: h.text, template: "3f2a9c01" }),
    says: /template must be a message's id from the summary: "m" and 8 hex digits/,
    refused: true,
  },
  {
    title: "a template in capitals",
    args: (h) => ({ handle: h.text, template: "M3F2A9C01" }),
    says: /template must be a message's id/,
    refused: true,
  },
  {
    title: "template and grep together",
    args: (h) => ({ handle: h.text, template: "m3f2a9c01", grep: "x" }),
    says: /grep and template are two searches: pass one of them/,
    refused: true,
  },
  {
    title: "template and evidence together",
    args: (h) => ({ handle: h.text, template: "m3f2a9c01", evidence: true }),
    says: /evidence and template are two searches: pass one of them/,
    refused: true,
  },
  {
    title: "template and around together",
    args: (h) => ({ handle: h.text, template: "m3f2a9c01", around: 5 }),
    says: /around shows one line's context; template lists the lines of a message/,
    refused: true,
  },
  {
    title: "a template on records",
    args: (h) => ({ handle: h.records, template: "m3f2a9c01" }),
    says: /this result is records/,
    refused: true,
  },
  {
    title: "summary with another argument",
    args: (h) => ({ handle: h.text, summary: true, lines: { from: 1 } }),
    says: /summary: true reads the whole summary and takes no argument but the handle \(not lines\)/,
    refused: true,
  },
  {
    title: "summary with a template",
    args: (h) => ({ handle: h.text, summary: true, template: "m3f2a9c01" }),
    says: /takes no argument but the handle \(not template\); to read a message's lines, pass its id as template/,
    refused: true,
  },
  {
    title: "summary as a string",
    args: (h) => ({ handle: h.text, summary: "yes" }),
    says: /summary must be true or false/,
    refused: true,
  },
  {
    title: "summary on records",
    args: (h) => ({ handle: h.records, summary: true }),
    says: /summary: true reads the summary of a text result; this result is records/,
    refused: true,
  },
  {
    title: "a section that is not a stream",
    args: (h) => ({ handle: h.command, section: "stdwhat" }),
    says: /section must be "stdout", "stderr" or "text"/,
    refused: true,
  },
];

describe("read_result: bad and oversized arguments are error results", () => {
  const handles = { records: "", text: "", command: "", cursor: "" };
  const store = createMemoryStore({ maxChars: 128 << 20 });
  beforeAll(async () => {
    const rows = Array.from({ length: RECORDS }, (_, i) => ({
      id: i,
      msg: `event ${i} handled`,
      level: i % 1000 === 1 ? "error" : "info",
    }));
    const records = await shape(rows, { store, maxTokens: BUDGET });
    handles.records = records.meta.handle as string;
    handles.cursor = records.meta.records?.cursor as string;
    handles.text = (await shape(numberedLog(300_000).text, { store, maxTokens: BUDGET })).meta
      .handle as string;
    handles.command = (
      await shape(
        { stdout: numberedLog(100_000).text, stderr: "boom\n", exitCode: 1 },
        { store, maxTokens: BUDGET },
      )
    ).meta.handle as string;
    expect(Object.values(handles).every((h) => h.length > 0)).toBe(true);
  }, 120_000);

  it.each(BAD.map((b) => [b.title, b] as const))(
    "%s",
    async (_, bad) => {
      const read = createResultReader({ store, maxTokens: BUDGET });
      const page = await read(bad.args(handles));
      expect(page.status).toBe("error");
      expect(page.meta.error?.code).toBe("tool/invalid-input");
      expect(page.text).toMatch(bad.says);
      expect(await o200kCount(page.text)).toBeLessThanOrEqual(BUDGET);
      const steps = page.meta.read?.steps ?? Number.NaN;
      // Refused arguments cost no step; a field looked for costs at most a pass over the records.
      if (bad.refused) expect(steps).toBe(0);
      else expect(steps).toBeLessThanOrEqual(3 * RECORDS);
    },
    30_000,
  );

  it("the same where with its cursor is applied; contains matches array elements; numeric strings compare as numbers", async () => {
    const read = createResultReader({ store, maxTokens: BUDGET });
    const first = await read({
      handle: handles.records,
      where: { level: "error", id: { lt: "150000" } },
      fields: "id",
    });
    const next = first.meta.next?.args as { cursor: string };
    const again = await read({
      handle: handles.records,
      cursor: next.cursor,
      where: { level: "error", id: { lt: "150000" } },
    });
    expect(again.status).not.toBe("error");
    const rows = (await import("../helpers/read-back.js")).dataOf(
      `${first.text}\n${again.text}`,
    ) as Array<{ id: number }>;
    expect(rows.every((r) => r.id % 1000 === 1 && r.id < 150_000)).toBe(true);
  });

  it("a grep that backtracking engines take exponential time on stays within the step budget, says where it stopped and moves on", async () => {
    const s = createMemoryStore();
    const lines = Array.from({ length: 40 }, (_, i) => `L${i + 1} ${"a".repeat(3000)}`);
    const text = lines.join("\n");
    const handle = (await shape(text, { store: s, maxTokens: 300 })).meta.handle as string;
    const maxSteps = 200_000;
    const read = createResultReader({ store: s, maxTokens: 2000, maxSteps });
    const perPattern: number[] = [];
    for (const grep of ["/(a+)+b/", "/(a|a)*b/", "/(a*)*$x/", "/^(a|aa)+$c/"]) {
      let args: unknown = { handle, grep };
      let calls = 0;
      let searched = 0;
      while (args !== undefined) {
        const page: Shaped = await read(args);
        expect(page.status, grep).not.toBe("error");
        expect(page.meta.read?.steps ?? 0, grep).toBeLessThanOrEqual(maxSteps + 10_000);
        expect(shownLines(page.text), grep).toEqual([]);
        searched++;
        args = page.meta.next?.args;
        calls++;
        expect(calls, grep).toBeLessThanOrEqual(lines.length + 1);
        if (args !== undefined) {
          expect(page.meta.read?.stopped, grep).toBe(true);
          expect(page.text, grep).toContain("the search stopped at its step bound");
        }
      }
      perPattern.push(searched);
    }
    // The bound was what ended calls: the costliest patterns took many.
    expect(Math.max(...perPattern)).toBeGreaterThan(5);
    // A negative control for the bound: the same search with room enough runs in one call.
    const roomy = createResultReader({ store: s, maxTokens: 2000, maxSteps: 50_000_000 });
    const once = await roomy({ handle, grep: "/(a+)+b/" });
    expect(once.meta.read?.stopped).toBeUndefined();
    expect(once.meta.next).toBeUndefined();
  }, 60_000);
});

/** A JSON Schema node, for the rule checks. */
type Schema = Record<string, unknown>;

function children(s: Schema): Schema[] {
  const out: Schema[] = [];
  for (const p of Object.values((s.properties as Record<string, Schema> | undefined) ?? {}))
    out.push(p);
  if (s.items && typeof s.items === "object") out.push(s.items as Schema);
  for (const k of ["anyOf", "oneOf", "allOf"])
    for (const b of (s[k] as Schema[] | undefined) ?? []) out.push(b);
  return out;
}

function walk(s: Schema, visit: (node: Schema, depth: number) => void, depth = 0): void {
  visit(s, depth);
  for (const c of children(s))
    walk(
      c,
      visit,
      depth + (c.type === "object" || (Array.isArray(c.type) && c.type.includes("object")) ? 1 : 0),
    );
}

const isObject = (s: Schema) =>
  s.type === "object" || (Array.isArray(s.type) && s.type.includes("object"));
/** Keywords OpenAI's strict mode is documented to accept (a subset, to be safe). */
const STRICT_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "anyOf",
  "description",
  "const",
]);

/** Each provider's rules for a tool's input schema, as a table: [provider, rule, check]. */
const RULES: ReadonlyArray<readonly [string, string, (s: Schema) => boolean]> = [
  ["anthropic", "the top level is an object", (s) => s.type === "object"],
  [
    "anthropic",
    "no oneOf, anyOf, allOf, not or enum at the top level",
    (s) => !["oneOf", "anyOf", "allOf", "not", "enum"].some((k) => k in s),
  ],
  ["mcp", "the top level is type object", (s) => s.type === "object"],
  [
    "mcp",
    "no combinator at the top level (clients reject it)",
    (s) => !["oneOf", "anyOf", "allOf", "not", "enum"].some((k) => k in s),
  ],
  [
    "mcp",
    "the SDK's Tool schema accepts it",
    (s) => ToolSchema.safeParse({ name: "read_result", inputSchema: s }).success,
  ],
];

const STRICT_RULES: ReadonlyArray<readonly [string, (s: Schema) => boolean]> = [
  ["the root is an object, not a combinator", (s) => s.type === "object" && !("anyOf" in s)],
  [
    "every object has additionalProperties: false",
    (s) => {
      let ok = true;
      walk(s, (n) => {
        if (isObject(n) && n.additionalProperties !== false) ok = false;
      });
      return ok;
    },
  ],
  [
    "every object requires all its properties",
    (s) => {
      let ok = true;
      walk(s, (n) => {
        if (!isObject(n)) return;
        const props = Object.keys((n.properties as object) ?? {});
        const req = (n.required as string[]) ?? [];
        if (props.length !== req.length || props.some((p) => !req.includes(p))) ok = false;
      });
      return ok;
    },
  ],
  [
    "only keywords strict mode accepts",
    (s) => {
      let ok = true;
      walk(s, (n) => {
        for (const k of Object.keys(n)) if (!STRICT_KEYWORDS.has(k)) ok = false;
      });
      return ok;
    },
  ],
  [
    "objects nest at most 5 deep",
    (s) => {
      let max = 0;
      walk(s, (_, d) => {
        if (d > max) max = d;
      });
      return max <= 5;
    },
  ],
  [
    "at most 100 properties in all",
    (s) => {
      let n = 0;
      walk(s, (node) => {
        n += Object.keys((node.properties as object) ?? {}).length;
      });
      return n <= 100;
    },
  ],
  [
    "every property but the handle takes null (optional)",
    (s) =>
      Object.entries(s.properties as Record<string, Schema>).every(([name, p]) => {
        const types = Array.isArray(p.type)
          ? p.type
          : p.anyOf
            ? (p.anyOf as Schema[]).map((b) => b.type)
            : [p.type];
        return name === "handle" ? !types.includes("null") : types.includes("null");
      }),
  ],
];

/** The schema read_result shipped with before issue 16: the negative control of the table. */
const OLD_SCHEMA: Schema = {
  type: "object",
  properties: { handle: { type: "string" }, cursor: { type: "string" } },
  anyOf: [{ required: ["handle"] }, { required: ["cursor"] }],
  additionalProperties: false,
};

describe("read_result's schema against the providers' rules", () => {
  const plain = READ_RESULT_TOOL.inputSchema as unknown as Schema;
  const strict = READ_RESULT_TOOL_STRICT.inputSchema as unknown as Schema;
  const zodJson = z.toJSONSchema(z.object(readResultZodShape(z))) as Schema;

  it.each(RULES.map(([p, r, f]) => [`${p}: ${r}`, f] as const))("%s", (_, check) => {
    expect(check(plain)).toBe(true);
    expect(check(strict)).toBe(true);
    expect(check(zodJson)).toBe(true);
    // The negative control: the old schema breaks the top-level rules.
    if (!/SDK|top level is/.test(_)) expect(check(OLD_SCHEMA)).toBe(false);
  });

  it.each(STRICT_RULES.map(([r, f]) => [r, f] as const))("openai strict: %s", (_, check) => {
    expect(check(strict)).toBe(true);
  });

  it("the strict rules catch a schema that breaks them (negative control)", () => {
    const failing = STRICT_RULES.filter(([, f]) => !f(plain)).map(([r]) => r);
    expect(failing).toEqual(
      expect.arrayContaining([
        "every object requires all its properties",
        "only keywords strict mode accepts",
        "every property but the handle takes null (optional)",
      ]),
    );
    expect(STRICT_RULES.find(([r]) => r.startsWith("the root"))?.[1](OLD_SCHEMA)).toBe(false);
  });

  it("every call a page names is valid under the plain schema, and under strict with the rest null", async () => {
    const store = createMemoryStore();
    const log = numberedLog(200_000).text;
    const firstText = await shape(log, { store, maxTokens: 600 });
    const firstCmd = await shape(
      { stdout: log, stderr: log.slice(0, 30_000), exitCode: 1 },
      { store, maxTokens: 600 },
    );
    const firstRows = await shape(
      Array.from({ length: 3000 }, (_, i) => ({ i })),
      { store, maxTokens: 600 },
    );
    const read = createResultReader({ store, maxTokens: 600 });
    const plainCheck = new Validator(plain as never, "2020-12", false);
    const strictCheck = new Validator(strict as never, "2020-12", false);
    const nulls = Object.fromEntries(
      Object.keys(strict.properties as object).map((k) => [k, null]),
    );
    const calls: Array<Record<string, unknown>> = [];
    for (const first of [firstText, firstCmd, firstRows]) {
      calls.push(first.meta.next?.args as Record<string, unknown>);
      const page = await read(first.meta.next?.args);
      calls.push(page.meta.next?.args as Record<string, unknown>);
    }
    calls.push({ handle: firstText.meta.handle, grep: "ERROR", lines: { from: 3 } });
    // The summary, and a message's pages: each call they name.
    const summary = await read({ handle: firstText.meta.handle, summary: true });
    expect(summary.meta.summary?.symptoms.length).toBeGreaterThan(0);
    calls.push({ handle: firstText.meta.handle, summary: true });
    const id = summary.meta.summary?.symptoms[0]?.id;
    calls.push({ handle: firstText.meta.handle, template: id });
    const template = await read({ handle: firstText.meta.handle, template: id, pageSize: 1 });
    calls.push(template.meta.next?.args as Record<string, unknown>);
    for (const args of calls) {
      expect(args, JSON.stringify(args)).toBeDefined();
      expect(plainCheck.validate(args).valid, JSON.stringify(args)).toBe(true);
      // OpenAI strict sends every property: the ones it does not mean are null.
      const filled: Record<string, unknown> = { ...nulls, ...args };
      if (filled.lines) filled.lines = { to: null, ...(filled.lines as object) };
      expect(strictCheck.validate(filled).valid, JSON.stringify(filled)).toBe(true);
      const a = await read(args);
      const b = await read(filled);
      expect(b.text).toBe(a.text);
    }
  }, 60_000);

  it("the zod shape parses what the plain schema takes and refuses what it refuses", () => {
    const schema = z.object(readResultZodShape(z));
    expect(
      schema.safeParse({ handle: "res_x", lines: { from: 3, to: 9 }, grep: "/a/i" }).success,
    ).toBe(true);
    expect(
      schema.safeParse({ handle: "res_x", cursor: "cur_x", where: { n: { gte: 3 } }, pageSize: 50 })
        .success,
    ).toBe(true);
    expect(schema.safeParse({ lines: { from: 1 } }).success).toBe(false);
    expect(schema.safeParse({ handle: "res_x", lines: { from: 0 } }).success).toBe(false);
    expect(schema.safeParse({ handle: "res_x", section: "stdwhat" }).success).toBe(false);
    expect(schema.safeParse({ handle: "res_x", pageSize: 5000 }).success).toBe(false);
    expect(schema.safeParse({ handle: "res_x", summary: true }).success).toBe(true);
    expect(
      schema.safeParse({ handle: "res_x", template: "m3f2a9c01", lines: { from: 9 } }).success,
    ).toBe(true);
    expect(schema.safeParse({ handle: "res_x", summary: "yes" }).success).toBe(false);
    expect(schema.safeParse({ handle: "res_x", template: "3f2a9c01" }).success).toBe(false);
  });

  it("the plain schema takes summary and a template id and refuses a malformed id", () => {
    const check = new Validator(plain as never, "2020-12", false);
    expect(check.validate({ handle: "res_x", summary: true }).valid).toBe(true);
    expect(check.validate({ handle: "res_x", template: "m3f2a9c01" }).valid).toBe(true);
    expect(check.validate({ handle: "res_x", template: "m3f2a9c0" }).valid).toBe(false);
    expect(check.validate({ handle: "res_x", summary: 1 }).valid).toBe(false);
    const strictCheck = new Validator(strict as never, "2020-12", false);
    const nulls = Object.fromEntries(
      Object.keys(strict.properties as object).map((k) => [k, null]),
    );
    expect(Object.keys(nulls)).toEqual(expect.arrayContaining(["summary", "template"]));
    expect(strictCheck.validate({ ...nulls, handle: "res_x", summary: true }).valid).toBe(true);
    expect(strictCheck.validate({ ...nulls, handle: "res_x", template: "m3f2a9c01" }).valid).toBe(
      true,
    );
  });
});
