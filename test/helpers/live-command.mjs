/**
 * One live command shaped on the first call of a fresh process: what a host's agent loop does
 * the first time its bash tool runs. Prints the shaped result as one line of JSON.
 *
 *   node live-command.mjs <bundle dir> <node|web|helper> <script for sh -c> [timeoutMs]
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

const [dir, mode, script, timeout] = process.argv.slice(2);
const { fromProcess, shape } = await import(pathToFileURL(join(dir, "index.js")).href);

const child = spawn("sh", ["-c", script]);
let input;
if (mode === "helper") input = fromProcess(child);
else {
  const exitCode = new Promise((done) => child.on("close", done));
  const pipe = (s) => (mode === "web" ? Readable.toWeb(s) : s);
  input = { stdout: pipe(child.stdout), stderr: pipe(child.stderr), exitCode };
}
const shaped = await shape(input, {
  tool: "bash",
  maxTokens: 600,
  ...(timeout ? { timeoutMs: Number(timeout) } : {}),
});
if (mode === "helper" && timeout) child.kill("SIGKILL");
process.stdout.write(
  `${JSON.stringify({
    status: shaped.status,
    text: shaped.text,
    exitCode: shaped.meta.exitCode,
    sections: shaped.meta.sections.map((s) => [s.name, s.bytes]),
    cuts: shaped.meta.cuts,
  })}\n`,
);
