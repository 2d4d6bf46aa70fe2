/**
 * A line's own time, as the line wrote it: the timestamp a log line starts with (after a `[`,
 * a syslog `<PRI>` and version, or a level word), in the layouts logs use. Only the text is
 * taken, never a parsed value: the summary says when, in the input's own words.
 *
 *   2026-12-06T10:31:07.001Z, 2026-12-06 10:31:07,123 +02:00   ISO 8601 / RFC 3339, and log4j's
 *   Dec  6 10:31:07, Dec 06 2026 10:31:07                      syslog (BSD), with a year
 *   Sun Dec 04 04:47:44 2005                                   Apache, ctime
 *   17/06/09 20:10:40, 2017/06/09 20:10:40                     yy/MM/dd (Spark), yyyy/MM/dd
 *   20171223-22:15:29:606                                      yyyyMMdd-HH:mm:ss:SSS
 *   06/Dec/2026:10:31:07 +0000                                 Common Log Format (also past
 *                                                              its client: `1.2.3.4 - - [06/Dec/…]`)
 *   1765017067, 1765017067123, 1765017067.123                  epoch seconds and milliseconds
 */

const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const CLOCK = "\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?";
const ZONE = "(?: ?(?:Z|[+-]\\d{2}:?\\d{2}|UTC|GMT))?";

const LAYOUTS = [
  // ISO 8601 / RFC 3339 (a date, T or a space, a clock); log4j's comma before the milliseconds.
  `\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d{1,9})?)?${ZONE}`,
  `${DAY} ${MONTH} [ \\d]\\d ${CLOCK} \\d{4}`,
  `${MONTH} [ \\d]\\d(?: \\d{4})? ${CLOCK}`,
  `\\d{4}/\\d{2}/\\d{2}[ T]${CLOCK}`,
  `\\d{2}/\\d{2}/\\d{2} ${CLOCK}`,
  `\\d{8}-\\d{2}:\\d{2}:\\d{2}:\\d{3}`,
  `\\d{2}/${MONTH}/\\d{4}:${CLOCK}(?: [+-]\\d{4})?`,
  // Epoch seconds (2001 to 2286) and milliseconds, with a fraction.
  "1\\d{9}(?:\\d{3}|\\.\\d{1,6})?(?![\\d.])",
].join("|");

/**
 * Where a timestamp may start: the line's start, after a `[`, a syslog `<PRI>` (and RFC 5424's
 * version), or one level word (`INFO 2026-…`).
 */
const TIME = new RegExp(
  `^\\s{0,4}(?:<\\d{1,3}>\\d? ?)?(?:[A-Z]{3,8}:? )?\\[?(${LAYOUTS})(?![\\d:])`,
);

/** An access log's time, past its client, ident and user: `127.0.0.1 - - [06/Dec/2026:…]`. */
const ACCESS = new RegExp(
  `^[\\w.:-]{1,64} [\\w.@-]{1,64} [\\w.@-]{1,64} \\[(\\d{2}/${MONTH}/\\d{4}:${CLOCK}(?: [+-]\\d{4})?)\\]`,
);

/** Longest prefix looked at: a timestamp is at a line's start or not at all. */
const PREFIX = 96;

/**
 * The timestamp `line` starts with, as written; undefined when it has none.
 *
 * @example
 * timeOf("[Sun Dec 04 04:47:44 2005] [error] mod_jk child init"); // "Sun Dec 04 04:47:44 2005"
 * timeOf("17/06/09 20:10:40 INFO spark.SecurityManager: …");      // "17/06/09 20:10:40"
 */
export function timeOf(line: string): string | undefined {
  const head = line.length > PREFIX ? line.slice(0, PREFIX) : line;
  return TIME.exec(head)?.[1] ?? ACCESS.exec(head)?.[1];
}
