/**
 * Growth series of redact() on escape-heavy and view-heavy text (issue 14): each shape at 1x, 2x,
 * 4x and 8x of a base size of at least 256 KB, best of 3, and the ratio of the 8x time to the 1x
 * time (linear is 8; the aim is at most 12). Then redact() over a log next to a TextDecoder pass
 * over the same bytes, in the same process.
 *
 *   npm run build && node --expose-gc bench/redact-speed.mjs
 *   node --expose-gc bench/redact-speed.mjs --base=256KB --log=20MB
 */
import { createRedactor } from "../dist/index.js";
import { secretLog } from "./secret-corpus.mjs";

function option(name, fallback) {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : arg.slice(name.length + 3);
}

function bytes(s) {
  const m = /^(\d+(?:\.\d+)?)(KB|MB)?$/i.exec(s);
  if (!m) throw new Error(`bench: ${s} is not a size like 256KB`);
  return Math.floor(Number(m[1]) * ({ KB: 1024, MB: 1024 ** 2 }[(m[2] ?? "").toUpperCase()] ?? 1));
}

const base = Math.max(bytes(option("base", "256KB")), 256 * 1024);
const logBytes = bytes(option("log", "20MB"));
const fill = (unit, n) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A";

/** Shapes that stress what issue 14 added: escapes before tokens and keys, and the views. */
const SHAPES = [
  ["URL escapes before tokens", (n) => fill(`a%3D${token}%20x%22`, n)],
  ["JSON escapes shown as text", (n) => fill(String.raw`{\"password\": \"Xk9#mQ2vL7\"}\n\t`, n)],
  [
    "quoted-printable =3D and soft breaks",
    (n) => fill(`token=3D${token.slice(0, 30)}=\n${token.slice(30)}\n`, n),
  ],
  ["escapes without tokens", (n) => fill(String.raw`%3D%22%20\n\t\u0022=3D=20`, n)],
  [
    "hard-wrapped tokens (76 columns)",
    (n) => fill(`${"A".repeat(56)}${token.slice(0, 20)}\n${token.slice(20)} done\n`, n),
  ],
  [
    "equal-length log lines",
    (n) => fill("2026-11-30T10:33:34.542Z INFO api-1 req=4621dc66 status=200 dur=30ms\n", n),
  ],
  ["carriage-return redraws", (n) => fill("token=abc\rXk9mQ2vL7pR4wZ8tx ", n)],
  ["look-alike key names", (n) => fill("pаssword=Xk9mQ2vL7pR4 ", n)],
  [
    "pagination envelopes",
    (n) => fill('{"next_page_token":"eyJwYWdlIjogNH0=","items":[1,2]}\n', n),
  ],
];

const redact = createRedactor();
function best(fn, runs = 3) {
  let t = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    fn();
    t = Math.min(t, performance.now() - t0);
  }
  return t;
}

console.log(
  `node ${process.version}; airlock from dist/; base ${(base / 1024).toFixed(0)} KB, best of 3`,
);
console.log(
  `${"shape".padEnd(40)}${["1x", "2x", "4x", "8x"].map((s) => s.padStart(9)).join("")}   8x/1x`,
);
let worst = 0;
for (const [title, make] of SHAPES) {
  redact(make(base / 4)); // warm up the JIT on this shape
  const times = [1, 2, 4, 8].map((k) => {
    const text = make(base * k);
    return best(() => redact(text));
  });
  const ratio = (times[3] ?? 0) / Math.max(times[0] ?? 0, 0.01);
  worst = Math.max(worst, ratio);
  console.log(
    `${title.padEnd(40)}${times.map((t) => `${t.toFixed(1)}ms`.padStart(9)).join("")}   ${ratio.toFixed(1)}`,
  );
}
console.log(`worst growth ratio (8x/1x): ${worst.toFixed(1)} (linear 8, aim <= 12)`);

if (logBytes > 0) {
  const log = secretLog({ seed: 1, bytes: logBytes });
  const mib = log.bytes.byteLength / 1024 ** 2;
  redact(new TextDecoder().decode(log.bytes.subarray(0, 1 << 20)));
  const decode = best(() => new TextDecoder().decode(log.bytes));
  const text = new TextDecoder().decode(log.bytes);
  const ours = best(() => redact(text));
  console.log(
    `\nredact() over ${mib.toFixed(1)} MiB of log: ${(mib / (ours / 1000)).toFixed(0)} MiB/s;` +
      ` decode ${(mib / (decode / 1000)).toFixed(0)} MiB/s; redact at ${((100 * decode) / ours).toFixed(1)}% of decode`,
  );
}
