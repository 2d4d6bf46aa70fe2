import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonValue, parseJson } from "../../src/decode/json.js";
import { AirlockError } from "../../src/errors/airlock-error.js";
import {
  type Aggregates,
  createAggregator,
  type FieldAggregate,
} from "../../src/keep/aggregate.js";
import { describeAggregates, outline } from "../../src/render/describe.js";

function aggregate(records: readonly JsonValue[], limits = {}): Aggregates {
  const agg = createAggregator(limits);
  for (const record of records) agg.add(record);
  return agg.result();
}

function field(a: Aggregates, path: string): FieldAggregate {
  const found = a.fields.filter((f) => f.path === path);
  expect(found, `one field "${path}"`).toHaveLength(1);
  return found[0] as FieldAggregate;
}

/** GitHub-issue-like records whose counts follow from `i` (see the expectations beside them). */
function issues(n: number): JsonValue[] {
  const names = ["bug", "p1", "docs", "ui", "ci", "perf", "infra"];
  const out: JsonValue[] = [];
  for (let i = 1; i <= n; i++) {
    const day = i % 332; // 2026-01-02 plus 0..331 days: up to 2026-11-30
    out.push({
      id: i,
      node_id: `I_kw${i.toString(36)}`,
      title: `Issue ${i}`,
      state: i % 7 === 0 ? "closed" : "open",
      locked: i % 100 === 0,
      comments: i % 13,
      user: { login: `user${i % 40}`, site_admin: false },
      labels: i % 2 === 0 ? [{ name: names[i % 7] as string }] : [],
      milestone: i % 5 === 0 ? { title: "v1" } : null,
      updated_at: new Date(Date.UTC(2026, 0, 2 + day, 12)).toISOString(),
      body: "x".repeat(200 + (i % 50)),
    });
  }
  return out;
}

describe("createAggregator: exact counts on a small dataset", () => {
  // Every expectation below is counted by hand from these five records.
  const records: JsonValue[] = [
    {
      id: 1,
      state: "open",
      locked: false,
      comments: 2,
      user: { login: "ana" },
      labels: [{ name: "bug" }, { name: "p1" }],
      tags: ["a", "b"],
      closed_at: null,
      updated_at: "2026-11-29T10:00:00Z",
    },
    {
      id: 2,
      state: "closed",
      locked: false,
      comments: 0,
      user: { login: "bo" },
      labels: [{ name: "bug" }],
      tags: [],
      closed_at: "2026-11-01",
      updated_at: "2026-11-01T00:00:00Z",
    },
    {
      id: 3,
      state: "open",
      locked: true,
      comments: 5,
      user: { login: "ana" },
      labels: [],
      tags: ["a"],
      closed_at: null,
      updated_at: "2026-10-30T23:59:59Z",
    },
    {
      id: 4,
      state: "open",
      comments: 1.5,
      user: null,
      labels: [{ name: "docs" }],
      updated_at: "2026-01-02",
    },
    {
      id: 5,
      state: null,
      locked: false,
      comments: "n/a",
      user: { login: "cy" },
      labels: [{ name: "bug" }, { name: "docs" }],
      tags: ["b", 3],
      updated_at: "not a date",
    },
  ];
  const a = aggregate(records);

  it("finds the fields in first-seen order", () => {
    expect(a.records).toBe(5);
    expect(a.fieldsCapped).toBe(false);
    expect(a.fields.map((f) => f.path)).toEqual([
      "id",
      "state",
      "locked",
      "comments",
      "user",
      "user.login",
      "labels",
      "labels[*].name",
      "tags",
      "tags[*]",
      "closed_at",
      "updated_at",
    ]);
  });

  it("counts presence, nulls and types", () => {
    expect(field(a, "state")).toMatchObject({
      present: 5,
      nulls: 1,
      types: { string: 4, null: 1 },
    });
    expect(field(a, "locked")).toMatchObject({ present: 4, nulls: 0, types: { boolean: 4 } });
    expect(field(a, "locked").boolean).toEqual({ true: 1, false: 3 });
    expect(field(a, "user")).toMatchObject({ present: 5, nulls: 1, types: { object: 4, null: 1 } });
    expect(field(a, "closed_at")).toMatchObject({
      present: 3,
      nulls: 2,
      types: { null: 2, string: 1 },
    });
    expect(field(a, "tags")).toMatchObject({ present: 4, types: { array: 4 } });
  });

  it("keeps numbers of a mixed field apart from its strings", () => {
    const comments = field(a, "comments");
    expect(comments.types).toEqual({ number: 4, string: 1 });
    expect(comments.number).toMatchObject({ min: 0, max: 5, count: 4, integer: false });
    expect(comments.number?.mean).toBeCloseTo((2 + 0 + 5 + 1.5) / 4, 12);
    expect(comments.string?.top).toEqual([{ value: "n/a", count: 1, exact: true }]);
    expect(field(a, "id").number).toMatchObject({
      min: 1,
      max: 5,
      mean: 3,
      integer: true,
      distinct: 5,
    });
  });

  it("counts the top values exactly, most frequent first", () => {
    expect(field(a, "state").string).toMatchObject({
      distinct: 2,
      distinctCapped: false,
      top: [
        { value: "open", count: 3, exact: true },
        { value: "closed", count: 1, exact: true },
      ],
      minLength: 4,
      maxLength: 6,
    });
    expect(field(a, "user.login").present).toBe(4);
    expect(field(a, "user.login").string?.top.map((t) => [t.value, t.count])).toEqual([
      ["ana", 2],
      ["bo", 1],
      ["cy", 1],
    ]);
  });

  it("counts array elements under [*]", () => {
    const names = field(a, "labels[*].name");
    expect(names.present).toBe(6); // 2 + 1 + 0 + 1 + 2 labels
    expect(names.string?.top.map((t) => [t.value, t.count])).toEqual([
      ["bug", 3],
      ["docs", 2],
      ["p1", 1],
    ]);
    const tags = field(a, "tags[*]");
    expect(tags).toMatchObject({ present: 5, types: { string: 4, number: 1 } });
    expect(tags.string?.top.map((t) => [t.value, t.count])).toEqual([
      ["a", 2],
      ["b", 2],
    ]);
    // An array of objects leads to its objects' keys; `labels[*]` holds nothing else.
    expect(a.fields.some((f) => f.path === "labels[*]")).toBe(false);
  });

  it("reads ISO dates as a time range, `recent` being the 30 days that end with `to`'s day", () => {
    // 2026-11-29 and 2026-11-01 are within the 30 days ending on 2026-11-29; 2026-10-30 is the
    // 31st day back; "not a date" is no time.
    expect(field(a, "updated_at").time).toEqual({
      from: "2026-01-02",
      to: "2026-11-29T10:00:00Z",
      count: 4,
      recent: 2,
    });
    expect(field(a, "closed_at").time).toEqual({
      from: "2026-11-01",
      to: "2026-11-01",
      count: 1,
      recent: 1,
    });
  });
});

describe("createAggregator: paths", () => {
  it("stops at maxDepth, counting each .key and each [*] as a step", () => {
    const record = { a: { b: { c: 1 } }, arr: [[1, 2], [3]], objs: [{ x: { y: 1 } }] };
    expect(aggregate([record], { maxDepth: 2 }).fields.map((f) => f.path)).toEqual([
      "a",
      "a.b",
      "arr",
      "arr[*]",
      "objs",
    ]);
    const deeper = aggregate([record]);
    expect(deeper.fields.map((f) => f.path)).toEqual([
      "a",
      "a.b",
      "a.b.c",
      "arr",
      "arr[*]",
      "arr[*][*]",
      "objs",
      "objs[*].x",
    ]);
    expect(field(deeper, "arr[*]").types).toEqual({ array: 2 });
    expect(field(deeper, "arr[*][*]").number).toMatchObject({ min: 1, max: 3, count: 3 });
  });

  it('aggregates records that are not objects under "" and [*]', () => {
    const a = aggregate([5, "x", [1, { k: 2 }], null]);
    expect(field(a, "")).toMatchObject({
      present: 4,
      nulls: 1,
      types: { number: 1, string: 1, array: 1, null: 1 },
    });
    expect(field(a, "[*]")).toMatchObject({ present: 1, types: { number: 1 } });
    expect(field(a, "[*].k").number).toMatchObject({ min: 2, max: 2, count: 1 });
  });

  it("writes a key holding a dot as-is (two fields may then share a path)", () => {
    const a = aggregate([{ "a.b": 1, a: { b: 2 } }]);
    expect(a.fields.map((f) => f.path)).toEqual(["a.b", "a", "a.b"]);
  });

  it("keeps __proto__ as an ordinary key", () => {
    const parsed = parseJson('{"__proto__": {"polluted": true}, "a": 1}');
    if (!parsed.ok) throw new Error("fixture");
    const a = aggregate([parsed.value]);
    expect(a.fields.map((f) => f.path)).toEqual(["__proto__", "__proto__.polluted", "a"]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("stays within maxDepth on 1,000 levels of nesting", () => {
    let deep: JsonValue = 1;
    for (let i = 0; i < 1000; i++) deep = i % 2 ? { k: deep } : [deep];
    const a = aggregate([{ deep }]);
    expect(a.fields.length).toBeLessThanOrEqual(3);
  });
});

describe("createAggregator: bounds", () => {
  it("caps distinct values at maxDistinct, exactly up to it", () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => ({ v: `v${i}` }));
    expect(field(aggregate(values(10), { maxDistinct: 10 }), "v").string).toMatchObject({
      distinct: 10,
      distinctCapped: false,
    });
    expect(field(aggregate(values(11), { maxDistinct: 10 }), "v").string).toMatchObject({
      distinct: 10,
      distinctCapped: true,
    });
    expect(
      field(aggregate([...values(10), ...values(10)], { maxDistinct: 10 }), "v").string,
    ).toMatchObject({ distinct: 10, distinctCapped: false });
  });

  it("marks top counts exact while the distinct values fit the counters, upper bounds after", () => {
    const stream = [..."aaaaaaaaaabbbbbcccdd"].map((v) => ({ v }));
    const fits = field(aggregate(stream, { trackedValues: 4, topK: 4 }), "v").string;
    expect(fits?.top).toEqual([
      { value: "a", count: 10, exact: true },
      { value: "b", count: 5, exact: true },
      { value: "c", count: 3, exact: true },
      { value: "d", count: 2, exact: true },
    ]);
    const over = field(
      aggregate([...stream, { v: "e" }, { v: "f" }, { v: "g" }], { trackedValues: 4, topK: 4 }),
      "v",
    );
    const top = over.string?.top ?? [];
    // The frequent values were never evicted: their counts stay exact.
    expect(top.slice(0, 2)).toEqual([
      { value: "a", count: 10, exact: true },
      { value: "b", count: 5, exact: true },
    ]);
    const truth: Record<string, number> = { a: 10, b: 5, c: 3, d: 2, e: 1, f: 1, g: 1 };
    expect(top.some((t) => !t.exact)).toBe(true);
    for (const t of top) expect(t.count).toBeGreaterThanOrEqual(truth[t.value] ?? 0);
    expect(describeAggregates({ records: 23, fields: [over], fieldsCapped: false })).toMatch(/~\d/);
  });

  it("tracks the first maxFields fields and ignores later new ones", () => {
    const a = aggregate(
      [
        { a: 1, b: 2, c: 3, d: 4 },
        { e: 5, a: 6 },
      ],
      { maxFields: 3 },
    );
    expect(a.fieldsCapped).toBe(true);
    expect(a.fields.map((f) => [f.path, f.present])).toEqual([
      ["a", 2],
      ["b", 1],
      ["c", 1],
    ]);
  });

  it("does not track strings longer than maxValueChars as values", () => {
    const s = field(aggregate([{ s: "short" }, { s: "x".repeat(121) }]), "s").string;
    expect(s).toMatchObject({ distinct: 1, long: 1, minLength: 5, maxLength: 121, count: 1 });
  });

  it("streams 1,000,000 tiny records in bounded memory", () => {
    const agg = createAggregator();
    for (let i = 0; i < 1_000_000; i++) {
      agg.add({
        i,
        s: i % 3 === 0 ? "a" : "b",
        f: i % 2 === 0,
        t: `2026-01-${String(1 + (i % 28)).padStart(2, "0")}`,
      });
    }
    const a = agg.result();
    expect(a.records).toBe(1_000_000);
    expect(field(a, "i").number).toMatchObject({
      min: 0,
      max: 999_999,
      distinct: 1000,
      distinctCapped: true,
    });
    expect(field(a, "i").number?.mean).toBeCloseTo(499_999.5, 6);
    expect(field(a, "s").string?.top).toEqual([
      { value: "b", count: 666_666, exact: true },
      { value: "a", count: 333_334, exact: true },
    ]);
    expect(field(a, "f").boolean).toEqual({ true: 500_000, false: 500_000 });
    expect(field(a, "t").time).toEqual({
      from: "2026-01-01",
      to: "2026-01-28",
      count: 1_000_000,
      recent: 1_000_000,
    });
  });

  it("refuses limits out of range with options/invalid", () => {
    for (const limits of [{ maxDepth: 0 }, { maxDepth: 65 }, { topK: 100 }, { maxFields: 1.5 }]) {
      expect(() => createAggregator(limits)).toThrow(AirlockError);
    }
    expect(() => createAggregator({ maxDistinct: -1 })).toThrow(
      expect.objectContaining({
        code: "options/invalid",
        message: "aggregate: maxDistinct must be an integer from 1 to 10000000 (got -1)",
      }),
    );
    expect(() => outline({}, { maxDepth: 100 })).toThrow(AirlockError);
  });
});

describe("createAggregator: time values", () => {
  const time = (values: string[]) => field(aggregate(values.map((t) => ({ t }))), "t").time;

  it("accepts strict ISO-8601 only", () => {
    const accepted = [
      "2024-02-29",
      "2026-01-02T10:00",
      "2026-01-02 10:00:00",
      "2026-01-02T10:00:00.123456789Z",
      "2026-01-02T10:00:00+0530",
      "0001-01-01T00:00:00Z",
    ];
    for (const t of accepted) expect(time([t])?.count, t).toBe(1);
    const refused = [
      "2026-02-29",
      "2026-02-30",
      "2026-04-31",
      "2026-13-01",
      "2026-01-02T24:00:00Z",
      "2026-01-02T10:60",
      "20260102",
      "2026-1-2",
      "2026-01-02T10:00:00+25:00",
      "2026-01-02T10:00:00z",
      " 2026-01-02",
    ];
    for (const t of refused) expect(time([t]), t).toBeUndefined();
  });

  it("orders by instant (zones applied, no zone read as UTC) and keeps the strings as written", () => {
    expect(
      time(["2026-01-02T08:00:00Z", "2026-01-02T12:00:00+05:00", "2026-01-02T10:00:00"]),
    ).toMatchObject({
      from: "2026-01-02T12:00:00+05:00",
      to: "2026-01-02T10:00:00",
    });
    expect(time(["0001-01-01T00:00:00Z", "1970-01-01"])).toMatchObject({
      from: "0001-01-01T00:00:00Z",
    });
  });

  it("counts `recent` over the days ending with the latest, in any arrival order", () => {
    // Days after 2026-01-01: the latest is day 100, so days 71..100 are recent: 100, 71, 99,
    // 100, 85 and 71 (6 of 11); 70 is the 31st day back.
    const days = [50, 100, 71, 70, 99, 10, 100, 85, 5, 70, 71];
    const iso = (d: number) => new Date(Date.UTC(2026, 0, 1 + d, d % 24)).toISOString();
    expect(time(days.map(iso))).toMatchObject({ count: days.length, recent: 6 });
    // The window moves forward past everything seen before: nothing old is left in it.
    expect(time([...days.map(iso), iso(400)])).toMatchObject({ recent: 1 });
  });
});

describe("describeAggregates", () => {
  const a = aggregate(issues(1412));

  it("leads with categories and time ranges, then ranges, then ids and text", () => {
    const text = describeAggregates(a);
    expect(text.length).toBeLessThanOrEqual(1200);
    const lines = text.split("\n");
    expect(lines[0]).toBe("1,412 records, 15 fields");
    // 1412 / 7 = 201 closed; 1412 / 100 = 14 locked.
    expect(lines).toContain("state: open 1,211, closed 201");
    expect(lines).toContain("locked: false 1,398, true 14");
    // Labels: one on each even record (706), named by i % 7 over the even i.
    expect(text).toMatch(/^labels\[\*\]\.name: \w+ 101, /m);
    expect(text).toMatch(
      /^updated_at: 2026-01-02T12:00:00.000Z – 2026-11-29T12:00:00.000Z \(\d+% in the last 30 days of that range\)$/m,
    );
    expect(lines).toContain("comments: 0–12, mean 5.99");
    // 1,412 milestones: 282 objects (every fifth), 1,130 null.
    expect(lines).toContain("milestone: null 1,130");
    expect(lines).toContain("id: 1,000+ distinct numbers 1–1,412");
    expect(lines).toContain("body: text, 200–249 chars");
    expect(lines).toContain("user.site_admin: always false");
    const at = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));
    expect(at("state:")).toBeLessThan(at("comments:"));
    expect(at("updated_at:")).toBeLessThan(at("comments:"));
    expect(at("comments:")).toBeLessThan(at("id:"));
    // An object always present says nothing of its own.
    expect(at("user:")).toBe(-1);
  });

  it("stays within maxChars and says how many fields it left out", () => {
    for (const maxChars of [0, 10, 30, 60, 120, 300, 700]) {
      const text = describeAggregates(a, { maxChars });
      expect(text.length, String(maxChars)).toBeLessThanOrEqual(maxChars);
    }
    const short = describeAggregates(a, { maxChars: 120 });
    expect(short).toMatch(/^1,412 records, 15 fields\n/);
    expect(short).toMatch(/\n… \d+ more fields$/);
    expect(describeAggregates(a, { fields: 1 }).split("\n")).toEqual([
      "1,412 records, 15 fields",
      "state: open 1,211, closed 201",
      "… 12 more fields",
    ]);
  });

  it("writes missing fields, mixed types and nulls", () => {
    const text = describeAggregates(
      aggregate([{ v: 1, w: null }, { v: "a", w: null }, { v: "b", w: null }, { x: 1 }]),
    );
    expect(text).toContain("v: string 2, number 1; ");
    expect(text).toContain("; missing 1");
    expect(text).toContain("w: always null; missing 1");
  });
});

describe("outline", () => {
  it("outlines a GitHub issue", () => {
    const issue: JsonValue = {
      id: 1,
      user: { login: "octocat", id: 2 },
      labels: [
        { name: "bug", color: "f00" },
        { name: "p1", color: "0f0", default: true },
      ],
      assignees: [],
      milestone: null,
      body: "text",
      "content-type": "issue",
      reactions: { "+1": 3 },
    };
    expect(outline(issue)).toBe(
      '{id: number, user: {login: string, id: number}, labels: [{name: string, color: string, default?: boolean}], assignees: [], milestone: null, body: string, "content-type": string, reactions: {"+1": number}}',
    );
    expect(outline([{ body: "a" }, { body: null }, 3])).toBe("[{body: string|null}|number]");
  });

  it("caps depth at 6 on 1,000 levels of nesting, without recursion trouble", () => {
    let deep: JsonValue = 1;
    for (let i = 0; i < 1000; i++) deep = { a: deep };
    expect(outline(deep)).toBe("{a: {a: {a: {a: {a: {a: {…}}}}}}}");
    let list: JsonValue = 1;
    for (let i = 0; i < 1000; i++) list = [list];
    expect(outline(list, { maxDepth: 2 })).toBe("[[[…]]]");
  });

  it("caps keys per object and the length of the whole", () => {
    const wide: { [key: string]: JsonValue } = {};
    for (let i = 0; i < 100; i++) wide[`k${i}`] = i;
    expect(outline(wide)).toMatch(/^\{k0: number, .*k39: number, …\+60 keys\}$/);
    expect(outline(wide, { maxKeys: 0 })).toBe("{…+100 keys}");
    const huge: { [key: string]: JsonValue } = {};
    for (let i = 0; i < 40; i++) huge[`key${i}`] = wide;
    const text = outline(huge, { maxChars: 500 });
    expect(text.length).toBeLessThanOrEqual(500);
    expect(text.endsWith("…")).toBe(true);
  });
});

describe("property: aggregates equal a brute-force recount", () => {
  type Row = { [key: string]: JsonValue };
  const rows = fc.array(
    fc.dictionary(
      fc.constantFrom("a", "b", "c"),
      fc.oneof(
        fc.constant(null),
        fc.integer({ min: -3, max: 3 }),
        fc.constantFrom("x", "y", "z", "w"),
        fc.boolean(),
      ),
    ),
    { maxLength: 60 },
  );

  const recounted = (
    run: (rows: Row[], limits: { trackedValues: number; topK: number }) => Aggregates,
  ) =>
    fc.property(rows, fc.integer({ min: 1, max: 5 }), (records, tracked) => {
      const a = run(records, { trackedValues: tracked, topK: tracked });
      for (const key of ["a", "b", "c"]) {
        const values = records.filter((r) => key in r).map((r) => r[key]);
        const f = a.fields.find((x) => x.path === key);
        if (values.length === 0) {
          if (f !== undefined) return false;
          continue;
        }
        if (f === undefined || f.present !== values.length) return false;
        if (f.nulls !== values.filter((v) => v === null).length) return false;
        const numbers = values.filter((v): v is number => typeof v === "number");
        if (numbers.length > 0) {
          const n = f.number;
          if (!n || n.count !== numbers.length) return false;
          if (n.min !== Math.min(...numbers) || n.max !== Math.max(...numbers)) return false;
        }
        for (const t of f.string?.top ?? []) {
          const truth = values.filter((v) => v === t.value).length;
          if (t.exact ? t.count !== truth : t.count < truth) return false;
        }
        const distinct = new Set(values.filter((v) => typeof v === "string")).size;
        if (distinct <= tracked && f.string?.top.some((t) => !t.exact)) return false;
      }
      return a.records === records.length;
    });

  it("holds for createAggregator", () => {
    fc.assert(recounted(aggregate), { numRuns: 1000, seed: 20260102 });
  });

  it("negative control: an aggregator that loses the 8th record is caught", () => {
    const lossy = (records: Row[], limits: { trackedValues: number; topK: number }) => {
      const agg = createAggregator(limits);
      records.forEach((r, i) => {
        if (i !== 7) agg.add(r);
      });
      return { ...agg.result(), records: records.length };
    };
    expect(fc.check(recounted(lossy), { numRuns: 1000, seed: 20260102 }).failed).toBe(true);
  });
});
