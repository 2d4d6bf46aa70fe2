/**
 * The kit the secret corpus is built from: a seeded PRNG, the alphabets and draws of token
 * formats, the carriers secrets leak through (env dumps, .env, docker inspect, kubectl, curl -v,
 * stack traces, CI logs) and the helpers that turn a kind's draw into labelled items. Shared by
 * bench/secret-corpus.mjs and the kinds under bench/corpus/.
 */
import { Buffer } from "node:buffer";

export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const DIGITS = "0123456789";
export const ALNUM = `${UPPER}${LOWER}${DIGITS}`;
export const HEX = "0123456789abcdef";
export const BASE32 = `${UPPER}234567`;
export const B64 = `${ALNUM}+/`;
export const B64URL = `${ALNUM}-_`;

/** A seeded PRNG (mulberry32) with the few draws the corpus needs. */
export function createRandom(seed) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return {
    int,
    chance: (p) => next() < p,
    between: (lo, hi) => lo + int(hi - lo + 1),
    pick: (list) => list[int(list.length)],
    chars: (alphabet, n) => {
      let s = "";
      for (let i = 0; i < n; i++) s += alphabet[int(alphabet.length)];
      return s;
    },
    bytes: (n) => Uint8Array.from({ length: n }, () => int(256)),
    shuffle: (list) => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Pieces of ordinary output

export const pad = (n, w = 2) => String(n).padStart(w, "0");
export const hex = (r, n) => r.chars(HEX, n);
export const digits = (r, n) => `${1 + r.int(9)}${r.chars(DIGITS, n - 1)}`;
export const b64 = (r, n) => Buffer.from(r.bytes(n)).toString("base64");
export const b64url = (r, n) => Buffer.from(r.bytes(n)).toString("base64url");
export const base64Of = (s) => Buffer.from(s).toString("base64");
/** The base64 characters that encode `s` whatever follows it (its whole 3-byte groups). */
export const base64Opening = (s) => base64Of(s.slice(0, s.length - (s.length % 3)));
export const uuid = (r) =>
  `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-${r.pick(["8", "9", "a", "b"])}${hex(r, 3)}-${hex(r, 12)}`;
export const ip = (r) => `10.${r.int(256)}.${r.int(256)}.${1 + r.int(254)}`;
export const clock = (r) =>
  `2026-11-30T${pad(r.int(24))}:${pad(r.int(60))}:${pad(r.int(60))}.${pad(r.int(1000), 3)}Z`;
export const httpDate = (r) =>
  `Mon, 30 Nov 2026 ${pad(r.int(24))}:${pad(r.int(60))}:${pad(r.int(60))} GMT`;

export const APPS = ["billing", "checkout", "ledger", "notify", "search", "reports", "accounts"];
export const SERVICES = [
  "api",
  "auth",
  "billing",
  "search",
  "worker",
  "gateway",
  "ledger",
  "notify",
];
export const PATHS = [
  "/v1/items",
  "/v1/users/me",
  "/v1/orders",
  "/healthz",
  "/v1/cart",
  "/v1/invoices",
];
export const USERS = ["app", "svc_billing", "deploy", "admin", "reporting", "ci"];
export const PEOPLE = [
  "Dana Ruiz",
  "Lee Wong",
  "Sam Okafor",
  "Priya Nair",
  "Jonas Berg",
  "Mia Costa",
];
export const REGIONS = ["us-east-1", "eu-west-1", "ap-southeast-2", "us-west-2"];

/** A password as people set them: mixed case, digits, a few punctuation marks. */
export const password = (r) => r.chars(`${ALNUM}${ALNUM}!#%^*-_.~+`, r.between(12, 24));
/** A password that can sit in a URL's userinfo without escaping. */
export const urlPassword = (r) => r.chars(`${ALNUM}${ALNUM}-_.~`, r.between(12, 24));
/** An opaque API secret: hex, base64 or alphanumeric, as services hand them out. */
export function opaque(r) {
  switch (r.int(5)) {
    case 0:
      return hex(r, r.pick([32, 40, 64]));
    case 1:
      return b64(r, r.pick([24, 32, 48]));
    case 2:
      return b64url(r, 32);
    case 3:
      return r.chars(ALNUM, r.between(24, 48));
    default:
      return password(r);
  }
}

export function logLine(r) {
  const level = r.pick(["INFO ", "INFO ", "INFO ", "DEBUG"]);
  const status = r.pick([200, 200, 200, 201, 204, 304, 404]);
  return `${clock(r)} ${level} ${r.pick(SERVICES)}-${r.int(8)} req=${hex(r, 8)} ${r.pick(["GET", "POST"])} ${r.pick(PATHS)} status=${status} dur=${r.int(4000) / 10}ms`;
}

/** Lines of ordinary log around the given ones. */
export function around(r, lines) {
  const before = Array.from({ length: r.between(2, 5) }, () => logLine(r));
  const after = Array.from({ length: r.between(1, 4) }, () => logLine(r));
  return [...before, ...lines, ...after].join("\n");
}

export const at = (r, level, text) =>
  `${clock(r)} ${level} ${r.pick(SERVICES)}-${r.int(8)} ${text}`;

// ---------------------------------------------------------------------------------------------
// Carriers: the outputs secrets leak through

export const envNoise = (r) => [
  ["PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"],
  ["HOSTNAME", hex(r, 12)],
  ["HOME", "/root"],
  ["LANG", "C.UTF-8"],
  ["NODE_VERSION", "20.18.1"],
  ["YARN_VERSION", "1.22.22"],
  ["PYTHON_VERSION", "3.12.7"],
  ["TERM", "xterm"],
  ["KUBERNETES_SERVICE_HOST", "10.96.0.1"],
  ["KUBERNETES_PORT", "tcp://10.96.0.1:443"],
  ["APP_ENV", "production"],
  ["LOG_LEVEL", "info"],
  ["PORT", "8080"],
  ["SHLVL", "1"],
  ["PWD", "/app"],
  ["TZ", "UTC"],
];

/** `keep` of the noise pairs in random order, with `pairs` inserted at random places. */
export function mixIn(r, noise, pairs, keep) {
  const list = r.shuffle(noise).slice(0, keep);
  for (const p of pairs) list.splice(r.int(list.length + 1), 0, p);
  return list;
}

export function envDump(r, pairs) {
  const prompt = r.pick(["$ env", "$ printenv", "/app # env", `root@${hex(r, 12)}:/app# env`]);
  const lines = mixIn(r, envNoise(r), pairs, r.between(6, 11)).map(([k, v]) => `${k}=${v}`);
  return [prompt, ...lines].join("\n");
}

export function dotenv(r, pairs) {
  const noise = [
    ["NODE_ENV", "production"],
    ["PORT", "3000"],
    ["LOG_LEVEL", "debug"],
    ["APP_URL", "https://app.example.com"],
    ["REDIS_HOST", "localhost"],
    ["FEATURE_NEW_CHECKOUT", "true"],
    ["DB_HOST", "localhost"],
    ["DB_PORT", "5432"],
  ];
  const quote = r.pick(["", "", '"', "'"]);
  const secretKeys = new Set(pairs.map(([k]) => k));
  const lines = mixIn(r, noise, pairs, r.between(3, 6)).map(([k, v]) =>
    secretKeys.has(k) ? `${k}=${quote}${v}${quote}` : `${k}=${v}`,
  );
  const header = r.pick(["# local settings, do not commit", "# generated by setup.sh", "# App"]);
  return `${[header, ...lines].join("\n")}\n`;
}

export function dockerInspect(r, env) {
  const id = hex(r, 64);
  const app = r.pick(APPS);
  const doc = [
    {
      Id: id,
      Created: clock(r),
      Path: "docker-entrypoint.sh",
      Args: ["node", "server.js"],
      State: { Status: "running", Running: true, Pid: r.between(1000, 60000), ExitCode: 0 },
      Image: `sha256:${hex(r, 64)}`,
      Name: `/${app}-${r.int(9)}`,
      RestartCount: 0,
      Config: {
        Hostname: id.slice(0, 12),
        Env: mixIn(r, envNoise(r), env, r.between(3, 6)).map(([k, v]) => `${k}=${v}`),
        Cmd: ["node", "server.js"],
        Image: `registry.example.com/${app}:1.${r.int(20)}.${r.int(10)}`,
        WorkingDir: "/app",
        Labels: { "com.docker.compose.project": app, "com.docker.compose.service": "web" },
      },
      NetworkSettings: {
        IPAddress: `172.17.0.${2 + r.int(200)}`,
        Ports: { "8080/tcp": [{ HostIp: "0.0.0.0", HostPort: "8080" }] },
      },
    },
  ];
  return JSON.stringify(doc, null, 4);
}

export function k8sMeta(r, name) {
  return {
    creationTimestamp: clock(r).replace(/\.\d+Z$/, "Z"),
    name,
    namespace: r.pick(["default", "prod", "payments"]),
    resourceVersion: String(r.between(10000, 9999999)),
    uid: uuid(r),
  };
}

export function k8sSecretYaml(r, name, data, type = "Opaque") {
  const m = k8sMeta(r, name);
  return [
    "apiVersion: v1",
    "data:",
    ...data.map(([k, v]) => `  ${k}: ${v}`),
    "kind: Secret",
    "metadata:",
    `  creationTimestamp: "${m.creationTimestamp}"`,
    `  name: ${m.name}`,
    `  namespace: ${m.namespace}`,
    `  resourceVersion: "${m.resourceVersion}"`,
    `  uid: ${m.uid}`,
    `type: ${type}`,
  ].join("\n");
}

export function k8sSecretJson(r, name, data, type = "Opaque") {
  const doc = {
    apiVersion: "v1",
    data: Object.fromEntries(data),
    kind: "Secret",
    metadata: k8sMeta(r, name),
    type,
  };
  return JSON.stringify(doc, null, 4);
}

/** `curl -v` output; `command` (the curl line) is printed first when given. */
export function curlVerbose(
  r,
  { method = "GET", url, request = [], status = 200, response = [], body },
) {
  const [, host, path = "/"] = /^[a-z]+:\/\/(?:[^@/]*@)?([^/]+)(\/.*)?$/.exec(url) ?? [];
  const addr = ip(r);
  return [
    `*   Trying ${addr}:443...`,
    `* Connected to ${host} (${addr}) port 443`,
    "* ALPN: curl offers h2,http/1.1",
    "* SSL connection using TLSv1.3 / TLS_AES_256_GCM_SHA384 / X25519 / RSASSA-PSS",
    "* using HTTP/2",
    `> ${method} ${path} HTTP/2`,
    `> Host: ${host}`,
    "> User-Agent: curl/8.5.0",
    "> Accept: */*",
    ...request.map(([k, v]) => `> ${k}: ${v}`),
    ">",
    `< HTTP/2 ${status}`,
    `< date: ${httpDate(r)}`,
    "< content-type: application/json",
    ...response.map(([k, v]) => `< ${k}: ${v}`),
    `< x-request-id: ${uuid(r)}`,
    "<",
    body ?? `{"ok":true,"id":"${uuid(r)}"}`,
    `* Connection #0 to host ${host} left intact`,
  ].join("\n");
}

export function pythonTrace(r, frames, error) {
  const lines = ["Traceback (most recent call last):"];
  for (const [file, fn, code] of frames) {
    lines.push(`  File "${file}", line ${r.between(12, 480)}, in ${fn}`, `    ${code}`);
  }
  lines.push(error);
  return around(r, [at(r, "ERROR", "unhandled exception in task"), ...lines]);
}

export const JAVA_FRAMES = [
  "org.springframework.beans.factory.support.AbstractAutowireCapableBeanFactory.doCreateBean",
  "org.springframework.beans.factory.support.AbstractBeanFactory.getBean",
  "org.springframework.boot.SpringApplication.run",
  "com.zaxxer.hikari.pool.HikariPool.checkFailFast",
  "com.zaxxer.hikari.HikariDataSource.getConnection",
  "org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl",
  "com.mongodb.internal.connection.InternalStreamConnection.open",
  "io.lettuce.core.RedisClient.connect",
];

export function javaTrace(r, header, cause) {
  const frame = () => {
    const f = r.pick(JAVA_FRAMES);
    const cls = f.split(".").at(-2);
    return `\tat ${f}(${cls}.java:${r.between(40, 900)})`;
  };
  return [
    `${clock(r)} ERROR 1 --- [           main] o.s.boot.SpringApplication               : Application run failed`,
    "",
    header,
    frame(),
    frame(),
    frame(),
    `Caused by: ${cause}`,
    frame(),
    frame(),
    `\t... ${r.between(20, 60)} common frames omitted`,
  ].join("\n");
}

/** A GitHub Actions step log: every line stamped. */
export function ciLog(r, { run, env = [], output = [] }) {
  let s = r.int(3000);
  const stamp = () => {
    s += r.int(3);
    return `2026-11-30T10:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}.${r.chars(DIGITS, 7)}Z`;
  };
  const lines = [`##[group]Run ${run[0]}`, ...run, "shell: /usr/bin/bash -e {0}"];
  if (env.length > 0) lines.push("env:", ...env.map(([k, v]) => `  ${k}: ${v}`));
  lines.push("##[endgroup]", ...output);
  return lines.map((l) => `${stamp()} ${l}`).join("\n");
}

/** A Jenkins console log with `set -x` tracing (each command echoed with `+`). */
export function jenkinsLog(r, commands) {
  const lines = [
    `Started by user ${r.pick(PEOPLE)}`,
    `Running on agent-${r.int(9)} in /var/lib/jenkins/workspace/${r.pick(APPS)}-deploy`,
    "[Pipeline] sh",
  ];
  for (const [cmd, out = []] of commands) lines.push(`+ ${cmd}`, ...out);
  lines.push("[Pipeline] }", "Finished: SUCCESS");
  return lines.join("\n");
}

export const shell = (cmd, out) => `$ ${cmd}\n${out}`;

// ---------------------------------------------------------------------------------------------
// Secret formats

export const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(s) {
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++) c = CRC_TABLE[(c ^ s.charCodeAt(i)) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function base62(n, width) {
  const alphabet = `${DIGITS}${UPPER}${LOWER}`;
  let s = "";
  do {
    s = alphabet[n % 62] + s;
    n = Math.floor(n / 62);
  } while (n > 0);
  return s.padStart(width, "0");
}

/** GitHub and npm tokens: 30 random characters and a base62 CRC32 of them (6 characters). */
export function checksummed(r, prefix) {
  const body = r.chars(ALNUM, 30);
  return `${prefix}${body}${base62(crc32(body), 6)}`;
}

/** DER openings of each key type (public: every key of the type starts so). */
export const PEM_SPECS = {
  RSA: { label: "RSA PRIVATE KEY", opening: "MIIEowIBAAKCAQEA", length: 1588, width: 64 },
  EC: { label: "EC PRIVATE KEY", opening: "MHcCAQEEI", length: 164, width: 64 },
  OPENSSH: {
    label: "OPENSSH PRIVATE KEY",
    opening: "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
    length: 396,
    width: 70,
  },
  PKCS8: {
    label: "PRIVATE KEY",
    opening: "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ",
    length: 1624,
    width: 64,
  },
};

/** A PEM private key: its lines (BEGIN, body…, END) and its body lines. */
export function pemKey(r, type) {
  const spec = PEM_SPECS[type];
  const all = spec.opening + r.chars(B64, spec.length - spec.opening.length);
  const body = [];
  for (let i = 0; i < all.length; i += spec.width) body.push(all.slice(i, i + spec.width));
  return {
    lines: [`-----BEGIN ${spec.label}-----`, ...body, `-----END ${spec.label}-----`],
    body,
  };
}

/** The PEM's body as it sits in text whose lines are joined by `sep` (and prefixed by `indent`). */
export const pemBody = (key, sep) => key.body.join(sep);

export const JWT_HEADERS = [
  { alg: "HS256", typ: "JWT" },
  { alg: "RS256", typ: "JWT" },
  { typ: "JWT", alg: "HS512" },
];

export function jwt(r) {
  const header = r.pick(JWT_HEADERS);
  const iat = 1795900000 + r.int(86400);
  const payload = r.pick([
    { sub: digits(r, 10), name: r.pick(PEOPLE), iat },
    {
      iss: "https://auth.example.com/",
      sub: `auth0|${hex(r, 24)}`,
      aud: "api",
      iat,
      exp: iat + 3600,
    },
    { sub: uuid(r), email: "dana@example.com", scope: "read write", iat, exp: iat + 900 },
    {
      iss: "kubernetes/serviceaccount",
      "kubernetes.io/serviceaccount/namespace": "prod",
      "kubernetes.io/serviceaccount/service-account.name": "default",
      sub: "system:serviceaccount:prod:default",
    },
  ]);
  const enc = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${enc(header)}.${enc(payload)}.${b64url(r, header.alg === "RS256" ? 256 : 32)}`;
}

// ---------------------------------------------------------------------------------------------
// How items are made: a kind draws a value, and item i puts it in form i mod n of the kind

export const LOG = "output.log";

/**
 * One carrier of a kind. `make(r, value)` returns the text, or `{ text, secrets }` when the
 * labelled secrets are not simply `[value]` (with `lookalikes`, token-like values beside the
 * secret that must survive, and `wrapped: true` when the secrets are the fragments of one token
 * broken across lines). `file` is the name secretlint sees (its GCP rule, for one, reads only
 * `.json` files); tool output that is not a file is `output.log`.
 */
export function form(carrier, file, make) {
  return (r, value) => {
    const made = make(r, value);
    return typeof made === "string"
      ? { carrier, file, text: made, secrets: [value] }
      : { carrier, file, secrets: [value], ...made };
  };
}

export const positive = (kind, value, forms, count = 12) => ({ kind, value, forms, count });

/** The carriers of a secret kept in an environment variable, named one of `names`. */
export function envForms(names) {
  const pick = (r) => (Array.isArray(names) ? r.pick(names) : names);
  return [
    form("env", LOG, (r, v) => envDump(r, [[pick(r), v]])),
    form(".env", ".env", (r, v) => dotenv(r, [[pick(r), v]])),
    form("docker inspect", "inspect.json", (r, v) => dockerInspect(r, [[pick(r), v]])),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: [`./scripts/deploy.sh ${r.pick(APPS)}`],
        env: [
          [pick(r), v],
          ["NODE_ENV", "production"],
        ],
        output: ["deploying…", `release ${hex(r, 7)} is live`],
      }),
    ),
    form("jenkins docker run", LOG, (r, v) =>
      jenkinsLog(r, [
        [`docker pull registry.example.com/${r.pick(APPS)}:latest`],
        [`docker run -d -e NODE_ENV=production -e ${pick(r)}=${v} acme/app:latest`, [hex(r, 64)]],
      ]),
    ),
  ];
}

/** The env carriers for a secret that is part of a larger value (a webhook URL). */
export const envFormsOf = (names, whole) =>
  envForms(names).map((f) => (r, v) => ({ ...f(r, whole(v)), secrets: [v] }));

/** `curl -v` with the secret in a request header, on the command line and in the trace. */
export const headerCurl = (url, header = "Authorization", scheme = "Bearer ") =>
  form("curl -v", LOG, (r, v) =>
    shell(
      `curl -sv -H "${header}: ${scheme}${v}" ${url}`,
      curlVerbose(r, { url, request: [[header, `${scheme}${v}`]] }),
    ),
  );

export const jsonFile = (name, doc) =>
  form("config JSON", name, (r, v) => JSON.stringify(doc(r, v), null, 2));

/** A Python traceback whose frame shows the line that holds the secret. */
export const pythonFrame = (code) =>
  form("Python traceback", LOG, (r, v) =>
    pythonTrace(
      r,
      [
        ["/app/worker/tasks.py", "run", "client = make_client()"],
        ["/app/worker/clients.py", "make_client", code(v)],
        ["/usr/local/lib/python3.12/site-packages/httpx/_client.py", "send", "raise exc from None"],
      ],
      "httpx.ConnectError: [Errno -3] Temporary failure in name resolution",
    ),
  );

/**
 * A negative kind whose forms each take the PRNG and return `[carrier, text]`, or
 * `[carrier, text, lookalikes]` naming the token-like values in the text that must survive.
 */
export const negative = (kind, forms, count = 12) => ({
  kind,
  count,
  forms: forms.map((f) => (r) => {
    const [carrier, text, lookalikes] = f(r);
    return lookalikes === undefined ? { carrier, text } : { carrier, text, lookalikes };
  }),
});

/**
 * A negative kind written out as text: blocks that each start with a `--- <carrier>` line. These
 * have no random part, so each block is one item.
 */
export function staticKind(kind, source) {
  const parts = source.split(/^--- (.+)\n/m).slice(1);
  const forms = [];
  for (let i = 0; i < parts.length; i += 2) {
    const text = parts[i + 1].replace(/\n$/, "");
    forms.push(() => ({ carrier: parts[i], text }));
  }
  return { kind, count: forms.length, forms };
}
