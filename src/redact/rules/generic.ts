import {
  after,
  BETWEEN,
  COLON,
  E,
  OPERATOR,
  QUOTE,
  type SecretRule,
  VALUE_START,
} from "./format.js";

/**
 * An unquoted value: it stops at a space, a quote, a delimiter, a backslash (a JSON escape shown
 * as text), an escaped delimiter (`%22`, `%26`, `%2C`, …) and an `&` that starts the next query
 * parameter. Each alternative takes one character, so a run cannot backtrack into itself.
 */
const UNQUOTED = String.raw`(?:[^\s"'${"`"},;{}\[\]\\%&<>]|%(?!2[2267Cc]|3[BbCcEe]|5[Dd]|7[Dd]|0[9AaDd]|20)|&(?![A-Za-z0-9_.-]{1,40}=|amp;|quot;|#))`;

/**
 * A value after an assignment: in double quotes, in single quotes, in backticks (a Go raw string
 * or a JS template without substitutions), or bare (groups 1, 2, 3, 4).
 */
function quotedValue(min: number): string {
  return String.raw`(?:"((?:[^"\\\r\n]|\\[^\r\n]){${min},1024})"|'([^'\r\n]{${min},1024})'|${"`"}([^${"`"}$\s]{${min},1024})${"`"}|${QUOTE}?(${UNQUOTED}{${min},256}))`;
}

/** What every key-named value is not: a call, a lookup, another assignment, an ARN, a token type. */
const NOT_A_VALUE = String.raw`[()]|^(?:process|os|sys|System|std|env|ENV|var|local|data|module|self|this|args|params|config|settings|secrets|vars|inputs|ctx|context|Deno)(?:\.|::|\[)|^[A-Za-z_][\w.-]*=[^=]|^(?:arn:|[a-z]{2}(?:-gov)?-[a-z]+-\d:\d{12}:)|^(?:bearer|basic|mac|jwt)(?:&|$)`;

/** Words a Secret's data name ends in when it holds a secret. */
const KUBE_WORDS = [
  "key",
  "keys",
  "pass",
  "password",
  "passwd",
  "pwd",
  "auth",
  "secret",
  "token",
  "credential",
  "credentials",
  "dockercfg",
  "dockerconfigjson",
];

/** Words before "key" that make a key name a secret's (`app_key`, `signingKey`, `MASTER-KEY`). */
const KEY_KINDS = [
  "app",
  "auth",
  "client",
  "consumer",
  "encryption",
  "signing",
  "master",
  "license",
  "account",
  "service",
  "admin",
  "write",
  "ingest",
  "insert",
  "session",
  "shared",
  "subscription",
  "secret",
  "root",
  "deploy",
  "webhook",
  "security",
  "storage",
  "primary",
  "secondary",
  "management",
  "developer",
  "merchant",
  "integration",
  "server",
  "personal",
  "bot",
  "project",
  "workspace",
  "sdk",
  "hmac",
  "jwt",
  "aes",
  "crypto",
];
const SEPARATORS = ["", "_", "-", "."];
/** The words an XML element's name ends in when its text is a secret. */
const XML_WORDS = [
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "key",
  "credential",
  "credentials",
  "pass",
  "pwd",
];

/** Formats that are not one vendor's: credential files, tokens and headers, key=value assignments. */
export const GENERIC_RULES: readonly SecretRule[] = [
  // Files that hold credentials
  {
    // `user:hash` lines of an htpasswd file: Apache MD5, bcrypt, SHA-1.
    id: "htpasswd_hash",
    keywords: ["$apr1$", "$2y$", "$2a$", "$2b$", "{SHA}"],
    pattern: String.raw`(?<=[A-Za-z0-9._@-]):(\$apr1\$[./0-9A-Za-z]{1,8}\$[./0-9A-Za-z]{22}|\$2[aby]\$\d{2}\$[./0-9A-Za-z]{53}|\{SHA\}[A-Za-z0-9+/]{27}=)`,
    group: 1,
  },
  {
    // `user:hash:…` lines of /etc/shadow: MD5, SHA-256, SHA-512 crypt and yescrypt.
    id: "shadow_password_hash",
    keywords: ["$1$", "$5$", "$6$", "$y$", "$gy$", "$7$"],
    pattern: String.raw`(?<=[A-Za-z0-9._-]):(\$(?:1|5|6|y|gy|7)\$(?:rounds=\d{1,9}\$)?[./0-9A-Za-z]{1,64}\$(?:[./0-9A-Za-z]{1,64}\$)?[./0-9A-Za-z]{22,86})(?=:|\s|$)`,
    group: 1,
  },
  {
    // Private members of a JSON Web Key. The rule runs only on lines that hold "kty" (its
    // keyword), so a "d" elsewhere is left alone.
    id: "jwk_private_key",
    keywords: ['"kty"'],
    pattern: String.raw`"(?:d|p|q|dp|dq|qi|k)"\s{0,5}:\s{0,5}"([A-Za-z0-9_-]{16,4096})"`,
    group: 1,
  },
  {
    // .netrc: `machine host login user password secret` (anywhere on a line), `machine host
    // password secret` at the start of one, or a `password secret` line of its own (the
    // multi-line form).
    id: "netrc_password",
    keywords: ["password"],
    pattern: String.raw`(?:${after("A-Za-z0-9_-")}(?:machine[ \t]{1,8}\S{1,253}|default)[ \t]{1,8}login[ \t]{1,8}\S{1,256}[ \t]{1,8}|^\s{0,16}machine[ \t]{1,8}\S{1,253}[ \t]{1,8}|^\s{0,16}(?=password[ \t]{1,8}\S{6,256}\s*$))password[ \t]{1,8}(\S{1,256})`,
    group: 1,
    generality: 1,
  },
  {
    // Maven settings.xml, NuGet.config and other XML: `<password>…</password>`, and any element
    // whose name ends in a secret's word (`<sonarToken>`, `<apiKey>`, `<db_pass>`, `<signingKey>`),
    // judged by its whole name (`<nextPageToken>`, `<secretKeyId>` are not secrets).
    id: "xml_password",
    keywords: XML_WORDS.map((w) => `${w}>`),
    pattern: String.raw`<(?:[A-Za-z0-9_.:-]{0,40}(?:password|passwd|passphrase|secret|token|credentials?|(?:api|access|private|secret|auth|${KEY_KINDS.join("|")})[_.-]?key)|(?:[A-Za-z0-9]{1,30}[_.-])?(?:pass|pwd))>([^<\s]{6,256})</`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    generality: 1,
  },
  {
    // Names that end in "auth", "authorization", "jwt" or "bearer" (`twilio_auth`, `"jwt":`):
    // common words, so only a value shaped like a token counts (long, letters and digits).
    id: "secret_assignment",
    // The name is followed by its assignment: a quote, a space, an operator.
    keywords: ["auth", "authorization", "jwt", "bearer"].flatMap((w) =>
      ["=", ":", '"', "'", " ", "\\", "%", "&"].map((c) => `${w}${c}`),
    ),
    pattern: `(?:auth|authorization|jwt|bearer)${BETWEEN}${QUOTE}?(?=[A-Za-z0-9+/=_.~-]{0,1024}[0-9])(?=[A-Za-z0-9+/=_.~-]{0,1024}[A-Za-z])([A-Za-z0-9+/=_.~-]{16,1024})(?![A-Za-z0-9+/=_.~:-])`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    minEntropy: 3.5,
    generality: 2,
  },
  // Tokens and headers
  {
    // The start may not follow "-" either: "-" is in the token alphabet, so a run from one start
    // would cross every later "eyJ" and each would scan to the end of the line (quadratic).
    id: "jwt",
    keywords: ["eyJ"],
    pattern: String.raw`${after("A-Za-z0-9_-")}eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{8,8192}${E}`,
  },
  {
    // Any scheme's credentials (`Bearer`, `Basic`, `Token`, `AccessKey`, `SSWS`, `Splunk`, …), or
    // a bare token, after an Authorization header name (Proxy-Authorization too).
    id: "authorization_header",
    keywords: ["authorization"],
    pattern: String.raw`authorization${COLON}(?:(?:bearer|basic|token|digest|accesskey|apikey|api-key|key|ssws|splunk|genieKey|dsn|sharedkey|hmac|otp|negotiate|ntlm)\s+)?${VALUE_START}([A-Za-z0-9._~+/=-]{8,})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
    reject: "^(?:bearer|basic|token|digest|required|none|null|true|false)$",
  },
  {
    // SMTP and IMAP SASL: `AUTH PLAIN <base64 of \0user\0password>`, XOAUTH2 and OAUTHBEARER
    // (which carry a bearer token), inline or as IMAP's `AUTHENTICATE PLAIN <…>`.
    id: "smtp_auth",
    keywords: [
      "auth plain",
      "auth xoauth2",
      "auth oauthbearer",
      "authenticate plain",
      "authenticate xoauth2",
    ],
    pattern: String.raw`\bauth(?:enticate)?[ \t]+(?:plain|xoauth2|oauthbearer)[ \t]+([A-Za-z0-9+/]{4,8192}={0,2})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "bearer_token",
    keywords: ["bearer "],
    pattern: String.raw`\bbearer\s+([A-Za-z0-9._~+/-]{20,}=*)`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "api_key_header",
    keywords: ["api-key", "x-apikey"],
    pattern: String.raw`${after("A-Za-z0-9_-")}(?:x-api-?key|api-key)${COLON}${VALUE_START}([^\s"',;<>(){}\[\]]{8,1024})`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    id: "auth_token_header",
    keywords: ["x-auth-token", "x-access-token", "x-api-token", "x-session-token"],
    pattern: String.raw`${after("A-Za-z0-9_-")}x-(?:auth|access|api|session)-token${COLON}${VALUE_START}([^\s"',;<>]{8,2048})`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    // Any `X-…-Key`, `X-…-Token`, `X-…-Secret` header (`x-functions-key`, `x-goog-api-key`).
    id: "secret_header",
    keywords: ["x-"],
    pattern: String.raw`${after("A-Za-z0-9_-")}x-[A-Za-z0-9-]{1,40}-(?:key|token|secret|signature|auth)${COLON}${VALUE_START}([^\s"',;<>(){}\[\]]{8,2048})`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    minEntropy: 3,
    generality: 1,
  },
  {
    // Secrets passed as command-line flags (`--password hunter2…`, `--token=…`, `--sonar-token …`,
    // `--client-secret …`): the flag's name is judged like a key name (`--next-page-token` is not).
    id: "cli_secret_flag",
    keywords: ["-password", "-passwd", "-token", "-api-key", "-apikey", "-secret", "-key"],
    pattern: String.raw`${after("A-Za-z0-9_-")}--(?:[A-Za-z0-9]{1,30}-){0,4}(?:password|passwd|token|api-key|apikey|secret|key)(?:=|[ \t]{1,5})["']?(?!id=)${VALUE_START}([^\s"']{8,512})`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    minEntropy: 3,
    generality: 1,
  },
  {
    // `curl -u user:password`.
    id: "curl_user_password",
    keywords: ["-u ", "--user ", "--user="],
    // Also a token as the user name and an empty password (`-u <token>:`, Sonar's and others').
    pattern: String.raw`${after("A-Za-z0-9_-")}(?:-u|--user)(?:=|[ \t]{1,5})["']?(?:[^\s:"']{1,128}:${VALUE_START}([^\s"']{6,256})|([A-Za-z0-9_.-]{20,128}):(?=["'\s]|$))`,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    // curl's short options combined or attached: `curl -sSfu user:password`, `curl -uuser:password`.
    id: "curl_user_password",
    keywords: ["curl"],
    pattern: String.raw`\bcurl\b[^\r\n]{0,256}?[ \t]-[A-Za-z]{0,8}u[ \t]{0,5}["']?[^\s:"'$-][^\s:"'$]{0,127}:${VALUE_START}([^\s"']{6,256})`,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    id: "cookie",
    keywords: ["cookie:", "cookie':", 'cookie":'],
    // A header line, or a header in a quoted map (`{'Cookie': '…'}`): the rest of the line.
    pattern: String.raw`(?:set-)?cookie["']?:\s*([^\r\n]{1,8192})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "url_password",
    keywords: ["://"],
    // A user name has no brackets (so `https://[REDACTED:…]@host` is not user and password).
    pattern: String.raw`\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@"'<>[\]]{0,128}:([^\s@/"'<>]{1,256})@`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    // A secret in a URL's query string (or a form body): `?token=`, `&sig=`, `X-Amz-Signature=`,
    // also after an escaped separator (`&amp;`, `\u0026`, `%26`, `%3F`). The parameter name is
    // read whole, so `page_token` and `next_cursor` are judged as the pagination cursors they are.
    id: "url_query_secret",
    keywords: [
      "key=",
      "token=",
      "secret=",
      "password=",
      "passwd=",
      "pwd=",
      "signature=",
      "sig=",
      "credential=",
      "auth=",
      "jwt=",
      "appid=",
      "code=",
    ],
    pattern: String.raw`(?:[?&#]|&amp;|\\u0026|%26|%3[Ff])((?:[A-Za-z0-9_.-]{0,40}?[_.-])?(?:api[_-]?key|apikey|key|access[_-]?token|auth[_-]?token|refresh[_-]?token|id[_-]?token|private[_-]?token|session[_-]?token|security[_-]?token|token|secret|client[_-]?secret|password|passwd|pwd|sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|credential|auth|jwt|license[_-]?key|appid|code))=([^&\s#"'<>\\]{6,})`,
    ignoreCase: true,
    group: 2,
    keyed: true,
    generality: 1,
  },
  // KEY=value where the key names a secret (env, .env, YAML, JSON, code in many languages). The
  // match starts at the secret word, so the pattern never scans back over a long identifier; the
  // redactor reads the whole key name back (a pagination token, an endpoint or a count is not a
  // secret) and judges the value (a word, a path, a reference, a placeholder is not one). The
  // words are exactly the keywords: a broader word would match only when another keyword (or a
  // rule id in an earlier replacement) happens to be on the line, and redaction would not be
  // idempotent.
  {
    id: "secret_assignment",
    keywords: [
      "password",
      "passwd",
      "passphrase",
      "secret",
      "token",
      "credential",
      ...["api", "private", "access"].flatMap((w) => SEPARATORS.map((sep) => `${w}${sep}key`)),
    ],
    // A quoted value runs to its closing quote (passwords hold commas, semicolons, spaces); an
    // unquoted one stops at a space or a delimiter.
    pattern: `(?:password|passwd|passphrase|secret|token|credential|(?:api|private|access)[_.-]?key)[A-Za-z0-9_.-]{0,40}${BETWEEN}${quotedValue(6)}`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    generality: 2,
    // Code and references name a secret without holding it: a call, a lookup (an environment read,
    // `var.token`, `std::env`), another assignment (`prompt=12`), an ARN, a token type.
    reject: NOT_A_VALUE,
  },
  {
    // Keys of a kind of secret key: `app_key`, `MASTER_KEY`, `signingKey`, `webhook-key`.
    id: "secret_assignment",
    // Every name ends in "key": one keyword covers them all (the pattern names the kinds).
    keywords: ["key"],
    pattern: `(?:${KEY_KINDS.join("|")})[_.-]?key[A-Za-z0-9_.-]{0,30}${BETWEEN}${quotedValue(8)}`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    generality: 2,
    reject: NOT_A_VALUE,
  },
  {
    // The short words: `DB_PASS=`, `pwd:`, `userPass =`. Case decides where a word starts, so the
    // rule is case-sensitive (`compass=`, `bypass=` are not passwords).
    id: "secret_assignment",
    keywords: ["pass", "Pass", "PASS", "pwd", "Pwd", "PWD"],
    pattern: `(?:${after("A-Za-z")}(?:pass|PASS|Pass|pwd|PWD|Pwd)|(?<=[a-z])(?:Pass|Pwd))(?![a-z])[A-Za-z0-9_.-]{0,30}${BETWEEN}${quotedValue(6)}`,
    group: 1,
    keyed: true,
    generality: 2,
    reject: NOT_A_VALUE,
  },
  {
    // A key named only "key" (`"key": "…"`, `key = '…'`): common in configs for anything, so only
    // a value shaped like a token counts (long, letters and digits, no path or dotted name).
    id: "secret_assignment",
    keywords: ["key"],
    pattern: String.raw`${after("A-Za-z0-9_.-")}key${QUOTE}?\s{0,32}${OPERATOR}\s{0,32}${QUOTE}?(?=[A-Za-z0-9+/=_-]{0,256}[0-9])(?=[A-Za-z0-9+/=_-]{0,256}[A-Za-z])([A-Za-z0-9+/=_-]{20,256})(?![A-Za-z0-9+/=_.:-])`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    minEntropy: 3.5,
    generality: 2,
  },
  {
    // A Secret's `data:` value (base64) whose key names a key, password, token, secret or auth,
    // or the docker config keys: a whole indented line. The value is decoded and judged: a
    // public key, a certificate or a placeholder inside stays. (Entries under a `data:` line that
    // is in view are judged whatever their names, by the kubernetes detector.)
    id: "kubernetes_secret_data",
    // The word ends the name, right before its colon (quoted or not): "auth" alone would hit
    // every `auth-service` in a log.
    keywords: KUBE_WORDS.flatMap((word) => [`${word}:`, `${word}":`, `${word}':`]),
    pattern: String.raw`^\s{2,16}["']?[A-Za-z0-9_.-]{0,60}(?:${KUBE_WORDS.join("|")})["']?:[ \t]{1,8}["']?([A-Za-z0-9+/]{8,16384}={0,2})["']?,?\s*$`,
    ignoreCase: true,
    group: 1,
    keyed: true,
    encoded: "base64",
    generality: 2,
  },
  {
    // PowerShell: `ConvertTo-SecureString "…" -AsPlainText`.
    id: "powershell_secure_string",
    keywords: ["convertto-securestring"],
    pattern: String.raw`ConvertTo-SecureString\s+(?:-String\s+)?["']([^"'\r\n]{4,512})["'][^\r\n]{0,64}?-AsPlainText`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    // Windows: `net use Z: \\server\share <password> /user:DOMAIN\name`.
    id: "net_use_password",
    keywords: ["net use"],
    pattern: String.raw`\bnet[ \t]+use\b[^\r\n]{0,200}?[ \t](?!/)(?:"([^"\r\n]{1,128})"|([^\s"/*]{4,128}))[ \t]+/user:`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    // SQL: `CREATE USER app IDENTIFIED BY 'secret'`, `ALTER ROLE app WITH PASSWORD 'secret'`.
    id: "sql_password",
    keywords: ["identified by", "with password", "with encrypted password", "password '"],
    pattern: String.raw`(?:\bidentified\s+by(?:\s+password)?|\bwith\s+(?:encrypted\s+)?password|\bpassword)\s+'([^'\r\n]{4,256})'`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "cli_password_flag",
    keywords: ["mysql", "mariadb", "sshpass", "redis-cli"],
    // `mysql -pSECRET` (no space: a space makes -p prompt), `sshpass -p SECRET`, `redis-cli -a
    // SECRET`.
    pattern: String.raw`(?:\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\r\n]{0,200}?\s-p([^\s'"]{4,128})|\bsshpass\s+-p\s*["']?([^\s'"]{4,128})|\bredis-cli\b[^\r\n]{0,200}?\s(?:-a|--pass)\s+["']?([^\s'"]{4,256}))`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "session_cookie",
    keywords: ["session=", "sess=", "sid="],
    // A session cookie outside a Cookie header: `document.cookie`, a cookie jar, a log line.
    pattern: `(?:session|sess|sid)=([A-Za-z0-9%._~+/-]{16,512}=*)`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    id: "azure_storage_key",
    keywords: ['"value"'],
    // `az storage account keys list`: the key (64 bytes, base64) in a `"value"` field.
    pattern: String.raw`"value"\s*:\s*"([A-Za-z0-9+/]{86}==)"`,
    group: 1,
  },
];
