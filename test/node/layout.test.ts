/**
 * The layout stays true: a folder of `src/` imports only from itself, from earlier stages, from
 * `pipeline/` and `errors/` (the order below is the pipeline's), and no stage sees the compiled
 * options. Type-only imports count: a type that runs backwards is a dependency that does.
 * A planted backward import must be caught (the negative control).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/**
 * Folders in the order they may depend on each other: each may import from those before it.
 * `front` is the top-level modules (`shape.ts`, `index.ts`, …), which compose everything.
 * `telemetry` reads a finished result (it comes after the stages); `round` shares a budget
 * among results and checks their options (it comes after `options`); `session` grades a run's
 * results down to its ceiling (after `round`). `mcp` is an entry of its
 * own that composes the front (`compileShaper`, `shapeError`, `createResultReader`) into whole
 * MCP results: it comes after them, and nothing before it may import it. `frameworks` holds the
 * entries for agent frameworks (`agent-airlock/ai-sdk`, `/langchain`, `/openai-agents`): they
 * wrap the shapers of the top-level modules, so they come after them, and nothing imports them.
 * `edge` is the Worker entries, which re-export the front and `mcp`.
 */
const ORDER = [
  "errors",
  "pipeline",
  "intake",
  "html",
  "decode",
  "contract",
  "redact",
  "keep",
  "render",
  "fit",
  "fence",
  "failure",
  "store",
  "telemetry",
  "options",
  "round",
  "session",
  "adapters",
  "preview",
  "vendor",
  "front",
  "mcp",
  "frameworks",
  "edge",
] as const;

/** Stage folders: they must not import `options/` (each receives its own slice instead). */
const STAGES = new Set([
  "intake",
  "decode",
  "html",
  "contract",
  "redact",
  "keep",
  "render",
  "fit",
  "fence",
  "store",
]);

interface SourceFile {
  readonly path: string;
  readonly text: string;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (name.endsWith(".ts")) out.push(full);
  }
  return out;
}

function folderOf(path: string): string {
  const rel = relative(SRC, path).split(/[\\/]/);
  return rel.length === 1 ? "front" : (rel[0] as string);
}

const SPECIFIER =
  /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Every backward or forbidden import in the files, as "from → to" lines. */
function violations(files: readonly SourceFile[]): string[] {
  const rank = new Map<string, number>(ORDER.map((f, i) => [f, i]));
  const problems: string[] = [];
  for (const file of files) {
    const from = folderOf(file.path);
    const fromRank = rank.get(from);
    if (fromRank === undefined) {
      problems.push(`${relative(SRC, file.path)}: folder "${from}" is not in the layout order`);
      continue;
    }
    for (const m of file.text.matchAll(SPECIFIER)) {
      const spec = m[1] ?? m[2];
      if (spec === undefined || !spec.startsWith(".")) continue;
      const target = resolve(dirname(file.path), spec);
      const to = folderOf(target);
      if (to === from) continue;
      const toRank = rank.get(to);
      const where = `${relative(SRC, file.path)} → ${relative(SRC, target)}`;
      if (toRank === undefined) problems.push(`${where}: unknown folder "${to}"`);
      else if (toRank > fromRank) problems.push(`${where}: ${from} imports the later ${to}`);
      else if (STAGES.has(from) && to === "options")
        problems.push(`${where}: a stage imports the options`);
    }
  }
  return problems;
}

describe("layout: imports run forwards only", () => {
  const files = walk(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("no folder imports a later one, and no stage imports the compiled options", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });

  it("errors/ imports nothing, pipeline/ only errors/", () => {
    for (const file of files) {
      const folder = folderOf(file.path);
      if (folder !== "errors" && folder !== "pipeline") continue;
      for (const m of file.text.matchAll(SPECIFIER)) {
        const spec = m[1] ?? m[2];
        if (spec === undefined) continue;
        const to = spec.startsWith(".") ? folderOf(resolve(dirname(file.path), spec)) : "package";
        const allowed = folder === "errors" ? ["errors"] : ["errors", "pipeline"];
        expect(allowed, `${relative(SRC, file.path)} imports ${spec}`).toContain(to);
      }
    }
  });

  it("negative control: a planted backward import is caught", () => {
    const planted: SourceFile = {
      path: join(SRC, "decode", "planted.ts"),
      text: 'import type { Kept } from "../keep/keeper.js";\nexport const x = 1;\n',
    };
    const dynamic: SourceFile = {
      path: join(SRC, "intake", "planted.ts"),
      text: 'const m = await import("../render/lines.js");\n',
    };
    const options: SourceFile = {
      path: join(SRC, "keep", "planted.ts"),
      text: 'import { compileOptions } from "../options/compile.js";\n',
    };
    const found = violations([...files, planted, dynamic, options]);
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(
      /decode\/planted\.ts → keep\/keeper\.js: decode imports the later keep/,
    );
    expect(found[1]).toMatch(/intake imports the later render/);
    expect(found[2]).toMatch(/keep imports the later options/);
  });

  it("modules stay small: none over 450 lines, shape.ts on a page", () => {
    const long = files
      .map((f) => ({ file: relative(SRC, f.path), lines: f.text.split("\n").length }))
      .filter((f) => f.lines > 450 && !f.file.startsWith("vendor"));
    expect(long).toEqual([]);
    const shape = files.find((f) => relative(SRC, f.path) === "shape.ts");
    expect(shape?.text.split("\n").length).toBeLessThanOrEqual(150);
  });
});
