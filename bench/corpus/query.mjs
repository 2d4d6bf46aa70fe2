/**
 * Secrets in URL query strings (and one fragment): `?token=`, `&access_token=`, Azure SAS `sig=`,
 * S3 presigned URLs (`X-Amz-Credential`, `X-Amz-Security-Token`, `X-Amz-Signature`), GCS V4
 * signed URLs (`X-Goog-Signature`), `api_key=`/`apikey=`/`appid=`/`key=`, `client_secret=`,
 * `auth=`, `secret=`, `password=`, `jwt=` and an implicit-flow `#access_token=`.
 *
 * Labels are the values as they stand in the URL (percent-encoded where the URL encodes them);
 * a HAR export also lists the decoded value in `queryString`, which is labelled too. Benign
 * parameters beside them (a page token, a request id, an OAuth `state`) are labelled look-alikes.
 */
import { Buffer } from "node:buffer";
import { har } from "./carriers.mjs";
import {
  ALNUM,
  APPS,
  around,
  at,
  B64,
  BASE32,
  b64,
  checksummed,
  clock,
  curlVerbose,
  digits,
  hex,
  ip,
  jwt,
  LOG,
  pad,
  positive,
  pythonTrace,
  REGIONS,
  shell,
  urlPassword,
  uuid,
} from "./kit.mjs";

const enc = encodeURIComponent;
const pageToken = (r) =>
  Buffer.from(JSON.stringify({ offset: 50 * r.between(1, 40) })).toString("base64url");

/** A URL with secrets in its query, what is labelled, and the benign values beside them. */
function secretUrl(r) {
  const app = r.pick(APPS);
  switch (r.int(14)) {
    case 0: {
      const v = hex(r, 32);
      return {
        url: `https://ci.example.com/job/${app}-deploy/buildWithParameters?token=${v}&cause=push`,
        secrets: [v],
      };
    }
    case 1: {
      const v = jwt(r);
      const id = uuid(r);
      return {
        url: `https://api.example.com/v1/me/orders?request_id=${id}&access_token=${v}`,
        secrets: [v],
        lookalikes: [id],
      };
    }
    case 2: {
      const v = enc(b64(r, 32));
      return {
        url: `https://${app}store.blob.core.windows.net/backups/db-20261130.bak?sv=2024-11-04&ss=bfqt&srt=sco&sp=rl&se=2026-12-01T10:00:00Z&st=2026-11-30T10:00:00Z&spr=https&sig=${v}`,
        secrets: [v],
        tool: (url) =>
          shell(
            `az storage container generate-sas -n backups --account-name ${app}store --permissions rl --expiry 2026-12-01T10:00Z -o tsv`,
            url.split("?")[1],
          ),
      };
    }
    case 3: {
      const key = `ASIA${r.chars(BASE32, 16)}`;
      const session = enc(`IQoJb3JpZ2luX2Vj${r.chars(B64, 380)}`);
      const sig = hex(r, 64);
      return {
        url: `https://${app}-exports.s3.${r.pick(REGIONS)}.amazonaws.com/reports/2026-11.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${key}%2F20261130%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261130T101500Z&X-Amz-Expires=3600&X-Amz-Security-Token=${session}&X-Amz-Signature=${sig}&X-Amz-SignedHeaders=host`,
        secrets: [key, session, sig],
        tool: (url) =>
          shell(`aws s3 presign s3://${app}-exports/reports/2026-11.csv --expires-in 3600`, url),
      };
    }
    case 4: {
      const sig = hex(r, 512);
      const email = `signer@${app}-prod.iam.gserviceaccount.com`;
      return {
        url: `https://storage.googleapis.com/${app}-media/videos/intro.mp4?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=${enc(email)}%2F20261130%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261130T101500Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=${sig}`,
        secrets: [sig],
        tool: (url) =>
          shell(
            `gsutil signurl -d 15m key.json gs://${app}-media/videos/intro.mp4`,
            `URL\tHTTP Method\tExpiration\tSigned URL\ngs://${app}-media/videos/intro.mp4\tGET\t2026-11-30 10:30:00\t${url}`,
          ),
      };
    }
    case 5: {
      const v = hex(r, 32);
      return {
        url: `https://api.openweathermap.org/data/2.5/weather?q=Berlin&units=metric&appid=${v}`,
        secrets: [v],
      };
    }
    case 6: {
      const v = uuid(r);
      const p = pageToken(r);
      return {
        url: `https://api.example.com/v1/export?apikey=${v}&page_token=${p}&format=json`,
        secrets: [v],
        lookalikes: [p],
      };
    }
    case 7: {
      const v = r.chars(ALNUM, 40);
      return {
        url: `https://api.nasa.gov/planetary/apod?date=2026-11-30&api_key=${v}`,
        secrets: [v],
      };
    }
    case 8: {
      const v = enc(r.chars(`${ALNUM}-_.~`, r.between(32, 48)));
      return {
        url: `https://login.example.com/oauth/token?grant_type=client_credentials&client_id=${app}-worker&client_secret=${v}`,
        secrets: [v],
      };
    }
    case 9: {
      const v = r.chars(ALNUM, 40);
      return {
        url: `https://${app}-default-rtdb.firebaseio.com/users/${digits(r, 6)}.json?auth=${v}`,
        secrets: [v],
      };
    }
    case 10: {
      const v = hex(r, 40);
      return { url: `https://deploy.example.com/hooks/${app}?secret=${v}&ref=main`, secrets: [v] };
    }
    case 11: {
      const v = enc(urlPassword(r));
      return { url: `http://${ip(r)}/cgi-bin/luci?username=root&password=${v}`, secrets: [v] };
    }
    case 12: {
      const v = checksummed(r, "gho_");
      const state = r.chars(ALNUM, 16);
      return {
        url: `https://app.example.com/oauth/callback#access_token=${v}&token_type=bearer&state=${state}`,
        secrets: [v],
        lookalikes: [state],
      };
    }
    default: {
      const v = jwt(r);
      return { url: `https://rt.example.com/socket/websocket?vsn=2.0.0&jwt=${v}`, secrets: [v] };
    }
  }
}

const pathOf = (url) => url.replace(/^[a-z]+:\/\/[^/]+/, "");

const form = (carrier, file, make) => (r, q) => {
  const made = make(r, q);
  return {
    carrier,
    file,
    secrets: q.secrets,
    ...(q.lookalikes ? { lookalikes: q.lookalikes } : {}),
    ...made,
  };
};

/** The app log line a URL shows up in when a carrier cannot hold it (a fragment never reaches a server). */
const appLog = (r, q) => ({ text: around(r, [at(r, "INFO ", `redirecting client to ${q.url}`)]) });

/** A carrier of the request the server sees: falls back to the app log for a fragment URL. */
const served = (make) => (r, q) => (q.url.includes("#") ? appLog(r, q) : make(r, q));

const QUERY_FORMS = [
  form(
    "nginx access log",
    LOG,
    served((r, q) => ({
      text: around(r, [
        `${ip(r)} - - [30/Nov/2026:10:${pad(r.int(60))}:${pad(r.int(60))} +0000] "GET ${pathOf(q.url)} HTTP/1.1" 200 ${r.int(90000)} "-" "Mozilla/5.0"`,
      ]),
    })),
  ),
  form(
    "ALB access log",
    LOG,
    served((r, q) => ({
      text: `h2 ${clock(r)} app/${r.pick(APPS)}-alb/${hex(r, 16)} ${ip(r)}:${r.between(1024, 65000)} ${ip(r)}:8080 0.001 0.0${r.int(90)} 0.000 200 200 ${r.int(900)} ${r.int(90000)} "GET https://${new URL(q.url).host}:443${pathOf(q.url)} HTTP/2.0" "Mozilla/5.0" TLS_AES_128_GCM_SHA256 TLSv1.3 arn:aws:elasticloadbalancing:us-east-1:${digits(r, 12)}:targetgroup/web/${hex(r, 16)} "Root=1-${hex(r, 8)}-${hex(r, 24)}"`,
    })),
  ),
  form(
    "HAR",
    "trace.har",
    served((r, q) => {
      const text = har(r, { url: q.url });
      const decoded = q.secrets.map((s) => decodeURIComponent(s));
      return { text, secrets: [...new Set([...q.secrets, ...decoded])] };
    }),
  ),
  form(
    "curl -v",
    LOG,
    served((r, q) => ({ text: shell(`curl -sv "${q.url}"`, curlVerbose(r, { url: q.url })) })),
  ),
  form("browser console", LOG, (_r, q) => ({
    text: `Fetch failed loading: GET "${q.url}".\nUncaught (in promise) TypeError: Failed to fetch\n    at loadPage (app-3f9a1c.js:1:20418)`,
  })),
  form("Python traceback", LOG, (r, q) => ({
    text: pythonTrace(
      r,
      [["/app/sync.py", "fetch", "resp.raise_for_status()"]],
      `requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: ${q.url}`,
    ),
  })),
  form("Java exception", LOG, (r, q) => ({
    text: `${clock(r)} ERROR [pool-2-thread-1] c.a.sync.Fetcher - download failed\njava.io.IOException: Server returned HTTP response code: 403 for URL: ${q.url}\n\tat java.base/sun.net.www.protocol.http.HttpURLConnection.getInputStream0(HttpURLConnection.java:2000)\n\tat com.acme.sync.Fetcher.fetch(Fetcher.java:${r.between(40, 200)})`,
  })),
  form("Go error", LOG, (r, q) => ({
    text: around(r, [
      at(
        r,
        "ERROR",
        `sync: Get "${q.url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
      ),
    ]),
  })),
  form("wget", LOG, (r, q) => ({
    text: `$ wget -q --show-progress "${q.url}"\n--2026-11-30 10:${pad(r.int(60))}:${pad(r.int(60))}--  ${q.url}\nResolving ${new URL(q.url).hostname}... ${ip(r)}\nHTTP request sent, awaiting response... 200 OK`,
  })),
  form("tool output", LOG, (r, q) => (q.tool ? { text: q.tool(q.url) } : appLog(r, q))),
];

export const POSITIVES = [positive("query_param_secret", secretUrl, QUERY_FORMS, 30)];
