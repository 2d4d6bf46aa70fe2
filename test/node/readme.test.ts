import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { samples } from "../../demo/samples.ts";

const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");

describe("README", () => {
  it("shows exactly what shape() returns for its example", async () => {
    const block =
      /<!-- example-output -->\n```text\n([\s\S]*?)\n```\n<!-- \/example-output -->/.exec(readme);
    expect(block).not.toBeNull();
    const build = samples.find((s) => s.id === "build");
    const shaped = await shape(build?.make() as never, { tool: "bash", maxTokens: 600 });
    expect(block?.[1]).toBe(shaped.text);
    expect(readme).toContain(`shaped.meta.tokens; // ${shaped.meta.tokens}: at most 600`);
    const cut = shaped.meta.cuts[0];
    expect(
      cut?.kind === "lines" &&
        readme.includes(`from: ${cut.from}, to: ${cut.to}, count: ${cut.count}`),
    ).toBe(true);
  });

  it("states the defaults the code has", async () => {
    const { DEFAULT_MAX_TOKENS, DEFAULT_MAX_BYTES, DEFAULT_HASH_LIMIT, MIN_MAX_TOKENS } =
      await import("agent-airlock");
    // The table may be padded by the formatter: match the cells, not the spacing.
    const cells = ["`maxTokens`", `integer ≥ ${MIN_MAX_TOKENS}`, `\`${DEFAULT_MAX_TOKENS}\``];
    const row = readme.split("\n").find((l) => l.includes("`maxTokens`") && l.startsWith("|"));
    expect(
      row
        ?.split("|")
        .map((c) => c.trim())
        .slice(1, 4),
    ).toEqual(cells);
    // Redaction, invisible removal and the spotlight mode: the table's defaults are the code's.
    const { compileOptions } = await import("../../src/options.js");
    const compiled = compileOptions({});
    const defaultOf = (option: string) =>
      readme
        .split("\n")
        .find((l) => l.startsWith(`| \`${option}\``))
        ?.split(/(?<!\\)\|/)[3]
        ?.trim();
    expect(defaultOf("redact")).toBe(`\`${compiled.redactor !== undefined}\``);
    expect(defaultOf("invisible")).toBe(`\`${compiled.invisible}\``);
    expect(defaultOf("spotlight")).toBe(`\`"${compiled.spotlight}"\``);
    expect(defaultOf("datamark")).toBe(`\`"${compiled.datamark}"\``);
    expect(readme).toContain(`\`${DEFAULT_MAX_BYTES}\` (256 MiB)`);
    expect(readme).toContain(`\`${DEFAULT_HASH_LIMIT}\` (16 MiB)`);
  });
});

describe("playground samples", () => {
  it("each shapes within its budget, with the status its title promises", async () => {
    const expected: Record<string, string> = {
      log: "partial",
      build: "error",
      progress: "ok",
      injection: "ok",
      binary: "partial",
    };
    for (const sample of samples) {
      const shaped = await shape(sample.make(), { tool: sample.tool, maxTokens: 600 });
      expect(shaped.status, sample.id).toBe(expected[sample.id]);
      expect(shaped.meta.tokens, sample.id).toBeLessThanOrEqual(600);
    }
    const progress = await shape(samples.find((s) => s.id === "progress")?.make() as never, {
      untrusted: false,
    });
    expect(progress.text).toBe(
      "Resolving packages\nDownloading #################### 100%\nwarning: package is deprecated, use v2\n[airlock: previous line repeated 4999 more times]\ndone in 14.2s",
    );
  });
});
