/**
 * What airlock's own words cost (issue 26): which layout a cut chooses, and when a line naming
 * unshown messages is worth its tokens. The layout choice prefers the one that shows more of the
 * ranking (the first candidate, in rank order, that one shows and the other does not); a page or
 * markdown is prose and never numbered (the same text as a plain string is: the negative
 * control); a `not shown` line may take at most a twentieth of the budget (at a larger budget the
 * same input names its messages, and so does a cheaper line at the small one: the negative
 * controls).
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { ranksBefore, search } from "../../src/fit/search.js";
import { shape } from "../../src/index.js";

describe("ranksBefore: the layout that shows more of the ranking", () => {
  const order = ["a", "b", "c", "d", "e"];
  const choice = (included: string[], used: number) => ({ included, used });

  it("prefers the choice that shows the first candidate the other lacks", () => {
    // Both show a and b; then one shows c (ranked third), the other d and e (more, but later).
    expect(ranksBefore(choice(["a", "b", "c"], 90), choice(["a", "b", "d", "e"], 80), order)).toBe(
      true,
    );
    expect(ranksBefore(choice(["a", "b", "d", "e"], 80), choice(["a", "b", "c"], 90), order)).toBe(
      false,
    );
  });

  it("a longer prefix wins; the same choice wins only when it costs less", () => {
    expect(ranksBefore(choice(["a", "b", "c"], 90), choice(["a", "b"], 50), order)).toBe(true);
    expect(ranksBefore(choice(["a", "b"], 50), choice(["a", "b", "c"], 90), order)).toBe(false);
    expect(ranksBefore(choice(["a", "c"], 40), choice(["a", "c"], 41), order)).toBe(true);
    expect(ranksBefore(choice(["a", "c"], 41), choice(["a", "c"], 41), order)).toBe(false);
  });
});

describe("prose is never numbered", () => {
  // Paragraphs of recurring words, one line each between blank lines: 2 MB, the lines a cut
  // shows lie apart.
  const words = "the of a service request during which its operators found that latency rose".split(
    " ",
  );
  const paragraphs: string[] = [];
  let size = 0;
  for (let p = 0; size < 2_000_000; p++) {
    const sentences: string[] = [];
    for (let s = 0; s < 5; s++) {
      const w: string[] = [];
      for (let k = 0; k < 14; k++) w.push(words[(p * 31 + s * 7 + k * 3) % words.length] as string);
      sentences.push(`${w.join(" ")} ${p}.${s}.`);
    }
    const text = sentences.join(" ");
    paragraphs.push(text);
    size += text.length + 7;
  }
  const body = `# Report\n\n${paragraphs.join("\n\n")}`;

  it("markdown keeps paragraph gaps where the same text as a string is numbered", async () => {
    const page = await shape(new Response(body, { headers: { "content-type": "text/markdown" } }), {
      maxTokens: 1500,
    });
    expect(page.meta.format).toBe("markdown");
    expect(page.meta.truncated).toBe(true);
    expect(page.text).not.toMatch(/by number/);
    expect(page.text).not.toMatch(/^\d+\t/m);
    expect(page.text).toMatch(/^\[airlock: omitted lines \d+-\d+\]$/m);
    // Negative control: as a plain string the fit numbers it.
    const plain = await shape(body, { maxTokens: 1500 });
    expect(plain.meta.format).toBe("text");
    expect(plain.text).toMatch(/^\[airlock: shown \d+ of \d+ lines by number/m);
  });
});

describe("a line naming unshown messages takes at most a twentieth of the budget", () => {
  const stamp = (i: number) =>
    `2026-12-06T${String(8 + Math.floor(i / 3600)).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;
  /** 8,000 quiet lines and 30 error messages (each `tail` longer), on `5 + k` lines each. */
  function many(tail: string): string {
    const lines = Array.from(
      { length: 8000 },
      (_, i) =>
        `${stamp(i)} web-${i % 4} api[${100 + (i % 9)}]: GET /v1/items/${i} 200 ${i % 90}ms`,
    );
    const nouns = ["ledger", "cache", "queue", "socket", "index", "billing"];
    const taken = new Set<number>();
    for (let k = 0; k < 30; k++) {
      // Names without a digit (a word with one is a varying word, masked).
      const name = `step${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}`;
      for (let j = 0; j < 5 + k; j++) {
        const n = 200 + ((k * 257 + j * 613) % 7700);
        if (taken.has(n)) continue;
        taken.add(n);
        lines[n - 1] =
          `${stamp(n - 1)} svc-${k} worker[${j}]: ERROR ${nouns[k % 6]} ${name} failed${tail}: code ${k * 100 + j}`;
      }
    }
    return lines.join("\n");
  }
  const named = (text: string) => text.split("\n").filter((l) => / not shown, lines? \d/.test(l));
  const LONG = " while the reconciliation pipeline waited on its upstream snapshot";

  it("a line dearer than a twentieth is not shown; a cheaper one, or a larger budget, is", async () => {
    // Long messages at 700 tokens: each line would cost 36 tokens, more than 35. (Without the
    // share, two of them are shown at this budget.)
    const long = await shape(many(LONG), { maxTokens: 700 });
    expect(long.meta.summary?.symptoms.filter((s) => s.shown === 0).length).toBeGreaterThan(5);
    expect(named(long.text)).toEqual([]);
    // Negative controls: shorter messages at the same budget are named, within the share;
    const short = named((await shape(many(" while waiting"), { maxTokens: 700 })).text);
    expect(short.length).toBeGreaterThan(0);
    for (const line of short) expect(countTokens(`${line}\n`)).toBeLessThanOrEqual(35);
    // the long ones are named where a twentieth of the budget holds them (at 1,000 tokens: 50).
    const wide = named((await shape(many(LONG), { maxTokens: 1000 })).text);
    expect(wide.length).toBeGreaterThan(2);
    for (const line of wide) {
      expect(countTokens(`${line}\n`)).toBeGreaterThan(35);
      expect(countTokens(`${line}\n`)).toBeLessThanOrEqual(50);
    }
  });
});

/** A second's time stamp, `i` seconds past 08:00. */
const stamp = (i: number) =>
  `2026-12-06T${String(8 + Math.floor(i / 3600)).padStart(2, "0")}:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z`;

/** `n` quiet lines of one template, a second apart (each test then plants its messages). */
const accessLog = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${stamp(i)} web-${i % 4} api[${100 + (i % 9)}]: GET /v1/items/${i} 200 ${i % 90}ms`,
  );

describe("a message's line takes its name's place", () => {
  it("the budget its name took is spent, and every message is shown or named", async () => {
    const lines = accessLog(8000);
    // 20 messages (fewer than a section names at most), each on 5 to 24 lines.
    for (let k = 0; k < 20; k++) {
      const name = `step${String.fromCharCode(97 + k)}`;
      for (let j = 0; j < 5 + k; j++) {
        const n = 200 + ((k * 257 + j * 613) % 7700);
        lines[n - 1] =
          `${stamp(n - 1)} svc-${k} worker[${j}]: ERROR queue ${name} failed while the pipeline waited upstream: code ${k * 100 + j}`;
      }
    }
    for (const maxTokens of [1000, 1500, 2000]) {
      const shaped = await shape(lines.join("\n"), { maxTokens });
      // Ranked before the lines of their messages, names that a shown line replaced were
      // counted as spent: the fit stopped short of the budget.
      expect(shaped.meta.tokens).toBeGreaterThan(maxTokens * 0.9);
      const symptoms = shaped.meta.summary?.symptoms ?? [];
      expect(symptoms).toHaveLength(20);
      for (const s of symptoms) {
        const word = /step\w/.exec(s.text)?.[0] as string;
        const named = shaped.text
          .split("\n")
          .some((l) => l.includes(" not shown, ") && l.includes(`${word} `));
        expect(s.shown > 0 || named, `${word} at ${maxTokens}`).toBe(true);
        // Never both.
        if (s.shown > 0) expect(named).toBe(false);
      }
    }
  });
});

describe("messages past the names' cap", () => {
  it("a message no name covers is shown by its held line where the budget holds it", async () => {
    const lines = accessLog(6000);
    // 300 quiet lines of templates seen once each (rare lines compete for the budget).
    const W =
      "amber birch cedar delta ember fjord grove heron iris juniper kestrel lotus maple nectar onyx pine quartz raven sage tundra umber violet willow xenon yarrow zephyr".split(
        " ",
      );
    for (let k = 0; k < 300; k++) {
      const said = Array.from(
        { length: 2 + (k % 7) },
        (_, j) => W[(k * 7 + j * 3 + Math.floor(k / 26)) % 26],
      );
      lines[50 + k * 19] = `${W[k % 26]}${W[Math.floor(k / 26) % 26]} ${said.join(" ")}`;
    }
    // 40 messages of one template: the first 24 on three lines each (the names a section has
    // at most go to the most frequent), the other 16 on one line each. (Before, the 16 gave way
    // to rare quiet lines: neither shown nor named at 2,000 or 4,000 tokens, 7 still at 6,000.)
    const words: string[] = [];
    for (let k = 0; k < 40; k++) {
      const word = `queue${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}`;
      words.push(word);
      for (let j = 0; j < (k < 24 ? 3 : 1); j++) {
        const n = 100 + k * 140 + j * 40;
        lines[n - 1] = `${stamp(n - 1)} svc worker[7]: ERROR ${word} rejected by upstream`;
      }
    }
    const said = (text: string, word: string) =>
      text.split("\n").some((l) => l.includes(`${word} `));
    for (const maxTokens of [2000, 4000]) {
      const shaped = await shape(lines.join("\n"), { maxTokens });
      expect(shaped.meta.summary?.symptoms).toHaveLength(40);
      expect(shaped.meta.evidence?.rare?.templates).toBeGreaterThan(250);
      for (const word of words)
        expect(said(shaped.text, word), `${word} at ${maxTokens}`).toBe(true);
    }
    // Control: at a budget that holds few lines, the rarest messages are neither shown nor named.
    const small = await shape(lines.join("\n"), { maxTokens: 600 });
    expect(words.filter((w) => !said(small.text, w)).length).toBeGreaterThan(0);
  });
});

describe("warnings past the names' cap", () => {
  // helper-10's case: every held message ranked before rare quiet lines, warnings too, let a
  // compiler's 300 distinct warnings take the place of every rare line.
  it("a flood of distinct warnings does not push out the rare quiet lines", async () => {
    const lines: string[] = [];
    const rare = [
      "Run make -j2 all CFLAGS=-Wall",
      "Configuring build for target linux-gnu with compiler gcc",
      "Entering directory '/build/project/src/vendor/zlib'",
      "Regenerating lexer tables from grammar definition",
    ];
    lines.push(rare[0] as string, rare[1] as string);
    const names = "alpha beta gamma delta epsilon zeta theta iota kappa lambda sigma omega".split(
      " ",
    );
    for (let i = 0; i < 300; i++) {
      if (i % 10 === 0) lines.push(`gcc -c -Wall -O2 src/mod${i}.c -o build/mod${i}.o`);
      const variable = `${names[i % 12]}_${names[Math.floor(i / 12) % 12]}_${names[Math.floor(i / 144)]}`;
      lines.push(
        `src/mod${i}.c:${10 + i}:5: warning: unused variable '${variable}' [-Wunused-variable]`,
      );
      if (i === 120) lines.push("src/parser.c:412:9: error: 'tokenizer_state' undeclared");
      if (i === 150) lines.push(rare[2] as string);
      if (i === 250) lines.push(rare[3] as string);
    }
    lines.push("make: *** [Makefile:20: all] Error 2");
    for (const maxTokens of [1500, 4000]) {
      const shaped = await shape(lines.join("\n"), { maxTokens });
      const shown = new Set(shaped.text.split("\n").map((l) => l.replace(/^\d+\t/, "")));
      for (const line of rare) expect(shown.has(line), `${line} at ${maxTokens}`).toBe(true);
      expect(shown.has("src/parser.c:412:9: error: 'tokenizer_state' undeclared")).toBe(true);
      // Control: the warnings are shown too, as many as the budget holds.
      expect([...shown].filter((l) => l.includes(": warning:")).length).toBeGreaterThan(10);
    }
  });
});

describe("errors first, however many cheaper warnings", () => {
  // helper-9's case: ranking severe lines by cost over a severity weight let a hundred short
  // warning templates take the place of five long errors, which were then neither shown nor named.
  it("a flood of distinct short warnings does not take an error's place", async () => {
    const words = "alpha beta gamma delta epsilon zeta theta iota kappa lambda sigma omega".split(
      " ",
    );
    const lines: string[] = [];
    const errors: string[] = [];
    for (let i = 0; i < 5; i++) {
      const line = `ERROR job${i}: ${Array.from({ length: 20 }, (_, k) => words[(i * 7 + k * 5) % 12]).join(" ")}`;
      errors.push(line);
      lines.push(line);
      for (let k = 0; k < 5; k++) lines.push(`INFO ok ${i}.${k}`);
    }
    for (let i = 0; i < 100; i++) {
      lines.push(`INFO tick ${i}`);
      lines.push(
        `WARN ${words[i % 12]}_${words[Math.floor(i / 12) % 12]}: ${words[(i * 5) % 12]} slow`,
      );
    }
    for (const maxTokens of [600, 1000]) {
      const shaped = await shape(lines.join("\n"), { maxTokens, tool: "logs" });
      for (const e of errors) expect(shaped.text, `${maxTokens}`).toContain(e);
      // Control: the warnings are there too, as the budget allows.
      expect(shaped.text).toMatch(/^(?:\d+\t)?WARN /m);
    }
  });
});

describe("a fit that rescales for more tokens never shows less", () => {
  it("search takes a larger choice only as a prefix that holds the whole fitted one", async () => {
    const cost: Record<string, number> = { a: 10, b: 20, c: 90, d: 90 };
    // Per-unit estimates run double what the exact count finds.
    const attempt = async (units: readonly string[], k: number) => {
      const tokens = units.slice(0, k).reduce((n, u) => n + (cost[u] ?? 0), 0) / 2;
      return tokens <= 100 ? { tokens, units: units.slice(0, k) } : undefined;
    };
    const searchWith = (bigger: string[]) =>
      search({
        choice: { included: ["a", "b"], used: 30 },
        base: 0,
        max: 100,
        total: 4,
        costOf: (u) => cost[u] ?? 0,
        lastCount: () => 0,
        more: () => bigger,
        attempt,
      });
    // At the larger budget a dear unit skipped before (c, d) ranks ahead of b.
    expect((await searchWith(["a", "c", "d", "b"]))?.units).toEqual(["a", "b"]);
    // Negative control: where the larger choice holds the fitted one in its prefix, it is taken.
    const grown = await searchWith(["a", "b", "c", "d"]);
    expect(grown?.units).toEqual(["a", "b", "c"]);
  });
});

describe("a message is named unshown only after its held lines had their turn", () => {
  // Ten one-line error messages in 2,000 quiet lines; some messages share a template with
  // another (`cache failure uniqjaa`, `cache failure uniqeaa`): their line is a later line of
  // that template, which ranks late, but it is the only line of its message.
  function log(seed: number): string {
    let x = seed;
    const rnd = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
    const lines = Array.from(
      { length: 2000 },
      (_, i) =>
        `2026-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO worker-${i % 7} processed item ${i} in ${Math.floor(rnd() * 900)}ms`,
    );
    const kinds = ["disk", "net", "db", "auth", "cache"];
    for (let k = 0; k < 10; k++)
      lines[Math.floor(rnd() * 2000)] =
        `2026-01-01T00:00:00Z ERROR E${k} ${kinds[k % 5]} failure uniq${String.fromCharCode(97 + k)}aa`;
    return lines.join("\n");
  }

  it("the line of a message whose template another began is shown, not named", async () => {
    const shaped = await shape(
      { stdout: log(5), stderr: "", exitCode: 1 },
      { maxTokens: 800, tool: "bash" },
    );
    expect(shaped.meta.tokens).toBeLessThanOrEqual(800);
    // E4 (line 550) and E9 (line 422) share a template; both lines fit the budget.
    expect(shaped.text).toMatch(/^550\t.*ERROR E4 cache failure uniqeaa$/m);
    expect(shaped.text).toMatch(/^422\t.*ERROR E9 cache failure uniqjaa$/m);
    expect(shaped.text).not.toMatch(/not shown, line 550:/);
    expect(shaped.text).toMatch(/evidence 10 of 10/);
    expect(shaped.text).not.toMatch(/ not shown, /);
  });
});

describe("the first line of every severe message is held apart from the evidence groups", () => {
  // Like a real auth log: `user=root` begins the template, `user=guest` follows on later lines of
  // it, early; then a thousand errors of other messages roll the evidence groups over.
  function log(): string {
    const lines: string[] = [];
    const auth = (i: number, who: string) =>
      `Jun 14 15:${String(i % 60).padStart(2, "0")}:01 combo sshd(pam_unix)[${19000 + i}]: authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=10.0.${i % 250}.${i % 7}  user=${who}`;
    for (let i = 0; i < 3000; i++) {
      if (i < 40) lines.push(auth(i, "root"));
      else if (i >= 90 && i < 100) lines.push(auth(i, "guest"));
      else if (i % 3 === 0)
        lines.push(
          `Jun 15 02:${String(i % 60).padStart(2, "0")}:59 combo kernel: ERROR dma${i} ${"abcdefghijklmnopqrstuvwxyz"[i % 26]}${"abcdefghijklmnopqrstuvwxyz"[(i >> 3) % 26]} transfer stalled at block ${i}`,
        );
      else
        lines.push(`Jun 15 02:${String(i % 60).padStart(2, "0")}:59 combo cron[${i}]: job ${i} ok`);
    }
    return lines.join("\n");
  }

  it("a message whose lines all came after its template began is shown by a line", async () => {
    const shaped = await shape(log(), { maxTokens: 2000 });
    expect(shaped.meta.tokens).toBeLessThanOrEqual(2000);
    const guest = shaped.meta.summary?.symptoms.find((s) => s.text.includes("user=guest"));
    expect(guest?.count).toBe(10);
    expect(guest?.shown).toBeGreaterThan(0);
    // Line 91 (its time says which), numbered or not.
    expect(shaped.text).toMatch(/^(?:91\t)?Jun 14 15:30:01 .*user=guest$/m);
    // Control: the message of the template's first line is shown too.
    expect(shaped.text).toMatch(/^(?:1\t)?Jun 14 15:00:01 .*user=root$/m);
  });
});
