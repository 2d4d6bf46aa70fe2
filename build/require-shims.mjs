/**
 * CommonJS doors to the ES modules: for every entry of the exports map with a `require`
 * condition, a `.cjs` file beside its `import` file that `require()`s it. Node 20.19+ and 22.12+
 * can `require()` an ES module (without top-level await, which dist has none of); elsewhere the
 * shim fails with one line that says what to do instead of Node's paragraph.
 *
 *   node build/require-shims.mjs   (run by `npm run build`, after vite)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const { name, exports } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

let written = 0;
for (const [entry, conditions] of Object.entries(exports)) {
  if (typeof conditions !== "object" || conditions.require === undefined) continue;
  const esm = conditions.import;
  const cjs = conditions.require;
  if (typeof esm !== "string" || typeof cjs !== "string" || !cjs.endsWith(".cjs")) {
    throw new Error(
      `exports["${entry}"]: a require condition needs an import file and a .cjs path`,
    );
  }
  if (dirname(esm) !== dirname(cjs))
    throw new Error(`exports["${entry}"]: the shim must sit beside ${esm}`);
  if (!existsSync(join(root, esm))) throw new Error(`exports["${entry}"]: ${esm} was not built`);
  const specifier = entry === "." ? name : `${name}${entry.slice(1)}`;
  writeFileSync(
    join(root, cjs),
    `"use strict";
// ${specifier} is an ES module; this file lets require() load it where Node can (20.19+, 22.12+).
try {
  module.exports = require("./${basename(esm)}");
} catch (error) {
  if (error && error.code === "ERR_REQUIRE_ESM") {
    throw new Error(
      "${specifier} is ESM only and require() cannot load it here (Node " + process.version + "): use import(\\"${specifier}\\"), or Node 20.19+ / 22.12+ with require(esm) enabled",
    );
  }
  throw error;
}
`,
  );
  written++;
}
console.log(`require shims: ${written} written`);
