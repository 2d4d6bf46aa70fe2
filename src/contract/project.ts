/**
 * Projection paths for structured tool results: per tool, the fields of a JSON result the model
 * should see, e.g. `items[*].{number,title,labels[*].name}` or `["number", "user.login"]`.
 * Everything else is dropped and counted, so `meta` can say what was cut.
 *
 * Grammar: paths separated by `,`; a path is segments separated by `.`; a segment is a name
 * (letters, digits, `_ - $ @`, or `"quoted"` with `\` escaping the next character), optionally
 * followed by `[*]`, or a group `{p1,p2,…}` of sub-paths, which ends its path. Whitespace around
 * tokens is ignored. A list of paths is the same as a group.
 *
 * Semantics, chosen to be lenient with what APIs return:
 * - a named leaf keeps its whole value; paths sharing a prefix merge (`user.login,user.id`);
 * - a path through an array maps over its elements, with or without `[*]` (`labels.name` works
 *   like `labels[*].name`); elements are never removed, since positions carry meaning, and an
 *   element that is not an object (a string in a list of records) is kept as is;
 * - `name[*].rest` on a value that is not an array drops the field (`[*]` promised an array);
 *   `name.rest` on a scalar or null keeps it (there is nothing inside to choose from);
 * - missing fields stay absent (never null-filled); key order follows the input.
 */
import { type JsonValue, setKey } from "../decode/json.js";
import { AirlockError } from "../errors/airlock-error.js";

const MAX_SPEC_CHARS = 4096;
const MAX_PATHS = 256;
const MAX_DEPTH = 32;
const MAX_STATS_PATHS = 64;

export interface Projection {
  /** Envelope key the spec addresses records under (`items` for `items[*].{…}`); `[]` for `[*].…` (top-level array); undefined when the spec is per record. */
  readonly recordPath: readonly string[] | undefined;
  /** The original spec, normalised (no whitespace, a list joined with `,`), for meta/markers. */
  readonly spec: string;
}

export interface ProjectionStats {
  /** Keys removed, each occurrence once; a removed subtree counts as one. */
  dropped: number;
  /** Path (like `labels[*].color`, `user.avatar_url`) → times dropped; at most 64 distinct paths kept, then further paths only add to `dropped` and set `more: true`. */
  readonly fields: Map<string, number>;
  more: boolean;
}

type Segment =
  | { readonly kind: "field"; readonly name: string; readonly star: boolean; readonly at: number }
  | { readonly kind: "star"; readonly at: number }
  | { readonly kind: "group"; readonly paths: Segment[][] };

/** A compiled level: field name → what to keep under it. */
type Group = Map<string, Field>;
interface Field {
  /** Some path ends here: the whole value is kept. */
  whole: boolean;
  /** Every path that continues through here wrote `[*]`: a non-array value is dropped. */
  starOnly: boolean | undefined;
  children: Group | undefined;
}

interface Compiled {
  readonly record: Group;
  readonly document: Group;
}

const compiledOf = new WeakMap<Projection, Compiled>();

const PLAIN_NAME = /^[A-Za-z0-9_$@-]+$/;
const NAME_CHAR = /[A-Za-z0-9_$@-]/;

/** A key as it is written in a spec and in stats paths: bare when it can be, else quoted. */
function formatName(name: string): string {
  return PLAIN_NAME.test(name) ? name : `"${name.replace(/["\\]/g, "\\$&")}"`;
}

function invalid(message: string): AirlockError {
  return new AirlockError("options/invalid", `projection: ${message}`);
}

/** Recursive descent over one spec text; depth is capped, so recursion is bounded. */
function parseSpec(text: string, where: string, count: { paths: number }): Segment[][] {
  let i = 0;
  const fail = (what: string): never => {
    throw invalid(`${what} at offset ${i}${where}`);
  };
  const skip = () => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const take = (char: string, what: string) => {
    skip();
    if (text[i] !== char) fail(what);
    i++;
  };
  const list = (depth: number, top: boolean): Segment[][] => {
    const paths: Segment[][] = [];
    for (;;) {
      paths.push(path(depth, top));
      skip();
      if (text[i] !== ",") return paths;
      i++;
    }
  };
  const path = (depth: number, top: boolean): Segment[] => {
    const segments: Segment[] = [];
    for (;;) {
      skip();
      if (++depth > MAX_DEPTH) fail(`deeper than ${MAX_DEPTH} levels`);
      if (text[i] === "{") {
        i++;
        segments.push({ kind: "group", paths: list(depth, false) });
        take("}", "expected ',' or '}'");
        skip();
        if (text[i] === ".") fail("a group ends its path; unexpected '.'");
        return segments;
      }
      const at = i;
      if (text[i] === "[" && top && segments.length === 0) {
        star() || fail("expected a field name");
        segments.push({ kind: "star", at });
      } else {
        const name = fieldName();
        skip();
        segments.push({ kind: "field", name, star: star(), at });
      }
      skip();
      if (text[i] !== ".") break;
      i++;
    }
    if (++count.paths > MAX_PATHS) fail(`more than ${MAX_PATHS} paths`);
    return segments;
  };
  const fieldName = (): string => {
    if (text[i] !== '"') {
      const start = i;
      while (i < text.length && NAME_CHAR.test(text[i] as string)) i++;
      if (i === start) fail("expected a field name");
      return text.slice(start, i);
    }
    const open = i++;
    let name = "";
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      if (i < text.length) name += text[i++];
    }
    if (i >= text.length) {
      i = open;
      fail("unterminated quoted name");
    }
    i++;
    return name;
  };
  const star = (): boolean => {
    if (text[i] !== "[") return false;
    i++;
    take("*", "expected '*' in '[*]'");
    take("]", "expected ']' to close '[*]'");
    return true;
  };
  const paths = list(0, true);
  skip();
  if (i < text.length) fail(`unexpected '${text[i]}'`);
  return paths;
}

function formatPath(segments: readonly Segment[]): string {
  return segments
    .map((s) =>
      s.kind === "star"
        ? "[*]"
        : s.kind === "field"
          ? formatName(s.name) + (s.star ? "[*]" : "")
          : `{${s.paths.map(formatPath).join(",")}}`,
    )
    .join(".");
}

function insert(group: Group, segments: readonly Segment[], from: number): void {
  const segment = segments[from] as Segment;
  if (segment.kind === "group") {
    for (const sub of segment.paths) insert(group, sub, 0);
    return;
  }
  if (segment.kind === "star") {
    throw invalid(
      `'[*]' without a name must start every path, before a field, at offset ${segment.at}`,
    );
  }
  let field = group.get(segment.name);
  if (field === undefined) {
    field = { whole: false, starOnly: undefined, children: undefined };
    group.set(segment.name, field);
  }
  if (from === segments.length - 1) {
    field.whole = true;
    return;
  }
  field.starOnly = (field.starOnly ?? true) && segment.star;
  field.children ??= new Map();
  insert(field.children, segments, from + 1);
}

/**
 * Compiles a projection spec once; throws `AirlockError("options/invalid")` naming the offset on
 * a syntax error, and for an empty spec, over 256 paths, over 32 levels or over 4096 characters.
 * When every path starts with the same `name[*].` (or `[*].`), that prefix is the `recordPath`.
 *
 * @example
 * const p = compileProjection("items[*].{number, title, labels[*].name}");
 * p.recordPath; // ["items"]
 * p.spec;       // "items[*].{number,title,labels[*].name}"
 */
export function compileProjection(spec: string | readonly string[]): Projection {
  const texts: readonly unknown[] = typeof spec === "string" ? [spec] : spec;
  if (!Array.isArray(texts)) throw invalid("spec must be a string or a list of strings");
  if (texts.length > MAX_PATHS) throw invalid(`more than ${MAX_PATHS} paths`);
  let chars = 0;
  for (const text of texts) {
    if (typeof text !== "string") throw invalid("every path must be a string");
    chars += text.length + 1;
  }
  if (chars - 1 > MAX_SPEC_CHARS) throw invalid(`spec over ${MAX_SPEC_CHARS} characters`);
  if (texts.every((text) => (text as string).trim() === "")) throw invalid("spec is empty");
  const count = { paths: 0 };
  const paths = texts.flatMap((text, n) =>
    parseSpec(text as string, texts === spec ? ` of path ${n}` : "", count),
  );

  // A shared prefix of plain names ending in `name[*].` (`items[*].`, `hits.hits[*].`), or a
  // leading `[*].`, on every path addresses the records of the array there.
  const prefixOf = (p: readonly Segment[]): { names: string[]; text: string } | undefined => {
    const names: string[] = [];
    for (let k = 0; k < p.length - 1; k++) {
      const s = p[k] as Segment;
      if (s.kind === "group") return undefined;
      if (s.kind === "star") return k === 0 ? { names, text: "[*]" } : undefined;
      names.push(s.name);
      if (s.star) return { names, text: names.join("\u0000") };
    }
    return undefined;
  };
  const prefix = prefixOf(paths[0] as Segment[]);
  const prefixed = prefix !== undefined && paths.every((p) => prefixOf(p)?.text === prefix.text);
  const record: Group = new Map();
  for (const p of paths)
    insert(record, p, prefixed ? (prefix as { names: string[] }).names.length || 1 : 0);
  let document = record;
  let recordPath: string[] | undefined;
  if (prefixed && prefix.names.length > 0) {
    recordPath = prefix.names;
    // The document keeps the path down to the array, and the record fields under it.
    let level: Group = new Map([
      [prefix.names.at(-1) as string, { whole: false, starOnly: true, children: record }],
    ]);
    for (const name of prefix.names.slice(0, -1).reverse()) {
      level = new Map([[name, { whole: false, starOnly: false, children: level }]]);
    }
    document = level;
  } else if (prefixed) {
    recordPath = []; // arrays are mapped over anyway; an object is projected as one record
  }

  const projection: Projection = Object.freeze({
    recordPath: recordPath && Object.freeze(recordPath),
    spec: paths.map(formatPath).join(","),
  });
  compiledOf.set(projection, { record, document });
  return projection;
}

/**
 * Fresh counters for what a projection removed; pass the same one to every record of a result.
 *
 * @example
 * const stats = createProjectionStats();
 * projectRecord({ a: 1, b: 2 }, compileProjection("a"), stats); // stats.fields: Map { "b" => 1 }
 */
export function createProjectionStats(): ProjectionStats {
  return { dropped: 0, fields: new Map(), more: false };
}

function countDrop(stats: ProjectionStats, path: string): void {
  stats.dropped++;
  const seen = stats.fields.get(path);
  if (seen !== undefined) stats.fields.set(path, seen + 1);
  else if (stats.fields.size < MAX_STATS_PATHS) stats.fields.set(path, 1);
  else stats.more = true;
}

type JsonObject = { [key: string]: JsonValue };

/** Sets `key` as an own data property, so `__proto__` is a plain key, never the prototype. */
function put(target: JsonObject | JsonValue[], key: string | number, value: JsonValue): void {
  if (Array.isArray(target)) target[key as number] = value;
  else setKey(target, key as string, value);
}

/**
 * Walks with its own stack: objects are bounded by the spec's depth, but arrays nested in arrays
 * are mapped without limit. `group` undefined copies everything below.
 */
function apply(value: JsonValue, root: Group, stats: ProjectionStats | undefined): JsonValue {
  const holder: JsonValue[] = [null];
  type Task = [JsonValue, Group | undefined, string, JsonObject | JsonValue[], string | number];
  const stack: Task[] = [[value, root, "", holder, 0]];
  const join = (path: string, key: string) =>
    stats === undefined ? "" : path === "" ? formatName(key) : `${path}.${formatName(key)}`;
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    const [input, group, path, target, key] = task;
    if (input === null || typeof input !== "object") {
      put(target, key, input);
    } else if (Array.isArray(input)) {
      const out: JsonValue[] = new Array(input.length).fill(null);
      put(target, key, out);
      const inner = stats === undefined ? "" : `${path}[*]`;
      for (let n = input.length - 1; n >= 0; n--) {
        stack.push([input[n] as JsonValue, group, inner, out, n]);
      }
    } else {
      const out: JsonObject = {};
      put(target, key, out);
      const kept: Task[] = [];
      for (const name of Object.keys(input)) {
        const child = input[name] as JsonValue;
        const field = group?.get(name);
        if (group === undefined || field?.whole) {
          put(out, name, null); // placeholder: keeps the input's key order
          kept.push([child, undefined, "", out, name]);
        } else if (field === undefined || (field.starOnly && !Array.isArray(child))) {
          if (stats !== undefined) countDrop(stats, join(path, name));
        } else {
          put(out, name, null);
          kept.push([child, field.children, join(path, name), out, name]);
        }
      }
      for (let n = kept.length - 1; n >= 0; n--) stack.push(kept[n] as Task);
    }
  }
  return holder[0] as JsonValue;
}

function compiled(projection: Projection): Compiled {
  let found = compiledOf.get(projection);
  if (found === undefined) {
    // A projection that lost its compiled form (structured clone, a hand-made object): from spec.
    found = compiledOf.get(compileProjection(projection.spec)) as Compiled;
    compiledOf.set(projection, found);
  }
  return found;
}

/**
 * Projects one record (the `recordPath` prefix is not applied; the caller strips it) and returns
 * a copy; the input is not mutated. Removed keys are counted in `stats` by path.
 *
 * @example
 * const p = compileProjection(["number", "user.login", "labels[*].name"]);
 * projectRecord({ number: 7, user: { login: "ana", id: 3 }, labels: [{ name: "bug", color: "f00" }] }, p);
 * // { number: 7, user: { login: "ana" }, labels: [{ name: "bug" }] }
 */
export function projectRecord(
  record: JsonValue,
  projection: Projection,
  stats?: ProjectionStats,
): JsonValue {
  return apply(record, compiled(projection).record, stats);
}

/**
 * Projects a whole document: the `recordPath` applies first, so other envelope keys are dropped
 * and counted; stats paths are from the document's root (`items[*].body`, `total`).
 *
 * @example
 * projectDocument({ items: [{ a: 1, b: 2 }], total: 1 }, compileProjection("items[*].a"));
 * // { items: [{ a: 1 }] }  (stats: items[*].b 1, total 1)
 */
export function projectDocument(
  doc: JsonValue,
  projection: Projection,
  stats?: ProjectionStats,
): JsonValue {
  return apply(doc, compiled(projection).document, stats);
}
