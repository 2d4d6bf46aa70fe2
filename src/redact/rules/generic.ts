import { COLON, E, type SecretRule, VALUE_START } from "./format.js";

/** Formats that are not one vendor's: credential files, tokens and headers, key=value assignments. */
export const GENERIC_RULES: readonly SecretRule[] = [
  // Files that hold credentials
  {
    // Values under a Secret's `data:` (base64) whose key names a key, pass, pwd or auth, or the
    // docker config keys: a whole indented line, with a value in both cases and with a digit.
    // Password, token and secret keys are left to secret_assignment.
    id: "kubernetes_secret_data",
    // The key word right before its colon (quoted or not): "auth" alone would hit every
    // `auth-service` in a log.
    keywords: [
      ...[
        "key",
        "Key",
        "KEY",
        "pass",
        "Pass",
        "PASS",
        "pwd",
        "PWD",
        "auth",
        "Auth",
        "AUTH",
      ].flatMap((word) => [`${word}:`, `${word}":`, `${word}':`]),
      "dockercfg",
      "dockerconfigjson",
    ],
    pattern: String.raw`^\s{2,16}["']?[A-Za-z0-9_.-]{0,60}(?:[Kk]ey|KEY|[Pp]ass|PASS|[Pp]wd|PWD|[Aa]uth|AUTH|dockercfg|dockerconfigjson)["']?:[ \t]{1,8}["']?(?=[A-Za-z+/]{0,16384}[0-9])(?=[A-Z0-9+/]{0,16384}[a-z])(?=[a-z0-9+/]{0,16384}[A-Z])([A-Za-z0-9+/]{16,16384}={0,2})["']?,?\s*$`,
    group: 1,
    minEntropy: 3,
    generality: 2,
  },
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
    pattern: String.raw`(?:(?<![A-Za-z0-9_-])(?:machine[ \t]{1,8}\S{1,253}|default)[ \t]{1,8}login[ \t]{1,8}\S{1,256}[ \t]{1,8}|^\s{0,16}machine[ \t]{1,8}\S{1,253}[ \t]{1,8}|^\s{0,16}(?=password[ \t]{1,8}\S{6,256}\s*$))password[ \t]{1,8}(\S{1,256})`,
    group: 1,
    generality: 1,
  },
  {
    // Maven settings.xml, NuGet.config and other XML: <password>…</password>.
    id: "xml_password",
    keywords: ["<password>", "<passwd>", "<secret>", "<token>", "<apikey>", "<api_key>"],
    pattern: String.raw`<(?:password|passwd|secret|token|apikey|api_key)>([^<\s]{6,256})</`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  // Tokens and headers
  {
    // The start may not follow "-" either: "-" is in the token alphabet, so a run from one start
    // would cross every later "eyJ" and each would scan to the end of the line (quadratic).
    id: "jwt",
    keywords: ["eyJ"],
    pattern: String.raw`(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{8,8192}${E}`,
  },
  {
    id: "authorization_header",
    keywords: ["authorization"],
    pattern: String.raw`authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|digest)\s+([A-Za-z0-9._~+/=-]{8,})`,
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
    pattern: String.raw`(?<![A-Za-z0-9_-])(?:x-api-?key|api-key)${COLON}${VALUE_START}([^\s"',;<>(){}\[\]]{8,1024})`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    id: "auth_token_header",
    keywords: ["x-auth-token", "x-access-token", "x-api-token", "x-session-token"],
    pattern: String.raw`(?<![A-Za-z0-9_-])x-(?:auth|access|api|session)-token${COLON}${VALUE_START}([^\s"',;<>]{8,2048})`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    // Secrets passed as command-line flags (`--password hunter2…`, `--token=…`).
    id: "cli_secret_flag",
    keywords: [
      "--password",
      "--passwd",
      "--token",
      "--api-key",
      "--apikey",
      "--secret",
      "--client-secret",
      "--access-token",
      "--auth-token",
    ],
    pattern: String.raw`(?<![A-Za-z0-9_-])--(?:password|passwd|token|api-key|apikey|secret|client-secret|access-token|auth-token)(?:=|[ \t]{1,5})["']?(?!id=)${VALUE_START}([^\s"']{8,512})`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  {
    // `curl -u user:password`.
    id: "curl_user_password",
    keywords: ["-u ", "--user ", "--user="],
    pattern: String.raw`(?<![A-Za-z0-9_-])(?:-u|--user)(?:=|[ \t]{1,5})["']?[^\s:"']{1,128}:${VALUE_START}([^\s"']{6,256})`,
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
    id: "url_query_secret",
    keywords: ["key=", "token=", "secret=", "password=", "signature=", "sig=", "credential="],
    pattern: String.raw`[?&](?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|client[_-]secret|password|sig|signature|x-amz-signature|x-amz-credential|x-goog-signature)=([^&\s#"'<>]{6,})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  // KEY=value where the key names a secret (env, .env, YAML, JSON). The match starts at the
  // secret word, so the pattern never scans back over a long identifier. The words are exactly
  // the keywords: a broader word would match only when another keyword (or a rule id in an
  // earlier replacement) happens to be on the line, and redaction would not be idempotent.
  {
    id: "secret_assignment",
    keywords: [
      "password",
      "passwd",
      "secret",
      "token",
      "api_key",
      "apikey",
      "api-key",
      "private_key",
      "access_key",
      "credential",
    ],
    // A quoted value runs to its closing quote (passwords hold commas, semicolons, spaces); an
    // unquoted one stops at a space or a delimiter.
    pattern: String.raw`(?:password|passwd|secret|token|api[_-]?key|private_key|access_key|credentials?)[A-Za-z0-9_.-]{0,40}["']?\s*[:=]\s*(?:"((?:[^"\\\r\n]|\\.){6,1024})"|'([^'\r\n]{6,1024})'|["']?([^\s"',;{}\[\]]{6,256}))`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 2,
    // Code and references name a secret without holding it: a call, a lookup (an environment read,
    // `var.token`, `std::env`), another assignment (`prompt=12`), an ARN, a token type.
    reject: String.raw`[()]|^(?:process|os|sys|System|std|env|ENV|var|local|data|module|self|this|args|params|config|settings|secrets|vars|inputs|ctx|context|Deno)(?:\.|::|\[)|^[A-Za-z_][\w.-]*=[^=]|^(?:arn:|[a-z]{2}(?:-gov)?-[a-z]+-\d:\d{12}:)|^(?:bearer|basic|mac|jwt)(?:&|$)`,
  },
  {
    id: "cli_password_flag",
    keywords: ["mysql", "mariadb", "sshpass"],
    // `mysql -pSECRET` (no space: a space makes -p prompt) and `sshpass -p SECRET`.
    pattern: String.raw`(?:\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\r\n]{0,200}?\s-p([^\s'"]{4,128})|\bsshpass\s+-p\s*["']?([^\s'"]{4,128}))`,
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
