import { redact } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { ALNUM, gen } from "../fixtures/secrets.js";

/**
 * Issue 27, "Redaction recall on cases nobody here wrote": for each rule family the issue names,
 * generated true cases (random bodies of the alphabet and length the provider documents, in the
 * carriers code and configs hold them in) that must be redacted, and generated look-alikes that
 * must be left alone. Every value is drawn from a seeded generator; none is a real key.
 */

const HEX = "0123456789abcdef";
const URLSAFE = `${ALNUM}_-`;
const DIGITS = "0123456789";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";

let seed = 2700;
const draw = (alphabet: string, n: number) => gen(alphabet, n, seed++);
const uuid = () => {
  const h = draw(HEX, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const camel = (name: string) =>
  name
    .split("_")
    .map((w, i) => (i === 0 ? w : `${(w[0] as string).toUpperCase()}${w.slice(1)}`))
    .join("");

/** Carriers that split a name from its value in ways the one-operator forms do not cover. */
function codeCarriers(name: string, v: string): string[] {
  const c = camel(name);
  const u = name.toUpperCase();
  return [
    `${c} := \`${v}\``,
    `var ${c} string = "${v}"`,
    `const ${c}: string = "${v}";`,
    `System.setProperty("${u}", "${v}")`,
    `$${c} .= "${v}";`,
    `<${c}>${v}</${c}>`,
  ];
}

interface Family {
  readonly secrets: ReadonlyArray<readonly [secret: string, text: string]>;
  readonly lookalikes: readonly string[];
}

function expectFamily(f: Family): void {
  for (const [secret, text] of f.secrets) {
    const out = redact(text).text;
    expect(out, text).not.toContain(secret);
    expect(out, text).toContain("[REDACTED:");
  }
  for (const text of f.lookalikes) expect(redact(text).text, text).toBe(text);
}

const inCode = (name: string, make: () => string, carriers = codeCarriers) =>
  carriers(name, "\u0000").map((t) => {
    const v = make();
    return [v, t.replace("\u0000", v)] as const;
  });

describe("redact: provider families of issue 27, generated cases", () => {
  it("Sonar tokens (squ_/sqp_/sqa_ and legacy 40 hex) in code carriers", () => {
    expectFamily({
      secrets: [
        ...inCode("sonar_token", () => `squ_${draw(HEX, 40)}`),
        ...inCode("sonar_token", () => draw(HEX, 40)),
        ...inCode("sonarqube_token", () => `sqp_${draw(HEX, 40)}`),
        ...inCode(
          "sonar_token",
          () => draw(HEX, 40),
          (n, v) => [`sonar-scanner --${n.replace("_", "-")} ${v}`],
        ),
      ],
      lookalikes: [
        `sonarToken := \`\${SONAR_TOKEN}\``,
        `var sonarHostUrl string = "https://sonarcloud.io"`,
        `<sonarHostUrl>https://sonarcloud.io</sonarHostUrl>`,
      ],
    });
  });

  it("Kubernetes Secret data whose entry is named for a file", () => {
    const v = btoa(draw(ALNUM, 20));
    const j = btoa(draw(ALNUM, 24));
    expectFamily({
      secrets: [
        [
          v,
          `apiVersion: v1\ndata:\n  .secret-file: ${v}\nkind: Secret\nmetadata:\n  name: dotfile-secret\n`,
        ],
        [
          j,
          JSON.stringify({ apiVersion: "v1", kind: "Secret", data: { "ssh-keyfile": j } }, null, 2),
        ],
      ],
      lookalikes: [
        `apiVersion: v1\nkind: Secret\ndata:\n  namespace: ${btoa("kube-system")}\n`,
        `apiVersion: v1\nkind: Secret\ndata:\n  ca.crt: ${btoa("-----BEGIN CERTIFICATE-----\nMIIB")}\n`,
      ],
    });
  });

  it("generic API keys and secrets in Go, TypeScript, Java, PHP and XML carriers", () => {
    expectFamily({
      secrets: [
        ...inCode("api_key", () => draw(ALNUM, 32)),
        ...inCode("x_api_key", () => draw(URLSAFE, 36)),
        ...inCode("client_secret", () => draw(URLSAFE, 40)),
        ...inCode("secret_key", () => draw(ALNUM, 40)),
        ...inCode("db_password", () => draw(ALNUM, 16)),
        ...[
          (v: string) => `twilio_auth = "${v}"`,
          (v: string) => `"authorization": "${v}"`,
          (v: string) => `JWT=${v}`,
          (v: string) => `<db_pass>${v}</db_pass>`,
          (v: string) => `<SIGNING_KEY>${v}</SIGNING_KEY>`,
          (v: string) => `<encryption_key>${v}</encryption_key>`,
        ].map((f) => {
          // Random bytes as text: both cases and a digit (the name-only rules ask for a digit).
          const v = `${draw(ALNUM, 30)}${draw(DIGITS, 2)}`;
          return [v, f(v)] as const;
        }),
      ],
      lookalikes: [
        `apiKey := \`\${cfg.APIKey}\``,
        `var apiKeyName string = "primary"`,
        `System.setProperty("API_KEY_FILE", "/run/secrets/api_key")`,
        `<apiKeyId>${draw(HEX, 24)}</apiKeyId>`,
        `<nextPageToken>${draw(ALNUM, 40)}</nextPageToken>`,
        `const apiKey: string = process.env.API_KEY;`,
        `headers: ["api_key", "request_id"]`,
        "<key>NSAppTransportSecurity</key>",
        `<secretKeyId>${draw(HEX, 32)}</secretKeyId>`,
        `<compass>${draw(ALNUM, 16)}</compass>`,
        `auth: true`,
        `"auth": "basic"`,
        `author = "${draw(ALNUM, 20)}"`,
      ],
    });
  });

  it("MessageBird client ids and keys", () => {
    expectFamily({
      secrets: [
        ...inCode("messagebird_client_id", uuid, (n, v) => [
          `${n.toUpperCase()}=${v}`,
          `${n}: "${v}"`,
          `"${camel(n)}": "${v}"`,
        ]),
        ...inCode("messagebird_api_key", () => draw(ALNUM, 25)).slice(0, 1),
      ],
      lookalikes: [`messagebird_request_id = "${uuid()}"`, `messagebird_client_name: "alerts"`],
    });
  });

  it("Snyk tokens (UUIDs under a Snyk name) in code carriers", () => {
    expectFamily({
      secrets: [...inCode("snyk_token", uuid), ...inCode("snyk_api_key", uuid).slice(0, 3)],
      lookalikes: [`snyk_org_id = "${uuid()}"`, `snykProjectId := "${uuid()}"`],
    });
  });

  it("Sourcegraph tokens in code carriers", () => {
    expectFamily({
      secrets: [
        ...inCode("sourcegraph_access_token", () => draw(HEX, 40)),
        ...inCode("src_access_token", () => `sgp_${draw(HEX, 16)}_${draw(HEX, 40)}`).slice(0, 2),
      ],
      lookalikes: [`sourcegraph_commit = "${draw(HEX, 40)}"`],
    });
  });

  it("curl -u with combined or attached short options", () => {
    const pw = () => draw(ALNUM, 14);
    expectFamily({
      secrets: [
        ...[0, 1, 2].map(() => {
          const p = pw();
          return [p, `curl -uadmin:${p} https://ci.example.com/api/json`] as const;
        }),
        ...[0, 1, 2].map(() => {
          const p = pw();
          return [p, `curl -sSfu deploy:${p} https://repo.example.com/upload`] as const;
        }),
        ...[0, 1].map(() => {
          const p = pw();
          return [p, `curl -k -su 'elastic:${p}' "https://localhost:9200/_cat/indices"`] as const;
        }),
      ],
      lookalikes: [
        `curl -su "$USER:$PASS" https://x.example.com/`,
        `curl -fsSL https://get.example.com/install.sh -o install.sh`,
        `curl -u admin https://x.example.com/`,
      ],
    });
  });

  it("Sumo Logic access ids (and keys) under a Sumo name", () => {
    expectFamily({
      secrets: [
        ...inCode(
          "sumo_access_id",
          () => `su${draw(ALNUM, 12)}`,
          (n, v) => [
            `${n.toUpperCase()}=${v}`,
            `export SUMOLOGIC_ACCESSID="${v}"`,
            `${n}: ${v}`,
            `"${camel(n)}": "${v}"`,
          ],
        ),
        ...inCode(
          "sumologic_access_id",
          () => draw(ALNUM, 14),
          (n, v) => [`${n} = "${v}"`],
        ),
        ...inCode("sumo_access_key", () => draw(ALNUM, 64)).slice(0, 3),
      ],
      lookalikes: [`sumo_access_id = "production"`, `sumo_collector_id = "${draw(DIGITS, 9)}"`],
    });
  });

  it("Facebook app secrets in code carriers", () => {
    expectFamily({
      secrets: [...inCode("facebook_app_secret", () => draw(HEX, 32))],
      lookalikes: [`facebook_app_id = "${draw(DIGITS, 15)}"`],
    });
  });

  it("42 Intra client secrets by their own prefix", () => {
    expectFamily({
      secrets: [
        ...["ud", "af", "ud"].map((k) => {
          const v = `s-s4t2${k}-${draw(HEX, 64)}`;
          return [v, v] as const;
        }),
        ...inCode("intra_secret", () => `s-s4t2ud-${draw(HEX, 64)}`).slice(0, 3),
      ],
      lookalikes: [
        // The application's uid is its public client id.
        `FT_UID=u-s4t2ud-${draw(HEX, 64)}`,
        `s-s4t2ud-${draw(HEX, 20)}`,
      ],
    });
  });

  it("Slack workflow triggers and webhooks without a scheme", () => {
    const t = () => `T${draw(UPPER, 10)}`;
    expectFamily({
      secrets: [
        ...[0, 1, 2].map(() => {
          const v = `https://hooks.slack.com/triggers/${t()}/${draw(DIGITS, 13)}/${draw(HEX, 32)}`;
          return [v, `SLACK_TRIGGER_URL=${v}`] as const;
        }),
        ...[0, 1].map(() => {
          const v = `hooks.slack.com/services/${t()}/B${draw(UPPER, 10)}/${draw(ALNUM, 24)}`;
          return [v.slice(-24), `webhook: ${v}`] as const;
        }),
      ],
      lookalikes: [
        "https://api.slack.com/messaging/webhooks",
        "hooks.slack.com/services is where incoming webhooks live",
      ],
    });
  });

  it("Cloudflare keys and tokens in code carriers", () => {
    expectFamily({
      secrets: [
        ...inCode("cloudflare_api_key", () => draw(HEX, 37)),
        ...inCode("cloudflare_api_token", () => draw(URLSAFE, 40)),
      ],
      lookalikes: [`cloudflareZoneId := "${draw(HEX, 32)}"`, `cf_account_id: ${draw(HEX, 32)}`],
    });
  });

  it("Terraform variables whose default is a password", () => {
    const pw = () => draw(ALNUM, 16);
    const cases = [
      (p: string) =>
        `variable "db_password" {\n  description = "Database password"\n  type        = string\n  default     = "${p}"\n}\n`,
      (p: string) => `variable "admin_password" {\n  default = "${p}"\n}\n`,
      (p: string) => `variable "password" { default = "${p}" }\n`,
      (p: string) =>
        `variable "mysql_root" {\n  type      = string\n  sensitive = true\n  default   = "${p}"\n}\n`,
    ];
    expectFamily({
      secrets: cases.map((c) => {
        const p = pw();
        return [p, c(p)] as const;
      }),
      lookalikes: [
        `variable "db_password" {\n  type    = string\n  default = ""\n}\n`,
        `variable "region" {\n  default = "eu-west-1"\n}\n`,
        `variable "password_length" {\n  default = "${draw(DIGITS, 2)}"\n}\n`,
        `variable "instance_type" {\n  default = "${draw(ALNUM, 16)}"\n}\n`,
      ],
    });
  });

  it("HubSpot legacy API keys and private app tokens under a HubSpot name", () => {
    expectFamily({
      secrets: [
        ...inCode("hubspot_key", uuid, (n, v) => [
          `${n}: "${v}"`,
          `${n.toUpperCase()}=${v}`,
          `"${camel(n)}": "${v}"`,
        ]),
        ...inCode("hubspot_api_key", uuid).slice(0, 4),
        ...inCode("hubspot_token", () => `pat-eu1-${uuid()}`).slice(0, 2),
      ],
      lookalikes: [`hubspot_portal_id = "${draw(DIGITS, 8)}"`, `hubspot_key_id = "${uuid()}"`],
    });
  });

  it("age secret keys, a repeated body and the lower-case form included", () => {
    const rep = (c: string) => `AGE-SECRET-KEY-1${c.repeat(58)}`;
    const lower = () => `age-secret-key-1${draw(BECH32, 58).toLowerCase()}`;
    const l1 = lower();
    const l2 = lower();
    expectFamily({
      secrets: [
        [rep("Q"), rep("Q")],
        [rep("X"), `key: ${rep("X")}`],
        [rep("Y"), `# public key: age1${draw(BECH32, 58).toLowerCase()}\n${rep("Y")}`],
        [l1, l1],
        [l2, `AGE_KEY=${l2}`],
      ],
      lookalikes: [
        `age1${draw(BECH32, 58).toLowerCase()}`,
        "AGE-SECRET-KEY-1 is the prefix of an age identity",
        `AGE-SECRET-KEY-1${draw(BECH32, 20)}`,
      ],
    });
  });

  it("GCP API-key look-alikes are left alone; a key is still redacted", () => {
    const body = () => `Sy${draw(ALNUM, 31)}${draw(DIGITS, 2)}`;
    const key = `AIza${body()}`;
    expectFamily({
      secrets: [
        [key, `https://maps.googleapis.com/maps/api/js?key=${key}&callback=init`],
        [key, `"apiKey": "${key}"`],
      ],
      lookalikes: [
        `$.AIza${body()}(a,b)`,
        `AIza${body()}.prototype.init=function(){}`,
        `window.AIza${body()}`,
        `id="AIza${draw("abcdefghijklmnopqrstuvwxyz", 35)}"`,
        `const x = "AIza${body()}-${draw(ALNUM, 8)}";`,
        `AIza${body()}${draw(ALNUM, 9)}`,
      ],
    });
  });
});

describe("redact: name/value pairs split by other lines (issue 27)", () => {
  const pw = () => draw(ALNUM, 18);
  const forms = [
    (p: string) => `DB_PASSWORD=\n# set in prod\n${p}\n`,
    (p: string) => `{\n  "password":\n    "${p}"\n}`,
    (p: string) => `{\n  "user": "admin",\n  "api_key":\n\n  "${p}",\n  "retries": 3\n}`,
    (p: string) =>
      `<table><tr><th>user</th><th>password</th></tr><tr><td>admin</td><td>${p}</td></tr></table>`,
    (p: string) =>
      `<table>\n  <tr>\n    <th>Password</th>\n  </tr>\n  <tr>\n    <td><code>${p}</code></td>\n  </tr>\n</table>`,
    (p: string) => `<table><tr><th>Secret</th><td>${p}</td></tr></table>`,
    (p: string) => `<dl><dt>password</dt><dd>${p}</dd></dl>`,
    (p: string) => `<dl>\n  <dt>API token</dt>\n  <dd>${p}</dd>\n</dl>`,
  ];
  for (const [i, form] of forms.entries()) {
    it(`form ${i + 1}: ${JSON.stringify(form("…")).slice(1, 60)}`, () => {
      for (let k = 0; k < 3; k++) {
        const p = pw();
        const out = redact(form(p)).text;
        expect(out).not.toContain(p);
        expect(out).toContain("[REDACTED:");
      }
    });
  }

  it("look-alikes: other pairs, public columns and words stay", () => {
    const kept = [
      `AWS_SECRET_ACCESS_KEY=\nGITHUB_TOKEN=\npassword: ""\n`,
      `password:\n  # the next line is a heading\n  Configuration\n`,
      `{\n  "token_type":\n    "${draw(ALNUM, 18)}"\n}`,
      `<table><tr><th>user</th><th>password</th></tr><tr><td>${draw(ALNUM, 18)}</td><td>********</td></tr></table>`,
      `<table><tr><th>Token count</th></tr><tr><td>${draw(DIGITS, 6)}</td></tr></table>`,
      `<dl><dt>password</dt><dd>see the vault</dd></dl>`,
      `DB_PASSWORD=\nDB_HOST=db.internal\n`,
      `secrets:\n  - name: db\n`,
    ];
    for (const t of kept) expect(redact(t).text, t).toBe(t);
  });

  it("completes on pathological input", { timeout: 30_000 }, () => {
    const MB = 1 << 20;
    for (const input of [
      "password=\n".repeat(MB / 10),
      "password:\n#\n".repeat(MB / 12),
      "<th>password</th>".repeat(MB / 17),
      "<td>".repeat(MB / 4),
      'variable "password" {'.repeat(MB / 21),
      `variable "password" {\n${" default = x\n".repeat(MB / 14)}`,
      "<dt>token</dt><dd>".repeat(MB / 19),
    ]) {
      expect(redact(input).text.length).toBeGreaterThan(0);
    }
  });
});
