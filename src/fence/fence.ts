import { sha256Hex } from "../intake/digest.js";

export interface Fenced {
  readonly text: string;
  readonly boundary: string;
}

/** Hex digits of the boundary: 64 bits, so content cannot be made to contain its own boundary. */
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
 * `full`: the source and a 16-hex-digit boundary. `compact`, for small budgets: no source (the
 * tool message already names its call) and a 9-digit boundary.
 */
export type FenceForm = "full" | "compact";

/** The fence's form for a budget. */
export function formFor(maxTokens: number): FenceForm {
  return maxTokens < COMPACT_FENCE_BELOW ? "compact" : "full";
}

/** Tool names go inside an attribute: keep a safe, short subset of characters. */
export function safeToolName(tool: string | undefined): string {
  const cleaned = (tool ?? "tool").replace(/[^A-Za-z0-9_.:/@-]+/g, "_").slice(0, 64);
  return cleaned === "" ? "tool" : cleaned;
}

/**
 * Wraps text as untrusted data. The boundary is derived from a hash of the body, so the same body
 * always gets the same fence (prompt caches stay warm), and the body cannot contain it: finding a
 * text that contains a 64-bit hash of itself is a preimage search. It is checked anyway, and a
 * counter is mixed in on the (astronomically unlikely) hit. A content line that imitates the
 * closing line carries a different boundary, so it closes nothing.
 *
 * @example
 * const { text, boundary } = await fence("ls: cannot access", "bash");
 * // <untrusted-data source="tool:bash" boundary="…">\nls: cannot access\n</untrusted-data boundary="…">
 */
export async function fence(
  body: string,
  tool: string | undefined,
  digestOf: (text: string) => Promise<string> = sha256Hex,
  form: FenceForm = "full",
): Promise<Fenced> {
  const name = safeToolName(tool);
  let salt = 0;
  for (;;) {
    const digest = await digestOf(`airlock-fence\u0000${name}\u0000${salt}\u0000${body}`);
    const boundary =
      form === "full"
        ? digest.slice(0, BOUNDARY_HEX)
        : String(Number.parseInt(digest.slice(0, 8), 16) % 10 ** COMPACT_DIGITS).padStart(
            COMPACT_DIGITS,
            "0",
          );
    // The check, not the length, is what makes the boundary unforgeable: a body that contains
    // it (by chance or by a search) gets another one.
    if (!body.includes(boundary)) {
      const source = form === "full" ? ` source="tool:${name}"` : "";
      const open = `<untrusted-data${source} boundary="${boundary}">`;
      const close = `</untrusted-data boundary="${boundary}">`;
      return { text: `${open}\n${body}\n${close}`, boundary };
    }
    salt++;
  }
}

const OPENING =
  /^<untrusted-data(?: source="tool:[A-Za-z0-9_.:/@-]{1,64}")? boundary="([0-9a-f]{16}|[0-9]{9})">\n/;

/**
 * The body of a text that is exactly one airlock fence and nothing else (a shaping server's
 * output, read by a shaping client): the opening line, the body, the closing line with the same
 * boundary, and the boundary nowhere in the body. Anything else (text outside the fence, a second
 * fence, a forged or mismatched closing line) is undefined: it is tool text like any other.
 *
 * @example
 * unfence('<untrusted-data boundary="123456789">\nhello\n</untrusted-data boundary="123456789">'); // "hello"
 */
export function unfence(text: string): string | undefined {
  const m = OPENING.exec(text.slice(0, 160));
  if (m === null) return undefined;
  const boundary = m[1] as string;
  const close = `\n</untrusted-data boundary="${boundary}">`;
  if (text.length < m[0].length + close.length || !text.endsWith(close)) return undefined;
  const body = text.slice(m[0].length, text.length - close.length);
  return body.includes(boundary) ? undefined : body;
}
