/**
 * Tokens hard-wrapped across lines: a long token broken at 60, 72 or 80 columns by a terminal
 * capture, `fold`, `gh`, an email's quoted-printable soft breaks or PyYAML's folded quoted
 * scalars; base64 blocks wrapped at 64 (`openssl`) or 76 (`base64`, YAML literal blocks); and
 * armored PGP private keys (64-column lines).
 *
 * How a wrapped secret is labelled: every fragment the wrapping leaves on a line is a labelled
 * substring (`secrets` lists them in order) and the item carries `wrapped: true`. The scorer
 * counts the token once, caught only when no fragment survives (neither whole nor as a
 * 12-character piece). The characters between fragments (a line break, an indent, a CI
 * timestamp, a `=` or `\` soft-break mark) are not part of the label. Fragments are at least 12
 * characters long: a wrap that would leave a shorter one takes another of the widths.
 */
import { Buffer } from "node:buffer";
import {
  ALNUM,
  APPS,
  B64,
  B64URL,
  base64Of,
  base64Opening,
  ciLog,
  clock,
  digits,
  hex,
  JWT_HEADERS,
  jenkinsLog,
  jwt,
  LOG,
  PEOPLE,
  positive,
  shell,
} from "./kit.mjs";
import { bedrockShortTermKey } from "./providers.mjs";

const MIN_FRAGMENT = 12;
const WIDTHS = [60, 72, 80];

/**
 * Lays `before + token + after` out as a wrapping device does: lines of `width` columns, each
 * broken line ending in `mark` (a soft-break sign) and each continuation starting with `indent`.
 * Returns the lines and the token's fragments, or undefined when the token does not break or a
 * fragment would be short.
 */
function layout({ before = "", token, after = "", width, indent = "", mark = "" }) {
  const full = `${before}${token}${after}`;
  const start = before.length;
  const end = start + token.length;
  const lines = [];
  const fragments = [];
  let at = 0;
  while (at < full.length) {
    const room = (lines.length === 0 ? width : width - indent.length) - mark.length;
    const last = full.length - at <= room + mark.length;
    const take = last ? full.length - at : room;
    const seg = full.slice(at, at + take);
    lines.push(`${lines.length === 0 ? "" : indent}${seg}${last ? "" : mark}`);
    const s = Math.max(at, start);
    const e = Math.min(at + take, end);
    if (e > s) fragments.push(full.slice(s, e));
    at += take;
  }
  if (fragments.length < 2 || fragments.some((f) => f.length < MIN_FRAGMENT)) return undefined;
  return { lines, fragments };
}

/**
 * Wraps at one of `widths` (in random order) so that the token breaks into fragments of 12+
 * characters; when every width leaves a short fragment, the nearest column count that does not
 * is used, so the item stays well labelled.
 */
function wrap(r, spec, widths = WIDTHS) {
  for (const width of r.shuffle(widths)) {
    const laid = layout({ ...spec, width });
    if (laid) return { ...laid, width };
  }
  for (let d = 1; d <= 24; d++) {
    for (const width of [widths[0] + d, widths[0] - d]) {
      const laid = layout({ ...spec, width });
      if (laid) return { ...laid, width };
    }
  }
  throw new Error(
    `corpus: no width near ${widths[0]} wraps a ${spec.token.length}-character token`,
  );
}

/** The long tokens that get wrapped, with the variable they usually sit in. */
function longToken(r) {
  return r.pick([
    () => ({ token: jwt(r), env: "ACCESS_TOKEN" }),
    () => ({
      token: `github_pat_${r.chars(ALNUM, 22)}_${r.chars(ALNUM, 59)}`,
      env: "GITHUB_TOKEN",
    }),
    () => ({
      token: `sk-proj-${r.chars(B64URL, 74)}T3BlbkFJ${r.chars(B64URL, 74)}`,
      env: "OPENAI_API_KEY",
    }),
    () => ({ token: `sk-ant-api03-${r.chars(B64URL, 93)}AA`, env: "ANTHROPIC_API_KEY" }),
    () => ({ token: `ya29.a0${r.chars(B64URL, 180)}`, env: "GOOGLE_OAUTH_ACCESS_TOKEN" }),
    () => ({ token: bedrockShortTermKey(r), env: "AWS_BEARER_TOKEN_BEDROCK" }),
    () => ({
      token: `xoxp-${digits(r, 11)}-${digits(r, 11)}-${digits(r, 13)}-${hex(r, 32)}`,
      env: "SLACK_USER_TOKEN",
    }),
    () => ({ token: `pypi-AgEIcHlwaS5vcmc${r.chars(B64URL, 150)}`, env: "TWINE_PASSWORD" }),
  ])();
}

/** The token openings these draws share, and their base64 (a base64 block starts with one). */
const TOKEN_OPENINGS = [
  "github_pat_",
  "sk-ant-api03-",
  "pypi-AgEIcHlwaS5vcmc",
  "bedrock-api-key-",
  ...JWT_HEADERS.map((h) => `${Buffer.from(JSON.stringify(h)).toString("base64url")}.`),
];
export const WRAPPED_OPENINGS = TOKEN_OPENINGS.map(base64Opening);

/** A labelled item from a layout: the text, and the fragments as the secrets. */
const item = (carrier, file, text, fragments, lookalikes) => ({
  carrier,
  file,
  text,
  secrets: fragments,
  wrapped: true,
  ...(lookalikes ? { lookalikes } : {}),
});

const form = (carrier, file, make) => (r, v) => {
  const made = make(r, v);
  return item(carrier, file, made.text, made.fragments, made.lookalikes);
};

const WRAPPED_FORMS = [
  form("terminal capture", LOG, (r, { token, env }) => {
    const w = wrap(r, { token });
    return { text: `$ printenv ${env}\n${w.lines.join("\n")}\n$ `, fragments: w.fragments };
  }),
  form("terminal capture (env line)", LOG, (r, { token, env }) => {
    const w = wrap(r, { before: `${env}=`, token });
    return {
      text: `$ env | grep -i token\n${w.lines.join("\n")}\nHISTCONTROL=ignoredups\n$ `,
      fragments: w.fragments,
    };
  }),
  form("tmux pane (JSON line)", LOG, (r, { token }) => {
    const w = wrap(r, {
      before: '{"token":"',
      token,
      after: `","expires_at":"2026-12-0${1 + r.int(8)}T00:00:00Z","scope":"repo"}`,
    });
    return {
      text: `$ cat ~/.config/${r.pick(APPS)}/credentials.json\n${w.lines.join("\n")}\n$ `,
      fragments: w.fragments,
    };
  }),
  form("kubectl logs | fold", LOG, (r, { token }) => {
    const width = r.pick(WIDTHS);
    const w = wrap(
      r,
      {
        before: `{"ts":"${clock(r)}","level":"debug","msg":"upstream call","authorization":"Bearer `,
        token,
        after: '","status":401}',
      },
      [width],
    );
    return {
      text: `$ kubectl logs deploy/${r.pick(APPS)} --tail=1 | fold -w ${w.width}\n${w.lines.join("\n")}`,
      fragments: w.fragments,
    };
  }),
  form("quoted-printable email", LOG, (r, { token }) => {
    const qp = token.replace(/=/g, "=3D");
    const w = wrap(r, { token: qp, width: 76, mark: "=" }, [76]);
    const name = r.pick(PEOPLE).split(" ")[0];
    return {
      text: [
        `$ cat /var/mail/${name.toLowerCase()}`,
        "From: Acme Cloud <no-reply@acme.example>",
        `To: ${name.toLowerCase()}@example.com`,
        "Subject: Your new API key",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: quoted-printable",
        "",
        `Hello ${name},`,
        "",
        "Here is the key you created. It will not be shown again:",
        "",
        ...w.lines,
        "",
        "The Acme team",
      ].join("\n"),
      fragments: w.fragments,
    };
  }),
  form("PyYAML folded scalar", "credentials.yml", (r, { token }) => {
    const w = wrap(
      r,
      { before: '  "token": "', token, after: '"', indent: "    ", mark: "\\" },
      [80],
    );
    return {
      text: `"auth":\n${w.lines.join("\n")}\n  "user": "ci-${r.pick(APPS)}"\n"endpoint": "https://api.example.com"`,
      fragments: w.fragments,
    };
  }),
  form("gh issue view", LOG, (r, { token, env }) => {
    const w = wrap(r, { before: `  export ${env}=`, token, indent: "  " }, [80]);
    return {
      text: [
        `$ gh issue view ${r.between(100, 999)}`,
        `Deploy fails with 401 acme/web#${r.between(100, 999)}`,
        `Open • ${r.pick(PEOPLE)} opened about 1 hour ago • 2 comments`,
        "",
        "  The deploy job fails since this morning. I ran it locally with:",
        "",
        ...w.lines,
        "  npm run deploy",
        "",
        "  and got the same error.",
      ].join("\n"),
      fragments: w.fragments,
    };
  }),
  form("base64 in CI log", LOG, (r, { token }) => {
    const w = wrap(r, { token: base64Of(token) }, [76]);
    return {
      text: ciLog(r, {
        run: ['echo -n "$DEPLOY_TOKEN" | base64'],
        output: w.lines,
      }),
      fragments: w.fragments,
    };
  }),
  form("openssl base64", LOG, (r, { token }) => {
    const w = wrap(r, { token: base64Of(`${token}\n`) }, [64]);
    return {
      text: jenkinsLog(r, [["openssl base64 -in /run/secrets/api_token", w.lines]]),
      fragments: w.fragments,
    };
  }),
];

/**
 * Random key material printed as base64 blocks: `openssl rand -base64` (64 columns) as a setup
 * script makes a session secret, and a key file base64-encoded into a YAML literal block.
 */
const BLOCK_FORMS = [
  (r) => {
    const n = r.pick([96, 144, 192]);
    const w = wrap(r, { token: Buffer.from(r.bytes(n)).toString("base64") }, [64]);
    return item(
      "openssl rand -base64",
      LOG,
      jenkinsLog(r, [
        [`openssl rand -base64 ${n} > config/session_secret`, []],
        ["cat config/session_secret", w.lines],
      ]),
      w.fragments,
    );
  },
  (r) => {
    const w = wrap(r, { token: Buffer.from(r.bytes(r.pick([256, 384]))).toString("base64") }, [76]);
    return item(
      "YAML literal base64 block",
      "values.yaml",
      `signing:\n  enabled: true\n  keyFile: |\n${w.lines.map((l) => `    ${l}`).join("\n")}\nreplicaCount: 2`,
      w.fragments,
    );
  },
];

/** An ASCII-armored PGP secret key: a private key's body in 64-column lines. */
function pgpSecretKey(r) {
  const body = `lQ${r.pick(["OYBG", "VYBG", "dGBG"])}${r.chars(B64, r.pick([1240, 1680, 2560]))}`;
  const lines = [];
  for (let i = 0; i < body.length; i += 64) lines.push(body.slice(i, i + 64));
  if (lines.at(-1).length < MIN_FRAGMENT) lines[lines.length - 2] += lines.pop();
  return { lines, crc: `=${r.chars(B64, 4)}` };
}

const armor = (key) => [
  "-----BEGIN PGP PRIVATE KEY BLOCK-----",
  "",
  ...key.lines,
  key.crc,
  "-----END PGP PRIVATE KEY BLOCK-----",
];

const PGP_FORMS = [
  (r, key) =>
    item(
      "gpg --export-secret-keys",
      LOG,
      shell(`gpg --armor --export-secret-keys ${hex(r, 16).toUpperCase()}`, armor(key).join("\n")),
      key.lines,
    ),
  (r, key) =>
    item(
      "CI log",
      LOG,
      ciLog(r, { run: ['echo "$GPG_PRIVATE_KEY"'], output: armor(key) }),
      key.lines,
    ),
  (_r, key) =>
    item(
      "JSON (\\n escaped)",
      "signing.json",
      JSON.stringify(
        { keyId: "release@acme.example", armored: `${armor(key).join("\n")}\n` },
        null,
        2,
      ),
      key.lines,
    ),
  (_r, key) =>
    item(
      "GitHub secret in .env",
      ".env",
      `GPG_PASSPHRASE_FILE=/run/secrets/gpg\nGPG_PRIVATE_KEY="${armor(key).join("\n")}"\n`,
      key.lines,
    ),
];

export const POSITIVES = [
  positive("wrapped_token", longToken, WRAPPED_FORMS, 27),
  positive("wrapped_base64_block", () => undefined, BLOCK_FORMS, 8),
  positive("pgp_private_key", pgpSecretKey, PGP_FORMS, 8),
];
