import { shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { toolLines } from "../helpers/markers.js";
import { chunkedStream } from "../helpers/sources.js";

const plain = { untrusted: false } as const;

describe("command output", () => {
  it("states exit code and stream sizes, stderr first", async () => {
    const shaped = await shape(
      { stdout: "built 3 files\n", stderr: "warning: unused import\n", exitCode: 0 },
      plain,
    );
    expect(toolLines(shaped.text)).toEqual([
      "[airlock: command exited with code 0; stdout 1 line, 14 bytes; stderr 1 line, 23 bytes]",
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
    expect(toolLines(shaped.text)[0]).toBe(
      "[airlock: command killed by SIGKILL; stdout 1 line, 8 bytes]",
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

  it("reads stdout and stderr concurrently: a writer blocked on one pipe is not a deadlock", async () => {
    // Coupled pipes with no buffer, like a child process: stdout does not close until stderr was
    // read to its end. Reading the streams one after the other would wait forever.
    let stderrDrained: () => void = () => {};
    const drained = new Promise<void>((done) => {
      stderrDrained = done;
    });
    let errSent = 0;
    const stderr = new ReadableStream<Uint8Array>(
      {
        pull(c) {
          if (errSent++ < 20) c.enqueue(new TextEncoder().encode(`err ${errSent}\n`));
          else {
            c.close();
            stderrDrained();
          }
        },
      },
      { highWaterMark: 0 },
    );
    let outSent = 0;
    const stdout = new ReadableStream<Uint8Array>(
      {
        async pull(c) {
          if (outSent++ < 5) c.enqueue(new TextEncoder().encode(`out ${outSent}\n`));
          else {
            await drained;
            c.close();
          }
        },
      },
      { highWaterMark: 0 },
    );
    const shaped = await shape({ stdout, stderr, exitCode: 0 }, plain);
    expect(shaped.meta.sections.map((s) => [s.name, s.lines])).toEqual([
      ["stderr", 20],
      ["stdout", 5],
    ]);
  });

  it("a child blocked on a full stdout writes stderr only once stdout is read: no joint sniff waits", async () => {
    // Pipes with no buffer of their own, like a child's: stderr's first byte comes only after
    // 256 KiB of stdout were taken, and stdout ends only after stderr has. Sniffing both heads
    // before reading either waited for stderr's first 4 KiB while nobody read stdout.
    const encoder = new TextEncoder();
    let outTaken = 0;
    let errDone: () => void = () => {};
    const errEnded = new Promise<void>((done) => {
      errDone = done;
    });
    let outWritten = 0;
    const stdout = new ReadableStream<Uint8Array>(
      {
        async pull(c) {
          if (outWritten < 256 * 1024) {
            const chunk = encoder.encode(`${"o".repeat(1023)}\n`);
            outWritten += chunk.byteLength;
            c.enqueue(chunk);
            outTaken = outWritten;
          } else {
            await errEnded;
            c.close();
          }
        },
      },
      { highWaterMark: 0 },
    );
    let errSent = false;
    const stderr = new ReadableStream<Uint8Array>(
      {
        async pull(c) {
          while (outTaken < 256 * 1024) await new Promise((r) => setTimeout(r, 1));
          if (!errSent) {
            errSent = true;
            c.enqueue(encoder.encode("error: the build failed\n"));
          } else {
            c.close();
            errDone();
          }
        },
      },
      { highWaterMark: 0 },
    );
    const shaped = await shape({ stdout, stderr, exitCode: 2 }, plain);
    expect(shaped.text).toContain("error: the build failed");
    expect(shaped.meta.sections.map((s) => [s.name, s.bytes])).toEqual([
      ["stderr", 24],
      ["stdout", 256 * 1024],
    ]);
  });

  it("the exit code may be a promise, settled after the pipes", async () => {
    let exit: (code: number) => void = () => {};
    const exitCode = new Promise<number>((done) => {
      exit = done;
    });
    const stdout = (async function* () {
      yield "compiling\n";
      yield new TextEncoder().encode("linking\n");
      setTimeout(() => exit(101), 0);
    })();
    const shaped = await shape({ stdout, exitCode }, plain);
    expect(shaped.status).toBe("error");
    expect(shaped.meta.exitCode).toBe(101);
    expect(shaped.text).toContain("command exited with code 101");
    expect(shaped.text).toContain("linking");
  });

  it("a binary stdout is a placeholder inside the command result", async () => {
    const png = new Uint8Array(64);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const shaped = await shape({ stdout: png, stderr: "wrote image\n", exitCode: 0 }, plain);
    expect(shaped.text).toContain(
      "[airlock: stdout]\n[airlock: binary content not shown: image/png, 64 bytes, sha256 ",
    );
    expect(shaped.text).toContain("wrote image");
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
