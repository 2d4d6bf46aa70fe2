/**
 * The stores of one request, made for the caller's tenant: results in KV (small) and R2
 * (large), raw artifacts sealed in their own bucket. Made per request, so nothing one tenant
 * stored is reachable through another's: every key is under the tenant's prefix.
 */
import {
  createCombinedStore,
  createKvStore,
  createR2Store,
  createSealedStore,
  edgePreset,
  importSealKey,
  type ResultStore,
  type SealedStore,
  type SealKey,
} from "agent-airlock/edge/o200k_base";
import { type Env, intVar } from "./env.js";

export function ttlMsOf(env: Env): number {
  return intVar(env.AIRLOCK_TTL_SECONDS, 1800, 60) * 1000;
}

/** The result store for a tenant, or undefined when the Worker has neither KV nor R2. */
export function resultStore(env: Env, tenant: string): ResultStore | undefined {
  const ttlMs = ttlMsOf(env);
  const kv = env.RESULTS_KV
    ? createKvStore({ namespace: env.RESULTS_KV, tenant, ttlMs })
    : undefined;
  const r2 = env.RESULTS_R2 ? createR2Store({ bucket: env.RESULTS_R2, tenant, ttlMs }) : undefined;
  if (kv && r2) return createCombinedStore({ small: kv, large: r2 });
  return kv ?? r2;
}

/** The raw-artifact store and its key, or undefined when the Worker keeps none. */
export async function rawStore(
  env: Env,
  tenant: string,
): Promise<{ store: SealedStore; key: SealKey } | undefined> {
  if (!env.RAW_R2 || !env.AIRLOCK_RAW_KEY) return undefined;
  return {
    store: createSealedStore({
      bucket: env.RAW_R2,
      tenant,
      ttlMs: ttlMsOf(env),
      maxBytes: edgePreset.maxBytes,
    }),
    key: await importSealKey(env.AIRLOCK_RAW_KEY),
  };
}
