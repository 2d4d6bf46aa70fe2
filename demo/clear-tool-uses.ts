/**
 * "Delete old results": what a run's tool results cost per model call when old ones are
 * deleted instead of graded down, as Anthropic's `clear_tool_uses` context edit does. The run
 * view draws it beside the session, from the same results.
 */

/** The placeholder a cleared result leaves (its tokens are counted like any text). */
export const CLEARED = "[tool result cleared]";

export interface ClearOptions {
  /** Clearing starts when a call's tool results pass this many tokens (the trigger). */
  readonly ceiling: number;
  /** The last results are never cleared. */
  readonly keep: number;
  /** Once triggered, results are cleared until at least this many tokens are freed. */
  readonly clearAtLeast: number;
  /** Tokens of `CLEARED`. */
  readonly placeholderTokens: number;
}

export interface ClearTurn {
  /** Tokens of the tool results this call carries. */
  readonly tokens: number;
  /** Results cleared so far (always the oldest). */
  readonly cleared: number;
  /** Whether an earlier result was cleared at this call: the prompt's prefix changed. */
  readonly changed: boolean;
}

/**
 * For each model call, given each result's tokens as shaped (in call order) and how many
 * results each call carries: the oldest results are replaced by the placeholder once the call
 * passes the ceiling, the last `keep` kept, at least `clearAtLeast` tokens freed at a time.
 *
 * @example
 * clearToolUses([900, 900, 900, 900], [1, 2, 3, 4], { ceiling: 2000, keep: 1, clearAtLeast: 500, placeholderTokens: 5 });
 * // the third call passes 2,000: the first result is cleared (895 freed)
 */
export function clearToolUses(
  tokens: readonly number[],
  present: readonly number[],
  options: ClearOptions,
): ClearTurn[] {
  const { ceiling, keep, clearAtLeast, placeholderTokens } = options;
  let cleared = 0;
  return present.map((count) => {
    const total = () =>
      cleared * placeholderTokens + tokens.slice(cleared, count).reduce((a, b) => a + b, 0);
    let freed = 0;
    const before = cleared;
    if (total() > ceiling) {
      while (cleared < count - keep && freed < clearAtLeast) {
        freed += (tokens[cleared] ?? 0) - placeholderTokens;
        cleared++;
      }
    }
    return { tokens: total(), cleared, changed: cleared > before };
  });
}
