import {
  ASSIGN,
  after,
  B,
  E,
  named,
  type SecretRule,
  UUID,
  VALUE_START,
  vendorKey,
} from "./format.js";

/** Package registries, observability, identity and secret managers, social platforms. */
export const PLATFORM_RULES: readonly SecretRule[] = [
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
  {
    // Sidekiq Pro and Enterprise gem server credentials (`<8 hex>:<8 hex>`): the Bundler setting
    // in env, `bundle config` or `.bundle/config`, and the gem server URL.
    id: "sidekiq_credentials",
    keywords: ["contribsys"],
    pattern: String.raw`(?:BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM${ASSIGN}|(?:gems|enterprise)\.contribsys\.com/?[ \t]+["']?|https?://(?=[a-f0-9]{8}:[a-f0-9]{8}@(?:gems|enterprise)\.contribsys\.com))([a-f0-9]{8}:[a-f0-9]{8})(?![A-Za-z0-9])`,
    ignoreCase: true,
    group: 1,
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
    // A DSN's public key (`https://<key>@o1.ingest.sentry.io/2`) is public by Sentry's design (it
    // ships in every browser bundle); the legacy form's second half (`<key>:<secret>@`) is not.
    id: "sentry_dsn",
    keywords: ["sentry.io"],
    pattern: String.raw`https?://[a-f0-9]{32}:([a-f0-9]{32})@[A-Za-z0-9.-]{0,100}sentry\.io/`,
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
    // Access IDs are 14 characters ("su" and 12 on current accounts), beside a 64-character key.
    "sumologic_access_id",
    ["sumo"],
    "sumo(?:logic)?",
    "access[_-]?id",
    "su[A-Za-z0-9]{12}|[A-Za-z0-9]{14}",
    3,
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
    pattern: String.raw`(?:${named("splunk", "(?:hec[_-]?)?token")}|${after("A-Za-z0-9")}splunk[ \t]{1,5})(${UUID})${E}`,
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
    pattern: String.raw`(?:${named("okta", "token|key")}|${after("A-Za-z0-9")}ssws[ \t]{1,5})(00[A-Za-z0-9_-]{40})${E}`,
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
    // 42 intranet (api.intra.42.fr) OAuth application secrets: "s-s4t2ud-" or "s-s4t2af-" and 64
    // hex digits. The application's uid ("u-s4t2…") is its public client id.
    id: "intra42_client_secret",
    keywords: ["s-s4t2ud-", "s-s4t2af-"],
    pattern: `${B}s-s4t2(?:ud|af)-[a-f0-9]{64}${E}`,
  },
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
    // age's spec: "AGE-SECRET-KEY-" and the Bech32 of the 32-byte key, upper case (Bech32 is read
    // in either case, never mixed): 58 characters after the separator "1", checksum included.
    id: "age_secret_key",
    keywords: ["AGE-SECRET-KEY-1", "age-secret-key-1"],
    pattern: `${B}(?:AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}|age-secret-key-1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58})${E}`,
    placeholders: false,
  },
  // Social and consumer platforms
  {
    id: "twitch_oauth_token",
    keywords: ["twitch", "oauth:"],
    pattern: `(?:${named("twitch", "(?:oauth[_-]?|access[_-]?)?token|(?:client[_-]?)?secret")}|${after("A-Za-z0-9")}oauth:)([a-z0-9]{30})${E}`,
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
    pattern: String.raw`(?:[Bb]earer|BEARER|[Tt]witter|TWITTER)[^\n]{0,80}?${after("A-Za-z0-9+/_%-")}(A{21}[A-Za-z0-9%+/=]{50,130})(?![A-Za-z0-9%+/=_-])`,
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
    pattern: `${after("A-Za-z0-9+/_-")}EAA[A-Za-z0-9]{90,400}(?![A-Za-z0-9+/_-])`,
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
    pattern: `${after("A-Za-z0-9")}box[_-]?(?:client[_-]?secret|developer[_-]?token|access[_-]?token)${ASSIGN}([A-Za-z0-9]{32})${E}`,
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
];
