/**
 * An event stream (`text/event-stream`) of JSON-RPC messages, re-emitted event by event with
 * each event's data passed through `handler.data` (the proxy matches and shapes messages there).
 * Only the fields MCP uses are kept: `id`, `event`, `retry` and the data; comments
 * (keep-alives) pass as they are.
 *
 * Lines end as the SSE specification says: CRLF, LF or CR alone, each one line end (a CR at the
 * end of one chunk and an LF at the start of the next are one); a blank line ends an event; a
 * leading BOM is dropped; an event the stream leaves unfinished (no blank line after it) is not
 * dispatched. The parser reads the bytes (line ends are single bytes in UTF-8, never inside a
 * character), looks for a line end only in the part that just arrived, and decodes each line
 * once, when it is whole: linear in the stream, however the chunks fall.
 *
 * An event longer than `maxEventBytes` (counted in bytes, line ends included) stops the stream:
 * the upstream is cancelled and `handler.end("too-large")` says what the client gets instead.
 * When the upstream's stream ends or breaks, `handler.end` is asked the same.
 */

export interface SseHandler {
  /**
   * The data of one event: what to send in its place, or undefined to send no data (the
   * event's `id`, `event` and `retry` still go).
   */
  data(data: string): Promise<string | undefined>;
  /** The data of events to send once the upstream's stream is over, for whatever reason. */
  end(cause: "done" | "too-large" | "failed"): string[];
}

const LF = 0x0a;
const CR = 0x0d;

export function sseMessages(
  body: ReadableStream<Uint8Array>,
  handler: SseHandler,
  maxEventBytes: number,
  /** The data of events sent before any of the upstream's. */
  opening: readonly string[] = [],
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  const encoder = new TextEncoder();
  const reader = body.getReader();

  // The line being read: pieces of chunks, decoded once the line ends.
  let pieces: Uint8Array[] = [];
  let lineBytes = 0;
  // The event being read.
  let eventBytes = 0;
  let fields: string[] = [];
  let data: string[] | undefined;
  // A CR ended the last chunk: an LF that starts the next one belongs to it.
  let afterCr = false;
  let firstLine = true;
  let finished = false;

  const event = (text: string) =>
    `${text
      .split("\n")
      .map((l) => `data: ${l}`)
      .join("\n")}\n\n`;

  function lineOf(last: Uint8Array): string {
    if (pieces.length === 0) return decoder.decode(last);
    const bytes = new Uint8Array(lineBytes + last.byteLength);
    let at = 0;
    for (const piece of pieces) {
      bytes.set(piece, at);
      at += piece.byteLength;
    }
    bytes.set(last, at);
    pieces = [];
    return decoder.decode(bytes);
  }

  /** One whole line; a blank one ends the event, which is then re-emitted. */
  async function line(text: string, out: string[]): Promise<void> {
    if (firstLine) {
      firstLine = false;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    if (text !== "") {
      if (text.startsWith(":")) {
        fields.push(text);
        return;
      }
      const colon = text.indexOf(":");
      const name = colon < 0 ? text : text.slice(0, colon);
      let value = colon < 0 ? "" : text.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (name === "data") {
        if (data === undefined) data = [value];
        else data.push(value);
      } else if (name === "id" || name === "event" || name === "retry")
        fields.push(`${name}: ${value}`);
      return;
    }
    // A blank line: the event is whole.
    const kept = fields;
    const carried = data;
    fields = [];
    data = undefined;
    eventBytes = 0;
    if (kept.length === 0 && carried === undefined) return;
    const sent = carried === undefined ? undefined : await handler.data(carried.join("\n"));
    const lines = [
      ...kept,
      ...(sent === undefined ? [] : sent.split("\n").map((l) => `data: ${l}`)),
    ];
    if (lines.length > 0) out.push(`${lines.join("\n")}\n\n`);
  }

  /** A chunk's lines; false once the event being read is over the cap. */
  async function chunk(bytes: Uint8Array, out: string[]): Promise<boolean> {
    let start = 0;
    if (afterCr && bytes.byteLength > 0) {
      afterCr = false;
      if (bytes[0] === LF) {
        start = 1;
        eventBytes += 1;
      }
    }
    // The next CR and LF, each looked for again only once passed: one scan of the chunk.
    let cr = bytes.indexOf(CR, start);
    let lf = bytes.indexOf(LF, start);
    for (;;) {
      if (cr >= 0 && cr < start) cr = bytes.indexOf(CR, start);
      if (lf >= 0 && lf < start) lf = bytes.indexOf(LF, start);
      const end = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
      if (end < 0) {
        if (start < bytes.byteLength) {
          const rest = bytes.subarray(start);
          pieces.push(rest);
          lineBytes += rest.byteLength;
          eventBytes += rest.byteLength;
        }
        return eventBytes <= maxEventBytes;
      }
      let next = end + 1;
      if (bytes[end] === CR) {
        if (end + 1 === bytes.byteLength) afterCr = true;
        else if (bytes[end + 1] === LF) next = end + 2;
      }
      eventBytes += next - start;
      if (eventBytes > maxEventBytes) return false;
      const text = lineOf(bytes.subarray(start, end));
      lineBytes = 0;
      start = next;
      await line(text, out);
    }
  }

  async function finish(
    controller: ReadableStreamDefaultController<Uint8Array>,
    cause: "done" | "too-large" | "failed",
  ): Promise<void> {
    finished = true;
    pieces = [];
    const closing = handler.end(cause).map(event).join("");
    if (closing !== "") controller.enqueue(encoder.encode(closing));
    controller.close();
  }

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const first = opening.map(event).join("");
      if (first !== "") controller.enqueue(encoder.encode(first));
    },
    async pull(controller) {
      if (finished) return;
      for (;;) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch {
          return finish(controller, "failed");
        }
        // An event left unfinished when the stream ends is not dispatched (the SSE rules).
        if (step.done) return finish(controller, "done");
        const out: string[] = [];
        const within = await chunk(step.value, out);
        if (out.length > 0) controller.enqueue(encoder.encode(out.join("")));
        if (!within) {
          await reader.cancel().catch(() => {});
          return finish(controller, "too-large");
        }
        if (out.length > 0) return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
