/**
 * Command intake on real child processes (`node -e`, `sh -c`), as hosts hand them over: the
 * README's agent loop `shape({ stdout: child.stdout, stderr: child.stderr, exitCode })`, each
 * case through Node streams and through `Readable.toWeb`. What the streams made in-test cannot
 * show: a child blocks on a full pipe (64 KiB) until someone reads it, and Node discards what is
 * still unread in a pipe once its child exits. Every case keeps the error line and the exact byte
 * counts; a hang fails the case by its time bound, never by the suite's.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { getEventListeners, once } from "node:events";
import { join } from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { type CommandOutput, createShaper, fromProcess, type Shaped, shape } from "agent-airlock";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { bundleLibrary, root } from "../helpers/bundle.js";
import { toolLines } from "../helpers/markers.js";
import { setupOrFail } from "../helpers/setup.js";

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** A child running `node -e script`; every child a case starts is killed after it. */
const children: ChildProcess[] = [];
function node(script: string): ChildProcess {
  const child = spawn(process.execPath, ["-e", script]);
  children.push(child);
  return child;
}
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

type Mode = "node" | "web";
const MODES: readonly Mode[] = ["node", "web"];

/** The child's pipes as the host hands them: Node streams, or Web streams through `toWeb`. */
function pipes(child: ChildProcess, mode: Mode): Pick<CommandOutput, "stdout" | "stderr"> {
  const out = child.stdout as Readable;
  const err = child.stderr as Readable;
  return mode === "node"
    ? { stdout: out, stderr: err }
    : {
        stdout: Readable.toWeb(out) as unknown as ReadableStream<Uint8Array>,
        stderr: Readable.toWeb(err) as unknown as ReadableStream<Uint8Array>,
      };
}

/** The README's loop: pipes and an exit promise from `close`, shaped at once. */
function loop(child: ChildProcess, mode: Mode): CommandOutput {
  const exitCode = new Promise<number | null>((done) => child.on("close", done));
  return { ...pipes(child, mode), exitCode };
}

/** Shapes within `ms`, or fails naming the hang (a deadlock must fail the case, not the suite). */
async function bounded(shaping: Promise<Shaped>, ms = 30_000): Promise<Shaped> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`shape() did not return within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([shaping, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** UTF-8 bytes of what a child wrote, counted here, not by the code under test. */
const len = (text: string) => Buffer.byteLength(text);

const bytesOf = (shaped: Shaped) =>
  Object.fromEntries(shaped.meta.sections.map((s) => [s.name, s.bytes]));

/** Writes with writeSync: the child blocks on a full pipe, as a compiler writing its log does. */
const WRITER = `const { writeSync } = require("node:fs");
const write = (fd, text) => { const b = Buffer.from(text); for (let o = 0; o < b.length; ) o += writeSync(fd, b, o); };`;

describe.each(MODES)("live commands through %s streams", (mode) => {
  it("10 MB of stdout, then the error on stderr: both read, nothing stalls", async () => {
    const child = node(`${WRITER}
      const line = "x".repeat(99) + "\\n";
      const block = line.repeat(1000);
      for (let i = 0; i < 100; i++) write(1, block);
      write(2, "error[E0308]: mismatched types at src/main.rs:14\\n");
      process.exitCode = 2;`);
    const shaped = await bounded(shape(loop(child, mode), { maxTokens: 800 }));
    expect(shaped.status).toBe("error");
    expect(shaped.meta.exitCode).toBe(2);
    expect(shaped.text).toContain("error[E0308]: mismatched types at src/main.rs:14");
    expect(bytesOf(shaped)).toEqual({
      stdout: 10_000_000,
      stderr: len("error[E0308]: mismatched types at src/main.rs:14\n"),
    });
  });

  it("stderr first and large (2 MB), then stdout: the error in the middle kept", async () => {
    const child = node(`${WRITER}
      const warn = "warning: unused variable \`x\`\\n";
      for (let i = 0; i < 40_000; i++) write(2, warn);
      write(2, "error: linking with cc failed: exit status 1\\n");
      for (let i = 0; i < 40_000; i++) write(2, warn);
      write(1, "Finished in 3.2s\\n");
      process.exitCode = 101;`);
    const shaped = await bounded(shape(loop(child, mode), { maxTokens: 800 }));
    expect(shaped.status).toBe("error");
    expect(shaped.text).toContain("error: linking with cc failed: exit status 1");
    expect(shaped.text).toContain("Finished in 3.2s");
    expect(bytesOf(shaped)).toEqual({
      stdout: len("Finished in 3.2s\n"),
      stderr:
        80_000 * len("warning: unused variable `x`\n") +
        len("error: linking with cc failed: exit status 1\n"),
    });
  });

  it("interleaved writes, each pipe filling in turn", async () => {
    const child = node(`${WRITER}
      const big = "y".repeat(8191) + "\\n";
      for (let i = 0; i < 200; i++) { write(1, big); write(2, "err " + i + "\\n"); }
      write(2, "FATAL: out of memory\\n");
      process.exitCode = 1;`);
    const shaped = await bounded(shape(loop(child, mode), { maxTokens: 800 }));
    expect(shaped.text).toContain("FATAL: out of memory");
    let errBytes = 21;
    for (let i = 0; i < 200; i++) errBytes += `err ${i}\n`.length;
    expect(bytesOf(shaped)).toEqual({ stdout: 200 * 8192, stderr: errBytes });
  });

  it("a killed child: the signal, and what it wrote before", async () => {
    const child = node(`${WRITER} write(1, "compiling 1 of 9\\n"); setInterval(() => {}, 1000);`);
    const exit = new Promise<[number | null, string | null]>((done) =>
      child.on("exit", (code, signal) => done([code, signal])),
    );
    const input: CommandOutput = {
      ...pipes(child, mode),
      exitCode: exit.then(([code]) => code),
      signal: exit.then(([, signal]) => signal),
    };
    const shaping = shape(input);
    await once(child.stdout as Readable, "readable").catch(() => undefined);
    await sleep(100);
    child.kill("SIGKILL");
    const shaped = await bounded(shaping);
    expect(shaped.status).toBe("error");
    expect(shaped.meta.signal).toBe("SIGKILL");
    expect(shaped.text).toContain("command killed by SIGKILL");
    expect(shaped.text).toContain("compiling 1 of 9");
    expect(bytesOf(shaped)).toEqual({ stdout: 17 });
  });

  it("a child that never exits is stopped by timeoutMs, what it wrote kept", async () => {
    const child = node(
      `${WRITER} write(1, "started\\n"); write(2, "error: waiting for the lock on target/\\n"); setInterval(() => {}, 1000);`,
    );
    const started = Date.now();
    const shaped = await bounded(shape(loop(child, mode), { timeoutMs: 1500 }), 10_000);
    // The deadline counts from the call; the exit is not waited for once the host stopped the run.
    expect(Date.now() - started).toBeLessThan(6000);
    expect(shaped.text).toContain("error: waiting for the lock on target/");
    expect(shaped.text).toContain("read stopped early (timeoutMs passed)");
    expect(shaped.meta.cuts.some((c) => c.kind === "stopped" && c.reason === "timeout")).toBe(true);
    expect(shaped.meta.exitCode).toBeNull();
    expect(bytesOf(shaped)).toEqual({ stdout: 8, stderr: 39 });
  });

  it("a rejected exitCode, never caught by the host: no unhandled rejection, the failure told", async () => {
    const child = node(`${WRITER} write(2, "error: permission denied\\n");`);
    // A host's exit promise that rejects before the pipeline has loaded; nothing else catches it.
    const exitCode = Promise.reject(new Error("the runner lost the child"));
    const shaped = await bounded(shape({ ...pipes(child, mode), exitCode }));
    expect(shaped.status).toBe("error");
    expect(shaped.text).toContain("error: permission denied");
    expect(shaped.text).toContain("command failed (the runner lost the child)");
    expect(shaped.meta.degraded?.map((d) => d.code)).toContain("intake/exit-unknown");
    expect(bytesOf(shaped)).toEqual({ stderr: 25 });
  });

  it("a stream that errors midway: a read failure, what was read before kept", async () => {
    const child = node(`${WRITER} write(1, "step 1 ok\\n"); setInterval(() => {}, 1000);`);
    const out = child.stdout as Readable;
    const input = loop(child, mode);
    const shaping = shape({ ...input, exitCode: 1 });
    await once(out, "readable").catch(() => undefined);
    await sleep(100);
    out.destroy(new Error("EIO: i/o error, read"));
    child.kill("SIGKILL");
    const shaped = await bounded(shaping);
    expect(shaped.status).toBe("error");
    expect(shaped.text).toContain("step 1 ok");
    expect(shaped.text).toMatch(/reading stdout failed \(EIO: i\/o error, read\)/);
  });
});

describe("live commands: output the host let go", () => {
  it("fromProcess after an await of 200 ms: nothing lost", async () => {
    for (const script of [
      `process.stderr.write("ls: cannot access '/nonexistent': No such file or directory\\n"); process.exitCode = 2;`,
    ]) {
      const child = node(script);
      const output = fromProcess(child);
      await sleep(200);
      // The child is gone before shape() is called (on a loaded machine it may take longer),
      // and Node has resumed its unread pipes: the case raw pipes lose.
      if (child.exitCode === null) await once(child, "exit");
      await sleep(50);
      expect(child.exitCode).toBe(2);
      const shaped = await bounded(shape(output));
      expect(shaped.status).toBe("error");
      expect(shaped.meta.exitCode).toBe(2);
      expect(shaped.text).toContain("No such file or directory");
      expect(bytesOf(shaped)).toEqual({
        stderr: len("ls: cannot access '/nonexistent': No such file or directory\n"),
      });
    }
  });

  it("raw Node pipes after the child exited: the loss is declared, never 'no output'", async () => {
    // Negative control of the helper: the same command, its pipes handed over too late.
    const child = node(`process.stderr.write("error: the build failed\\n"); process.exitCode = 2;`);
    const exitCode = new Promise<number | null>((done) => child.on("close", done));
    await once(child, "exit");
    await sleep(100); // Node resumes the unread pipes on exit, and their bytes go nowhere
    const shaped = await bounded(
      shape({ stdout: child.stdout as Readable, stderr: child.stderr as Readable, exitCode }),
    );
    expect(shaped.status).toBe("error");
    expect(shaped.text).not.toContain("[airlock: no output]");
    expect(shaped.text).toContain(
      "[airlock: the first 24 bytes of stderr were lost before they could be read]",
    );
    expect(shaped.meta.cuts).toContainEqual({ kind: "lost", section: "stderr", bytes: 24 });
    expect(shaped.meta.degraded?.map((d) => d.code)).toContain("intake/output-lost");
  });

  it("fromProcess on a command that cannot start: a failed command, not a thrown 'error' event", async () => {
    const child = spawn("airlock-no-such-command-here", ["build"]);
    const shaped = await bounded(shape(fromProcess(child)));
    expect(shaped.status).toBe("error");
    expect(shaped.meta.error?.code).toBe("tool/failed");
    expect(shaped.text).toMatch(/command failed \(spawn .*ENOENT\)/);
  });

  it("fromProcess on a killed child gives its signal", async () => {
    const child = node(`process.stdout.write("working\\n"); setInterval(() => {}, 1000);`);
    const output = fromProcess(child);
    await once(child.stdout as Readable, "data").catch(() => undefined);
    child.kill("SIGTERM");
    const shaped = await bounded(shape(output));
    expect(shaped.meta.signal).toBe("SIGTERM");
    expect(shaped.text).toContain("command killed by SIGTERM");
    expect(shaped.text).toContain("working");
  });

  it("a background process holding the pipes: the read ends once the command exited and the pipe went quiet", async () => {
    const child = spawn("sh", ["-c", "echo 'started server on :8080'; sleep 30 &"]);
    children.push(child);
    const started = Date.now();
    const shaped = await bounded(shape(fromProcess(child)), 15_000);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(shaped.meta.exitCode).toBe(0);
    expect(shaped.text).toContain("started server on :8080");
    expect(shaped.text).toContain("read stopped 1000 ms after the command exited");
    expect(shaped.meta.cuts.some((c) => c.kind === "stopped" && c.reason === "exited")).toBe(true);
  });

  it("a stream the process did not pipe is said to be elsewhere, never 'no output'", async () => {
    const child = spawn(process.execPath, ["-e", "process.exitCode = 3"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const shaped = await bounded(shape(fromProcess(child)));
    expect(shaped.text).toContain("stdout not captured");
    expect(shaped.text).toContain("[airlock: stdout was not captured");
    expect(shaped.text).not.toContain("[airlock: no output]");
    expect(shaped.meta.exitCode).toBe(3);
  });

  it("the byte cap closes the pipe: a command that then fails says it failed after the cut", async () => {
    const child = node(`${WRITER} for (;;) write(1, "tick\\n");`);
    const shaped = await bounded(shape(fromProcess(child), { maxBytes: 1000 }));
    expect(shaped.meta.sections.find((s) => s.name === "stdout")?.capped).toBe(true);
    expect(toolLines(shaped.text)[1]).toMatch(
      /after airlock stopped reading stdout( and stderr)? at maxBytes \(which may have ended it\)/,
    );
  });

  it("a host encoding on the pipe is no loss (readableLength counts characters then)", async () => {
    const child = node(
      `${WRITER} for (let i = 0; i < 20; i++) write(1, "héllo wörld ✓\\n"); setTimeout(() => {}, 400);`,
    );
    (child.stdout as Readable).setEncoding("utf8");
    const exitCode = new Promise<number | null>((done) => child.on("close", done));
    await sleep(200);
    const shaped = await bounded(
      shape({ stdout: child.stdout as Readable, stderr: child.stderr as Readable, exitCode }),
    );
    expect(shaped.meta.cuts.filter((c) => c.kind === "lost")).toEqual([]);
    expect(bytesOf(shaped).stdout).toBe(20 * len("héllo wörld ✓\n"));
  });

  it("a refused input leaves every pipe unread; a stream read twice is refused", async () => {
    const child = node(`${WRITER} for (let i = 0; i < 20000; i++) write(1, "line " + i + "\\n");`);
    const locked = new ReadableStream<Uint8Array>();
    locked.getReader();
    const exitCode = new Promise<number | null>((done) => child.on("close", done));
    await expect(
      shape({ stdout: child.stdout as Readable, stderr: locked, exitCode }),
    ).rejects.toMatchObject({ code: "input/unsupported" });
    // The same pipe, handed over again without the locked stream: nothing of it was taken.
    let expected = 0;
    for (let i = 0; i < 20000; i++) expected += len(`line ${i}\n`);
    const retry = shape({ stdout: child.stdout as Readable, exitCode });
    // ...while that shape reads it, a second reader of the same pipe is refused, not starved.
    await expect(shape(child.stdout as Readable)).rejects.toMatchObject({
      code: "input/unsupported",
    });
    const shaped = await bounded(retry);
    expect(bytesOf(shaped)).toEqual({ stdout: expected });
  });

  it("a misspelt call option rejects, and the host's rejected exit promise is still handled", async () => {
    const child = spawn("airlock-no-such-command-here");
    child.on("error", () => {});
    const exitCode = new Promise<number>((_, fail) => child.on("error", fail));
    const shapeBash = createShaper();
    await expect(
      shapeBash({ stdout: child.stdout as Readable, exitCode }, { maxToken: 10 } as never),
    ).rejects.toMatchObject({ code: "options/invalid" });
    // An unhandled rejection would fail this file's run.
    await sleep(100);
  });

  it("timeoutMs bounds the wait for an exit promise that never settles", async () => {
    const started = Date.now();
    const shaped = await bounded(
      shape({ stdout: "done\n", exitCode: new Promise<number>(() => {}) }, { timeoutMs: 300 }),
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(shaped.meta.degraded?.[0]?.message).toContain("the run was stopped (timeoutMs)");
  });

  it("a host's abortSignal keeps no listener once each call is done", async () => {
    const controller = new AbortController();
    const shapeText = createShaper({ abortSignal: controller.signal });
    for (let i = 0; i < 50; i++) await shapeText(`line ${i}`, { abortSignal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a captured command is shaped once; a second shape is a programmer error", async () => {
    const child = node(`process.stdout.write("once\\n");`);
    const output = fromProcess(child);
    await bounded(shape(output));
    await expect(shape(output)).rejects.toMatchObject({ code: "input/unsupported" });
  });
});

describe("live commands on the first call of a fresh process", () => {
  let bundle: Awaited<ReturnType<typeof bundleLibrary>> | undefined;
  setupOrFail(async () => {
    bundle = await bundleLibrary({ index: "index.ts" }, "live-commands");
  }, 120_000);
  afterAll(() => bundle?.remove());

  /** Runs one command in a fresh Node process (a fresh worker per case) and returns its result. */
  async function fresh(mode: "node" | "web" | "helper", script: string, timeoutMs?: number) {
    const { stdout } = await run(
      process.execPath,
      [
        join(root, "test/helpers/live-command.mjs"),
        bundle?.dir ?? "",
        mode,
        script,
        ...(timeoutMs !== undefined ? [String(timeoutMs)] : []),
      ],
      { cwd: root, timeout: 30_000 },
    );
    return JSON.parse(stdout) as {
      status: string;
      text: string;
      exitCode: number | null;
      sections: Array<[string, number]>;
    };
  }

  for (const mode of ["node", "web", "helper"] as const) {
    it(`a fast failing command, first call, through ${mode}: its stderr is kept`, async () => {
      const out = await fresh(mode, "ls /nonexistent-airlock-dir");
      expect(out.status).toBe("error");
      expect(out.exitCode).toBe(2);
      expect(out.text).toContain("No such file or directory");
      expect(out.text).not.toContain("[airlock: no output]");
      const [name, bytes] = out.sections[0] ?? [];
      expect(name).toBe("stderr");
      expect(bytes).toBeGreaterThan(30);
    });
  }

  it("timeoutMs passing while the pipeline loads keeps what was already read", async () => {
    // The deadline counts from the call; the first call spends it loading. What the pipes gave
    // meanwhile was read (ahead), and is shown; only what came after is left.
    const out = await fresh("helper", "echo 'line one'; echo 'error: line two' >&2; sleep 30", 150);
    expect(out.text).toContain("line one");
    expect(out.text).toContain("error: line two");
    expect(out.text).toContain("read stopped early (timeoutMs passed)");
    expect(Object.fromEntries(out.sections)).toEqual({ stdout: 9, stderr: 16 });
  });

  it("the README's loop on a cargo-like build, first call: the error kept, bytes exact", async () => {
    const script =
      'i=1; while [ $i -le 4000 ]; do echo "[$i/4000] compiling src/module_$i.rs"; i=$((i+1)); done; ' +
      'echo "error[E0308]: mismatched types" >&2; exit 2';
    const out = await fresh("node", script);
    expect(out.status).toBe("error");
    expect(out.text).toContain("error[E0308]: mismatched types");
    let stdout = 0;
    for (let i = 1; i <= 4000; i++) stdout += `[${i}/4000] compiling src/module_${i}.rs\n`.length;
    expect(Object.fromEntries(out.sections)).toEqual({ stdout, stderr: 31 });
  });
});
