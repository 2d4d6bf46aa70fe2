/**
 * The scripted investigation: what the offline model does next, decided only from what is in
 * its prompt (the question, its earlier calls and the tool results as it received them), the
 * way a model decides. It learns the handle, the error and the line number by reading the
 * results' text, airlock's markers included; nothing comes from the page's internals. The
 * page's scripted model (scripted-model.ts) and the demo server's OpenAI-compatible mock
 * endpoint (mock-provider.ts) both play it, so the two model paths run the same investigation.
 */

/** A call the model made, and the text it got back (absent while it runs). */
export interface SeenCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
  readonly result?: string;
}

/** What the model has read so far. */
export interface Transcript {
  readonly question: string;
  readonly calls: readonly SeenCall[];
}

/** The model's next message: a tool call with a sentence before it, or the answer. */
export type Move =
  | {
      readonly kind: "call";
      readonly say: string;
      readonly name: string;
      readonly args: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: "answer"; readonly text: string };

/** What the investigation asks for (the tools' descriptions name them too). */
export const LOG_SERVICE = "checkout-api";
export const STATUS_URL = "https://status.payments.example/";
export const CONFIG_COMMAND = "cat .env.production";
export const ORDERS_TABLE = "orders";

export const QUESTION =
  "Checkout has been failing for some customers this morning. Find out why, and tell me what to do.";

/** A line of a result as the model can number it: airlock's gap markers say where lines were cut. */
interface Numbered {
  readonly n: number;
  readonly text: string;
}

/**
 * The content lines of a tool result with their line numbers, counted the way a reader of the
 * text would: from 1, and from one past the end of each `[airlock: omitted … lines A-B]` marker;
 * or, where the summary says the lines are shown `by number`, the number each line starts with.
 *
 * @example
 * numbered("[airlock: omitted lines 1-41]\nERROR x"); // [{ n: 42, text: "ERROR x" }]
 */
export function numbered(text: string): Numbered[] {
  const out: Numbered[] = [];
  let next = 1;
  const byNumber = /^\[airlock: shown \d+ of \d+ lines by number/m.test(text);
  for (const line of text.split("\n")) {
    if (line.startsWith("<untrusted-data") || line.startsWith("</untrusted-data")) continue;
    const own = byNumber ? /^(\d+)\t(.*)$/.exec(line) : null;
    if (own) {
      out.push({ n: Number(own[1]), text: own[2] as string });
      continue;
    }
    const gap = /^\[airlock: omitted (?:\w+ )?lines? (\d+)(?:-(\d+))?\]$/.exec(line);
    if (gap) {
      next = Number(gap[2] ?? gap[1]) + 1;
      continue;
    }
    if (line.startsWith("[airlock:")) continue;
    out.push({ n: next++, text: line });
  }
  return out;
}

/** The first handle a text names (`"handle":"res_…"`), as the result's markers print it. */
export function handleIn(text: string): string | undefined {
  return /"handle":"(res_[0-9a-f]{8,64})"/.exec(text)?.[1];
}

interface Severe {
  readonly line: string;
  /** The message after the level and the source: `charge failed: upstream timeout …`. */
  readonly message: string;
  /** What to search for: the message up to its first colon. */
  readonly needle: string;
}

/** The first ERROR or FATAL line of a log result. */
function severeIn(text: string): Severe | undefined {
  for (const { text: line } of numbered(text)) {
    const m = /\s(ERROR|FATAL)\s+\S+\s+(.+)$/.exec(line);
    if (m) {
      const message = m[2] as string;
      const colon = message.indexOf(":");
      const needle = (
        colon > 0 ? message.slice(0, colon) : message.split(/\s+/).slice(0, 3).join(" ")
      )
        .slice(0, 60)
        .trim();
      return { line: line.trim(), message, needle };
    }
  }
  return undefined;
}

const call = (say: string, name: string, args: Record<string, unknown>): Move => ({
  kind: "call",
  say,
  name,
  args,
});

/**
 * The next move of the investigation: read the log; if it was cut and shows an error, search
 * the whole log for it and read the lines around it; check the payments provider's status
 * page, the service's settings and the orders table; answer.
 *
 * @example
 * nextMove({ question: QUESTION, calls: [] }); // read_log { service: "checkout-api" }
 */
export function nextMove(t: Transcript): Move {
  const done = (name: string, has?: string) =>
    t.calls.find(
      (c) =>
        c.name === name &&
        c.result !== undefined &&
        (has === undefined ||
          (typeof c.args === "object" && c.args !== null && has in (c.args as object))),
    );
  const log = done("read_log");
  if (log === undefined)
    return call("I'll start with the checkout service's log.", "read_log", {
      service: LOG_SERVICE,
    });
  const text = log.result ?? "";
  const error = severeIn(text);
  const handle = handleIn(text);
  if (error !== undefined && handle !== undefined) {
    const grep = done("read_result", "grep");
    if (grep === undefined)
      return call(
        `The log was cut to fit. It shows one error, "${error.message}"; searching the whole log for it.`,
        "read_result",
        { handle, grep: error.needle },
      );
    const at = numbered(grep.result ?? "").find((l) =>
      l.text.toLowerCase().includes(error.needle.toLowerCase()),
    )?.n;
    if (at !== undefined && done("read_result", "around") === undefined)
      return call(`It is line ${at}. Reading the lines around it.`, "read_result", {
        handle,
        around: at,
        pageSize: 12,
      });
  }
  if (done("fetch_page") === undefined)
    return call(
      "The charge timed out at the payments provider. Checking its status page.",
      "fetch_page",
      { url: STATUS_URL },
    );
  if (done("run_command") === undefined)
    return call("Checking the payments settings the service runs with.", "run_command", {
      command: CONFIG_COMMAND,
    });
  if (done("query_records") === undefined)
    return call("Now the orders: which failed, and why.", "query_records", {
      table: ORDERS_TABLE,
    });
  return { kind: "answer", text: answer(t) };
}

/** The answer, from what the results said. Every fact in it was read in a result's text. */
function answer(t: Transcript): string {
  const result = (name: string, has?: string) =>
    t.calls.find(
      (c) =>
        c.name === name &&
        (has === undefined ||
          (typeof c.args === "object" && c.args !== null && has in (c.args as object))),
    )?.result ?? "";
  const out: string[] = [];
  const grep = result("read_result", "grep");
  const around = result("read_result", "around");
  // The search's page keeps the error line as it was read (a session may since have graded the
  // log's own result down to a line that names it only).
  const log = result("read_log");
  const error = severeIn(grep) ?? severeIn(log);
  const at =
    error === undefined
      ? undefined
      : numbered(grep).find((l) => l.text.toLowerCase().includes(error.needle.toLowerCase()))?.n;
  const total = /shown \d+ of (\d+) lines/.exec(log)?.[1] ?? /, (\d+) lines/.exec(log)?.[1];
  if (error === undefined) {
    out.push("The checkout log I read shows no error, so I cannot say from it why checkout fails.");
  } else {
    out.push(
      `Checkout fails because the payments provider did not answer: ${error.message}.`,
      "",
      `- The checkout-api log${total ? ` (${Number(total).toLocaleString("en-US")} lines)` : ""} has one error${at ? `, at line ${at}` : ""}: ${error.line}`,
    );
    const frames = numbered(around)
      .map((l) => l.text.trim())
      .filter((l) => l.startsWith("at "));
    if (frames.length > 0) out.push(`- It was thrown ${frames.slice(0, 2).join(", called ")}.`);
  }
  const page = numbered(result("fetch_page")).map((l) => l.text.trim());
  const incident = page.find((l) => /timeout|latency|degraded|incident/i.test(l));
  out.push(
    incident
      ? `- The provider's status page says: "${incident.replace(/^[#*\s-]+/, "")}".`
      : "- The provider's status page says nothing about an incident.",
  );
  const config = result("run_command");
  const redacted = (config.match(/\[REDACTED:/g) ?? []).length;
  const timeout = config.split("\n").find((l) => /TIMEOUT/i.test(l));
  out.push(
    `- The service's settings ${timeout ? `set ${timeout.trim()}` : "set no payments timeout, so the client's own 30 s applies"}${
      redacted > 0 ? `; their ${redacted} secrets reached me redacted, as they should` : ""
    }.`,
  );
  const records = result("query_records");
  const failed = /failed (\d[\d,]*)/.exec(records)?.[1];
  const of = /(\d[\d,]*) records/.exec(records)?.[1];
  const reasons = [...new Set([...records.matchAll(/"error":"([^"]+)"/g)].map((m) => m[1]))];
  if (failed)
    out.push(
      `- The orders table has ${failed} failed orders${of ? ` of ${of}` : ""}${
        reasons.length > 0 ? `, all "${reasons.join('", "')}"` : ""
      }: declined cards, a different cause from the timeout.`,
    );
  out.push(
    "",
    "What to do: retry the timed-out charges once the provider recovers, and give the payments client a timeout shorter than the checkout request's so a slow provider fails fast with a clear message.",
  );
  return out.join("\n");
}
