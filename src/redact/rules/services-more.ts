import { ASSIGN, after, B, E, named, type SecretRule, UUID, vendorKey } from "./format.js";

/** The second half of the service rules (split for size; the order is the list's). */
export const MORE_SERVICE_RULES: readonly SecretRule[] = [
  {
    // The URL, or its path alone (the request line of curl -v: `> POST /services/T…/B…/…`):
    // incoming webhooks (`/services/`), Workflow Builder webhooks (`/workflows/`) and workflow
    // triggers (`/triggers/`), with or without the scheme.
    id: "slack_webhook",
    keywords: ["hooks.slack.com", "/services/T"],
    pattern: String.raw`(?:https?://)?${after("A-Za-z0-9.-")}hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}|/services/T[A-Z0-9]{8,12}/B[A-Z0-9]{8,12}/[A-Za-z0-9]{24}${E}`,
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
  vendorKey(
    // The OAuth client id of a MessageBird (Bird) app: a UUID, sent beside its client secret.
    "messagebird_client_id",
    ["messagebird", "message_bird", "message-bird", "msgbird"],
    "message[_-]?bird|msgbird",
    "client[_-]?id",
    UUID,
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
