import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compileProjection,
  createProjectionStats,
  type Projection,
  type ProjectionStats,
  projectDocument,
  projectRecord,
} from "../../src/contract/project.js";
import type { JsonValue } from "../../src/decode/json.js";
import { AirlockError } from "../../src/errors/airlock-error.js";

type Obj = { [key: string]: JsonValue };

/** A GitHub issue as the REST API returns it: 40 top-level keys, labels with 7 keys each. */
function githubIssue(number: number, labels: string[], pullRequest: boolean): Obj {
  const user = (login: string, id: number): Obj => ({
    login,
    id,
    node_id: `MDQ6VXNlcj${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url: `https://api.github.com/users/${login}`,
    html_url: `https://github.com/${login}`,
    followers_url: `https://api.github.com/users/${login}/followers`,
    repos_url: `https://api.github.com/users/${login}/repos`,
    type: "User",
    user_view_type: "public",
    site_admin: false,
  });
  const base = "https://api.github.com/repos/octo/airlock";
  return {
    url: `${base}/issues/${number}`,
    repository_url: base,
    labels_url: `${base}/issues/${number}/labels{/name}`,
    comments_url: `${base}/issues/${number}/comments`,
    events_url: `${base}/issues/${number}/events`,
    html_url: `https://github.com/octo/airlock/issues/${number}`,
    id: 2_000_000 + number,
    node_id: `I_kwDOabc${number}`,
    number,
    title: `Issue number ${number}`,
    user: user("octocat", 583231),
    labels: labels.map((name, n) => ({
      id: 100 + n,
      node_id: `LA_${n}`,
      url: `${base}/labels/${name}`,
      name,
      color: "d73a4a",
      default: n === 0,
      description: `${name} label`,
    })),
    state: "open",
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: 3,
    created_at: "2024-05-01T10:00:00Z",
    updated_at: "2024-05-02T11:30:00Z",
    closed_at: null,
    author_association: "CONTRIBUTOR",
    active_lock_reason: null,
    sub_issues_summary: { total: 0, completed: 0, percent_completed: 0 },
    body: "Steps to reproduce:\n1. run it\n2. see it fail",
    closed_by: null,
    reactions: {
      url: `${base}/issues/${number}/reactions`,
      total_count: 2,
      "+1": 1,
      "-1": 0,
      laugh: 0,
      hooray: 0,
      confused: 0,
      heart: 1,
      rocket: 0,
      eyes: 0,
    },
    timeline_url: `${base}/issues/${number}/timeline`,
    performed_via_github_app: null,
    state_reason: null,
    draft: false,
    ...(pullRequest
      ? {
          pull_request: {
            url: `${base}/pulls/${number}`,
            html_url: `https://github.com/octo/airlock/pull/${number}`,
            diff_url: `https://github.com/octo/airlock/pull/${number}.diff`,
            patch_url: `https://github.com/octo/airlock/pull/${number}.patch`,
            merged_at: null,
          },
        }
      : { pinned_comment: null }),
    score: 1,
    type: null,
    issue_dependencies_summary: { blocked_by: 0, blocking: 0 },
    closed_reason: null,
    repository: null,
    parent_issue_url: null,
    body_html: null,
    pinned: false,
  };
}

function fields(stats: ProjectionStats): Record<string, number> {
  return Object.fromEntries(stats.fields);
}

function refusal(spec: string | readonly string[]): string {
  try {
    compileProjection(spec);
  } catch (error) {
    expect(error).toBeInstanceOf(AirlockError);
    expect((error as AirlockError).code).toBe("options/invalid");
    return (error as AirlockError).message;
  }
  throw new Error(`accepted: ${JSON.stringify(spec)}`);
}

describe("projectDocument / projectRecord: the GitHub issue search", () => {
  const search: Obj = {
    total_count: 2,
    incomplete_results: false,
    items: [githubIssue(41, ["bug", "p1"], true), githubIssue(42, ["docs"], false)],
  };

  it("the fixture has the shape the counts below assume", () => {
    const items = search.items as Obj[];
    expect(items.map((issue) => Object.keys(issue).length)).toEqual([40, 40]);
    const labels = (items[0] as Obj).labels as Obj[];
    expect(Object.keys(labels[0] as Obj)).toHaveLength(7);
  });

  it("items[*].{number,title,state,labels[*].name,updated_at}", () => {
    const projection = compileProjection("items[*].{number,title,state,labels[*].name,updated_at}");
    expect(projection.recordPath).toEqual(["items"]);
    const stats = createProjectionStats();
    expect(projectDocument(search, projection, stats)).toEqual({
      items: [
        {
          number: 41,
          title: "Issue number 41",
          labels: [{ name: "bug" }, { name: "p1" }],
          state: "open",
          updated_at: "2024-05-02T11:30:00Z",
        },
        {
          number: 42,
          title: "Issue number 42",
          labels: [{ name: "docs" }],
          state: "open",
          updated_at: "2024-05-02T11:30:00Z",
        },
      ],
    });
    // 2 envelope keys + per issue 40 - 5 kept = 35 keys, + 6 label keys for each of 3 labels.
    expect(stats.dropped).toBe(2 + 35 + 35 + 6 * 3);
    expect(stats.fields.get("total_count")).toBe(1);
    expect(stats.fields.get("items[*].body")).toBe(2);
    expect(stats.fields.get("items[*].user")).toBe(2);
    expect(stats.fields.get("items[*].labels[*].color")).toBe(3);
    expect(stats.fields.get("items[*].pull_request")).toBe(1);
    expect(stats.fields.get("items[*].pinned_comment")).toBe(1);
    expect(stats.fields.get("items[*].reactions")).toBe(2);
    // Distinct: 34 issue keys both drop + pull_request + pinned_comment, 6 label keys, 2 envelope.
    expect(stats.fields.size).toBe(34 + 2 + 6 + 2);
    expect(stats.more).toBe(false);
  });

  it("per record, with nested paths; a missing pull_request stays absent", () => {
    const projection = compileProjection([
      "number",
      "user.login",
      "labels[*].name",
      "reactions.{total_count,heart}",
      "pull_request.merged_at",
    ]);
    expect(projection.recordPath).toBeUndefined();
    const [pr, issue] = search.items as Obj[];
    const stats = createProjectionStats();
    expect(projectRecord(pr as Obj, projection, stats)).toEqual({
      number: 41,
      user: { login: "octocat" },
      labels: [{ name: "bug" }, { name: "p1" }],
      reactions: { total_count: 2, heart: 1 },
      pull_request: { merged_at: null },
    });
    expect(projectRecord(issue as Obj, projection)).toEqual({
      number: 42,
      user: { login: "octocat" },
      labels: [{ name: "docs" }],
      reactions: { total_count: 2, heart: 1 },
    });
    // 35 top-level keys, 11 of 12 user keys, 2 labels x 6, 8 of 10 reactions, 4 of 5 pull_request.
    expect(stats.dropped).toBe(35 + 11 + 12 + 8 + 4);
    expect(stats.fields.get("user.avatar_url")).toBe(1);
    expect(stats.fields.get('reactions."+1"')).toBe(1);
  });
});

describe("semantics", () => {
  const cases: Array<{
    title: string;
    spec: string | string[];
    input: JsonValue;
    expected: JsonValue;
  }> = [
    {
      title: "labels[*].name keeps only name in each label",
      spec: "labels[*].name",
      input: { labels: [{ name: "bug", color: "f00" }] },
      expected: { labels: [{ name: "bug" }] },
    },
    {
      title: "paths sharing a prefix merge, in the input's key order",
      spec: "user.login, user.id",
      input: { user: { id: 1, avatar: "x", login: "ana" } },
      expected: { user: { id: 1, login: "ana" } },
    },
    {
      title: "a leaf keeps its whole subtree even when a longer path names inside it",
      spec: "user.login, user",
      input: { user: { id: 1, login: "ana" } },
      expected: { user: { id: 1, login: "ana" } },
    },
    {
      title: "nested groups",
      spec: "{a, b.{c, d.{e}}}",
      input: { a: 1, b: { c: 2, d: { e: 3, f: 4 }, g: 5 }, h: 6 },
      expected: { a: 1, b: { c: 2, d: { e: 3 } } },
    },
    {
      title: "quoted names: dots, spaces and escaped quotes",
      spec: '"a.b", "with space", "say \\"hi\\"", "back\\\\slash"',
      input: { "a.b": 1, a: { b: 2 }, "with space": 3, 'say "hi"': 4, "back\\slash": 5 },
      expected: { "a.b": 1, "with space": 3, 'say "hi"': 4, "back\\slash": 5 },
    },
    {
      title: "whitespace around tokens is ignored",
      spec: "  items [ * ] . { a ,\n b . c }  ",
      input: { items: [{ a: 1, b: { c: 2, d: 3 } }] },
      expected: { items: [{ a: 1, b: { c: 2 } }] },
    },
    {
      title: "arrays of scalars: tags[*] keeps the array",
      spec: "tags[*]",
      input: { tags: ["a", "b"], other: 1 },
      expected: { tags: ["a", "b"] },
    },
    {
      title: "[*] at the end of a path on a non-array keeps the value",
      spec: "tags[*]",
      input: { tags: "a" },
      expected: { tags: "a" },
    },
    {
      title: "[*] that continues, on an object, drops the field",
      spec: "labels[*].name",
      input: { labels: { name: "bug" } },
      expected: {},
    },
    {
      title: "a path through an array without [*] maps over the elements (lenient)",
      spec: "labels.name",
      input: { labels: [{ name: "bug", color: "f00" }, { name: "docs" }] },
      expected: { labels: [{ name: "bug" }, { name: "docs" }] },
    },
    {
      title: "elements that are not objects keep their place and value",
      spec: "labels[*].name",
      input: { labels: ["raw", { name: "bug", color: 1 }, null, 3] },
      expected: { labels: ["raw", { name: "bug" }, null, 3] },
    },
    {
      title: "arrays inside arrays are mapped through",
      spec: "m.a",
      input: { m: [[{ a: 1, b: 2 }], [], [[{ a: 3 }]]] },
      expected: { m: [[{ a: 1 }], [], [[{ a: 3 }]]] },
    },
    {
      title: "a path into null or a scalar keeps it (nothing inside to choose from)",
      spec: "assignee.login, milestone.title",
      input: { assignee: null, milestone: "v1" },
      expected: { assignee: null, milestone: "v1" },
    },
    {
      title: "missing fields stay absent, never null-filled",
      spec: "a, b.c, d[*].e",
      input: { b: {} },
      expected: { b: {} },
    },
    {
      title: "names that are Object.prototype members are ordinary names",
      spec: "toString, constructor.name, hasOwnProperty",
      input: { hasOwnProperty: 1, x: 2 },
      expected: { hasOwnProperty: 1 },
    },
    {
      title: "a scalar record is returned as is",
      spec: "a",
      input: "just text",
      expected: "just text",
    },
  ];
  // Through projectDocument: a one-path spec such as `labels[*].name` sets recordPath (below).
  for (const { title, spec, input, expected } of cases) {
    it(title, () => {
      const out = projectDocument(input, compileProjection(spec));
      expect(out).toEqual(expected);
      expect(JSON.stringify(out)).toBe(JSON.stringify(expected)); // key order too
    });
  }

  it("copies: the input is not mutated and kept subtrees are not shared", () => {
    const input = { user: { login: "ana", tags: ["x"] }, drop: 1 };
    const frozen = JSON.stringify(input);
    const out = projectRecord(input, compileProjection("user")) as Obj;
    expect(JSON.stringify(input)).toBe(frozen);
    expect(out.user).toEqual(input.user);
    expect(out.user).not.toBe(input.user);
    expect((out.user as Obj).tags).not.toBe(input.user.tags);
  });

  it("__proto__ is a plain key: kept, projected into and counted, never the prototype", () => {
    const input = JSON.parse(
      '{"__proto__": {"polluted": true, "k": 1}, "a": {"__proto__": {"x": 1}, "y": 2}}',
    ) as JsonValue;
    const stats = createProjectionStats();
    const out = projectRecord(input, compileProjection("__proto__.polluted, a.y"), stats) as Obj;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"a":{"y":2}}');
    expect(({} as Obj).polluted).toBeUndefined();
    expect(fields(stats)).toEqual({ "__proto__.k": 1, "a.__proto__": 1 });

    const whole = projectRecord(input, compileProjection('"__proto__"')) as Obj;
    expect(Object.getPrototypeOf(whole)).toBe(Object.prototype);
    expect(JSON.stringify(whole)).toBe('{"__proto__":{"polluted":true,"k":1}}');
    const copied = projectRecord(input, compileProjection("a")) as Obj;
    expect(JSON.stringify(copied)).toBe('{"a":{"__proto__":{"x":1},"y":2}}');
    expect(Object.getPrototypeOf(copied.a)).toBe(Object.prototype);
  });

  it("deeply nested arrays do not overflow the stack", () => {
    let deep: JsonValue = [{ a: 1, b: 2 }];
    for (let n = 0; n < 100_000; n++) deep = [deep];
    const stats = createProjectionStats();
    const out = projectRecord({ m: deep }, compileProjection("m.a"), stats) as Obj;
    let inner = out.m;
    for (let n = 0; n < 100_001; n++) inner = (inner as JsonValue[])[0] as JsonValue;
    expect(inner).toEqual({ a: 1 });
    expect(stats.dropped).toBe(1);
    let copied = (projectRecord({ m: deep }, compileProjection("m")) as Obj).m;
    for (let n = 0; n < 100_001; n++) copied = (copied as JsonValue[])[0] as JsonValue;
    expect(copied).toEqual({ a: 1, b: 2 });
  });
});

describe("recordPath and projectDocument", () => {
  it("sets recordPath from a shared name[*]. or [*]. prefix only", () => {
    const recordPath = (spec: string | string[]) => compileProjection(spec).recordPath;
    expect(recordPath("items[*].{a,b}")).toEqual(["items"]);
    expect(recordPath("items[*].a")).toEqual(["items"]);
    expect(recordPath(["items[*].a", "items[*].b.c"])).toEqual(["items"]);
    expect(recordPath('"my items"[*].a')).toEqual(["my items"]);
    expect(recordPath("[*].{a,b}")).toEqual([]);
    expect(recordPath("[*].a, [*].b")).toEqual([]);
    expect(recordPath("number")).toBeUndefined();
    expect(recordPath("items[*]")).toBeUndefined();
    expect(recordPath("items.a")).toBeUndefined();
    expect(recordPath("items[*].a, data[*].b")).toBeUndefined();
    expect(recordPath("items[*].a, items")).toBeUndefined();
    expect(Object.isFrozen(compileProjection("items[*].a").recordPath)).toBe(true);
  });

  it("a one-path spec through an array is read as an envelope: projectRecord applies the rest", () => {
    const projection = compileProjection("labels[*].name");
    expect(projection.recordPath).toEqual(["labels"]);
    expect(projectRecord({ name: "bug", color: "f00" }, projection)).toEqual({ name: "bug" });
    const doc = { labels: [{ name: "bug", color: "f00" }] };
    expect(projectDocument(doc, projection)).toEqual({ labels: [{ name: "bug" }] });
  });

  it("items[*].{a}: keeps the envelope key, drops and counts the others", () => {
    const projection = compileProjection("items[*].{a}");
    const stats = createProjectionStats();
    const items: Obj[] = [{ a: 1, b: 2 }, { b: 3 }, { a: 4 }];
    const doc = { total: 3, items, next: null };
    expect(projectDocument(doc, projection, stats)).toEqual({ items: [{ a: 1 }, {}, { a: 4 }] });
    expect(stats.dropped).toBe(4);
    expect(fields(stats)).toEqual({ total: 1, next: 1, "items[*].b": 2 });
    // The caller that strips the envelope itself projects each record with the per-record tree.
    const records = items.map((item) => projectRecord(item, projection));
    expect(records).toEqual([{ a: 1 }, {}, { a: 4 }]);
  });

  it("items[*].…: an items value that is not an array is dropped", () => {
    const stats = createProjectionStats();
    expect(projectDocument({ items: { a: 1 } }, compileProjection("items[*].a"), stats)).toEqual(
      {},
    );
    expect(fields(stats)).toEqual({ items: 1 });
  });

  it("[*].{…}: a top-level array, stats under [*]; a lone object is one record", () => {
    const projection = compileProjection("[*].{id, user.login}");
    const stats = createProjectionStats();
    const doc: Obj[] = [
      { id: 1, user: { login: "a", id: 9 }, body: "x" },
      { id: 2, user: { login: "b" } },
    ];
    expect(projectDocument(doc, projection, stats)).toEqual([
      { id: 1, user: { login: "a" } },
      { id: 2, user: { login: "b" } },
    ]);
    expect(fields(stats)).toEqual({ "[*].user.id": 1, "[*].body": 1 });
    expect(projectDocument({ id: 3, x: 1 }, projection)).toEqual({ id: 3 });
    expect(projectRecord(doc[0] as Obj, projection)).toEqual({ id: 1, user: { login: "a" } });
  });

  it("without recordPath, projectDocument is projectRecord", () => {
    const projection = compileProjection("a");
    expect(projectDocument({ a: 1, b: 2 }, projection)).toEqual({ a: 1 });
  });

  it("a projection that lost its compiled form (a copy) is recompiled from spec", () => {
    const copy: Projection = { ...compileProjection("items[*].a") };
    expect(projectDocument({ items: [{ a: 1, b: 2 }] }, copy)).toEqual({ items: [{ a: 1 }] });
  });
});

describe("stats", () => {
  it("counts each removed key once per occurrence, a removed subtree as one", () => {
    const stats = createProjectionStats();
    const input: Obj = {
      a: 1,
      b: { deep: { deeper: [1, 2, 3] } },
      labels: [
        { name: "x", color: "1", id: 1 },
        { name: "y", color: "2" },
      ],
    };
    projectRecord(input, compileProjection("a, labels.name"), stats);
    // b (one subtree), color twice, id once.
    expect(stats.dropped).toBe(4);
    expect(fields(stats)).toEqual({ b: 1, "labels[*].color": 2, "labels[*].id": 1 });
  });

  it("accumulates across records and quotes paths that need it", () => {
    const stats = createProjectionStats();
    const projection = compileProjection("keep");
    projectRecord({ keep: 1, "a b": 2, "x.y": { z: 1 } }, projection, stats);
    projectRecord({ keep: 1, "a b": 3 }, projection, stats);
    expect(stats.dropped).toBe(3);
    expect(fields(stats)).toEqual({ '"a b"': 2, '"x.y"': 1 });
  });

  it("keeps at most 64 distinct paths, then counts and sets more", () => {
    const input: Obj = { keep: 0 };
    for (let n = 0; n < 70; n++) input[`k${n}`] = n;
    const stats = createProjectionStats();
    projectRecord(input, compileProjection("keep"), stats);
    projectRecord(input, compileProjection("keep"), stats);
    expect(stats.dropped).toBe(140);
    expect(stats.fields.size).toBe(64);
    expect(stats.more).toBe(true);
    expect(stats.fields.get("k0")).toBe(2); // paths already kept still count
    expect(stats.fields.has("k64")).toBe(false);
  });
});

describe("compileProjection: syntax, normalisation and limits", () => {
  it("normalises the spec, and the normalised spec compiles to itself", () => {
    const specs: Array<[string | string[], string]> = [
      [
        " items [*] . { number , title , labels[*].name } ",
        "items[*].{number,title,labels[*].name}",
      ],
      [["number", "user.login", " labels[*].name "], "number,user.login,labels[*].name"],
      ['"a.b", "plain", "q\\"uote"', '"a.b",plain,"q\\"uote"'],
      ["[*].{a}", "[*].{a}"],
    ];
    for (const [spec, normal] of specs) {
      const projection = compileProjection(spec);
      expect(projection.spec).toBe(normal);
      expect(compileProjection(projection.spec).spec).toBe(normal);
      expect(Object.isFrozen(projection)).toBe(true);
    }
  });

  const errors: Array<{ title: string; spec: string | string[]; message: string }> = [
    { title: "empty", spec: "", message: "projection: spec is empty" },
    { title: "blank", spec: "  \n", message: "projection: spec is empty" },
    { title: "empty list", spec: [], message: "projection: spec is empty" },
    { title: "empty segment", spec: "a..b", message: "expected a field name at offset 2" },
    { title: "trailing dot", spec: "a.", message: "expected a field name at offset 2" },
    { title: "empty path in a list", spec: "a,,b", message: "expected a field name at offset 2" },
    { title: "empty group", spec: "a.{}", message: "expected a field name at offset 3" },
    { title: "unclosed group", spec: "{a,b", message: "expected ',' or '}' at offset 4" },
    { title: "stray brace", spec: "a}", message: "unexpected '}' at offset 1" },
    { title: "unclosed star", spec: "a[*", message: "expected ']' to close '[*]' at offset 3" },
    { title: "not a star", spec: "a[0]", message: "expected '*' in '[*]' at offset 2" },
    { title: "unterminated quote", spec: 'a."b', message: "unterminated quoted name at offset 2" },
    { title: "bad character", spec: "a/b", message: "unexpected '/' at offset 1" },
    {
      title: "a group ends its path",
      spec: "a.{b}.c",
      message: "a group ends its path; unexpected '.' at offset 5",
    },
    { title: "bare [*] alone", spec: "[*]", message: "'[*]' without a name must start every path" },
    { title: "bare [*] not shared", spec: "[*].a, b", message: "'[*]' without a name" },
    { title: "bare [*] inside", spec: "a.[*].b", message: "expected a field name at offset 2" },
    {
      title: "offset in a list names the path",
      spec: ["a", "b..c"],
      message: "at offset 2 of path 1",
    },
  ];
  for (const { title, spec, message } of errors) {
    it(`refuses: ${title}`, () => {
      expect(refusal(spec)).toContain(message);
    });
  }

  it("refuses non-string paths in a list", () => {
    expect(refusal([1 as unknown as string])).toContain("every path must be a string");
  });

  it("limits: 256 paths, 32 levels, 4096 characters", () => {
    const names = (n: number) => Array.from({ length: n }, (_, k) => `f${k}`);
    expect(compileProjection(names(256)).spec.split(",")).toHaveLength(256);
    expect(refusal(names(257))).toContain("more than 256 paths");
    expect(refusal(names(257).join(","))).toContain("more than 256 paths");
    expect(refusal(`x[*].{${names(257).join(",")}}`)).toContain("more than 256 paths");

    expect(compileProjection(Array(32).fill("a").join(".")).recordPath).toBeUndefined();
    expect(refusal(Array(33).fill("a").join("."))).toContain("deeper than 32 levels");
    // A group is a level: items, {, a
    expect(refusal(`${"{".repeat(40)}a${"}".repeat(40)}`)).toContain("deeper than 32 levels");

    expect(compileProjection("a".repeat(4096)).spec).toHaveLength(4096);
    expect(refusal("a".repeat(4097))).toContain("over 4096 characters");
    expect(refusal(["a".repeat(2048), "b".repeat(2048)])).toContain("over 4096 characters");
  });
});

/** A random JSON tree whose objects may carry awkward keys, `__proto__` among them. */
const KEYS = ["a", "b", "id", "name", "x.y", "a b", "__proto__", "$ref", "@t", "n-1"];
function buildObject(entries: Array<[string, JsonValue]>): Obj {
  const out: Obj = {};
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
const { json } = fc.letrec<{ json: JsonValue }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.string({ maxLength: 4 })),
    fc.array(tie("json"), { maxLength: 3 }),
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie("json")), {
        selector: ([key]) => key,
        maxLength: 5,
      })
      .map(buildObject),
  ),
}));
const record = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), json), {
    selector: ([key]) => key,
    minLength: 1,
    maxLength: 6,
  })
  .map(buildObject);

interface Step {
  readonly key: string;
  readonly star: boolean;
}

/** Every key path in the record, through arrays; `[*]` written where the value is an array. */
function pathsOf(value: JsonValue): Step[][] {
  const found = new Map<string, Step[]>();
  const walk = (node: JsonValue, prefix: Step[]) => {
    if (Array.isArray(node)) {
      for (const element of node) walk(element, prefix);
    } else if (node !== null && typeof node === "object") {
      for (const key of Object.keys(node)) {
        const child = node[key] as JsonValue;
        const variants = Array.isArray(child) ? [false, true] : [false];
        for (const star of variants) {
          const path = [...prefix, { key, star }];
          found.set(JSON.stringify(path), path);
          walk(child, path);
        }
      }
    }
  };
  walk(value, []);
  return [...found.values()];
}

function specOf(path: readonly Step[]): string {
  return path
    .map(({ key, star }) => `"${key.replace(/["\\]/g, "\\$&")}"${star ? "[*]" : ""}`)
    .join(".");
}

/**
 * Independent check that `projected` is a sub-structure of `original`: same arrays (length and
 * place), object keys a subsequence of the original's, every kept leaf equal. Returns the keys
 * removed (a removed subtree counts one), or -1 when the structure is not a sub-structure.
 */
function removedKeys(original: JsonValue, projected: JsonValue): number {
  if (Array.isArray(projected)) {
    if (!Array.isArray(original) || original.length !== projected.length) return -1;
    let sum = 0;
    for (let n = 0; n < original.length; n++) {
      const inner = removedKeys(original[n] as JsonValue, projected[n] as JsonValue);
      if (inner < 0) return -1;
      sum += inner;
    }
    return sum;
  }
  if (projected !== null && typeof projected === "object") {
    if (original === null || typeof original !== "object" || Array.isArray(original)) return -1;
    if (Object.getPrototypeOf(projected) !== Object.prototype) return -1;
    const keys = Object.keys(original);
    const kept = Object.keys(projected);
    let at = 0;
    let sum = 0;
    for (const key of keys) {
      if (kept[at] === key) {
        at++;
        const inner = removedKeys(original[key] as JsonValue, projected[key] as JsonValue);
        if (inner < 0) return -1;
        sum += inner;
      } else {
        sum++;
      }
    }
    return at === kept.length ? sum : -1;
  }
  return Object.is(original, projected) ? 0 : -1;
}

/** The value at a path that goes through objects only; undefined when absent or through an array. */
function valueAt(value: JsonValue, path: readonly Step[]): JsonValue | undefined {
  let node: JsonValue | undefined = value;
  for (const { key } of path) {
    if (
      node === null ||
      typeof node !== "object" ||
      Array.isArray(node) ||
      !Object.hasOwn(node, key)
    ) {
      return undefined;
    }
    node = node[key];
  }
  return node;
}

type Projector = (input: JsonValue, projection: Projection, stats: ProjectionStats) => JsonValue;

const scenario = record.chain((input) => {
  const paths = pathsOf(input);
  const maxLength = Math.min(12, paths.length);
  return fc.tuple(fc.constant(input), fc.subarray(paths, { minLength: 1, maxLength }));
});

function holds(project: Projector, input: JsonValue, paths: Step[][]): boolean {
  const stats = createProjectionStats();
  const projected = project(input, compileProjection(paths.map(specOf)), stats);
  const removed = removedKeys(input, projected);
  if (removed < 0 || removed !== stats.dropped) return false;
  let counted = 0;
  for (const times of stats.fields.values()) counted += times;
  if (!stats.more && counted !== stats.dropped) return false;
  // Every named path that reaches through objects only is kept whole and equal.
  for (const path of paths) {
    const expected = valueAt(input, path);
    if (path.some((step) => step.star) || expected === undefined) continue;
    if (JSON.stringify(valueAt(projected, path)) !== JSON.stringify(expected)) return false;
  }
  return true;
}

// Through projectDocument, so a drawn set that shares a `name[*].` prefix is read as written.
describe("property: a projection is a sub-structure of its record", () => {
  const exact: Projector = (input, projection, stats) => projectDocument(input, projection, stats);

  it("keeps named paths whole, never alters a kept value, counts every removed key", () => {
    fc.assert(
      fc.property(scenario, ([input, paths]) => holds(exact, input, paths)),
      { numRuns: 500, seed: 4242 },
    );
  });

  it("negative control: a projector that turns kept numbers into strings is caught", () => {
    const stringify = (value: JsonValue): JsonValue => {
      if (typeof value === "number") return String(value);
      if (Array.isArray(value)) return value.map(stringify);
      if (value === null || typeof value !== "object") return value;
      return buildObject(
        Object.keys(value).map((key) => [key, stringify(value[key] as JsonValue)]),
      );
    };
    const altering: Projector = (input, projection, stats) =>
      stringify(projectDocument(input, projection, stats));
    const result = fc.check(
      fc.property(scenario, ([input, paths]) => holds(altering, input, paths)),
      { numRuns: 500, seed: 4242 },
    );
    expect(result.failed).toBe(true);
  });

  it("negative control: a projector that removes a key without counting it is caught", () => {
    const silent: Projector = (input, projection, stats) => {
      const out = projectDocument(input, projection, stats);
      if (out !== null && typeof out === "object" && !Array.isArray(out)) {
        const first = Object.keys(out)[0];
        if (first !== undefined) delete out[first];
      }
      return out;
    };
    const result = fc.check(
      fc.property(scenario, ([input, paths]) => holds(silent, input, paths)),
      { numRuns: 500, seed: 4242 },
    );
    expect(result.failed).toBe(true);
  });
});
