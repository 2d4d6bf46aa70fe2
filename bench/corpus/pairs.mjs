/**
 * Generic name/value pairs in the assignment syntaxes the first corpus lacks: Go `:=`, PHP/Ruby
 * `=>`, percent-encoded `password%3D…`, YAML `secret:`, a `PASSWORD=` line redrawn with `\r` or
 * ending CRLF, PowerShell, Java `-D` properties and CLI flags in `ps aux`, XML elements and
 * .NET `<add key= value=>`, INI/`.pgpass`/`.netrc`, Dockerfile `ENV` in `docker history`,
 * Python and JS object reprs, Rails console inspect, Rust compiler excerpts, Makefiles, Elixir
 * keyword lists, `mysql -p…`, `redis-cli -a`, `sshpass -p`, `net use`, `curl -u`.
 *
 * And values of a known secret format under a key that names something benign (`next_token`,
 * `cursor`, `etag`, `request_id`): a key never makes a known format safe.
 */

import { psAux } from "./carriers.mjs";
import {
  ALNUM,
  APPS,
  around,
  at,
  BASE32,
  checksummed,
  clock,
  curlVerbose,
  form,
  hex,
  jenkinsLog,
  LOG,
  opaque,
  PEOPLE,
  pad,
  positive,
  shell,
  USERS,
  uuid,
} from "./kit.mjs";

/** A value that needs no quoting in any of the syntaxes below. */
const plain = (r) => opaque(r).replace(/[!#%^*~+/=]/g, () => r.pick(["x", "Q", "7", "_"]));

const PAIR_FORMS = [
  form("Go := (grep -rn)", LOG, (r, v) =>
    shell(
      'grep -rn "password :=" internal/',
      `internal/db/conn.go:${r.between(10, 90)}:\tpassword := "${v}"\ninternal/db/conn_test.go:${r.between(10, 90)}:\tpassword := os.Getenv("TEST_DB_PASSWORD")`,
    ),
  ),
  form(
    "PHP =>",
    "database.php",
    (_r, v) =>
      `<?php\n\nreturn [\n    'default' => 'mysql',\n    'connections' => [\n        'mysql' => [\n            'host' => '127.0.0.1',\n            'username' => 'forge',\n            'password' => '${v}',\n        ],\n    ],\n];\n`,
  ),
  form(
    "Ruby hash rocket",
    LOG,
    (_r, v) =>
      `irb(main):001> ActiveRecord::Base.establish_connection(:adapter => "postgresql", :host => "db", :username => "app", :password => "${v}")`,
  ),
  form("percent-encoded password%3D", LOG, (r, v) => {
    const encoded = encodeURIComponent(v);
    return {
      text: around(r, [
        `${r.int(255)}.${r.int(255)}.${r.int(255)}.${r.int(255)} - - [30/Nov/2026:10:${pad(r.int(60))}:${pad(r.int(60))} +0000] "GET /sso/start?next=%2Flogin%3Fuser%3Ddana%26password%3D${encodeURIComponent(encoded)} HTTP/1.1" 302 0`,
      ]),
      secrets: [encodeURIComponent(encoded)],
    };
  }),
  form("curl --trace-ascii form body", LOG, (r, v) => {
    const encoded = encodeURIComponent(v);
    return {
      text: `$ curl --trace-ascii - --data-urlencode "username=${r.pick(USERS)}" --data-urlencode "password=…" https://app.example.com/login\n=> Send header, 180 bytes (0xb4)\n0000: POST /login HTTP/1.1\n=> Send data, ${20 + encoded.length} bytes\n0000: username=${r.pick(USERS)}&password=${encoded}\n<= Recv header, 23 bytes (0x17)\n0000: HTTP/1.1 302 Found`,
      secrets: [encoded],
    };
  }),
  form(
    "YAML secret:",
    "config.yml",
    (r, v) =>
      `server:\n  port: 8080\nsession:\n  name: ${r.pick(APPS)}_sid\n  secret: ${v}\n  max_age: 86400`,
  ),
  form(
    "\\r redraw",
    LOG,
    (r, v) =>
      `Loading environment...  0%\rLoading environment... 50%\rLoading environment...100%\rPASSWORD=${v}\nDB_HOST=db-${r.int(9)}.internal\n`,
  ),
  form(
    "CRLF set (cmd.exe)",
    LOG,
    (_r, v) =>
      `C:\\app> set\r\nCOMPUTERNAME=BUILD-07\r\nDB_PASSWORD=${v}\r\nNUMBER_OF_PROCESSORS=8\r\nOS=Windows_NT\r\n`,
  ),
  form(
    "Python/TOML =",
    "settings.toml",
    (_r, v) =>
      `[database]\nhost = "db.internal"\nuser = "app"\npassword = '${v}'\npool_size = 10\n`,
  ),
  form(
    "PowerShell $env:",
    LOG,
    (_r, v) =>
      `PS C:\\deploy> $env:DB_PASSWORD = "${v}"\nPS C:\\deploy> .\\migrate.ps1\nApplying migration 0042_add_invoices... done`,
  ),
  form(
    "PowerShell SecureString",
    LOG,
    (_r, v) =>
      `PS> $secure = ConvertTo-SecureString "${v}" -AsPlainText -Force\nPS> $cred = New-Object System.Management.Automation.PSCredential ("ACME\\svc-deploy", $secure)`,
  ),
  form("Java -D in ps aux", LOG, (r, v) =>
    psAux(
      r,
      `java -Xmx2g -Dspring.profiles.active=prod -Dspring.datasource.password=${v} -jar /app/${r.pick(APPS)}.jar`,
    ),
  ),
  form("--password= flag", LOG, (r, v) =>
    psAux(r, `/usr/bin/pgbouncer-exporter --pgBouncer.connectionString=host=db --password=${v}`),
  ),
  form("mysql -p", LOG, (r, v) =>
    jenkinsLog(r, [
      [
        `mysql -h db.internal -u root -p${v} -e "SHOW DATABASES"`,
        [
          "mysql: [Warning] Using a password on the command line interface can be insecure.",
          "Database",
          "information_schema",
        ],
      ],
    ]),
  ),
  form(
    "redis-cli -a",
    LOG,
    (_r, v) =>
      `$ redis-cli -h cache.internal -a ${v} ping\nWarning: Using a password with '-a' or '-u' option on the command line interface may not be safe.\nPONG`,
  ),
  form("sshpass -p", LOG, (r, v) =>
    jenkinsLog(r, [
      [
        `sshpass -p '${v}' ssh -o StrictHostKeyChecking=no deploy@${r.pick(APPS)}.internal 'sudo systemctl restart app'`,
        [],
      ],
    ]),
  ),
  form(
    "XML element",
    "settings.xml",
    (_r, v) =>
      `<settings>\n  <servers>\n    <server>\n      <id>nexus-releases</id>\n      <username>deploy</username>\n      <password>${v}</password>\n    </server>\n  </servers>\n</settings>\n`,
  ),
  form(
    ".NET appSettings",
    "web.config",
    (_r, v) =>
      `<configuration>\n  <appSettings>\n    <add key="Environment" value="Production" />\n    <add key="PaymentGatewaySecret" value="${v}" />\n  </appSettings>\n</configuration>\n`,
  ),
  form("my.cnf", LOG, (_r, v) =>
    shell("cat ~/.my.cnf", `[client]\nuser = backup\npassword = ${v}\nhost = db.internal`),
  ),
  form(".pgpass", LOG, (r, v) =>
    shell("cat ~/.pgpass", `db.internal:5432:*:${r.pick(USERS)}:${v}`),
  ),
  form(".netrc", LOG, (_r, v) =>
    shell(
      "cat ~/.netrc",
      `machine api.heroku.com\n  login dana@example.com\n  password ${v}\nmachine git.heroku.com`,
    ),
  ),
  form("docker history ENV", LOG, (r, v) =>
    shell(
      `docker history --no-trunc acme/${r.pick(APPS)}:latest --format '{{.CreatedBy}}'`,
      `CMD ["node" "server.js"]\nENV DB_PASSWORD=${v}\nENV NODE_ENV=production\n/bin/sh -c #(nop) WORKDIR /app`,
    ),
  ),
  form("Python repr", LOG, (r, v) =>
    around(r, [
      at(
        r,
        "DEBUG",
        `connect kwargs: {'host': 'db.internal', 'port': 5432, 'user': 'app', 'password': '${v}', 'sslmode': 'require'}`,
      ),
    ]),
  ),
  form(
    "Node console.log",
    LOG,
    (_r, v) =>
      `{\n  host: 'smtp.example.com',\n  port: 587,\n  auth: { user: 'alerts@acme.example', pass: '${v}' },\n  secure: false\n}`,
  ),
  form(
    "Rails console inspect",
    LOG,
    (r, v) =>
      `irb(main):002> Integration.last\n=> #<Integration id: ${r.int(900)}, name: "billing", api_token: "${v}", created_at: "2026-11-30 10:12:44.000000000 +0000">`,
  ),
  form(
    "Rust compiler excerpt",
    LOG,
    (r, v) =>
      `warning: unused variable: \`client_secret\`\n --> src/main.rs:${r.between(3, 40)}:9\n  |\n${pad(r.between(3, 40))} |     let client_secret = "${v}";\n  |         ^^^^^^^^^^^^^ help: if this is intentional, prefix it with an underscore: \`_client_secret\``,
  ),
  form(
    "Makefile ?=",
    "Makefile",
    (_r, v) =>
      `IMAGE ?= acme/web\nREGISTRY_PASSWORD ?= ${v}\n\nlogin:\n\tdocker login -u ci -p $(REGISTRY_PASSWORD) registry.example.com\n`,
  ),
  form(
    "Elixir keyword list",
    "runtime.exs",
    (_r, v) =>
      `config :acme, Acme.Repo,\n  username: "postgres",\n  password: "${v}",\n  hostname: "db.internal",\n  pool_size: 10\n`,
  ),
  form(
    "net use",
    LOG,
    (_r, v) =>
      `C:\\> net use Z: \\\\fs01\\builds ${v} /user:ACME\\svc-build /persistent:no\r\nThe command completed successfully.\r\n`,
  ),
  form("curl -u in CI", LOG, (r, v) =>
    jenkinsLog(r, [
      [`curl -fsS -u ci:${v} -T app.tar.gz https://nexus.example.com/repository/raw/`, []],
    ]),
  ),
  form(
    "HCL =",
    "terraform.tfvars",
    (r, v) =>
      `db_username = "app"\ndb_password = "${v}"\nregion      = "${r.pick(["us-east-1", "eu-west-1"])}"\n`,
  ),
  form("request beside ids", LOG, (r, v) => {
    const rid = uuid(r);
    return {
      text: around(r, [
        at(r, "WARN ", `login failed request_id=${rid} user=${r.pick(USERS)} password=${v}`),
      ]),
      lookalikes: [rid],
    };
  }),
];

/** A value of a known format, drawn fresh. */
function knownFormat(r) {
  return r.pick([
    () => `AKIA${r.chars(BASE32, 16)}`,
    () => checksummed(r, "ghp_"),
    () => `sk_live_${r.chars(ALNUM, 24)}`,
    () => `xoxb-${r.chars("0123456789", 11)}-${r.chars("0123456789", 13)}-${r.chars(ALNUM, 24)}`,
    () => `glpat-${r.chars(`${ALNUM}-_`, 20)}`,
    () => `npm_${r.chars(ALNUM, 36)}`,
  ])();
}

const BENIGN_KEY_FORMS = [
  form("next_token", LOG, (r, v) =>
    JSON.stringify({ items: [{ id: uuid(r) }], next_token: v }, null, 2),
  ),
  form("cursor", LOG, (r, v) =>
    curlVerbose(r, {
      url: "https://api.example.com/v1/events?limit=2",
      body: JSON.stringify({ data: [], cursor: v, has_more: true }),
    }),
  ),
  form("etag header", LOG, (r, v) =>
    curlVerbose(r, { url: "https://api.example.com/v1/config", response: [["etag", `"${v}"`]] }),
  ),
  form("request_id", LOG, (r, v) =>
    around(r, [at(r, "INFO ", `request_id=${v} completed in 12ms`)]),
  ),
  form(
    "trace header",
    LOG,
    (r, v) =>
      `${clock(r)} DEBUG gateway forwarding headers x-trace-id=${v} x-forwarded-for=10.0.0.${r.int(255)}`,
  ),
  form(
    "commit message",
    LOG,
    (r, v) =>
      `$ git log -1\ncommit ${hex(r, 40)}\nAuthor: ${r.pick(PEOPLE)} <dev@example.com>\n\n    chore: use ${v} for the sandbox`,
  ),
];

export const POSITIVES = [
  positive("assignment_syntax", plain, PAIR_FORMS, 32),
  positive("known_format_benign_key", knownFormat, BENIGN_KEY_FORMS, 8),
];
