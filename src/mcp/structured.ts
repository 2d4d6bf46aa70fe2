/**
 * `structuredContent` within its own budget. Some clients hand its JSON to the model, so it is
 * cleaned like any tool text (secrets, invisible characters) and cut until its JSON fits
 * `maxStructuredTokens`. The only cut is at array items, the same number of items for every
 * array that is longer (water-filling on item counts), and never below what the output schema
 * asks for (`minItems`): no object member is ever dropped, so required fields stay. A record
 * array (found as the records path finds them: `payments`, `hits.hits`) keeps its evidence first
 * (failed, error and stand-out records, worst first), then its first items, all in their order;
 * any other array keeps its first items. With a schema, the value that fits is checked against
 * it; when no value both fits and is valid, it is left out, and the caller says why.
 *
 * Keys are tool text too: cleaned like strings (two keys that clean alike are told apart by a
 * suffix, ` (2)`), and, like every string, a run of one character class longer than 1,000
 * characters is folded (`foldLongRuns`), so no such run reaches the tokenizer; the value's own
 * punctuation (`["","",…]`) is counted with its long runs at one token a byte at most. A value
 * that airlock had to change so (a key, a fold) and that is then not valid against the output
 * schema is left out, never sent invalid.
 */

import { fromJs } from "../decode/from-js.js";
import { foldLongRuns, withoutLongRuns } from "../decode/normalize.js";
import { findRecordArrays } from "../decode/record-paths.js";
import { pathSeverity } from "../decode/record-rule.js";
import { recordClassifier } from "../keep/record-evidence.js";
import type { JsonValue } from "../pipeline/unit.js";

export type Check = (
  value: JsonValue,
) => Promise<{ readonly ok: boolean; readonly detail?: string }>;
export type Path = ReadonlyArray<string | number>;

export interface StructuredOptions {
  readonly maxTokens: number;
  readonly count: (text: string) => Promise<number>;
  /** The output schema's check, when the tool has one. */
  readonly check?: Check;
  /** The fewest items the output schema allows for the array at a path. */
  readonly minItems?: (path: Path) => number;
  /** The run's cleaner for tool strings. */
  readonly clean: (text: string) => string;
  /** The record arrays' paths the host named (the `records` option). */
  readonly paths?: readonly string[];
}

/** An array shown shorter: where, and how many of its items are kept. */
export interface StructuredCut {
  readonly path: string;
  readonly kept: number;
  readonly of: number;
}

export interface StructuredOutcome {
  /** The value to send; absent when it was left out (see `omitted`). */
  readonly value?: { [key: string]: JsonValue };
  /** Tokens of the JSON of `value` (0 when left out). */
  readonly tokens: number;
  /** The cleaned value as it came: its JSON tokens (estimated past 64 Ki characters) and length. */
  readonly before: { readonly tokens: number; readonly chars: number; readonly estimated: boolean };
  /** The arrays cut, at most `MAX_LISTED` of them; `arraysCut` counts them all. */
  readonly cuts: readonly StructuredCut[];
  readonly arraysCut: number;
  /** Whether `value` is valid against the output schema, when one was given. */
  readonly valid?: boolean;
  /** Why the value was left out. */
  readonly omitted?: string;
  /** What the schema said of the value that fitted, when it was refused. */
  readonly invalid?: string;
}

export const MAX_LISTED = 16;
/** JSON longer than this many characters a token is over any budget, and is not counted. */
const CHARS_PER_TOKEN_AT_MOST = 16;
const EXACT_CHARS = 64 * 1024;
const NONE = { tokens: 0, chars: 0, estimated: true } as const;

type JsonObject = { [key: string]: JsonValue };

/** Characters of JSON a structuredContent value may expand to, strings at their full length. */
const MAX_STRUCTURED_CHARS = 64 << 20;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own key: a tool's `__proto__` is a key like any other. */
function setOwn(target: JsonObject, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

/**
 * `rows[3].tags`: a path airlock writes in its own note, outside any fence. The keys are the
 * tool's (cleaned already), so only a short identifier is written as it is; any other key (a
 * sentence, a quote, a bracket) is `*`, "some key", as in a JSON path.
 */
function pathText(path: Path): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const key = /^[A-Za-z_$][\w$]{0,31}$/.test(segment) ? segment : "*";
      out += `${out === "" ? "" : "."}${key}`;
    }
  }
  return out === "" ? "(root)" : out;
}

interface Cutting {
  readonly cuts: StructuredCut[];
  count: number;
  /** Record arrays with evidence: their item indices, evidence first (see `recordOrder`). */
  readonly order: ReadonlyMap<readonly JsonValue[], readonly number[]>;
}

/**
 * The record arrays of the value that hold evidence, each with its item indices in the order
 * they are kept: evidence (worst first, then by position), then the rest by position.
 */
function recordOrder(
  value: JsonValue,
  paths: readonly string[] | undefined,
): Map<readonly JsonValue[], readonly number[]> {
  const orders = new Map<readonly JsonValue[], readonly number[]>();
  const found = findRecordArrays(value, {
    sizeOf: (e) => JSON.stringify(e)?.length ?? -1,
    ...(paths !== undefined ? { paths } : {}),
  });
  const classify = recordClassifier();
  for (const { path, array } of found.sections) {
    const hint = pathSeverity(path);
    const severity = (array as readonly JsonValue[]).map((item) => Math.max(hint, classify(item)));
    if (!severity.some((s) => s > 0)) continue;
    const order = severity.map((_, i) => i);
    order.sort(
      (a, b) =>
        Number((severity[b] as number) > 0) - Number((severity[a] as number) > 0) ||
        (severity[b] as number) - (severity[a] as number) ||
        a - b,
    );
    orders.set(array as readonly JsonValue[], order);
  }
  return orders;
}

/** A copy with every array at most `keep` items long (or the schema's least, when more). */
function cutValue(
  value: JsonValue,
  keep: number,
  path: (string | number)[],
  o: StructuredOptions,
  cutting: Cutting,
): JsonValue {
  if (Array.isArray(value)) {
    const least = o.minItems ? o.minItems(path) : 0;
    const n = Math.min(value.length, Math.max(keep, least));
    const out: JsonValue[] = [];
    // A record array keeps its evidence first; what is kept stays in its order.
    const order = cutting.order.get(value);
    const kept =
      order === undefined || n === value.length
        ? undefined
        : order.slice(0, n).sort((a, b) => a - b);
    for (let k = 0; k < n; k++) {
      const i = kept === undefined ? k : (kept[k] as number);
      path.push(i);
      out.push(cutValue(value[i] as JsonValue, keep, path, o, cutting));
      path.pop();
    }
    if (n < value.length) {
      cutting.count++;
      if (cutting.cuts.length < MAX_LISTED)
        cutting.cuts.push({ path: pathText(path), kept: n, of: value.length });
    }
    return out;
  }
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      path.push(key);
      setOwn(out, key, cutValue(value[key] as JsonValue, keep, path, o, cutting));
      path.pop();
    }
    return out;
  }
  return value;
}

/** Nesting past this is not cut (the copy recurses): the value is left out instead. */
const MAX_DEPTH = 256;

/**
 * The longest array anywhere in the value, and how deep it nests (iteratively: a deep value
 * cannot overflow the stack here).
 */
function measure(value: JsonValue): { readonly longest: number; readonly depth: number } {
  let longest = 0;
  let depth = 0;
  const stack: Array<readonly [JsonValue, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, level] = stack.pop() as readonly [JsonValue, number];
    depth = Math.max(depth, level);
    if (depth > MAX_DEPTH) break;
    const items = Array.isArray(node) ? node : isObject(node) ? Object.values(node) : [];
    if (Array.isArray(node)) longest = Math.max(longest, node.length);
    for (const item of items)
      if (typeof item === "object" && item !== null) stack.push([item, level + 1]);
  }
  return { longest, depth };
}

function leftOut(
  why: string,
  before: StructuredOutcome["before"],
  extra: Partial<StructuredOutcome> = {},
): StructuredOutcome {
  return { tokens: 0, before, cuts: [], arraysCut: 0, omitted: why, ...extra };
}

async function tokensBefore(json: string, count: StructuredOptions["count"]) {
  if (json.length <= EXACT_CHARS)
    return { tokens: await count(json), chars: json.length, estimated: false };
  const head = await count(json.slice(0, EXACT_CHARS));
  return {
    tokens: Math.ceil((head * json.length) / EXACT_CHARS),
    chars: json.length,
    estimated: true,
  };
}

/**
 * The count of a JSON text whose long runs never reach the tokenizer: each is counted at one
 * token a byte at most (`withoutLongRuns`), so the count is an upper bound, and exact for any
 * text without one.
 */
function boundedCount(count: StructuredOptions["count"]): StructuredOptions["count"] {
  return async (text) => {
    const short = withoutLongRuns(text);
    return short.bytes === 0 ? count(text) : (await count(short.text)) + short.bytes;
  };
}

/** Distinct keys whose cleaned names are remembered, at most. */
const MAX_NAMES = 4096;

/** What cleaning changed beyond a string's own text: keys, and folded runs. */
interface Changes {
  keys: number;
  folded: number;
}

/** A key that cleans like another of its object's: told apart by a suffix, ` (2)`, ` (3)`, … */
function uniqueKey(name: string, taken: Set<string>): string {
  if (!taken.has(name)) return name;
  for (let k = 2; ; k++) {
    const candidate = `${name} (${k})`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The wire form of the value (what the client would receive: toJSON applied, undefined
 * dropped), with every string and every key cleaned and its long runs folded on the way.
 */
function cleanedCopy(value: unknown, clean: (text: string) => string, changes: Changes): JsonValue {
  const text = (s: string): string => {
    const folded = foldLongRuns(clean(s));
    if (folded.folded > 0) changes.folded++;
    return folded.text;
  };
  // Records repeat their keys: each distinct key is cleaned once (up to a bound of names).
  const named = new Map<string, string>();
  const nameOf = (key: string): string => {
    let name = named.get(key);
    if (name === undefined) {
      name = text(key);
      if (named.size < MAX_NAMES) named.set(key, name);
    }
    return name;
  };
  // The reviver sees each object after its members: its keys are cleaned then.
  return JSON.parse(JSON.stringify(value), (_, v: JsonValue) => {
    if (typeof v === "string") return text(v);
    if (!isObject(v)) return v;
    const keys = Object.keys(v);
    const names = keys.map(nameOf);
    if (names.every((name, i) => name === keys[i])) return v;
    // Keys that clean to themselves keep their names; the others take what is left.
    const taken = new Set(keys.filter((key, i) => names[i] === key));
    const out: JsonObject = {};
    for (const [i, key] of keys.entries()) {
      let name = names[i] as string;
      if (name !== key) {
        changes.keys++;
        name = uniqueKey(name, taken);
        taken.add(name);
      }
      setOwn(out, name, v[key] as JsonValue);
    }
    return out;
  });
}

/** Why a value airlock changed (a key, a fold) is left out when the change makes it invalid. */
function changedWhy(changes: Changes): string {
  const what =
    changes.keys > 0 && changes.folded > 0
      ? "keys had to be cleaned and long runs of one character folded"
      : changes.keys > 0
        ? "a key had to be cleaned (a secret or an invisible character in it)"
        : "a long run of one character had to be folded";
  return `${what}, and the value is then not valid against the output schema`;
}

/**
 * @example
 * const out = await reduceStructured(result.structuredContent, { maxTokens: 2000, count, clean });
 * out.cuts; // [{ path: "rows", kept: 85, of: 10000 }]
 */
export async function reduceStructured(
  value: unknown,
  o: StructuredOptions,
): Promise<StructuredOutcome> {
  let cleaned: JsonValue;
  const changes: Changes = { keys: 0, folded: 0 };
  // Bounded before it is copied: an in-process value may hold holes, Proxies or one string
  // from many places (ten million holes: 5.8 s and 1.1 GB; one 1 MiB string 300 times: 5.6 s).
  // Depth and keys are bounded below (MAX_DEPTH) and by the characters; arrays as shape() bounds them.
  const lenient = { maxDepth: Number.MAX_SAFE_INTEGER, maxKeys: Number.MAX_SAFE_INTEGER };
  const bounded = fromJs(value, lenient, true, MAX_STRUCTURED_CHARS, {
    left: MAX_STRUCTURED_CHARS,
  });
  if (!bounded.ok && bounded.code !== "json/unreadable" && bounded.code !== "json/cycle") {
    return leftOut(
      `it is past what airlock reads of it (${bounded.code}: at most 64 Mi characters as JSON, 1,000,000 items in an array)`,
      NONE,
    );
  }
  try {
    cleaned = cleanedCopy(value, o.clean, changes);
  } catch {
    return leftOut(
      "it cannot be read as JSON (a cycle, a BigInt, a getter that throws, or nesting too deep)",
      NONE,
    );
  }
  if (!isObject(cleaned)) return leftOut("it is not a JSON object", NONE);
  const changed = changes.keys > 0 || changes.folded > 0;
  const count = boundedCount(o.count);
  const json = JSON.stringify(cleaned);
  const before = await tokensBefore(json, count);
  const left = (why: string, extra: Partial<StructuredOutcome> = {}) => leftOut(why, before, extra);
  const fits = async (text: string): Promise<number | undefined> => {
    if (text.length > o.maxTokens * CHARS_PER_TOKEN_AT_MOST) return undefined;
    const tokens = text === json && !before.estimated ? before.tokens : await count(text);
    return tokens <= o.maxTokens ? tokens : undefined;
  };
  const whole = await fits(json);
  if (whole !== undefined) {
    const checked = o.check ? await o.check(cleaned) : undefined;
    if (checked && !checked.ok && changed)
      return left(changedWhy(changes), {
        valid: false,
        ...(checked.detail ? { invalid: checked.detail } : {}),
      });
    return {
      value: cleaned,
      tokens: whole,
      before,
      cuts: [],
      arraysCut: 0,
      ...(checked ? { valid: checked.ok } : {}),
      ...(checked && !checked.ok && checked.detail ? { invalid: checked.detail } : {}),
    };
  }
  const { longest, depth } = measure(cleaned);
  if (depth > MAX_DEPTH) return left(`it nests deeper than ${MAX_DEPTH} levels`);
  // Record arrays keep their evidence first; if no such value is valid against the schema (a
  // tuple's fixed first items), the cut keeps every array's first items instead.
  const evidenceFirst = recordOrder(cleaned, o.paths);
  const byPosition = new Map<readonly JsonValue[], readonly number[]>();
  const search = async (order: Cutting["order"]) => {
    const tried = new Map<number, { value: JsonObject; tokens: number; cutting: Cutting } | null>();
    const attempt = async (keep: number) => {
      if (tried.has(keep)) return tried.get(keep) ?? null;
      const cutting: Cutting = { cuts: [], count: 0, order };
      const cut = cutValue(cleaned, keep, [], o, cutting) as JsonObject;
      const tokens = await fits(JSON.stringify(cut));
      const out = tokens === undefined ? null : { value: cut, tokens, cutting };
      tried.set(keep, out);
      return out;
    };
    if ((await attempt(0)) === null) return undefined;
    // The most items per array that still fit: fitting only gets harder with more items.
    let lo = 0;
    let hi = longest - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if ((await attempt(mid)) !== null) lo = mid;
      else hi = mid - 1;
    }
    const found = (await attempt(lo)) as NonNullable<Awaited<ReturnType<typeof attempt>>>;
    return { ...found, checked: o.check ? await o.check(found.value) : undefined };
  };
  let best = longest === 0 ? undefined : await search(evidenceFirst);
  if (best === undefined) {
    return left(
      longest === 0
        ? `its JSON takes about ${before.tokens} tokens and it holds no array to cut`
        : `its JSON takes about ${before.tokens} tokens, and more than ${o.maxTokens} even with every array cut to its fewest items`,
    );
  }
  if (best.checked && !best.checked.ok && evidenceFirst.size > 0) {
    const again = await search(byPosition);
    if (again?.checked?.ok) best = again;
  }
  const checked = best.checked;
  if (checked && !checked.ok) {
    const why = changed
      ? changedWhy(changes)
      : "no value within maxStructuredTokens is valid against the output schema";
    return left(why, {
      valid: false,
      ...(checked.detail ? { invalid: checked.detail } : {}),
    });
  }
  return {
    value: best.value,
    tokens: best.tokens,
    before,
    cuts: best.cutting.cuts,
    arraysCut: best.cutting.count,
    ...(checked ? { valid: true } : {}),
  };
}
