/**
 * The public `htmlToText`: a thin entry that loads the HTML stage (and htmlparser2) on first
 * use, so the core bundle does not carry them for hosts that never read a page.
 */
import type { HtmlInput, HtmlText, HtmlToTextOptions } from "./html-to-text.js";

/**
 * A web page as the text a person reads on it: hidden content dropped and counted, the main
 * content kept when one stands out, links numbered and listed.
 *
 * @example
 * const { text, title, removed } = await htmlToText(await fetch(url));
 */
export async function htmlToText(input: HtmlInput, options?: HtmlToTextOptions): Promise<HtmlText> {
  const stage = await import("./html-to-text.js");
  return stage.htmlToText(input, options);
}
