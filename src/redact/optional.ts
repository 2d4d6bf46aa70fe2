import type { SecretRule } from "./rules.js";

/**
 * Rules that are off by default because they remove what is often wanted: user names in home
 * paths, and personal data (emails, IP addresses). Hosts turn them on with `paths` and `pii`.
 */

/** The user's segment of a home directory path: `/home/alice/src` → `/home/[REDACTED:home_path]/src`. */
export const PATH_RULES: readonly SecretRule[] = [
  {
    id: "home_path",
    keywords: ["/home/", "/users/", "users\\"],
    pattern: String.raw`(?:(?<![\w.~-])/home/|(?<![\w.~-])/Users/|(?<![A-Za-z])[A-Za-z]:(?:\\\\|\\|/)Users(?:\\\\|\\|/))([^\s/\\"'<>:*?|[\]]{1,64})`,
    ignoreCase: true,
    group: 1,
    generality: 1,
  },
];

/** A path prefix whose next segment names a tenant (`/srv/tenants/` → `/srv/tenants/[REDACTED:tenant_path]/…`). */
export function tenantRule(root: string): SecretRule {
  const escaped = root.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return {
    id: "tenant_path",
    keywords: [root],
    pattern: `${escaped}([^\\s/\\\\"'<>:*?|[\\]]{1,128})`,
    group: 1,
    generality: 1,
  };
}

export const PII_RULES: readonly SecretRule[] = [
  {
    id: "email",
    keywords: ["@"],
    // Starts only where a run of local-part characters starts, so a long run is tried once.
    pattern: String.raw`(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,24}(?![A-Za-z0-9-])`,
    generality: 1,
  },
  {
    id: "ip_address",
    keywords: ["."],
    pattern: String.raw`(?<![0-9.])(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?!\.?[0-9])`,
    generality: 1,
  },
  {
    id: "ip_address",
    keywords: ["::", ":"],
    // Full eight groups, or a compressed form with "::" and at least one digit (not `std::vector`).
    pattern: `(?<![0-9A-Za-z:])(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}|(?=[0-9A-Fa-f:]*[0-9])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?)(?![0-9A-Za-z:])`,
    generality: 1,
  },
];
