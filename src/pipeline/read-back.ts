/**
 * How the text names the `read_result` call that reads on: one place for the arguments a hint
 * gives (the first page's summary marker, a page's closing line, `meta.next`), so the text and
 * `meta` always agree.
 */
import type { ReadArgs } from "./shaped.js";
import type { SectionName } from "./unit.js";

export type { ReadArgs };

/** Lines a first page's hint asks for: the start of the first gap, at most this many. */
export const HINT_LINES = 200;

/** The call that reads on from a gap of `section` (named when the result has several). */
export function linesArgs(
  handle: string,
  gap: { readonly section: SectionName; readonly from: number; readonly to: number },
  named: boolean,
  span = HINT_LINES,
): ReadArgs {
  return {
    handle,
    ...(named ? { section: gap.section } : {}),
    lines: { from: gap.from, to: Math.min(gap.to, gap.from + span - 1) },
  };
}

/**
 * `read_result {"handle":"res_…",…}`: the arguments as JSON, with square brackets escaped
 * (`\u005b`, still valid JSON) so the call can sit inside an `[airlock: …]` marker.
 *
 * @example
 * readCall({ handle: "res_ab", lines: { from: 3, to: 9 } }); // read_result {"handle":"res_ab","lines":{"from":3,"to":9}}
 */
export function readCall(args: ReadArgs): string {
  const json = JSON.stringify(args).replace(/\[/g, "\\u005b").replace(/\]/g, "\\u005d");
  return `read_result ${json}`;
}

/** The call for the next page of records. */
export function cursorArgs(handle: string, cursor: string): ReadArgs {
  return { handle, cursor };
}

/** The summary marker's hint on a first page that was cut and stored. */
export function firstPageHint(args: ReadArgs): string {
  return `to read omitted lines call ${readCall(args)} (it also takes grep, around or evidence)`;
}
