/**
 * `read_result` over a stored text result: a range of lines, the context around one line, the
 * lines a `grep` matches in line order, the lines of one message of the summary (`template`)
 * in line order, or the evidence lines (the one severity scale of the first page): of the whole
 * result by level, most severe first, each level in line order; of a range or a section in line
 * order; page after page. A page
 * holds what its search found first and lays it out by position, so its gap markers read
 * straight. Each page reads only the parts it needs (a range costs O(page));
 * a search reads on from where the last page stopped, within the call's step budget, and says
 * where it stopped. Each page's closing marker names the call that reads on.
 */
import type { ResolvedTokenizer } from "../fit/tokenizer.js";
import type { Outcome } from "../pipeline/facts.js";
import { noteMarker } from "../pipeline/markers.js";
import { buildShaped } from "../pipeline/meta.js";
import { readCall } from "../pipeline/read-back.js";
import type { ReadArgs, ReadMeta, Shaped } from "../pipeline/shaped.js";
import { symptomKey } from "../pipeline/symptom-id.js";
import type { SectionName, Severity } from "../pipeline/unit.js";
import type { ReadRequest } from "./args.js";
import { compileGrep } from "./grep.js";
import {
  errorPage,
  type PageOptions,
  type ReaderState,
  stepBudget,
  textPageFacts,
  withRead,
} from "./page.js";
import type { ResultStore, StoredText } from "./store.js";
import { BOUNDARY_PAIR, fitTextPage, growthReserve, type PageLine } from "./text-page.js";
import {
  evidenceMatcher,
  LEVEL_NAMES,
  type LineSearch,
  levelsFrom,
  regexHint,
  searchOf,
  severityOf,
  templateMatcher,
} from "./text-search.js";
import { type SectionText, type StoredLine, sectionsOf } from "./text-source.js";
import type { EvidenceLevel } from "./tool.js";

/** Lines of context on each side of `around`'s line, unless `pageSize` says otherwise. */
const AROUND = 20;

type Op = "lines" | "around" | "grep" | "evidence" | "template";

/**
 * @example
 * const page = await readText(options, state, store, counter, manifest, request);
 */
export async function readText(
  o: PageOptions,
  state: ReaderState,
  store: ResultStore,
  counter: ResolvedTokenizer,
  stored: StoredText,
  req: ReadRequest,
): Promise<Shaped> {
  const budget = stepBudget(o.maxSteps);
  const op: Op =
    req.grep !== undefined
      ? "grep"
      : req.template !== undefined
        ? "template"
        : req.evidence
          ? "evidence"
          : req.around !== undefined
            ? "around"
            : "lines";
  const searching = op === "grep" || op === "evidence" || op === "template";
  const refuse = (message: string) =>
    errorPage(o, counter, "tool/invalid-input", `read_result: ${message}`, {
      kind: "text",
      op: "refused",
      steps: budget.steps,
    });
  const all = sectionsOf(stored, store, state.parts, o.lineCap);
  // Shown as the first page shows them: stderr first (it is where a failing command says why).
  const ordered = [...all].sort((a, b) => rank(a.name) - rank(b.name));
  const names = ordered.map((s) => s.name).join(", ");
  let start: SectionText | undefined;
  if (req.section !== undefined) {
    start = ordered.find((s) => s.name === req.section);
    if (!start) return refuse(`this result has no ${req.section} (it has ${names})`);
  } else if (searching) {
    start = ordered[0];
  } else {
    // A range of a command's output without a section reads its longest stream.
    start = ordered.reduce((a, b) => (b.lines > a.lines ? b : a));
  }
  if (start === undefined) return refuse("the stored result holds no text");
  const named = ordered.length > 1;
  const limit = Math.min(req.pageSize ?? 1000, 1000);

  let matcher: LineSearch | undefined;
  if (op === "grep") {
    const m = compileGrep(req.grep as string);
    if (typeof m === "string") return refuse(m);
    matcher = searchOf(m);
  }
  // A message's lines are keyed as the first page keyed them: cut at the cap it stored with.
  const keyCap = stored.info.lineCap ?? o.lineCap;
  /** The search of one section (a template's anchors follow the section's layout). */
  const searchIn = async (s: SectionText): Promise<LineSearch> =>
    op === "evidence"
      ? searchOf(evidenceMatcher(level))
      : op === "template"
        ? await templateMatcher(
            req.template as string,
            symptomKey(req.template as string) as number,
            s,
          )
        : (matcher as LineSearch);
  // An evidence search of the whole result goes level by level, most severe first, each
  // through every section; one of a range or a section (`lines` or `section`, no `level`) reads
  // the evidence there in line order, every level at once. A `level` resumes a search by level
  // at `section` and `lines.from`; the levels after it read every section from the first.
  const byLevel =
    op === "evidence" &&
    (req.level !== undefined || (req.lines === undefined && req.section === undefined));
  if (byLevel && req.level !== undefined && req.lines?.to !== undefined)
    return refuse(
      "level reads on a search by level and takes no lines.to; for the evidence of a range in line order, leave level out",
    );
  let level: Severity = byLevel ? severityOf(req.level ?? "fatal") : 0;
  const levelOf = new Map<PageLine, Severity>();

  const candidates: PageLine[] = [];
  let chars = 0;
  // A search stops once it holds about a page (at two characters a token, which log lines full
  // of numbers come close to): what it found past that is found again by the next call.
  const capacity = searching ? Math.min(o.capacity, o.maxTokens * 4) : o.capacity;
  const room = () => candidates.length < limit && chars < capacity;
  const take = (section: SectionName) => (line: StoredLine) => {
    const candidate = { ...line, section };
    candidates.push(candidate);
    if (level > 0) levelOf.set(candidate, level);
    chars += line.text.length + 1;
    return room();
  };
  const from = req.lines?.from ?? 1;
  let header: string[] = [];
  /** A line a search passed over: it alone needs more steps than one call may take. */
  let unsearched: number | undefined;
  /** Where a search stopped: the first line it did not look at, in `section`. */
  let scanEnd: { section: SectionText; line: number } | undefined;
  const sections: SectionText[] = [];

  if (op === "around") {
    const at = req.around as number;
    if (at > start.lines)
      return refuse(`line ${at} is past the last line (${start.lines}) of ${start.name}`);
    const context =
      req.pageSize !== undefined ? Math.max(0, Math.floor((req.pageSize - 1) / 2)) : AROUND;
    const lo = Math.max(1, at - context);
    const hi = Math.min(start.lines, at + context);
    const window: PageLine[] = [];
    await start.walk(
      lo,
      (line) => {
        window.push({ ...line, section: start.name });
        return line.index < hi;
      },
      budget,
    );
    // Nearest first, so the window shrinks evenly around the line when the budget is short.
    window.sort((a, b) => Math.abs(a.index - at) - Math.abs(b.index - at) || a.index - b.index);
    for (const line of window) candidates.push(line);
    sections.push(start);
    header = [
      noteMarker(
        `read_result: ${start.name === "text" ? "" : `${start.name} `}lines around line ${at}`,
      ),
    ];
  } else if (op === "lines") {
    if (from > start.lines && start.lines > 0)
      return refuse(`line ${from} is past the last line (${start.lines}) of ${start.name}`);
    const to = Math.min(req.lines?.to ?? start.lines, start.lines);
    const keep = take(start.name);
    await start.walk(from, (line) => keep(line) && line.index < to, budget, { until: to });
    sections.push(start);
  } else {
    const to = req.lines?.to;
    let searched = 0;
    let first = start;
    let begin0 = from;
    for (;;) {
      // Section after section in the order shown, from `from` in the first; `lines.to` bounds
      // the first section only, and then the search ends there.
      for (const s of ordered.slice(ordered.indexOf(first))) {
        const begin = s === first ? begin0 : 1;
        const end = s === first && to !== undefined ? Math.min(to, s.lines) : s.lines;
        if (!sections.includes(s)) sections.push(s);
        const keep = take(s.name);
        const test = begin > end ? undefined : await searchIn(s);
        let stopAt: number | undefined;
        const next =
          begin > end
            ? begin
            : await s.walk(
                begin,
                (line) => {
                  // The whole line is searched, not the part of it a page would show.
                  const hit = (test as LineSearch).hit(line, budget);
                  if (!hit && budget.stopped) {
                    // The budget ran out before this line was searched: the next call starts
                    // here, unless it is the first line of the call (one line that alone needs
                    // more steps than a call may take is passed over, and said so).
                    if (searched > 0) stopAt = line.index;
                    else unsearched = line.index;
                    return false;
                  }
                  searched++;
                  if (hit && !keep(line)) return false;
                  return line.index < end && !budget.stopped;
                },
                budget,
                {
                  until: end,
                  ...(test?.probe ? { probe: test.probe } : {}),
                  ...(op === "template" ? { keyCap } : {}),
                },
              );
        scanEnd = { section: s, line: stopAt ?? next };
        if (!room() || budget.stopped || scanEnd.line <= end || to !== undefined) break;
      }
      // This level searched to its end with room left: the next level, from the start.
      const done =
        scanEnd !== undefined &&
        scanEnd.line >
          (to !== undefined ? Math.min(to, scanEnd.section.lines) : scanEnd.section.lines) &&
        (to !== undefined || scanEnd.section === ordered[ordered.length - 1]);
      if (level <= 1 || !done || !room() || budget.stopped) break;
      level = (level - 1) as Severity;
      first = ordered[0] as SectionText;
      begin0 = 1;
    }
    const what = op === "template" ? `lines of message ${req.template}` : (matcher?.describe ?? "");
    const range = req.lines ? `, from line ${from}${to !== undefined ? ` to ${to}` : ""}` : "";
    header = [
      noteMarker(
        `read_result: ${op === "evidence" ? (byLevel ? `evidence lines, ${levelsFrom(req.level)}` : "evidence lines, in line order") : what}${range}`,
      ),
    ];
    if (unsearched !== undefined && scanEnd) {
      header.push(
        noteMarker(
          `line ${unsearched}${named ? ` of ${scanEnd.section.name}` : ""} was not searched: it needs more steps than one call may take`,
        ),
      );
    }
  }

  const base: ReadArgs = { handle: stored.handle };
  const withSize = (args: Record<string, unknown>): ReadArgs =>
    ({ ...args, ...(req.pageSize !== undefined ? { pageSize: req.pageSize } : {}) }) as ReadArgs;
  const search = (at: Severity): ReadArgs =>
    op === "grep"
      ? { grep: req.grep as string }
      : op === "template"
        ? { template: req.template as string }
        : op === "evidence"
          ? { evidence: true, ...(byLevel ? { level: LEVEL_NAMES[at] as EvidenceLevel } : {}) }
          : {};

  /** The call that reads on after the first `k` candidates, or undefined at the end. */
  const nextArgs = (k: number): ReadArgs | undefined => {
    const to = req.lines?.to;
    const within = (section: SectionName) => (named ? { section } : {});
    if (op === "lines" || op === "around") {
      const shown = candidates.slice(0, k);
      let last = 0;
      for (const c of shown) if (c.index > last) last = c.index;
      const s = start as SectionText;
      const count = Math.max(1, shown.length);
      if (last > 0 && last < s.lines) {
        // The next page asks for as many lines as this one was asked for (or showed): a page
        // the budget cut short does not make the ones after it shorter.
        const asked = req.pageSize ?? (op === "lines" && to !== undefined ? to - from + 1 : count);
        const until = last + Math.max(asked, count);
        return withSize({
          ...base,
          ...within(s.name),
          lines: { from: last + 1, to: Math.min(s.lines, until) },
        });
      }
      const after = ordered[ordered.indexOf(s) + 1];
      return after && after.lines > 0 && last > 0
        ? withSize({
            ...base,
            section: after.name,
            lines: { from: 1, to: Math.min(after.lines, count) },
          })
        : undefined;
    }
    const keepTo = (section: SectionName) =>
      to !== undefined && section === start?.name ? { to } : {};
    const pending = candidates[k];
    if (pending !== undefined) {
      return withSize({
        ...base,
        ...search(levelOf.get(pending) ?? level),
        ...within(pending.section),
        lines: { from: pending.index, ...keepTo(pending.section) },
      });
    }
    if (scanEnd === undefined) return undefined;
    const s = scanEnd.section;
    if (scanEnd.line <= Math.min(s.lines, s === start && to !== undefined ? to : s.lines)) {
      return withSize({
        ...base,
        ...search(level),
        ...within(s.name),
        lines: { from: scanEnd.line, ...keepTo(s.name) },
      });
    }
    const after = to !== undefined ? undefined : ordered[ordered.indexOf(s) + 1];
    if (after) return withSize({ ...base, ...search(level), section: after.name });
    // The last section searched at this level: an evidence search goes on at the next one.
    if (!byLevel || level <= 1) return undefined;
    const first = ordered[0];
    return withSize({
      ...base,
      ...search((level - 1) as Severity),
      ...(named && first ? within(first.name) : {}),
    });
  };
  const hint = (k: number): string => {
    const args = nextArgs(k);
    // Every candidate shown and the budget spent: the search itself stopped there.
    const bound =
      budget.stopped && k >= candidates.length ? "the search stopped at its step bound; " : "";
    if (args) return `${bound}to read on call ${readCall(args)}`;
    if (op === "grep" && k === 0)
      return `no line matches${regexHint(req.grep as string, stored.handle)}`;
    // A call that reads on (from a line, or at a level below the first) found nothing more.
    const first = req.lines?.from === undefined && req.level === undefined;
    if (searching) return k === 0 && first ? "no line matches" : "no more lines match";
    return `that is the last line${named ? ` of ${(start as SectionText).name}` : ""}`;
  };

  // Sections are laid out in the order shown, whichever level's search reached them first.
  sections.sort((a, b) => ordered.indexOf(a) - ordered.indexOf(b));
  // A search's page leaves room for what a later page may add to it, so that a search that
  // pages at all pages to its end: each page reserves only the growth still to come from where
  // it is (a page that already holds a boundary or four-digit numbers reserves none for them).
  const reserve = searching
    ? await growthReserve(counter, {
        first: req.lines === undefined,
        from,
        last: ordered[ordered.length - 1]?.lines ?? 0,
        elsewhere: named && !sections.includes(ordered[ordered.length - 1] as SectionText),
        lower: op === "evidence" && byLevel && req.level === undefined,
      })
    : 0;
  const boundary = reserve > 0 ? await counter.count(BOUNDARY_PAIR) : 0;
  const fitWithin = (room: number) =>
    fitTextPage(
      {
        sections: sections.map((s) => ({ name: s.name, lines: s.lines })),
        candidates,
        header,
        labelled: named,
        maxTokens: o.maxTokens - room,
        next: hint,
      },
      counter,
      o.presenter,
    );
  let page = await fitWithin(reserve + boundary);
  // Its fence has a boundary already: no later page adds one.
  if (reserve > 0 && page.boundary !== undefined) page = await fitWithin(reserve);
  // Not even a shortened line fits beside the call that reads on (a long grep, say): the page
  // says so rather than claiming the end.
  if (page.shown === 0 && candidates.length > 0) {
    return errorPage(
      o,
      counter,
      "tool/invalid-input",
      `read_result: a page of this call does not fit in ${o.maxTokens} tokens with the call that reads on; a shorter grep or a reader with a larger maxTokens reads it`,
      { kind: "text", op, steps: budget.steps },
      false,
      `read_result: maxTokens ${o.maxTokens} is too small for this page`,
    );
  }
  const shown = candidates.slice(0, page.shown);
  const facts = textPageFacts(stored.info, sections);
  const outcome: Outcome = {
    text: page.text,
    boundary: page.boundary,
    tokens: page.tokens,
    tokenizer: counter.name,
    cuts: page.cuts,
    sections: sections.map((s) => {
      const n = shown.filter((c) => c.section === s.name).length;
      return { name: s.name, lines: s.lines, keptLines: n, evidenceLines: 0, keptEvidenceLines: 0 };
    }),
    status: "ok",
  };
  const shaped = await buildShaped(facts, outcome, o.meta);
  let lo = Number.POSITIVE_INFINITY;
  let hi = 0;
  for (const c of shown) {
    if (c.index < lo) lo = c.index;
    if (c.index > hi) hi = c.index;
  }
  const read: ReadMeta = {
    kind: "text",
    op,
    steps: budget.steps,
    section: shown[0]?.section ?? start.name,
    ...(shown.length > 0 ? { from: lo, to: hi } : {}),
    ...(budget.stopped ? { stopped: true } : {}),
  };
  return withRead(shaped, stored.handle, read, nextArgs(page.shown));
}

function rank(name: SectionName): number {
  return name === "stderr" ? 0 : 1;
}

export { errorPage };
