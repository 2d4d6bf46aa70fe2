/**
 * The decode stage: bytes into units, one decoder per format. Text and command output become
 * lines, a web page becomes the lines of its text, JSON, NDJSON, CSV and parsed values become
 * records, binary content is described and never decoded. Nothing is read until keep pumps the
 * stream.
 */
import type { Intake, OpenedSection, SectionSource } from "../intake/route.js";
import { createSectionFacts, type SectionFacts } from "../pipeline/facts.js";
import type { Sinks, UnitStream } from "../pipeline/flow.js";
import type { RunContext, Stage } from "../pipeline/run.js";
import { readBinary } from "./binary.js";
import { pageText } from "./html-source.js";
import type { RecordsOptions } from "./records.js";
import { pumpLines } from "./section.js";

export interface DecodeOptions {
  /** Longest line kept whole; a longer one keeps its head and tail. */
  readonly lineCap: number;
  /** Binary inputs up to this many bytes get a SHA-256. */
  readonly hashLimit: number;
  readonly records: RecordsOptions;
}

/**
 * @example
 * const decode = createDecode({ lineCap: 8000, hashLimit: 1 << 24, records });
 * const stream = await decode.run(intake, ctx); // read when keep pumps it
 */
export function createDecode(o: DecodeOptions): Stage<Intake, UnitStream> {
  return {
    name: "decode",
    run(intake, ctx) {
      return { pump: (sinks) => pump(intake, sinks, ctx, o) };
    },
  };
}

async function pump(
  intake: Intake,
  sinks: Sinks,
  ctx: RunContext,
  o: DecodeOptions,
): Promise<void> {
  switch (intake.route) {
    case "lines": {
      if (intake.markdown) ctx.facts.format = "markdown";
      // Every stream at once: a child process blocks if one of its pipes is left unread.
      await Promise.all(intake.sections.map((s) => section(s, sinks, ctx, o)));
      if (
        intake.sections.length === 1 &&
        ctx.facts.sections[0]?.binary &&
        ctx.facts.kind === "text"
      ) {
        ctx.facts.kind = "binary";
        ctx.facts.format = "binary";
      }
      await intake.settle?.();
      return;
    }
    case "html": {
      ctx.facts.format = "html";
      const page = await pageText(intake.reader, intake.contentType, intake.baseUrl, ctx);
      const facts = addSection(ctx, "text");
      await pumpLines(page.reader, "utf-8", sinks.lines("text"), facts, o.lineCap);
      // The page's text ends where the byte cap cut its markup: the text says so, as any text.
      facts.capped = intake.reader.capped;
      page.finish();
      return;
    }
    case "records": {
      ctx.facts.kind = "structured";
      ctx.facts.format = intake.format;
      // The records decoders load with the first structured result: they stay out of the core.
      const { pumpRecords } = await import("./records.js");
      const read = await pumpRecords(intake, () => sinks.records(), ctx, o.records);
      if (read.ok) return;
      // Sniffed JSON that strict parsing refused while it could still be read again: text.
      ctx.facts.kind = "text";
      ctx.facts.format = "text";
      ctx.facts.degraded.push({
        code: read.code,
        message: `the input looked like ${intake.format === "ndjson" ? "NDJSON" : "JSON"} but is not (${read.message}); shown as text`,
      });
      const facts = addSection(ctx, "text");
      await pumpLines(read.again, "utf-8", sinks.lines("text"), facts, o.lineCap);
      return;
    }
    case "value": {
      ctx.facts.kind = "structured";
      ctx.facts.format = "json";
      const { pumpValue } = await import("./value.js");
      await pumpValue(
        intake.value,
        () => sinks.records(),
        ctx,
        o.records.limits,
        o.records.paths,
        o.records.hashLimit,
        o.records.maxBytes,
      );
      return;
    }
  }
}

function addSection(ctx: RunContext, name: OpenedSection["name"]): SectionFacts {
  const facts = createSectionFacts(name);
  ctx.facts.sections.push(facts);
  return facts;
}

async function section(
  from: SectionSource,
  sinks: Sinks,
  ctx: RunContext,
  o: DecodeOptions,
): Promise<void> {
  // The facts first, so sections are listed in the order intake gave them, whichever sniffs first.
  const facts = addSection(ctx, from.name);
  const s = await from.open();
  if (s.uncaptured) facts.uncaptured = true;
  try {
    await decodeSection(s, facts, sinks, o);
  } finally {
    lostBefore(s, facts, ctx);
  }
}

/**
 * Output a live stream let go before it was attached: bytes its pipe gave up to someone else
 * (Node counts them), or, when it had already ended and nothing could be read, maybe all of it.
 */
function lostBefore(s: OpenedSection, facts: SectionFacts, ctx: RunContext): void {
  const arrival = s.arrival;
  if (arrival === undefined) return;
  if (arrival.lost !== undefined && arrival.lost > 0) facts.lost = { bytes: arrival.lost };
  else if (arrival.lost === undefined && arrival.ended && s.reader.bytes === 0)
    facts.lost = { bytes: undefined };
  else return;
  const what =
    facts.lost.bytes === undefined
      ? "had already ended when shape() was called, and nothing could be read from it"
      : `had given up ${facts.lost.bytes} bytes before shape() was called; they are not in the result`;
  ctx.facts.degraded.push({
    code: "intake/output-lost",
    message: `${s.name} ${what}: hand the process to fromProcess() right after spawn, before any await`,
  });
}

async function decodeSection(
  s: OpenedSection,
  facts: SectionFacts,
  sinks: Sinks,
  o: DecodeOptions,
): Promise<void> {
  if (s.sniffed.kind === "binary") {
    facts.binary = await readBinary(s.reader, s.sniffed.mime, o.hashLimit);
    facts.bytes = s.reader.bytes;
    facts.capped = s.reader.capped;
    facts.blank = false;
    if (s.reader.failure) facts.failure = s.reader.failure;
    if (s.reader.stopped) facts.stopped = s.reader.stopped;
    return;
  }
  await pumpLines(s.reader, s.sniffed.encoding, sinks.lines(s.name), facts, o.lineCap);
}
