/**
 * Negative kinds: text that must come through byte-identical. Each form returns
 * `[carrier, text, lookalikes]`, the look-alikes being the token-like values a redactor could
 * mistake for secrets, scored one by one.
 *
 * - pagination envelopes of real APIs, in the shapes their docs show (Google `nextPageToken`,
 *   CloudWatch Logs `nextForwardToken`/`nextBackwardToken`, boto `NextToken`, S3
 *   `NextContinuationToken`/`NextMarker`, DynamoDB `LastEvaluatedKey`, Slack `next_cursor`,
 *   Stripe `starting_after`, GitHub `endCursor`, Kubernetes `continue`, Elasticsearch
 *   `_scroll_id`, Zoom and the issue's `next_page_token`/`prev_page_token`, Azure `$skiptoken`
 *   and Cosmos continuations, Shopify `page_info`, X `next_token`, Datadog, HubSpot, Airtable,
 *   Jira, Relay cursors, Google Calendar sync tokens);
 * - HTTP metadata: ETags, request and trace ids (W3C traceparent, X-Amzn-Trace-Id, x-amz-id-2),
 *   content hashes, CSP nonces, WebSocket handshake nonces, PKCE challenges, DKIM signatures;
 * - public keys: authorized_keys with options, ssh-keyscan, SSH certificates, EC/RSA public
 *   PEMs, certificate chains, JWKS with public members only, PGP public blocks, WireGuard
 *   `wg show`, minisign and age recipients, DKIM records, x509 modulus dumps;
 * - placeholders: real prefixes followed by one repeated character; documented example values
 *   (AWS's, the Kubernetes docs' Secret, the RFC examples); obviously fake keys in prose and
 *   keys masked by the provider itself;
 * - Kubernetes Secret data that is public (a CA certificate, a namespace, SealedSecret
 *   ciphertext) and publishable client keys (Stripe `pk_live_`, Mapbox `pk.`, PostHog `phc_`,
 *   Sentry DSN public keys, reCAPTCHA site keys).
 *
 * Judgement calls, stated: SealedSecret `encryptedData` is ciphertext only the cluster can open
 * (its docs call it safe to commit), so it is a negative; documented example keys are
 * negatives here although the library redacts them unless `keepExamples` (their kind shows
 * what that costs); masked keys (`sk-proj-****abcd`) are negatives.
 */
import { Buffer } from "node:buffer";
import { har } from "./carriers.mjs";
import {
  ALNUM,
  APPS,
  around,
  at,
  B64,
  B64URL,
  b64,
  b64url,
  base64Of,
  curlVerbose,
  DIGITS,
  digits,
  hex,
  ip,
  LOWER,
  negative,
  pad,
  shell,
  UPPER,
  uuid,
} from "./kit.mjs";

const UPPER_HEX = "0123456789ABCDEF";
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const json = (v) => JSON.stringify(v, null, 2);
const b64json = (v) => Buffer.from(JSON.stringify(v)).toString("base64");
const b64urljson = (v) => Buffer.from(JSON.stringify(v)).toString("base64url");
const response = (r, url, body, headers = []) =>
  shell(`curl -sv "${url}"`, curlVerbose(r, { url, response: headers, body }));

// ---------------------------------------------------------------------------------------------
// Pagination envelopes

const PAGINATION = negative(
  "pagination_token",
  [
    (r) => {
      const t = `~!!~AI9FV7${r.chars(B64URL, 96)}`;
      return [
        "Drive nextPageToken",
        response(
          r,
          "https://www.googleapis.com/drive/v3/files?pageSize=2",
          json({
            nextPageToken: t,
            kind: "drive#fileList",
            incompleteSearch: false,
            files: [
              {
                kind: "drive#file",
                id: r.chars(B64URL, 33),
                name: "Q4 plan",
                mimeType: "application/vnd.google-apps.document",
              },
            ],
          }),
        ),
        [t],
      ];
    },
    (r) => {
      const n = digits(r, 56);
      const f = `f/${n}/s`;
      const b = `b/${digits(r, 56)}/s`;
      return [
        "CloudWatch get-log-events",
        shell(
          `aws logs get-log-events --log-group-name /ecs/${r.pick(APPS)} --log-stream-name web/${hex(r, 32)} --limit 1`,
          JSON.stringify(
            {
              events: [
                {
                  timestamp: 1795900000000 + r.int(1e6),
                  message: "GET /healthz 200",
                  ingestionTime: 1795900000500,
                },
              ],
              nextForwardToken: f,
              nextBackwardToken: b,
            },
            null,
            4,
          ),
        ),
        [f, b],
      ];
    },
    (r) => {
      const t = b64json({ Marker: null, boto_truncate_amount: r.between(1, 9) }).replace(/\s/g, "");
      return [
        "aws cli NextToken",
        shell(
          "aws iam list-users --max-items 2",
          JSON.stringify(
            {
              Users: [
                {
                  UserName: "ci",
                  UserId: `AIDA${r.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 17)}`,
                },
              ],
              NextToken: t,
            },
            null,
            4,
          ),
        ),
        [t],
      ];
    },
    (r) => {
      const t = `1${b64(r, 33)}`;
      return [
        "S3 ListObjectsV2",
        shell(
          `aws s3api list-objects-v2 --bucket ${r.pick(APPS)}-logs --max-keys 2`,
          JSON.stringify(
            {
              IsTruncated: true,
              Contents: [
                {
                  Key: "2026/11/30/app.log.gz",
                  ETag: `"${hex(r, 32)}"`,
                  Size: r.int(90000),
                  StorageClass: "STANDARD",
                },
              ],
              KeyCount: 2,
              MaxKeys: 2,
              NextContinuationToken: t,
            },
            null,
            4,
          ),
        ),
        [t],
      ];
    },
    (r) => {
      const m = `logs/2026/11/30/web-${hex(r, 8)}.log.gz`;
      return [
        "S3 ListObjects NextMarker",
        `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\n  <Name>${r.pick(APPS)}-logs</Name>\n  <Marker>logs/2026/11/29/</Marker>\n  <NextMarker>${m}</NextMarker>\n  <MaxKeys>1000</MaxKeys>\n  <IsTruncated>true</IsTruncated>\n</ListBucketResult>`,
        [m],
      ];
    },
    (r) => {
      const pk = `USER#${uuid(r)}`;
      const sk = `ORDER#2026-11-30T10:${pad(r.int(60))}:00Z#${hex(r, 8)}`;
      return [
        "DynamoDB LastEvaluatedKey",
        shell(
          `aws dynamodb scan --table-name orders --limit 1 --exclusive-start-key '{"pk":{"S":"USER#${uuid(r)}"}}'`,
          JSON.stringify(
            {
              Items: [{ pk: { S: pk }, sk: { S: sk }, total: { N: "42.50" } }],
              Count: 1,
              ScannedCount: 1,
              LastEvaluatedKey: { pk: { S: pk }, sk: { S: sk } },
            },
            null,
            4,
          ),
        ),
        [pk, sk],
      ];
    },
    (r) => {
      const c = base64Of(`user:U0${r.chars(`${UPPER}${DIGITS}`, 8)}`);
      return [
        "Slack next_cursor",
        response(
          r,
          "https://slack.com/api/users.list?limit=2",
          JSON.stringify({
            ok: true,
            members: [{ id: `U0${r.chars(`${UPPER}${DIGITS}`, 8)}`, name: "dana" }],
            response_metadata: { next_cursor: c },
          }),
        ),
        [c],
      ];
    },
    (r) => {
      const ids = [0, 1, 2].map(() => `cus_${r.chars(ALNUM, 14)}`);
      return [
        "Stripe starting_after",
        shell(
          `curl -s https://api.stripe.com/v1/customers -d limit=3 -d starting_after=${ids[0]} -G -u "$STRIPE_KEY:"`,
          json({
            object: "list",
            url: "/v1/customers",
            has_more: true,
            data: ids.slice(1).map((id) => ({ id, object: "customer", email: "dana@example.com" })),
          }),
        ),
        ids,
      ];
    },
    (r) => {
      const c = base64Of(`cursor:v2:${String.fromCharCode(0x91, 0xce)}${r.chars(ALNUM, 4)}`);
      return [
        "GitHub GraphQL endCursor",
        json({
          data: {
            repository: {
              issues: {
                totalCount: r.int(900),
                pageInfo: { endCursor: c, hasNextPage: true },
                nodes: [{ number: r.int(900), title: "Token refresh races" }],
              },
            },
          },
        }),
        [c],
      ];
    },
    (r) => {
      const c = b64urljson({
        v: "meta.k8s.io/v1",
        rv: r.between(100000, 9999999),
        start: `prod/web-${r.int(9)}\u0000`,
      }).replace(/=+$/, "");
      return [
        "Kubernetes continue",
        shell(
          'kubectl get --raw "/api/v1/namespaces/prod/pods?limit=1" | jq .metadata',
          json({
            resourceVersion: String(r.between(100000, 9999999)),
            continue: c,
            remainingItemCount: r.int(40),
          }),
        ),
        [c],
      ];
    },
    (r) => {
      const s = `FGluY2x1ZGVfY29udGV4dF91dWlkDXF1ZXJ5QW5kRmV0Y2gBFk${r.chars(B64URL, 20)}AAAAAAAA${r.chars(ALNUM, 4)}Fk${r.chars(B64URL, 20)}`;
      return [
        "Elasticsearch _scroll_id",
        response(
          r,
          "http://es.internal:9200/logs-*/_search?scroll=1m&size=1",
          json({
            _scroll_id: s,
            took: r.int(90),
            timed_out: false,
            hits: { total: { value: 10000, relation: "gte" }, hits: [] },
          }),
        ),
        [s],
      ];
    },
    (r) => {
      const t = r.chars(ALNUM, 35);
      return [
        "Zoom next_page_token",
        json({
          page_size: 30,
          total_records: r.between(31, 900),
          next_page_token: t,
          meetings: [{ id: Number(digits(r, 11)), topic: "Standup" }],
        }),
        [t],
      ];
    },
    (r) => {
      const page = r.between(2, 9);
      const next = base64Of(`{"page": ${page + 1}}`);
      const prev = base64Of(`{"page": ${page - 1}}`);
      const current = base64Of(`{"page": ${page}}`);
      return [
        "next_page_token / prev_page_token",
        response(
          r,
          `https://api.example.com/v1/invoices?page_token=${current}`,
          json({
            data: [{ id: `inv_${hex(r, 12)}`, amount: r.int(9000) }],
            next_page_token: next,
            prev_page_token: prev,
          }),
        ),
        [current, next, prev],
      ];
    },
    (r) => {
      const t = b64url(r, 120);
      const link = `https://management.azure.com/subscriptions/${uuid(r)}/resources?api-version=2021-04-01&%24skiptoken=${t}`;
      return [
        "Azure nextLink $skiptoken",
        json({
          value: [
            {
              id: `/subscriptions/x/resourceGroups/rg-prod/providers/Microsoft.Web/sites/${r.pick(APPS)}`,
            },
          ],
          nextLink: link,
        }),
        [t],
      ];
    },
    (r) => {
      const c = JSON.stringify({
        token: `-RID:~${b64(r, 6)}AAAAAAAAAA==#RT:1#TRC:10#ISV:2#IEO:65567#QCF:8`,
        range: { min: "", max: "FF" },
      });
      return [
        "Cosmos x-ms-continuation",
        curlVerbose(r, {
          method: "POST",
          url: `https://${r.pick(APPS)}-cosmos.documents.azure.com/dbs/app/colls/orders/docs`,
          response: [
            ["x-ms-continuation", c],
            ["x-ms-request-charge", "2.89"],
          ],
          body: '{"Documents":[],"_count":10}',
        }),
        [c],
      ];
    },
    (r) => {
      const p = b64urljson({
        last_id: Number(digits(r, 13)),
        last_value: "Bike",
        direction: "next",
      });
      return [
        "Shopify page_info",
        response(
          r,
          "https://acme.myshopify.com/admin/api/2026-10/products.json?limit=50",
          '{"products":[]}',
          [
            [
              "link",
              `<https://acme.myshopify.com/admin/api/2026-10/products.json?limit=50&page_info=${p}>; rel="next"`,
            ],
          ],
        ),
        [p],
      ];
    },
    (r) => {
      const t = r.chars(LOWER + DIGITS, 45);
      return [
        "X next_token",
        json({
          data: [{ id: digits(r, 19), text: "deploy done" }],
          meta: { result_count: 10, next_token: t },
        }),
        [t],
      ];
    },
    (r) => {
      const a = b64json({ after: `AQAAAZ${r.chars(B64URL, 40)}` });
      return [
        "Datadog page.after",
        json({ data: [], meta: { page: { after: a }, elapsed: r.int(900), status: "done" } }),
        [a],
      ];
    },
    (r) => {
      const a = encodeURIComponent(base64Of(`${r.int(9000)}\n`));
      return [
        "HubSpot paging.next",
        json({
          results: [],
          paging: {
            next: { after: a, link: `https://api.hubapi.com/crm/v3/objects/contacts?after=${a}` },
          },
        }),
        [a],
      ];
    },
    (r) => {
      const o = `itr${r.chars(ALNUM, 14)}/rec${r.chars(ALNUM, 14)}`;
      return [
        "Airtable offset",
        json({ records: [{ id: `rec${r.chars(ALNUM, 14)}`, fields: { Name: "Q4" } }], offset: o }),
        [o],
      ];
    },
    (r) => {
      const t = `Ch0jU3RyaW5nJl${r.chars(B64, 40)}QMhj${r.chars(B64, 8)}=`;
      return [
        "Jira nextPageToken",
        response(
          r,
          "https://acme.atlassian.net/rest/api/3/search/jql?jql=project%3DWEB&maxResults=1",
          json({
            issues: [{ id: digits(r, 5), key: `WEB-${r.int(900)}` }],
            nextPageToken: t,
            isLast: false,
          }),
        ),
        [t],
      ];
    },
    (r) => {
      const cursors = [0, 1].map((i) => base64Of(`arrayconnection:${20 * r.int(9) + i}`));
      return [
        "Relay cursors",
        json({
          data: {
            users: {
              edges: cursors.map((cursor) => ({ cursor, node: { id: uuid(r) } })),
              pageInfo: { endCursor: cursors[1], hasNextPage: true },
            },
          },
        }),
        cursors,
      ];
    },
    (r) => {
      const t = `CP${r.chars(B64, 18)}EP${r.chars(B64, 5)}GAU=`;
      return [
        "Calendar nextSyncToken",
        json({ kind: "calendar#events", summary: "Ops", nextSyncToken: t, items: [] }),
        [t],
      ];
    },
    (r) => {
      const next = b64url(r, 24);
      const prev = b64url(r, 24);
      return [
        "paginating client log",
        around(r, [
          at(
            r,
            "INFO ",
            `sync: fetched page 7 (100 items) next_page_token=${next} prev_page_token=${prev}`,
          ),
          at(r, "INFO ", `sync: GET /v1/items?page_token=${next}`),
        ]),
        [next, prev],
      ];
    },
    (r) => {
      const t = b64url(r, 48);
      return [
        "HAR response cursor",
        har(r, {
          url: "https://api.example.com/v1/feed?limit=20",
          body: JSON.stringify({ items: [], continuationToken: t }),
        }),
        [t],
      ];
    },
  ],
  26,
);

// ---------------------------------------------------------------------------------------------
// HTTP metadata: ETags, ids, hashes, nonces

const HTTP_METADATA = negative(
  "http_metadata",
  [
    (r) => {
      const etag = hex(r, 32);
      const rid = r.chars(UPPER_HEX, 16);
      const id2 = b64(r, 57);
      return [
        "S3 head-object",
        curlVerbose(r, {
          method: "HEAD",
          url: "https://assets.s3.amazonaws.com/app.js",
          response: [
            ["etag", `"${etag}"`],
            ["x-amz-request-id", rid],
            ["x-amz-id-2", id2],
            ["x-amz-version-id", b64url(r, 24)],
          ],
          body: "",
        }),
        [etag, rid, id2],
      ];
    },
    (r) => {
      const trace = hex(r, 32);
      const span = hex(r, 16);
      return [
        "traceparent",
        curlVerbose(r, {
          url: "https://api.example.com/v1/orders",
          request: [
            ["traceparent", `00-${trace}-${span}-01`],
            ["tracestate", `congo=${b64url(r, 9)},rojo=${hex(r, 16)}`],
          ],
        }),
        [trace, span],
      ];
    },
    (r) => {
      const root = `1-${hex(r, 8)}-${hex(r, 24)}`;
      const parent = hex(r, 16);
      return [
        "X-Amzn-Trace-Id",
        around(r, [
          at(r, "INFO ", `handled GET /v1/cart trace="Root=${root};Parent=${parent};Sampled=1"`),
        ]),
        [root, parent],
      ];
    },
    (r) => {
      const t = `${hex(r, 32)}/${digits(r, 19)};o=1`;
      return [
        "x-cloud-trace-context",
        `> GET /v1/items HTTP/2\n> Host: api.example.com\n> x-cloud-trace-context: ${t}\n> x-b3-traceid: ${hex(r, 32)}\n> x-datadog-trace-id: ${digits(r, 19)}`,
        [t],
      ];
    },
    (r) => {
      const md5 = b64(r, 16);
      const crc = b64(r, 4);
      const sha = b64(r, 32);
      return [
        "content hashes",
        curlVerbose(r, {
          url: "https://storage.googleapis.com/acme-media/intro.mp4",
          response: [
            ["x-goog-hash", `crc32c=${crc}`],
            ["x-goog-hash", `md5=${md5}`],
            ["content-md5", md5],
            ["digest", `sha-256=${sha}`],
            ["x-amz-checksum-sha256", b64(r, 32)],
          ],
          body: "",
        }),
        [md5, sha],
      ];
    },
    (r) => {
      const nonce = b64(r, 16);
      return [
        "CSP nonce",
        `< content-security-policy: script-src 'nonce-${nonce}' 'strict-dynamic'; object-src 'none'; base-uri 'none'\n<!doctype html><html><head><script nonce="${nonce}" src="/static/app-${hex(r, 8)}.js"></script></head>`,
        [nonce],
      ];
    },
    (r) => {
      const key = b64(r, 16);
      const accept = b64(r, 20);
      return [
        "WebSocket handshake",
        `> GET /socket HTTP/1.1\n> Host: rt.example.com\n> Upgrade: websocket\n> Connection: Upgrade\n> Sec-WebSocket-Key: ${key}\n> Sec-WebSocket-Version: 13\n< HTTP/1.1 101 Switching Protocols\n< Upgrade: websocket\n< Sec-WebSocket-Accept: ${accept}`,
        [key, accept],
      ];
    },
    (r) => {
      const challenge = b64url(r, 32);
      const state = b64url(r, 16);
      const nonce = b64url(r, 16);
      return [
        "OIDC authorize URL",
        around(r, [
          at(
            r,
            "INFO ",
            `redirect to https://auth.example.com/authorize?response_type=code&client_id=web&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&scope=openid&state=${state}&nonce=${nonce}&code_challenge=${challenge}&code_challenge_method=S256`,
          ),
        ]),
        [challenge, state, nonce],
      ];
    },
    (r) => {
      const id = `${r.chars(UPPER_HEX, 4)}:${r.chars(UPPER_HEX, 6)}:${r.chars(UPPER_HEX, 7)}:${r.chars(UPPER_HEX, 7)}:${r.chars(UPPER_HEX, 8)}`;
      const cf = `${b64url(r, 40)}==`;
      return [
        "request ids",
        curlVerbose(r, {
          url: "https://api.github.com/repos/acme/web",
          response: [
            ["x-github-request-id", id],
            ["x-ms-request-id", uuid(r)],
            ["apigw-requestid", `${r.chars(ALNUM, 14)}=`],
            ["x-amz-cf-id", cf],
          ],
        }),
        [id, cf],
      ];
    },
    (r) => {
      const etag = `W/"${(r.int(900) + 100).toString(16)}-${b64(r, 20).slice(0, 27)}"`;
      return [
        "weak ETag",
        `< HTTP/1.1 200 OK\n< X-Powered-By: Express\n< ETag: ${etag}\n< Cache-Control: no-cache\n\n> GET /api/config HTTP/1.1\n> If-None-Match: ${etag}\n< HTTP/1.1 304 Not Modified`,
        [etag],
      ];
    },
    (r) => {
      const oid = hex(r, 64);
      return [
        "git lfs pointer",
        shell(
          "git show HEAD:assets/model.bin",
          `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${r.between(1e6, 9e8)}`,
        ),
        [oid],
      ];
    },
    (r) => {
      const trace = hex(r, 32);
      const pub = hex(r, 32);
      return [
        "sentry-trace / baggage",
        `> sentry-trace: ${trace}-${hex(r, 16)}-1\n> baggage: sentry-environment=production,sentry-release=${hex(r, 12)},sentry-public_key=${pub},sentry-trace_id=${trace}`,
        [trace, pub],
      ];
    },
    (r) => {
      const bh = b64(r, 32);
      const b = b64(r, 256);
      return [
        "DKIM-Signature header",
        `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=acme.example; s=s1;\n\th=from:to:subject:date:message-id; bh=${bh};\n\tb=${b}\nFrom: alerts@acme.example`,
        [bh, b],
      ];
    },
    (r) => {
      const spans = [0, 1].map(() => ({ traceId: hex(r, 32), id: hex(r, 16) }));
      return [
        "Zipkin spans",
        json(
          spans.map((s, i) => ({
            ...s,
            name: i ? "db.query" : "GET /v1/items",
            timestamp: 1795900000000000 + r.int(1e6),
            duration: r.int(90000),
          })),
        ),
        spans.flatMap((s) => [s.traceId, s.id]),
      ];
    },
  ],
  16,
);

// ---------------------------------------------------------------------------------------------
// Public keys

const ED25519 = "AAAAC3NzaC1lZDI1NTE5AAAAI";
const PUBLIC_KEYS = negative(
  "public_key_material",
  [
    (r) => {
      const a = `${ED25519}${r.chars(B64, 43)}`;
      const b = `AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB${r.chars(B64, 87)}=`;
      const c = `AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAI${r.chars(B64, 43)}AAAABHNzaDo=`;
      return [
        "authorized_keys with options",
        shell(
          "cat /home/backup/.ssh/authorized_keys",
          `command="/usr/bin/rrsync -ro /srv/backup",no-pty,no-agent-forwarding,no-port-forwarding ssh-ed25519 ${a} backup@nas\nfrom="10.0.0.0/8" ecdsa-sha2-nistp256 ${b} deploy@ci\nsk-ssh-ed25519@openssh.com ${c} dana@yubikey`,
        ),
        [a, b, c],
      ];
    },
    (r) => {
      const keys = [
        `${ED25519}${r.chars(B64, 43)}`,
        `AAAAB3NzaC1yc2EAAAADAQABAAABgQ${r.chars(B64, 510)}`,
      ];
      return [
        "ssh-keyscan",
        shell(
          "ssh-keyscan git.example.com",
          `# git.example.com:22 SSH-2.0-OpenSSH_9.6\ngit.example.com ssh-ed25519 ${keys[0]}\n# git.example.com:22 SSH-2.0-OpenSSH_9.6\ngit.example.com ssh-rsa ${keys[1]}`,
        ),
        keys,
      ];
    },
    (r) => {
      const cert = `AAAAIHNzaC1lZDI1NTE5LWNlcnQtdjAxQG9wZW5zc2guY29t${r.chars(B64, 420)}`;
      return [
        "SSH certificate",
        shell(
          "cat ~/.ssh/id_ed25519-cert.pub",
          `ssh-ed25519-cert-v01@openssh.com ${cert} dana@laptop`,
        ),
        [cert],
      ];
    },
    (r) => {
      const body = `MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE${r.chars(B64, 28)}\n${r.chars(B64, 56)}==`;
      return [
        "EC public key (cosign.pub)",
        shell("cat cosign.pub", `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----`),
        body.split("\n"),
      ];
    },
    (r) => {
      const lines = [
        `MIIBCgKCAQEA${r.chars(B64, 52)}`,
        ...Array.from({ length: 4 }, () => r.chars(B64, 64)),
        `${r.chars(B64, 36)}IDAQAB`,
      ];
      return [
        "RSA PUBLIC KEY (PKCS#1)",
        `-----BEGIN RSA PUBLIC KEY-----\n${lines.join("\n")}\n-----END RSA PUBLIC KEY-----`,
        lines,
      ];
    },
    (r) => {
      const certs = [0, 1].map(() => [
        `MIIF${r.chars(B64, 60)}`,
        ...Array.from({ length: 6 }, () => r.chars(B64, 64)),
        `${r.chars(B64, 40)}`,
      ]);
      return [
        "certificate chain",
        shell(
          "openssl s_client -showcerts -connect api.example.com:443 </dev/null",
          `CONNECTED(00000003)\n---\nCertificate chain\n 0 s:CN = api.example.com\n   i:C = US, O = Let's Encrypt, CN = R11\n-----BEGIN CERTIFICATE-----\n${certs[0].join("\n")}\n-----END CERTIFICATE-----\n 1 s:C = US, O = Let's Encrypt, CN = R11\n   i:C = US, O = Internet Security Research Group, CN = ISRG Root X1\n-----BEGIN CERTIFICATE-----\n${certs[1].join("\n")}\n-----END CERTIFICATE-----\n---`,
        ),
        certs.flat(),
      ];
    },
    (r) => {
      const n = r.chars(B64URL, 342);
      const x = r.chars(B64URL, 43);
      const y = r.chars(B64URL, 43);
      const kid = b64url(r, 16);
      return [
        "JWKS",
        response(
          r,
          "https://auth.example.com/.well-known/jwks.json",
          json({
            keys: [
              { kty: "RSA", use: "sig", alg: "RS256", kid, n, e: "AQAB", x5t: b64url(r, 20) },
              { kty: "EC", use: "sig", alg: "ES256", crv: "P-256", kid: b64url(r, 16), x, y },
              { kty: "OKP", crv: "Ed25519", kid: b64url(r, 16), x: r.chars(B64URL, 43) },
            ],
          }),
        ),
        [n, x, y, kid],
      ];
    },
    (r) => {
      const lines = [
        `mDMEZ${r.chars(B64, 59)}`,
        r.chars(B64, 64),
        r.chars(B64, 64),
        r.chars(B64, 30),
      ];
      return [
        "PGP public key block",
        `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${lines.join("\n")}\n=${r.chars(B64, 4)}\n-----END PGP PUBLIC KEY BLOCK-----`,
        lines,
      ];
    },
    (r) => {
      const keys = [b64(r, 32), b64(r, 32), b64(r, 32)];
      return [
        "wg show",
        shell(
          "sudo wg show",
          `interface: wg0\n  public key: ${keys[0]}\n  private key: (hidden)\n  listening port: 51820\n\npeer: ${keys[1]}\n  endpoint: ${ip(r)}:51820\n  allowed ips: 10.8.0.2/32\n  latest handshake: 1 minute, 12 seconds ago\n\npeer: ${keys[2]}\n  allowed ips: 10.8.0.3/32`,
        ),
        keys,
      ];
    },
    (r) => {
      const mini = `RWQ${r.chars(B64, 53)}`;
      const age = [0, 1].map(() => `age1${r.chars(BECH32, 58)}`);
      return [
        "minisign and age recipients",
        `$ cat minisign.pub\nuntrusted comment: minisign public key ${r.chars(UPPER_HEX, 16)}\n${mini}\n$ cat .sops.yaml\ncreation_rules:\n  - path_regex: secrets/.*\\.yaml$\n    age: ${age.join(",")}`,
        [mini, ...age],
      ];
    },
    (r) => {
      const p = `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${r.chars(B64, 348)}IDAQAB`;
      return [
        "DKIM DNS record",
        shell("dig +short TXT s1._domainkey.acme.example", `"v=DKIM1; k=rsa; p=${p}"`),
        [p],
      ];
    },
    (r) => {
      const rows = Array.from(
        { length: 6 },
        () => `                    ${Array.from({ length: 15 }, () => hex(r, 2)).join(":")}:`,
      );
      return [
        "x509 modulus dump",
        shell(
          "openssl x509 -in web.crt -noout -text | sed -n 14,21p",
          `            Public Key Algorithm: rsaEncryption\n                Public-Key: (2048 bit)\n                Modulus:\n${rows.join("\n")}\n                Exponent: 65537 (0x10001)`,
        ),
        rows.map((l) => l.trim()),
      ];
    },
    (r) => {
      const ca = base64Of(
        `-----BEGIN CERTIFICATE-----\n${r.chars(B64, 64)}\n${r.chars(B64, 64)}\n-----END CERTIFICATE-----\n`,
      );
      return [
        "kubeconfig CA data",
        shell(
          "kubectl config view --raw --minify",
          `apiVersion: v1\nclusters:\n- cluster:\n    certificate-authority-data: ${ca}\n    server: https://${hex(r, 32).toUpperCase()}.gr7.us-east-1.eks.amazonaws.com\n  name: prod\nusers:\n- name: prod\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [eks, get-token, --cluster-name, prod]`,
        ),
        [ca],
      ];
    },
    (r) => {
      const fps = [0, 1].map(() => r.chars(UPPER_HEX, 40));
      return [
        "gpg --list-keys",
        shell(
          "gpg --list-keys --with-colons release@acme.example | grep fpr",
          fps.map((f) => `fpr:::::::::${f}:`).join("\n"),
        ),
        fps,
      ];
    },
  ],
  16,
);

// ---------------------------------------------------------------------------------------------
// Placeholders: a real prefix and one repeated character

const X = (n, c = "X") => c.repeat(n);
const PLACEHOLDER_SETS = [
  [
    ["AWS_ACCESS_KEY_ID", `AKIA${X(16)}`],
    ["AWS_SECRET_ACCESS_KEY", X(40)],
    ["GITHUB_TOKEN", `ghp_${X(36, "x")}`],
    ["GITLAB_TOKEN", `glpat-${X(20, "x")}`],
    ["SLACK_BOT_TOKEN", `xoxb-${X(12, "0")}-${X(13, "0")}-${X(24, "x")}`],
  ],
  [
    ["STRIPE_SECRET_KEY", `sk_live_${X(24, "0")}`],
    ["OPENAI_API_KEY", `sk-proj-${X(48)}`],
    ["ANTHROPIC_API_KEY", `sk-ant-api03-${X(95, "x")}`],
    ["GOOGLE_MAPS_API_KEY", `AIza${X(35)}`],
    ["HF_TOKEN", `hf_${X(34, "x")}`],
  ],
  [
    ["NPM_TOKEN", `npm_${X(36, "x")}`],
    ["SENDGRID_API_KEY", `SG.${X(22, "x")}.${X(43, "x")}`],
    ["DIGITALOCEAN_ACCESS_TOKEN", `dop_v1_${X(64, "0")}`],
    ["LINEAR_API_KEY", `lin_api_${X(40, "x")}`],
    ["POSTMAN_API_KEY", `PMAK-${X(24)}-${X(34)}`],
  ],
  [
    ["PULUMI_ACCESS_TOKEN", `pul-${X(40, "0")}`],
    ["VAULT_TOKEN", `hvs.${X(24)}`],
    ["SRC_ACCESS_TOKEN", `sgp_${X(40, "0")}`],
    ["SONAR_TOKEN", `squ_${X(40, "0")}`],
    ["GRAFANA_SERVICE_ACCOUNT_TOKEN", `glsa_${X(32, "x")}_${X(8, "0")}`],
  ],
  [
    ["DATABRICKS_TOKEN", `dapi${X(32, "0")}`],
    ["SUPABASE_ACCESS_TOKEN", `sbp_${X(40, "0")}`],
    ["GROQ_API_KEY", `gsk_${X(52, "x")}`],
    ["BREVO_API_KEY", `xkeysib-${X(64, "x")}-${X(16, "x")}`],
    ["TS_AUTHKEY", `tskey-auth-${X(40)}`],
  ],
  [
    ["FLY_API_TOKEN", `fo1_${X(43, "x")}`],
    ["OP_SECRET_KEY", "A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX"],
    ["OP_ACCOUNT_KEY", "A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX"],
    ["MAILGUN_API_KEY", `key-${X(32, "0")}`],
    ["SHOPIFY_ACCESS_TOKEN", `shpat_${X(32, "x")}`],
  ],
  [
    ["DOCKERHUB_TOKEN", `dckr_pat_${X(27, "x")}`],
    ["TWILIO_API_KEY", `SK${X(32, "x")}`],
    ["AWS_BEARER_TOKEN_BEDROCK", `bedrock-api-key-${X(120)}`],
    ["SLACK_WEBHOOK_URL", `https://hooks.slack.com/services/T${X(8)}/B${X(8)}/${X(24)}`],
    ["MAXMIND_LICENSE_KEY", `${X(36)}_mmk`],
  ],
];

const placeholderText = (carrier, pairs) => {
  switch (carrier) {
    case ".env.example":
      return `# Copy to .env and fill in\n${pairs.map(([k, v]) => `${k}=${v}`).join("\n")}\n`;
    case "README snippet":
      return `## Configuration\n\nSet the credentials before the first run:\n\n\`\`\`sh\n${pairs.map(([k, v]) => `export ${k}=${v}`).join("\n")}\n\`\`\``;
    case "compose example":
      return `services:\n  app:\n    image: acme/app:latest\n    environment:\n${pairs.map(([k, v]) => `      ${k}: ${v}`).join("\n")}`;
    case "JSON template":
      return json({ $schema: "./config.schema.json", credentials: Object.fromEntries(pairs) });
    default:
      return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-credentials-template\ntype: Opaque\nstringData:\n${pairs.map(([k, v]) => `  ${k}: "${v}"`).join("\n")}`;
  }
};

const PLACEHOLDER_CARRIERS = [
  ".env.example",
  "README snippet",
  "compose example",
  "JSON template",
  "Secret template",
];
const PLACEHOLDERS = negative(
  "placeholder_prefix",
  PLACEHOLDER_SETS.flatMap((pairs, i) =>
    [0, 1].map((j) => () => {
      const carrier = PLACEHOLDER_CARRIERS[(i + j * 2) % PLACEHOLDER_CARRIERS.length];
      return [carrier, placeholderText(carrier, pairs), pairs.map(([, v]) => v)];
    }),
  ),
  14,
);

// ---------------------------------------------------------------------------------------------
// Documented examples (the vendors' and the RFCs' own sample values)

const DOCUMENTED = negative(
  "documented_example",
  [
    () => [
      "AWS docs snippet",
      "## Configure the CLI\n\n```\n$ aws configure\nAWS Access Key ID [None]: AKIAIOSFODNN7EXAMPLE\nAWS Secret Access Key [None]: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nDefault region name [None]: us-west-2\nDefault output format [None]: json\n```",
      ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
    ],
    () => [
      "Kubernetes docs Secret",
      "Create the Secret from this manifest:\n\n```yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: mysecret\ntype: Opaque\ndata:\n  username: YWRtaW4=\n  password: MWYyZDFlMmU2N2Rm\n```",
      ["YWRtaW4=", "MWYyZDFlMmU2N2Rm"],
    ],
    () => [
      "RFC 7617 example",
      "   the user agent would send the following header field:\n\n      Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
      ["QWxhZGRpbjpvcGVuIHNlc2FtZQ=="],
    ],
    () => [
      "RFC 4616 example",
      '   Here is an example of how this mechanism might be used:\n\n      S: * ACAP (SASL "CRAM-MD5") (STARTTLS)\n      C: a002 AUTHENTICATE "PLAIN" {20+}\n      C: AHRpbQB0YW5zdGFhZnRhbnN0YWFm\n      S: a002 OK "Authenticated"',
      ["AHRpbQB0YW5zdGFhZnRhbnN0YWFm"],
    ],
    () => [
      "RFC 6749 token response",
      '     HTTP/1.1 200 OK\n     Content-Type: application/json;charset=UTF-8\n\n     {\n       "access_token":"2YotnFZFEjr1zCsicMWpAA",\n       "token_type":"example",\n       "expires_in":3600,\n       "refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA",\n       "example_parameter":"example_value"\n     }',
      ["2YotnFZFEjr1zCsicMWpAA", "tGzv3JOkF0XG5Qx2TlKWIA"],
    ],
    () => [
      "RFC 6750 example",
      "     GET /resource HTTP/1.1\n     Host: server.example.com\n     Authorization: Bearer mF_9.B5f-4.1JqM",
      ["mF_9.B5f-4.1JqM"],
    ],
    () => [
      "jwt.io example",
      "// Paste a token to decode it, e.g. the default one:\n// eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
      [
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
      ],
    ],
    () => [
      "Slack docs placeholder",
      'client = WebClient(token="xoxb-not-a-real-token-this-will-not-work")',
      ["xoxb-not-a-real-token-this-will-not-work"],
    ],
    () => [
      "connection string docs",
      "Connect with a URI of the form:\n\n    postgresql://username:password@localhost:5432/mydb\n    mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin",
      ["D1fficultP%40ssw0rd"],
    ],
  ],
  9,
);

// ---------------------------------------------------------------------------------------------
// Fake keys in prose, and keys the provider masked

const FAKE_IN_PROSE = negative(
  "fake_in_prose",
  [
    () => [
      "docs prose",
      "Personal access tokens start with `ghp_` and are 40 characters long; fine-grained ones start with `github_pat_`.",
      [],
    ],
    () => [
      "README",
      "Before running, set `OPENAI_API_KEY=sk-...` (your key) and `ANTHROPIC_API_KEY=sk-ant-your-key-here`.",
      ["sk-ant-your-key-here"],
    ],
    () => [
      "README angle brackets",
      "export VAULT_TOKEN=hvs.<your-token>\nexport LINEAR_API_KEY=lin_api_<your-key>\nexport SRC_ACCESS_TOKEN=sgp_<token>",
      [],
    ],
    () => [
      "sequential fake",
      "For example, a token looks like `ghp_1234567890abcdefghijklmnopqrstuvwxyz` and a key ID like `AKIA1234567890ABCDEF`.",
      ["ghp_1234567890abcdefghijklmnopqrstuvwxyz", "AKIA1234567890ABCDEF"],
    ],
    () => [
      "Stripe masked key",
      "stripe.error.AuthenticationError: Invalid API Key provided: sk_live_********************Xy3Q",
      ["sk_live_********************Xy3Q"],
    ],
    () => [
      "OpenAI masked key",
      "openai.AuthenticationError: Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-proj-********************************************************************************************************************************************************tQ9A. You can find your API key at https://platform.openai.com/account/api-keys.', 'type': 'invalid_request_error', 'code': 'invalid_api_key'}}",
      [
        "sk-proj-********************************************************************************************************************************************************tQ9A",
      ],
    ],
    () => [
      "GitHub alert email",
      "We found a GitHub personal access token (ghp_…8kQ2) in a public commit to acme/web. The token has been revoked.",
      [],
    ],
    () => [
      "CLI help",
      "  --token string   API token (looks like dop_v1_ followed by 64 hex digits)\n  --key string     license key, e.g. XXXXXX_XXXXXXXX_mmk",
      [],
    ],
    () => [
      "Slack placeholder",
      "Use a bot token (`xoxb-your-bot-token`) from the OAuth & Permissions page.",
      ["xoxb-your-bot-token"],
    ],
    () => [
      "dotted placeholder",
      "Then run: databricks configure --token   # paste dapi... when asked",
      [],
    ],
  ],
  10,
);

// ---------------------------------------------------------------------------------------------
// Public values in Kubernetes Secrets, and publishable client keys

const K8S_PUBLIC = negative(
  "k8s_public_data",
  [
    (r) => {
      const ca = base64Of(
        `-----BEGIN CERTIFICATE-----\nMIIDBTCCAe2gAwIBAgII${r.chars(B64, 44)}\n${Array.from({ length: 10 }, () => r.chars(B64, 64)).join("\n")}\n-----END CERTIFICATE-----\n`,
      );
      return [
        "jsonpath ca.crt",
        shell("kubectl get secret deployer-token -o jsonpath='{.data.ca\\.crt}'", ca),
        [ca],
      ];
    },
    (r) => {
      const ns = base64Of(r.pick(["payments", "production", "observability"]));
      return [
        "jsonpath namespace",
        shell("kubectl get secret deployer-token -o jsonpath='{.data.namespace}'", ns),
        [ns],
      ];
    },
    (r) => {
      const enc = [0, 1].map(() => `AgB${r.chars(B64, 680)}`);
      return [
        "SealedSecret",
        shell(
          "cat deploy/sealed-db.yaml",
          `apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: db-credentials\n  namespace: prod\nspec:\n  encryptedData:\n    password: ${enc[0]}\n    username: ${enc[1]}\n  template:\n    metadata:\n      name: db-credentials`,
        ),
        enc,
      ];
    },
    (r) => [
      "empty Secret",
      shell(
        "kubectl get secret placeholder -o yaml",
        `apiVersion: v1\nkind: Secret\nmetadata:\n  creationTimestamp: "2026-11-30T10:00:00Z"\n  name: placeholder\n  namespace: prod\n  uid: ${uuid(r)}\ntype: Opaque`,
      ),
      [],
    ],
    (r) => {
      const body = [
        `MIIDBTCCAe2gAwIBAgII${r.chars(B64, 44)}`,
        ...Array.from({ length: 8 }, () => r.chars(B64, 64)),
      ];
      return [
        "kube-root-ca.crt ConfigMap",
        shell(
          "kubectl get cm kube-root-ca.crt -o yaml",
          `apiVersion: v1\ndata:\n  ca.crt: |\n    -----BEGIN CERTIFICATE-----\n${body.map((l) => `    ${l}`).join("\n")}\n    -----END CERTIFICATE-----\nkind: ConfigMap\nmetadata:\n  name: kube-root-ca.crt\n  namespace: prod`,
        ),
        body,
      ];
    },
    (r) => {
      const crt = base64Of(
        `-----BEGIN CERTIFICATE-----\n${Array.from({ length: 12 }, () => r.chars(B64, 64)).join("\n")}\n-----END CERTIFICATE-----\n`,
      );
      return [
        "jsonpath tls.crt",
        shell("kubectl get secret web-tls -o jsonpath='{.data.tls\\.crt}'", crt),
        [crt],
      ];
    },
  ],
  6,
);

const PUBLIC_CLIENT_KEYS = negative(
  "public_client_key",
  [
    (r) => {
      const pk = `pk_live_${r.chars(ALNUM, 99)}`;
      return [
        "Stripe.js init",
        `<script src="https://js.stripe.com/v3/"></script>\n<script>\n  const stripe = Stripe("${pk}");\n  const elements = stripe.elements();\n</script>`,
        [pk],
      ];
    },
    (r) => {
      const t = `pk.${b64urljson({ u: `acme-${r.pick(APPS)}`, a: r.chars(LOWER + DIGITS, 25) }).replace(/=+$/, "")}.${r.chars(B64URL, 22)}`;
      return [
        "Mapbox public token",
        `mapboxgl.accessToken = '${t}';\nconst map = new mapboxgl.Map({ container: 'map', style: 'mapbox://styles/mapbox/streets-v12' });`,
        [t],
      ];
    },
    (r) => {
      const k = `phc_${r.chars(ALNUM, 43)}`;
      return [
        "PostHog snippet",
        `posthog.init('${k}', { api_host: 'https://us.i.posthog.com', person_profiles: 'identified_only' })`,
        [k],
      ];
    },
    (r) => {
      const key = hex(r, 32);
      return [
        "Sentry DSN",
        `Sentry.init({\n  dsn: "https://${key}@o${digits(r, 6)}.ingest.us.sentry.io/${digits(r, 7)}",\n  tracesSampleRate: 0.1,\n});`,
        [key],
      ];
    },
    (r) => {
      const k = `6L${r.chars(B64URL, 38)}`;
      return ["reCAPTCHA site key", `<div class="g-recaptcha" data-sitekey="${k}"></div>`, [k]];
    },
    (r) => {
      const pk = `pk_live_${r.chars(ALNUM, 24)}`;
      const ph = `phc_${r.chars(ALNUM, 43)}`;
      return [
        "NEXT_PUBLIC_ env",
        `NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=${pk}\nNEXT_PUBLIC_POSTHOG_KEY=${ph}\nNEXT_PUBLIC_APP_URL=https://app.example.com\n`,
        [pk, ph],
      ];
    },
  ],
  6,
);

// ---------------------------------------------------------------------------------------------
// URLs whose token-like parameters are not secrets

const QUERY_LOOKALIKES = negative(
  "query_lookalike",
  [
    (r) => {
      const v = b64url(r, 24);
      return [
        "S3 versionId",
        `${ip(r)} - - [30/Nov/2026:10:${pad(r.int(60))}:00 +0000] "GET /assets/app.js?versionId=${v} HTTP/1.1" 200 48211`,
        [v],
      ];
    },
    (r) => {
      const p = b64urljson({ offset: 100 * r.between(1, 9), sort: "created" }).replace(/=+$/, "");
      return [
        "page_token in URL",
        around(r, [
          at(r, "INFO ", `GET https://api.example.com/v1/orders?page_token=${p}&limit=100 200`),
        ]),
        [p],
      ];
    },
    (r) => {
      const state = b64url(r, 24);
      const challenge = b64url(r, 32);
      return [
        "OAuth authorize in HAR",
        har(r, {
          url: `https://github.com/login/oauth/authorize?client_id=Iv1.${hex(r, 16)}&state=${state}&code_challenge=${challenge}&code_challenge_method=S256`,
        }),
        [state, challenge],
      ];
    },
    (r) => {
      const v = hex(r, 40);
      return [
        "cache-busting hashes",
        `<link rel="stylesheet" href="/static/app.css?v=${hex(r, 8)}">\n<script src="https://cdn.example.com/lib.js?sha=${v}"></script>`,
        [v],
      ];
    },
    (r) => {
      const c = b64url(r, 32);
      return [
        "cursor / continuation",
        `curl -s "https://api.example.com/v1/events?cursor=${c}&continuation=true&limit=50"`,
        [c],
      ];
    },
    (r) => {
      const sig = hex(r, 64);
      return [
        "public image proxy signature",
        `<img src="https://images.example.com/insecure/rs:fit:300:300/${b64url(r, 30)}.jpg">\n<img src="https://camo.githubusercontent.com/${sig}/${hex(r, 60)}">`,
        [sig],
      ];
    },
  ],
  6,
);

export const NEGATIVES = [
  PAGINATION,
  HTTP_METADATA,
  PUBLIC_KEYS,
  PLACEHOLDERS,
  DOCUMENTED,
  FAKE_IN_PROSE,
  K8S_PUBLIC,
  PUBLIC_CLIENT_KEYS,
  QUERY_LOOKALIKES,
];
