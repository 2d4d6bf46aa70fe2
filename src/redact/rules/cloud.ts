import { ASSIGN, after, B, COLON, E, named, type SecretRule, UUID, vendorKey } from "./format.js";

/** Cloud providers and hosting platforms: AWS, Google, Azure, and the others. */
export const CLOUD_RULES: readonly SecretRule[] = [
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
    pattern: String.raw`(?:(?:aws_session_token|aws_security_token|sessiontoken|x-amz-security-token)["']?\s{0,5}[:=]\s{0,5}["']?|${after("A-Za-z0-9/+=")}(?=IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz))([A-Za-z0-9/+=%]{100,8192})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  {
    // Amazon Bedrock API keys: short-term ones are "bedrock-api-key-" and the base64 of a
    // SigV4-presigned URL; long-term ones "ABSK" and the base64 of "BedrockAPIKey-…:<secret>".
    id: "aws_bedrock_api_key",
    keywords: ["bedrock-api-key-", "ABSKQmVkcm9ja0FQSUtleS"],
    pattern: `${B}(?:bedrock-api-key-[A-Za-z0-9+/]{100,8192}={0,2}|ABSKQmVkcm9ja0FQSUtleS[A-Za-z0-9+/]{40,1024}={0,2})(?![A-Za-z0-9+/=_-])`,
  },
  {
    id: "amazon_mws_auth_token",
    keywords: ["amzn.mws."],
    pattern: String.raw`${B}amzn\.mws\.${UUID}${E}`,
  },
  // Cloud: Google
  {
    // Google API keys: "AIza" and 35 characters of base64url, 39 in all. A longer run, an
    // identifier ("$" is a JS name character, "." before a property, "(" after a function), or a
    // body without both cases and a digit (random bytes have them) is a name, not a key.
    id: "gcp_api_key",
    keywords: ["AIza"],
    pattern: String.raw`${after("A-Za-z0-9_$.-")}AIza(?=[0-9A-Za-z_-]{0,34}[0-9])(?=[0-9A-Za-z_-]{0,34}[a-z])(?=[0-9A-Za-z_-]{0,34}[A-Z])[0-9A-Za-z_-]{35}(?![0-9A-Za-z_$-]|\(|\.[A-Za-z_$])`,
  },
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
    pattern: `${after("A-Za-z0-9_/")}1//0[A-Za-z0-9_-]{40,512}${E}`,
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
    pattern: String.raw`${after("A-Za-z0-9_~.-")}[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
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
    pattern: `(?:${named("alibaba|aliyun|alicloud", "secret")}|${after("A-Za-z0-9")}access_?key_?secret${ASSIGN})([A-Za-z0-9]{30})${E}`,
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
    pattern: `(?:${named("cloudflare|cf", "(?:global[_-]?)?(?:api[_-]?)?key")}|${after("A-Za-z0-9-")}x-auth-key${COLON})([a-f0-9]{37})${E}`,
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
  {
    // ClickHouse Cloud API key secrets start with "4b1d"; the key id beside them is not secret.
    id: "clickhouse_api_secret",
    keywords: ["4b1d"],
    pattern: `${B}4b1d[A-Za-z0-9]{38}${E}`,
    reject: "^[0-9a-f]+$",
  },
  vendorKey(
    "clickhouse_password",
    ["clickhouse"],
    "clickhouse",
    "password|secret|key[_-]?secret|token[_-]?secret",
    String.raw`[^\s"',;{}\[\]]{8,256}`,
    3,
  ),
  { id: "neon_api_key", keywords: ["napi_"], pattern: `${B}napi_[a-z0-9]{64}${E}` },
];
