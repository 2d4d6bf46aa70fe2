import { isPublicName, looksSecret, PLACEHOLDER_VALUES } from "./judge.js";
import type { Span } from "./spans.js";

/**
 * Name/value pairs that other lines or markup split apart, which a one-line rule cannot see: a
 * name whose assignment ends its line and whose value comes after comment or blank lines
 * (`DB_PASSWORD=`, `# set in prod`, then the value; pretty-printed JSON's `"password":` and the
 * value on the next line), a Terraform variable whose `default` is a password, and HTML that
 * puts a `password` header over a table column (`<th>`/`<td>`) or a term over its description
 * (`<dt>`/`<dd>`). Each walk is linear and bounded.
 */

/**
 * Markers for the keyword prefilter: the Terraform and markup walks run on text holding one.
 * (Dangling names need none: they are looked for on the lines the rules' keywords hit.)
 */
export const SPLIT_KEYWORDS: readonly string[] = ["variable", "<th", "<dt"];

/** A name that names a secret (the judge's public names are set aside after this). */
const SECRET_NAME =
  /pass(?:word|wd|phrase)?(?![a-z])|pwd|secret|token|api[_.-]?key|apikey|credential|private[_.-]?key|access[_.-]?key|auth[_.-]?key/i;
/** Lines between a name and its value that are not the value: blank, or a comment. */
const FILLER = /^[ \t]*(?:(?:#|\/\/|;|--)[^\r\n]*)?\r?$/;
/** A line that ends in a name and an assignment: `DB_PASSWORD=`, `"password":`, `secret =>`. */
const NAME_AT_END = /["']?([A-Za-z0-9_.-]{1,80})["']?[ \t]*(?:=|:=|:|=>)[ \t]*\r?$/;
/** A line that is one value: quoted (a JSON member's value, its comma after), or a bare token. */
const VALUE_LINE =
  /^[ \t]*(?:"((?:[^"\\\r\n]|\\[^\r\n]){1,1024})"|'([^'\r\n]{1,1024})'|([^\s"'#,;:={}[\]<>]{6,512}={0,2}))[ \t]*,?[ \t]*\r?$/;
/** Lines looked at after a name for its value. */
const MAX_FILLER = 3;
/** How far a line's end is read back for its name. */
const NAME_REACH = 128;

function secretName(name: string): boolean {
  return SECRET_NAME.test(name) && !isPublicName(name);
}

function secretValue(value: string): boolean {
  return !PLACEHOLDER_VALUES.test(value) && looksSecret(value);
}

/** A cell's value: one token (a sentence in a cell describes the secret). */
function secretCell(value: string): boolean {
  return value !== "" && !/\s/.test(value) && secretValue(value);
}

function push(spans: Span[], start: number, value: string): void {
  spans.push({ rule: "split_secret", start, end: start + value.length, generality: 2 });
}

/** The start of the line after the one ending at `end` (-1 at the text's end). */
function nextLine(text: string, end: number): number {
  return end >= text.length ? -1 : end + 1;
}

function lineEnd(text: string, start: number): number {
  const k = text.indexOf("\n", start);
  return k === -1 ? text.length : k;
}

/**
 * A line (`start` to `end`) that ends in a name and its assignment, and the name's value after up
 * to three blank or comment lines: `DB_PASSWORD=`, `# set in prod`, then the value.
 */
export function findDanglingValue(text: string, start: number, end: number, spans: Span[]): void {
  let last = end - 1;
  while (last > start && (text[last] === " " || text[last] === "\t" || text[last] === "\r")) last--;
  const c = text[last];
  if (c !== "=" && c !== ":" && c !== ">") return;
  const m = NAME_AT_END.exec(text.slice(Math.max(start, end - NAME_REACH), end));
  if (m === null || !secretName(m[1] as string)) return;
  let at = nextLine(text, end);
  for (let k = 0; at !== -1 && k <= MAX_FILLER; k++) {
    const e = lineEnd(text, at);
    const line = text.slice(at, e);
    // The next name of a list of them (`GITHUB_TOKEN=` under `AWS_SECRET_ACCESS_KEY=`).
    if (NAME_AT_END.test(line)) return;
    const v = VALUE_LINE.exec(line);
    if (v !== null) {
      const value = (v[1] ?? v[2] ?? v[3]) as string;
      if (secretValue(value)) push(spans, at + line.indexOf(value), value);
      return;
    }
    if (!FILLER.test(line)) return;
    at = nextLine(text, e);
  }
}

const TF_VARIABLE = /\bvariable[ \t]+"([^"\r\n]{1,100})"[ \t]*\{/g;
const TF_DEFAULT = /(?:^|[\s{])default[ \t]*=[ \t]*"((?:[^"\\\r\n]|\\[^\r\n]){1,1024})"/;
const TF_SENSITIVE = /(?:^|[\s{])sensitive[ \t]*=[ \t]*true\b/;
/** How far into a variable block its `default` is looked for. */
const TF_REACH = 4096;

/** `variable "db_password" { … default = "…" }`: a secret's default, or a `sensitive` one's. */
function findTerraformDefaults(text: string, spans: Span[]): void {
  TF_VARIABLE.lastIndex = 0;
  for (let m = TF_VARIABLE.exec(text); m !== null; m = TF_VARIABLE.exec(text)) {
    const open = m.index + m[0].length;
    let body = text.slice(open, open + TF_REACH);
    // The block ends at a closing brace that starts a line, or at the first one on its own line.
    const close = /\n\}|^[^\n]*?\}/.exec(body);
    if (close !== null) body = body.slice(0, close.index + close[0].length);
    const d = TF_DEFAULT.exec(body);
    if (d === null) continue;
    const value = d[1] as string;
    if (!secretName(m[1] as string) && !TF_SENSITIVE.test(body)) continue;
    if (!secretValue(value)) continue;
    push(spans, open + d.index + d[0].length - value.length - 1, value);
  }
}

const CELL = /<(\/?)(tr|th|td|dt|dd)\b[^>]{0,256}>/gi;
/** A cell's own text: up to the next tag, past inline tags that open it (`<code>`, `<span>`). */
const CELL_TEXT =
  /^(?:\s|<(?:code|span|kbd|samp|tt|b|strong|em|i|pre)\b[^>]{0,256}>){0,8}([^<]{1,512})/i;

/**
 * Table columns under a header that names a secret, a row's cell after such a header, and a
 * `<dd>` after a `<dt>` that names one.
 */
function findMarkupPairs(text: string, spans: Span[]): void {
  let headers: boolean[] = [];
  let row: boolean[] = [];
  let rowHasData = false;
  let column = 0;
  let previousSecret = false;
  let termSecret = false;
  CELL.lastIndex = 0;
  for (let m = CELL.exec(text); m !== null; m = CELL.exec(text)) {
    const closing = m[1] === "/";
    const tag = (m[2] as string).toLowerCase();
    if (closing) {
      if (tag === "tr" && !rowHasData && row.length > 0) headers = row;
      continue;
    }
    const at = m.index + m[0].length;
    const t = CELL_TEXT.exec(text.slice(at, at + 1024));
    const raw = t?.[1] ?? "";
    const cell = raw.trim();
    const cellStart = at + (t === null ? 0 : t[0].length - raw.length) + raw.indexOf(cell);
    if (tag === "tr") {
      if (!rowHasData && row.length > 0) headers = row;
      row = [];
      rowHasData = false;
      column = 0;
      previousSecret = false;
    } else if (tag === "th") {
      const named = cell !== "" && secretName(cell);
      row.push(named);
      previousSecret = named;
      column++;
    } else if (tag === "td") {
      rowHasData = true;
      const under = headers[column] === true || previousSecret;
      if (under && secretCell(cell)) push(spans, cellStart, cell);
      previousSecret = false;
      column++;
    } else if (tag === "dt") {
      termSecret = cell !== "" && secretName(cell);
    } else if (tag === "dd") {
      if (termSecret && secretCell(cell)) push(spans, cellStart, cell);
      termSecret = false;
    }
  }
}

/** Terraform defaults and markup pairs in `text` (see the module's comment). */
export function findSplitPairs(text: string, spans: Span[]): void {
  if (text.includes("variable")) findTerraformDefaults(text, spans);
  if (/<(?:t[hd]|d[td])\b/i.test(text)) findMarkupPairs(text, spans);
}
