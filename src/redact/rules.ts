/**
 * Secret rules, written from the formats' public descriptions. Each rule names the literal
 * fragments every match contains (`keywords`, matched case-insensitively by one prefilter scan);
 * the pattern runs only on the line around a keyword hit. Patterns are alternations and bounded
 * character-class runs, with no nested quantifiers, so each runs in linear time.
 */
export interface SecretRule {
  /** Stable id, shown in the replacement: `[REDACTED:<id>]`. */
  readonly id: string;
  /** Literal fragments, at least one of which occurs in every match (case-insensitive). */
  readonly keywords: readonly string[];
  /** The pattern; compiled with the `g` flag (and `i` when `ignoreCase`). */
  readonly pattern: string;
  readonly ignoreCase?: boolean;
  /** Capture group that holds the secret; the whole match when absent. */
  readonly group?: number;
  /** Minimum Shannon entropy (bits a character) of the secret, for generic rules. */
  readonly minEntropy?: number;
  /**
   * How generic the rule is: 0 (default) for a token format, 1 for a carrier (URL, header,
   * query string), 2 for a key name. When rules find the same secret, the most specific names it.
   */
  readonly generality?: 0 | 1 | 2;
}

const B = `(?<![A-Za-z0-9_])`; // start boundary that also treats "_" as a word character
const E = `(?![A-Za-z0-9_])`;

export const SECRET_RULES: readonly SecretRule[] = [
  // Cloud
  {
    id: "aws_access_key_id",
    keywords: ["AKIA", "ASIA", "ABIA", "ACCA"],
    pattern: `${B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}${E}`,
  },
  {
    id: "aws_secret_access_key",
    keywords: ["aws_secret", "secretaccesskey", "aws_session_token"],
    pattern: String.raw`(?:aws_secret_access_key|secretaccesskey|aws_session_token)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40,})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  { id: "gcp_api_key", keywords: ["AIza"], pattern: `${B}AIza[0-9A-Za-z_-]{35}${E}` },
  {
    id: "gcp_service_account_key",
    keywords: ["private_key_id"],
    pattern: String.raw`"private_key_id"\s*:\s*"([0-9a-f]{40})"`,
    group: 1,
  },
  {
    id: "azure_storage_key",
    keywords: ["AccountKey="],
    pattern: `AccountKey=([A-Za-z0-9+/]{86}==)`,
    group: 1,
  },
  {
    id: "connection_string_password",
    keywords: ["password=", "pwd="],
    pattern: String.raw`(?:^|[;\s"'])(?:password|pwd)=([^;"'\s]{3,})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "digitalocean_token",
    keywords: ["dop_v1_", "doo_v1_", "dor_v1_"],
    pattern: `${B}do[opr]_v1_[a-f0-9]{64}${E}`,
  },
  {
    id: "alibaba_access_key_id",
    keywords: ["LTAI"],
    pattern: `${B}LTAI[A-Za-z0-9]{12,20}${E}`,
  },
  // Source hosting
  {
    id: "github_token",
    keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    pattern: `${B}gh[pousr]_[A-Za-z0-9]{36,255}${E}`,
  },
  {
    id: "github_fine_grained_token",
    keywords: ["github_pat_"],
    pattern: `${B}github_pat_[A-Za-z0-9_]{82}${E}`,
  },
  {
    id: "gitlab_token",
    keywords: ["glpat-", "gldt-", "glrt-"],
    pattern: `${B}gl(?:pat|dt|rt)-[A-Za-z0-9_-]{20,}${E}`,
  },
  {
    id: "bitbucket_app_password",
    keywords: ["ATBB"],
    pattern: `${B}ATBB[A-Za-z0-9_=.-]{28,}${E}`,
  },
  // Chat and payment
  {
    id: "slack_token",
    keywords: ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-", "xapp-"],
    pattern: `${B}(?:xox[abprs]|xapp)-[A-Za-z0-9-]{10,}${E}`,
  },
  {
    id: "slack_webhook",
    keywords: ["hooks.slack.com"],
    pattern: String.raw`https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}`,
  },
  {
    id: "discord_webhook",
    keywords: ["discord.com/api/webhooks", "discordapp.com/api/webhooks"],
    pattern: String.raw`https://(?:discord|discordapp)\.com/api/webhooks/\d+/[A-Za-z0-9_-]{30,}`,
  },
  {
    id: "telegram_bot_token",
    keywords: [":AA"],
    pattern: String.raw`${B}\d{8,10}:AA[A-Za-z0-9_-]{33}${E}`,
  },
  { id: "twilio_api_key", keywords: ["SK"], pattern: `${B}SK[0-9a-f]{32}${E}` },
  {
    id: "stripe_key",
    keywords: ["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
    pattern: `${B}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,}|whsec_[A-Za-z0-9]{32,})${E}`,
  },
  {
    id: "sendgrid_api_key",
    keywords: ["SG."],
    pattern: String.raw`${B}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}${E}`,
  },
  { id: "mailgun_api_key", keywords: ["key-"], pattern: `${B}key-[0-9a-f]{32}${E}` },
  {
    id: "shopify_token",
    keywords: ["shpat_", "shpca_", "shppa_", "shpss_"],
    pattern: `${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`,
  },
  // AI providers
  {
    id: "anthropic_api_key",
    keywords: ["sk-ant-"],
    pattern: String.raw`${B}sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}${E}`,
  },
  {
    id: "openai_api_key",
    keywords: ["sk-"],
    pattern: `${B}sk-(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}(?:T3BlbkFJ[A-Za-z0-9_-]{20,})?${E}`,
  },
  { id: "huggingface_token", keywords: ["hf_"], pattern: `${B}hf_[A-Za-z0-9]{34,}${E}` },
  // Package registries
  { id: "npm_token", keywords: ["npm_"], pattern: `${B}npm_[A-Za-z0-9]{36}${E}` },
  {
    id: "pypi_token",
    keywords: ["pypi-AgEIcHlwaS5vcmc"],
    pattern: `${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}${E}`,
  },
  {
    id: "dockerhub_token",
    keywords: ["dckr_pat_"],
    pattern: `${B}dckr_pat_[A-Za-z0-9_-]{27,}${E}`,
  },
  // Tokens and headers
  {
    id: "jwt",
    keywords: ["eyJ"],
    pattern: String.raw`${B}eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}${E}`,
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
    id: "cookie",
    keywords: ["cookie:"],
    pattern: String.raw`(?:set-)?cookie:\s*([^\r\n]+)`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "url_password",
    keywords: ["://"],
    pattern: String.raw`\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@"'<>]{0,128}:([^\s@/"'<>]{1,256})@`,
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
  // secret word, so the pattern never scans back over a long identifier.
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
    pattern: String.raw`(?:password|passwd|secret|token|api[_-]?key|private[_-]?key|access[_-]?key|credentials?)[A-Za-z0-9_.-]{0,40}["']?\s*[:=]\s*["']?([^\s"',;{}\[\]]{6,256})`,
    ignoreCase: true,
    group: 1,
    minEntropy: 3,
    generality: 2,
  },
];

/** Values that are placeholders, not secrets: a key named PASSWORD whose value is one of these stays. */
export const PLACEHOLDER_VALUES =
  /^(?:\*+|x+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_]+%|\{\{[^}]*\}\}|null|none|true|false|undefined|changeme|redacted|example|placeholder|your[_-]?\w*|\[REDACTED:[a-z0-9_]+\])$/i;

/** Keys published in vendor documentation as examples. */
export const EXAMPLE_VALUES = new Set([
  "AKIAIOSFODNN7EXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
]);
