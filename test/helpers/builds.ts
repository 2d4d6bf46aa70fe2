/**
 * Two runs of one build, as an agent sees them when it runs a command again: the same steps with
 * other times, durations and ids; the warnings and retried errors every run prints; and, in the
 * failing run only, the failure's block (a headline and the lines under it that name no error).
 */
import { prng } from "./read-back.js";

const PACKAGES = ["cart", "ledger", "billing", "search", "auth", "mailer", "export", "orders"];
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];

/** The lines of the failure, as the failing run prints them (in its middle). */
export const FAILURE = [
  "FAIL src/cart/totals.test.ts > totals > applies the member discount",
  "  expected: 4182",
  "  received: 4200",
  "  at applyDiscount (src/cart/totals.ts:88:14)",
  "  at Object.<anonymous> (src/cart/totals.test.ts:41:5)",
];

/** A run of the build: `failing` adds the failure block and says 1 failed at the end. */
export function buildLog(seed: number, failing: boolean): string {
  const random = prng(seed);
  const n = (k: number) => Math.floor(random() * k);
  const lines: string[] = [];
  const stamp = (i: number) =>
    `2026-12-06T10:${String(10 + (i % 50)).padStart(2, "0")}:${String(n(60)).padStart(2, "0")}.${n(1000)}Z`;
  for (let i = 0; i < 3000; i++) {
    const pkg = PACKAGES[i % PACKAGES.length] as string;
    const word = WORDS[(i >> 3) % WORDS.length] as string;
    switch (i % 10) {
      case 3:
        lines.push(`${stamp(i)} WARN deprecated option --${word}-${pkg} (use --${pkg}.${word})`);
        break;
      case 1:
        lines.push(
          `${stamp(i)} WARN peer dependency ${pkg}-plugin@^${1 + n(4)}.0.0 is not installed`,
        );
        break;
      case 5:
        lines.push(
          `${stamp(i)} ERROR lint: ${word} rule is deprecated in .eslintrc.${pkg}.json, see the migration guide`,
        );
        break;
      case 9:
        lines.push(`${stamp(i)} WARN slow test ${pkg}/${word}.test.ts took ${n(9000)}ms`);
        break;
      case 7:
        lines.push(
          `${stamp(i)} ERROR fetch of https://registry.example/${pkg}/${word} failed after ${n(900)}ms, retrying (attempt ${1 + n(3)})`,
        );
        break;
      default:
        lines.push(
          `${stamp(i)} INFO compiled src/${pkg}/${word}-${i}.ts in ${n(90)}ms (${n(9000)} bytes)`,
        );
    }
    if (failing && i === 1500) lines.push(...FAILURE);
  }
  lines.push(failing ? "Tests: 211 passed, 1 failed" : "Tests: 212 passed, 0 failed");
  lines.push(`Done in ${n(90)}.${n(100)}s.`);
  return lines.join("\n");
}
