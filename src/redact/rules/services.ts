import { after, B, COLON, E, gitlab, named, type SecretRule, UUID, vendorKey } from "./format.js";

/** Source hosting and CI, developer tools, chat, payments, email and AI providers. */
import { MORE_SERVICE_RULES } from "./services-more.js";

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
    // Legacy HubSpot API keys (`hapikey`, a UUID) and private app tokens under a HubSpot name;
    // the name is judged whole (`hubspot_key_id` is not the key).
    ...vendorKey(
      "hubspot_api_key",
      ["hubspot", "hapikey"],
      "hubspot|hapi",
      "(?:api[_-]?|access[_-]?|private[_-]?app[_-]?)?(?:key|token)",
      String.raw`pat-(?:na|eu|ap)\d-${UUID}|${UUID}`,
    ),
    keyed: true,
  },
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
  ...MORE_SERVICE_RULES,
];
