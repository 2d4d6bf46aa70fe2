import { sha256Hex } from "../intake/digest.js";

export interface Fenced {
  readonly text: string;
  readonly boundary: string;
}

/** Hex digits of the boundary: 64 bits, so content cannot be made to contain its own boundary. */
const BOUNDARY_HEX = 16;

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
): Promise<Fenced> {
  const name = safeToolName(tool);
  let salt = 0;
  for (;;) {
    const digest = await digestOf(`airlock-fence\u0000${name}\u0000${salt}\u0000${body}`);
    const boundary = digest.slice(0, BOUNDARY_HEX);
    if (!body.includes(boundary)) {
      const open = `<untrusted-data source="tool:${name}" boundary="${boundary}">`;
      const close = `</untrusted-data boundary="${boundary}">`;
      return { text: `${open}\n${body}\n${close}`, boundary };
    }
    salt++;
  }
}
