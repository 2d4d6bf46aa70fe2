/**
 * Secret rules, written from the formats' public descriptions. Each rule names the literal
 * fragments every match contains (`keywords`, found by one prefilter scan, in exact case unless
 * the rule ignores case); the pattern runs only on the line around a keyword hit. Patterns are
 * alternations and bounded character-class runs, with no nested quantifiers, so each runs in
 * linear time. A keyword is a distinctive prefix wherever the format has one; a run of one
 * character is never a keyword (a zero run in base64 would hit at every offset).
 */
export interface SecretRule {
  /** Stable id, shown in the replacement: `[REDACTED:<id>]`. */
  readonly id: string;
  /**
   * Literal fragments, at least one of which occurs in every match (in any case when
   * `ignoreCase`). A rule may instead name context its matches need on the same line:
   * `jwk_private_key` runs only on lines that hold `"kty"`.
   */
  readonly keywords: readonly string[];
  /** The pattern; compiled with the `g` flag (and `i` when `ignoreCase`). */
  readonly pattern: string;
  readonly ignoreCase?: boolean;
  /**
   * Capture group that holds the secret (the first group from this one on that took part, so
   * alternatives such as quoted and unquoted values can each have their own); the whole match
   * when absent.
   */
  readonly group?: number;
  /** Minimum Shannon entropy (bits a character) of the secret, for generic rules. */
  readonly minEntropy?: number;
  /**
   * Values that are not secrets though the pattern takes them (code, references): a pattern
   * tested against the value (with the rule's `ignoreCase`). Keep it linear like `pattern`.
   */
  readonly reject?: string;
  /**
   * How generic the rule is: 0 (default) for a token format, 1 for a carrier (URL, header,
   * query string), 2 for a key name. When rules find the same secret, the most specific names it.
   */
  readonly generality?: 0 | 1 | 2;
}

const B = `(?<![A-Za-z0-9_])`; // start boundary that also treats "_" as a word character
const E = `(?![A-Za-z0-9_])`;
/** Between a key name and its value: a quote, then `:`, `=`, `:=` or `=>`, then a quote. */
const ASSIGN = String.raw`["']?\s{0,5}(?::=|=>|[:=])\s{0,5}["']?`;
/** Between a header name and its value (curl -v, HTTP logs, JSON and YAML maps of headers). */
const COLON = String.raw`["']?\s{0,5}:\s{0,5}["']?`;
/** A value is not an expression, a reference or a redaction: `${VAR}`, `$(cmd)`, `<id>`, `[…]`. */
const VALUE_START = "(?![\\[({$<%`])";
const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * A vendor's key name (`HEROKU_API_KEY=`, `heroku.apiKey:`, `"heroku_token":`): the vendor word at
 * the start of a name, up to 30 name characters, what the value is, the rest of the name, then the
 * assignment. Every run is bounded, so a keyword hit costs a constant however long the line.
 */
function named(vendor: string, what: string): string {
  return `(?<![A-Za-z0-9])(?:${vendor})[A-Za-z0-9_.-]{0,30}?(?:${what})[A-Za-z0-9_.-]{0,20}${ASSIGN}`;
}

/**
 * A rule for a value whose format alone is not distinctive (a UUID, 32 hex digits), found only
 * after a key name that names the vendor. More specific than a bare key name (`secret_assignment`),
 * less than a token format.
 */
function vendorKey(
  id: string,
  keywords: readonly string[],
  vendor: string,
  what: string,
  value: string,
  minEntropy?: number,
): SecretRule {
  return {
    id,
    keywords,
    pattern: `${named(vendor, what)}${VALUE_START}(${value})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
    ...(minEntropy !== undefined ? { minEntropy } : {}),
  };
}

/** GitLab's prefixed tokens; newer ones may end in a routing suffix (`.01.abcdefghi`). */
function gitlab(id: string, prefix: string, body: string): SecretRule {
  return {
    id,
    keywords: [prefix],
    pattern: String.raw`${B}${prefix}${body}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?${E}`,
  };
}

export const SECRET_RULES: readonly SecretRule[] = [
  // Cloud: AWS
  {
    id: "aws_access_key_id",
    keywords: ["AKIA", "ASIA", "ABIA", "ACCA"],
    pattern: `${B}(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}${E}`,
  },
  {
    id: "aws_secret_access_key",
    keywords: ["aws_secret", "secretaccesskey"],
    pattern: String.raw`(?:aws_secret_access_key|secretaccesskey)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40,})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    // STS session tokens: after their key name (env, credentials file, STS JSON, the
    // X-Amz-Security-Token header), or by the fixed start of their base64.
    id: "aws_session_token",
    keywords: [
      "aws_session_token",
      "aws_security_token",
      "sessiontoken",
      "x-amz-security-token",
      "IQoJb3JpZ2luX2Vj",
      "FwoGZXIvYXdz",
    ],
    pattern: String.raw`(?:(?:aws_session_token|aws_security_token|sessiontoken|x-amz-security-token)["']?\s{0,5}[:=]\s{0,5}["']?|(?<![A-Za-z0-9/+=])(?=IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz))([A-Za-z0-9/+=%]{100,8192})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "amazon_mws_auth_token",
    keywords: ["amzn.mws."],
    pattern: String.raw`${B}amzn\.mws\.${UUID}${E}`,
  },
  // Cloud: Google
  { id: "gcp_api_key", keywords: ["AIza"], pattern: `${B}AIza[0-9A-Za-z_-]{35}${E}` },
  {
    id: "gcp_service_account_key",
    keywords: ["private_key_id"],
    pattern: String.raw`"private_key_id"\s*:\s*"([0-9a-f]{40})"`,
    group: 1,
  },
  {
    id: "gcp_oauth_client_secret",
    keywords: ["GOCSPX-"],
    pattern: `${B}GOCSPX-[A-Za-z0-9_-]{28}${E}`,
  },
  {
    id: "gcp_oauth_access_token",
    keywords: ["ya29."],
    pattern: String.raw`${B}ya29\.[A-Za-z0-9_-]{30,2048}${E}`,
  },
  {
    id: "gcp_oauth_refresh_token",
    keywords: ["1//0"],
    pattern: `(?<![A-Za-z0-9_/])1//0[A-Za-z0-9_-]{40,512}${E}`,
  },
  {
    // Legacy Firebase Cloud Messaging server keys.
    id: "fcm_server_key",
    keywords: [":APA91b"],
    pattern: `${B}AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{120,160}${E}`,
  },
  // Cloud: Azure
  {
    // In a connection string, or after its key name (env, .env, az CLI settings).
    id: "azure_storage_key",
    keywords: ["accountkey=", "azure_storage", "azure-storage", "azurestorage"],
    pattern: `(?:accountkey=|${named("azure[_-]?storage", "key")})([A-Za-z0-9+/]{86}==)`,
    ignoreCase: true,
    group: 1,
  },
  {
    id: "azure_shared_access_key",
    keywords: ["SharedAccessKey="],
    pattern: `SharedAccessKey=([A-Za-z0-9+/]{43}=)`,
    group: 1,
  },
  {
    // Entra ID (Azure AD) client secrets: three characters, a digit, "Q~", then 31 to 34.
    id: "azure_ad_client_secret",
    keywords: ["Q~"],
    pattern: String.raw`(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
  },
  {
    // A SAS token: its signature, in a query string that starts with the service version.
    id: "azure_sas_token",
    keywords: ["sv=20"],
    pattern: String.raw`${B}sv=20\d{2}-\d{2}-\d{2}&(?:[^\s"'<>]{0,512}?&)?sig=([A-Za-z0-9%+/=]{30,128})`,
    group: 1,
  },
  vendorKey(
    "azure_devops_pat",
    ["azure_devops", "azure-devops", "azuredevops", "azdo", "ado_pat", "ado_token", "ado-pat"],
    "azure[_-]?devops|azdo|ado",
    "pat|token",
    "[a-z2-7]{52}|[A-Za-z0-9]{84}",
  ),
  vendorKey(
    "azure_cognitive_key",
    ["ocp-apim-subscription-key", "azure_openai", "azure-openai", "azure_cognitive", "azure_ai_"],
    "ocp-apim-subscription|azure[_-]?(?:openai|cognitive|ai)",
    "key",
    "[a-f0-9]{32}|[A-Za-z0-9]{84}",
  ),
  // Cloud: others
  {
    id: "connection_string_password",
    keywords: ["password=", "pwd="],
    // `Pwd=` only inside a connection string (after `;`): `PWD=/app` is every shell's directory.
    pattern: String.raw`(?:(?:^|[;\s"'])password|;\s*pwd)=([^;"'\s]{3,})`,
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
  {
    id: "alibaba_secret_key",
    keywords: ["alibaba", "aliyun", "alicloud", "accesskeysecret", "access_key_secret"],
    pattern: `(?:${named("alibaba|aliyun|alicloud", "secret")}|(?<![A-Za-z0-9])access_?key_?secret${ASSIGN})([A-Za-z0-9]{30})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "tencentcloud_secret_id",
    keywords: ["AKID"],
    pattern: `${B}AKID[A-Za-z0-9]{32}${E}`,
  },
  vendorKey(
    "tencentcloud_secret_key",
    ["tencent"],
    "tencent(?:cloud)?",
    "secret[_-]?key",
    "[A-Za-z0-9]{32}",
  ),
  vendorKey(
    "ibm_cloud_api_key",
    ["ibm_cloud", "ibmcloud", "ibm-cloud", "ibm_api", "ibm-api"],
    "ibm[_-]?(?:cloud)?",
    "api[_-]?key|apikey",
    "[A-Za-z0-9_-]{44}",
  ),
  vendorKey(
    "oracle_cloud_secret",
    ["oracle", "oci_", "oci-"],
    "oracle|oci",
    "auth[_-]?token|secret[_-]?key|password|pass[_-]?phrase",
    String.raw`[^\s"',;{}\[\]]{8,256}`,
    3,
  ),
  {
    id: "heroku_api_token",
    keywords: ["HRKU-"],
    pattern: `${B}HRKU-(?:AA[A-Za-z0-9_-]{58}|${UUID})${E}`,
  },
  vendorKey("heroku_api_key", ["heroku"], "heroku", "api[_-]?key|api[_-]?token|token|key", UUID),
  vendorKey(
    "netlify_token",
    ["netlify"],
    "netlify",
    "auth[_-]?token|access[_-]?token|token|api[_-]?key",
    "[A-Za-z0-9_-]{36,128}",
    3,
  ),
  vendorKey("vercel_token", ["vercel"], "vercel", "token|api[_-]?key", "[A-Za-z0-9_]{24,80}", 3),
  {
    // Fly.io OAuth tokens, and macaroons (`FlyV1 fm2_…,fm2_…`).
    id: "flyio_token",
    keywords: ["fo1_", "fm1a_", "fm1r_", "fm2_"],
    pattern: `${B}(?:fo1_[A-Za-z0-9_-]{40,64}${E}|fm(?:1[ar]|2)_[A-Za-z0-9+/=_-]{40,4096})`,
  },
  { id: "render_api_key", keywords: ["rnd_"], pattern: `${B}rnd_[A-Za-z0-9]{32,64}${E}` },
  vendorKey("railway_token", ["railway"], "railway", "token|api[_-]?key", UUID),
  { id: "supabase_token", keywords: ["sbp_"], pattern: `${B}sbp_[a-f0-9]{40}${E}` },
  {
    id: "supabase_secret_key",
    keywords: ["sb_secret_"],
    pattern: `${B}sb_secret_[A-Za-z0-9_-]{24,64}${E}`,
  },
  {
    id: "planetscale_api_token",
    keywords: ["pscale_tkn_"],
    pattern: `${B}pscale_tkn_[A-Za-z0-9_.=-]{32,64}${E}`,
  },
  {
    id: "planetscale_password",
    keywords: ["pscale_pw_"],
    pattern: `${B}pscale_pw_[A-Za-z0-9_.=-]{32,64}${E}`,
  },
  {
    id: "planetscale_oauth_token",
    keywords: ["pscale_oauth_"],
    pattern: `${B}pscale_oauth_[A-Za-z0-9_.=-]{32,64}${E}`,
  },
  {
    id: "databricks_token",
    keywords: ["dapi"],
    pattern: String.raw`${B}dapi[a-f0-9]{32}(?:-\d)?${E}`,
  },
  vendorKey(
    "snowflake_credential",
    ["snowflake"],
    "snowflake",
    "password|pwd|token|pass[_-]?phrase",
    String.raw`[^\s"',;{}\[\]]{8,256}`,
    3,
  ),
  vendorKey(
    "mongodb_atlas_key",
    ["atlas_private", "atlas-private", "atlasprivate", "mongodb_atlas", "mongodb-atlas"],
    "mongodb[_-]?atlas|atlas",
    "private[_-]?(?:api[_-]?)?key",
    UUID,
  ),
  {
    id: "mongodb_atlas_service_account_secret",
    keywords: ["mdb_sa_sk_"],
    pattern: `${B}mdb_sa_sk_[A-Za-z0-9_-]{32,128}${E}`,
  },
  {
    id: "doppler_token",
    keywords: ["dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
    pattern: String.raw`${B}dp\.(?:pt|st|ct|sa|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}${E}`,
  },
  {
    id: "vault_service_token",
    keywords: ["hvs.", "hvr."],
    pattern: String.raw`${B}hv[sr]\.[A-Za-z0-9_-]{24,512}${E}`,
  },
  {
    id: "vault_batch_token",
    keywords: ["hvb."],
    pattern: String.raw`${B}hvb\.[A-Za-z0-9_-]{60,1024}${E}`,
  },
  {
    id: "terraform_cloud_token",
    keywords: [".atlasv1."],
    pattern: String.raw`${B}[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}${E}`,
  },
  { id: "pulumi_token", keywords: ["pul-"], pattern: `${B}pul-[a-f0-9]{40}${E}` },
  vendorKey(
    "cloudflare_api_token",
    ["cloudflare", "cf_", "cf-"],
    "cloudflare|cf",
    "(?:api[_-]?)?token",
    "[A-Za-z0-9_-]{40}",
  ),
  {
    id: "cloudflare_global_api_key",
    keywords: ["cloudflare", "cf_", "cf-", "x-auth-key"],
    pattern: `(?:${named("cloudflare|cf", "(?:global[_-]?)?(?:api[_-]?)?key")}|(?<![A-Za-z0-9-])x-auth-key${COLON})([a-f0-9]{37})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "cloudflare_origin_ca_key",
    keywords: ["v1.0-"],
    pattern: String.raw`${B}v1\.0-[a-f0-9]{24}-[a-f0-9]{146}${E}`,
  },
  vendorKey(
    "fastly_api_token",
    ["fastly"],
    "fastly",
    "(?:api[_-]?)?(?:token|key)",
    "[A-Za-z0-9_-]{32}",
  ),
  vendorKey("linode_token", ["linode"], "linode", "(?:api[_-]?)?(?:token|key)", "[a-f0-9]{64}"),
  vendorKey(
    "hetzner_api_token",
    ["hetzner", "hcloud"],
    "hetzner|hcloud",
    "token|api[_-]?key",
    "[A-Za-z0-9]{64}",
  ),
  { id: "neon_api_key", keywords: ["napi_"], pattern: `${B}napi_[a-z0-9]{64}${E}` },
  // Source hosting and CI
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
    pattern: String.raw`${B}gl(?:pat|dt|rt)-[A-Za-z0-9_-]{20,300}(?:\.[0-9a-z]{2}\.[0-9a-z]{7,9})?${E}`,
  },
  gitlab("gitlab_pipeline_trigger_token", "glptt-", "[A-Za-z0-9_-]{20,64}"),
  gitlab("gitlab_runner_registration_token", "GR1348941", "[A-Za-z0-9_-]{20,64}"),
  gitlab("gitlab_scim_token", "glsoat-", "[A-Za-z0-9_-]{20,64}"),
  gitlab("gitlab_ci_job_token", "glcbt-", "(?:[0-9a-fA-F]{1,5}_)?[A-Za-z0-9_-]{20,64}"),
  gitlab("gitlab_feed_token", "glft-", "[A-Za-z0-9_-]{20,64}"),
  gitlab("gitlab_incoming_mail_token", "glimt-", "[A-Za-z0-9_-]{25,64}"),
  gitlab("gitlab_agent_token", "glagent-", "[A-Za-z0-9_-]{50,128}"),
  gitlab("gitlab_oauth_app_secret", "gloas-", "[A-Za-z0-9_-]{64}"),
  gitlab("gitlab_feature_flag_token", "glffct-", "[A-Za-z0-9_-]{20,64}"),
  {
    id: "gitlab_session_cookie",
    keywords: ["_gitlab_session="],
    pattern: `_gitlab_session=([0-9a-z]{32})${E}`,
    group: 1,
  },
  {
    // GitLab's API header; prefixed tokens in it are named by their own rule.
    id: "gitlab_private_token_header",
    keywords: ["private-token"],
    pattern: `(?<![A-Za-z0-9-])private-token${COLON}([A-Za-z0-9_.-]{20,300})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "bitbucket_app_password",
    keywords: ["ATBB"],
    pattern: `${B}ATBB[A-Za-z0-9_=.-]{28,}${E}`,
  },
  {
    id: "bitbucket_access_token",
    keywords: ["ATCTT3"],
    pattern: `${B}ATCTT3[A-Za-z0-9_=-]{100,400}${E}`,
  },
  vendorKey(
    "bitbucket_client_secret",
    ["bitbucket"],
    "bitbucket",
    "(?:client[_-]?|oauth[_-]?)?secret",
    "[A-Za-z0-9_=-]{32,64}",
  ),
  {
    id: "atlassian_api_token",
    keywords: ["ATATT3"],
    pattern: `${B}ATATT3[A-Za-z0-9_=-]{100,400}${E}`,
  },
  vendorKey(
    "jira_api_token",
    ["jira", "confluence", "atlassian"],
    "jira|confluence|atlassian",
    "(?:api[_-]?)?token|pat",
    "[A-Za-z0-9+/=_-]{24,256}",
    3,
  ),
  {
    id: "sourcegraph_token",
    keywords: ["sgp_"],
    pattern: `${B}sgp_(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}${E}`,
  },
  {
    id: "circleci_token",
    keywords: ["CCIPAT_", "CCIPRJ_"],
    pattern: `${B}CCI(?:PAT|PRJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}${E}`,
  },
  { id: "buildkite_token", keywords: ["bkua_"], pattern: `${B}bkua_[a-f0-9]{40}${E}` },
  {
    id: "sonarqube_token",
    keywords: ["sqp_", "squ_", "sqa_"],
    pattern: `${B}sq[pua]_[a-f0-9]{40}${E}`,
  },
  {
    id: "octopus_deploy_api_key",
    keywords: ["API-"],
    pattern: `${B}API-[A-Z0-9]{26,27}${E}`,
  },
  {
    // Harness personal and service account tokens: pat.<account>.<token id>.<secret>.
    id: "harness_api_key",
    keywords: ["pat.", "sat."],
    pattern: String.raw`${B}[ps]at\.[A-Za-z0-9_-]{22}\.[a-f0-9]{24}\.[A-Za-z0-9]{20}${E}`,
  },
  vendorKey("snyk_token", ["snyk"], "snyk", "(?:api[_-]?)?(?:token|key)", UUID),
  {
    id: "jfrog_api_key",
    keywords: ["AKCp"],
    pattern: `${B}AKCp[A-Za-z0-9]{69}${E}`,
  },
  {
    id: "jfrog_reference_token",
    keywords: ["cmVmdGtuOjAxOj"],
    pattern: `${B}cmVmdGtuOjAxOj[A-Za-z0-9]{40,80}${E}`,
  },
  {
    id: "tailscale_key",
    keywords: ["tskey-"],
    pattern: `${B}tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,64}${E}`,
  },
  {
    id: "ngrok_authtoken",
    keywords: ["ngrok", "authtoken"],
    pattern: String.raw`(?:${named("ngrok", "(?:auth[_-]?)?token|api[_-]?key")}|(?<![A-Za-z0-9-])(?:add-authtoken|--authtoken)(?:=|[ \t]{1,5}))([0-9][A-Za-z0-9]{20,40}_[A-Za-z0-9]{15,30})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  // Productivity and developer tools
  {
    id: "linear_api_key",
    keywords: ["lin_api_"],
    pattern: `${B}lin_api_[A-Za-z0-9]{40}${E}`,
  },
  {
    id: "linear_oauth_token",
    keywords: ["lin_oauth_"],
    pattern: `${B}lin_oauth_[a-f0-9]{64}${E}`,
  },
  vendorKey(
    "asana_token",
    ["asana"],
    "asana",
    "pat|token|api[_-]?key|secret",
    "[0-9]/[0-9]{10,20}(?:/[0-9]{10,20})?:[A-Za-z0-9]{32}",
  ),
  {
    id: "notion_token",
    keywords: ["secret_", "ntn_"],
    pattern: `${B}(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{46})${E}`,
  },
  {
    // Airtable personal access tokens: "pat", 14 characters, a dot, 64 hex digits.
    id: "airtable_pat",
    keywords: ["pat"],
    pattern: String.raw`${B}pat[A-Za-z0-9]{14}\.[a-f0-9]{64}${E}`,
  },
  vendorKey(
    "airtable_api_key",
    ["airtable"],
    "airtable",
    "(?:api[_-]?)?key|token",
    "key[A-Za-z0-9]{14}",
  ),
  { id: "figma_token", keywords: ["figd_"], pattern: `${B}figd_[A-Za-z0-9_-]{40,64}${E}` },
  {
    id: "postman_api_key",
    keywords: ["PMAK-"],
    pattern: `${B}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${E}`,
  },
  { id: "typeform_token", keywords: ["tfp_"], pattern: `${B}tfp_[A-Za-z0-9_.=-]{40,80}${E}` },
  { id: "readme_api_key", keywords: ["rdme_"], pattern: `${B}rdme_[a-z0-9]{70}${E}` },
  vendorKey(
    "zendesk_api_token",
    ["zendesk"],
    "zendesk",
    "(?:api[_-]?)?(?:token|key)",
    "[A-Za-z0-9]{40}",
  ),
  {
    id: "contentful_token",
    keywords: ["CFPAT-"],
    pattern: `${B}CFPAT-[A-Za-z0-9_-]{43}${E}`,
  },
  { id: "frameio_token", keywords: ["fio-u-"], pattern: `${B}fio-u-[A-Za-z0-9_=-]{64}${E}` },
  {
    id: "hubspot_private_app_token",
    keywords: ["pat-na", "pat-eu", "pat-ap"],
    pattern: String.raw`${B}pat-(?:na|eu|ap)\d-${UUID}${E}`,
  },
  {
    id: "clickup_api_token",
    keywords: ["pk_"],
    pattern: String.raw`${B}pk_\d{6,10}_[A-Z0-9]{32}${E}`,
  },
  {
    // Salesforce session ids: the org id (00D…), "!", then the session.
    id: "salesforce_access_token",
    keywords: ["00D"],
    pattern: `${B}00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,300}`,
  },
  {
    id: "prefect_api_key",
    keywords: ["pnu_"],
    pattern: `${B}pnu_[A-Za-z0-9]{36}${E}`,
  },
  {
    id: "scalingo_api_token",
    keywords: ["tk-us-"],
    pattern: `${B}tk-us-[A-Za-z0-9_-]{48}${E}`,
  },
  vendorKey(
    "algolia_api_key",
    ["algolia"],
    "algolia",
    "(?:admin[_-]?|write[_-]?|search[_-]?)?(?:api[_-]?)?key",
    "[a-f0-9]{32}",
  ),
  {
    id: "mapbox_secret_token",
    keywords: ["sk.eyJ"],
    pattern: String.raw`${B}sk\.eyJ[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{20,100}${E}`,
  },
  // Chat and messaging
  {
    id: "slack_token",
    keywords: ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-", "xapp-"],
    pattern: `${B}(?:xox[abprs]|xapp)-[A-Za-z0-9-]{10,}${E}`,
  },
  {
    id: "slack_config_access_token",
    keywords: ["xoxe.xox"],
    pattern: String.raw`${B}xoxe\.xox[bp]-\d-[A-Za-z0-9]{160,170}${E}`,
  },
  {
    id: "slack_config_refresh_token",
    keywords: ["xoxe-"],
    pattern: String.raw`${B}xoxe-\d-[A-Za-z0-9]{140,150}${E}`,
  },
  {
    // The URL, or its path alone (the request line of curl -v: `> POST /services/T…/B…/…`).
    id: "slack_webhook",
    keywords: ["hooks.slack.com", "/services/T"],
    pattern: String.raw`https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}|/services/T[A-Z0-9]{8,12}/B[A-Z0-9]{8,12}/[A-Za-z0-9]{24}${E}`,
  },
  {
    id: "discord_webhook",
    keywords: ["discord.com/api/webhooks", "discordapp.com/api/webhooks", "/api/webhooks/"],
    pattern: String.raw`https://(?:discord|discordapp)\.com/api/webhooks/\d+/[A-Za-z0-9_-]{30,}|/api/webhooks/\d{17,20}/[A-Za-z0-9_-]{60,80}${E}`,
  },
  vendorKey(
    "discord_bot_token",
    ["discord"],
    "discord",
    "(?:bot[_-]?)?token",
    String.raw`[A-Za-z0-9_-]{24,28}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}`,
  ),
  vendorKey(
    "discord_client_secret",
    ["discord"],
    "discord",
    "(?:client[_-]?)?secret",
    "[A-Za-z0-9_-]{32}",
  ),
  {
    id: "teams_webhook",
    keywords: ["webhook.office.com"],
    pattern: String.raw`https://[A-Za-z0-9-]{1,63}\.webhook\.office\.com/webhookb2/[0-9a-f-]{36}@[0-9a-f-]{36}/IncomingWebhook/[0-9a-f]{32}/[0-9a-f-]{36}(?:/[A-Za-z0-9_-]{1,100})?`,
    ignoreCase: true,
  },
  {
    id: "telegram_bot_token",
    keywords: [":AA"],
    // Also in a Bot API URL: `/bot<token>/sendMessage`.
    pattern: String.raw`(?:${B}|(?<=/bot))\d{8,10}:AA[A-Za-z0-9_-]{33}${E}`,
  },
  { id: "twilio_api_key", keywords: ["SK"], pattern: `${B}SK[0-9a-f]{32}${E}` },
  {
    // The auth token after its key name, or after the account SID in `-u AC…:token` (basic
    // auth to api.twilio.com). The SID alone is an identifier, not a secret.
    id: "twilio_auth_token",
    keywords: ["twilio"],
    pattern: `(?:${named("twilio", "auth[_-]?token")}|${B}AC[a-f0-9]{32}:)([a-f0-9]{32})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  // Payments and commerce
  {
    id: "stripe_key",
    keywords: ["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
    pattern: `${B}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,}|whsec_[A-Za-z0-9]{32,})${E}`,
  },
  {
    id: "square_access_token",
    keywords: ["sq0atp-", "EAAA"],
    pattern: `${B}(?:sq0atp-[A-Za-z0-9_-]{22}|EAAA[A-Za-z0-9_-]{60})${E}`,
  },
  {
    id: "square_oauth_secret",
    keywords: ["sq0csp-"],
    pattern: `${B}sq0csp-[A-Za-z0-9_-]{43}${E}`,
  },
  {
    id: "braintree_token",
    keywords: ["access_token$production$", "access_token$sandbox$"],
    pattern: String.raw`access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}${E}`,
  },
  vendorKey(
    "adyen_api_key",
    ["adyen"],
    "adyen",
    "(?:api[_-]?)?key",
    "AQE[A-Za-z0-9+/=._~-]{40,400}",
  ),
  {
    id: "plaid_access_token",
    keywords: ["access-sandbox-", "access-development-", "access-production-"],
    pattern: `${B}access-(?:sandbox|development|production)-${UUID}${E}`,
  },
  vendorKey("plaid_secret", ["plaid"], "plaid", "secret", "[a-f0-9]{30}"),
  vendorKey(
    "coinbase_api_secret",
    ["coinbase"],
    "coinbase",
    "(?:api[_-]?)?secret",
    "[A-Za-z0-9+/=_-]{32,128}",
    3,
  ),
  {
    id: "shopify_token",
    keywords: ["shpat_", "shpca_", "shppa_", "shpss_"],
    pattern: `${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`,
  },
  {
    id: "shippo_api_token",
    keywords: ["shippo_live_", "shippo_test_"],
    pattern: `${B}shippo_(?:live|test)_[a-f0-9]{40}${E}`,
  },
  {
    // Flutterwave secret keys (…-X) and their encryption keys.
    id: "flutterwave_secret_key",
    keywords: ["FLWSECK"],
    pattern: `${B}FLWSECK(?:_TEST)?(?:-[a-f0-9]{32}-X|[a-f0-9]{12})${E}`,
  },
  {
    id: "duffel_api_token",
    keywords: ["duffel_test_", "duffel_live_"],
    pattern: `${B}duffel_(?:test|live)_[A-Za-z0-9_=-]{43}${E}`,
  },
  {
    id: "easypost_api_key",
    keywords: ["EZAK", "EZTK"],
    pattern: `${B}EZ[AT]K[A-Za-z0-9]{54}${E}`,
  },
  {
    id: "paddle_api_key",
    keywords: ["pdl_live_", "pdl_sdbx_"],
    pattern: `${B}pdl_(?:live|sdbx)_apikey_[a-z0-9]{26}_[A-Za-z0-9]{22}_[A-Za-z0-9]{3}${E}`,
  },
  // Email
  {
    id: "sendgrid_api_key",
    keywords: ["SG."],
    pattern: String.raw`${B}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}${E}`,
  },
  { id: "mailgun_api_key", keywords: ["key-"], pattern: `${B}key-[0-9a-f]{32}${E}` },
  {
    // 32 hex digits and the data centre: `…-us21`.
    id: "mailchimp_api_key",
    keywords: ["-us1", "-us2", "-us3", "-us4", "-us5", "-us6", "-us7", "-us8", "-us9"],
    pattern: String.raw`${B}[0-9a-f]{32}-us\d{1,2}${E}`,
  },
  vendorKey(
    "postmark_server_token",
    ["postmark"],
    "postmark",
    "(?:server[_-]?|account[_-]?|api[_-]?)?token|api[_-]?key",
    UUID,
  ),
  {
    id: "brevo_api_key",
    keywords: ["xkeysib-", "xsmtpsib-"],
    pattern: `${B}x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}${E}`,
  },
  // AI providers. Several vendors use "sk-": the specific formats are their own rules, and
  // openai_api_key (the catch-all for sk- keys) steps aside for them so one name wins.
  {
    id: "anthropic_api_key",
    keywords: ["sk-ant-"],
    pattern: String.raw`${B}sk-ant-[a-z]{2,8}\d{2}-[A-Za-z0-9_-]{20,400}${E}`,
  },
  {
    id: "openrouter_api_key",
    keywords: ["sk-or-v1-"],
    pattern: `${B}sk-or-v1-[a-f0-9]{64}${E}`,
  },
  {
    // DeepSeek keys: "sk-" and 32 lowercase hex digits.
    id: "deepseek_api_key",
    keywords: ["sk-"],
    pattern: `${B}sk-[a-f0-9]{32}${E}`,
  },
  {
    id: "openai_api_key",
    keywords: ["sk-"],
    pattern: `${B}sk-(?!ant-|or-v1-|[a-f0-9]{32}${E})(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}(?:T3BlbkFJ[A-Za-z0-9_-]{20,})?${E}`,
  },
  { id: "huggingface_token", keywords: ["hf_"], pattern: `${B}hf_[A-Za-z0-9]{34,}${E}` },
  {
    id: "huggingface_org_token",
    keywords: ["api_org_"],
    pattern: `${B}api_org_[A-Za-z0-9]{34}${E}`,
  },
  {
    id: "cohere_api_key",
    keywords: ["cohere", "co_api_key"],
    pattern: `(?:${named("cohere", "(?:api[_-]?)?key|token")}|(?<![A-Za-z0-9])co_api_key${ASSIGN})([A-Za-z0-9]{40})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  vendorKey("mistral_api_key", ["mistral"], "mistral", "(?:api[_-]?)?key|token", "[A-Za-z0-9]{32}"),
  { id: "groq_api_key", keywords: ["gsk_"], pattern: `${B}gsk_[A-Za-z0-9]{52}${E}` },
  { id: "replicate_api_token", keywords: ["r8_"], pattern: `${B}r8_[A-Za-z0-9]{37}${E}` },
  {
    id: "perplexity_api_key",
    keywords: ["pplx-"],
    pattern: `${B}pplx-[A-Za-z0-9]{40,64}${E}`,
  },
  { id: "xai_api_key", keywords: ["xai-"], pattern: `${B}xai-[A-Za-z0-9]{70,100}${E}` },
  {
    id: "nvidia_api_key",
    keywords: ["nvapi-"],
    pattern: `${B}nvapi-[A-Za-z0-9_-]{64}${E}`,
  },
  {
    id: "langsmith_api_key",
    keywords: ["lsv2_pt_", "lsv2_sk_"],
    pattern: `${B}lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}${E}`,
  },
  {
    id: "pinecone_api_key",
    keywords: ["pcsk_"],
    pattern: `${B}pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,80}${E}`,
  },
  vendorKey("wandb_api_key", ["wandb"], "wandb", "api[_-]?key", "[a-f0-9]{40}"),
  // Package registries
  { id: "npm_token", keywords: ["npm_"], pattern: `${B}npm_[A-Za-z0-9]{36}${E}` },
  {
    // .npmrc credentials (`//registry/:_authToken=…`, `_auth=`, `_password=`), any registry.
    id: "npmrc_auth_token",
    keywords: ["_auth", "_password"],
    pattern: String.raw`(?:^|[\s:"'])_(?:authToken|auth|password)\s{0,3}=\s{0,3}["']?${VALUE_START}([^\s"']{6,1024})`,
    group: 1,
    generality: 1,
  },
  {
    id: "pypi_token",
    keywords: ["pypi-AgEIcHlwaS5vcmc"],
    pattern: `${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}${E}`,
  },
  {
    id: "rubygems_api_key",
    keywords: ["rubygems_"],
    pattern: `${B}rubygems_[a-f0-9]{48}${E}`,
  },
  { id: "nuget_api_key", keywords: ["oy2"], pattern: `${B}oy2[a-z0-9]{43}${E}` },
  { id: "crates_io_token", keywords: ["cio"], pattern: `${B}cio[A-Za-z0-9]{32}${E}` },
  { id: "clojars_token", keywords: ["CLOJARS_"], pattern: `${B}CLOJARS_[a-z0-9]{60}${E}` },
  {
    id: "dockerhub_token",
    keywords: ["dckr_pat_"],
    pattern: `${B}dckr_pat_[A-Za-z0-9_-]{27,}${E}`,
  },
  {
    id: "dockerhub_org_token",
    keywords: ["dckr_oat_"],
    pattern: `${B}dckr_oat_[A-Za-z0-9_-]{27,64}${E}`,
  },
  {
    // ~/.docker/config.json: "auth" holds base64 of user:password.
    id: "docker_config_auth",
    keywords: ['"auth"'],
    pattern: String.raw`"auth"\s{0,3}:\s{0,3}"([A-Za-z0-9+/]{8,1024}={0,2})"`,
    group: 1,
    minEntropy: 3,
    generality: 1,
  },
  // Observability
  vendorKey(
    "datadog_api_key",
    ["datadog", "dd_api", "dd-api", "ddapi"],
    "datadog|dd",
    "api[_-]?key",
    "[a-f0-9]{32}",
  ),
  vendorKey(
    "datadog_app_key",
    ["datadog", "dd_app", "dd-app", "ddapp"],
    "datadog|dd",
    "app(?:lication)?[_-]?key",
    "[a-f0-9]{40}",
  ),
  {
    id: "new_relic_user_api_key",
    keywords: ["NRAK-"],
    pattern: `${B}NRAK-[A-Z0-9]{27}${E}`,
  },
  {
    id: "new_relic_browser_api_key",
    keywords: ["NRJS-"],
    pattern: `${B}NRJS-[a-f0-9]{19}${E}`,
  },
  {
    id: "new_relic_insert_key",
    keywords: ["NRII-", "NRIQ-"],
    pattern: `${B}NRI[IQ]-[A-Za-z0-9_-]{32}${E}`,
  },
  {
    id: "new_relic_license_key",
    keywords: ["NRAL"],
    pattern: `${B}[a-f0-9]{36}NRAL${E}`,
  },
  {
    id: "sentry_org_token",
    keywords: ["sntrys_"],
    pattern: `${B}sntrys_eyJ[A-Za-z0-9+/=_-]{60,1024}`,
  },
  { id: "sentry_user_token", keywords: ["sntryu_"], pattern: `${B}sntryu_[a-f0-9]{64}${E}` },
  {
    // The key in a DSN (`https://<key>@o1.ingest.sentry.io/2`) lets anyone send events.
    id: "sentry_dsn",
    keywords: ["sentry.io"],
    pattern: String.raw`https?://([a-f0-9]{32})(?::[a-f0-9]{32})?@[A-Za-z0-9.-]{0,100}sentry\.io/`,
    group: 1,
  },
  {
    id: "grafana_cloud_token",
    keywords: ["glc_"],
    pattern: `${B}glc_[A-Za-z0-9+/]{32,1024}={0,2}`,
  },
  {
    id: "grafana_service_account_token",
    keywords: ["glsa_"],
    pattern: `${B}glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}${E}`,
  },
  {
    id: "grafana_api_key",
    keywords: ["eyJrIjoi"],
    pattern: `${B}eyJrIjoi[A-Za-z0-9+/]{50,200}={0,2}`,
  },
  {
    id: "honeycomb_api_key",
    keywords: ["hcaik_", "hcaic_", "hcxik_", "hcxmk_", "hcxlk_"],
    pattern: `${B}hc(?:ai[kc]|x[iml]k)_[A-Za-z0-9]{58}${E}`,
  },
  vendorKey(
    "honeycomb_legacy_key",
    ["honeycomb"],
    "honeycomb",
    "(?:api[_-]?|write[_-]?)?key|team",
    "[a-f0-9]{32}|[A-Za-z0-9]{22}",
  ),
  vendorKey(
    "pagerduty_api_key",
    ["pagerduty"],
    "pagerduty",
    "(?:api[_-]?)?(?:token|key)|integration[_-]?key|routing[_-]?key",
    "[a-f0-9]{32}|[A-Za-z0-9_+-]{20}",
  ),
  vendorKey(
    "sumologic_access_key",
    ["sumo"],
    "sumo(?:logic)?",
    "access[_-]?key|secret|key",
    "[A-Za-z0-9]{64}",
  ),
  {
    id: "sumologic_collector_url",
    keywords: ["sumologic.com/receiver/"],
    pattern: String.raw`sumologic\.com/receiver/v1/(?:http|otlp|prometheus)/([A-Za-z0-9_=-]{20,400})`,
    group: 1,
  },
  {
    // HTTP Event Collector tokens: `Authorization: Splunk <uuid>`, or after a key name.
    id: "splunk_hec_token",
    keywords: ["splunk"],
    pattern: String.raw`(?:${named("splunk", "(?:hec[_-]?)?token")}|(?<![A-Za-z0-9])splunk[ \t]{1,5})(${UUID})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    id: "dynatrace_api_token",
    keywords: ["dt0c01."],
    pattern: String.raw`${B}dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}${E}`,
  },
  { id: "infracost_api_key", keywords: ["ico-"], pattern: `${B}ico-[A-Za-z0-9]{32}${E}` },
  // Identity and secret managers
  {
    // Okta API tokens ("00" and 40 more), after a key name or `Authorization: SSWS`.
    id: "okta_api_token",
    keywords: ["okta", "ssws"],
    pattern: String.raw`(?:${named("okta", "token|key")}|(?<![A-Za-z0-9])ssws[ \t]{1,5})(00[A-Za-z0-9_-]{40})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  vendorKey(
    "auth0_client_secret",
    ["auth0"],
    "auth0",
    "(?:client[_-]?)?secret",
    "[A-Za-z0-9_-]{32,128}",
    3,
  ),
  {
    id: "onepassword_service_account_token",
    keywords: ["ops_eyJ"],
    pattern: `${B}ops_eyJ[A-Za-z0-9+/]{250,8192}={0,3}`,
  },
  {
    id: "onepassword_secret_key",
    keywords: ["A3-"],
    pattern: `${B}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${E}`,
  },
  {
    id: "age_secret_key",
    keywords: ["AGE-SECRET-KEY-1"],
    pattern: `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}${E}`,
  },
  // Social and consumer platforms
  {
    id: "twitch_oauth_token",
    keywords: ["twitch", "oauth:"],
    pattern: `(?:${named("twitch", "(?:oauth[_-]?|access[_-]?)?token|(?:client[_-]?)?secret")}|(?<![A-Za-z0-9])oauth:)([a-z0-9]{30})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    // App-only bearer tokens: 21 "A"s, then URL-encoded base64, within a few characters after
    // "bearer" or "twitter" (a header, a key name, a JSON field). A run of "A"s cannot be the
    // keyword: base64 of zero bytes would hit at every offset. The boundaries exclude base64
    // characters, so a zero run inside a blob is not a token either.
    id: "twitter_bearer_token",
    keywords: ["bearer", "Bearer", "BEARER", "twitter", "Twitter", "TWITTER"],
    pattern:
      "(?:[Bb]earer|BEARER|[Tt]witter|TWITTER)[^\\n]{0,80}?(?<![A-Za-z0-9+/_%-])(A{21}[A-Za-z0-9%+/=]{50,130})(?![A-Za-z0-9%+/=_-])",
    group: 1,
  },
  vendorKey(
    "twitter_api_secret",
    ["twitter"],
    "twitter",
    "(?:api[_-]?|consumer[_-]?|access[_-]?token[_-]?)?secret",
    "[A-Za-z0-9]{45,50}",
  ),
  {
    // Meta access tokens start with "EAA"; the boundaries exclude base64 neighbours.
    id: "facebook_access_token",
    keywords: ["EAA"],
    pattern: "(?<![A-Za-z0-9+/_-])EAA[A-Za-z0-9]{90,400}(?![A-Za-z0-9+/_-])",
  },
  vendorKey(
    "facebook_app_secret",
    ["facebook", "fb_"],
    "facebook|fb",
    "(?:app[_-]?|client[_-]?)?secret",
    "[a-f0-9]{32}",
  ),
  {
    id: "linkedin_client_secret",
    keywords: ["WPL_AP1."],
    pattern: String.raw`${B}WPL_AP1\.[A-Za-z0-9]{16}\.[A-Za-z0-9+/]{6}==`,
  },
  {
    id: "dropbox_access_token",
    keywords: ["sl."],
    pattern: String.raw`${B}sl\.(?:u\.)?[A-Za-z0-9_-]{130,1400}${E}`,
  },
  {
    id: "box_api_token",
    keywords: ["box_client", "box-client", "box_developer", "box-developer", "box_access"],
    pattern: `(?<![A-Za-z0-9])box[_-]?(?:client[_-]?secret|developer[_-]?token|access[_-]?token)${ASSIGN}([A-Za-z0-9]{32})${E}`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  { id: "yandex_api_key", keywords: ["AQVN"], pattern: `${B}AQVN[A-Za-z0-9_-]{35,38}${E}` },
  {
    id: "yandex_oauth_token",
    keywords: ["y0_", "y1_", "y2_", "y3_"],
    pattern: `${B}y[0-3]_[A-Za-z0-9_-]{50,64}${E}`,
  },
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
    // Code and references name a secret without holding it: a call, a lookup (`process.env.X`,
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

/** Values that are placeholders, not secrets: a key named PASSWORD whose value is one of these stays. */
export const PLACEHOLDER_VALUES =
  /^(?:\*+|x+|<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_]+%|\{\{[^}]*\}\}|null|none|true|false|undefined|changeme|redacted|example|placeholder|your[_-]?\w*|\[REDACTED:[a-z0-9_]+\])$/i;

/** Keys published in vendor documentation as examples. */
export const EXAMPLE_VALUES = new Set([
  "AKIAIOSFODNN7EXAMPLE",
  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
]);
