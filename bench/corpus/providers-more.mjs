/**
 * More providers with documented, prefixed credential formats that the first corpus does not
 * cover, each from the provider's own description of its tokens (docs, changelogs, the posts
 * that announced the prefixes; sources in bench/corpus/README.md). Every kind gets two or three
 * carriers of its own (the provider's CLI, config file or API call) and the common ones (env,
 * `.env`, a pasted chat, a `git diff` of client code, a secret-manager read, a `stringData`
 * manifest), so a format is met both under a telling key and with no key at all.
 */
import { Buffer } from "node:buffer";
import { chat, commonForms, har, traced } from "./carriers.mjs";
import {
  ALNUM,
  APPS,
  B64URL,
  base64Opening,
  ciLog,
  curlVerbose,
  DIGITS,
  digits,
  dotenv,
  form,
  hex,
  jenkinsLog,
  LOG,
  LOWER,
  positive,
  shell,
  UPPER,
  uuid,
} from "./kit.mjs";

const UPPER_ALNUM = `${UPPER}${DIGITS}`;
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/** Client code in a few languages, for the `git diff` carrier. */
const js = (line) => ({
  ext: "ts",
  context: ["import { createClient } from './http';", "", "export const client = createClient({"],
  line: (v) => `  ${line(v)},`,
  after: ["});"],
});
const py = (line) => ({
  ext: "py",
  context: ["import os", "", "def make_client():"],
  line: (v) => `    ${line(v)}`,
  after: ["    return client"],
});
const go = (line) => ({
  ext: "go",
  context: ["package client", "", "func New() *Client {"],
  line: (v) => `\t${line(v)}`,
  after: ["\treturn &Client{cfg: cfg}", "}"],
});

/** A provider kind: its own carriers first, then the common ones. */
const provider = (kind, value, env, code, own, count = 8) =>
  positive(kind, value, [...own, ...commonForms(env, code)], count);

/** `curl -v` against the provider's API with the key in a header. */
const curlHeader = (url, header, scheme, method = "GET") =>
  form("curl -v", LOG, (r, v) =>
    shell(
      `curl -sv ${method === "GET" ? "" : `-X ${method} `}-H "${header}: ${scheme}${v}" ${url}`,
      curlVerbose(r, { method, url, request: [[header, `${scheme}${v}`]] }),
    ),
  );

// ---------------------------------------------------------------------------------------------

/** HashiCorp Vault 1.10+: service tokens `hvs.`, batch tokens `hvb.` (older: `s.`, `b.`). */
const VAULT = provider(
  "vault_token",
  (r) =>
    r.pick([
      () => `hvs.CAESI${r.chars(B64URL, 86)}`,
      () => `hvs.${r.chars(ALNUM, 24)}`,
      () => `hvb.AAAAAQ${r.chars(B64URL, 128)}`,
    ])(),
  "VAULT_TOKEN",
  go((v) => `cfg.Token = "${v}"`),
  [
    form("vault login", LOG, (r, v) =>
      shell(
        "vault login -method=oidc role=dev",
        `Success! You are now authenticated. The token information displayed below
is already stored in the token helper. You do NOT need to run "vault login"
again. Future Vault requests will automatically use this token.

Key                  Value
---                  -----
token                ${v}
token_accessor       ${r.chars(ALNUM, 24)}
token_duration       768h
token_renewable      true
token_policies       ["default" "dev"]`,
      ),
    ),
    form("token create JSON", LOG, (r, v) =>
      shell(
        "vault token create -policy=ci -format=json",
        JSON.stringify(
          {
            request_id: uuid(r),
            auth: {
              client_token: v,
              accessor: r.chars(ALNUM, 24),
              policies: ["ci", "default"],
              lease_duration: 2764800,
              renewable: true,
            },
          },
          null,
          2,
        ),
      ),
    ),
    curlHeader("https://vault.example.com/v1/secret/data/app", "X-Vault-Token", ""),
  ],
);

/** Doppler: `dp.st.` service, `dp.pt.` personal, `dp.sa.` service-account tokens. */
const DOPPLER = provider(
  "doppler_token",
  (r) =>
    r.pick([
      () => `dp.st.${r.pick(["dev", "stg", "prd"])}.${r.chars(ALNUM, 40)}`,
      () => `dp.pt.${r.chars(ALNUM, 43)}`,
      () => `dp.sa.${r.chars(ALNUM, 43)}`,
    ])(),
  "DOPPLER_TOKEN",
  js((v) => `token: "${v}"`),
  [
    form("docker run", LOG, (r, v) =>
      jenkinsLog(r, [[`docker run --rm -e DOPPLER_TOKEN=${v} acme/${r.pick(APPS)}:latest`, []]]),
    ),
    form("doppler configure", LOG, (_r, v) =>
      shell(
        "doppler configure --all",
        `┌─────────┬──────────────────────────────────────────────────────────┬───────┐\n│ NAME    │ VALUE                                                    │ SCOPE │\n├─────────┼──────────────────────────────────────────────────────────┼───────┤\n│ token   │ ${v} │ /     │\n└─────────┴──────────────────────────────────────────────────────────┴───────┘`,
      ),
    ),
  ],
);

/** DigitalOcean: `dop_v1_` personal access tokens, `doo_v1_` OAuth, `dor_v1_` refresh. */
const DIGITALOCEAN = provider(
  "digitalocean_token",
  (r) => `${r.pick(["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"])}${hex(r, 64)}`,
  "DIGITALOCEAN_ACCESS_TOKEN",
  go((v) => `client := godo.NewFromToken("${v}")`),
  [
    form("doctl config", LOG, (_r, v) =>
      shell(
        "cat ~/.config/doctl/config.yaml",
        `access-token: ${v}\ncontext: default\noutput: text`,
      ),
    ),
    curlHeader("https://api.digitalocean.com/v2/droplets", "Authorization", "Bearer "),
    form(
      "terraform.tfvars",
      "terraform.tfvars",
      (r, v) => `do_token = "${v}"\nregion   = "${r.pick(["nyc3", "fra1", "sgp1"])}"\n`,
    ),
  ],
);

/** Grafana: service-account tokens `glsa_`, Grafana Cloud access-policy tokens `glc_`. */
const GRAFANA = provider(
  "grafana_token",
  (r) =>
    r.chance(0.5)
      ? `glsa_${r.chars(ALNUM, 32)}_${hex(r, 8)}`
      : `glc_${Buffer.from(JSON.stringify({ o: digits(r, 6), n: `${r.pick(APPS)}-write`, k: r.chars(ALNUM, 24), m: { r: "prod-us-east-0" } })).toString("base64")}`,
  "GRAFANA_SERVICE_ACCOUNT_TOKEN",
  js((v) => `apiKey: "${v}"`),
  [
    curlHeader("https://grafana.example.com/api/search?type=dash-db", "Authorization", "Bearer "),
    form(
      "alloy config",
      "config.alloy",
      (r, v) =>
        `prometheus.remote_write "cloud" {\n  endpoint {\n    url = "https://prometheus-prod-13-prod-us-east-0.grafana.net/api/prom/push"\n    basic_auth {\n      username = "${digits(r, 7)}"\n      password = "${v}"\n    }\n  }\n}\n`,
    ),
  ],
);

/** PlanetScale: `pscale_tkn_` service tokens and `pscale_pw_` database passwords. */
const PLANETSCALE = provider(
  "planetscale_token",
  (r) => `${r.pick(["pscale_tkn_", "pscale_pw_", "pscale_pw_"])}${r.chars(`${ALNUM}_-`, 43)}`,
  "PLANETSCALE_SERVICE_TOKEN",
  js((v) => `password: "${v}"`),
  [
    form("pscale password create", LOG, (r, v) =>
      shell(
        `pscale password create ${r.pick(APPS)} main app-web`,
        `Password app-web was successfully created in ${r.pick(APPS)}/main.\nPlease save the values below as they will not be shown again\n\n  NAME      BRANCH   USERNAME                 ACCESS HOST URL            ROLE    PASSWORD\n ---------- -------- ------------------------ -------------------------- ------- ---------------------------------------------\n  app-web   main     ${r.chars(LOWER + DIGITS, 20)}   aws.connect.psdb.cloud     admin   ${v}`,
      ),
    ),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["pscale deploy-request create acme main"],
        env: [
          ["PLANETSCALE_SERVICE_TOKEN_ID", r.chars(LOWER + DIGITS, 12)],
          ["PLANETSCALE_SERVICE_TOKEN", v],
        ],
        output: ["Deploy request #12 successfully created."],
      }),
    ),
  ],
);

/** Linear personal API keys: `lin_api_` and 40 alphanumerics, sent without a scheme. */
const LINEAR = provider(
  "linear_api_key",
  (r) => `lin_api_${r.chars(ALNUM, 40)}`,
  "LINEAR_API_KEY",
  js((v) => `apiKey: "${v}"`),
  [
    curlHeader("https://api.linear.app/graphql", "Authorization", "", "POST"),
    form("MCP config", "mcp.json", (_r, v) =>
      JSON.stringify(
        {
          mcpServers: {
            linear: { command: "npx", args: ["-y", "linear-mcp"], env: { LINEAR_API_KEY: v } },
          },
        },
        null,
        2,
      ),
    ),
  ],
);

/** Postman API keys: `PMAK-`, 24 hex digits, `-`, 34 hex digits. */
const POSTMAN = provider(
  "postman_api_key",
  (r) => `PMAK-${hex(r, 24)}-${hex(r, 34)}`,
  "POSTMAN_API_KEY",
  js((v) => `headers: { "X-Api-Key": "${v}" }`),
  [
    curlHeader("https://api.getpostman.com/collections", "X-Api-Key", ""),
    form("postman login", LOG, (r, v) =>
      traced(r, `postman login --with-api-key ${v}`, ["Logged in successfully."]),
    ),
  ],
);

/** Pulumi Cloud access tokens: `pul-` and 40 hex digits. */
const PULUMI = provider(
  "pulumi_access_token",
  (r) => `pul-${hex(r, 40)}`,
  "PULUMI_ACCESS_TOKEN",
  py((v) => `os.environ.setdefault("PULUMI_ACCESS_TOKEN", "${v}")`),
  [
    form("credentials.json", LOG, (_r, v) =>
      shell(
        "cat ~/.pulumi/credentials.json",
        JSON.stringify(
          {
            current: "https://api.pulumi.com",
            accessTokens: { "https://api.pulumi.com": v },
            accounts: { "https://api.pulumi.com": { accessToken: v, username: "acme-ci" } },
          },
          null,
          4,
        ),
      ),
    ),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["pulumi up --yes --stack prod"],
        env: [["PULUMI_ACCESS_TOKEN", v]],
        output: ["Updating (prod)", "Resources: 14 unchanged"],
      }),
    ),
  ],
);

/** HCP Terraform (Terraform Cloud) API tokens: `<14>.atlasv1.<67>`. */
const TERRAFORM_CLOUD = provider(
  "terraform_cloud_token",
  (r) => `${r.chars(ALNUM, 14)}.atlasv1.${r.chars(ALNUM, 67)}`,
  "TF_TOKEN_app_terraform_io",
  go((v) => `config := &tfe.Config{Token: "${v}"}`),
  [
    form("credentials.tfrc.json", LOG, (_r, v) =>
      shell(
        "cat ~/.terraform.d/credentials.tfrc.json",
        JSON.stringify({ credentials: { "app.terraform.io": { token: v } } }, null, 2),
      ),
    ),
    form(
      ".terraformrc",
      ".terraformrc",
      (_r, v) => `credentials "app.terraform.io" {\n  token = "${v}"\n}\n`,
    ),
  ],
);

/** Tailscale: `tskey-auth-`, `tskey-api-` and `tskey-client-` keys (`<id>CNTRL-<secret>`). */
const TAILSCALE = provider(
  "tailscale_key",
  (r) =>
    `tskey-${r.pick(["auth", "auth", "api", "client"])}-k${r.chars(ALNUM, 10)}CNTRL-${r.chars(ALNUM, 33)}`,
  "TS_AUTHKEY",
  go((v) => `srv := &tsnet.Server{Hostname: "web", AuthKey: "${v}"}`),
  [
    form("tailscale up", LOG, (r, v) =>
      traced(r, `tailscale up --authkey=${v} --hostname=${r.pick(APPS)}-ci --ssh`, ["Success."]),
    ),
    form(
      "Dockerfile",
      "Dockerfile",
      (_r, v) =>
        `FROM tailscale/tailscale:stable\nENV TS_AUTHKEY=${v}\nENV TS_STATE_DIR=/var/lib/tailscale\n`,
    ),
  ],
);

/** Databricks personal access tokens: `dapi` and 32 hex digits (some with `-2`). */
const DATABRICKS = provider(
  "databricks_token",
  (r) => `dapi${hex(r, 32)}${r.chance(0.3) ? "-2" : ""}`,
  "DATABRICKS_TOKEN",
  py((v) => `w = WorkspaceClient(host=HOST, token="${v}")`),
  [
    form(".databrickscfg", LOG, (r, v) =>
      shell(
        "cat ~/.databrickscfg",
        `[DEFAULT]\nhost  = https://adb-${digits(r, 16)}.${r.int(20)}.azuredatabricks.net\ntoken = ${v}`,
      ),
    ),
    form(
      "JDBC URL",
      LOG,
      (r, v) =>
        `spark.datasource.url=jdbc:databricks://adb-${digits(r, 16)}.${r.int(20)}.azuredatabricks.net:443/default;transportMode=http;ssl=1;AuthMech=3;httpPath=/sql/1.0/warehouses/${hex(r, 16)};UID=token;PWD=${v}`,
    ),
  ],
);

/** Supabase personal access tokens (management API, CLI): `sbp_` and 40 hex digits. */
const SUPABASE = provider(
  "supabase_access_token",
  (r) => `sbp_${hex(r, 40)}`,
  "SUPABASE_ACCESS_TOKEN",
  js((v) => `accessToken: "${v}"`),
  [
    form("supabase login", LOG, (r, v) =>
      traced(r, `supabase login --token ${v}`, ["You are now logged in. Happy coding!"]),
    ),
    curlHeader("https://api.supabase.com/v1/projects", "Authorization", "Bearer "),
  ],
);

/** Sentry: org auth tokens `sntrys_` (base64 JSON claims, `_`, secret), user tokens `sntryu_`. */
const SENTRY = provider(
  "sentry_auth_token",
  (r) =>
    r.chance(0.6)
      ? `sntrys_${Buffer.from(
          JSON.stringify({
            iat: 1795900000 + r.int(86400),
            url: "https://sentry.io",
            region_url: "https://us.sentry.io",
            org: `acme-${r.pick(APPS)}`,
          }),
        )
          .toString("base64")
          .replace(/=+$/, "")}_${r.chars(`${ALNUM}+/`, 43)}`
      : `sntryu_${hex(r, 64)}`,
  "SENTRY_AUTH_TOKEN",
  js((v) => `authToken: "${v}"`),
  [
    form(
      ".sentryclirc",
      ".sentryclirc",
      (r, v) => `[defaults]\norg = acme\nproject = ${r.pick(APPS)}\n\n[auth]\ntoken = ${v}\n`,
    ),
    form("sentry-cli in CI", LOG, (r, v) =>
      traced(r, `sentry-cli --auth-token ${v} releases new ${hex(r, 12)}`, [
        `Created release ${hex(r, 12)}`,
      ]),
    ),
  ],
);

/** New Relic: user API keys `NRAK-` and 27 characters; ingest license keys end `NRAL`. */
const NEW_RELIC = provider(
  "newrelic_key",
  (r) => (r.chance(0.6) ? `NRAK-${r.chars(UPPER_ALNUM, 27)}` : `${hex(r, 36)}NRAL`),
  "NEW_RELIC_API_KEY",
  js((v) => `licenseKey: "${v}"`),
  [
    curlHeader("https://api.newrelic.com/graphql", "Api-Key", "", "POST"),
    form(
      "newrelic.yml",
      "newrelic.yml",
      (r, v) =>
        `common: &default_settings\n  license_key: '${v}'\n  app_name: ${r.pick(APPS)}\n  log_level: info\n`,
    ),
  ],
);

/** age secret keys: `AGE-SECRET-KEY-1` and 58 bech32 characters, upper case. */
const AGE = provider(
  "age_secret_key",
  (r) => `AGE-SECRET-KEY-1${r.chars(BECH32.toUpperCase(), 58)}`,
  "SOPS_AGE_KEY",
  go((v) => `identity, err := age.ParseX25519Identity("${v}")`),
  [
    form("age-keygen", LOG, (r, v) => {
      const pub = `age1${r.chars(BECH32, 58)}`;
      return {
        text: shell(
          "age-keygen",
          `# created: 2026-11-30T10:${digits(r, 2)}:00Z\n# public key: ${pub}\n${v}`,
        ),
        lookalikes: [pub],
      };
    }),
    form("keys.txt", LOG, (r, v) => {
      const pub = `age1${r.chars(BECH32, 58)}`;
      return {
        text: shell(
          "cat ~/.config/sops/age/keys.txt",
          `# created: 2026-10-02T08:12:44Z\n# public key: ${pub}\n${v}`,
        ),
        lookalikes: [pub],
      };
    }),
  ],
);

/** Google OAuth client secrets since 2021: `GOCSPX-` and 28 characters. */
const GOOGLE_OAUTH = provider(
  "google_oauth_client_secret",
  (r) => `GOCSPX-${r.chars(B64URL, 28)}`,
  "GOOGLE_CLIENT_SECRET",
  js((v) => `clientSecret: "${v}"`),
  [
    form("client_secret.json", "client_secret.json", (r, v) =>
      JSON.stringify(
        {
          installed: {
            client_id: `${digits(r, 12)}-${r.chars(LOWER + DIGITS, 32)}.apps.googleusercontent.com`,
            project_id: `${r.pick(APPS)}-prod`,
            auth_uri: "https://accounts.google.com/o/oauth2/auth",
            token_uri: "https://oauth2.googleapis.com/token",
            client_secret: v,
            redirect_uris: ["http://localhost"],
          },
        },
        null,
        2,
      ),
    ),
    form("token request --trace-ascii", LOG, (r, v) =>
      shell(
        "curl --trace-ascii - -d @token.form https://oauth2.googleapis.com/token",
        `== Info: Connected to oauth2.googleapis.com (142.250.${r.int(255)}.${r.int(255)}) port 443\n=> Send header, 154 bytes (0x9a)\n0000: POST /token HTTP/2\n=> Send data, 212 bytes (0xd4)\n0000: code=4%2F0Ab${r.chars(ALNUM, 20)}&client_id=${digits(r, 12)}-web.apps.googleusercontent.com&client_secret=${v}&grant_type=authorization_code&redirect_uri=http%3A%2F%2Flocalhost`,
      ),
    ),
  ],
);

/** Groq API keys: `gsk_` and 52 alphanumerics. */
const GROQ = provider(
  "groq_api_key",
  (r) => `gsk_${r.chars(ALNUM, 52)}`,
  "GROQ_API_KEY",
  py((v) => `client = Groq(api_key="${v}")`),
  [curlHeader("https://api.groq.com/openai/v1/models", "Authorization", "Bearer ")],
  7,
);

/** Replicate API tokens: `r8_` and 37 alphanumerics. */
const REPLICATE = provider(
  "replicate_api_token",
  (r) => `r8_${r.chars(ALNUM, 37)}`,
  "REPLICATE_API_TOKEN",
  py((v) => `client = replicate.Client(api_token="${v}")`),
  [curlHeader("https://api.replicate.com/v1/account", "Authorization", "Bearer ")],
  7,
);

/** OpenRouter API keys: `sk-or-v1-` and 64 hex digits. */
const OPENROUTER = provider(
  "openrouter_api_key",
  (r) => `sk-or-v1-${hex(r, 64)}`,
  "OPENROUTER_API_KEY",
  js((v) => `apiKey: "${v}", baseURL: "https://openrouter.ai/api/v1"`),
  [curlHeader("https://openrouter.ai/api/v1/key", "Authorization", "Bearer ")],
  7,
);

/** Perplexity API keys: `pplx-` and 48 alphanumerics. */
const PERPLEXITY = provider(
  "perplexity_api_key",
  (r) => `pplx-${r.chars(ALNUM, 48)}`,
  "PERPLEXITY_API_KEY",
  py((v) => `client = OpenAI(api_key="${v}", base_url="https://api.perplexity.ai")`),
  [curlHeader("https://api.perplexity.ai/chat/completions", "Authorization", "Bearer ", "POST")],
  7,
);

/** RubyGems.org API keys since 2022: `rubygems_` and 48 hex digits. */
const RUBYGEMS = provider(
  "rubygems_api_key",
  (r) => `rubygems_${hex(r, 48)}`,
  "GEM_HOST_API_KEY",
  py((v) => `subprocess.run(["gem", "push", path], env={"GEM_HOST_API_KEY": "${v}"})`),
  [
    form("~/.gem/credentials", LOG, (_r, v) =>
      shell("cat ~/.gem/credentials", `---\n:rubygems_api_key: ${v}`),
    ),
  ],
  7,
);

/** Mailchimp Marketing API keys: 32 hex digits and the data center (`-us6`). */
const MAILCHIMP = provider(
  "mailchimp_api_key",
  (r) => `${hex(r, 32)}-us${1 + r.int(21)}`,
  "MAILCHIMP_API_KEY",
  js((v) => `mailchimp.setConfig({ apiKey: "${v}", server: "us6" })`),
  [
    form("curl --user", LOG, (_r, v) =>
      shell(
        `curl -s --user "anystring:${v}" https://us6.api.mailchimp.com/3.0/ping`,
        '{"health_status":"Everything\'s Chimpy!"}',
      ),
    ),
  ],
  7,
);

/** Brevo (Sendinblue) API keys: `xkeysib-`, 64 hex digits, `-`, 16 alphanumerics. */
const BREVO = provider(
  "brevo_api_key",
  (r) => `xkeysib-${hex(r, 64)}-${r.chars(ALNUM, 16)}`,
  "BREVO_API_KEY",
  py((v) => `configuration.api_key["api-key"] = "${v}"`),
  [curlHeader("https://api.brevo.com/v3/account", "api-key", "")],
  7,
);

/** Figma personal access tokens: `figd_` and 40 characters, in `X-Figma-Token`. */
const FIGMA = provider(
  "figma_token",
  (r) => `figd_${r.chars(B64URL, 40)}`,
  "FIGMA_TOKEN",
  js((v) => `headers: { "X-Figma-Token": "${v}" }`),
  [curlHeader("https://api.figma.com/v1/me", "X-Figma-Token", "")],
  7,
);

/** Notion integration tokens: `ntn_` since September 2024, `secret_` before. */
const NOTION = provider(
  "notion_token",
  (r) =>
    r.chance(0.6) ? `ntn_${digits(r, 11)}${r.chars(ALNUM, 35)}` : `secret_${r.chars(ALNUM, 43)}`,
  "NOTION_TOKEN",
  js((v) => `auth: "${v}"`),
  [curlHeader("https://api.notion.com/v1/users/me", "Authorization", "Bearer ")],
  7,
);

/** Dynatrace API tokens: `dt0c01.`, a 24-character public id, `.`, a 64-character secret. */
const DYNATRACE = provider(
  "dynatrace_token",
  (r) => `dt0c01.${r.chars(UPPER_ALNUM, 24)}.${r.chars(UPPER_ALNUM, 64)}`,
  "DT_API_TOKEN",
  py((v) => `headers = {"Authorization": "Api-Token ${v}"}`),
  [
    curlHeader(
      "https://abc12345.live.dynatrace.com/api/v2/entities",
      "Authorization",
      "Api-Token ",
    ),
    form("oneagent install", LOG, (r, v) =>
      traced(
        r,
        `wget -O Dynatrace-OneAgent.sh "https://abc12345.live.dynatrace.com/api/v1/deployment/installer/agent/unix/default/latest?arch=x86" --header="Authorization: Api-Token ${v}"`,
        ["HTTP request sent, awaiting response... 200 OK"],
      ),
    ),
  ],
);

/** LangSmith API keys: `lsv2_pt_` (personal) or `lsv2_sk_` (service), hex, `_`, hex. */
const LANGSMITH = provider(
  "langsmith_api_key",
  (r) => `lsv2_${r.pick(["pt", "sk"])}_${hex(r, 32)}_${hex(r, 10)}`,
  "LANGSMITH_API_KEY",
  py((v) => `os.environ["LANGCHAIN_API_KEY"] = "${v}"`),
  [
    form("HAR", "trace.har", (r, v) =>
      har(r, {
        method: "POST",
        url: "https://api.smith.langchain.com/runs/batch",
        headers: [["x-api-key", v]],
      }),
    ),
  ],
  7,
);

/** Fly.io tokens: macaroons printed as `FlyV1 fm2_…` by `fly tokens create`. */
const FLY = provider(
  "fly_token",
  (r) => `FlyV1 fm2_lJPE${r.chars(`${ALNUM}+/`, r.between(220, 320))}`,
  "FLY_API_TOKEN",
  js((v) => `token: "${v}"`),
  [
    form("fly tokens create", LOG, (r, v) =>
      shell(`fly tokens create deploy -a ${r.pick(APPS)} -x 720h`, v),
    ),
    form("CI log", LOG, (r, v) =>
      ciLog(r, {
        run: ["flyctl deploy --remote-only"],
        env: [["FLY_API_TOKEN", v]],
        output: ["==> Verifying app config", "--> Verified app config"],
      }),
    ),
  ],
);

/** Square: production access tokens `EAAA…`, application secrets `sq0csp-`. */
const SQUARE = provider(
  "square_token",
  (r) => (r.chance(0.6) ? `EAAA${r.chars(B64URL, 60)}` : `sq0csp-${r.chars(B64URL, 43)}`),
  "SQUARE_ACCESS_TOKEN",
  js((v) => `accessToken: "${v}", environment: Environment.Production`),
  [curlHeader("https://connect.squareup.com/v2/locations", "Authorization", "Bearer ")],
  7,
);

/** 1Password service-account tokens: `ops_` and base64 JSON. */
const ONEPASSWORD = provider(
  "onepassword_service_token",
  (r) =>
    `ops_${Buffer.from(JSON.stringify({ signInAddress: "my.1password.com", userAuth: { method: "SRPg-4096", alg: "PBES2g-HS256", iterations: 650000, salt: r.chars(B64URL, 22) }, email: `${r.chars(LOWER, 13)}@1passwordserviceaccounts.com`, srpX: hex(r, 64), muk: { alg: "A256GCM", ext: true, k: r.chars(B64URL, 43), key_ops: ["encrypt", "decrypt"], kty: "oct", kid: "mp" }, secretKey: `A3-${r.chars(UPPER_ALNUM, 6)}-${r.chars(UPPER_ALNUM, 11)}-${r.chars(UPPER_ALNUM, 5)}-${r.chars(UPPER_ALNUM, 5)}-${r.chars(UPPER_ALNUM, 5)}`, throttleSecret: { seed: hex(r, 64), uuid: uuid(r) }, deviceUuid: r.chars(LOWER + DIGITS, 26) })).toString("base64url")}`,
  "OP_SERVICE_ACCOUNT_TOKEN",
  go(
    (v) => `client, err := onepassword.NewClient(ctx, onepassword.WithServiceAccountToken("${v}"))`,
  ),
  [],
  6,
);

/**
 * 1Password Secret Keys (the account key in the Emergency Kit, asked for by `op account add`):
 * `A3-` and six groups of 6, 6, 5, 5, 5, 5 characters.
 */
const ONEPASSWORD_SECRET_KEY = positive(
  "onepassword_secret_key",
  (r) =>
    `A3-${[6, 6, 5, 5, 5, 5].map((n) => r.chars(UPPER_ALNUM.replace(/[01IO]/g, ""), n)).join("-")}`,
  [
    form(
      "op account add",
      LOG,
      (_r, v) =>
        `$ history | tail -2\n  71  op account add --address my.1password.com --email dana@example.com --secret-key ${v}\n  72  op vault list`,
    ),
    form("Emergency Kit text", LOG, (_r, v) =>
      shell(
        "pdftotext -layout '1Password Emergency Kit.pdf' -",
        `1Password Emergency Kit\n\nSign-in address      https://my.1password.com\nEmail address        dana@example.com\nSecret Key           ${v}\nMaster Password      ____________________`,
      ),
    ),
    form("chat paste", LOG, (r, v) => chat(r, `the new laptop wants my secret key, is it ${v}?`)),
    form(".env", ".env", (r, v) => dotenv(r, [["OP_SECRET_KEY", v]])),
  ],
  6,
);

/** The base64url characters that encode `s` whatever follows it. */
const base64urlOpening = (s) =>
  Buffer.from(s.slice(0, s.length - (s.length % 3))).toString("base64url");

/** Fixed openings of these formats (a surviving window inside one is not a leak). */
export const MORE_OPENINGS = [
  "AGE-SECRET-KEY-1",
  "FlyV1 fm2_lJPE",
  `sntrys_${base64Opening('{"iat":')}`,
  `ops_${base64urlOpening('{"signInAddress":"my.1password.com","userAuth":{"method":"SRPg-4096","alg":"PBES2g-HS256","iterations":650000,"salt":"')}`,
];

export const POSITIVES = [
  VAULT,
  DOPPLER,
  DIGITALOCEAN,
  GRAFANA,
  PLANETSCALE,
  LINEAR,
  POSTMAN,
  PULUMI,
  TERRAFORM_CLOUD,
  TAILSCALE,
  DATABRICKS,
  SUPABASE,
  SENTRY,
  NEW_RELIC,
  AGE,
  GOOGLE_OAUTH,
  GROQ,
  REPLICATE,
  OPENROUTER,
  PERPLEXITY,
  RUBYGEMS,
  MAILCHIMP,
  BREVO,
  FIGMA,
  NOTION,
  DYNATRACE,
  LANGSMITH,
  FLY,
  SQUARE,
  ONEPASSWORD,
  ONEPASSWORD_SECRET_KEY,
];
