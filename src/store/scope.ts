/**
 * What the service-backed stores (KV, R2, IndexedDB, the sealed store) share: keys scoped by
 * tenant, names checked before they become keys, lifetimes, and UTF-8 sizes. A handle read
 * from a model's arguments reaches a store only as a name inside its tenant's prefix, so a
 * handle of one tenant names nothing in another's: the same content stored for two tenants is
 * two entries.
 */
import { AirlockError } from "../errors/airlock-error.js";

export interface ScopeOptions {
  /**
   * Whose results these are: every key starts with it, so a store made for one tenant never
   * reads another's. Letters, digits and `_ . -`, up to 64. Default: none (one tenant).
   */
  readonly tenant?: string;
  /** Put before every key (a namespace shared with other data). Default `airlock/`. */
  readonly prefix?: string;
  /** How long a result lives, in milliseconds. Default 30 minutes. */
  readonly ttlMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  readonly now?: () => number;
}

export interface Scope {
  /** The key of a stored result or part, or undefined for a name that is not one of ours. */
  key(kind: Kind, name: string): string | undefined;
  /** Milliseconds a result lives; parts live a minute longer (they are written before it). */
  readonly ttlMs: number;
  readonly now: () => number;
  /** The tenant, as given (`""` for none). */
  readonly tenant: string;
}

/** `r`: a stored result (its manifest); `p`: a part of a text; `s`: a sealed artifact's chunk. */
export type Kind = "r" | "p" | "s";

/** Handles (`res_…`), part keys (`part_…`) and sealed ids (`raw_…`): short, no separators. */
const NAME = /^[A-Za-z0-9_-]{1,128}$/;
const TENANT = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const PREFIX = /^[A-Za-z0-9_./-]{0,128}$/;

/** Parts are written before their manifest, so they outlive it by this much. */
export const PART_GRACE_MS = 60_000;

export function createScope(o: ScopeOptions, maxKeyBytes: number): Scope {
  const tenant = o.tenant ?? "";
  if (typeof tenant !== "string" || (tenant !== "" && !TENANT.test(tenant)))
    throw new AirlockError(
      "options/invalid",
      "store: tenant must be 1 to 64 letters, digits or _ . - (starting with a letter or digit)",
    );
  const prefix = o.prefix ?? "airlock/";
  if (typeof prefix !== "string" || !PREFIX.test(prefix))
    throw new AirlockError(
      "options/invalid",
      "store: prefix must be up to 128 of A-Z a-z 0-9 _ . / -",
    );
  const ttlMs = o.ttlMs ?? 30 * 60_000;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1)
    throw new AirlockError("options/invalid", "store: ttlMs must be a positive integer");
  // Tenant first, then the kind: `t:acme/r/res_…`; `-` (no tenant) cannot be a tenant's name.
  const base = `${prefix}${tenant === "" ? "-" : `t:${tenant}`}/`;
  if (base.length + 2 + 128 > maxKeyBytes)
    throw new AirlockError(
      "options/invalid",
      `store: prefix and tenant leave no room in a ${maxKeyBytes}-byte key`,
    );
  return {
    key: (kind, name) =>
      typeof name === "string" && NAME.test(name) ? `${base}${kind}/${name}` : undefined,
    ttlMs,
    now: o.now ?? Date.now,
    tenant,
  };
}

/**
 * Bytes of `text` in UTF-8, counted only as far as `limit`: anything over it returns
 * `limit + 1`. Strings that cannot reach the limit are not walked at all.
 */
export function utf8BytesUpTo(text: string, limit: number): number {
  if (text.length * 3 <= limit) return text.length <= limit ? utf8Length(text, limit) : limit + 1;
  if (text.length > limit) return limit + 1;
  return utf8Length(text, limit);
}

function utf8Length(text: string, limit: number): number {
  // One pass; a surrogate pair is 4 bytes (2 + 2 here), a lone one 3 (as TextEncoder writes U+FFFD).
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes +=
      c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? (isPair(text, i) ? 2 : 3) : 3;
    if (bytes > limit) return limit + 1;
  }
  return bytes;
}

function isPair(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c <= 0xdbff) {
    const d = text.charCodeAt(i + 1);
    return d >= 0xdc00 && d <= 0xdfff;
  }
  const b = text.charCodeAt(i - 1);
  return b >= 0xd800 && b <= 0xdbff;
}

/**
 * Remembers the parts this store instance wrote (or is writing), so the same part is written
 * once: a text that repeats a part, or two results that share one, make one write, and KV's and
 * R2's limit of one write per second to a key is never hit by us. Bounded: the oldest go first.
 */
export function createWriteMemo(
  now: () => number,
  limit = 512,
): {
  once(
    key: string,
    write: () => Promise<boolean>,
    fresh: (at: number) => boolean,
  ): Promise<boolean>;
} {
  const held = new Map<string, { at: number; done: Promise<boolean> }>();
  return {
    once(key, write, fresh) {
      const seen = held.get(key);
      if (seen !== undefined && fresh(seen.at)) return seen.done;
      const done = write().then(
        (ok) => {
          if (!ok) held.delete(key);
          return ok;
        },
        () => {
          held.delete(key);
          return false;
        },
      );
      held.delete(key);
      held.set(key, { at: now(), done });
      if (held.size > limit) held.delete(held.keys().next().value as string);
      return done;
    },
  };
}

/** A stored result as JSON, and back with the handle it must have; undefined for anything else. */
export function parseStored<T extends { handle: string }>(
  text: unknown,
  handle: string,
): T | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const value = JSON.parse(text) as T;
    return value !== null && typeof value === "object" && value.handle === handle
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}
