import { entropy, isPublicName, looksSecret, PLACEHOLDER_VALUES } from "./judge.js";
import type { Span } from "./spans.js";

/**
 * Detectors that read structure a single-line pattern cannot: a name field and the value field
 * after it, a Kubernetes `data:` block, an SMTP dialogue. Each runs only when the keyword scan
 * saw its marker, and each walks the text once.
 */

/**
 * A `name` field that names a secret and the `value` field after it, on the same line or the
 * next: HAR headers and cookies (`{"name": "Authorization", "value": "Basic …"}`), Kubernetes env
 * (`- name: DB_PASSWORD` then `value: …`), .NET settings (`<add key="ApiKey" value="…" />`),
 * Terraform and CI variable lists.
 */
const NAMED =
  /(?:^|[\s{,[<-])["']?(?:name|key)["']?\s*[:=]\s*["']?([A-Za-z0-9_.-]{1,100})["']?[ \t]*,?[ \t]*(?:\r?\n[ \t]*(?:-[ \t]*)?)?["']?value["']?\s*[:=][ \t]*(?:"((?:[^"\\\r\n]|\\.){1,4096})"|'([^'\r\n]{1,4096})'|([^\s"'{[][^\r\n]{0,4095}))/gi;
const SECRET_NAME =
  /pass|secret|token|key|auth|cookie|session|sess\b|sid\b|\bsig\b|credential|private|signature|pwd/i;
const NOT_SECRET_NAME = /_id$|keyid$|\bid$|type$|expir|path$|url$|name$/i;

export function findNamedSecrets(text: string, spans: Span[]): void {
  // Called only when the scan saw "value"; the name field must be there too.
  if (!/name|key/i.test(text)) return;
  NAMED.lastIndex = 0;
  for (let m = NAMED.exec(text); m !== null; m = NAMED.exec(text)) {
    const name = m[1] ?? "";
    const quoted = m[4] === undefined;
    const raw = m[2] ?? m[3] ?? m[4] ?? "";
    // An unquoted value runs to the end of the line, less trailing spaces.
    const value = quoted ? raw : raw.trimEnd();
    if (!SECRET_NAME.test(name) || NOT_SECRET_NAME.test(name) || isPublicName(name)) continue;
    if (value.length < 6 || PLACEHOLDER_VALUES.test(value) || entropy(value) < 2.5) continue;
    const end = m.index + m[0].length - (quoted ? 1 : raw.length - value.length);
    const start = end - value.length;
    spans.push({ rule: "named_secret", start, end: start + value.length, generality: 2 });
  }
}

/** Judges one decoded value: true when it is (or holds) a secret, undefined if it is not base64. */
export type EncodedJudge = (name: string, value: string, secretDoc: boolean) => boolean | undefined;

/** Entry names under `data:` whose values are not secret by themselves. */
const PLAIN_DATA_NAME =
  /^(?:user(?:name)?|login|email|host(?:name)?|server|port|database|db(?:name)?|schema|namespace|region|zone|endpoint|url|uri|address|domain|bucket|account(?:[_-]?(?:id|name))?|client[_-]?id|app[_-]?id|tenant(?:[_-]?id)?|project(?:[_-]?id)?|[\w.-]*\.(?:crt|cer|pub))$/i;
const SECRET_DOC = /\bkind["']?\s{0,4}:\s{0,4}["']?Secret\b/;
const BLOCK = /^([ \t]*)["']?(data|stringData|binaryData)["']?:[ \t]*\r?$/gm;
const ENTRY = /^([ \t]+)["']?([^\s:"'#]{1,253})["']?:[ \t]+(["']?)([^\s"']{1,65536})\3[ \t]*\r?$/;
const JSON_BLOCK = /"(data|stringData|binaryData)"\s{0,8}:\s{0,8}\{/g;
const JSON_ENTRY =
  /\s{0,64}"((?:[^"\\\r\n]|\\.){1,253})"\s{0,8}:\s{0,8}"([^"\\\r\n]{0,65536})"\s{0,64}([,}])/y;
/** Entries judged in one block, at most (a Secret rarely holds more than a few dozen). */
const MAX_ENTRIES = 4096;

/**
 * The entries of Kubernetes `data:`, `binaryData:` and `stringData:` maps, in YAML (`kubectl get
 * secret -o yaml`) and JSON (`-o json`): each `data` value is base64-decoded and judged, each
 * `stringData` value judged as it is. When the text shows the object is a Secret (`kind:
 * Secret`), every value is a secret unless it is public (a certificate, a user name, a host) or a
 * placeholder; otherwise only values whose names name a secret, or that hold one, are.
 */
export function findKubernetesData(
  text: string,
  spans: Span[],
  judge: EncodedJudge,
  isPlaceholder: (value: string) => boolean,
): void {
  const secretDoc = SECRET_DOC.test(text);
  const take = (block: string, name: string, value: string, start: number) => {
    const verdict =
      block === "stringData"
        ? !isPlaceholder(value) && plainVerdict(name, value, secretDoc)
        : judge(name, value, secretDoc);
    if (verdict === true) {
      spans.push({
        rule: "kubernetes_secret_data",
        start,
        end: start + value.length,
        generality: 1,
      });
    }
  };
  // Positions are kept here, not in the shared patterns: judging a value searches the decoded
  // text, which may run this detector again.
  for (let pos = 0; ; ) {
    BLOCK.lastIndex = pos;
    const m = BLOCK.exec(text);
    if (m === null) break;
    const indent = (m[1] as string).length;
    const block = m[2] as string;
    let at = m.index + m[0].length + 1;
    for (let n = 0; n < MAX_ENTRIES && at < text.length; n++) {
      let end = text.indexOf("\n", at);
      if (end === -1) end = text.length;
      const line = text.slice(at, end);
      const e = ENTRY.exec(line);
      if (e === null) {
        // A blank line or a comment goes on; anything else at the block's depth ends it.
        if (/^\s*(?:#.*)?$/.test(line)) {
          at = end + 1;
          continue;
        }
        break;
      }
      if ((e[1] as string).length <= indent) break;
      const value = e[4] as string;
      take(block, e[2] as string, value, at + line.lastIndexOf(value));
      at = end + 1;
    }
    pos = Math.max(m.index + m[0].length, at);
  }
  for (let pos = 0; ; ) {
    JSON_BLOCK.lastIndex = pos;
    const m = JSON_BLOCK.exec(text);
    if (m === null) break;
    const block = m[1] as string;
    let at = m.index + m[0].length;
    for (let n = 0; n < MAX_ENTRIES; n++) {
      JSON_ENTRY.lastIndex = at;
      const e = JSON_ENTRY.exec(text);
      if (e === null) break;
      const value = e[2] as string;
      const valueAt = at + e[0].lastIndexOf(value);
      at = JSON_ENTRY.lastIndex;
      if (value !== "") take(block, (e[1] as string).replace(/\\(.)/g, "$1"), value, valueAt);
      if (e[3] === "}") break;
    }
    pos = Math.max(m.index + m[0].length, at);
  }
}

/**
 * True when a name under `data:` says its value is public or an identifier. In a Secret, an entry
 * named for a file (`.secret-file`, `ssh-keyfile`) holds that file, not its path.
 */
export function isPlainDataName(name: string, secretDoc = false): boolean {
  if (PLAIN_DATA_NAME.test(name)) return true;
  return isPublicName(name) && !(secretDoc && /files?$/i.test(name));
}

const SECRET_WORD = /pass|pwd|secret|token|key|auth|cred|private|cert|dsn|connection|api/i;

function plainVerdict(name: string, value: string, secretDoc: boolean): boolean {
  if (isPlainDataName(name, secretDoc) || PLACEHOLDER_VALUES.test(value)) return false;
  if (secretDoc) return value.length >= 4;
  return SECRET_WORD.test(name) && looksSecret(value, 4);
}
