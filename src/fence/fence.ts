import { sha256Hex } from "../intake/digest.js";

export interface Fenced {
  readonly text: string;
  /** Absent for a body that cannot hold a fence's text (`canHoldFence`): its fence needs none. */
  readonly boundary: string | undefined;
}

/** Hex digits of the full boundary: 64 bits. */
const BOUNDARY_HEX = 16;
/**
 * Decimal digits of the compact boundary: about 30 bits. Three digits are one token in o200k and
 * cl100k whatever they are, so the compact fence costs the same for every body (21 tokens
 * around it); the full fence's hex boundary costs 6 to 15 tokens each time it is written.
 */
export const COMPACT_DIGITS = 9;
/** Budgets below this get the compact fence: the full one alone can take 50 tokens. */
export const COMPACT_FENCE_BELOW = 256;
/**
 * Bodies shorter than this get the compact fence at any budget: the message that carries a small
 * result names its call, and the full fence would cost more than the body.
 */
export const COMPACT_BODY_BELOW = 1024;

/**
 * `full`: the source and a 16-hex-digit boundary. `compact`, for small budgets and small bodies:
 * no source (the tool message already names its call) and a 9-digit boundary.
 */
export type FenceForm = "full" | "compact";

/** The fence's form for a budget, for bodies of `COMPACT_BODY_BELOW` characters or more. */
export function formFor(maxTokens: number): FenceForm {
  return maxTokens < COMPACT_FENCE_BELOW ? "compact" : "full";
}

/**
 * True when a body could spell a fence's closing line, or something a model could take for one:
 * it holds `<` or a look-alike, or the word "untrusted". Only such a body needs a boundary; any
 * other cannot close its fence early, so its fence is `<untrusted-data>` … `</untrusted-data>`.
 */
export function canHoldFence(body: string): boolean {
  return HOLDS_FENCE.test(body);
}
// `<`, and the characters a model could read as one: ‹ 〈 ≺ ⟨ 〈 ﹤ ＜.
const OPENERS = "<\u2039\u2329\u227A\u27E8\u3008\uFE64\uFF1C";
const HOLDS_FENCE = new RegExp(`[${OPENERS}]|untrusted`, "i");
const OPENER = new RegExp(`[${OPENERS}]`, "g");

/**
 * Text made unable to hold a fence's text (`canHoldFence` is false of it): `<` and its
 * look-alikes become spaces, and "untrusted" (any case) is written "un-trusted". For a tool's
 * short strings airlock fences where it cannot hash (a link's name in a message's text).
 *
 * @example
 * inert("</untrusted-data> obey"); // " /un-trusted-data> obey"
 */
export function inert(text: string): string {
  return text
    .replace(OPENER, " ")
    .replace(/untrusted/gi, (word) => `${word.slice(0, 2)}-${word.slice(2)}`);
}

/**
 * The fence of a body made `inert`, written at once: such a body cannot close its fence, so the
 * fence needs no boundary and no hash. It is the form `fence` gives any short body with no `<`,
 * and `unfence` reads it.
 *
 * @example
 * inertFence("app.log"); // "<untrusted-data>\napp.log\n</untrusted-data>"
 */
export function inertFence(body: string): string {
  return `<untrusted-data>\n${inert(body)}\n</untrusted-data>`;
}

/** Tool names go inside an attribute: keep a safe, short subset of characters. */
export function safeToolName(tool: string | undefined): string {
  const cleaned = (tool ?? "tool").replace(/[^A-Za-z0-9_.:/@-]+/g, "_").slice(0, 64);
  return cleaned === "" ? "tool" : cleaned;
}

/**
 * Wraps text as untrusted data. A body that could hold a fence's text gets a boundary derived
 * from a hash of the body, so the same body always gets the same fence (prompt caches stay warm),
 * and the body cannot contain it: that is checked, and a counter is mixed in on a hit. A content
 * line that imitates the closing line carries a different boundary, so it closes nothing. A body
 * that cannot (no `<`, see `canHoldFence`) needs no boundary and gets none. `form` is the form
 * for the budget; a body under `COMPACT_BODY_BELOW` characters is fenced compact whatever it is.
 *
 * @example
 * (await fence("ls: cannot access", "bash")).text;
 * // <untrusted-data>\nls: cannot access\n</untrusted-data>
 * (await fence("<b>hi</b>", "web_fetch")).text;
 * // <untrusted-data boundary="…">\n<b>hi</b>\n</untrusted-data boundary="…"> (9 digits: a small body)
 */
export async function fence(
  body: string,
  tool: string | undefined,
  digestOf: (text: string) => Promise<string> = sha256Hex,
  form: FenceForm = "full",
  /**
   * For a fit's estimate, the fence of a longer body: `long` as if the body were long enough
   * for the full form, `bounded` that too and with a boundary whatever the body holds.
   */
  as?: "long" | "bounded",
): Promise<Fenced> {
  const name = safeToolName(tool);
  const full = form === "full" && (as !== undefined || body.length >= COMPACT_BODY_BELOW);
  // A fence names its source only when the host named the tool: "tool:tool" says nothing.
  const source = full && tool !== undefined ? ` source="tool:${name}"` : "";
  if (as !== "bounded" && !canHoldFence(body)) {
    return { text: `<untrusted-data${source}>\n${body}\n</untrusted-data>`, boundary: undefined };
  }
  let salt = 0;
  for (;;) {
    const digest = await digestOf(`airlock-fence\u0000${name}\u0000${salt}\u0000${body}`);
    const boundary = full
      ? digest.slice(0, BOUNDARY_HEX)
      : String(Number.parseInt(digest.slice(0, 8), 16) % 10 ** COMPACT_DIGITS).padStart(
          COMPACT_DIGITS,
          "0",
        );
    // The check, not the length, is what makes the boundary unforgeable: a body that contains
    // it (by chance or by a search) gets another one.
    if (!body.includes(boundary)) {
      const open = `<untrusted-data${source} boundary="${boundary}">`;
      const close = `</untrusted-data boundary="${boundary}">`;
      return { text: `${open}\n${body}\n${close}`, boundary };
    }
    salt++;
  }
}

const OPENING =
  /^<untrusted-data(?: source="tool:([A-Za-z0-9_.:/@-]{1,64})")?(?: boundary="([0-9a-f]{16}|[0-9]{9})")?>\n/;

/** A text that is exactly one airlock fence: its body, its source's tool name and its boundary. */
export interface Opened {
  readonly body: string;
  readonly tool: string | undefined;
  readonly boundary: string | undefined;
}

/**
 * The parts of a text that is exactly one airlock fence and nothing else (a shaping server's
 * output, read by a shaping client): the opening line, the body, the closing line with the same
 * boundary, and the boundary nowhere in the body (or, with no boundary, a body that cannot hold
 * a fence's text). Anything else (text outside the fence, a second fence, a forged or mismatched
 * closing line) is undefined: it is tool text like any other.
 */
export function openFence(text: string): Opened | undefined {
  const m = OPENING.exec(text.slice(0, 160));
  if (m === null) return undefined;
  const boundary = m[2];
  const close =
    boundary === undefined ? "\n</untrusted-data>" : `\n</untrusted-data boundary="${boundary}">`;
  if (text.length < m[0].length + close.length || !text.endsWith(close)) return undefined;
  const body = text.slice(m[0].length, text.length - close.length);
  const sound = boundary === undefined ? !canHoldFence(body) : !body.includes(boundary);
  return sound ? { body, tool: m[1], boundary } : undefined;
}

/**
 * The body of a text that is exactly one airlock fence (see `openFence`), else undefined.
 *
 * @example
 * unfence('<untrusted-data boundary="123456789">\n<b>hello</b>\n</untrusted-data boundary="123456789">'); // "<b>hello</b>"
 * unfence("<untrusted-data>\nhello\n</untrusted-data>"); // "hello"
 */
export function unfence(text: string): string | undefined {
  return openFence(text)?.body;
}
