/**
 * Provider kinds named in the redaction issue, each written from the provider's own public
 * description of its credentials (sources in bench/corpus/README.md): SonarQube/SonarCloud,
 * Snyk, MessageBird, MaxMind, ClickHouse Cloud, Sourcegraph, Amazon Bedrock short-term API keys,
 * Sidekiq Pro/Enterprise gem-server credentials, and generic API keys in `api_key:` pairs and
 * `X-API-Key`-style headers.
 */

import { har, psAux, secretsManagerGet, traced } from "./carriers.mjs";
import {
  ALNUM,
  APPS,
  around,
  at,
  B64,
  BASE32,
  base64Of,
  base64Opening,
  ciLog,
  clock,
  curlVerbose,
  DIGITS,
  digits,
  dockerInspect,
  dotenv,
  envDump,
  form,
  hex,
  jenkinsLog,
  LOG,
  opaque,
  pad,
  positive,
  pythonTrace,
  REGIONS,
  shell,
  UPPER,
  uuid,
} from "./kit.mjs";

const UPPER_ALNUM = `${UPPER}${DIGITS}`;

// ---------------------------------------------------------------------------------------------
// Value formats

/**
 * SonarQube 9.5+ prefixes user, global-analysis and project-analysis tokens with `squ_`, `sqa_`
 * and `sqp_` (40 hex digits follow); SonarQube Cloud tokens carry no prefix (40 hex digits).
 */
const sonarToken = (r) =>
  r.chance(0.8) ? `${r.pick(["squ_", "sqa_", "sqp_"])}${hex(r, 40)}` : hex(r, 40);

/** Snyk's API token (the personal token in account settings, `SNYK_TOKEN`) is a UUID. */
const snykToken = (r) => uuid(r);

/** MessageBird REST access keys: 25 alphanumerics; test keys start `test_`. */
const messagebirdKey = (r) => `${r.chance(0.3) ? "test_" : ""}${r.chars(ALNUM, 25)}`;

/** MaxMind license keys since March 2023: 40 characters of [a-zA-Z0-9_] ending `_mmk`. */
const maxmindKey = (r) => `${r.chars(`${ALNUM}_`, 36)}_mmk`;

/**
 * ClickHouse Cloud API keys are a key ID and a key secret used with HTTP Basic. The docs do not
 * give their shape; the corpus uses a 20-character ID and a 42-character secret starting `4b1d`,
 * as keys shown by the console look (remembered, not confirmed by a published description).
 */
const clickhouseKey = (r) => ({
  id: r.chars(UPPER_ALNUM, 20),
  secret: `4b1d${r.chars(ALNUM, 38)}`,
});

/**
 * Sourcegraph access tokens start `sgp_` (the revocation docs); newer ones hold the instance's
 * identifier (`sgp_<16 hex>_<40 hex>`) or `local`.
 */
const sourcegraphToken = (r) =>
  r.pick([
    () => `sgp_${hex(r, 40)}`,
    () => `sgp_${hex(r, 16)}_${hex(r, 40)}`,
    () => `sgp_local_${hex(r, 40)}`,
  ])();

/** The fixed part of a Bedrock short-term key's presigned URL, up to the credential. */
const BEDROCK_URL_OPENING =
  "bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=";

/**
 * Amazon Bedrock short-term API keys (aws-bedrock-token-generator): `bedrock-api-key-` and the
 * base64 of a SigV4 presigned URL for `CallWithBearerToken` ending `&Version=1`, valid at most 12
 * hours, so the URL holds a session token.
 */
export function bedrockShortTermKey(r) {
  const region = r.pick(REGIONS);
  const credential = `ASIA${r.chars(BASE32, 16)}%2F20261130%2F${region}%2Fbedrock%2Faws4_request`;
  const session = encodeURIComponent(`IQoJb3JpZ2luX2Vj${r.chars(B64, r.between(560, 760))}`);
  const date = `20261130T${pad(r.int(24))}${pad(r.int(60))}${pad(r.int(60))}Z`;
  const url = `${BEDROCK_URL_OPENING}${credential}&X-Amz-Date=${date}&X-Amz-Expires=43200&X-Amz-Security-Token=${session}&X-Amz-Signature=${hex(r, 64)}&X-Amz-SignedHeaders=host&Version=1`;
  return `bedrock-api-key-${base64Of(url)}`;
}

/** Sidekiq Pro/Enterprise gem-server credentials: `user:password`, eight hex digits each. */
const sidekiqCredentials = (r) => `${hex(r, 8)}:${hex(r, 8)}`;

/** A generic API key, in the shapes services hand out (hex, base64, alphanumeric, UUID). */
const genericKey = (r) => (r.chance(0.2) ? uuid(r) : opaque(r).replace(/[!#%^*~+]/g, "x"));

/** Fixed openings of these formats (a surviving window inside one is not a leak). */
export const PROVIDER_OPENINGS = [
  `bedrock-api-key-${base64Opening(BEDROCK_URL_OPENING)}`,
  // The opening every STS session token shares (it rides in presigned URLs and Bedrock keys).
  "IQoJb3JpZ2luX2Vj",
];

// ---------------------------------------------------------------------------------------------
// Kinds

const SONAR = positive(
  "sonar_token",
  sonarToken,
  [
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["sonarsource/sonarqube-scan-action@v5"],
        env: [
          ["SONAR_TOKEN", v],
          ["SONAR_HOST_URL", "https://sonar.example.com"],
        ],
        output: ["INFO: Scanner configuration file: NONE", "INFO: ANALYSIS SUCCESSFUL"],
      }),
    ),
    form("sonar-scanner -D", LOG, (r, v) =>
      traced(
        r,
        `sonar-scanner -Dsonar.projectKey=acme_${r.pick(APPS)} -Dsonar.sources=src -Dsonar.host.url=https://sonar.example.com -Dsonar.token=${v}`,
        ["INFO: Scanner configuration file: /opt/sonar-scanner/conf/sonar-scanner.properties"],
      ),
    ),
    form("mvn sonar:sonar", LOG, (r, v) =>
      shell(
        `mvn -B verify sonar:sonar -Dsonar.login=${v}`,
        `[INFO] Scanning for projects...\n[INFO] ------------------< com.acme:${r.pick(APPS)} >------------------\n[INFO] ANALYSIS SUCCESSFUL, you can find the results at: https://sonar.example.com/dashboard?id=acme`,
      ),
    ),
    form(
      "sonar-project.properties",
      "sonar-project.properties",
      (r, v) => `sonar.projectKey=acme_${r.pick(APPS)}
sonar.organization=acme
sonar.host.url=https://sonarcloud.io
sonar.token=${v}
sonar.sources=src
`,
    ),
    form("user_tokens/generate", LOG, (r, v) =>
      curlVerbose(r, {
        method: "POST",
        url: "https://sonar.example.com/api/user_tokens/generate?name=jenkins",
        body: JSON.stringify({
          login: "ci-bot",
          name: "jenkins",
          token: v,
          createdAt: "2026-11-30T10:15:02+0000",
          type: "USER_TOKEN",
        }),
      }),
    ),
    form("curl -u token:", LOG, (_r, v) =>
      shell(
        `curl -s -u ${v}: https://sonar.example.com/api/authentication/validate`,
        '{"valid":true}',
      ),
    ),
    form("gradle.properties", "gradle.properties", (_r, v) =>
      [
        "org.gradle.jvmargs=-Xmx2g",
        "systemProp.sonar.host.url=https://sonar.example.com",
        `systemProp.sonar.token=${v}`,
        "",
      ].join("\n"),
    ),
    form("docker inspect", "inspect.json", (r, v) => dockerInspect(r, [["SONAR_TOKEN", v]])),
  ],
  10,
);

const SNYK = positive(
  "snyk_token",
  snykToken,
  [
    form("snyk auth in CI", LOG, (r, v) =>
      traced(r, `snyk auth ${v}`, [
        "",
        "Your account has been authenticated. Snyk is now ready to be used.",
      ]),
    ),
    form("snyk config", LOG, (r, v) =>
      shell(
        "cat ~/.config/configstore/snyk.json",
        JSON.stringify({ api: v, org: `acme-${r.pick(APPS)}`, "disable-analytics": "1" }, null, 2),
      ),
    ),
    form("curl -v", LOG, (r, v) =>
      shell(
        `curl -sv -H "Authorization: token ${v}" "https://api.snyk.io/rest/self?version=2024-06-10"`,
        curlVerbose(r, {
          url: "https://api.snyk.io/rest/self?version=2024-06-10",
          request: [["Authorization", `token ${v}`]],
        }),
      ),
    ),
    form("env", LOG, (r, v) => envDump(r, [["SNYK_TOKEN", v]])),
    form("docker run", LOG, (r, v) =>
      jenkinsLog(r, [
        [
          `docker run --rm -e SNYK_TOKEN=${v} -v $(pwd):/app snyk/snyk:node test --severity-threshold=high`,
          ["Testing /app...", `Tested ${r.between(80, 400)} dependencies for known issues`],
        ],
      ]),
    ),
    form("snyk config get", LOG, (_r, v) => shell("snyk config get api", v)),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["snyk test --all-projects"],
        env: [["SNYK_TOKEN", v]],
        output: ["Testing /home/runner/work/acme/acme..."],
      }),
    ),
  ],
  9,
);

const MESSAGEBIRD = positive(
  "messagebird_key",
  messagebirdKey,
  [
    form("curl -v", LOG, (r, v) =>
      shell(
        `curl -sv -X POST https://rest.messagebird.com/messages -H 'Authorization: AccessKey ${v}' -d recipients=31612345678 -d originator=Acme -d body=Hi`,
        curlVerbose(r, {
          method: "POST",
          url: "https://rest.messagebird.com/messages",
          status: 201,
          request: [["Authorization", `AccessKey ${v}`]],
          body: `{"id":"${hex(r, 32)}","href":"https://rest.messagebird.com/messages/${hex(r, 32)}","direction":"mt"}`,
        }),
      ),
    ),
    form("Node stack trace", LOG, (r, v) =>
      [
        `/app/src/notify.js:${r.between(3, 40)}`,
        `const messagebird = require('messagebird').initClient('${v}');`,
        "                                           ^",
        "",
        "Error: getaddrinfo ENOTFOUND rest.messagebird.com",
        "    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26)",
      ].join("\n"),
    ),
    form("env", LOG, (r, v) => envDump(r, [["MESSAGEBIRD_ACCESS_KEY", v]])),
    form(".env", ".env", (r, v) => dotenv(r, [["MESSAGEBIRD_API_KEY", v]])),
    form("config JSON", "config.json", (_r, v) =>
      JSON.stringify(
        { sms: { provider: "messagebird", accessKey: v, originator: "Acme" } },
        null,
        2,
      ),
    ),
    form("Python", LOG, (r, v) =>
      pythonTrace(
        r,
        [["/app/sms.py", "send", `client = messagebird.Client('${v}')`]],
        "messagebird.client.ErrorException: Request not allowed (incorrect access_key)",
      ),
    ),
    form("HAR", "trace.har", (r, v) =>
      har(r, {
        method: "POST",
        url: "https://rest.messagebird.com/messages",
        headers: [["authorization", `AccessKey ${v}`]],
      }),
    ),
  ],
  9,
);

const MAXMIND = positive(
  "maxmind_license_key",
  maxmindKey,
  [
    form(
      "GeoIP.conf",
      "GeoIP.conf",
      (r, v) => `# GeoIP.conf file for \`geoipupdate\` program, for versions >= 3.1.1.
AccountID ${digits(r, 6)}
LicenseKey ${v}
EditionIDs GeoLite2-ASN GeoLite2-City GeoLite2-Country
`,
    ),
    form("docker-compose.yml", "docker-compose.yml", (r, v) =>
      [
        "services:",
        "  geoipupdate:",
        "    image: ghcr.io/maxmind/geoipupdate:v7",
        "    environment:",
        `      GEOIPUPDATE_ACCOUNT_ID: "${digits(r, 6)}"`,
        `      GEOIPUPDATE_LICENSE_KEY: ${v}`,
        "      GEOIPUPDATE_EDITION_IDS: GeoLite2-City",
      ].join("\n"),
    ),
    form("wget download URL", LOG, (r, v) =>
      shell(
        `wget "https://download.maxmind.com/app/geoip_download?edition_id=GeoLite2-City&license_key=${v}&suffix=tar.gz" -O GeoLite2-City.tar.gz`,
        `--2026-11-30 10:${pad(r.int(60))}:${pad(r.int(60))}--  https://download.maxmind.com/app/geoip_download?edition_id=GeoLite2-City&license_key=${v}&suffix=tar.gz\nResolving download.maxmind.com... 104.16.38.47\nHTTP request sent, awaiting response... 401 Unauthorized`,
      ),
    ),
    form("curl -u", LOG, (r, v) =>
      shell(
        `curl -s -u "${digits(r, 6)}:${v}" https://geolite.info/geoip/v2.1/city/me`,
        '{"code":"AUTHORIZATION_INVALID","error":"Your account ID or license key could not be authenticated."}',
      ),
    ),
    form("env", LOG, (r, v) => envDump(r, [["MAXMIND_LICENSE_KEY", v]])),
    form("Python", LOG, (r, v) =>
      pythonTrace(
        r,
        [
          [
            "/app/geo.py",
            "lookup",
            `with geoip2.webservice.Client(${digits(r, 6)}, '${v}') as client:`,
          ],
        ],
        "geoip2.errors.AuthenticationError: Your account ID or license key could not be authenticated.",
      ),
    ),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["./scripts/fetch-geoip.sh"],
        env: [["MAXMIND_LICENSE_KEY", v]],
        output: ["Downloading GeoLite2-City..."],
      }),
    ),
  ],
  9,
);

const CLICKHOUSE = positive(
  "clickhouse_api_secret",
  clickhouseKey,
  [
    form("set -x curl --user", LOG, (r, k) => ({
      text: traced(
        r,
        `curl --silent --user ${k.id}:${k.secret} https://api.clickhouse.cloud/v1/organizations`,
        [`{"status":200,"requestId":"${uuid(r)}","result":[{"id":"${uuid(r)}","name":"acme"}]}`],
      ),
      secrets: [k.secret],
    })),
    form("create key response", LOG, (r, k) => ({
      text: curlVerbose(r, {
        method: "POST",
        url: `https://api.clickhouse.cloud/v1/organizations/${uuid(r)}/keys`,
        body: JSON.stringify({
          status: 200,
          requestId: uuid(r),
          result: {
            key: {
              id: uuid(r),
              name: "ci",
              state: "enabled",
              roles: ["admin"],
              keySuffix: k.id.slice(-4),
            },
            keyId: k.id,
            keySecret: k.secret,
          },
        }),
      }),
      secrets: [k.secret],
    })),
    form("terraform.tfvars", "secret.tfvars", (r, k) => ({
      text: `organization_id = "${uuid(r)}"\ntoken_key       = "${k.id}"\ntoken_secret    = "${k.secret}"\n`,
      secrets: [k.secret],
    })),
    form("env", LOG, (r, k) => ({
      text: envDump(r, [
        ["CLICKHOUSE_TOKEN_KEY", k.id],
        ["CLICKHOUSE_TOKEN_SECRET", k.secret],
      ]),
      secrets: [k.secret],
    })),
    form("pulumi config", LOG, (r, k) => ({
      text: shell(
        "pulumi config --show-secrets",
        `KEY                         VALUE\nclickhouse:organizationId   ${uuid(r)}\nclickhouse:tokenKey         ${k.id}\nclickhouse:tokenSecret      ${k.secret}`,
      ),
      secrets: [k.secret],
    })),
    form("shell history", LOG, (_r, k) => ({
      text: `$ history | tail -3\n  311  export KEY_ID=${k.id}\n  312  export KEY_SECRET=${k.secret}\n  313  curl --user $KEY_ID:$KEY_SECRET https://api.clickhouse.cloud/v1/organizations`,
      secrets: [k.secret],
    })),
  ],
  8,
);

const SOURCEGRAPH = positive(
  "sourcegraph_token",
  sourcegraphToken,
  [
    form("env", LOG, (r, v) =>
      envDump(r, [
        ["SRC_ENDPOINT", "https://sourcegraph.example.com"],
        ["SRC_ACCESS_TOKEN", v],
      ]),
    ),
    form("curl -v", LOG, (r, v) =>
      shell(
        `curl -sv -H 'Authorization: token ${v}' -d '{"query":"query { currentUser { username } }"}' https://sourcegraph.example.com/.api/graphql`,
        curlVerbose(r, {
          method: "POST",
          url: "https://sourcegraph.example.com/.api/graphql",
          request: [["Authorization", `token ${v}`]],
          body: '{"data":{"currentUser":{"username":"dana"}}}',
        }),
      ),
    ),
    form("VS Code settings.json", "settings.json", (_r, v) =>
      JSON.stringify(
        {
          "editor.formatOnSave": true,
          "sourcegraph.url": "https://sourcegraph.example.com",
          "sourcegraph.accessToken": v,
        },
        null,
        4,
      ),
    ),
    form("docker run", LOG, (r, v) =>
      jenkinsLog(r, [
        [
          `docker run --rm -e SRC_ENDPOINT=https://sourcegraph.example.com -e SRC_ACCESS_TOKEN=${v} sourcegraph/src-cli:latest batch preview -f spec.yaml`,
          ["✅ Resolving namespace", "✅ Preparing workspaces"],
        ],
      ]),
    ),
    form("app log", LOG, (r, v) =>
      around(r, [at(r, "WARN ", `sourcegraph: GraphQL request rejected (401), token=${v}`)]),
    ),
    form("MCP config", "mcp.json", (_r, v) =>
      JSON.stringify(
        {
          mcpServers: {
            sourcegraph: {
              url: "https://sourcegraph.example.com/.api/mcp",
              headers: { Authorization: `token ${v}` },
            },
          },
        },
        null,
        2,
      ),
    ),
  ],
  8,
);

const BEDROCK = positive(
  "bedrock_api_key",
  bedrockShortTermKey,
  [
    form("env", LOG, (r, v) =>
      envDump(r, [
        ["AWS_REGION", r.pick(REGIONS)],
        ["AWS_BEARER_TOKEN_BEDROCK", v],
      ]),
    ),
    form("token generator output", LOG, (_r, v) =>
      shell(
        `python -c 'from aws_bedrock_token_generator import provide_token; print(f"Token: {provide_token()}")'`,
        `Token: ${v}`,
      ),
    ),
    form("curl -v", LOG, (r, v) =>
      curlVerbose(r, {
        method: "POST",
        url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1:0/converse",
        request: [["Authorization", `Bearer ${v}`]],
        body: '{"output":{"message":{"role":"assistant","content":[{"text":"Hello"}]}},"stopReason":"end_turn"}',
      }),
    ),
    form("settings.json env", "settings.json", (_r, v) =>
      JSON.stringify(
        {
          env: {
            CLAUDE_CODE_USE_BEDROCK: "1",
            AWS_REGION: "us-east-1",
            AWS_BEARER_TOKEN_BEDROCK: v,
          },
        },
        null,
        2,
      ),
    ),
    form(
      "shell history",
      LOG,
      (_r, v) =>
        `$ history | tail -2\n  88  export AWS_BEARER_TOKEN_BEDROCK=${v}\n  89  python chat.py`,
    ),
    form("botocore debug", LOG, (r, v) =>
      around(r, [
        `${clock(r)} DEBUG botocore.endpoint Sending http request: <AWSPreparedRequest stream_output=False, method=POST, url=https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-lite-v1%3A0/converse, headers={'Content-Type': b'application/json', 'Authorization': b'Bearer ${v}', 'User-Agent': b'Boto3/1.39.0'}>`,
      ]),
    ),
  ],
  8,
);

const SIDEKIQ = positive(
  "sidekiq_credentials",
  sidekiqCredentials,
  [
    form("env", LOG, (r, v) => envDump(r, [["BUNDLE_ENTERPRISE__CONTRIBSYS__COM", v]])),
    form("heroku config:set", LOG, (r, v) =>
      shell(
        `heroku config:set BUNDLE_GEMS__CONTRIBSYS__COM=${v} -a acme`,
        `Setting BUNDLE_GEMS__CONTRIBSYS__COM and restarting ⬢ acme... done, v${r.between(40, 200)}\nBUNDLE_GEMS__CONTRIBSYS__COM: ${v}`,
      ),
    ),
    form(
      "bundle config",
      LOG,
      (_r, v) => `$ bundle config --local gems.contribsys.com ${v}
$ bundle config gems.contribsys.com
Settings for \`gems.contribsys.com\` in order of priority. The top value will be used
Set for your local app (/app/.bundle/config): "${v}"`,
    ),
    form(
      ".bundle/config",
      "config",
      (_r, v) => `---\nBUNDLE_PATH: "vendor/bundle"\nBUNDLE_ENTERPRISE__CONTRIBSYS__COM: "${v}"\n`,
    ),
    form(
      "Gemfile source",
      "Gemfile",
      (_r, v) =>
        `source "https://rubygems.org"\n\ngem "rails", "~> 8.0"\n\nsource "https://${v}@enterprise.contribsys.com/" do\n  gem "sidekiq-ent"\nend\n`,
    ),
    form("docker build", LOG, (r, v) =>
      jenkinsLog(r, [
        [
          `docker build --build-arg BUNDLE_GEMS__CONTRIBSYS__COM=${v} -t acme/${r.pick(APPS)}:latest .`,
          ["#5 [2/6] RUN bundle install --jobs 4", "#5 DONE 41.2s"],
        ],
      ]),
    ),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["bundle install --jobs 4"],
        env: [["BUNDLE_ENTERPRISE__CONTRIBSYS__COM", v]],
        output: ["Fetching source index from https://enterprise.contribsys.com/"],
      }),
    ),
  ],
  9,
);

/** Header names services read API keys from. */
const KEY_HEADERS = [
  "X-API-Key",
  "x-api-key",
  "Api-Key",
  "X-Auth-Token",
  "Ocp-Apim-Subscription-Key",
  "x-functions-key",
  "apikey",
];

const GENERIC_API_KEY = positive(
  "generic_api_key",
  genericKey,
  [
    form(
      "config YAML",
      "config.yaml",
      (r, v) =>
        `upstream:\n  base_url: https://api.${r.pick(APPS)}.example.com\n  api_key: ${v}\n  timeout: 30s`,
    ),
    form("curl -v header", LOG, (r, v) => {
      const header = r.pick(KEY_HEADERS);
      return shell(
        `curl -sv -H "${header}: ${v}" https://api.example.com/v2/reports`,
        curlVerbose(r, { url: "https://api.example.com/v2/reports", request: [[header, v]] }),
      );
    }),
    form("HAR header", "trace.har", (r, v) =>
      har(r, { url: "https://api.example.com/v1/search?q=shoes", headers: [["x-api-key", v]] }),
    ),
    form("requests debug", LOG, (r, v) =>
      around(r, [
        at(
          r,
          "DEBUG",
          `urllib3.connectionpool https://api.example.com:443 "GET /v1/items HTTP/1.1" 200 None headers={'User-Agent': 'python-requests/2.32.3', 'X-API-Key': '${v}', 'Accept': '*/*'}`,
        ),
      ]),
    ),
    form("create key response", LOG, (r, v) => {
      const cursor = base64Of(JSON.stringify({ after: digits(r, 6) })).replace(/=+$/, "");
      const id = `key_${r.chars(ALNUM, 14)}`;
      return {
        text: curlVerbose(r, {
          method: "POST",
          url: "https://api.example.com/v1/api_keys",
          status: 201,
          body: JSON.stringify(
            {
              data: { id, name: "ci", api_key: v, created: 1795900000 + r.int(86400) },
              next_cursor: cursor,
            },
            null,
            2,
          ),
        }),
        lookalikes: [cursor, id],
      };
    }),
    form(
      "properties",
      "application.properties",
      (_r, v) =>
        `server.port=8080\npayments.api.url=https://api.example.com\npayments.apiKey=${v}\n`,
    ),
    form("CLI flag in ps", LOG, (r, v) =>
      psAux(r, `/usr/local/bin/exporter --listen=:9100 --api-key=${v} --interval=30s`),
    ),
    form("nginx log with header", LOG, (r, v) =>
      around(r, [
        `${r.int(255)}.${r.int(255)}.${r.int(255)}.${r.int(255)} - - [30/Nov/2026:10:${pad(r.int(60))}:${pad(r.int(60))} +0000] "GET /v1/items HTTP/1.1" 200 512 "-" "okhttp/4.12.0" api_key="${v}" rt=0.0${r.int(90)}`,
      ]),
    ),
    form("secretsmanager", LOG, (r, v) =>
      secretsManagerGet(r, "prod/partner-api", {
        api_key: v,
        base_url: "https://partner.example.com",
      }),
    ),
    form("Azure APIM curl", LOG, (r, v) =>
      curlVerbose(r, {
        url: "https://acme.azure-api.net/orders/v1/orders",
        request: [["Ocp-Apim-Subscription-Key", v]],
      }),
    ),
  ],
  14,
);

export const POSITIVES = [
  SONAR,
  SNYK,
  MESSAGEBIRD,
  MAXMIND,
  CLICKHOUSE,
  SOURCEGRAPH,
  BEDROCK,
  SIDEKIQ,
  GENERIC_API_KEY,
];
