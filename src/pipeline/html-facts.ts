/** What `meta.html` says of a web page: its facts, and what `htmlToText` removed from it. */

/** A web page's facts (cleaned like its text) and what `htmlToText` removed. */
export interface HtmlFacts {
  readonly title?: string;
  readonly byline?: string;
  readonly date?: string;
  /** `main` when main content was found, else `full`. */
  readonly mode: "main" | "full";
  readonly charset: string;
  /** Links listed at the end of the text. */
  readonly links: number;
  readonly removed: HtmlRemoved;
  readonly capped: boolean;
}

/**
 * Why main-content extraction left a block of a page out: menus, breadcrumbs, share bars
 * (`navigation`); related stories and link lists (`related`); comment threads (`comments`);
 * footers (`footer`); ads, sign-up and consent boxes (`ads`); bylines, dates, captions and the
 * headline (`smallPrint`); blocks of short or mostly linked text (`lowDensity`); other text
 * beside the main content, that names nothing (`other`).
 */
export type BoilerplateReason =
  | "navigation"
  | "related"
  | "comments"
  | "footer"
  | "ads"
  | "smallPrint"
  | "lowDensity"
  | "other";

/** What `htmlToText` removed from a page, by kind. */
export interface HtmlRemoved {
  /** Characters of text hidden from the reader (hidden elements, comments, hidden inputs). */
  hiddenChars: number;
  /** Elements hidden by an attribute or an inline style. */
  hiddenElements: number;
  /** Elements and other content dropped, by reason. */
  readonly byReason: Record<string, number>;
  /** Links with a scheme other than http(s) and mailto, dropped (their text kept). */
  unsafeLinks: number;
  /** Links past `maxLinks`, not listed (their text kept). */
  linksOverCap: number;
  /** Characters left out as page furniture (navigation, footers, related links) in main mode. */
  boilerplateChars: number;
  /** The blocks of text left out as page furniture in main mode, by reason (reasons with none absent). */
  boilerplateBlocks: Partial<Record<BoilerplateReason, number>>;
}
