/** The structural detectors' markers: each detector runs only on text holding one of them. */
import { BLOCK_KEYWORDS, ENCODED_TOKEN_KEYWORDS, PRINTING_KEYWORDS } from "./context.js";
import { MAIL_KEYWORDS } from "./dialogues.js";
import { SPLIT_KEYWORDS } from "./split.js";

/** The structural detectors, each run only on text holding one of its markers. */
export type Gate =
  | "pem"
  | "named"
  | "jwk"
  | "encoded"
  | "kube"
  | "mail"
  | "putty"
  | "output"
  | "block"
  | "b64token"
  | "sealed"
  | "pgpass"
  | "snyk"
  | "split";
export const GATES: ReadonlyArray<readonly [string, boolean, Gate]> = [
  ["-----BEGIN ", false, "pem"],
  ["-----END ", false, "pem"],
  ["value", true, "named"],
  ['"kty"', false, "jwk"],
  ["LS0tLS1CRUdJTi", false, "encoded"],
  ["data:", true, "kube"],
  ['data":', true, "kube"],
  ["Private-Lines:", false, "putty"],
  ["encryptedData", false, "sealed"],
  ["pgpass", true, "pgpass"],
  ["snyk", true, "snyk"],
  ...MAIL_KEYWORDS.map((k) => [k, true, "mail"] as const),
  ...SPLIT_KEYWORDS.map((k) => [k, true, "split"] as const),
  ...PRINTING_KEYWORDS.map((k) => [k, true, "output"] as const),
  ...BLOCK_KEYWORDS.map((k) => [k, false, "block"] as const),
  ...ENCODED_TOKEN_KEYWORDS.map((k) => [k, false, "b64token"] as const),
];
/** The detector each gate runs, for `disable`. */
export const GATE_RULE: Record<Gate, string> = {
  pem: "private_key",
  named: "named_secret",
  jwk: "jwk_private_key",
  encoded: "private_key",
  kube: "kubernetes_secret_data",
  mail: "mail_login",
  putty: "private_key",
  output: "command_output",
  block: "secret_block",
  b64token: "encoded_token",
  sealed: "public_blocks",
  pgpass: "pgpass_password",
  snyk: "snyk_token",
  split: "split_secret",
};
