import { isPublicMaterial } from "./encoded.js";
import { looksSecret } from "./judge.js";
import type { Span } from "./spans.js";

/**
 * Secrets known by what surrounds them rather than by a key name on their line: the output of a
 * command that prints one, the lines of a YAML block under a secret's name, a base64 blob that
 * decodes to a token. And the reverse: blocks whose values are public by design (a SealedSecret's
 * ciphertext), where a key name would mislead.
 */

/**
 * A shell prompt (`$ `, `user@host:~$ `, `# `, `+ ` from `set -x`, `PS C:\> `, `C:\> `) and a
 * command that prints a secret: a read of a secret store, or a print of a secret's name.
 */
const PRINTING = new RegExp(
  [
    String.raw`^[ \t]*(?:[\w.@~:/-]{0,64}[$#%]|\+|PS [^>\r\n]{0,80}>|[A-Za-z]:\\[^>\r\n]{0,80}>)[ \t]+`,
    // The command itself comes first (after `sudo`): one bounded run a line, so a line costs a
    // constant whatever it holds.
    String.raw`(?:sudo[ \t]+)?`,
    String.raw`(?:openssl[ \t]+rand|vault[ \t]+(?:kv[ \t]+get|read)|aws[ \t]+secretsmanager[ \t]+get-secret-value|gcloud[ \t]+secrets[ \t]+versions[ \t]+access|az[ \t]+keyvault[ \t]+secret[ \t]+show|op[ \t]+read|pass[ \t]+show|security[ \t]+find-generic-password|doppler[ \t]+secrets[ \t]+get|heroku[ \t]+config:get|kubectl[ \t]+get[ \t]+secrets?\b[^\r\n]{0,256}?(?:jsonpath|go-template)|snyk[ \t]+config[ \t]+get|(?:printenv|echo|cat|type|more|head|tail|get-content)\b[^\r\n]{0,256}?(?:secret|token|passw|pwd|api[_-]?key|private|credential|_key\b|\.key\b))`,
    String.raw`[^\r\n]*$`,
  ].join(""),
  "gim",
);
/** A prompt line: the end of a command's output. */
const PROMPT =
  /^[ \t]*(?:[\w.@~:/-]{0,64}[$#%]|\+|PS [^>\r\n]{0,80}>|[A-Za-z]:\\[^>\r\n]{0,80}>)(?:[ \t]|$)/;
/** A line of output that is one token (a key, a password, a line of base64). */
const TOKEN_LINE = /^[ \t]*([A-Za-z0-9+/=_.~:@!#%^&*-]{8,4096})[ \t]*\r?$/;
/** Output lines taken after one command, at most. */
const MAX_OUTPUT = 64;

/** Commands whose output may be a secret, for the keyword prefilter. */
export const PRINTING_KEYWORDS: readonly string[] = [
  "openssl rand",
  "printenv",
  "echo ",
  "cat ",
  "vault kv",
  "vault read",
  "secretsmanager",
  "gcloud secrets",
  "keyvault",
  "op read",
  "pass show",
  "generic-password",
  "doppler secrets",
  "config:get",
  "jsonpath",
  "snyk config get",
  "go-template",
  "get-content",
  "type ",
  "head ",
  "tail ",
  "more ",
];

/**
 * The lines printed by a command that prints a secret (`printenv GITHUB_TOKEN`, `cat
 * config/session_secret`, `openssl rand -base64 48`, `kubectl get secret db -o
 * jsonpath='{.data.password}'`): each line up to the next prompt that is a single token and looks
 * like a secret.
 */
export function findCommandOutput(
  text: string,
  spans: Span[],
  isSecret: (value: string, command: string) => boolean,
): void {
  for (let pos = 0; ; ) {
    PRINTING.lastIndex = pos;
    const m = PRINTING.exec(text);
    if (m === null) break;
    let start = m.index + m[0].length + 1;
    for (let n = 0; n < MAX_OUTPUT && start < text.length; n++) {
      let stop = text.indexOf("\n", start);
      if (stop === -1) stop = text.length;
      const out = text.slice(start, stop);
      const token = TOKEN_LINE.exec(out);
      if (token === null || PROMPT.test(out)) break;
      const value = token[1] as string;
      if (isSecret(value, m[0])) {
        const at = start + out.indexOf(value);
        spans.push({ rule: "command_output", start: at, end: at + value.length, generality: 1 });
      }
      start = stop + 1;
    }
    pos = Math.max(m.index + m[0].length, start - 1);
  }
}

/** A YAML key that opens a block scalar: `keyFile: |`, `token: >-`. */
const BLOCK_SCALAR =
  /^([ \t]*)(?:-[ \t]+)?["']?([\w.-]{1,128})["']?:[ \t]*[|>][-+0-9]{0,2}[ \t]*\r?$/gm;
const SECRET_NAME = /key|secret|token|passw|pwd|cred|private|auth|signing/i;
const PUBLIC_NAME = /pub|cert|crt|(?:^|[._-])ca(?:$|[._-])|known[._-]?hosts|fingerprint/i;
const BLOCK_LINE = /^[ \t]+([A-Za-z0-9+/=_-]{16,4096})[ \t]*\r?$/;

/** Block scalar openers, for the keyword prefilter. */
export const BLOCK_KEYWORDS: readonly string[] = [": |", ": >", ":|", ":>"];

/**
 * The lines of a YAML block scalar under a secret's name (`keyFile: |` then base64 lines):
 * redacted when every line is a token and the block is not a certificate or a public key.
 */
export function findSecretBlocks(text: string, spans: Span[]): void {
  for (let pos = 0; ; ) {
    BLOCK_SCALAR.lastIndex = pos;
    const head = BLOCK_SCALAR.exec(text);
    if (head === null) break;
    pos = head.index + head[0].length;
    const name = head[2] as string;
    if (!SECRET_NAME.test(name) || PUBLIC_NAME.test(name)) continue;
    const indent = (head[1] as string).length;
    const found: Array<[number, number]> = [];
    let body = "";
    let at = pos + 1;
    for (let n = 0; n < 4096 && at < text.length; n++) {
      let stop = text.indexOf("\n", at);
      if (stop === -1) stop = text.length;
      const out = text.slice(at, stop);
      const m = BLOCK_LINE.exec(out);
      const depth = out.length - out.trimStart().length;
      if (m === null || depth <= indent) break;
      const value = m[1] as string;
      const valueAt = at + out.indexOf(value);
      found.push([valueAt, valueAt + value.length]);
      if (body.length < 128) body += value;
      at = stop + 1;
    }
    if (found.length === 0 || isPublicMaterial(body) || !looksSecret(body.slice(0, 64), 16)) {
      continue;
    }
    for (const [a, b] of found) {
      spans.push({ rule: "secret_block", start: a, end: b, generality: 2 });
    }
    pos = Math.max(pos, at - 1);
  }
}

/** A SealedSecret's `encryptedData:` map: ciphertext for the cluster's key, safe to publish. */
const SEALED = /^([ \t]*)["']?encryptedData["']?:[ \t]*\r?$/gm;

/** Ranges of the text whose values are public by design (a SealedSecret's encrypted data). */
export function publicBlocks(text: string): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  for (let pos = 0; ; ) {
    SEALED.lastIndex = pos;
    const m = SEALED.exec(text);
    if (m === null) break;
    const indent = (m[1] as string).length;
    let at = m.index + m[0].length + 1;
    const from = at;
    for (let n = 0; n < 4096 && at < text.length; n++) {
      let stop = text.indexOf("\n", at);
      if (stop === -1) stop = text.length;
      const line = text.slice(at, stop);
      if (line.trim() !== "" && line.length - line.trimStart().length <= indent) break;
      at = stop + 1;
    }
    if (at > from) out.push([from, at]);
    pos = Math.max(m.index + m[0].length, at);
  }
  return out;
}

/**
 * Token prefixes that are distinctive enough to find again in base64 (`echo -n $TOKEN | base64`,
 * `openssl base64 -in token`): a blob that starts with one decodes to a token.
 */
const ENCODED_PREFIXES = [
  "ghp_",
  "gho_",
  "ghu_",
  "ghs_",
  "ghr_",
  "github_pat_",
  "glpat-",
  "xoxb-",
  "xoxp-",
  "xoxa-",
  "xapp-",
  "sk-ant-",
  "sk-proj-",
  "sk_live_",
  "sk_test_",
  "rk_live_",
  "AKIA",
  "ASIA",
  "npm_",
  "pypi-",
  "dop_v1_",
  "bedrock-api-key-",
  "ABSK",
  "ya29.",
  "AIza",
  "glsa_",
  "hvs.",
  "sgp_",
  "dckr_pat_",
  "shpat_",
  "lin_api_",
  '{"alg"',
  "eyJhbGci",
];

/** The fully determined base64 characters of `prefix` at the start of a blob. */
function encodedPrefix(prefix: string): string {
  return btoa(prefix).slice(0, Math.floor((prefix.length * 8) / 6));
}

/** Keywords for the prefilter: each prefix as base64, as it starts a blob. */
export const ENCODED_TOKEN_KEYWORDS: readonly string[] = ENCODED_PREFIXES.map(encodedPrefix);

const BASE64_CHAR = /[A-Za-z0-9+/=_-]/;

/**
 * Base64 blobs that start with an encoded token prefix, judged by what they decode to
 * (`holdsSecret`): the blob is redacted when the decoded text holds a secret.
 */
export function findEncodedTokens(
  text: string,
  spans: Span[],
  holdsSecret: (blob: string) => boolean,
): void {
  const done = new Set<number>();
  for (const keyword of ENCODED_TOKEN_KEYWORDS) {
    for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, at + 1)) {
      // A blob starts here: the character before is not base64.
      if (at > 0 && BASE64_CHAR.test(text[at - 1] as string)) continue;
      if (done.has(at)) continue;
      done.add(at);
      let end = at;
      while (end < text.length && end - at < 65536 && BASE64_CHAR.test(text[end] as string)) end++;
      if (holdsSecret(text.slice(at, end))) {
        spans.push({ rule: "encoded_token", start: at, end, generality: 0 });
      }
    }
  }
}

/** A `.pgpass` line: `host:port:database:user:password` (any field but the last may be `*`). */
const PGPASS =
  /^[ \t]*(?=[A-Za-z0-9.*_-]{0,252}[A-Za-z*])[A-Za-z0-9.*_-]{1,253}:(?:\d{1,5}|\*):[^:\s]{1,128}:[^:\s]{1,128}:(\S{4,256})[ \t]*\r?$/gm;

/** The password field of `.pgpass` lines, in a text that names the file. */
export function findPgpass(text: string, spans: Span[]): void {
  PGPASS.lastIndex = 0;
  for (let m = PGPASS.exec(text); m !== null; m = PGPASS.exec(text)) {
    const value = m[1] as string;
    if (!looksSecret(value, 4)) continue;
    const start = m.index + m[0].lastIndexOf(value);
    spans.push({ rule: "pgpass_password", start, end: start + value.length, generality: 1 });
  }
}

const SNYK_CONFIG =
  /"api"\s{0,8}:\s{0,8}"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/g;

/** The token in Snyk's CLI configuration (`"api": "<uuid>"`), in a text that names Snyk. */
export function findSnykConfig(text: string, spans: Span[]): void {
  SNYK_CONFIG.lastIndex = 0;
  for (let m = SNYK_CONFIG.exec(text); m !== null; m = SNYK_CONFIG.exec(text)) {
    const value = m[1] as string;
    const start = m.index + m[0].lastIndexOf(value);
    spans.push({ rule: "snyk_token", start, end: start + value.length, generality: 1 });
  }
}
