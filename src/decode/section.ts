/**
 * A text section: bytes under the cap, decoded and split into lines for the sink (through the
 * filter the stage before keep gave, when it gave one).
 */
import type { CappedReader } from "../intake/budget.js";
import type { SectionFacts } from "../pipeline/facts.js";
import type { LinesTarget } from "../pipeline/flow.js";
import { createLineDecoder } from "./lines.js";

/**
 * @example
 * await pumpLines(reader, "utf-8", sinks.lines("text"), facts, 4096);
 */
export async function pumpLines(
  reader: CappedReader,
  encoding: "utf-8" | "utf-16le" | "utf-16be",
  target: LinesTarget,
  facts: SectionFacts,
  lineCap: number,
): Promise<void> {
  const decoder = createLineDecoder(target.sink, {
    lineCap,
    encoding,
    ...(target.filter ? { filter: target.filter } : {}),
    ...(target.tap ? { tap: target.tap } : {}),
  });
  for (let chunk = await reader.read(); chunk !== undefined; chunk = await reader.read()) {
    decoder.write(chunk);
  }
  // Stopped early (the cap or a failure): the text ends inside whatever it was saying.
  decoder.end(reader.capped || reader.failure !== undefined || reader.stopped !== undefined);
  facts.bytes = reader.bytes;
  facts.capped = reader.capped;
  facts.invalidUtf8 = decoder.stats.invalid;
  facts.blank = !decoder.stats.nonBlank;
  if (reader.failure) facts.failure = reader.failure;
  if (reader.stopped) facts.stopped = reader.stopped;
}
