/**
 * Markdown that marked reads without showing it, made visible: the person watching sees all the
 * tool's text the model read. A reference definition (`[x]: http://…`) renders as nothing; a
 * table row's cells past its header's count are dropped (GFM).
 */

/** A line that defines a link reference: shown as text, its `[` escaped. */
const DEFINITION = /^ {0,3}\[(?:[^\]\\\n]|\\.){1,999}\]:/;
/**
 * A table's delimiter row (`-|-`, `|:--|--:|`), trimmed: it holds a pipe. Each run of spaces is
 * read one way (linear on a hostile line; the untrimmed form was quadratic in its spaces).
 */
const DELIMITER_ROW = /^\|?(?: *:?-+:? *\|)* *:?-+:? *\|?$/;

/**
 * @example
 * showDefinition("[x]: http://example.com/"); // "\\[x]: http://example.com/"
 */
export function showDefinition(line: string): string {
  return DEFINITION.test(line) ? line.replace("[", "\\[") : line;
}

/** The cells a table row's header gives the rows under it, when `line` is a delimiter row. */
export function tableCells(header: string, line: string): number | undefined {
  if (!line.includes("|") || !DELIMITER_ROW.test(line.trim())) return undefined;
  return separators(header).length + 1;
}

/**
 * A body row with more cells than its header: the surplus separators escaped, so what they
 * held stays in the last cell instead of being dropped.
 *
 * @example
 * keepCells("x|y|token=1", 2); // "x|y\\|token=1"
 */
export function keepCells(line: string, cells: number): string {
  const at = separators(line);
  if (at.length < cells) return line;
  let out = "";
  let from = 0;
  for (const i of at.slice(cells - 1)) {
    out += `${line.slice(from, i)}\\`;
    from = i;
  }
  return out + line.slice(from);
}

/** Positions of a row's unescaped pipes between cells (not a leading or a trailing one). */
function separators(line: string): number[] {
  const at: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x7c) at.push(i);
  }
  const first = line.search(/\S/);
  const last = line.trimEnd().length - 1;
  return at.filter((i) => i !== first && i !== last);
}
