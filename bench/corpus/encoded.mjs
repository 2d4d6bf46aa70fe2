/**
 * Secrets that leak encoded: base64 values under a Kubernetes Secret's `data:` (the decoded
 * value is a password or a token), SMTP `AUTH PLAIN` (RFC 4616: base64 of
 * `authzid NUL authcid NUL password`) and `AUTH LOGIN` exchanges, IMAP/POP3/FTP logins in clear,
 * and HTTP `Authorization: Basic` (RFC 7617: base64 of `user:password`) in carriers the first
 * corpus lacks (nginx debug logs, Go request dumps, tshark, wget, Envoy access logs, git).
 *
 * Labels: the base64 text as it stands (the decoded value never appears); for AUTH LOGIN the
 * password's base64 line (the user name's line is not labelled); where a carrier also shows the
 * decoded credentials (tshark), the password there too. In a service-account token Secret the
 * `ca.crt` and `namespace` values are public: they are labelled look-alikes, not secrets.
 */

import { har } from "./carriers.mjs";
import {
  ALNUM,
  APPS,
  around,
  at,
  B64,
  base64Of,
  checksummed,
  ciLog,
  clock,
  ip,
  jwt,
  k8sMeta,
  LOG,
  opaque,
  pad,
  password,
  positive,
  shell,
  USERS,
  urlPassword,
  uuid,
} from "./kit.mjs";

const form = (carrier, file, make) => (r, v) => ({ carrier, file, ...make(r, v) });

// ---------------------------------------------------------------------------------------------
// Kubernetes Secret data

/** A decoded value people keep in a Secret: a password, a token, a URL with a password. */
function secretValue(r) {
  return r.pick([
    () => password(r),
    () => opaque(r),
    () => checksummed(r, "ghp_"),
    () => `sk_live_${r.chars(ALNUM, 24)}`,
    () => `postgres://app:${urlPassword(r)}@db.${r.pick(["prod", "payments"])}.svc:5432/app`,
    () => r.chars(B64, 40),
  ])();
}

/** A public certificate's PEM, base64-encoded as `ca.crt` sits in a Secret. */
const caCrt = (r) =>
  base64Of(
    `-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgII${r.chars(B64, 44)}\n${Array.from({ length: 14 }, () => r.chars(B64, 64)).join("\n")}\n${r.chars(B64, 28)}\n-----END CERTIFICATE-----\n`,
  );

function secretYaml(r, name, data, type = "Opaque", extra = []) {
  const m = k8sMeta(r, name);
  return [
    "apiVersion: v1",
    "data:",
    ...data.map(([k, v]) => `  ${k}: ${v}`),
    "kind: Secret",
    "metadata:",
    ...extra,
    `  creationTimestamp: "${m.creationTimestamp}"`,
    `  name: ${m.name}`,
    `  namespace: ${m.namespace}`,
    `  resourceVersion: "${m.resourceVersion}"`,
    `  uid: ${m.uid}`,
    `type: ${type}`,
  ].join("\n");
}

const K8S_FORMS = [
  form("service-account token secret", LOG, (r) => {
    const token = base64Of(jwt(r));
    const ca = caCrt(r);
    const ns = base64Of(r.pick(["prod", "default", "payments"]));
    return {
      text: shell(
        "kubectl get secret deployer-token -o yaml",
        secretYaml(
          r,
          "deployer-token",
          [
            ["ca.crt", ca],
            ["namespace", ns],
            ["token", token],
          ],
          "kubernetes.io/service-account-token",
          ["  annotations:", "    kubernetes.io/service-account.name: deployer"],
        ),
      ),
      secrets: [token],
      lookalikes: [ca, ns],
    };
  }),
  form("several keys", LOG, (r) => {
    const a = base64Of(secretValue(r));
    const b = base64Of(secretValue(r));
    return {
      text: shell(
        "kubectl get secret app-env -o yaml",
        secretYaml(r, "app-env", [
          ["API_KEY", a],
          ["DATABASE_PASSWORD", b],
          ["LOG_FORMAT", base64Of("json")],
        ]),
      ),
      secrets: [a, b],
    };
  }),
  form("jsonpath one key", LOG, (r, v) => ({
    text: shell(`kubectl get secret ${r.pick(APPS)}-db -o jsonpath='{.data.password}'`, v),
    secrets: [v],
  })),
  form("jsonpath .data", LOG, (r, v) => ({
    text: shell(
      `kubectl get secret ${r.pick(APPS)}-api -o jsonpath='{.data}'`,
      JSON.stringify({ "client-id": base64Of(`${r.pick(APPS)}-web`), "client-secret": v }),
    ),
    secrets: [v],
  })),
  form("go-template", LOG, (r, v) => ({
    text: shell(
      `kubectl get secret ${r.pick(APPS)}-smtp -o go-template='{{range $k,$v := .data}}{{$k}}={{$v}}{{"\\n"}}{{end}}'`,
      `host=${base64Of("smtp.example.com")}\npassword=${v}\nport=${base64Of("587")}`,
    ),
    secrets: [v],
  })),
  form("kubectl edit", LOG, (r, v) => ({
    text: `# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n${secretYaml(r, "redis-auth", [["redis-password", v]])}`,
    secrets: [v],
  })),
  form("last-applied annotation", LOG, (r, v) => {
    const applied = JSON.stringify({
      apiVersion: "v1",
      data: { token: v },
      kind: "Secret",
      metadata: { annotations: {}, name: "ci-token", namespace: "prod" },
      type: "Opaque",
    });
    return {
      text: shell(
        "kubectl get secret ci-token -o yaml",
        secretYaml(r, "ci-token", [["token", v]], "Opaque", [
          "  annotations:",
          "    kubectl.kubernetes.io/last-applied-configuration: |",
          `      ${applied}`,
        ]),
      ),
      secrets: [v],
    };
  }),
  form("create --dry-run", LOG, (r, v) => ({
    text: shell(
      `kubectl create secret generic ${r.pick(APPS)}-keys --from-literal=signing-key=... --dry-run=client -o yaml`,
      `apiVersion: v1\ndata:\n  signing-key: ${v}\nkind: Secret\nmetadata:\n  creationTimestamp: null\n  name: ${r.pick(APPS)}-keys`,
    ),
    secrets: [v],
  })),
  form("argocd repo secret", LOG, (r, v) => {
    const url = base64Of(`https://github.com/acme/${r.pick(APPS)}-deploy.git`);
    return {
      text: shell(
        "kubectl -n argocd get secret repo-deploy -o yaml",
        secretYaml(
          r,
          "repo-deploy",
          [
            ["password", v],
            ["type", base64Of("git")],
            ["url", url],
            ["username", base64Of("acme-bot")],
          ],
          "Opaque",
          ["  labels:", "    argocd.argoproj.io/secret-type: repository"],
        ),
      ),
      secrets: [v],
      lookalikes: [url],
    };
  }),
  form("secrets list -o json", LOG, (r, v) => ({
    text: shell(
      "kubectl get secrets -l app=web -o json",
      JSON.stringify(
        {
          apiVersion: "v1",
          items: [
            {
              apiVersion: "v1",
              data: { "session-secret": v },
              kind: "Secret",
              metadata: { name: "web-session", namespace: "prod", uid: uuid(r) },
              type: "Opaque",
            },
          ],
          kind: "List",
          metadata: { resourceVersion: "" },
        },
        null,
        4,
      ),
    ),
    secrets: [v],
  })),
];

// ---------------------------------------------------------------------------------------------
// Mail protocols

const MAIL_USERS = ["dana@example.com", "alerts@acme.example", "noreply@acme.example", "ci"];
const MAIL_HOSTS = ["smtp.example.com", "mail.acme.example", "smtp.sendgrid.net"];

/** An SMTP credential: the user, the password and both RFC 4616 / AUTH LOGIN encodings. */
function smtpCredential(r) {
  const user = r.pick(MAIL_USERS);
  const pass = password(r);
  return {
    user,
    pass,
    plain: base64Of(`${r.chance(0.2) ? user : ""}\0${user}\0${pass}`),
    login: [base64Of(user), base64Of(pass)],
  };
}

const SMTP_FORMS = [
  form("swaks", LOG, (r, c) => ({
    text: [
      `$ swaks --to ops@example.com --server ${r.pick(MAIL_HOSTS)}:587 --tls --auth PLAIN --auth-user ${c.user} --auth-password '…'`,
      "=== Trying smtp.example.com:587...",
      "=== Connected to smtp.example.com.",
      "<-  220 smtp.example.com ESMTP ready",
      " -> EHLO ci-runner",
      "<-  250-smtp.example.com",
      "<-  250-STARTTLS",
      "<-  250 AUTH PLAIN LOGIN",
      " -> STARTTLS",
      "<-  220 2.0.0 Ready to start TLS",
      "=== TLS started with cipher TLSv1.3:TLS_AES_256_GCM_SHA384:256",
      " ~> EHLO ci-runner",
      "<~  250 AUTH PLAIN LOGIN",
      ` ~> AUTH PLAIN ${c.plain}`,
      "<~  235 2.7.0 Authentication successful",
      " ~> MAIL FROM:<alerts@acme.example>",
      "<~  250 2.1.0 Ok",
    ].join("\n"),
    secrets: [c.plain],
  })),
  form("smtplib debug", LOG, (_r, c) => ({
    text: [
      "send: 'ehlo [172.17.0.3]\\r\\n'",
      "reply: b'250-smtp.example.com\\r\\n'",
      "reply: b'250 AUTH LOGIN PLAIN\\r\\n'",
      `send: 'AUTH PLAIN ${c.plain}\\r\\n'`,
      "reply: b'235 2.7.0 Authentication successful\\r\\n'",
      "reply: retcode (235); Msg: b'2.7.0 Authentication successful'",
    ].join("\n"),
    secrets: [c.plain],
  })),
  form("curl -v smtp", LOG, (r, c) => ({
    text: [
      `$ curl -v --ssl-reqd smtp://${r.pick(MAIL_HOSTS)}:587 --mail-from alerts@acme.example --mail-rcpt ops@example.com --user '${c.user}:…' -T mail.txt`,
      "< 220 smtp.example.com ESMTP",
      "> EHLO mail.txt",
      "< 250-AUTH PLAIN LOGIN",
      "< 250 8BITMIME",
      `> AUTH PLAIN ${c.plain}`,
      "< 235 2.7.0 Accepted",
      "> MAIL FROM:<alerts@acme.example>",
    ].join("\n"),
    secrets: [c.plain],
  })),
  form("AUTH LOGIN (openssl s_client)", LOG, (r, c) => ({
    text: [
      `$ openssl s_client -starttls smtp -connect ${r.pick(MAIL_HOSTS)}:587 -crlf -quiet`,
      "250 CHUNKING",
      "AUTH LOGIN",
      "334 VXNlcm5hbWU6",
      c.login[0],
      "334 UGFzc3dvcmQ6",
      c.login[1],
      "235 2.7.0 Authentication successful",
    ].join("\n"),
    secrets: [c.login[1]],
  })),
  form("AUTH LOGIN (PHPMailer debug)", LOG, (r, c) => ({
    text: [
      `${clock(r)} SERVER -> CLIENT: 250-AUTH LOGIN PLAIN`,
      `${clock(r)} CLIENT -> SERVER: AUTH LOGIN`,
      `${clock(r)} SERVER -> CLIENT: 334 VXNlcm5hbWU6`,
      `${clock(r)} CLIENT -> SERVER: ${c.login[0]}`,
      `${clock(r)} SERVER -> CLIENT: 334 UGFzc3dvcmQ6`,
      `${clock(r)} CLIENT -> SERVER: ${c.login[1]}`,
      `${clock(r)} SERVER -> CLIENT: 235 2.7.0 Authentication successful`,
    ].join("\n"),
    secrets: [c.login[1]],
  })),
  form("exim -d", LOG, (r, c) => ({
    text: around(r, [
      `  SMTP<< 250-${r.pick(MAIL_HOSTS)} Hello ci [${ip(r)}]`,
      "  SMTP<< 250 AUTH PLAIN LOGIN",
      `  SMTP>> AUTH PLAIN ${c.plain}`,
      "  SMTP<< 235 Authentication succeeded",
    ]),
    secrets: [c.plain],
  })),
  form("postfix verbose", LOG, (r, c) => ({
    text: [
      `Nov 30 10:${pad(r.int(60))}:${pad(r.int(60))} mx postfix/smtpd[${r.between(1000, 9999)}]: < unknown[${ip(r)}]: EHLO app`,
      `Nov 30 10:${pad(r.int(60))}:${pad(r.int(60))} mx postfix/smtpd[${r.between(1000, 9999)}]: < unknown[${ip(r)}]: AUTH PLAIN ${c.plain}`,
      `Nov 30 10:${pad(r.int(60))}:${pad(r.int(60))} mx postfix/smtpd[${r.between(1000, 9999)}]: > unknown[${ip(r)}]: 235 2.7.0 Authentication successful`,
    ].join("\n"),
    secrets: [c.plain],
  })),
];

const MAIL_LOGIN_FORMS = [
  form("IMAP LOGIN (openssl)", LOG, (r, c) => ({
    text: [
      "$ openssl s_client -connect imap.example.com:993 -quiet",
      "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] Dovecot ready.",
      `a1 LOGIN ${c.user} "${c.pass}"`,
      "a1 OK Logged in",
      "a2 SELECT INBOX",
      `* ${r.int(900)} EXISTS`,
    ].join("\n"),
    secrets: [c.pass],
  })),
  form("IMAP AUTHENTICATE PLAIN", LOG, (_r, c) => ({
    text: `C: a001 AUTHENTICATE PLAIN\nS: +\nC: ${c.plain}\nS: a001 OK Success`,
    secrets: [c.plain],
  })),
  form("POP3 (telnet)", LOG, (_r, c) => ({
    text: `$ telnet pop.example.com 110\n+OK POP3 ready\nUSER ${c.user}\n+OK\nPASS ${c.pass}\n+OK Logged in.\nSTAT\n+OK 3 4521`,
    secrets: [c.pass],
  })),
  form("curl -v ftp", LOG, (r, c) => ({
    text: [
      `$ curl -v -T build.tar.gz ftp://ftp.example.com/uploads/ --user '${r.pick(USERS)}:…'`,
      "< 220 ProFTPD Server ready.",
      `> USER ${r.pick(USERS)}`,
      "< 331 Password required",
      `> PASS ${c.pass}`,
      "< 230 User logged in",
      "> PWD",
    ].join("\n"),
    secrets: [c.pass],
  })),
  form("lftp debug", LOG, (r, c) => ({
    text: `---- Connecting to ftp.example.com (${ip(r)}) port 21\n<--- 220 Welcome\n---> USER deploy\n<--- 331 Please specify the password.\n---> PASS ${c.pass}\n<--- 230 Login successful.`,
    secrets: [c.pass],
  })),
];

// ---------------------------------------------------------------------------------------------
// HTTP Basic

/** `user:password` base64-encoded, and its parts. */
function basicCredential(r) {
  const user = r.pick(USERS);
  const pass = password(r);
  return { user, pass, blob: base64Of(`${user}:${pass}`) };
}

const BASIC_FORMS = [
  form("nginx debug log", LOG, (r, c) => ({
    text: [
      `2026/11/30 10:${pad(r.int(60))}:${pad(r.int(60))} [debug] ${r.between(100, 999)}#0: *${r.int(9000)} http header: "Host: registry.example.com"`,
      `2026/11/30 10:${pad(r.int(60))}:${pad(r.int(60))} [debug] ${r.between(100, 999)}#0: *${r.int(9000)} http header: "Authorization: Basic ${c.blob}"`,
      `2026/11/30 10:${pad(r.int(60))}:${pad(r.int(60))} [debug] ${r.between(100, 999)}#0: *${r.int(9000)} http header done`,
    ].join("\n"),
    secrets: [c.blob],
  })),
  form("Go httputil.DumpRequest", LOG, (r, c) => ({
    text: around(r, [
      at(r, "DEBUG", "outgoing request:"),
      "GET /v2/_catalog HTTP/1.1",
      "Host: registry.example.com",
      "User-Agent: Go-http-client/1.1",
      `Authorization: Basic ${c.blob}`,
      "Accept-Encoding: gzip",
      "",
    ]),
    secrets: [c.blob],
  })),
  form("tshark -V", LOG, (r, c) => ({
    text: [
      `Frame ${r.int(900)}: 412 bytes on wire (3296 bits), 412 bytes captured (3296 bits) on interface eth0`,
      "Hypertext Transfer Protocol",
      "    GET /api/v1/status HTTP/1.1\\r\\n",
      "    Host: jenkins.internal:8080\\r\\n",
      `    Authorization: Basic ${c.blob}\\r\\n`,
      `        Credentials: ${c.user}:${c.pass}`,
      "    User-Agent: curl/8.5.0\\r\\n",
    ].join("\n"),
    secrets: [c.blob, c.pass],
  })),
  form("wget --debug", LOG, (r, c) => ({
    text: [
      "$ wget --debug --user deploy --password '…' https://nexus.example.com/repository/raw/app.tar.gz",
      "---request begin---",
      "GET /repository/raw/app.tar.gz HTTP/1.1",
      "Host: nexus.example.com",
      `Authorization: Basic ${c.blob}`,
      "Connection: Keep-Alive",
      "",
      "---request end---",
      `HTTP request sent, awaiting response... ${r.pick([200, 401])}`,
    ].join("\n"),
    secrets: [c.blob],
  })),
  form("Envoy access log", LOG, (r, c) => ({
    text: JSON.stringify({
      start_time: clock(r),
      method: "GET",
      path: "/metrics",
      response_code: 200,
      authority: "prometheus.internal:9090",
      "x-forwarded-for": ip(r),
      authorization: `Basic ${c.blob}`,
      upstream_host: `${ip(r)}:9090`,
      duration: r.int(90),
    }),
    secrets: [c.blob],
  })),
  form("git extraheader", LOG, (r, c) => ({
    text: ciLog(r, {
      run: [`git -c http.extraheader="AUTHORIZATION: basic ${c.blob}" fetch origin main`],
      output: [
        "From https://dev.azure.com/acme/web/_git/web",
        " * branch            main       -> FETCH_HEAD",
      ],
    }),
    secrets: [c.blob],
  })),
  form("HAR (lowercase header)", "trace.har", (r, c) => ({
    text: har(r, {
      url: "https://grafana.example.com/api/health",
      headers: [["authorization", `basic ${c.blob}`]],
    }),
    secrets: [c.blob],
  })),
  form(".npmrc _auth", LOG, (_r, c) => ({
    text: shell(
      "cat .npmrc",
      `registry=https://nexus.example.com/repository/npm-group/\n_auth=${c.blob}\nalways-auth=true`,
    ),
    secrets: [c.blob],
  })),
  form("python requests prepared", LOG, (r, c) => ({
    text: around(r, [
      at(
        r,
        "DEBUG",
        `prepared request headers: {'User-Agent': 'python-requests/2.32.3', 'Accept': '*/*', 'Authorization': 'Basic ${c.blob}'}`,
      ),
    ]),
    secrets: [c.blob],
  })),
];

export const POSITIVES = [
  positive("k8s_secret_base64", (r) => base64Of(secretValue(r)), K8S_FORMS, 16),
  positive("smtp_auth", smtpCredential, SMTP_FORMS, 12),
  positive("mail_login", smtpCredential, MAIL_LOGIN_FORMS, 8),
  positive("basic_auth_header", basicCredential, BASIC_FORMS, 14),
];
