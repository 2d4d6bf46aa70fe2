/**
 * More carriers for the kinds under bench/corpus/: browser HAR exports, secret-manager reads,
 * Kubernetes `stringData` manifests, `git diff`, `ps aux`, pasted chat and the rest of the
 * tool output a token turns up in without a telling key next to it.
 */
import {
  APPS,
  clock,
  dotenv,
  envDump,
  form,
  hex,
  jenkinsLog,
  LOG,
  PEOPLE,
  pad,
  shell,
  uuid,
} from "./kit.mjs";

/**
 * A HAR file of one request, as browser devtools export it: headers as name/value pairs and the
 * query string decoded into `queryString`.
 */
export function har(r, { method = "GET", url, headers = [], status = 200, body, postData }) {
  const u = new URL(url);
  const request = {
    method,
    url,
    httpVersion: "http/2.0",
    headers: [
      { name: ":authority", value: u.host },
      { name: ":method", value: method },
      { name: ":path", value: `${u.pathname}${u.search}` },
      { name: "accept", value: "application/json" },
      ...headers.map(([name, value]) => ({ name, value })),
    ],
    queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
    cookies: [],
    headersSize: -1,
    bodySize: postData === undefined ? 0 : postData.length,
  };
  if (postData !== undefined) {
    request.postData = { mimeType: "application/x-www-form-urlencoded", text: postData };
  }
  const text = body ?? JSON.stringify({ id: uuid(r), status: "ok" });
  const entry = {
    startedDateTime: clock(r),
    time: r.int(9000) / 10,
    request,
    response: {
      status,
      statusText: "",
      httpVersion: "http/2.0",
      headers: [{ name: "content-type", value: "application/json" }],
      content: { size: text.length, mimeType: "application/json", text },
    },
  };
  const doc = { log: { version: "1.2", creator: { name: "WebInspector", version: "537.36" } } };
  doc.log.entries = [entry];
  return JSON.stringify(doc, null, 2);
}

/** `aws secretsmanager get-secret-value`: the secret is JSON inside a JSON string. */
export function secretsManagerGet(r, name, value) {
  const account = `${1 + r.int(9)}${String(r.int(1e11)).padStart(11, "0")}`;
  const doc = {
    ARN: `arn:aws:secretsmanager:us-east-1:${account}:secret:${name}-${hex(r, 6)}`,
    Name: name,
    VersionId: uuid(r),
    SecretString: JSON.stringify(value),
    VersionStages: ["AWSCURRENT"],
    CreatedDate: "2026-11-29T17:04:12.511000+00:00",
  };
  return shell(
    `aws secretsmanager get-secret-value --secret-id ${name}`,
    JSON.stringify(doc, null, 4),
  );
}

/** A Secret manifest with plain `stringData`, as it sits in a repository or a Helm chart. */
export function stringDataSecret(r, name, pairs) {
  return shell(
    `cat k8s/${name}.yaml`,
    [
      "apiVersion: v1",
      "kind: Secret",
      "metadata:",
      `  name: ${name}`,
      `  namespace: ${r.pick(["default", "prod", "payments"])}`,
      "type: Opaque",
      "stringData:",
      ...pairs.map(([k, v]) => `  ${k}: ${v}`),
    ].join("\n"),
  );
}

/** `git diff` of a commit that adds `line` to `file` between `before` and `after` context lines. */
export function gitDiff(r, file, before, line, after = []) {
  const n = 10 + r.int(80);
  const context = before.length + after.length;
  return [
    "$ git diff --cached",
    `diff --git a/${file} b/${file}`,
    `index ${hex(r, 7)}..${hex(r, 7)} 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -${n},${context} +${n},${context + 1} @@`,
    ...before.map((l) => ` ${l}`),
    `+${line}`,
    ...after.map((l) => ` ${l}`),
  ].join("\n");
}

/** `ps aux` with the command line of one process (command lines are world-readable). */
export function psAux(r, command) {
  const row = (user, cmd) =>
    `${user.padEnd(8)} ${String(r.between(100, 60000)).padStart(7)}  ${(r.int(300) / 10).toFixed(1)}  ${(r.int(90) / 10).toFixed(1)} ${String(r.between(10000, 900000)).padStart(7)} ${String(r.between(5000, 90000)).padStart(6)} ?        Ssl  10:${pad(r.int(60))}   0:${pad(r.int(60))} ${cmd}`;
  return [
    "$ ps aux",
    "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND",
    row("root", "/sbin/init"),
    row("root", "/usr/bin/containerd"),
    row("app", command),
    row("app", "node /app/server.js"),
  ].join("\n");
}

/** A pasted support chat: someone shares the secret in prose, as people do. */
export function chat(r, sentence) {
  const who = r.pick(PEOPLE);
  return [
    `[10:${pad(r.int(60))}] ${who}: the deploy is failing again, ${sentence}`,
    `[10:${pad(r.int(60))}] ${r.pick(PEOPLE)}: checking the job logs now`,
  ].join("\n");
}

/** A shell transcript of `set -x` tracing in a Jenkins job, one command. */
export const traced = (r, cmd, out = []) => jenkinsLog(r, [[cmd, out]]);

/**
 * Carriers every provider kind gets: the env dump, the `.env` file, a pasted chat, a `git diff`
 * of the client code, a secret-manager read and a Kubernetes `stringData` manifest. `env` is
 * the variable name, `code(v)` the line of client code that holds the key.
 */
export function commonForms(env, code) {
  return [
    form("env", LOG, (r, v) => envDump(r, [[env, v]])),
    form(".env", ".env", (r, v) => dotenv(r, [[env, v]])),
    form("chat paste", LOG, (r, v) =>
      chat(r, `it says 401 with the key ${v} — did someone rotate it?`),
    ),
    form("git diff", LOG, (r, v) =>
      gitDiff(r, `src/${r.pick(APPS)}/client.${code.ext}`, code.context, code.line(v), code.after),
    ),
    form("secretsmanager get-secret-value", LOG, (r, v) =>
      secretsManagerGet(r, `prod/${r.pick(APPS)}/${env.toLowerCase()}`, { [env]: v }),
    ),
    form("k8s stringData", "secret.yaml", (r, v) =>
      stringDataSecret(r, `${r.pick(APPS)}-credentials`, [
        [env, v],
        ["LOG_LEVEL", "info"],
      ]),
    ),
  ];
}
