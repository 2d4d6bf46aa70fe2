/**
 * A tool's `outputSchema`, for cutting `structuredContent`: its check (a JSON Schema through
 * @cfworker/json-schema, which needs no `eval`, or any Standard Schema such as a zod object), and
 * for a JSON Schema the fewest items it allows for the array at a path (`minItems`), so a cut
 * never goes below it. The validator loads with the first schema.
 */
import type { Schema } from "../contract/contract.js";
import type { JsonValue } from "../pipeline/unit.js";
import type { Check, Path } from "./structured.js";

export interface OutputSchema {
  readonly check: Check;
  readonly minItems?: (path: Path) => number;
}

type Node = { readonly [key: string]: unknown };

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Reachable schemas are followed this far: a hostile schema's `$ref` loops end here. */
const MAX_NODES = 64;

/** A local `$ref` (`#/$defs/row`), resolved as a JSON Pointer. */
function follow(root: Node, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isNode(node) && !Array.isArray(node)) return undefined;
    node = (node as Node)[key];
  }
  return node;
}

/** The schema and the subschemas that also apply to the same value ($ref, allOf, anyOf, oneOf). */
function expand(root: Node, start: readonly unknown[]): Node[] {
  const out: Node[] = [];
  const queue = [...start];
  while (queue.length > 0 && out.length < MAX_NODES) {
    const node = queue.shift();
    if (!isNode(node) || out.includes(node)) continue;
    out.push(node);
    if (typeof node.$ref === "string") queue.push(follow(root, node.$ref));
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      const list = node[key];
      if (Array.isArray(list)) queue.push(...list.slice(0, MAX_NODES));
    }
  }
  return out;
}

/** The schemas for one step down: a property of an object, an item of an array. */
function child(node: Node, segment: string | number): unknown {
  if (typeof segment === "number") {
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : undefined;
    if (prefix) return segment < prefix.length ? prefix[segment] : node.items;
    if (Array.isArray(node.items))
      return segment < node.items.length ? node.items[segment] : node.additionalItems;
    return node.items;
  }
  const properties = node.properties;
  if (isNode(properties) && Object.hasOwn(properties, segment)) return properties[segment];
  return isNode(node.additionalProperties) ? node.additionalProperties : undefined;
}

/**
 * The largest `minItems` any schema that applies at the path asks for (branches of `anyOf` too:
 * keeping more is safe, the check decides).
 *
 * @example
 * minItemsOf({ properties: { rows: { type: "array", minItems: 2 } } })(["rows"]); // 2
 */
export function minItemsOf(schema: Node): (path: Path) => number {
  return (path) => {
    let nodes = expand(schema, [schema]);
    for (const segment of path) {
      nodes = expand(
        schema,
        nodes.map((n) => child(n, segment)),
      );
      if (nodes.length === 0) return 0;
    }
    let least = 0;
    for (const n of nodes)
      if (typeof n.minItems === "number" && Number.isFinite(n.minItems))
        least = Math.max(least, n.minItems);
    return least;
  };
}

/**
 * Compiles the schema once; a schema the validator cannot take (from a server, say) is
 * reported, not thrown.
 *
 * @example
 * const out = await compileOutputSchema(tool.outputSchema);
 * if ("check" in out) await out.check(value); // { ok: true }
 */
export async function compileOutputSchema(
  schema: Schema,
): Promise<OutputSchema | { readonly error: string }> {
  const { compileSchema } = await import("../contract/schemas.js");
  let compiled: ReturnType<typeof compileSchema>;
  try {
    compiled = compileSchema(schema, false, "outputSchema");
  } catch (error) {
    return { error: String((error as Error)?.message ?? error).slice(0, 300) };
  }
  const check: Check = async (value: JsonValue) => {
    const checked = await compiled(value, []);
    return checked.ok ? { ok: true } : { ok: false, detail: checked.detail };
  };
  if (!("~standard" in schema)) return { check, minItems: minItemsOf(schema as Node) };
  // A Standard Schema that offers its JSON Schema (zod 4 does) says its minItems too.
  let json: unknown;
  try {
    const standard = schema["~standard"] as { jsonSchema?: { output?: (o: object) => unknown } };
    json = standard.jsonSchema?.output?.({ target: "draft-2020-12" });
  } catch {
    json = undefined;
  }
  return isNode(json) ? { check, minItems: minItemsOf(json) } : { check };
}
