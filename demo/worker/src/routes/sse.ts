/**
 * An event stream (`text/event-stream`) of JSON-RPC messages, re-emitted event by event with
 * each message passed through `answer` (the proxy shapes tool results there). Only the fields
 * MCP uses are kept: `id`, `event`, `retry` and the data; comments (keep-alives) pass as they
 * are. An event longer than `maxEventBytes` ends the stream with an error instead of growing
 * without bound.
 */

export function sseMessages(
  body: ReadableStream<Uint8Array>,
  answer: (message: Record<string, unknown> & { id?: unknown }) => Promise<unknown>,
  maxEventBytes: number,
): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const reader = body.getReader();
  let buffer = "";
  let done = false;

  /** One event's lines (without the blank line that ends it), re-emitted. */
  async function emit(block: string): Promise<string> {
    const fields: string[] = [];
    const data: string[] = [];
    for (const line of block.split(/\r\n|\r|\n/)) {
      if (line.startsWith(":")) {
        fields.push(line);
        continue;
      }
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (name === "data") data.push(value);
      else if (name === "id" || name === "event" || name === "retry")
        fields.push(`${name}: ${value}`);
    }
    if (data.length === 0) return `${fields.join("\n")}\n\n`;
    let text = data.join("\n");
    try {
      const message = JSON.parse(text) as unknown;
      if (message !== null && typeof message === "object" && !Array.isArray(message))
        text = JSON.stringify(await answer(message as Record<string, unknown>));
    } catch {
      // Not JSON: passed on as it came.
    }
    return `${[...fields, ...text.split("\n").map((l) => `data: ${l}`)].join("\n")}\n\n`;
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const end = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
        if (end) {
          const block = buffer.slice(0, end.index);
          buffer = buffer.slice(end.index + end[0].length);
          controller.enqueue(encoder.encode(await emit(block)));
          return;
        }
        if (done) {
          if (buffer.trim() !== "") controller.enqueue(encoder.encode(await emit(buffer)));
          controller.close();
          return;
        }
        if (buffer.length > maxEventBytes) {
          await reader.cancel().catch(() => {});
          controller.error(new Error("an event of the upstream stream is too large"));
          return;
        }
        const step = await reader.read();
        if (step.done) {
          buffer += decoder.decode();
          done = true;
        } else buffer += decoder.decode(step.value, { stream: true });
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
