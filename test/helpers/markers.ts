/**
 * One parser for the marker grammar of docs/markers.md (version 3), written from the page, not
 * from the code that writes the markers: each rule is a kind and the pattern of its words.
 */
export interface ParsedMarker {
  readonly kind: string;
  readonly groups: readonly (string | undefined)[];
}

const SECTION = "(?:(stdout|stderr) )?";
/** The reasons a page's furniture was left out, as the boilerplate marker names them. */
const BOILERPLATE =
  "(?:navigation|related links|comments|footer|ads|small print|low text density|other text)";
const RULES: ReadonlyArray<readonly [string, RegExp]> = [
  ["gap", new RegExp(`^omitted ${SECTION}lines? (\\d+)(?:-(\\d+))?$`)],
  ["repeat", /^previous line repeated (\d+) more times?$/],
  [
    "like",
    new RegExp(
      `^(at least )?(\\d+) more ${SECTION}lines? like lines? ([\\d, -]+?)(?:, lines? (\\d+)(?:-(\\d+))?)?$`,
    ),
  ],
  [
    "unshown",
    new RegExp(
      `^(\\d+) ${SECTION}(fatal|error|warning)(?: or (?:error|warning))? lines? not shown, lines? (\\d+)(?:-(\\d+))?: (.+)$`,
    ),
  ],
  [
    "hop",
    /^(\d+) lines? by the host's model, summarising what is shown here; not the tool's words$/,
  ],
  ["cap", /^read stopped at maxBytes \((\d+)\); the rest was not read$/],
  [
    "binary",
    /^binary content not shown: ([^,]+), (more than )?(\d+) bytes(?:, sha256 [0-9a-f…]+)?$/,
  ],
  [
    "command",
    /^command (exited with code -?\d+|killed by \w+|exit code unknown|failed \([^)]*\))(?: after airlock stopped reading [a-z ]+ at maxBytes \(which may have ended it\))?; ((?:(?:stdout|stderr) (?:\d+ lines?, (?:more than )?\d+ bytes|not captured))(?:; )?)+$/,
  ],
  [
    "lost",
    /^the first (\d+) bytes of (stdout|stderr|the input) were lost before they could be read$/,
  ],
  [
    "lost",
    /^(stdout|stderr|the input) had already ended before it could be read; any output it carried was lost$/,
  ],
  [
    "uncaptured",
    /^(stdout|stderr) was not captured \(the process wrote it elsewhere\); it is not shown$/,
  ],
  [
    "stopped",
    /^read stopped early \((timeoutMs passed|the host aborted)\); the rest was not read$/,
  ],
  ["stopped", /^read stopped (\d+) ms after the command exited: [^;]+; the rest was not read$/],
  ["section", /^(stdout|stderr)$/],
  ["http", /^HTTP (\d{3})(?: [^\]]*)?$/],
  [
    "read-failed",
    /^reading (stdout|stderr|the input) failed \([^)]*\); the output above may be incomplete$/,
  ],
  ["empty", /^no output$/],
  [
    "summary",
    /^shown (\d+) of (\d+) lines( by number)?(?:, evidence (\d+) of (\d+))?(?:; (?!evidence)(.+))?$/,
  ],
  ["omitted", /^result omitted: it does not fit maxTokens$|^omitted$/],
  ["not-shown", /^result not shown(?: \(budget (\d+) tokens\))?: (.+)$/],
  ["chars", /^(\d+) chars (omitted from this line|omitted from this value|folded)$/],
  ["items", /^(\d+) more items omitted$/],
  ["nesting", /^nesting omitted$/],
  ["tool-error", /^the tool reported an error$/],
  [
    "summary-head",
    /^read_result: the summary of (res_\w+): (?:(?:at least )?(\d+) messages? of ((?:fatal|error|warning)(?:(?:, | or )(?:fatal|error|warning))*) lines|no fatal, error or warning line)$/,
  ],
  [
    "span",
    new RegExp(`^${SECTION}lines? (\\d+)(?:-(\\d+))?(?: to ${SECTION}line (\\d+))?(?:, (.+))?$`),
  ],
  ["sources", /^sources: ([\w.$/()-]+ \d+(?:, [\w.$/()-]+ \d+)*)$/],
  [
    "summary-close",
    /^(?:every message listed|(\d+) of (\d+) messages not listed); to read a message's lines call read_result \{"handle":"res_\w+","template":"(m[0-9a-f]{8})"\} with its id$/,
  ],
  ["read-note", /^read_result: .+$/],
  [
    "earlier",
    /^earlier result of ([\w.:-]+)(?: \(([\w.:-]+)\))?, (ok|partial|empty|error), (\d+) (?:lines?|records?|bytes?)(?:, evidence (\d+))?; (?:read it again: read_result \{"handle":"[\w-]+"(?:,"evidence":true)?\}|it was not kept)$/,
  ],
  [
    "folded",
    /^(\d+) earlier results? folded(?:: ([\w.:-]+ (?:[\w-]+|-)(?:, [\w.:-]+ (?:[\w-]+|-))*))?(?:; (\d+) older ones? not listed)?; read one again: read_result \{"handle":"…"\}$/,
  ],
  ["rerun", /^re-run of ([\w.:#-]+)(?: \(([\w-]+)\))?: (\d+) lines? as before, (\d+) new$/],
  ["hidden", /^(\d+) characters? of hidden text removed$/],
  [
    "boilerplate",
    new RegExp(
      `^main content only; left out (\\d+) characters?(?: in (\\d+) blocks?: (${BOILERPLATE} \\d+(?:, ${BOILERPLATE} \\d+)*))?$`,
    ),
  ],
  ["page-cap", /^page cut at maxBytes$/],
  ["page-streamed", /^a page too large to hold: read as it streamed, in full mode \([^)]*\)$/],
];

/** The marker's kind and its fields, for the text inside `[airlock: …]`; undefined if none fits. */
export function parseMarker(inner: string): ParsedMarker | undefined {
  for (const [kind, re] of RULES) {
    const m = re.exec(inner);
    if (m) return { kind, groups: m.slice(1) };
  }
  return undefined;
}

/** Every `[airlock: …]` in a text, whole lines and inside lines, as the text inside it. */
export function markersIn(text: string): string[] {
  return [...text.matchAll(/\[airlock: ([^\]\n]*)\]/g)].map((m) => m[1] as string);
}

/** True when a text is in the numbered layout: its summary says `by number`. */
export function isNumbered(text: string): boolean {
  return /^\[airlock: shown \d+ of \d+ lines by number\b/m.test(text);
}

/**
 * The lines of a text as the tool wrote them: in the numbered layout each line of tool text
 * starts with its number and a tab, which are airlock's and are taken off; markers stay.
 */
export function toolLines(text: string): string[] {
  const lines = text.split("\n");
  return isNumbered(text) ? lines.map((l) => l.replace(/^\d+\t/, "")) : lines;
}
