/**
 * A line's own time (src/pipeline/timestamps.ts), one fixture per layout the summary reads, each a
 * line as a real log writes it, in node, chromium and workerd; the negative controls: numbers
 * that are not times at a line's start, and times inside a line. (test/node/timestamps.test.ts
 * reads every line of the five public logs against their structured CSVs.)
 */
import { describe, expect, it } from "vitest";
import { timeOf } from "../../src/pipeline/timestamps.js";

const FIXTURES: ReadonlyArray<readonly [string, string, string]> = [
  ["ISO 8601, UTC", "2026-12-06T10:31:07Z GET /healthz 200", "2026-12-06T10:31:07Z"],
  [
    "RFC 3339, fraction and offset",
    "2026-12-06T10:31:07.123456+02:00 INFO started",
    "2026-12-06T10:31:07.123456+02:00",
  ],
  [
    "log4j yyyy-MM-dd HH:mm:ss,SSS",
    "2026-12-06 10:31:07,123 ERROR [main] o.a.Foo - boom",
    "2026-12-06 10:31:07,123",
  ],
  ["syslog MMM dd HH:mm:ss", "Dec  6 10:31:07 web01 sshd[812]: Accepted", "Dec  6 10:31:07"],
  ["syslog with a year", "Dec 06 2026 10:31:07 web01 cron[9]: run", "Dec 06 2026 10:31:07"],
  ["syslog RFC 5424", "<34>1 2026-12-06T10:31:07Z web01 su - - -", "2026-12-06T10:31:07Z"],
  [
    "Apache [Sun Dec 04 04:47:44 2005]",
    "[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6",
    "Sun Dec 04 04:47:44 2005",
  ],
  [
    "Spark yy/MM/dd HH:mm:ss",
    "17/06/09 20:10:40 INFO spark.SecurityManager: Changing view acls",
    "17/06/09 20:10:40",
  ],
  ["yyyy/MM/dd HH:mm:ss", "2026/12/06 10:31:07 [warn] 12#0: upstream", "2026/12/06 10:31:07"],
  [
    "yyyyMMdd-HH:mm:ss:SSS",
    "20171223-22:15:29:606|Step_LSC|30002312|onStandStepChanged 3579",
    "20171223-22:15:29:606",
  ],
  ["Common Log Format", "06/Dec/2026:10:31:07 +0000 GET /index.html", "06/Dec/2026:10:31:07 +0000"],
  [
    "an access log, past its client",
    '127.0.0.1 - frank [06/Dec/2026:10:31:07 +0000] "GET / HTTP/1.1" 500 2326',
    "06/Dec/2026:10:31:07 +0000",
  ],
  ["epoch seconds", "1765017067 worker=3 job done", "1765017067"],
  ["epoch milliseconds", "1765017067123 worker=3 job done", "1765017067123"],
  ["epoch seconds with a fraction", "1765017067.123 worker=3", "1765017067.123"],
  ["after a level word", "ERROR 2026-12-06 10:31:07 disk full", "2026-12-06 10:31:07"],
  [
    "Windows CBS",
    "2016-09-28 04:30:30, Info                  CBS    Loaded Servicing Stack",
    "2016-09-28 04:30:30",
  ],
  [
    "macOS",
    "Jul  1 09:00:55 calvisitor-10-105-160-95 kernel[0]: IOThunderboltSwitch",
    "Jul  1 09:00:55",
  ],
];

describe("timeOf", () => {
  for (const [layout, line, time] of FIXTURES) {
    it(`reads ${layout}`, () => {
      expect(timeOf(line)).toBe(time);
    });
  }

  it("reads no time where a line has none at its start (negative controls)", () => {
    for (const line of [
      "1.2.3 released on 2026-12-06",
      "12345 lines written",
      "9999999999 bytes",
      "GET /v1/items at 2026-12-06T10:31:07Z",
      "v2026-12-06 tag",
      "Error: boom",
      "",
      "2026-13",
      "12:30 lunch",
    ]) {
      expect(timeOf(line), line).toBeUndefined();
    }
  });
});
