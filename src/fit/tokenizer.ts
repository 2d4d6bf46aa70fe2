import { AirlockError } from "../errors/airlock-error.js";
import { ENCODINGS } from "./encodings/all.js";
import type { TokenizerName } from "./encodings/encoding.js";

export type { TokenizerName };

/**
 * Anything that counts tokens: pass one for models without a public tokenizer.
 *
 * @example
 * shape(text, { tokenizer: { name: "approx", count: (t) => Math.ceil(t.length / 3) } })
 */
export interface TokenCounter {
  readonly name?: string;
  count(text: string): number | Promise<number>;
}

export interface ResolvedTokenizer {
  readonly name: string;
  count(text: string): Promise<number>;
}

/**
 * Loads the named encoding lazily (a dynamic import per name, from the encodings this build
 * knows), or wraps a user counter.
 */
export async function resolveTokenizer(
  spec: TokenizerName | TokenCounter,
): Promise<ResolvedTokenizer> {
  if (typeof spec !== "string") {
    const name = spec.name ?? "custom";
    return {
      name,
      async count(text) {
        let n: number;
        try {
          n = await spec.count(text);
        } catch (cause) {
          throw new AirlockError("fit/tokenizer-failed", `fit: tokenizer "${name}" threw`, {
            cause,
          });
        }
        if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
          throw new AirlockError(
            "fit/tokenizer-failed",
            `fit: tokenizer "${name}" returned ${String(n)}`,
          );
        }
        return Math.ceil(n);
      },
    };
  }
  if (!ENCODINGS.names.includes(spec)) {
    throw new AirlockError(
      "fit/tokenizer-failed",
      `fit: tokenizer "${spec}" is not in this build (${ENCODINGS.missing})`,
    );
  }
  const module = await ENCODINGS.load(spec);
  const countTokens = module.countTokens;
  // Tool output may contain "<|endoftext|>" and friends: count them as the plain text they are
  // (the default would throw on them).
  const plain = { disallowedSpecial: new Set<string>() };
  return {
    name: spec,
    async count(text) {
      return countTokens(text, plain);
    },
  };
}

/**
 * The tokenizer loaded on first use, once (a failed load is not kept: the next call tries again).
 *
 * @example
 * const tokenizer = lazyTokenizer("o200k_base");
 * await (await tokenizer()).count("hello"); // 1
 */
export function lazyTokenizer(
  spec: TokenizerName | TokenCounter,
): () => Promise<ResolvedTokenizer> {
  let loading: Promise<ResolvedTokenizer> | undefined;
  return () => {
    loading ??= resolveTokenizer(spec);
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}
