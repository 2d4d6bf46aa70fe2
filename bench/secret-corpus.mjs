/**
 * A labelled corpus for the secrets benchmark, built deterministically from a seed: format-valid
 * FAKE secrets of many kinds inside the tool output they usually leak through (env dumps, .env
 * files, docker inspect, kubectl, curl -v, stack traces, CI logs, config files), and look-alikes
 * that must come through untouched (hashes, digests, ids, placeholders, prose, source code).
 * Every value is drawn from a seeded PRNG: the file holds the shapes of keys, never a key.
 *
 * @example
 * const { positives, negatives } = secretCorpus(1);
 * positives[0]; // { kind: "aws_access_key_id", carrier: "env", file: "output.log", text, secrets: ["AKIA…"] }
 *
 * In a positive item, `secrets` are exact substrings of `text`, all of the item's kind; a carrier
 * may hold a companion secret of another kind (the key id next to an AWS secret key), which is
 * present but not labelled, so it counts neither way. Negative items have `secrets: []`.
 */
import { Buffer } from "node:buffer";
import { POSITIVES as ENCODED_POSITIVES } from "./corpus/encoded.mjs";
import {
  ALNUM,
  APPS,
  around,
  at,
  B64,
  B64URL,
  BASE32,
  b64,
  b64url,
  base64Of,
  checksummed,
  ciLog,
  clock,
  createRandom,
  curlVerbose,
  DIGITS,
  digits,
  dockerInspect,
  dotenv,
  envDump,
  envForms,
  envFormsOf,
  form,
  headerCurl,
  hex,
  ip,
  JWT_HEADERS,
  javaTrace,
  jenkinsLog,
  jsonFile,
  jwt,
  k8sSecretJson,
  k8sSecretYaml,
  LOG,
  LOWER,
  logLine,
  negative,
  opaque,
  PEM_SPECS,
  PEOPLE,
  pad,
  password,
  pemBody,
  pemKey,
  positive,
  pythonFrame,
  pythonTrace,
  REGIONS,
  shell,
  staticKind,
  UPPER,
  USERS,
  urlPassword,
  uuid,
} from "./corpus/kit.mjs";
import { NEGATIVES as MORE_NEGATIVES } from "./corpus/lookalikes.mjs";
import { POSITIVES as PAIR_POSITIVES } from "./corpus/pairs.mjs";
import { PROVIDER_OPENINGS, POSITIVES as PROVIDER_POSITIVES } from "./corpus/providers.mjs";
import { MORE_OPENINGS, POSITIVES as MORE_PROVIDER_POSITIVES } from "./corpus/providers-more.mjs";
import { POSITIVES as QUERY_POSITIVES } from "./corpus/query.mjs";
import { WRAPPED_OPENINGS, POSITIVES as WRAPPED_POSITIVES } from "./corpus/wrapped.mjs";

/**
 * Fixed openings of formats: a 12-character window of a secret inside one of these is public and
 * is not counted as a leak when it survives.
 */
export const PUBLIC_PREFIXES = [
  ...PROVIDER_OPENINGS,
  ...MORE_OPENINGS,
  ...WRAPPED_OPENINGS,
  "sk-ant-api03-",
  "pypi-AgEIcHlwaS5vcmc",
  "github_pat_",
  ...Object.values(PEM_SPECS).map((s) => s.opening),
  ...JWT_HEADERS.map((h) => Buffer.from(JSON.stringify(h)).toString("base64url")),
  ...Object.values(PEM_SPECS).map((s) => base64Of(`-----BEGIN ${s.label}-----\n`)),
];

/** The GCP service-account JSON document, with the private key's PEM in one string. */
function serviceAccount(r) {
  const project = `${r.pick(APPS)}-${r.chars(LOWER + DIGITS, 6)}`;
  const email = `${r.pick(["deployer", "ci", "reader"])}@${project}.iam.gserviceaccount.com`;
  const key = pemKey(r, "PKCS8");
  const doc = {
    type: "service_account",
    project_id: project,
    private_key_id: hex(r, 40),
    private_key: `${key.lines.join("\n")}\n`,
    client_email: email,
    client_id: digits(r, 21),
    auth_uri: "https://accounts.google.com/o/oauth2/auth",
    token_uri: "https://oauth2.googleapis.com/token",
    auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
    client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
    universe_domain: "googleapis.com",
  };
  // In JSON the PEM's newlines are the two characters "\n".
  return { doc, secrets: [doc.private_key_id, pemBody(key, "\\n")] };
}

const githubForms = [
  ...envForms(["GITHUB_TOKEN", "GH_TOKEN"]).slice(0, 3),
  form("git remote -v", LOG, (r, v) => {
    const url = `https://x-access-token:${v}@github.com/acme/${r.pick(APPS)}.git`;
    return `$ git remote -v\norigin\t${url} (fetch)\norigin\t${url} (push)`;
  }),
  form("curl -v", LOG, (r, v) =>
    shell(
      `curl -sv -H "Authorization: token ${v}" https://api.github.com/user`,
      curlVerbose(r, {
        url: "https://api.github.com/user",
        request: [["Authorization", `token ${v}`]],
        body: `{"login":"acme-bot","id":${digits(r, 8)}}`,
      }),
    ),
  ),
  form(
    "gh hosts.yml",
    "hosts.yml",
    (_r, v) => `github.com:
    user: acme-bot
    oauth_token: ${v}
    git_protocol: https
`,
  ),
  form(
    ".npmrc",
    ".npmrc",
    (_r, v) => `@acme:registry=https://npm.pkg.github.com
//npm.pkg.github.com/:_authToken=${v}
`,
  ),
  form(
    "git clone error",
    LOG,
    (_r, v) => `Cloning into 'web'...
remote: Write access to repository not granted.
fatal: unable to access 'https://${v}@github.com/acme/web.git/': The requested URL returned error: 403`,
  ),
];

const webhookForms = (envName, url) => [
  ...envFormsOf(envName, url).slice(0, 3),
  form("curl -v", LOG, (r, v) =>
    shell(
      `curl -sv -X POST -H 'Content-type: application/json' --data '{"text":"deploy ok"}' ${url(v)}`,
      curlVerbose(r, { method: "POST", url: url(v), body: "ok" }),
    ),
  ),
  form(
    "alertmanager.yml",
    "alertmanager.yml",
    (_r, v) => `receivers:
  - name: oncall
    webhook_configs:
      - url: ${url(v)}
        send_resolved: true`,
  ),
  form("CI log", LOG, (r, v) =>
    ciLog(r, {
      run: [`curl -fsS -X POST --data '{"content":"released"}' ${url(v)}`],
      output: ["ok"],
    }),
  ),
];

/** A URL with a password, of one of the schemes that carry one. */
function passwordUrl(r) {
  const pass = urlPassword(r);
  const user = r.pick(USERS);
  const url = r.pick([
    `postgres://${user}:${pass}@${r.pick(["db.internal", "10.0.3.7"])}:5432/${r.pick(APPS)}`,
    `postgresql://${user}:${pass}@postgres-primary.prod.svc.cluster.local:5432/app?sslmode=require`,
    `mysql://${user}:${pass}@mysql.internal:3306/${r.pick(APPS)}`,
    `mongodb+srv://${user}:${pass}@cluster0.${r.chars(LOWER + DIGITS, 5)}.mongodb.net/app?retryWrites=true&w=majority`,
    `redis://:${pass}@redis.internal:6379/0`,
    `rediss://default:${pass}@cache.${r.chars(LOWER, 6)}.upstash.io:6379`,
    `amqp://${user}:${pass}@rabbitmq.internal:5672/${r.pick(APPS)}`,
    `https://${user}:${pass}@nexus.example.com/repository/pypi/simple`,
  ]);
  return { pass, url };
}

/** Azure connection strings (Service Bus, SQL Database, Cosmos DB): the secret is the key or password. */
function azureConnection(r) {
  const app = r.pick(APPS);
  switch (r.int(3)) {
    case 0: {
      const secret = b64(r, 32);
      return {
        secret,
        conn: `Endpoint=sb://${app}-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${secret}`,
      };
    }
    case 1: {
      const secret = password(r);
      return {
        secret,
        conn: `Server=tcp:${app}-sql.database.windows.net,1433;Initial Catalog=app;User ID=${r.pick(USERS)};Password=${secret};Encrypt=True;`,
      };
    }
    default: {
      const secret = `${r.chars(B64, 86)}==`;
      return {
        secret,
        conn: `AccountEndpoint=https://${app}-cosmos.documents.azure.com:443/;AccountKey=${secret};`,
      };
    }
  }
}

const storageConnection = (r, key) =>
  `DefaultEndpointsProtocol=https;AccountName=${r.pick(APPS)}store;AccountKey=${key};EndpointSuffix=core.windows.net`;

/** A secret in a URL's query string, and the URL. */
function querySecret(r) {
  const app = r.pick(APPS);
  switch (r.int(5)) {
    case 0: {
      const v = hex(r, 32);
      return { v, url: `https://api.example.com/v1/export?format=csv&api_key=${v}` };
    }
    case 1: {
      const v = r.chars(ALNUM, 40);
      return { v, url: `https://hooks.example.com/ingest?source=ci&token=${v}` };
    }
    case 2: {
      const v = hex(r, 64);
      const credential = `ASIA${r.chars(BASE32, 16)}%2F20261130%2Fus-east-1%2Fs3%2Faws4_request`;
      return {
        v,
        url: `https://${app}-uploads.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${credential}&X-Amz-Date=20261130T101500Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${v}`,
      };
    }
    case 3: {
      const v = encodeURIComponent(b64(r, 32));
      return {
        v,
        url: `https://${app}store.blob.core.windows.net/exports/data.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&spr=https&sig=${v}`,
      };
    }
    default: {
      const v = `EAA${r.chars(ALNUM, 120)}`;
      return { v, url: `https://graph.facebook.com/v19.0/me/accounts?access_token=${v}` };
    }
  }
}

const SECRET_ENV_NAMES = [
  "DB_PASSWORD",
  "POSTGRES_PASSWORD",
  "MYSQL_ROOT_PASSWORD",
  "REDIS_PASSWORD",
  "SMTP_PASSWORD",
  "JWT_SECRET",
  "SESSION_SECRET",
  "OAUTH_CLIENT_SECRET",
  "GITHUB_WEBHOOK_SECRET",
  "SENTRY_AUTH_TOKEN",
  "CF_API_TOKEN",
  "DATADOG_API_KEY",
  "ALGOLIA_API_KEY",
  "INTERNAL_API_KEY",
];
const SECRET_KEYS = ["db_password", "password", "api_key", "client_secret", "secret_key"];
const SECRET_CAMEL_KEYS = ["apiKey", "password", "clientSecret", "secretKey", "accessToken"];

const POSITIVES = [
  positive(
    "aws_access_key_id",
    (r) => `${r.pick(["AKIA", "AKIA", "ASIA"])}${r.chars(BASE32, 16)}`,
    [
      ...envForms("AWS_ACCESS_KEY_ID").slice(0, 3),
      form(
        "aws credentials",
        LOG,
        (r, v) => `$ cat ~/.aws/credentials
[default]
aws_access_key_id = ${v}
aws_secret_access_key = ${r.chars(B64, 40)}

[staging]
region = ${r.pick(REGIONS)}`,
      ),
      form("botocore debug", LOG, (r, v) =>
        around(r, [
          `${clock(r)} DEBUG botocore.endpoint Sending http request: <AWSPreparedRequest method=GET, url=https://assets.s3.amazonaws.com/?list-type=2, headers={'X-Amz-Date': b'20261130T101500Z', 'Authorization': b'AWS4-HMAC-SHA256 Credential=${v}/20261130/${r.pick(REGIONS)}/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${hex(r, 64)}'}>`,
        ]),
      ),
      form(
        "terraform",
        "main.tf",
        (r, v) => `provider "aws" {
  region     = "${r.pick(REGIONS)}"
  access_key = "${v}"
  secret_key = "${r.chars(B64, 40)}"
}
`,
      ),
      jsonFile("config.json", (r, v) => ({
        aws: { accessKeyId: v, region: r.pick(REGIONS), bucket: `${r.pick(APPS)}-uploads` },
      })),
    ],
  ),
  positive("aws_secret_access_key", (r) => r.chars(B64, 40), [
    ...envForms("AWS_SECRET_ACCESS_KEY").slice(0, 2),
    form(
      "aws credentials",
      LOG,
      (r, v) => `$ cat ~/.aws/credentials
[default]
aws_access_key_id = AKIA${r.chars(BASE32, 16)}
aws_secret_access_key = ${v}`,
    ),
    form(
      "sts assume-role",
      LOG,
      (
        r,
        v,
      ) => `$ aws sts assume-role --role-arn arn:aws:iam::${digits(r, 12)}:role/deploy --role-session-name ci
{
    "Credentials": {
        "AccessKeyId": "ASIA${r.chars(BASE32, 16)}",
        "SecretAccessKey": "${v}",
        "SessionToken": "IQoJb3JpZ2luX2Vj${r.chars(B64, 300)}",
        "Expiration": "2026-11-30T11:15:00+00:00"
    },
    "AssumedRoleUser": {
        "AssumedRoleId": "AROA${r.chars(BASE32, 17)}:ci",
        "Arn": "arn:aws:sts::${digits(r, 12)}:assumed-role/deploy/ci"
    }
}`,
    ),
    form(
      "k8s deployment env",
      "deployment.yaml",
      (r, v) => `    spec:
      containers:
        - name: ${r.pick(APPS)}
          env:
            - name: AWS_ACCESS_KEY_ID
              value: AKIA${r.chars(BASE32, 16)}
            - name: AWS_SECRET_ACCESS_KEY
              value: "${v}"`,
    ),
    form(
      "terraform",
      "main.tf",
      (r, v) => `provider "aws" {
  region     = "${r.pick(REGIONS)}"
  access_key = "AKIA${r.chars(BASE32, 16)}"
  secret_key = "${v}"
}
`,
    ),
    pythonFrame((v) => `return boto3.client("s3", aws_secret_access_key="${v}")`),
    envForms("AWS_SECRET_ACCESS_KEY")[4],
  ]),
  positive("gcp_api_key", (r) => `AIza${r.chars(B64URL, 35)}`, [
    form("access log", LOG, (r, v) =>
      around(r, [
        `${ip(r)} - - [30/Nov/2026:10:${pad(r.int(60))}:${pad(r.int(60))} +0000] "GET /maps/api/geocode/json?address=Main+St&key=${v} HTTP/1.1" 200 1834 "-" "python-requests/2.32.3"`,
      ]),
    ),
    form("curl -v", LOG, (r, v) =>
      curlVerbose(r, {
        url: `https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=${v}`,
      }),
    ),
    form(
      "JS bundle",
      "main.js",
      (r, v) => `const firebaseConfig = {
  apiKey: "${v}",
  authDomain: "${r.pick(APPS)}.firebaseapp.com",
  projectId: "${r.pick(APPS)}-prod",
  appId: "1:${digits(r, 12)}:web:${hex(r, 22)}"
};`,
    ),
    jsonFile("google-services.json", (r, v) => ({
      project_info: { project_number: digits(r, 12), project_id: `${r.pick(APPS)}-prod` },
      client: [{ api_key: [{ current_key: v }] }],
    })),
    ...envForms("GOOGLE_MAPS_API_KEY").slice(0, 4),
  ]),
  positive("gcp_service_account", serviceAccount, [
    form("key file", "service-account.json", (_r, sa) => ({
      text: JSON.stringify(sa.doc, null, 2),
      secrets: sa.secrets,
    })),
    form("cat key.json", LOG, (_r, sa) => ({
      text: shell("cat /var/secrets/google/key.json", JSON.stringify(sa.doc, null, 2)),
      secrets: sa.secrets,
    })),
    form("env (one-line JSON)", LOG, (r, sa) => ({
      text: envDump(r, [["GOOGLE_CREDENTIALS", JSON.stringify(sa.doc)]]),
      secrets: sa.secrets,
    })),
    form("CI log", LOG, (r, sa) => ({
      text: ciLog(r, {
        run: ['echo "$GCP_SA_KEY" > key.json && cat key.json'],
        output: JSON.stringify(sa.doc, null, 2).split("\n"),
      }),
      secrets: sa.secrets,
    })),
  ]),
  positive("azure_storage_key", (r) => `${r.chars(B64, 86)}==`, [
    form("env", LOG, (r, v) =>
      envDump(r, [["AZURE_STORAGE_CONNECTION_STRING", storageConnection(r, v)]]),
    ),
    jsonFile("appsettings.json", (r, v) => ({
      Logging: { LogLevel: { Default: "Information" } },
      ConnectionStrings: { Storage: storageConnection(r, v) },
    })),
    form(
      "az storage account keys list",
      LOG,
      (r, v) => `$ az storage account keys list -n ${r.pick(APPS)}store -g rg-prod
[
  {
    "creationTime": "${clock(r)}",
    "keyName": "key1",
    "permissions": "FULL",
    "value": "${v}"
  }
]`,
    ),
    ...envForms("AZURE_STORAGE_KEY").slice(0, 2),
    form("docker inspect (connection string)", "inspect.json", (r, v) =>
      dockerInspect(r, [["AzureWebJobsStorage", storageConnection(r, v)]]),
    ),
    form("dotnet log", LOG, (r, v) =>
      around(r, [
        at(
          r,
          "fail:",
          `Microsoft.Extensions.Hosting.Internal.Host[11] Hosting failed to start: Azure.RequestFailedException: Server failed to authenticate the request. Connection: ${storageConnection(r, v)}`,
        ),
      ]),
    ),
  ]),
  positive("azure_connection_string", azureConnection, [
    form("env", LOG, (r, c) => ({
      text: envDump(r, [["AZURE_CONNECTION_STRING", c.conn]]),
      secrets: [c.secret],
    })),
    form("appsettings.json", "appsettings.json", (_r, c) => ({
      text: JSON.stringify({ ConnectionStrings: { Default: c.conn } }, null, 2),
      secrets: [c.secret],
    })),
    form("local.settings.json", "local.settings.json", (_r, c) => ({
      text: JSON.stringify({ IsEncrypted: false, Values: { Store: c.conn } }, null, 2),
      secrets: [c.secret],
    })),
    form("docker inspect", "inspect.json", (r, c) => ({
      text: dockerInspect(r, [["ConnectionStrings__Default", c.conn]]),
      secrets: [c.secret],
    })),
    form("app log", LOG, (r, c) => ({
      text: around(r, [at(r, "INFO ", `opening connection: ${c.conn}`)]),
      secrets: [c.secret],
    })),
  ]),
  positive(
    "github_token",
    (r) => checksummed(r, r.pick(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"])),
    githubForms,
  ),
  positive(
    "github_fine_grained_token",
    (r) => `github_pat_${r.chars(ALNUM, 22)}_${r.chars(ALNUM, 59)}`,
    githubForms,
  ),
  positive("gitlab_token", (r) => `glpat-${r.chars(B64URL, 20)}`, [
    ...envForms("GITLAB_TOKEN").slice(0, 2),
    headerCurl("https://gitlab.com/api/v4/projects?owned=true", "PRIVATE-TOKEN", ""),
    form(
      "git remote -v",
      LOG,
      (r, v) => `$ git remote -v
origin\thttps://oauth2:${v}@gitlab.com/acme/${r.pick(APPS)}.git (fetch)`,
    ),
    form(
      "python-gitlab.cfg",
      "python-gitlab.cfg",
      (_r, v) => `[global]
default = acme
ssl_verify = true

[acme]
url = https://gitlab.com
private_token = ${v}
api_version = 4
`,
    ),
    form(
      "terraform",
      "providers.tf",
      (_r, v) => `provider "gitlab" {
  base_url = "https://gitlab.com/api/v4/"
  token    = "${v}"
}
`,
    ),
  ]),
  positive(
    "slack_token",
    (r) =>
      r.chance(0.5)
        ? `xoxb-${digits(r, 11)}-${digits(r, 13)}-${r.chars(ALNUM, 24)}`
        : `xoxp-${digits(r, 11)}-${digits(r, 11)}-${digits(r, 13)}-${hex(r, 32)}`,
    [
      ...envForms("SLACK_BOT_TOKEN").slice(0, 3),
      headerCurl("https://slack.com/api/auth.test"),
      form(
        "config YAML",
        "config.yaml",
        (_r, v) => `notifications:
  slack:
    bot_token: ${v}
    channel: "#deploys"`,
      ),
    ],
  ),
  positive(
    "slack_webhook",
    (r) => `T${r.chars(UPPER + DIGITS, 10)}/B${r.chars(UPPER + DIGITS, 10)}/${r.chars(ALNUM, 24)}`,
    webhookForms("SLACK_WEBHOOK_URL", (v) => `https://hooks.slack.com/services/${v}`),
  ),
  positive(
    "discord_webhook",
    (r) => `${digits(r, 19)}/${r.chars(B64URL, 68)}`,
    webhookForms("DISCORD_WEBHOOK_URL", (v) => `https://discord.com/api/webhooks/${v}`),
  ),
  positive("telegram_bot_token", (r) => `${digits(r, r.between(9, 10))}:AA${r.chars(B64URL, 33)}`, [
    ...envForms("TELEGRAM_BOT_TOKEN").slice(0, 3),
    form("Python traceback", LOG, (r, v) =>
      pythonTrace(
        r,
        [
          ["/app/bot.py", "poll", "updates = self.get_updates(offset)"],
          [
            "/usr/local/lib/python3.12/site-packages/requests/adapters.py",
            "send",
            "raise ConnectionError(e)",
          ],
        ],
        `requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.telegram.org', port=443): Max retries exceeded with url: /bot${v}/getUpdates?offset=${digits(r, 9)}&timeout=30 (Caused by NameResolutionError("Failed to resolve 'api.telegram.org'"))`,
      ),
    ),
    form("curl -v", LOG, (r, v) =>
      shell(
        `curl -sv "https://api.telegram.org/bot${v}/sendMessage?chat_id=-100${digits(r, 10)}&text=deployed"`,
        curlVerbose(r, { url: `https://api.telegram.org/bot${v}/sendMessage` }),
      ),
    ),
  ]),
  positive("twilio_api_key", (r) => `SK${hex(r, 32)}`, [
    ...envForms("TWILIO_API_KEY").slice(0, 3),
    jsonFile("config.json", (r, v) => ({
      twilio: { accountSid: `AC${hex(r, 32)}`, apiKey: v, from: "+15550100" },
    })),
    form(
      "curl command",
      LOG,
      (
        r,
        v,
      ) => `$ curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${hex(r, 32)}/Messages.json --data-urlencode "Body=hi" -u ${v}:${r.chars(ALNUM, 32)}
{"sid": "SM${hex(r, 32)}", "status": "queued"}`,
    ),
  ]),
  positive(
    "stripe_key",
    (r) => `${r.pick(["sk_live_", "sk_live_", "rk_live_"])}${r.chars(ALNUM, r.pick([24, 99]))}`,
    [
      ...envForms("STRIPE_SECRET_KEY"),
      form(
        "curl command",
        LOG,
        (r, v) => `$ curl https://api.stripe.com/v1/charges -u ${v}: -d amount=2000 -d currency=usd
{
  "id": "ch_${r.chars(ALNUM, 24)}",
  "object": "charge",
  "amount": 2000
}`,
      ),
      form(
        "config YAML",
        "config.yaml",
        (_r, v) => `payments:
  provider: stripe
  secret_key: ${v}`,
      ),
    ],
  ),
  positive("sendgrid_api_key", (r) => `SG.${r.chars(B64URL, 22)}.${r.chars(B64URL, 43)}`, [
    ...envForms("SENDGRID_API_KEY").slice(0, 3),
    headerCurl("https://api.sendgrid.com/v3/scopes"),
    form(
      "settings.py",
      "settings.py",
      (_r, v) => `EMAIL_BACKEND = "sendgrid_backend.SendgridBackend"
SENDGRID_API_KEY = "${v}"
SENDGRID_SANDBOX_MODE_IN_DEBUG = False
`,
    ),
  ]),
  positive("mailgun_api_key", (r) => `key-${hex(r, 32)}`, [
    ...envForms("MAILGUN_API_KEY").slice(0, 3),
    form(
      "curl command",
      LOG,
      (
        r,
        v,
      ) => `$ curl -s --user 'api:${v}' https://api.mailgun.net/v3/mg.example.com/messages -F to=ops@example.com -F subject=Hello
{"id": "<${digits(r, 14)}.${digits(r, 6)}@mg.example.com>", "message": "Queued. Thank you."}`,
    ),
    form(
      "PHP config",
      "services.php",
      (_r, v) => `<?php

return [
    'mailgun' => [
        'domain' => 'mg.example.com',
        'secret' => '${v}',
        'endpoint' => 'api.mailgun.net',
    ],
];
`,
    ),
  ]),
  positive("shopify_token", (r) => `shpat_${hex(r, 32)}`, [
    ...envForms("SHOPIFY_ACCESS_TOKEN").slice(0, 3),
    headerCurl(
      "https://acme.myshopify.com/admin/api/2026-10/shop.json",
      "X-Shopify-Access-Token",
      "",
    ),
    form(
      "config TOML",
      "config.toml",
      (_r, v) => `[shopify]
shop = "acme.myshopify.com"
access_token = "${v}"
api_version = "2026-10"
`,
    ),
  ]),
  positive(
    "openai_api_key",
    // Project keys: 74 (older ones 58) characters either side of the T3BlbkFJ marker.
    (r) => {
      if (r.chance(0.25)) return `sk-${r.chars(ALNUM, 20)}T3BlbkFJ${r.chars(ALNUM, 20)}`;
      const n = r.pick([74, 74, 58]);
      return `sk-${r.pick(["proj", "proj", "svcacct"])}-${r.chars(B64URL, n)}T3BlbkFJ${r.chars(B64URL, n)}`;
    },
    [
      ...envForms("OPENAI_API_KEY").slice(0, 3),
      headerCurl("https://api.openai.com/v1/models"),
      jsonFile("config.json", (_r, v) => ({
        models: [{ title: "GPT", provider: "openai", model: "gpt-4o", apiKey: v }],
      })),
      pythonFrame((v) => `return openai.OpenAI(api_key="${v}")`),
    ],
  ),
  positive("anthropic_api_key", (r) => `sk-ant-api03-${r.chars(B64URL, 93)}AA`, [
    ...envForms("ANTHROPIC_API_KEY").slice(0, 3),
    headerCurl("https://api.anthropic.com/v1/models", "x-api-key", ""),
    jsonFile("claude_desktop_config.json", (_r, v) => ({
      mcpServers: {
        tools: { command: "npx", args: ["-y", "@acme/mcp-tools"], env: { ANTHROPIC_API_KEY: v } },
      },
    })),
    pythonFrame((v) => `return anthropic.Anthropic(api_key="${v}")`),
  ]),
  positive("huggingface_token", (r) => `hf_${r.chars(UPPER + LOWER, 34)}`, [
    ...envForms("HF_TOKEN").slice(0, 3),
    form("cat token file", LOG, (_r, v) => shell("cat ~/.cache/huggingface/token", v)),
    headerCurl("https://huggingface.co/api/whoami-v2"),
    form(
      "git remote -v",
      LOG,
      (r, v) => `$ git remote -v
origin\thttps://acme:${v}@huggingface.co/acme/${r.pick(APPS)}-model (fetch)`,
    ),
  ]),
  positive("npm_token", (r) => checksummed(r, "npm_"), [
    form(
      ".npmrc",
      LOG,
      (_r, v) => `$ cat ~/.npmrc
//registry.npmjs.org/:_authToken=${v}
save-exact=true`,
    ),
    ...envForms("NPM_TOKEN").slice(0, 3),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["npm publish --access public"],
        env: [
          ["NODE_AUTH_TOKEN", v],
          ["NPM_CONFIG_USERCONFIG", "/home/runner/work/_temp/.npmrc"],
        ],
        output: [`+ @acme/${r.pick(APPS)}@1.${r.int(9)}.0`],
      }),
    ),
    form(
      ".yarnrc.yml",
      ".yarnrc.yml",
      (_r, v) => `nodeLinker: node-modules
npmScopes:
  acme:
    npmAuthToken: "${v}"
    npmRegistryServer: "https://registry.npmjs.org"`,
    ),
  ]),
  positive("pypi_token", (r) => `pypi-AgEIcHlwaS5vcmc${r.chars(B64URL, r.between(140, 180))}`, [
    form(
      ".pypirc",
      LOG,
      (_r, v) => `$ cat ~/.pypirc
[distutils]
index-servers = pypi

[pypi]
username = __token__
password = ${v}`,
    ),
    ...envForms(["TWINE_PASSWORD", "UV_PUBLISH_TOKEN"]).slice(0, 3),
    form("jenkins twine", LOG, (r, v) =>
      jenkinsLog(r, [
        ["python -m build"],
        [
          `twine upload -u __token__ -p ${v} dist/*`,
          ["Uploading distributions to https://upload.pypi.org/legacy/"],
        ],
      ]),
    ),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: [`poetry config pypi-token.pypi ${v}`, "poetry publish --build"],
        output: ["Publishing acme (1.2.0) to PyPI"],
      }),
    ),
  ]),
  positive("dockerhub_token", (r) => `dckr_pat_${r.chars(B64URL, 27)}`, [
    form("jenkins docker login", LOG, (r, v) =>
      jenkinsLog(r, [
        [
          `docker login -u acmeci -p ${v}`,
          [
            "WARNING! Using --password via the CLI is insecure. Use --password-stdin.",
            "Login Succeeded",
          ],
        ],
      ]),
    ),
    ...envForms("DOCKERHUB_TOKEN").slice(0, 3),
    form("docker config.json", LOG, (_r, v) => {
      // The auth entry is base64("user:token"): that is what leaks.
      const auth = base64Of(`acmeci:${v}`);
      const doc = { auths: { "https://index.docker.io/v1/": { auth } } };
      return {
        text: shell("cat ~/.docker/config.json", JSON.stringify(doc, null, "\t")),
        secrets: [auth],
      };
    }),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["docker/login-action@v3"],
        env: [["DOCKER_PASSWORD", v]],
        output: ["Logging into Docker Hub...", "Login Succeeded!"],
      }),
    ),
  ]),
  positive("jwt", jwt, [
    headerCurl("https://api.example.com/v1/me"),
    form("curl -v token response", LOG, (r, v) =>
      curlVerbose(r, {
        method: "POST",
        url: "https://auth.example.com/oauth/token",
        body: JSON.stringify({ access_token: v, token_type: "Bearer", expires_in: 3600 }),
      }),
    ),
    form("set-cookie", LOG, (r, v) =>
      curlVerbose(r, {
        url: "https://app.example.com/login",
        response: [["set-cookie", `id_token=${v}; Path=/; Secure; HttpOnly`]],
      }),
    ),
    form("app log", LOG, (r, v) =>
      around(r, [at(r, "WARN ", `rejected request: jwt expired (token ${v})`)]),
    ),
    form("k8s sa token", LOG, (_r, v) =>
      shell("cat /var/run/secrets/kubernetes.io/serviceaccount/token", v),
    ),
    form(
      "browser console",
      LOG,
      (r, v) => `> localStorage.getItem("auth")
< '${JSON.stringify({ token: v, user: { id: digits(r, 6) } })}'`,
    ),
  ]),
  positive(
    "private_key",
    (r) => pemKey(r, r.pick(["RSA", "EC", "OPENSSH", "PKCS8"])),
    [
      form("cat key file", LOG, (_r, key) => ({
        text: shell("cat ~/.ssh/id_deploy", key.lines.join("\n")),
        secrets: [pemBody(key, "\n")],
      })),
      form("JSON (\\n escaped)", "credentials.json", (r, key) => ({
        text: JSON.stringify(
          { clientId: uuid(r), privateKey: `${key.lines.join("\n")}\n` },
          null,
          2,
        ),
        secrets: [pemBody(key, "\\n")],
      })),
      form("YAML block", "group_vars.yml", (_r, key) => ({
        text: `deploy_user: deploy\ndeploy_key: |\n  ${key.lines.join("\n  ")}\ndeploy_path: /srv/app`,
        secrets: [pemBody(key, "\n  ")],
      })),
      form("docker inspect", "inspect.json", (r, key) => ({
        text: dockerInspect(r, [["SSH_PRIVATE_KEY", key.lines.join("\n")]]),
        secrets: [pemBody(key, "\\n")],
      })),
      form(".env multi-line", ".env", (_r, key) => ({
        text: `NODE_ENV=production\nJWT_SIGNING_KEY="${key.lines.join("\n")}"\nPORT=3000\n`,
        secrets: [pemBody(key, "\n")],
      })),
      form("openssl genpkey", LOG, (_r, key) => ({
        text: shell(
          "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048",
          key.lines.join("\n"),
        ),
        secrets: [pemBody(key, "\n")],
      })),
    ],
    16,
  ),
  positive(
    "url_password",
    passwordUrl,
    [
      form("env", LOG, (r, u) => ({
        text: envDump(r, [["DATABASE_URL", u.url]]),
        secrets: [u.pass],
      })),
      form("docker inspect", "inspect.json", (r, u) => ({
        text: dockerInspect(r, [["BROKER_URL", u.url]]),
        secrets: [u.pass],
      })),
      form("Python traceback", LOG, (r, u) => ({
        text: pythonTrace(
          r,
          [
            ["/app/db.py", "<module>", `engine = create_engine("${u.url}")`],
            [
              "/usr/local/lib/python3.12/site-packages/sqlalchemy/engine/create.py",
              "create_engine",
              "dbapi = dbapi_meth()",
            ],
          ],
          "ModuleNotFoundError: No module named 'psycopg2'",
        ),
        secrets: [u.pass],
      })),
      form("Java stack trace", LOG, (r, u) => ({
        text: javaTrace(
          r,
          `org.springframework.beans.factory.BeanCreationException: Error creating bean with name 'dataSource': Failed to connect to ${u.url}`,
          "java.net.UnknownHostException: db.internal",
        ),
        secrets: [u.pass],
      })),
      form("docker-compose.yml", "docker-compose.yml", (_r, u) => ({
        text: `services:\n  web:\n    image: acme/web:latest\n    environment:\n      DATABASE_URL: ${u.url}\n      PORT: 8080`,
        secrets: [u.pass],
      })),
      form("app log", LOG, (r, u) => ({
        text: around(r, [at(r, "INFO ", `connecting to ${u.url}`)]),
        secrets: [u.pass],
      })),
      form(".env", ".env", (r, u) => ({
        text: dotenv(r, [["DATABASE_URL", u.url]]),
        secrets: [u.pass],
      })),
      form("Node error", LOG, (_r, u) => ({
        text: `knex: connection ${u.url}
Error: getaddrinfo ENOTFOUND db.internal
    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:109:26) {
  errno: -3008,
  code: 'ENOTFOUND',
  syscall: 'getaddrinfo',
  hostname: 'db.internal'
}`,
        secrets: [u.pass],
      })),
      form("git remote -v", LOG, (r, u) => {
        const url = `https://deploy:${u.pass}@git.example.com/acme/${r.pick(APPS)}.git`;
        return {
          text: `$ git remote -v\norigin\t${url} (fetch)\norigin\t${url} (push)`,
          secrets: [u.pass],
        };
      }),
    ],
    18,
  ),
  positive(
    "authorization_bearer",
    (r) =>
      r.pick([
        () => `ya29.a0${r.chars(B64URL, 150)}`,
        () => hex(r, 40),
        () => r.chars(ALNUM, 48),
        () => b64url(r, 32),
      ])(),
    [
      headerCurl("https://api.example.com/v1/reports"),
      form("request log JSON", LOG, (r, v) =>
        around(r, [
          JSON.stringify({
            level: "debug",
            msg: "outgoing request",
            url: "https://api.example.com/v1/me",
            headers: { accept: "application/json", authorization: `Bearer ${v}` },
          }),
        ]),
      ),
      form(
        "http.client debug",
        LOG,
        (
          _r,
          v,
        ) => `send: b'GET /v1/me HTTP/1.1\\r\\nHost: api.example.com\\r\\nAuthorization: Bearer ${v}\\r\\n\\r\\n'
reply: 'HTTP/1.1 200 OK\\r\\n'
header: Content-Type: application/json`,
      ),
      form("HAR", "trace.har", (_r, v) =>
        JSON.stringify(
          {
            request: { method: "GET", headers: [{ name: "Authorization", value: `Bearer ${v}` }] },
          },
          null,
          2,
        ),
      ),
      form(
        "httpie",
        LOG,
        (_r, v) => `GET /v1/me HTTP/1.1
Accept: */*
Authorization: Bearer ${v}
Host: api.example.com
User-Agent: HTTPie/3.2.4`,
      ),
    ],
  ),
  positive("authorization_basic", (r) => base64Of(`${r.pick(USERS)}:${password(r)}`), [
    form("curl -v", LOG, (r, v) =>
      shell(
        "curl -sv --netrc-file ~/.netrc https://registry.example.com/v2/_catalog",
        curlVerbose(r, {
          url: "https://registry.example.com/v2/_catalog",
          request: [["Authorization", `Basic ${v}`]],
        }),
      ),
    ),
    form("request log JSON", LOG, (r, v) =>
      around(r, [
        JSON.stringify({
          level: "debug",
          msg: "proxy request",
          headers: { Authorization: `Basic ${v}` },
        }),
      ]),
    ),
    form("proxy debug", LOG, (r, v) =>
      around(r, [
        at(r, "DEBUG", `CONNECT registry.npmjs.org:443 HTTP/1.1 Proxy-Authorization: Basic ${v}`),
      ]),
    ),
    form("HAR", "trace.har", (_r, v) =>
      JSON.stringify(
        { request: { method: "GET", headers: [{ name: "Authorization", value: `Basic ${v}` }] } },
        null,
        2,
      ),
    ),
    form(
      "httpie",
      LOG,
      (_r, v) => `GET /api/v1/status HTTP/1.1
Accept: */*
Authorization: Basic ${v}
Host: jenkins.example.com`,
    ),
  ]),
  positive(
    "session_cookie",
    (r) =>
      r.pick([
        () => r.chars(LOWER + DIGITS, 32),
        () => b64url(r, 32),
        () => `s%3A${b64url(r, 24)}.${b64(r, 32).replace(/=+$/, "")}`,
        () => `${b64(r, 150)}--${hex(r, 40)}`,
      ])(),
    [
      form("curl -v Cookie", LOG, (r, v) =>
        curlVerbose(r, {
          url: "https://app.example.com/dashboard",
          request: [
            ["Cookie", `_ga=GA1.1.${digits(r, 9)}.${digits(r, 10)}; sessionid=${v}; theme=dark`],
          ],
        }),
      ),
      form("curl -v Set-Cookie", LOG, (r, v) =>
        curlVerbose(r, {
          method: "POST",
          url: "https://app.example.com/login",
          status: 302,
          response: [["set-cookie", `__Host-session=${v}; Path=/; Secure; HttpOnly; SameSite=Lax`]],
        }),
      ),
      form("HAR cookies", "trace.har", (_r, v) =>
        JSON.stringify(
          { request: { cookies: [{ name: "connect.sid", value: v, httpOnly: true }] } },
          null,
          2,
        ),
      ),
      form("requests debug", LOG, (r, v) =>
        around(r, [at(r, "DEBUG", `urllib3 request headers={'Cookie': '_app_session=${v}'}`)]),
      ),
      form(
        "browser console",
        LOG,
        (_r, v) => `> document.cookie\n< "theme=dark; _app_session=${v}; locale=en"`,
      ),
    ],
  ),
  positive("url_query_secret", querySecret, [
    form("nginx access log", LOG, (r, q) => ({
      text: around(r, [
        `${ip(r)} - - [30/Nov/2026:10:${pad(r.int(60))}:${pad(r.int(60))} +0000] "GET ${q.url.replace(/^https:\/\/[^/]+/, "")} HTTP/1.1" 200 ${r.int(90000)} "-" "curl/8.5.0"`,
      ]),
      secrets: [q.v],
    })),
    form("curl -v", LOG, (r, q) => ({
      text: shell(`curl -sv "${q.url}"`, curlVerbose(r, { url: q.url })),
      secrets: [q.v],
    })),
    form("Python traceback", LOG, (r, q) => ({
      text: pythonTrace(
        r,
        [["/app/sync.py", "fetch", "resp = session.get(url, timeout=10)"]],
        `requests.exceptions.ReadTimeout: Read timed out. (read timeout=10) url: ${q.url}`,
      ),
      secrets: [q.v],
    })),
    form("app log", LOG, (r, q) => ({
      text: around(r, [at(r, "WARN ", `upstream slow (2.4s): GET ${q.url}`)]),
      secrets: [q.v],
    })),
    form("browser console", LOG, (_r, q) => ({
      text: `GET ${q.url} net::ERR_CONNECTION_RESET\nUncaught (in promise) TypeError: Failed to fetch`,
      secrets: [q.v],
    })),
  ]),
  positive(
    "env_assignment",
    (r) => ({ name: r.pick(SECRET_ENV_NAMES), v: opaque(r) }),
    [
      ...[0, 1, 2, 3, 4].map((i) => (r, e) => envForms(e.name)[i](r, e.v)),
      form("shell history", LOG, (r, e) => ({
        text: `$ history | tail -3\n  501  cd /srv/${r.pick(APPS)}\n  502  export ${e.name}=${e.v}\n  503  npm run migrate`,
        secrets: [e.v],
      })),
      form("systemctl show", LOG, (r, e) => ({
        text: shell(
          `systemctl show ${r.pick(APPS)} -p Environment`,
          `Environment=NODE_ENV=production ${e.name}=${e.v} PORT=8080`,
        ),
        secrets: [e.v],
      })),
      form("heroku config", LOG, (_r, e) => ({
        text: `$ heroku config -a acme\n=== acme config vars\nLOG_LEVEL:              info\n${`${e.name}:`.padEnd(24)}${e.v}`,
        secrets: [e.v],
      })),
    ],
    16,
  ),
  positive(
    "yaml_assignment",
    (r) => ({ key: r.pick(SECRET_KEYS), v: opaque(r) }),
    [
      form("docker-compose.yml", "docker-compose.yml", (_r, e) => ({
        text: `services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: ${e.v}`,
        secrets: [e.v],
      })),
      form("application.yml", "application.yml", (_r, e) => ({
        text: `spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n    username: app\n    password: ${e.v}`,
        secrets: [e.v],
      })),
      form("ansible vars", "vars.yml", (r, e) => ({
        text: `app_name: ${r.pick(APPS)}\n${e.key}: "${e.v}"\napp_port: 8080`,
        secrets: [e.v],
      })),
      form("helm values", "values.yaml", (_r, e) => ({
        text: `replicaCount: 2\nauth:\n  enabled: true\n  ${e.key}: '${e.v}'`,
        secrets: [e.v],
      })),
      form("kubectl get cm (misplaced secret)", LOG, (r, e) => ({
        text: `$ kubectl get configmap web-config -o yaml\napiVersion: v1\ndata:\n  LOG_LEVEL: info\n  ${e.key.toUpperCase()}: ${e.v}\nkind: ConfigMap\nmetadata:\n  name: web-config\n  uid: ${uuid(r)}`,
        secrets: [e.v],
      })),
      form("workflow env", "deploy.yml", (_r, e) => ({
        text: `jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      ${e.key.toUpperCase()}: ${e.v}\n    steps:\n      - uses: actions/checkout@v4`,
        secrets: [e.v],
      })),
    ],
    14,
  ),
  positive(
    "json_assignment",
    (r) => ({ key: r.pick(SECRET_CAMEL_KEYS), v: opaque(r) }),
    [
      form("appsettings.json", "appsettings.json", (_r, e) => ({
        text: JSON.stringify(
          { Service: { BaseUrl: "https://api.example.com", [e.key]: e.v } },
          null,
          2,
        ),
        secrets: [e.v],
      })),
      form("cat config.json", LOG, (_r, e) => ({
        text: shell(
          "cat config/production.json",
          JSON.stringify({ port: 8080, [e.key]: e.v }, null, 2),
        ),
        secrets: [e.v],
      })),
      form("terraform state", "terraform.tfstate", (_r, e) => ({
        text: JSON.stringify(
          {
            version: 4,
            resources: [
              {
                type: "aws_db_instance",
                instances: [{ attributes: { username: "app", password: e.v } }],
              },
            ],
          },
          null,
          2,
        ),
        secrets: [e.v],
      })),
      form("API response", LOG, (r, e) => ({
        text: curlVerbose(r, {
          method: "POST",
          url: "https://api.example.com/v1/integrations",
          status: 201,
          body: JSON.stringify({ id: uuid(r), name: "ci", [e.key]: e.v }),
        }),
        secrets: [e.v],
      })),
      form("structured log", LOG, (r, e) => ({
        text: around(r, [
          JSON.stringify({
            level: "debug",
            msg: "login attempt",
            user: "dana@example.com",
            [e.key]: e.v,
          }),
        ]),
        secrets: [e.v],
      })),
      form("settings.json", "settings.json", (_r, e) => ({
        text: JSON.stringify(
          { "sqltools.connections": [{ name: "prod", server: "db.internal", [e.key]: e.v }] },
          null,
          2,
        ),
        secrets: [e.v],
      })),
    ],
    14,
  ),
  positive("k8s_secret_data", (r) => base64Of(r.pick([password, opaque, urlPassword])(r)), [
    form("kubectl get secret -o yaml", LOG, (r, v) =>
      shell(
        "kubectl get secret app-db -o yaml",
        k8sSecretYaml(r, "app-db", [
          ["password", v],
          ["username", base64Of(r.pick(USERS))],
        ]),
      ),
    ),
    form("kubectl get secret -o json", LOG, (r, v) =>
      shell("kubectl get secret app-api -o json", k8sSecretJson(r, "app-api", [["api-key", v]])),
    ),
    form("helm get manifest", LOG, (r, v) =>
      shell(
        "helm get manifest web",
        `---\n# Source: web/templates/secret.yaml\n${k8sSecretYaml(r, "app-secrets", [["client-secret", v]])}`,
      ),
    ),
    form("dockerconfigjson", LOG, (r) => {
      const auth = base64Of(`acmeci:${password(r)}`);
      const v = base64Of(
        JSON.stringify({ auths: { "registry.example.com": { username: "acmeci", auth } } }),
      );
      const manifest = k8sSecretYaml(
        r,
        "regcred",
        [[".dockerconfigjson", v]],
        "kubernetes.io/dockerconfigjson",
      );
      return { text: shell("kubectl get secret regcred -o yaml", manifest), secrets: [v] };
    }),
    form("tls secret", LOG, (r) => {
      const v = base64Of(`${pemKey(r, "RSA").lines.join("\n")}\n`);
      const crt = base64Of(
        `-----BEGIN CERTIFICATE-----\n${r.chars(B64, 64)}\n-----END CERTIFICATE-----\n`,
      );
      const manifest = k8sSecretYaml(
        r,
        "web-tls",
        [
          ["tls.crt", crt],
          ["tls.key", v],
        ],
        "kubernetes.io/tls",
      );
      return { text: shell("kubectl get secret web-tls -o yaml", manifest), secrets: [v] };
    }),
  ]),
];

// ---------------------------------------------------------------------------------------------
// Negative kinds: look-alikes that must come through byte-identical

const COMMIT_SUBJECTS = [
  "fix(auth): refresh token expiry off by one",
  "docs: explain how to rotate the deploy token",
  "chore(deps): bump jsonwebtoken from 9.0.1 to 9.0.2",
  "fix: never log the password field",
  "feat(secrets): read credentials from the secret manager",
  "refactor: split tokenizer into its own module",
  "test: cover max_tokens=4096 in the request builder",
];

const PACKAGES = [
  "js-tokens",
  "lodash",
  "ms",
  "debug",
  "semver",
  "chalk",
  "token-types",
  "jsonwebtoken",
];

const NEGATIVES = [
  negative("git_sha", [
    (r) => [
      "git log",
      `$ git log -2
commit ${hex(r, 40)} (HEAD -> main, origin/main)
Author: ${r.pick(PEOPLE)} <dev@example.com>
Date:   Mon Nov 30 10:${pad(r.int(60))}:${pad(r.int(60))} 2026 +0000

    ${r.pick(COMMIT_SUBJECTS)}

commit ${hex(r, 40)}
Author: ${r.pick(PEOPLE)} <dev@example.com>
Date:   Sun Nov 29 17:${pad(r.int(60))}:${pad(r.int(60))} 2026 +0000

    ${r.pick(COMMIT_SUBJECTS)}`,
    ],
    (r) => ["git rev-parse", `$ git rev-parse HEAD origin/main\n${hex(r, 40)}\n${hex(r, 40)}`],
    (r) => [
      "git ls-remote",
      `$ git ls-remote origin\n${hex(r, 40)}\tHEAD\n${hex(r, 40)}\trefs/heads/main\n${hex(r, 40)}\trefs/tags/v1.${r.int(9)}.0`,
    ],
    (r) => [
      "git show merge",
      `$ git show --stat HEAD
commit ${hex(r, 40)}
Merge: ${hex(r, 7)} ${hex(r, 7)}
Author: ${r.pick(PEOPLE)} <dev@example.com>

    Merge pull request #${r.int(900)} from acme/token-refresh

 src/auth/token.ts | 12 ++++++------
 1 file changed, 6 insertions(+), 6 deletions(-)`,
    ],
    (r) => [
      "git submodule status",
      `$ git submodule status\n ${hex(r, 40)} vendor/tokenizer (v0.${r.int(20)}.0)\n+${hex(r, 40)} vendor/secrets-sdk (heads/main)`,
    ],
    (r) => [
      "actions checkout",
      ciLog(r, {
        run: ["actions/checkout@v4"],
        output: [
          `HEAD is now at ${hex(r, 7)} ${r.pick(COMMIT_SUBJECTS)}`,
          "[command]/usr/bin/git log -1 --format=%H",
          hex(r, 40),
        ],
      }),
    ],
  ]),
  negative("short_sha", [
    (r) => [
      "git log --oneline",
      `$ git log --oneline -6\n${Array.from({ length: 6 }, () => `${hex(r, 7)} ${r.pick(COMMIT_SUBJECTS)}`).join("\n")}`,
    ],
    (r) => [
      "git describe",
      `$ git describe --tags\nv1.${r.int(9)}.${r.int(9)}-${r.int(40)}-g${hex(r, 7)}`,
    ],
    (r) => [
      "git pull",
      `$ git pull
Updating ${hex(r, 7)}..${hex(r, 7)}
Fast-forward
 src/tokenizer.ts | 4 ++--
 1 file changed, 2 insertions(+), 2 deletions(-)`,
    ],
    (r) => [
      "git branch -vv",
      `$ git branch -vv
* main            ${hex(r, 7)} [origin/main] ${r.pick(COMMIT_SUBJECTS)}
  token-refresh   ${hex(r, 7)} [origin/token-refresh: ahead 2] wip`,
    ],
    (r) => [
      "image tags",
      `$ docker images acme/web
REPOSITORY   TAG           IMAGE ID       CREATED        SIZE
acme/web     sha-${hex(r, 7)}   ${hex(r, 12)}   2 hours ago    182MB
acme/web     sha-${hex(r, 7)}   ${hex(r, 12)}   3 days ago     181MB`,
    ],
  ]),
  negative("uuid", [
    (r) => [
      "request log",
      around(
        r,
        [0, 1, 2].map(() => at(r, "INFO ", `request_id=${uuid(r)} trace_id=${uuid(r)} completed`)),
      ),
    ],
    (r) => [
      "kubectl get pod -o yaml",
      `$ kubectl get pod web-0 -o yaml | head -11
apiVersion: v1
kind: Pod
metadata:
  name: web-0
  namespace: prod
  ownerReferences:
  - apiVersion: apps/v1
    kind: StatefulSet
    name: web
    uid: ${uuid(r)}
  uid: ${uuid(r)}`,
    ],
    (r) => [
      "API response",
      JSON.stringify(
        { data: [0, 1, 2].map(() => ({ id: uuid(r), type: "invoice", status: "paid" })) },
        null,
        2,
      ),
    ],
    (r) => [
      "blkid",
      `$ blkid\n/dev/nvme0n1p1: UUID="${uuid(r)}" TYPE="ext4" PARTUUID="${uuid(r)}"`,
    ],
    (r) => [
      "psql output",
      `$ psql -c "select id, email from users limit 2"
                  id                  |       email
--------------------------------------+-------------------
 ${uuid(r)} | dana@example.com
 ${uuid(r)} | lee@example.com
(2 rows)`,
    ],
  ]),
  negative("npm_integrity", [
    (r) => {
      const p = r.pick(PACKAGES);
      return [
        "package-lock.json",
        `    "node_modules/${p}": {
      "version": "4.0.0",
      "resolved": "https://registry.npmjs.org/${p}/-/${p}-4.0.0.tgz",
      "integrity": "sha512-${b64(r, 64)}",
      "license": "MIT"
    },`,
      ];
    },
    (r) => [
      "yarn.lock",
      `"${r.pick(PACKAGES)}@^4.0.0":
  version "4.0.0"
  resolved "https://registry.yarnpkg.com/js-tokens/-/js-tokens-4.0.0.tgz#${hex(r, 40)}"
  integrity sha512-${b64(r, 64)}`,
    ],
    (r) => [
      "pnpm-lock.yaml",
      `  /${r.pick(PACKAGES)}@4.0.0:\n    resolution: {integrity: sha512-${b64(r, 64)}}\n    dev: false`,
    ],
    (r) => [
      "npm view",
      `$ npm view ${r.pick(PACKAGES)} dist
{
  integrity: 'sha512-${b64(r, 64)}',
  shasum: '${hex(r, 40)}',
  tarball: 'https://registry.npmjs.org/js-tokens/-/js-tokens-4.0.0.tgz',
  fileCount: 5
}`,
    ],
  ]),
  negative("docker_digest", [
    (r) => [
      "docker pull",
      `$ docker pull node:20-alpine
20-alpine: Pulling from library/node
${hex(r, 12)}: Pull complete
${hex(r, 12)}: Pull complete
Digest: sha256:${hex(r, 64)}
Status: Downloaded newer image for node:20-alpine
docker.io/library/node:20-alpine`,
    ],
    (r) => [
      "docker images --digests",
      `$ docker images --digests
REPOSITORY   TAG         DIGEST                                                                    IMAGE ID       SIZE
node         20-alpine   sha256:${hex(r, 64)}   ${hex(r, 12)}   132MB`,
    ],
    (r) => [
      "pod imageID",
      `    image: registry.example.com/web:1.4.2
    imageID: registry.example.com/web@sha256:${hex(r, 64)}
    containerID: containerd://${hex(r, 64)}`,
    ],
    (r) => [
      "imagetools inspect",
      `$ docker buildx imagetools inspect acme/web:latest
Name:      docker.io/acme/web:latest
MediaType: application/vnd.oci.image.index.v1+json
Digest:    sha256:${hex(r, 64)}

Manifests:
  Name:      docker.io/acme/web:latest@sha256:${hex(r, 64)}
  Platform:  linux/amd64`,
    ],
  ]),
  negative("container_id", [
    (r) => [
      "docker ps",
      `$ docker ps
CONTAINER ID   IMAGE             COMMAND                  STATUS       PORTS                    NAMES
${hex(r, 12)}   acme/web:latest   "docker-entrypoint.s…"   Up 2 hours   0.0.0.0:8080->8080/tcp   web-1
${hex(r, 12)}   postgres:16       "docker-entrypoint.s…"   Up 2 hours   5432/tcp                 db-1`,
    ],
    (r) => ["docker inspect", dockerInspect(r, [["FEATURE_FLAGS", "checkout_v2,search_v3"]])],
    (r) => ["cgroup", `$ cat /proc/self/cgroup\n0::/system.slice/docker-${hex(r, 64)}.scope`],
    (r) => ["docker run -d", `$ docker run -d -p 8080:8080 acme/web:latest\n${hex(r, 64)}`],
    (r) => [
      "kubelet log",
      around(r, [
        `I1130 10:00:01.123456 kubelet.go:2461] "SyncLoop (PLEG): event for pod" pod="prod/web-0" event={"ID":"${uuid(r)}","Type":"ContainerStarted","Data":"${hex(r, 64)}"}`,
      ]),
    ],
  ]),
  negative("data_uri", [
    (r) => [
      "HTML img",
      `<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAA${b64(r, r.between(150, 450))}">`,
    ],
    (r) => [
      "CSS",
      `.icon-search {
  background-image: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA${b64(r, r.between(120, 300))});
  background-size: 16px 16px;
}`,
    ],
    (r) => [
      "source map",
      `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${base64Of(JSON.stringify({ version: 3, sources: ["../src/tokenizer.ts"], names: ["encode", "token"], mappings: `AAAA,SAASA,${r.chars(ALNUM, 120)}` }))}`,
    ],
    (r) => [
      "JSON avatar",
      JSON.stringify(
        {
          id: digits(r, 6),
          avatar: `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAA${b64(r, 240)}`,
        },
        null,
        2,
      ),
    ],
    (r) => [
      "woff2 font",
      `@font-face {\n  font-family: "Inter";\n  src: url("data:font/woff2;base64,d09GMgABAAAAA${b64(r, 300)}") format("woff2");\n}`,
    ],
  ]),
  negative("hashed_class_name", [
    (r) => [
      "Next.js HTML",
      `<div class="Header_root__${r.chars(ALNUM, 5)} Header_sticky__${r.chars(ALNUM, 5)}"><a class="Nav_link__${r.chars(ALNUM, 5)}" href="/pricing">Pricing</a></div>`,
    ],
    (r) => [
      "vite build",
      `$ npm run build
vite v8.3.8 building for production...
✓ 412 modules transformed.
dist/index.html                   0.46 kB │ gzip:  0.30 kB
dist/assets/index-${r.chars(B64URL, 8)}.css   12.31 kB │ gzip:  3.02 kB
dist/assets/index-${r.chars(B64URL, 8)}.js   142.31 kB │ gzip: 45.82 kB
✓ built in 2.41s`,
    ],
    (r) => [
      "styled-components",
      `<button class="sc-${r.chars(ALNUM, 6)} ${r.chars(ALNUM, 6)}" type="submit">Sign in</button>\n<span class="css-${r.chars(LOWER + DIGITS, 7)}">Forgot password?</span>`,
    ],
    (r) => [
      "next build",
      `+ First Load JS shared by all              86.9 kB
  ├ chunks/framework-${hex(r, 16)}.js   45.2 kB
  ├ chunks/main-${hex(r, 16)}.js        31.8 kB
  └ chunks/pages/_app-${hex(r, 16)}.js  9.1 kB
buildId: ${r.chars(B64URL, 21)}`,
    ],
  ]),
  negative("max_tokens", [
    (r) => [
      "request log",
      around(r, [
        at(
          r,
          "INFO ",
          `POST /v1/chat/completions model=gpt-4o max_tokens=${r.pick([1024, 4096, 8192])} temperature=0.2`,
        ),
      ]),
    ],
    (r) => [
      "request body",
      JSON.stringify(
        {
          model: "claude-sonnet-4-5",
          max_tokens: r.pick([1024, 4096]),
          messages: [{ role: "user", content: "Summarise the log." }],
        },
        null,
        2,
      ),
    ],
    (r) => [
      "CLI flags",
      `$ llm -m gpt-4o --max-tokens ${r.pick([2048, 8192])} "explain this stack trace"\nThe error comes from the token refresh path...`,
    ],
    (r) => [
      "env",
      envDump(r, [
        ["MAX_TOKENS", String(r.pick([4096, 8192]))],
        ["OPENAI_MAX_TOKENS", "16000"],
      ]),
    ],
    (r) => [
      "Python call",
      `response = client.messages.create(\n    model="claude-sonnet-4-5",\n    max_tokens=${r.pick([1024, 4096])},\n    messages=[{"role": "user", "content": prompt}],\n)`,
    ],
    (r) => [
      "config YAML",
      `llm:\n  model: gpt-4o-mini\n  max_tokens: ${r.pick([512, 2048])}\n  max_completion_tokens: 2048`,
    ],
  ]),
  negative("token_usage", [
    (r) => [
      "OpenAI usage",
      JSON.stringify(
        {
          id: `chatcmpl-${r.chars(ALNUM, 29)}`,
          usage: {
            prompt_tokens: r.int(4000),
            completion_tokens: r.int(900),
            total_tokens: r.int(5000),
          },
        },
        null,
        2,
      ),
    ],
    (r) => [
      "Anthropic usage",
      JSON.stringify(
        {
          id: `msg_${r.chars(ALNUM, 24)}`,
          usage: {
            input_tokens: r.int(4000),
            output_tokens: r.int(900),
            cache_read_input_tokens: r.int(2000),
          },
        },
        null,
        2,
      ),
    ],
    (r) => [
      "log",
      around(r, [
        at(r, "INFO ", `llm call done tokens: prompt=${r.int(4000)} completion=${r.int(900)}`),
      ]),
    ],
    (r) => [
      "rate-limit headers",
      curlVerbose(r, {
        method: "POST",
        url: "https://api.openai.com/v1/chat/completions",
        response: [
          ["x-ratelimit-limit-tokens", "150000"],
          ["x-ratelimit-remaining-tokens", String(r.int(150000))],
        ],
      }),
    ],
    (r) => [
      "tiktoken",
      `$ python count_tokens.py README.md\nToken count: ${r.int(9000)}\nEncoding: o200k_base`,
    ],
  ]),
  staticKind(
    "placeholder",
    `
--- compose \${VAR}
services:
  db:
    environment:
      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD}
--- env \${VAR}
PASSWORD=\${PASSWORD}
DB_PASSWORD=\${DB_PASSWORD:-}
--- changeme
database:
  user: app
  password: changeme
--- masked
API_KEY=********
DB_PASSWORD=********
LOG_LEVEL=info
--- angle brackets
DB_PASSWORD=<your-password>
STRIPE_SECRET_KEY=<sk_live_...>
--- helm template
stringData:
  token: {{ .Values.token }}
  password: {{ .Values.db.password | quote }}
--- $VAR
export SECRET_KEY=$SECRET_KEY
curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me
--- YOUR_API_KEY
{
  "apiKey": "YOUR_API_KEY",
  "endpoint": "https://api.example.com"
}
--- empty
AWS_SECRET_ACCESS_KEY=
GITHUB_TOKEN=
password: ""
--- actions secret ref
env:
  NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
  SLACK_WEBHOOK_URL: \${{ secrets.SLACK_WEBHOOK_URL }}
--- null
auth:
  password: null
  token: ~
--- xxxx
api_key: "xxxxxxxxxxxxxxxxxxxxxxxx"
secret: XXXXXXXX
--- %VAR%
set DB_PASSWORD=%DB_PASSWORD%
set API_TOKEN=%API_TOKEN%
--- bearer <token>
curl -H 'Authorization: Bearer <token>' https://api.example.com/v1/me
--- already redacted
DATABASE_URL=postgres://app:[REDACTED:url_password]@db:5432/app
--- docs example
# Set your key first:
#   export OPENAI_API_KEY=sk-...
#   export ANTHROPIC_API_KEY=sk-ant-...
--- secretKeyRef
env:
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: db-credentials
        key: password
--- ansible vault ref
db_password: "{{ vault_db_password }}"
--- REPLACE_ME
DB_PASSWORD=REPLACE_ME
API_KEY=REPLACE_ME
--- terraform var
provider "gitlab" {
  token = var.gitlab_token
}
--- <redacted>
{"user": "dana", "password": "<redacted>"}
`,
  ),
  staticKind(
    "prose",
    `
--- docs
Rotate the API token every 90 days, and never paste secrets into a chat. The password must be at least 12 characters long.
--- README
## Authentication

Create a personal access token with the \`repo\` scope, then store it as a secret named \`GH_TOKEN\` in your repository settings.
--- log
INFO  auth-3 token refresh succeeded for user 4821 (expires in 3600s)
INFO  auth-3 password reset email sent to user 1834
--- error message
Error: the secret token was rejected by the server. Check that the token has not expired and try again.
--- chat
I think the password reset flow breaks because the secret is cached; the token in Redis outlives the session.
--- CLI help
Options:
  --token <token>        API token (default: $ACME_TOKEN)
  --password-stdin       read the password from stdin
  --secret-file <path>   file holding the client secret
--- changelog
### Fixed
- The token refresh no longer races the secret rotation job.
- Passwords with a colon in them are now accepted.
--- pricing
Tokens are billed per million; a request with 4,096 output tokens costs about two cents.
--- warning
Never commit the .env file: it holds the database password and the Stripe secret key.
--- UI text
Your session has expired. Please sign in again to get a new access token.
Forgot your password? Enter your email and we'll send a reset link.
--- webhook docs
The signing secret is used to verify webhook payloads; keep it in your secret manager and rotate it if it leaks.
--- commit message
Remove the hard-coded password from the seed script (it was only used in tests) and read the token from the keychain instead.
`,
  ),
  staticKind(
    "url_without_password",
    `
--- git remote
origin	https://acme-bot@github.com/acme/web.git (fetch)
upstream	git@github.com:acme/web.git (fetch)
--- db url
DATABASE_URL=postgres://localhost:5432/app
REDIS_URL=redis://redis:6379/0
--- paginated URL
GET https://api.example.com:8443/v1/items?page=2&per_page=50&sort=-created_at 200
--- mongo replica set
MONGO_URL=mongodb://mongo-0.mongo:27017,mongo-1.mongo:27017/app?replicaSet=rs0
--- amqp
broker: amqp://rabbitmq.internal:5672/%2F
result_backend: rpc://
--- oauth URL
Open https://auth.example.com/authorize?response_type=code&client_id=web-app&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcallback&scope=openid%20email&state=xyz to sign in.
--- git clone
$ git clone https://github.com/acme/web.git
Cloning into 'web'...
remote: Enumerating objects: 1523, done.
--- pip index
pip install --index-url https://pypi.example.com/simple/ acme-sdk==2.1.0
--- proxy env
HTTPS_PROXY=http://proxy.internal:3128
NO_PROXY=localhost,127.0.0.1,.svc.cluster.local
--- jdbc
spring.datasource.url=jdbc:postgresql://db.internal:5432/app?ssl=true&sslmode=verify-full
--- redirect
302 Found: Location: http://localhost:3000/callback?token_type=bearer&next=%2Fdashboard
`,
  ),
  staticKind(
    "package_names",
    `
--- npm ls
acme-web@1.4.2 /srv/web
├── @octokit/auth-token@5.1.1
├── csrf-tokens@2.0.1
├── js-tokens@4.0.0
├── jsonwebtoken@9.0.2
└── token-types@6.0.0
--- package.json
{
  "dependencies": {
    "@octokit/auth-token": "5.1.1",
    "jsonwebtoken": "9.0.2",
    "js-tokens": "4.0.0",
    "secret-handshake": "1.1.21"
  }
}
--- pip freeze
keyring==25.5.0
python-jose==3.3.0
SecretStorage==3.3.3
tokenizers==0.20.3
tiktoken==0.8.0
--- cargo tree
acme v0.1.0 (/srv/acme)
├── jsonwebtoken v9.3.0
├── secrecy v0.10.3
└── tokio v1.41.1
--- go.mod
require (
	github.com/golang-jwt/jwt/v5 v5.2.1
	golang.org/x/oauth2 v0.23.0
	cloud.google.com/go/secretmanager v1.14.2
)
--- npm install
$ npm install jsonwebtoken@9.0.2 @octokit/auth-token

added 14 packages, and audited 312 packages in 2s
--- gem list
$ gem list | grep -i token
jwt (2.9.3)
oauth2 (2.0.9)
--- requirements.txt
google-cloud-secret-manager==2.21.1
hvac==2.3.0  # HashiCorp Vault client
--- cargo build
  Downloaded tokenizers v0.20.3
   Compiling secrecy v0.10.3
   Compiling jsonwebtoken v9.3.0
`,
  ),
  staticKind(
    "source_code",
    `
--- JS tokenizer
const ids = tokenizer.encode(text);
if (ids.length > maxTokens) return truncate(ids, maxTokens);
--- JS secret manager
const value = await secretManager.get(name);
const token = await auth.getToken({ scope });
--- JS env read
const secret = process.env.JWT_SECRET;
if (!apiKey) throw new Error("OPENAI_API_KEY is not set");
--- JS rest
const { password, ...safeUser } = user;
res.json(safeUser);
--- TypeScript types
interface Credentials {
  accessToken: string;
  refreshToken?: string;
  apiKey: string | undefined;
}
--- grep -n
src/auth.ts:12:  const accessToken = await refresh(refreshToken);
src/auth.ts:40:  headers.authorization = \`Bearer \${accessToken}\`;
--- Go oauth
token, err := conf.Exchange(ctx, code)
if err != nil {
	return nil, fmt.Errorf("exchange token: %w", err)
}
--- Go struct
type Config struct {
	Password string \`json:"password" env:"DB_PASSWORD"\`
	Token    string \`json:"token"\`
}
--- Go secret manager
secret, err := client.AccessSecretVersion(ctx, &secretmanagerpb.AccessSecretVersionRequest{Name: name})
--- Rust
let api_key = std::env::var("API_KEY")?;
let token = tokenizer.next_token()?;
--- Rust accessor
pub fn api_key(&self) -> Option<&SecretString> {
    self.api_key.as_ref()
}
--- Python bcrypt
password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())
if not bcrypt.checkpw(candidate, password_hash):
    raise InvalidCredentials()
--- Python settings
SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]
API_TOKEN = config("API_TOKEN", default=None)
--- Python jwt
def verify_token(token: str) -> Claims:
    return jwt.decode(token, settings.SECRET_KEY, algorithms=["HS256"])
--- Java
String password = System.getenv("DB_PASSWORD");
TokenResponse tokenResponse = tokenClient.refreshAccessToken(refreshToken);
--- C#
var token = await _tokenService.CreateTokenAsync(user, cancellationToken);
--- Ruby
has_secure_password
validates :password, length: { minimum: 12 }
--- shell read
read -rs -p "Password: " password
echo
export PGPASSWORD="$password"
--- SQL
ALTER TABLE users ADD COLUMN password_digest text NOT NULL;
CREATE INDEX ON api_tokens (token_prefix);
`,
  ),
  negative(
    "configmap",
    [
      (r) => [
        "kubectl get cm",
        `$ kubectl get configmap web-config -o yaml
apiVersion: v1
data:
  LOG_LEVEL: info
  FEATURE_FLAGS: checkout_v2,search_v3
  TOKEN_TTL_SECONDS: "3600"
kind: ConfigMap
metadata:
  name: web-config
  uid: ${uuid(r)}`,
      ],
      (r) => [
        "binaryData icon",
        `apiVersion: v1
binaryData:
  favicon.png: iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA${b64(r, 180)}
kind: ConfigMap
metadata:
  name: static-assets`,
      ],
      (r) => [
        "nginx.conf",
        `data:
  nginx.conf: |
    server {
      listen ${r.pick([80, 8080, 8443])};
      location / { proxy_pass http://web:${r.pick([3000, 8000, 9000])}; }
    }`,
      ],
    ],
    9,
  ),
  negative("content_hash", [
    (r) => [
      "sha256sum",
      `$ sha256sum dist/*.tar.gz\n${hex(r, 64)}  dist/acme-1.4.2-linux-amd64.tar.gz\n${hex(r, 64)}  dist/acme-1.4.2-darwin-arm64.tar.gz`,
    ],
    (r) => [
      "go.sum",
      `golang.org/x/oauth2 v0.23.0 h1:${b64(r, 32)}\ngolang.org/x/oauth2 v0.23.0/go.mod h1:${b64(r, 32)}`,
    ],
    (r) => [
      "pip hashes",
      `tokenizers==0.20.3 \\\n    --hash=sha256:${hex(r, 64)} \\\n    --hash=sha256:${hex(r, 64)}`,
    ],
    (r) => [
      "Cargo.lock",
      `[[package]]\nname = "secrecy"\nversion = "0.10.3"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "${hex(r, 64)}"`,
    ],
    (r) => [
      "SRI",
      `<script src="https://cdn.example.com/app.js" integrity="sha384-${b64(r, 48)}" crossorigin="anonymous"></script>`,
    ],
    (r) => [
      "ETag",
      curlVerbose(r, {
        url: "https://cdn.example.com/app.js",
        response: [
          ["etag", `"${hex(r, 32)}"`],
          ["x-amz-version-id", r.chars(`${ALNUM}._`, 32)],
        ],
      }),
    ],
  ]),
  negative("public_key", [
    (r) => [
      "authorized_keys",
      `$ cat ~/.ssh/authorized_keys
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${r.chars(B64, 43)} dana@laptop
ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${r.chars(B64, 520)} ci@runner`,
    ],
    (r) => [
      "known_hosts",
      `github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${r.chars(B64, 43)}
|1|${b64(r, 20)}|${b64(r, 20)} ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB${r.chars(B64, 87)}=`,
    ],
    (r) => [
      "public key PEM",
      `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${r.chars(B64, 20)}
${r.chars(B64, 64)}
${r.chars(B64, 64)}
${r.chars(B64, 40)}IDAQAB
-----END PUBLIC KEY-----`,
    ],
    (r) => [
      "certificate",
      `$ openssl s_client -connect example.com:443 -showcerts </dev/null 2>/dev/null | sed -n 3,8p
-----BEGIN CERTIFICATE-----
MIIFazCCA1OgAwIBAgIR${r.chars(B64, 44)}
${r.chars(B64, 64)}
${r.chars(B64, 64)}
${r.chars(B64, 30)}
-----END CERTIFICATE-----`,
    ],
    (r) => [
      "ssh fingerprint",
      `$ ssh-keygen -lf ~/.ssh/id_ed25519.pub\n256 SHA256:${b64(r, 32).replace(/=+$/, "")} dana@laptop (ED25519)`,
    ],
  ]),
  negative("request_ids", [
    (r) => [
      "traceparent",
      curlVerbose(r, {
        url: "https://api.example.com/v1/items",
        request: [["traceparent", `00-${hex(r, 32)}-${hex(r, 16)}-01`]],
        response: [
          ["x-amzn-requestid", uuid(r)],
          ["x-amz-cf-id", `${r.chars(B64URL, 54)}==`],
        ],
      }),
    ],
    (r) => [
      "cf-ray",
      `< cf-ray: ${hex(r, 16)}-FRA\n< cf-cache-status: DYNAMIC\n< x-request-id: ${hex(r, 32)}`,
    ],
    (r) => [
      "sentry",
      around(r, [
        at(r, "ERROR", `captured exception, sentry event_id=${hex(r, 32)} trace=${hex(r, 32)}`),
      ]),
    ],
    (r) => [
      "stripe request id",
      `stripe.error.CardError: Request req_${r.chars(ALNUM, 14)}: Your card was declined.`,
    ],
    (r) => [
      "otel log",
      JSON.stringify({
        level: "info",
        msg: "handled",
        trace_id: hex(r, 32),
        span_id: hex(r, 16),
        duration_ms: r.int(900),
      }),
    ],
  ]),
  negative(
    "secret_listing",
    [
      (r) => [
        "kubectl get secrets",
        `$ kubectl get secrets
NAME                  TYPE                             DATA   AGE
db-credentials        Opaque                           2      ${r.int(90)}d
regcred               kubernetes.io/dockerconfigjson   1      120d
web-tls               kubernetes.io/tls                2      ${r.int(90)}d`,
      ],
      (r) => [
        "docker secret ls",
        `$ docker secret ls
ID                          NAME          DRIVER    CREATED        UPDATED
${r.chars(LOWER + DIGITS, 25)}   db_password             2 days ago     2 days ago
${r.chars(LOWER + DIGITS, 25)}   api_token               2 days ago     2 days ago`,
      ],
      (r) => [
        "aws secretsmanager",
        `$ aws secretsmanager list-secrets --query 'SecretList[].ARN'
[
    "arn:aws:secretsmanager:us-east-1:${digits(r, 12)}:secret:prod/db-password-${r.chars(ALNUM, 6)}",
    "arn:aws:secretsmanager:us-east-1:${digits(r, 12)}:secret:prod/api-token-${r.chars(ALNUM, 6)}"
]`,
      ],
      () => [
        "kubectl describe secret",
        "$ kubectl describe secret db-credentials\nName:         db-credentials\nType:  Opaque\n\nData\n====\npassword:  24 bytes\nusername:  3 bytes",
      ],
      () => [
        "gh secret list",
        "$ gh secret list\nNAME               UPDATED\nNPM_TOKEN          about 2 months ago\nDB_PASSWORD        about 3 days ago",
      ],
      () => [
        "ls /run/secrets",
        "$ ls -la /run/secrets\ntotal 8\n-r--r--r-- 1 root root 24 Nov 30 10:12 db_password\n-r--r--r-- 1 root root 40 Nov 30 10:12 api_token",
      ],
    ],
    15,
  ),
];

// ---------------------------------------------------------------------------------------------

/** Positive kinds added from format descriptions (bench/corpus/), after the first corpus's. */
const MORE_POSITIVES = [
  ...WRAPPED_POSITIVES,
  ...ENCODED_POSITIVES,
  ...QUERY_POSITIVES,
  ...PAIR_POSITIVES,
  ...PROVIDER_POSITIVES,
  ...MORE_PROVIDER_POSITIVES,
];

/** The kinds added from format descriptions (bench/corpus/), reported apart from the first. */
export const ADDED_KINDS = new Set([...MORE_POSITIVES, ...MORE_NEGATIVES].map((spec) => spec.kind));

/**
 * The token-like runs of a negative item whose forms do not name their look-alikes: maximal runs
 * of 16+ characters of the base64/hex/id alphabets holding both a letter and a digit (hashes,
 * ids, digests, keys; not words or paths).
 */
function derivedLookalikes(text) {
  const runs = text.match(/[A-Za-z0-9+/=_.-]{16,}/g) ?? [];
  return [...new Set(runs.filter((run) => /[0-9]/.test(run) && /[A-Za-z]/.test(run)))];
}

const MIN_FRAGMENT = 12;

/** Throws on a mislabelled item: the corpus must not score what it does not hold. */
function check(item) {
  const where = `corpus: ${item.kind}/${item.carrier}`;
  if (item.wrapped && item.secrets.length < 2) throw new Error(`${where}: a wrap without a break`);
  for (const s of item.secrets) {
    if (!item.text.includes(s)) throw new Error(`${where}: a labelled secret is not in the text`);
    if (item.wrapped && s.length < MIN_FRAGMENT) throw new Error(`${where}: a short fragment`);
  }
  for (const l of item.lookalikes ?? []) {
    if (!item.text.includes(l)) throw new Error(`${where}: a look-alike is not in the text`);
    if (item.secrets.some((s) => s.includes(l) || l.includes(s))) {
      throw new Error(`${where}: a look-alike overlaps a secret`);
    }
  }
}

function positivesOf(r, specs, out) {
  for (const spec of specs) {
    for (let i = 0; i < spec.count; i++) {
      const item = { kind: spec.kind, ...spec.forms[i % spec.forms.length](r, spec.value(r)) };
      check(item);
      out.push(item);
    }
  }
}

function negativesOf(r, specs, out, seen) {
  for (const spec of specs) {
    for (let i = 0; i < spec.count; i++) {
      const made = spec.forms[i % spec.forms.length](r);
      if (seen.has(made.text)) continue;
      seen.add(made.text);
      const lookalikes = made.lookalikes ?? derivedLookalikes(made.text);
      const item = { kind: spec.kind, ...made, lookalikes, file: LOG, secrets: [] };
      check(item);
      out.push(item);
    }
  }
}

/**
 * Builds the corpus from a seed; the same seed gives the same corpus, byte for byte. A negative
 * form with no random part gives the same text each time: it is kept once. The first corpus's
 * kinds draw from the seed's stream as they always did (their items do not change when kinds are
 * added); the kinds under bench/corpus/ draw from a second stream of the same seed.
 */
export function secretCorpus(seed = 1) {
  const r = createRandom(seed);
  const more = createRandom((seed ^ 0x20c0ffee) >>> 0);
  const positives = [];
  const negatives = [];
  const seen = new Set();
  positivesOf(r, POSITIVES, positives);
  negativesOf(r, NEGATIVES, negatives, seen);
  positivesOf(more, MORE_POSITIVES, positives);
  negativesOf(more, MORE_NEGATIVES, negatives, seen);
  return { positives, negatives };
}

// ---------------------------------------------------------------------------------------------
// The throughput log

const TOKEN_LINES = [
  (r) => `token refresh ok user=${r.int(9000)} ttl=3600s`,
  (r) => `llm usage prompt_tokens=${r.int(4000)} completion_tokens=${r.int(900)} max_tokens=4096`,
  (r) => `password reset email queued for user=${r.int(9000)}`,
  (r) => `secret rotation scheduled in ${r.int(30)} days for signing-key`,
  (r) => `tokenizer loaded o200k_base in ${r.int(90)}ms`,
];

/**
 * About `bytes` of service log, ~120 bytes a line: mostly INFO request lines, every 40th or so a
 * line that says "token", "password" or "secret" as real logs do, and every `every`-th line a
 * leaked secret (an env line, a bearer header, a URL with a password, a GitHub token). Returns
 * the encoded log (whole lines only) and the secrets planted in it, each with its offset (the log
 * is ASCII, so byte and character offsets agree).
 */
export function secretLog({ seed = 1, bytes = 100 * 1024 ** 2, every = 20000 } = {}) {
  const r = createRandom(seed ^ 0x5eed);
  const leaks = [
    (v = opaque(r)) => [v, `WARN  deploy-${r.int(8)} env: DB_PASSWORD=${v}`],
    (v = r.chars(ALNUM, 40)) => [
      v,
      `DEBUG gateway-${r.int(8)} upstream Authorization: Bearer ${v}`,
    ],
    (v = urlPassword(r)) => [
      v,
      `INFO  worker-${r.int(8)} connecting to postgres://app:${v}@db:5432/app`,
    ],
    (v = checksummed(r, "ghp_")) => [v, `INFO  ci-${r.int(8)} cloning with GITHUB_TOKEN=${v}`],
  ];
  const encoder = new TextEncoder();
  const out = new Uint8Array(bytes);
  const planted = [];
  let written = 0;
  let chunk = "";
  for (let n = 1; ; n++) {
    let line;
    let secret;
    if (n % every === 0) {
      const [v, text] = r.pick(leaks)();
      secret = v;
      line = `${clock(r)} ${text}\n`;
    } else if (r.int(40) === 0) {
      line = `${clock(r)} INFO  auth-${r.int(8)} ${r.pick(TOKEN_LINES)(r)}\n`;
    } else {
      line = `${logLine(r)}\n`;
    }
    // Every line is ASCII: its length is its size in bytes.
    if (written + chunk.length + line.length > bytes) break;
    if (secret !== undefined)
      planted.push({ value: secret, at: written + chunk.length + line.indexOf(secret) });
    chunk += line;
    if (chunk.length >= 1 << 16) {
      written += encoder.encodeInto(chunk, out.subarray(written)).written;
      chunk = "";
    }
  }
  written += encoder.encodeInto(chunk, out.subarray(written)).written;
  return { bytes: out.subarray(0, written), planted };
}
