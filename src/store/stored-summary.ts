/**
 * The summary of a stored text result (`read_result {summary: true}`), made the way the first
 * page made `meta.summary`: the stored text is decoded into lines again (the same line decoder,
 * under the cap the result was stored with, so a long line is keyed as it was) and every line
 * passes a keeper, whose symptom table counts each severe line by its message; `summaryOf` and
 * `cleanSummary` then list the messages and make their words. Only the symptom table and a few
 * lines (the first and last, for the span) are held: memory is O(messages), whatever the size.
 * The stored text was redacted when it was kept, and each message is cleaned again as `meta`
 * cleans it.
 */
import { createLineDecoder } from "../decode/lines.js";
import { summaryOf } from "../fit/symptoms.js";
import { createKeeper, type KeeperLimits, type Kept } from "../keep/keeper.js";
import { cleanSummary } from "../pipeline/meta.js";
import type { ShapeSummary } from "../pipeline/shaped.js";
import { bySection, type SectionName } from "../pipeline/unit.js";
import type { SectionText } from "./text-source.js";

/**
 * The keeper's holdings for a summary: a few lines of head and tail (the span's first and last
 * line), a little evidence. Symptoms are counted whatever it holds.
 */
const LIMITS: KeeperLimits = {
  headChars: 4096,
  tailChars: 4096,
  evidenceChars: 4096,
  headLines: 4,
  tailLines: 4,
};

/** The budget `summaryOf` lists symptoms for: enough for its most (128). */
const LISTING_TOKENS = 1 << 16;

/**
 * @example
 * const summary = await storedSummary(sectionsOf(manifest, store, cache, 4000), 4000, redact.clean);
 */
export async function storedSummary(
  sections: readonly SectionText[],
  lineCap: number,
  clean: (text: string, max?: number) => string,
): Promise<ShapeSummary | undefined> {
  const kept: Array<{ name: SectionName; kept: Kept }> = [];
  for (const s of [...sections].sort(bySection)) {
    const keeper = createKeeper(LIMITS);
    const decoder = createLineDecoder(keeper, { lineCap });
    await s.eachPart((text) => decoder.writeText(text));
    decoder.end();
    kept.push({ name: s.name, kept: keeper.finish() });
  }
  // No line of this page is shown: every message is listed with `shown: 0`, and none of them is
  // "open" for that (the page's own `template` call reads each one's lines).
  const draft = summaryOf(
    kept,
    () => false,
    () => false,
    LISTING_TOKENS,
  );
  if (draft === undefined) return undefined;
  const summary = cleanSummary(draft, clean);
  return { ...summary, open: summary.open.filter((o) => o.what !== "unshown") };
}
