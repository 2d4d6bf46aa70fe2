/**
 * Schemas of a contract, compiled once: a JSON Schema (draft 2020-12 unless `$schema` names
 * another; validated with @cfworker/json-schema, which needs no `eval`), or any Standard Schema
 * validator. Undeclared fields are dropped and their paths reported; failures are explained by
 * keyword and location only, never by the offending value.
 */
import { dereference, type OutputUnit, type SchemaDraft, Validator } from "@cfworker/json-schema";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { type JsonValue, setKey } from "../decode/json.js";
import { AirlockError } from "../errors/airlock-error.js";
import type { ContractCode, Schema } from "./contract.js";

export type Node = Record<string, unknown>;
export type Checked =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly code: ContractCode; readonly detail: string };
export type SchemaCheck = (value: JsonValue, drops: string[]) => Promise<Checked>;
interface Refs {
  readonly [uri: string]: unknown;
}

export const refused = (detail: string, code: ContractCode = "contract/schema"): Checked => ({
  ok: false,
  code,
  detail: code === "contract/schema" ? `fails the schema: ${detail}` : detail,
});

/** Sets an own key; `__proto__` from a tool is a key like any other (assigning it sets the prototype). */
export const setOwn = (target: object, key: string, value: JsonValue) =>
  setKey(target as { [key: string]: JsonValue }, key, value);

export const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function need(ok: boolean, message: string): asserts ok {
  if (!ok) throw new AirlockError("options/invalid", `contract: ${message}`);
}

export function compileSchema(schema: Schema, dropUnknown: boolean, label: string): SchemaCheck {
  if (typeof schema === "object" && schema !== null && "~standard" in schema)
    return compileStandard(schema as StandardSchemaV1, dropUnknown, label);
  need(isNode(schema), `${label} schema must be a JSON Schema object or a Standard Schema`);
  let root: Node | undefined;
  let validator: Validator | undefined;
  let refs: Refs = {};
  try {
    // A private copy: the validator writes resolved URIs into the schema, which may be frozen or shared.
    root = structuredClone(schema) as Node;
    const named = /draft-0([467])|2019-09/.exec(String(root.$schema));
    const draft = (
      named ? (named[1] === "6" ? "7" : (named[1] ?? "2019-09")) : "2020-12"
    ) as SchemaDraft;
    validator = new Validator(root, draft, true);
    refs = dereference(root);
  } catch (error) {
    need(false, `${label} schema: ${String((error as Error)?.message).split("\n")[0]}`);
  }
  inspect(root, "#", refs, label);
  const known = declaredNames(root, new Set());
  return async (value, drops) => {
    const cleaned = dropUnknown ? undeclared(value, [root], refs, "", drops) : value;
    const result = (validator as Validator).validate(cleaned);
    return result.valid ? { ok: true, value: cleaned } : refused(explain(result.errors, known));
  };
}

const TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];
// biome-ignore format: keyword lists
const ONE = ["items", "additionalItems", "unevaluatedItems", "contains", "additionalProperties",
  "unevaluatedProperties", "propertyNames", "not", "if", "then", "else"];
const MANY = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/**
 * Finds what @cfworker/json-schema would only find mid-validation (an unresolved $ref or a bad
 * pattern throws on some record, not at compile time) and collects the property names the schema
 * declares: the only instance keys a violation message may name.
 */
function inspect(node: unknown, at: string, refs: Refs, label: string): void {
  if (typeof node === "boolean") return;
  const ok = (cond: boolean, rule: string) => need(cond, `${label} schema at ${at}: ${rule}`);
  ok(isNode(node), "must be an object or a boolean");
  const n = node as Node;
  ok(
    [n.type ?? []].flat().every((t) => TYPES.includes(t as string)),
    "type must name JSON types",
  );
  const required = n.required ?? [];
  ok(Array.isArray(required) && required.every((k) => typeof k === "string"), "required: names");
  ok(n.enum === undefined || Array.isArray(n.enum), "enum must be a list");
  // The validator ignores $dynamicRef (it would check nothing there) and its "url" format is
  // quadratic in the string's length: a tool could stall the isolate with one long value.
  ok(n.$dynamicRef === undefined, "$dynamicRef is not supported by @cfworker/json-schema");
  ok(n.format !== "url", 'format "url" is quadratic in @cfworker/json-schema; use "uri"');
  ok(n.$ref === undefined || refs[n.__absolute_ref__ as string] !== undefined, "$ref: unresolved");
  const patterns = Object.keys(isNode(n.patternProperties) ? n.patternProperties : {});
  for (const pattern of [n.pattern ?? [], patterns].flat()) {
    let compiles = typeof pattern === "string";
    try {
      new RegExp(pattern as string, "u");
    } catch {
      compiles = false;
    }
    ok(compiles, "pattern must be a regular expression (u flag)");
  }
  for (const key of ONE)
    if (n[key] !== undefined && !(key === "items" && Array.isArray(n[key])))
      inspect(n[key], `${at}/${key}`, refs, label);
  for (const key of MANY) {
    const list = n[key];
    if (list === undefined || (key === "items" && !Array.isArray(list))) continue;
    ok(Array.isArray(list), `${key} must be a list of schemas`);
    for (const [i, sub] of (list as unknown[]).entries())
      inspect(sub, `${at}/${key}/${i}`, refs, label);
  }
  for (const key of MAPS) {
    if (n[key] === undefined) continue;
    ok(isNode(n[key]), `${key} must be an object`);
    for (const [name, sub] of Object.entries(n[key] as Node)) {
      inspect(sub, `${at}/${key}/${name}`, refs, label);
    }
  }
}

/** The most specific error (the first not followed by one beneath it), named without the instance. */
function explain(errors: readonly OutputUnit[], known: ReadonlySet<string>): string {
  let leaf = errors[0];
  for (const [i, error] of errors.entries()) {
    // A `false` schema reports its instance location as its keyword location; its parent says more.
    const next = errors[i + 1];
    if (error.keyword === "false" || next?.keywordLocation.startsWith(`${error.keywordLocation}/`))
      continue;
    leaf = error;
    break;
  }
  if (leaf === undefined) return "invalid";
  const segments = leaf.instanceLocation.split("/").slice(1);
  const path = `/${segments.map((s) => safeSegment(decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"), known)).join("/")}`;
  // The validator's text quotes instance values; only a missing name (from the schema) is kept.
  const missing =
    leaf.keyword === "required" ? /property "(.*)"\.$/.exec(leaf.error)?.[1] : undefined;
  const rule = missing !== undefined && known.has(missing) ? `required "${missing}"` : leaf.keyword;
  return `${rule} at ${path} (${leaf.keywordLocation})`;
}

/** An instance key is named only if the schema declares it or it is an index: anything else is tool text. */
function safeSegment(segment: string, known: ReadonlySet<string>): string {
  if (/^\d{1,9}$/.test(segment)) return segment;
  return known.has(segment) ? segment.replace(/~/g, "~0").replace(/\//g, "~1") : "*";
}

/** The property and required names anywhere in a (host-written) JSON Schema. */
function declaredNames(node: unknown, names: Set<string>, depth = 0): Set<string> {
  if (typeof node !== "object" || node === null || depth > 256) return names;
  const { properties, required } = node as Node;
  for (const name of isNode(properties) ? Object.keys(properties) : []) names.add(name);
  for (const name of Array.isArray(required) ? required : []) names.add(String(name));
  for (const child of Object.values(node)) declaredNames(child, names, depth + 1);
  return names;
}

/** The schema nodes that apply at one instance location: through $ref, combinators, then/else. */
function expand(nodes: readonly unknown[], refs: Refs): Node[] | undefined {
  const out: Node[] = [];
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isNode(node) || out.includes(node)) continue;
    // A recursive reference is not followed here: the object counts as open rather than guessed at.
    if (node.$recursiveRef !== undefined) return undefined;
    out.push(node);
    if (node.$ref !== undefined) stack.push(refs[node.__absolute_ref__ as string]);
    stack.push(
      node.then,
      node.else,
      ...[node.allOf, node.anyOf, node.oneOf].flatMap((l) => (Array.isArray(l) ? l : [])),
    );
  }
  return out;
}

const join = (path: string, key: string) => {
  const name = key.length > 64 ? `${key.slice(0, 64)}…` : key;
  return path === "" ? name : `${path}.${name}`;
};

/** Drops undeclared keys, copy-on-write: returns `value` itself when nothing under it was dropped. */
function undeclared(
  value: JsonValue,
  nodes: readonly unknown[],
  refs: Refs,
  path: string,
  drops: string[],
): JsonValue {
  const all = value !== null && typeof value === "object" ? expand(nodes, refs) : undefined;
  if (all === undefined || all.length === 0) return value;
  if (Array.isArray(value)) {
    let out: JsonValue[] | undefined;
    for (const [i, item] of value.entries()) {
      const kids = all.flatMap((n) => {
        if (Array.isArray(n.prefixItems) && i < n.prefixItems.length) return [n.prefixItems[i]];
        if (Array.isArray(n.items)) return [i < n.items.length ? n.items[i] : n.additionalItems];
        return [n.items];
      });
      const cleaned = undeclared(item, kids, refs, `${path}[*]`, drops);
      if (cleaned === item) continue;
      out ??= value.slice();
      out[i] = cleaned;
    }
    return out ?? value;
  }
  const sets = (n: Node) =>
    [n.additionalProperties, n.patternProperties, n.unevaluatedProperties].some(
      (k) => k !== undefined,
    );
  const open = !all.some((n) => isNode(n.properties)) || all.some(sets);
  const entries: [string, JsonValue][] = [];
  for (const [key, item] of Object.entries(value as Record<string, JsonValue>)) {
    const declared = all.flatMap((n) =>
      isNode(n.properties) && Object.hasOwn(n.properties, key) ? [n.properties[key]] : [],
    );
    const at = join(path, key);
    if (declared.length === 0 && !open) drops.push(at);
    else if (declared.length > 0) entries.push([key, undeclared(item, declared, refs, at, drops)]);
    else
      entries.push([
        key,
        undeclared(
          item,
          all.map((n) => n.additionalProperties),
          refs,
          at,
          drops,
        ),
      ]);
  }
  if (
    entries.length === Object.keys(value as Node).length &&
    entries.every(([k, v]) => v === (value as Node)[k])
  )
    return value;
  const out = {};
  for (const [key, v] of entries) setOwn(out, key, v);
  return out;
}

function compileStandard(schema: StandardSchemaV1, dropUnknown: boolean, label: string) {
  const standard = schema["~standard"];
  const valid =
    isNode(standard) && standard.version === 1 && typeof standard.validate === "function";
  need(valid, `${label} schema: "~standard" is not a Standard Schema v1`);
  const vendor = String(standard.vendor).slice(0, 40);
  // Keys a message may name: those of the JSON Schema the validator offers (Standard JSON Schema,
  // zod 4); without one, every key is shown as `*`.
  const { jsonSchema } = standard as { jsonSchema?: { input?: (options: object) => unknown } };
  let known = new Set<string>();
  try {
    known = declaredNames(jsonSchema?.input?.({ target: "draft-2020-12" }), known);
  } catch {
    // No JSON Schema for this validator: keys stay unnamed.
  }
  return async (value: JsonValue, drops: string[]): Promise<Checked> => {
    const result = await standard.validate(value);
    if (result.issues) {
      const issue = result.issues[0] as
        | (StandardSchemaV1.Issue & { code?: unknown; type?: unknown })
        | undefined;
      // Issue messages quote the input (valibot: `received "…"`): only the path and the rule's name are kept.
      const keys = (issue?.path ?? []).map((s) =>
        typeof s === "object" && s !== null ? s.key : s,
      );
      const path = `/${keys.map((k) => (typeof k === "number" ? String(k) : safeSegment(String(k), known))).join("/")}`;
      const rule = [issue?.code, issue?.type].find(
        (c) => typeof c === "string" && /^[a-z_]{1,40}$/.test(c),
      );
      return refused(`${rule ?? "invalid"} at ${path} (${vendor})`);
    }
    if (!dropUnknown) return { ok: true, value };
    if (!isJson(result.value, 0))
      return refused(`could not be checked: the ${vendor} output is not JSON`, "contract/invalid");
    dropped(value, result.value, "", drops);
    return { ok: true, value: result.value };
  };
}

function isJson(value: unknown, depth: number): value is JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || depth > 1000) return false;
  const proto = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((item) => isJson(item, depth + 1));
}

/** Keys present in the input and absent from the validator's output. */
function dropped(input: JsonValue, output: JsonValue, path: string, drops: string[]): void {
  if (Array.isArray(input) && Array.isArray(output)) {
    for (const [i, item] of input.entries())
      if (i < output.length) dropped(item, output[i] as JsonValue, `${path}[*]`, drops);
  } else if (isNode(input) && isNode(output)) {
    for (const [key, item] of Object.entries(input)) {
      if (Object.hasOwn(output, key))
        dropped(item, output[key] as JsonValue, join(path, key), drops);
      else drops.push(join(path, key));
    }
  }
}
