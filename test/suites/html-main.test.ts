/**
 * Main-content extraction, rule by rule (issue 30): each case of test/fixtures/html-main.ts keeps
 * its story and leaves its furniture out, and each rule has a negative control, a look-alike
 * page it must not touch. What was left out is counted by reason in `removed.boilerplateBlocks`
 * and named once in the page's note.
 */
import { htmlToText, shape } from "agent-airlock";
import { describe, expect, it } from "vitest";
import { mainCases, prose } from "../fixtures/html-main.js";

describe("htmlToText: main content, rule by rule", () => {
  for (const { title, input, expected } of mainCases) {
    it(title, async () => {
      const { text, mode } = await htmlToText(input);
      expect(mode).toBe("main");
      for (const s of expected.kept) expect(text, s).toContain(s);
      for (const s of expected.dropped) expect(text, s).not.toContain(s);
      // The page's own menu is never the content.
      expect(text).not.toContain("Menu item 3");
    });
  }
});

/** A page with one block of each kind of furniture around a story. */
function furnishedPage(): string {
  const story = Array.from({ length: 6 }, (_, i) => `<p>${prose(i)}</p>`).join("");
  const links = (name: string) =>
    Array.from({ length: 6 }, (_, i) => `<li><a href="/${name}/${i}">${name} ${i}</a></li>`).join(
      "",
    );
  return `<!doctype html><html><head><title>Log</title></head><body>
<nav><ul>${links("section")}</ul></nav>
<div class="breadcrumbs"><a href="/">Home</a> › <a href="/news">News</a></div>
<main><article><div class="byline">By Ada, at dawn</div>${story}
<div class="newsletter-signup">Sign up for the morning tide tables by email.</div></article>
<section class="comments"><h3>2 comments</h3><p>Great read, thanks for the count of the moorings!</p><p>My grandfather was a pilot there too.</p></section></main>
<aside class="related"><h3>Related</h3><ul>${links("related")}</ul></aside>
<footer><p>All rights reserved.</p></footer></body></html>`;
}

describe("htmlToText: what main content left out, by reason", () => {
  it("counts each block it left out under its reason", async () => {
    const { removed, text } = await htmlToText(furnishedPage());
    expect(text).toContain("Sentence 5 of");
    expect(removed.boilerplateBlocks).toMatchObject({
      navigation: 2,
      comments: 1,
      related: 1,
      footer: 1,
      ads: 1,
      smallPrint: 1,
    });
    expect(removed.boilerplateChars).toBeGreaterThan(0);
  });

  it("negative control: full mode leaves nothing out and counts nothing", async () => {
    const { removed, text } = await htmlToText(furnishedPage(), { mode: "full" });
    expect(text).toContain("My grandfather was a pilot");
    expect(removed.boilerplateBlocks).toEqual({});
    expect(removed.boilerplateChars).toBe(0);
  });

  it("shape(): the note names each reason once, with the counts meta.html has", async () => {
    const shaped = await shape(furnishedPage(), { contentType: "text/html", maxTokens: 2000 });
    const removed = shaped.meta.html?.removed;
    const notes = shaped.text
      .split("\n")
      .filter((l) => l.startsWith("[airlock: main content only"));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toBe(
      `[airlock: main content only; left out ${removed?.boilerplateChars} characters in 7 blocks: navigation 2, related links 1, comments 1, footer 1, ads 1, small print 1]`,
    );
  });
});
