import { shape } from "airlock";
import { describe, expect, it } from "vitest";
import { chunkedStream } from "../helpers/sources.js";

const plain = { untrusted: false } as const;

describe("command output", () => {
  it("states exit code and stream sizes, stderr first", async () => {
    const shaped = await shape(
      { stdout: "built 3 files\n", stderr: "warning: unused import\n", exitCode: 0 },
      plain,
    );
    expect(shaped.text.split("\n")).toEqual([
      "[airlock: command exited with code 0; stdout 1 lines, 14 bytes; stderr 1 lines, 23 bytes]",
      "[airlock: stderr]",
      "warning: unused import",
      "[airlock: stdout]",
      "built 3 files",
    ]);
    expect(shaped.status).toBe("ok");
    expect(shaped.meta.exitCode).toBe(0);
  });

  it("a non-zero exit is an error, and stderr gets the budget first", async () => {
    const stdout = Array.from({ length: 20_000 }, (_, i) => `compiling module ${i}`).join("\n");
    const stderr = "error: linking failed\nld: symbol not found: _main\nnote: run with -v";
    const shaped = await shape({ stdout, stderr, exitCode: 2 }, { ...plain, maxTokens: 300 });
    expect(shaped.status).toBe("error");
    expect(shaped.meta.error?.code).toBe("tool/failed");
    for (const line of stderr.split("\n")) expect(shaped.text).toContain(line);
    expect(shaped.text).toContain("[airlock: omitted stdout lines");
    expect(shaped.meta.tokens).toBeLessThanOrEqual(300);
  });

  it("a signal is reported", async () => {
    const shaped = await shape({ stdout: "working\n", signal: "SIGKILL" }, plain);
    expect(shaped.text.split("\n")[0]).toBe(
      "[airlock: command killed by SIGKILL; stdout 1 lines, 8 bytes]",
    );
    expect(shaped.status).toBe("error");
  });

  it("streams are read together (a pipe left unread would block its writer)", async () => {
    const out = chunkedStream(Array.from({ length: 50 }, (_, i) => `out ${i}\n`));
    const err = chunkedStream(Array.from({ length: 50 }, (_, i) => `err ${i}\n`));
    const shaped = await shape({ stdout: out.stream, stderr: err.stream, exitCode: 1 }, plain);
    expect(shaped.meta.sections.map((s) => [s.name, s.lines])).toEqual([
      ["stderr", 50],
      ["stdout", 50],
    ]);
  });

  it("no output at all is empty, not an error", async () => {
    const shaped = await shape({ stdout: "", stderr: "", exitCode: 0 }, plain);
    expect(shaped.status).toBe("empty");
    expect(shaped.text).toContain("[airlock: no output]");
  });

  it("whitespace-only text is empty", async () => {
    expect((await shape("  \n\t\n", plain)).status).toBe("empty");
    expect((await shape("", plain)).status).toBe("empty");
  });
});
