import {
  ASSIGN,
  after,
  B,
  COLON,
  E,
  gitlab,
  named,
  type SecretRule,
  UUID,
  vendorKey,
} from "./format.js";

/** Source hosting and CI, developer tools, chat, payments, email and AI providers. */
export const SERVICE_RULES: readonly SecretRule[] = [
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
    pattern: `${after("A-Za-z0-9-")}private-token${COLON}([A-Za-z0-9_.-]{20,300})`,
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
  vendorKey(
    "sourcegraph_token",
    ["sourcegraph", "src_access"],
    "sourcegraph|src[_-]?access",
    "token|key",
    "[a-f0-9]{40}",
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
    // `snyk auth <token>` and `snyk config set api=<token>`.
    id: "snyk_token",
    keywords: ["snyk auth", "snyk config set"],
    pattern: `\\bsnyk[ \\t]+(?:auth|config[ \\t]+set[ \\t]+api=)[ \\t]*["']?(${UUID})${E}`,
    ignoreCase: true,
    group: 1,
  },
  vendorKey(
    "sonar_token",
    ["sonar"],
    "sonar(?:qube|cloud)?",
    "token|login|api[_-]?key|password",
    "[a-f0-9]{40}|sq[pua]_[a-f0-9]{40}",
  ),
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
    pattern: String.raw`(?:${named("ngrok", "(?:auth[_-]?)?token|api[_-]?key")}|${after("A-Za-z0-9-")}(?:add-authtoken|--authtoken)(?:=|[ \t]{1,5}))([0-9][A-Za-z0-9]{20,40}_[A-Za-z0-9]{15,30})${E}`,
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
  // Messaging APIs
  vendorKey(
    "messagebird_api_key",
    ["messagebird", "message_bird", "message-bird", "msgbird"],
    "message[_-]?bird|msgbird",
    "(?:api[_-]?|access[_-]?)?(?:key|token)",
    "(?:live_|test_)?[A-Za-z0-9]{25}",
  ),
  {
    // The key passed to the SDK: `messagebird.initClient('live_…')`, `messagebird.Client('…')`.
    id: "messagebird_api_key",
    keywords: ["messagebird"],
    pattern: String.raw`messagebird[^\r\n]{0,80}?["']((?:live_|test_)?[A-Za-z0-9]{25})["']`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
  // Geolocation
  {
    // MaxMind license keys in their current format: 40 characters ending in "_mmk".
    id: "maxmind_license_key",
    keywords: ["_mmk"],
    pattern: `${B}[A-Za-z0-9_]{36}_mmk${E}`,
  },
  {
    // GeoIP.conf (`LicenseKey <key>`), and older keys after a MaxMind key name.
    id: "maxmind_license_key",
    keywords: ["LicenseKey", "maxmind"],
    pattern: `(?:${after("A-Za-z0-9_")}LicenseKey[ \\t]+|${named("maxmind|geoip", "license[_-]?key|key")})([A-Za-z0-9_]{12,40})${E}`,
    group: 1,
    generality: 1,
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
    pattern: `(?:${named("cohere", "(?:api[_-]?)?key|token")}|${after("A-Za-z0-9")}co_api_key${ASSIGN})([A-Za-z0-9]{40})${E}`,
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
];
