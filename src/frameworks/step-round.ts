/**
 * One round budget for the parallel tool calls of one agent step, when the framework runs them
 * one `execute` at a time. A framework starts the calls of a step together (`Promise.all` over
 * the step's tool calls) but hands each to its tool alone, and never says how many there are.
 * So the calls of a step are gathered: the first call of a step opens a round, every call of the
 * same step that arrives before the gathering window closes joins it, and once every member has
 * been read and kept (`prepare`) the budget is shared out by the one allocator (`allocate`:
 * water-filling), as `shapeRound` does for calls it is given together.
 *
 * A step is known by a key the framework passes to every call of the step (the AI SDK's step
 * messages, LangGraph's per-step abort signals, the Agents SDK's run context, whose steps run
 * one after another). Its limits, stated in the docs:
 *   - a call that arrives after the window closed (a framework that starts a step's calls in
 *     separate macrotasks, a streamed step whose calls come far apart) is late: it gets what the
 *     round's members left, and at least `MIN_SHARE` tokens, so a late call may take the round up
 *     to `MIN_SHARE` over its budget;
 *   - every member waits for the slowest of its step to be read before any is fitted (the
 *     framework waits for all of them anyway before the model reads any);
 *   - more calls than `maxRoundTokens / MIN_SHARE` get `MIN_SHARE` each, over the budget.
 */

import type { Shaped } from "../pipeline/shaped.js";
import { tokensOf } from "../pipeline/shaped.js";
import { allocate } from "../round/allocate.js";
import { MIN_SHARE } from "../round/options.js";

/** One call of a round, read and kept: what it needs alone, and its fit to a smaller share. */
export interface RoundMember {
  /** Tokens the result takes when shaped alone within the call's own budget. */
  readonly need: number;
  /** The result within `share` tokens (the result shaped alone when `share >= need`). */
  fit(share: number): Promise<Shaped>;
}

/** Where a call stood in its round, for `meta.telemetry.round`. */
export interface RoundPlace {
  readonly index: number;
  readonly calls: number;
  readonly need: number;
  readonly share: number;
  readonly maxRoundTokens: number;
}

export interface StepRounds {
  /** Fits one call's member within its step's round; `key` names the step. */
  join(key: object, member: Promise<RoundMember>): Promise<{ shaped: Shaped; place: RoundPlace }>;
}

interface Round {
  readonly members: Promise<RoundMember>[];
  gathering: boolean;
  /** Shares of the members gathered, once the window closed and every one of them was read. */
  readonly shares: Promise<readonly number[]>;
  /** Tokens the round has handed out: a share until its result is fitted, then its tokens. */
  committed: number;
  /** Calls that have joined and not yet been answered: the round is the step's until none. */
  pending: number;
}

/**
 * @example
 * const rounds = createStepRounds(6000, 0);
 * const { shaped } = await rounds.join(stepKey, prepareMember(output));
 */
export function createStepRounds(maxRoundTokens: number, windowMs: number): StepRounds {
  // Keyed by the framework's own per-step (or per-run) object: nothing outlives the step, and
  // two agents running at once never share a round.
  const open = new WeakMap<object, Round>();

  const shareOut = async (round: Round): Promise<readonly number[]> => {
    const settled = await Promise.allSettled(round.members);
    // A member that failed takes nothing (its caller gets the failure).
    const needs = settled.map((r) => (r.status === "fulfilled" ? r.value.need : 0));
    const fair = needs.length * MIN_SHARE <= maxRoundTokens;
    const shares = fair
      ? allocate(needs, maxRoundTokens, { min: MIN_SHARE })
      : needs.map((need) => Math.min(need, MIN_SHARE));
    round.committed = shares.reduce((sum, share) => sum + share, 0);
    return shares;
  };

  const start = (key: object): Round => {
    let close: () => void = () => undefined;
    const closed = new Promise<void>((done) => {
      close = done;
    });
    const round: Round = {
      members: [],
      gathering: true,
      shares: closed.then(() => shareOut(round)),
      committed: 0,
      pending: 0,
    };
    open.set(key, round);
    setTimeout(() => {
      round.gathering = false;
      close();
    }, windowMs);
    return round;
  };

  return {
    async join(key, member) {
      const round = open.get(key) ?? start(key);
      round.pending++;
      try {
        if (round.gathering) {
          const index = round.members.push(member) - 1;
          const m = await member;
          const shares = await round.shares;
          const share = shares[index] as number;
          const shaped = await m.fit(share);
          round.committed -= share - Math.min(share, tokensOf(shaped.meta));
          const place = { index, calls: shares.length, need: m.need, share, maxRoundTokens };
          return { shaped, place };
        }
        // Late: the window closed before this call of the step arrived.
        const m = await member;
        await round.shares;
        const share = Math.max(MIN_SHARE, Math.min(m.need, maxRoundTokens - round.committed));
        round.committed += share;
        const shaped = await m.fit(share);
        round.committed -= share - Math.min(share, tokensOf(shaped.meta));
        const calls = round.members.length + 1;
        return { shaped, place: { index: calls - 1, calls, need: m.need, share, maxRoundTokens } };
      } finally {
        if (--round.pending === 0 && open.get(key) === round) open.delete(key);
      }
    },
  };
}
