/**
 * Plays the generated 40-turn run (run.ts) through a session, as an agent's loop would: each
 * turn, the result is shaped and recorded, then the session's view is what that turn's model
 * call carries. Runs in the playground's worker; the page draws what it returns (run-view.ts).
 */
import { createMemoryStore, createSession, shape } from "agent-airlock";
import { CLEARED } from "./clear-tool-uses.ts";
import type { RunData, RunEntry, RunResult } from "./protocol.ts";
import { RUN_CEILING, RUN_KEEP, RUN_MAX_TOKENS, RUN_TURNS, runTurn } from "./run.ts";

export async function playRun(onTurn: (turn: number) => void): Promise<RunData> {
  const started = performance.now();
  const session = createSession({
    maxRunTokens: RUN_CEILING,
    maxTokens: RUN_MAX_TOKENS,
    keepRecent: RUN_KEEP,
    store: createMemoryStore(),
  });
  const results: RunResult[] = [];
  const views: RunEntry[][] = [];
  const texts: string[] = [];
  const seen = new Map<string, number>();
  const intern = (text: string) => {
    let at = seen.get(text);
    if (at === undefined) {
      at = texts.push(text) - 1;
      seen.set(text, at);
    }
    return at;
  };
  for (let t = 1; t <= RUN_TURNS; t++) {
    const { tool, input } = runTurn(t);
    const callId = `call_${t}`;
    const shaped = await session.shape(input(), { callId, tool });
    results.push({ callId, tool, status: shaped.status, tokens: shaped.meta.tokens ?? 0 });
    views.push(
      session.view().map((e) => ({
        callId: e.callId,
        level: e.level,
        tokens: e.tokens,
        text: intern(e.text),
      })),
    );
    onTurn(t);
  }
  // The placeholder's tokens, counted as the model would read it (unfenced, as it is).
  const placeholder = await shape(CLEARED, { untrusted: false, redact: false, maxTokens: 64 });
  return {
    ceiling: RUN_CEILING,
    maxTokens: RUN_MAX_TOKENS,
    keep: RUN_KEEP,
    results,
    views,
    texts,
    stats: session.stats(),
    placeholderTokens: placeholder.meta.tokens ?? 0,
    ms: Math.round(performance.now() - started),
  };
}
